/* tests/gpu/test_perks_exchange.cu -- perks/exchange.cuh: a 2D domain split into slabs of rows
 * (perks/decomp.h), one exchange of 1 ghost row per step, ssam's 5-point stencil (Dirichlet) on
 * each slab, equal bit for bit to the undivided domain after N steps.
 *   - virtual ranks on one GPU (perks_slab_exchange_local): 1, 2, 3 and 7 ranks, ragged sizes,
 *     N = 1, 2, 9 steps, float and double;
 *   - with two or more GPUs and NCCL: one rank per GPU in this process (ncclCommInitAll), the
 *     exchange through perks_slab_exchange_nccl, the same check ("skipped" line otherwise);
 *   - the error codes.
 * Each rank runs the stencil over its buffer with the ghost rows kept (the kernel's Dirichlet rows);
 * the first rank starts its buffer at its first own row and the last ends at its last own row, so
 * the domain's own boundary rows are kept too. */
#include <perks/exchange.cuh>
#include <ssam/stencil.cuh>

#include "gpucheck.h"

SSAM_STENCIL2D_DEFINE(st_f, float, SSAM_SHAPE_2D5PT, 4, 128)
SSAM_STENCIL2D_DEFINE(st_d, double, SSAM_SHAPE_2D5PT, 4, 128)

typedef int (*stencil_fn)(const ssam_stencil_args *, cudaStream_t);

/* one step of the stencil over rows [r0, r1) of a buffer (ghosts kept as the kernel's boundary) */
static int step(stencil_fn f, const void *coef, int ncoef, const void *src, void *dst, int nx, int r0, int r1, size_t es,
                cudaStream_t st)
{
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = (const char *)src + (size_t)r0 * nx * es;
    a.dst = (char *)dst + (size_t)r0 * nx * es;
    a.nx = nx; a.ny = r1 - r0; a.coef = coef; a.ncoef = ncoef; a.boundary = SSAM_STENCIL_DIRICHLET;
    return f(&a, st);
}

/* the buffer rows a rank computes over: ghosts only where it has a neighbour */
static void rows_of(const perks_slab *s, int *r0, int *r1)
{
    *r0 = s->peer[0] >= 0 ? 0 : s->halo;
    *r1 = s->peer[1] >= 0 ? s->buf_planes : s->halo + s->own;
}

/* N steps on P subdomains (dev[r]: the GPU of rank r; comm: NCCL, or NULL for local copies)
 * against the undivided domain on GPU dev[0] */
static void run(int dbl, int nx, int ny, int P, int N, const int *dev, void *comms)
{
    const size_t es = dbl ? 8 : 4, n = (size_t)nx * ny;
    stencil_fn f = dbl ? st_d_launch : st_f_launch;
    const int ncoef = dbl ? st_d_ncoef() : st_f_ncoef();
    double cd[16];
    float cf[16];
    for (int i = 0; i < ncoef; i++) { cd[i] = 0.2 + 0.05 * i; cf[i] = (float)cd[i]; }
    const void *coef = dbl ? (const void *)cd : (const void *)cf;
    char *h = (char *)malloc(n * es), *ref = (char *)malloc(n * es), *got = (char *)malloc(n * es);
    for (size_t i = 0; i < n; i++) {
        double v = gpucheck_uniform();
        if (dbl) ((double *)h)[i] = v; else ((float *)h)[i] = (float)v;
    }
    /* the undivided domain */
    void *a = NULL, *b = NULL;
    CUDA_OK(cudaSetDevice(dev[0]));
    CUDA_OK(cudaMalloc(&a, n * es));
    CUDA_OK(cudaMalloc(&b, n * es));
    CUDA_OK(cudaMemcpy(a, h, n * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(b, h, n * es, cudaMemcpyHostToDevice));
    for (int t = 0; t < N; t++) {
        CHECK(step(f, coef, ncoef, a, b, nx, 0, ny, es, 0) == 0, "undivided step");
        void *x = a; a = b; b = x;
    }
    CUDA_OK(cudaMemcpy(ref, a, n * es, cudaMemcpyDeviceToHost));
    cudaFree(a);
    cudaFree(b);
    /* the slabs */
    perks_slab s[8];
    void *cur[8], *nxt[8];
    cudaStream_t st[8];
    for (int r = 0; r < P; r++) {
        CHECK(perks_slab_make(&s[r], ny, P, r, 1, PERKS_SLAB_DIRICHLET) == 0, "slab %d of %d", r, P);
        CUDA_OK(cudaSetDevice(dev[r]));
        CUDA_OK(cudaStreamCreate(&st[r]));
        CUDA_OK(cudaMalloc(&cur[r], (size_t)s[r].buf_planes * nx * es));
        CUDA_OK(cudaMalloc(&nxt[r], (size_t)s[r].buf_planes * nx * es));
        CUDA_OK(cudaMemset(cur[r], 0xFF, (size_t)s[r].buf_planes * nx * es)); /* NaN ghosts until exchanged */
        CUDA_OK(cudaMemcpy((char *)cur[r] + (size_t)s[r].halo * nx * es, h + (size_t)s[r].first * nx * es,
                           (size_t)s[r].own * nx * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(nxt[r], cur[r], (size_t)s[r].buf_planes * nx * es, cudaMemcpyDeviceToDevice));
    }
    for (int t = 0; t < N && !check__failed_case; t++) {
        if (comms) {
#ifdef PERKS_HAVE_NCCL
            CHECK(ncclGroupStart() == ncclSuccess, "group");
            for (int r = 0; r < P; r++) {
                CUDA_OK(cudaSetDevice(dev[r]));
                int rc = perks_slab_exchange_nccl(&s[r], cur[r], (size_t)nx * es, ((ncclComm_t *)comms)[r], st[r]);
                CHECK(rc == 0, "rank %d: exchange rc %d (%s)", r, rc, perks_strerror(rc));
            }
            CHECK(ncclGroupEnd() == ncclSuccess, "group end");
#endif
        } else {
            int rc = perks_slab_exchange_local(s, cur, P, (size_t)nx * es, st[0]);
            CHECK(rc == 0, "local exchange rc %d (%s)", rc, perks_strerror(rc));
            CUDA_OK(cudaStreamSynchronize(st[0]));
        }
        for (int r = 0; r < P; r++) {
            int r0, r1;
            rows_of(&s[r], &r0, &r1);
            CUDA_OK(cudaSetDevice(dev[r]));
            CHECK(step(f, coef, ncoef, cur[r], nxt[r], nx, r0, r1, es, st[r]) == 0, "rank %d step", r);
        }
        for (int r = 0; r < P; r++) {
            CUDA_OK(cudaSetDevice(dev[r]));
            CUDA_OK(cudaStreamSynchronize(st[r]));
            void *x = cur[r]; cur[r] = nxt[r]; nxt[r] = x;
        }
    }
    for (int r = 0; r < P; r++) {
        CUDA_OK(cudaSetDevice(dev[r]));
        CUDA_OK(cudaMemcpy(got + (size_t)s[r].first * nx * es, (char *)cur[r] + (size_t)s[r].halo * nx * es,
                           (size_t)s[r].own * nx * es, cudaMemcpyDeviceToHost));
        cudaFree(cur[r]);
        cudaFree(nxt[r]);
        cudaStreamDestroy(st[r]);
    }
    CUDA_OK(cudaSetDevice(dev[0]));
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n * es; i++)
        if (got[i] != ref[i] && !bad++) first = i / es;
    CHECK(bad == 0, "%s %dx%d, %d ranks%s, %d steps: %zu bytes differ from the undivided domain (first at row %zu, "
          "column %zu)", dbl ? "double" : "float", nx, ny, P, comms ? " (NCCL)" : "", N, bad, first / nx, first % nx);
    free(h); free(ref); free(got);
}

static void test_local(int light)
{
    case_begin("perks exchange: virtual ranks on one GPU (device copies) equal the undivided domain bit for bit");
    static const int shapes[][2] = {{37, 29}, {300, 131}, {8, 7}};
    static const int ranks[] = {1, 2, 3, 7};
    static const int steps[] = {1, 2, 9};
    const int dev[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (int si = 0; si < (light ? 2 : 3) && !check__failed_case; si++)
        for (int pi = 0; pi < 4 && !check__failed_case; pi++)
            for (int ni = 0; ni < 3 && !check__failed_case; ni++)
                for (int dbl = 0; dbl < 2 && !check__failed_case; dbl++) {
                    if (ranks[pi] > shapes[si][1]) continue; /* a slab of at least one row */
                    run(dbl, shapes[si][0], shapes[si][1], ranks[pi], steps[ni], dev, NULL);
                }
    case_end();
}

static void test_nccl(void)
{
    int ngpu = 0;
    CUDA_OK(cudaGetDeviceCount(&ngpu));
#ifdef PERKS_HAVE_NCCL
    if (ngpu < 2) {
        printf("skipped: perks exchange through NCCL (%d GPU: one rank needs no NCCL call)\n", ngpu);
        return;
    }
    case_begin("perks exchange: one rank per GPU through NCCL equals the undivided domain bit for bit");
    int P = ngpu > 8 ? 8 : ngpu, dev[8];
    for (int r = 0; r < P; r++) dev[r] = r;
    ncclComm_t comms[8];
    CHECK(ncclCommInitAll(comms, P, dev) == ncclSuccess, "ncclCommInitAll over %d GPUs", P);
    if (!check__failed_case) {
        run(0, 300, 131, P, 9, dev, comms);
        run(1, 37, 29, P, 2, dev, comms);
        for (int r = 0; r < P; r++) ncclCommDestroy(comms[r]);
    }
    case_end();
#else
    printf("skipped: perks exchange through NCCL (no <nccl.h> in this build; %d GPUs)\n", ngpu);
#endif
}

static void test_errors(void)
{
    case_begin("perks exchange error codes");
    perks_slab s[2];
    void *bufs[2] = {NULL, NULL};
    CHECK(perks_slab_make(&s[0], 10, 2, 0, 1, PERKS_SLAB_DIRICHLET) == 0 &&
          perks_slab_make(&s[1], 12, 2, 1, 1, PERKS_SLAB_DIRICHLET) == 0, "slabs");
    CHECK(perks_slab_exchange_local(NULL, bufs, 2, 4, 0) == PERKS_ENULL, "NULL slabs");
    CHECK(perks_slab_exchange_local(s, bufs, 2, 4, 0) == PERKS_ENULL, "NULL buffer");
    CUDA_OK(cudaMalloc(&bufs[0], 1024));
    CUDA_OK(cudaMalloc(&bufs[1], 1024));
    CHECK(perks_slab_exchange_local(s, bufs, 2, 4, 0) == PERKS_ESIZE, "ranks that disagree on the domain");
    CHECK(strstr(perks_strerror(PERKS_ECOMM), "NCCL") != NULL, "strerror ECOMM");
    cudaFree(bufs[0]);
    cudaFree(bufs[1]);
    case_end();
}

/* usage: test_perks_exchange [--light] */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    test_errors();
    test_local(light);
    test_nccl();
    return check_exit();
}
