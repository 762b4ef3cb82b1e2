/* tests/gpu/test_perks_exchange.cu -- perks/exchange.cuh: a 2D domain split into slabs of rows
 * (perks/decomp.h), ghost rows exchanged between passes, a stencil (Dirichlet) on each slab, equal
 * bit for bit to the undivided domain after N steps.
 *   - one step per exchange (ssam's one-pass 5-point stencil), plain and overlapped (the interior
 *     before the exchange lands, the edges after it through scratch: exchange.cuh's OVERLAP);
 *   - several steps per exchange (ghost-zone recompute, halo r k): ssam's temporal blocking (up to
 *     4 steps a pass; N not a multiple of 4 too), plain and overlapped, against N one-pass steps
 *     of the undivided domain; the perks persistent stencil (k steps a launch, the result in a or
 *     b by parity) against the undivided domain run through the same perks kernel;
 *   - virtual ranks on one GPU (perks_slab_exchange_local): 1, 2, 3 and 7 ranks, ragged sizes,
 *     thin slabs (all boundary); perks_block3_exchange_local over every rank grid of 1 to 8 ranks
 *     (2D and 3D, star and box, periodic masks), each buffer cell against tests/mpi/ghosts.h's rule;
 *     ssam's one-pass 3D star and box stepped on the blocks of 1 to 4 virtual ranks (an exchange a
 *     step), equal to the undivided domain bit for bit where every buffer starts at a multiple of
 *     the lane's V columns (an x cut elsewhere sums some cells in another order: within its rounding);
 *   - with two or more GPUs and NCCL: one rank per GPU in this process (ncclCommInitAll), the
 *     exchange through perks_slab_exchange_nccl, the same checks, and perks_slab_agree_nccl
 *     (agreement, and a disagreement found on every rank); a counted skip on one GPU or without
 *     <nccl.h>;
 *   - the error codes (buffers and slabs poisoned: a refused call writes nothing); with NCCL on one
 *     GPU (not under --light: compute-sanitizer reports NCCL's own start-up calls; a counted skip
 *     there): a one-rank communicator that agrees with its slab and not with a slab of two ranks, and
 *     perks_nccl_wait on an idle stream (0) and on a spinning one (PERKS_ETIMEOUT).
 * The undivided domain itself is anchored on the host: N steps of the 5-point stencil in double,
 * cell by cell within the rounding bound of t steps (anchor()).
 * Each rank runs the kernel over its buffer, ghosts included only where it has a neighbour, so the
 * domain's own boundary rows are the windows' kept edge rows.  Every buffer starts poisoned (NaN). */
#include <perks/exchange.cuh>
#include <perks/stencil.cuh>
#include <ssam/temporal.cuh>

#include "../mpi/ghosts.h"
#include "gpucheck.h"
#include "stencil_ref.h"

#define PT(I, DX, DY) {I, DX, DY, 0},

SSAM_STENCIL2D_DEFINE(st_f, float, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<4>)
SSAM_STENCIL2D_DEFINE(st_d, double, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<4>)
SSAM_STENCIL2D_TEMPORAL_DEFINE(tb_f, float, ONCHIP_SHAPE_2D5PT, ssam_temporal_policy<4, 128, SSAM_SCHEDULE_REGS>)
PERKS_STENCIL2D_DEFINE(ps_f, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<64, 4, 0>)
SSAM_STENCIL3D_DEFINE(s7_f, float, ONCHIP_SHAPE_3D7PT, ssam_stencil_policy<>)
SSAM_STENCIL3D_DEFINE(b27_f, float, ONCHIP_SHAPE_3D27PT, ssam_stencil_policy<>)

#define K_STEP 0  /* ssam one-pass: one step a pass, float or double */
#define K_TB 1    /* ssam temporal blocking: up to k <= 4 steps a pass, float */
#define K_PERKS 2 /* perks persistent stencil: k steps a launch, float */

typedef struct cfg {
    int kern, dbl, nx, ny, P, N, k, overlap;
} cfg;

static const char *kern_name[] = {"one-pass", "temporal", "perks"};

/* s steps over `rows` rows from src to dst (both at the window's first row); *in_dst: whether the
 * result is in dst (perks: the plan's result, dst after odd s), else in src */
static int pass(const cfg *c, const void *coef, void *src, void *dst, int rows, int s, cudaStream_t st, int *in_dst)
{
    *in_dst = 1;
    if (c->kern == K_PERKS) {
        perks_stencil2d_args a;
        memset(&a, 0, sizeof a);
        a.src = src; a.dst = dst; a.nx = c->nx; a.ny = rows; a.steps = s; a.coef = coef; a.ncoef = ps_f_NCOEF;
        a.cache = PERKS_CACHE_SMEM;
        perks_plan p;
        int rc = ps_f_plan(&a, &p);
        if (!rc) rc = ps_f_run(&a, &p, st);
        *in_dst = p.result == dst; /* the plan's result: dst after odd s */
        return rc;
    }
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = src; a.dst = dst; a.nx = c->nx; a.ny = rows; a.coef = coef; a.ncoef = 5; a.boundary = SSAM_STENCIL_DIRICHLET;
    a.steps = s; /* K_TB: s <= TT 4, one pass; K_STEP: s is 1; the result in dst */
    if (c->kern == K_TB) return tb_f_launch(&a, st);
    return c->dbl ? st_d_launch(&a, st) : st_f_launch(&a, st);
}

/* the undivided domain after N steps into ref (host): one-pass steps, or one perks launch */
static void reference(const cfg *c, const void *coef, const char *h, char *ref, int dev)
{
    const size_t es = c->dbl ? 8 : 4, n = (size_t)c->nx * c->ny;
    void *a = NULL, *b = NULL;
    CUDA_OK(cudaSetDevice(dev));
    CUDA_OK(cudaMalloc(&a, n * es));
    CUDA_OK(cudaMalloc(&b, n * es));
    CUDA_OK(cudaMemcpy(a, h, n * es, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemset(b, 0xFF, n * es));
    if (c->kern == K_PERKS) {
        int in_b = 0;
        CHECK(pass(c, coef, a, b, c->ny, c->N, 0, &in_b) == 0, "undivided perks launch");
        if (in_b) { void *x = a; a = b; b = x; }
    } else {
        cfg one = *c;
        one.kern = K_STEP;
        for (int t = 0; t < c->N; t++) {
            int in_b;
            CHECK(pass(&one, coef, a, b, c->ny, 1, 0, &in_b) == 0, "undivided step");
            void *x = a; a = b; b = x;
        }
    }
    CUDA_OK(cudaMemcpy(ref, a, n * es, cudaMemcpyDeviceToHost));
    cudaFree(a);
    cudaFree(b);
}

/* the undivided domain (ref, from the kit's kernels) against N steps on the host in double of the
 * 5-point Dirichlet stencil (the cells next to an edge keep their values; coefficients as the kernels
 * read them, rounded to float for float), cell by cell: |ref - cpu| <= 2 t 6 u A_t + 1e-300, where A_t
 * is the same t steps applied to |start| with |coefficients| (the bound of t steps of 5-term sums in
 * precision u, each step's rounding carried by the later steps' |weights|; the factor 2 covers the
 * double reference's own rounding and any order of the sum, fused or not).  A kernel that reads the
 * wrong neighbour or keeps a wrong cell is off by O(|value|): far above the bound (the coefficients
 * sum to 1.5, so A_t <= 1.5^t: float, 9 steps, bound <= 2.5e-4 where values reach 38; relative to A_t
 * 6.4e-6, to 2.4e-15 in double). */
static void anchor(const cfg *c, const double *cd, const float *cf, const char *h, const char *ref)
{
    const int W = c->nx, H = c->ny;
    const size_t n = (size_t)W * H;
    const double u = c->dbl ? 1.1102230246251565e-16 : 5.9604644775390625e-08;
    double w[5];
    for (int i = 0; i < 5; i++) w[i] = c->dbl ? cd[i] : (double)cf[i];
    static const int pts[5][4] = {ONCHIP_SHAPE_2D5PT(PT)};
    double *u0 = (double *)malloc(n * 8), *a = (double *)malloc(n * 8), *aa = (double *)malloc(n * 8),
           *scratch = (double *)malloc(n * 16);
    for (size_t i = 0; i < n; i++) u0[i] = c->dbl ? ((const double *)h)[i] : (double)((const float *)h)[i];
    /* the 5-point star keeps the cells next to an edge under either policy of a symmetric shape */
    ref_stencil_steps(pts, 5, w, u0, c->N, a, aa, scratch, n, 2, W, H, 1, W, (long long)W * H, SREF_KEEP_EXTENT);
    size_t bad = 0, first = 0;
    double worst = 0;
    for (size_t i = 0; i < n; i++) {
        const double v = c->dbl ? ((const double *)ref)[i] : (double)((const float *)ref)[i];
        const double bound = 2.0 * c->N * 6 * u * aa[i] + 1e-300, e = fabs(v - a[i]);
        if (!(e <= bound) && !bad++) first = i;
        if (e > worst) worst = e;
    }
    CHECK(bad == 0, "%s %s %dx%d, %d steps: the undivided domain differs from the host's in %zu cells beyond the rounding "
          "bound, first (x %zu, y %zu): %.9g, host %.9g (largest difference %.3g)", kern_name[c->kern],
          c->dbl ? "double" : "float", W, H, c->N, bad, first % W, first / W,
          c->dbl ? ((const double *)ref)[first] : (double)((const float *)ref)[first], a[first], worst);
    free(u0), free(a), free(aa), free(scratch);
}

/* N steps on P subdomains (dev[r]: the GPU of rank r; comms: NCCL, or NULL for local copies)
 * against the undivided domain on GPU dev[0]; returns 0, or -1 if the communicators were aborted */
static int run(const cfg *c, const int *dev, void *comms)
{
    const size_t es = c->dbl ? 8 : 4, n = (size_t)c->nx * c->ny, row = (size_t)c->nx * es;
    const int P = c->P, halo = c->kern == K_STEP ? 1 : c->k;
    double cd[5];
    float cf[5];
    for (int i = 0; i < 5; i++) { cd[i] = 0.2 + 0.05 * i; cf[i] = (float)cd[i]; }
    const void *coef = c->dbl ? (const void *)cd : (const void *)cf;
    char *h = (char *)malloc(n * es), *ref = (char *)malloc(n * es), *got = (char *)malloc(n * es);
    for (size_t i = 0; i < n; i++) {
        double v = gpucheck_uniform();
        if (c->dbl) ((double *)h)[i] = v; else ((float *)h)[i] = (float)v;
    }
    memset(got, 0xFF, n * es);
    reference(c, coef, h, ref, dev[0]);
    anchor(c, cd, cf, h, ref);
    /* the slabs: buffers poisoned, own rows from the start */
    perks_slab s[8];
    perks_slab_parts q[8];
    char *cur[8], *nxt[8], *scr[8];
    cudaStream_t st[8], xs[8];
    cudaEvent_t landed[8], done[8];
    int aborted = 0;
    /* virtual perks ranks share one compute stream: cooperative grids of one GPU one after another */
    const int one_stream = !comms && c->kern == K_PERKS;
    for (int r = 0; r < P; r++) {
        CHECK(perks_slab_make(&s[r], c->ny, P, r, halo, PERKS_SLAB_DIRICHLET) == 0, "slab %d of %d", r, P);
        CHECK(perks_slab_parts_make(&s[r], halo, &q[r]) == 0, "parts of slab %d", r);
        const size_t bytes = (size_t)s[r].buf_planes * row;
        CUDA_OK(cudaSetDevice(dev[r]));
        if (one_stream && r > 0) st[r] = st[0];
        else CUDA_OK(cudaStreamCreate(&st[r]));
        CUDA_OK(cudaStreamCreate(&xs[r]));
        CUDA_OK(cudaEventCreateWithFlags(&landed[r], cudaEventDisableTiming));
        CUDA_OK(cudaEventCreateWithFlags(&done[r], cudaEventDisableTiming));
        CUDA_OK(cudaMalloc(&cur[r], bytes));
        CUDA_OK(cudaMalloc(&nxt[r], bytes));
        CUDA_OK(cudaMalloc(&scr[r], (size_t)(q[r].scratch_planes + 1) * row));
        CUDA_OK(cudaMemset(cur[r], 0xFF, bytes));
        CUDA_OK(cudaMemset(nxt[r], 0xFF, bytes));
        CUDA_OK(cudaMemcpy(cur[r] + (size_t)s[r].halo * row, h + (size_t)s[r].first * row, (size_t)s[r].own * row,
                           cudaMemcpyHostToDevice));
    }
    for (int done_steps = 0, sn; done_steps < c->N && !check__failed_case; done_steps += sn) {
        sn = c->kern == K_STEP ? 1 : (c->N - done_steps < c->k ? c->N - done_steps : c->k);
        int in_dst = 1;
        if (c->overlap) /* the interior first: own rows only, while the ghosts are being written */
            for (int r = 0; r < P; r++) {
                const int w0 = q[r].inner_win[0], w1 = q[r].inner_win[1];
                if (w1 == w0) continue;
                CUDA_OK(cudaSetDevice(dev[r]));
                CHECK(pass(c, coef, cur[r] + w0 * row, nxt[r] + w0 * row, w1 - w0, sn, st[r], &in_dst) == 0, "rank %d interior", r);
            }
        if (comms) {
#ifdef PERKS_HAVE_NCCL
            CHECK(ncclGroupStart() == ncclSuccess, "group");
            for (int r = 0; r < P; r++) {
                CUDA_OK(cudaSetDevice(dev[r]));
                CUDA_OK(cudaStreamWaitEvent(xs[r], done[r], 0));
                int rc = perks_slab_exchange_nccl(&s[r], cur[r], row, ((ncclComm_t *)comms)[r], xs[r]);
                CHECK(rc == 0, "rank %d: exchange rc %d (%s)", r, rc, perks_strerror(rc));
            }
            CHECK(ncclGroupEnd() == ncclSuccess, "group end");
            for (int r = 0; r < P; r++) {
                CUDA_OK(cudaSetDevice(dev[r]));
                CUDA_OK(cudaEventRecord(landed[r], xs[r]));
            }
#endif
        } else {
            CUDA_OK(cudaSetDevice(dev[0]));
            void *bufs[8];
            for (int r = 0; r < P; r++) {
                CUDA_OK(cudaStreamWaitEvent(xs[0], done[r], 0));
                bufs[r] = cur[r];
            }
            int rc = perks_slab_exchange_local(s, bufs, P, row, xs[0]);
            CHECK(rc == 0, "local exchange rc %d (%s)", rc, perks_strerror(rc));
            CUDA_OK(cudaEventRecord(landed[0], xs[0]));
        }
        for (int r = 0; r < P; r++) {
            CUDA_OK(cudaSetDevice(dev[r]));
            CUDA_OK(cudaStreamWaitEvent(st[r], landed[comms ? r : 0], 0));
            if (c->overlap) {
                for (int k = 0; k < 2; k++) { /* each edge from its window into scratch, its rows into nxt */
                    const int e0 = q[r].edge[k][0], e1 = q[r].edge[k][1], w0 = q[r].edge_win[k][0], w1 = q[r].edge_win[k][1];
                    if (e1 == e0) continue;
                    CHECK(pass(c, coef, cur[r] + w0 * row, scr[r], w1 - w0, sn, st[r], &in_dst) == 0, "rank %d edge %d", r, k);
                    CUDA_OK(cudaMemcpyAsync(nxt[r] + e0 * row, scr[r] + (e0 - w0) * row, (e1 - e0) * row, cudaMemcpyDeviceToDevice,
                                            st[r]));
                }
            } else {
                const int r0 = s[r].win[0], r1 = s[r].win[1];
                CHECK(pass(c, coef, cur[r] + r0 * row, nxt[r] + r0 * row, r1 - r0, sn, st[r], &in_dst) == 0, "rank %d pass", r);
            }
            CUDA_OK(cudaEventRecord(done[r], st[r]));
        }
        if (in_dst)
            for (int r = 0; r < P; r++) { char *x = cur[r]; cur[r] = nxt[r]; nxt[r] = x; }
    }
#ifdef PERKS_HAVE_NCCL
    if (comms) {
        int rc = perks_nccl_wait((ncclComm_t *)comms, st, P, 60.0);
        CHECK(rc == 0, "perks_nccl_wait: %s", perks_strerror(rc));
        aborted = rc == PERKS_ECOMM || rc == PERKS_ETIMEOUT;
    }
#endif
    for (int r = 0; r < P; r++) {
        CUDA_OK(cudaSetDevice(dev[r]));
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(got + (size_t)s[r].first * row, cur[r] + (size_t)s[r].halo * row, (size_t)s[r].own * row,
                           cudaMemcpyDeviceToHost));
        cudaFree(cur[r]);
        cudaFree(nxt[r]);
        cudaFree(scr[r]);
        if (!one_stream || r == 0) cudaStreamDestroy(st[r]);
        cudaStreamDestroy(xs[r]);
        cudaEventDestroy(landed[r]);
        cudaEventDestroy(done[r]);
    }
    CUDA_OK(cudaSetDevice(dev[0]));
    size_t bad = 0, first = 0, unwritten = 0, moved = 0;
    for (size_t i = 0; i < n * es; i++)
        if (got[i] != ref[i] && !bad++) first = i / es;
    /* bit for bit compares something only where the undivided run wrote finite values (its buffers
     * start as NaN) and moved the state (a run that wrote nothing leaves the start in place) */
    for (size_t i = 0; i < n; i++) {
        unwritten += c->dbl ? !isfinite(((double *)ref)[i]) : !isfinite(((float *)ref)[i]);
        moved += memcmp(ref + i * es, h + i * es, es) != 0;
    }
    CHECK(unwritten == 0 && (moved > 0 || c->N == 0), "%s %s %dx%d, %d steps: the undivided domain has %zu of %zu cells "
          "not written or not finite, %zu moved from the start", kern_name[c->kern], c->dbl ? "double" : "float", c->nx,
          c->ny, c->N, unwritten, n, moved);
    CHECK(bad == 0, "%s %s%s %dx%d, %d ranks%s, %d steps (%d a pass): %zu bytes differ from the undivided domain "
          "(first at row %zu, column %zu)", kern_name[c->kern], c->dbl ? "double" : "float", c->overlap ? " overlapped" : "",
          c->nx, c->ny, P, comms ? " (NCCL)" : "", c->N, c->kern == K_STEP ? 1 : c->k, bad, first / c->nx, first % c->nx);
    free(h); free(ref); free(got);
    return aborted ? -1 : 0;
}

static const int shapes[][2] = {{37, 29}, {300, 131}, {8, 7}};
static const int ranks[] = {1, 2, 3, 7};
static const int dev0[8] = {0, 0, 0, 0, 0, 0, 0, 0};

static void test_local_step(int light, int overlap)
{
    case_begin(overlap ? "perks exchange: one step a pass, overlapped (interior before the exchange), virtual ranks, bit for bit"
                       : "perks exchange: one step a pass, virtual ranks on one GPU (device copies), bit for bit");
    static const int steps[] = {1, 2, 9};
    for (int si = 0; si < (light ? 2 : 3) && !check__failed_case; si++)
        for (int pi = 0; pi < 4 && !check__failed_case; pi++)
            for (int ni = 0; ni < 3 && !check__failed_case; ni++)
                for (int dbl = 0; dbl < 2 && !check__failed_case; dbl++) {
                    if (ranks[pi] > shapes[si][1]) continue; /* a slab of at least one row */
                    cfg c = {K_STEP, dbl, shapes[si][0], shapes[si][1], ranks[pi], steps[ni], 1, overlap};
                    run(&c, dev0, NULL);
                }
    case_end();
}

static void test_local_temporal(int light)
{
    case_begin("perks exchange: temporal blocking, 4 steps a pass (halo 4), plain and overlapped, virtual ranks, equals one-pass steps bit for bit");
    static const int steps[] = {3, 8, 9};
    for (int si = 0; si < 2 && !check__failed_case; si++)
        for (int pi = 0; pi < 4 && !check__failed_case; pi++)
            for (int ni = light ? 2 : 0; ni < 3 && !check__failed_case; ni++)
                for (int ov = 0; ov < 2 && !check__failed_case; ov++) {
                    cfg c = {K_TB, 0, shapes[si][0], shapes[si][1], ranks[pi], steps[ni], 4, ov};
                    run(&c, dev0, NULL);
                }
    /* thin middle slabs: 29 rows over 5 ranks of 6 or 5 rows < 2 x 4 */
    cfg t = {K_TB, 0, 37, 29, 5, 9, 4, 1};
    if (!check__failed_case) run(&t, dev0, NULL);
    case_end();
}

static void test_local_perks(int light)
{
    case_begin("perks exchange: the perks persistent stencil, k steps a launch (halo k), virtual ranks, equals the undivided perks run bit for bit");
    static const int ks[] = {2, 3}, steps[] = {1, 7};
    for (int si = 0; si < (light ? 1 : 2) && !check__failed_case; si++)
        for (int pi = 0; pi < 3 && !check__failed_case; pi++)
            for (int ki = 0; ki < 2 && !check__failed_case; ki++)
                for (int ni = 0; ni < 2 && !check__failed_case; ni++) {
                    cfg c = {K_PERKS, 0, shapes[si][0], shapes[si][1], ranks[pi], steps[ni], ks[ki], 0};
                    run(&c, dev0, NULL);
                }
    case_end();
}

#ifdef PERKS_HAVE_NCCL
static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* spins until *flag is set or max_cycles have passed (a stream kept busy for the timeout test) */
__global__ void spin_until(volatile int *flag, long long max_cycles)
{
    const long long t0 = clock64();
    while (!*flag && clock64() - t0 < max_cycles) {
    }
}

/* agreement on P ranks held here: 0 where the slabs match, PERKS_ESIZE where rank P-1 has another domain */
static void agree_cases(int P, const int *dev, ncclComm_t *comms)
{
    perks_slab s[8];
    cudaStream_t st[8];
    memset(s, 0, sizeof s);
    memset(st, 0, sizeof st);
    for (int r = 0; r < P; r++) {
        CUDA_OK(cudaSetDevice(dev[r]));
        CUDA_OK(cudaStreamCreate(&st[r]));
        CHECK(perks_slab_make(&s[r], 131, P, r, 1, PERKS_SLAB_DIRICHLET) == 0, "slab");
    }
    int rc = perks_slab_agree_nccl(s, P, 300, comms, st, 60.0);
    CHECK(rc == 0, "%d ranks with the same domain: %s", P, perks_strerror(rc));
    if (P > 1) {
        CHECK(perks_slab_make(&s[P - 1], 132, P, P - 1, 1, PERKS_SLAB_DIRICHLET) == 0, "slab");
        rc = perks_slab_agree_nccl(s, P, 300, comms, st, 60.0);
        CHECK(rc == PERKS_ESIZE, "rank %d with 132 rows, the others 131: %s", P - 1, perks_strerror(rc));
        perks_slab rev[8]; /* every slab right, but given to the wrong communicators */
        for (int r = 0; r < P; r++) CHECK(perks_slab_make(&rev[r], 131, P, P - 1 - r, 1, PERKS_SLAB_DIRICHLET) == 0, "slab");
        rc = perks_slab_agree_nccl(rev, P, 300, comms, st, 60.0);
        CHECK(rc == PERKS_ESIZE, "slabs in reverse rank order: %s", perks_strerror(rc));
        CHECK(perks_slab_make(&s[P - 1], 131, P, P - 1, 1, PERKS_SLAB_DIRICHLET) == 0, "slab");
        rc = perks_slab_agree_nccl(s, P, 300, comms, st, 60.0);
        CHECK(rc == 0, "agreement again after disagreements: %s", perks_strerror(rc));
    }
    for (int r = 0; r < P; r++) cudaStreamDestroy(st[r]);
    CUDA_OK(cudaSetDevice(dev[0]));
}
#endif

static void test_nccl(int light)
{
    const char *label = "perks exchange: one rank per GPU through NCCL (one-pass, overlapped, temporal, perks; agreement) "
                        "equals the undivided domain bit for bit";
    int ngpu = 0;
    if (cudaGetDeviceCount(&ngpu) != cudaSuccess) ngpu = 0;
#ifdef PERKS_HAVE_NCCL
    if (ngpu < 2) {
        char why[120];
        snprintf(why, sizeof why, "several ranks need two GPUs (%d here; one rank: the one-rank communicator case)", ngpu);
        check_skip(label, why);
        return;
    }
    case_begin(label);
    int P = ngpu > 8 ? 8 : ngpu, dev[8];
    for (int r = 0; r < P; r++) dev[r] = r;
    ncclComm_t comms[8];
    CHECK(ncclCommInitAll(comms, P, dev) == ncclSuccess, "ncclCommInitAll over %d GPUs", P);
    if (!check__failed_case) {
        static const cfg cs[] = {
            {K_STEP, 0, 300, 131, 0, 9, 1, 0}, {K_STEP, 1, 37, 29, 0, 2, 1, 0}, {K_STEP, 0, 300, 131, 0, 9, 1, 1},
            {K_STEP, 1, 37, 29, 0, 3, 1, 1},   {K_TB, 0, 300, 131, 0, 9, 4, 0}, {K_TB, 0, 300, 131, 0, 9, 4, 1},
            {K_PERKS, 0, 300, 131, 0, 7, 3, 0},
        };
        int dead = 0;
        for (size_t i = 0; i < sizeof cs / sizeof cs[0] && !check__failed_case && !dead; i++) {
            cfg c = cs[i];
            c.P = P;
            if (light && c.kern == K_PERKS) continue;
            dead = run(&c, dev, comms) != 0;
        }
        if (!dead && !check__failed_case) agree_cases(P, dev, comms);
        if (!dead)
            for (int r = 0; r < P; r++) ncclCommDestroy(comms[r]);
    }
    case_end();
#else
    (void)light;
    char why[96];
    snprintf(why, sizeof why, "no <nccl.h> in this build (%d GPUs)", ngpu);
    check_skip(label, why);
#endif
}

/* NCCL on one GPU: a one-rank communicator (not under --light) */
/* the blocks of grid p of n (halo, periodic) as virtual ranks on one GPU, cells of eb bytes: each
 * buffer cell after perks_block3_exchange_local (or, one rank with comm, perks_block3_exchange_nccl)
 * against the global cell it mirrors, or left as it was (poisoned); 0 if the grid does not fit */
static int block3_local(int shape, const int *p, const int *n, int halo, int per, int eb, void *comm)
{
    perks_grid3 g;
    if (perks_grid3_make(p[0], p[1], p[2], n[0], n[1], n[2], halo, per, &g)) return 0;
    const int P = g.nranks;
    perks_block3 *b = (perks_block3 *)calloc(P, sizeof *b);
    void **d = (void **)calloc(P, sizeof *d);
    unsigned char **h = (unsigned char **)calloc(P, sizeof *h);
    size_t *bytes = (size_t *)calloc(P, sizeof *bytes);
    for (int r = 0; r < P; r++) {
        CHECK(perks_block3_make(&g, r, &b[r]) == 0, "block %d", r);
        bytes[r] = (size_t)b[r].ext[0] * b[r].ext[1] * b[r].ext[2] * eb;
        h[r] = (unsigned char *)malloc(bytes[r]);
        memset(h[r], 0xEE, bytes[r]);
        ghosts_fill3(&b[r], shape, n, h[r], eb);
        CUDA_OK(cudaMalloc(&d[r], bytes[r]));
        CUDA_OK(cudaMemcpy(d[r], h[r], bytes[r], cudaMemcpyHostToDevice));
    }
    int rc = -1;
    (void)comm;
#ifdef PERKS_HAVE_NCCL
    if (comm) {
        size_t wb = 0;
        void *work = NULL;
        CHECK(perks_block3_pack_bytes(&b[0], shape, (size_t)eb, &wb) == 0, "pack bytes");
        CUDA_OK(cudaMalloc(&work, wb ? wb : 1));
        rc = perks_block3_exchange_nccl(&b[0], shape, d[0], work, (size_t)eb, (ncclComm_t)comm, 0);
        CUDA_OK(cudaDeviceSynchronize());
        cudaFree(work);
    } else
#endif
        rc = perks_block3_exchange_local(b, d, P, shape, (size_t)eb, 0);
    CHECK(rc == 0, "grid %dx%dx%d of %dx%dx%d halo %d periodic %d: %s", p[0], p[1], p[2], n[0], n[1], n[2], halo, per,
          perks_strerror(rc));
    for (int r = 0; r < P && !check__failed_case; r++) {
        int at[3] = {0, 0, 0};
        CUDA_OK(cudaMemcpy(h[r], d[r], bytes[r], cudaMemcpyDeviceToHost));
        const size_t bad = ghosts_bad3(&b[r], shape, n, h[r], eb, 0xEE, at);
        CHECK(bad == 0, "grid %dx%dx%d of %dx%dx%d halo %d periodic %d shape %d eb %d: rank %d, %zu bytes wrong, the first "
              "in cell (%d, %d, %d)", p[0], p[1], p[2], n[0], n[1], n[2], halo, per, shape, eb, r, bad, at[0], at[1], at[2]);
    }
    for (int r = 0; r < P; r++) cudaFree(d[r]), free(h[r]);
    free(b), free(d), free(h), free(bytes);
    return 1;
}

/* one step of the 7-point star (box 0) or the 27-point box over nx x ny x nz (a buffer), Dirichlet */
static int step3(int box, const float *coef, const void *src, void *dst, const int *ext)
{
    ssam_stencil_args a;
    memset(&a, 0, sizeof a);
    a.src = src; a.dst = dst; a.nx = ext[0]; a.ny = ext[1]; a.nz = ext[2];
    a.coef = coef; a.ncoef = box ? 27 : 7; a.boundary = SSAM_STENCIL_DIRICHLET; a.steps = 1;
    return box ? b27_f_launch(&a, 0) : s7_f_launch(&a, 0);
}

/* N one-pass steps of ssam's 3D star or box on the blocks of grid p over n (virtual ranks, halo 1,
 * perks_block3_exchange_local of the matching shape before each step, each buffer stepped whole
 * with its ghosts kept) against N steps of the undivided domain: every cell bit for bit */
static int blocks_aligned, blocks_unaligned; /* grids checked bit for bit, and within the bound */
static size_t blocks_off;                  /* cells of the unaligned grids not bit for bit */
static void blocks_step(int box, const int *p, const int *n, int N)
{
    perks_grid3 g;
    CHECK(perks_grid3_make(p[0], p[1], p[2], n[0], n[1], n[2], 1, 0, &g) == 0, "grid");
    if (check__failed_case) return;
    const int P = g.nranks, shape = box ? PERKS_BOX : PERKS_STAR;
    const size_t cells = (size_t)n[0] * n[1] * n[2];
    float cf[27], sum = 0, *h = (float *)malloc(cells * 4), *ref = (float *)malloc(cells * 4), *got = (float *)malloc(cells * 4);
    for (int i = 0; i < 27; i++) cf[i] = 0.2f + 0.5f * (float)(gpucheck_uniform() + 1), sum += cf[i];
    for (int i = 0; i < 27; i++) cf[i] /= sum;
    for (size_t i = 0; i < cells; i++) h[i] = (float)gpucheck_uniform();
    memset(got, 0xFF, cells * 4);
    void *d0, *d1;
    CUDA_OK(cudaMalloc(&d0, cells * 4));
    CUDA_OK(cudaMalloc(&d1, cells * 4));
    CUDA_OK(cudaMemcpy(d0, h, cells * 4, cudaMemcpyHostToDevice));
    for (int t = 0; t < N; t++) {
        CHECK(step3(box, cf, d0, d1, n) == 0, "the undivided domain, step %d", t);
        void *x = d0; d0 = d1; d1 = x;
    }
    CUDA_OK(cudaMemcpy(ref, d0, cells * 4, cudaMemcpyDeviceToHost));
    perks_block3 b[8];
    void *cur[8], *nxt[8];
    for (int r = 0; r < P; r++) {
        CHECK(perks_block3_make(&g, r, &b[r]) == 0, "block %d", r);
        const size_t bytes = (size_t)b[r].ext[0] * b[r].ext[1] * b[r].ext[2] * 4;
        CUDA_OK(cudaMalloc(&cur[r], bytes));
        CUDA_OK(cudaMalloc(&nxt[r], bytes));
        CUDA_OK(cudaMemset(cur[r], 0xFF, bytes)); /* NaN: a ghost read before it is exchanged shows */
        CUDA_OK(cudaMemset(nxt[r], 0xFF, bytes));
        CHECK(perks__box_copy(cur[r], b[r].ext, b[r].lo, h, n, b[r].first, b[r].own, 4, 0) == 0, "own cells in");
    }
    for (int t = 0; t < N && !check__failed_case; t++) {
        CHECK(perks_block3_exchange_local(b, cur, P, shape, 4, 0) == 0, "exchange, step %d", t);
        for (int r = 0; r < P; r++) {
            CHECK(step3(box, cf, cur[r], nxt[r], b[r].ext) == 0, "rank %d, step %d", r, t);
            void *x = cur[r]; cur[r] = nxt[r]; nxt[r] = x;
        }
    }
    for (int r = 0; r < P; r++) {
        CHECK(perks__box_copy(got, n, b[r].first, cur[r], b[r].ext, b[r].lo, b[r].own, 4, 0) == 0, "own cells out");
        cudaFree(cur[r]), cudaFree(nxt[r]);
    }
    CUDA_OK(cudaDeviceSynchronize());
    /* a cell's sum is in one order where its column has the same place among its lane's V = 4
     * columns (ssam/stencil/row.cuh: the points of the lane's own columns first, then those of the
     * lanes to the right and left): bit for bit where every buffer starts V-aligned in the domain,
     * else within the rounding of two orders (|u| <= 1, weights > 0 summing to 1: each step's sum
     * off by npts u at most, and the steps do not grow a difference) */
    int aligned = 1;
    for (int r = 0; r < P; r++) aligned &= (b[r].first[0] - b[r].lo[0]) % 4 == 0;
    const double bound = aligned ? 0 : 2.0 * (box ? 27 : 7) * N * 0x1p-24;
    size_t bad = 0, first = 0, off = 0;
    double worst = 0;
    for (size_t i = 0; i < cells; i++) {
        const double d = fabs((double)got[i] - (double)ref[i]);
        off += memcmp(&got[i], &ref[i], 4) != 0;
        if (!(d <= bound) && !bad++) first = i;
        worst = d > worst || d != d ? d : worst;
    }
    CHECK(bad == 0, "%s, grid %dx%dx%d of %dx%dx%d, %d steps, buffers %sV-aligned: %zu cells differ from the undivided "
          "domain by more than %.3g (largest %.3g), the first (%zu, %zu, %zu)", box ? "27-point box" : "7-point star", p[0],
          p[1], p[2], n[0], n[1], n[2], N, aligned ? "" : "not ", bad, bound, worst, first % n[0], first / n[0] % n[1],
          first / ((size_t)n[0] * n[1]));
    if (aligned) blocks_aligned++;
    else blocks_unaligned++, blocks_off += off;
    cudaFree(d0), cudaFree(d1), free(h), free(ref), free(got);
}

static void test_blocks_step(int light)
{
    /* 49: every x cut of 2, 3 and 4 blocks leaves the buffers V-aligned (perks_slab_first) */
    static const int ns[][3] = {{49, 7, 6}, {19, 14, 11}, {9, 17, 6}};
    case_begin("perks exchange: ssam's one-pass 3D star (7 points) and box (27) on the blocks of every rank grid of "
               "1 to 4 virtual ranks (perks_block3_exchange_local, halo 1, Dirichlet) equal the undivided domain after "
               "1 and 3 steps: bit for bit where each buffer starts V-aligned, else within the rounding of two orders");
    blocks_aligned = blocks_unaligned = 0, blocks_off = 0;
    int p[3];
    for (int P = 1; P <= 4 && !check__failed_case; P++)
        for (p[2] = 1; p[2] <= P; p[2]++)
            for (p[1] = 1; p[1] <= P / p[2]; p[1]++) {
                if (P % (p[1] * p[2])) continue;
                p[0] = P / (p[1] * p[2]);
                for (size_t ni = 0; ni < (light ? 2 : sizeof ns / sizeof *ns); ni++)
                    for (int box = 0; box <= 1 && !check__failed_case; box++)
                        for (int N = 1; N <= 3 && !check__failed_case; N += 2) blocks_step(box, p, ns[ni], N);
            }
    /* both kinds ran: the x cuts of 49 bit for bit, those of 19 within the bound */
    CHECK(blocks_aligned >= 10 && blocks_unaligned >= 4, "%d grids bit for bit, %d within the bound", blocks_aligned,
          blocks_unaligned);
    printf("  blocks: %d grids bit for bit, %d within the bound (%zu cells there not bit for bit)\n", blocks_aligned,
           blocks_unaligned, blocks_off);
    case_end();
}

static void test_local_block3(int light)
{
    static const int ns[][3] = {{9, 8, 7}, {10, 7, 1}, {5, 6, 4}};
    static const int Ps[] = {1, 2, 3, 4, 6, 8};
    case_begin("perks exchange: perks_block3_exchange_local, virtual ranks of every rank grid of 1, 2, 3, 4, 6 and 8 "
               "ranks (2D and 3D, star and box, halo 1 and 2, no, every and the x-z axes periodic, cells of 4 and 8 "
               "bytes): each ghost the global cell it mirrors, own cells and a star's edges and corners unchanged");
    int ran = 0, p[3];
    for (size_t pi = 0; pi < sizeof Ps / sizeof *Ps && !check__failed_case; pi++) {
        const int P = Ps[pi];
        if (light && P > 4) continue;
        for (p[2] = 1; p[2] <= P; p[2]++)
            for (p[1] = 1; p[1] <= P / p[2]; p[1]++) {
                if (P % (p[1] * p[2])) continue;
                p[0] = P / (p[1] * p[2]);
                for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
                    for (int shape = PERKS_STAR; shape <= PERKS_BOX; shape++)
                        for (int halo = 1; halo <= 2; halo++)
                            for (int per = 0; per <= 7; per += light ? 7 : per == 0 ? 5 : 2)
                                for (int eb = 4; eb <= 8 && !check__failed_case; eb += 4)
                                    ran += block3_local(shape, p, ns[ni], halo, per, eb, NULL);
            }
    }
    CHECK(ran > 100, "%d grids ran", ran);
    {   /* refusals: nothing written */
        perks_grid3 g;
        perks_block3 bl[2];
        void *bufs[2] = {NULL, NULL};
        CHECK(perks_grid3_make(2, 1, 1, 8, 8, 8, 1, 0, &g) == 0 && perks_block3_make(&g, 0, &bl[0]) == 0 &&
                  perks_block3_make(&g, 1, &bl[1]) == 0, "grid");
        CHECK(perks_block3_exchange_local(NULL, bufs, 2, PERKS_STAR, 4, 0) == PERKS_ENULL, "NULL blocks");
        CHECK(perks_block3_exchange_local(bl, bufs, 2, PERKS_STAR, 4, 0) == PERKS_ENULL, "NULL buffer");
        char c0[4], c1[4];
        bufs[0] = c0, bufs[1] = c1;
        CHECK(perks_block3_exchange_local(bl, bufs, 1, PERKS_STAR, 4, 0) == PERKS_ESIZE, "a rank count not the grid's");
        CHECK(perks_block3_exchange_local(bl, bufs, 2, 2, 4, 0) == PERKS_ESIZE, "shape 2");
        CHECK(perks_block3_exchange_local(bl, bufs, 2, PERKS_STAR, 0, 0) == PERKS_ESIZE, "0 bytes");
        perks_block3 sw[2] = {bl[1], bl[0]};
        CHECK(perks_block3_exchange_local(sw, bufs, 2, PERKS_STAR, 4, 0) == PERKS_ESIZE, "blocks out of rank order");
        size_t wb = 0;
        CHECK(perks_block3_pack_bytes(&bl[0], PERKS_BOX, 4, &wb) == 0 && wb == 2 * 8 * 8 * 4, "pack bytes %zu", wb);
        CHECK(perks_block3_pack_bytes(&bl[0], PERKS_BOX, 0, &wb) == PERKS_ESIZE, "pack bytes of 0-byte cells");
    }
    case_end();
}

static void test_nccl_one(int light)
{
    const char *label = "perks exchange: agreement and the bounded wait on a one-rank communicator (0, PERKS_ESIZE, "
                        "PERKS_ETIMEOUT); perks_block3_exchange_nccl on one (every axis periodic: sent to itself)";
#ifdef PERKS_HAVE_NCCL
    if (light) {
        check_skip(label, "--light: compute-sanitizer reports NCCL's own start-up calls");
        return;
    }
    case_begin(label);
    int dev = 0;
    ncclComm_t comm;
    cudaStream_t st;
    CUDA_OK(cudaSetDevice(0));
    CUDA_OK(cudaStreamCreate(&st));
    CHECK(ncclCommInitAll(&comm, 1, &dev) == ncclSuccess, "ncclCommInitAll over 1 GPU");
    if (!check__failed_case) {
        agree_cases(1, &dev, &comm);
        perks_slab two;
        CHECK(perks_slab_make(&two, 131, 2, 0, 1, PERKS_SLAB_DIRICHLET) == 0, "slab");
        int rc = perks_slab_agree_nccl(&two, 1, 300, &comm, &st, 60.0);
        CHECK(rc == PERKS_ESIZE, "a slab of 2 ranks on a communicator of 1: %s", perks_strerror(rc));
        CHECK(perks_nccl_wait(&comm, &st, 1, 1.0) == 0, "wait on an idle stream");
        /* a stream kept busy: the wait gives up after 50 ms and aborts the communicator */
        int *flag = NULL, *dflag = NULL;
        CUDA_OK(cudaHostAlloc((void **)&flag, sizeof(int), cudaHostAllocMapped));
        *(volatile int *)flag = 0;
        CUDA_OK(cudaHostGetDevicePointer((void **)&dflag, flag, 0));
        spin_until<<<1, 1, 0, st>>>(dflag, 4000000000ll);
        CUDA_OK(cudaGetLastError());
        const double t0 = seconds();
        rc = perks_nccl_wait(&comm, &st, 1, 0.05);
        const double waited = seconds() - t0;
        *(volatile int *)flag = 1;
        CUDA_OK(cudaStreamSynchronize(st));
        CHECK(rc == PERKS_ETIMEOUT, "wait on a spinning stream: %s", perks_strerror(rc));
        CHECK(waited >= 0.05 && waited < 5.0, "the wait took %.3f s for a 0.05 s limit", waited);
        cudaFreeHost(flag);
        /* comm is aborted: not destroyed */
    }
    if (!check__failed_case) { /* perks_block3_exchange_nccl on a fresh one-rank communicator */
        ncclComm_t c1 = NULL;
        const int made = ncclCommInitAll(&c1, 1, &dev) == ncclSuccess;
        CHECK(made, "ncclCommInitAll over 1 GPU");
        const int p1[3] = {1, 1, 1}, n1[3] = {7, 6, 5};
        /* every axis periodic: 6 or 26 regions sent to itself, packed, matched in order, unpacked */
        for (int shape = PERKS_STAR; shape <= PERKS_BOX && made && !check__failed_case; shape++)
            CHECK(block3_local(shape, p1, n1, 2, 7, 4, (void *)c1) == 1, "a 1x1x1 grid, every axis periodic");
        if (made) {
            perks_grid3 g2;
            perks_block3 b2;
            char w[4];
            CHECK(perks_grid3_make(2, 1, 1, 8, 8, 8, 1, 0, &g2) == 0 && perks_block3_make(&g2, 0, &b2) == 0, "grid");
            CHECK(perks_block3_exchange_nccl(&b2, PERKS_STAR, w, w, 4, c1, 0) == PERKS_ESIZE,
                  "a block of 2 ranks on a communicator of 1 is refused");
            ncclCommDestroy(c1);
        }
    }
    cudaStreamDestroy(st);
    case_end();
#else
    (void)light;
    check_skip(label, "no <nccl.h> in this build");
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
    CUDA_OK(cudaMemset(bufs[0], 0xA5, 1024)); /* poisoned: a refused exchange copies nothing */
    CUDA_OK(cudaMemset(bufs[1], 0xA5, 1024));
    CHECK(perks_slab_exchange_local(s, bufs, 2, 4, 0) == PERKS_ESIZE, "ranks that disagree on the domain");
    CUDA_OK(cudaDeviceSynchronize());
    for (int r = 0; r < 2; r++) {
        unsigned char hb[1024];
        int same = 1;
        CUDA_OK(cudaMemcpy(hb, bufs[r], sizeof hb, cudaMemcpyDeviceToHost));
        for (int i = 0; i < 1024; i++) same &= hb[i] == 0xA5;
        CHECK(same, "buffer %d written by a refused exchange", r);
    }
    {   /* perks_slab_make refuses before it writes: the slab keeps its poison */
        perks_slab t, poison;
        memset(&poison, 0xA5, sizeof poison);
        static const int bad[][5] = {{0, 2, 0, 1, PERKS_SLAB_DIRICHLET}, {10, 0, 0, 1, PERKS_SLAB_DIRICHLET},
                                     {10, 2, -1, 1, PERKS_SLAB_DIRICHLET}, {10, 2, 2, 1, PERKS_SLAB_DIRICHLET},
                                     {10, 2, 0, -1, PERKS_SLAB_DIRICHLET}, {10, 2, 0, 1, 7},
                                     {5, 3, 0, 2, PERKS_SLAB_DIRICHLET}};
        for (int k = 0; k < (int)(sizeof bad / sizeof bad[0]); k++) {
            memcpy(&t, &poison, sizeof t);
            const int rc = perks_slab_make(&t, bad[k][0], bad[k][1], bad[k][2], bad[k][3], bad[k][4]);
            CHECK(rc == (k == 6 ? PERKS_ETHIN : PERKS_ESIZE), "slab_make(%d, %d, %d, %d, %d): rc %d (%s)", bad[k][0],
                  bad[k][1], bad[k][2], bad[k][3], bad[k][4], rc, perks_strerror(rc));
            CHECK(memcmp(&t, &poison, sizeof t) == 0, "slab_make(%d, %d, %d, %d, %d) refused and wrote the slab", bad[k][0],
                  bad[k][1], bad[k][2], bad[k][3], bad[k][4]);
        }
        CHECK(perks_slab_make(NULL, 10, 2, 0, 1, PERKS_SLAB_DIRICHLET) == PERKS_ENULL, "slab_make NULL");
    }
    CHECK(strstr(perks_strerror(PERKS_ECOMM), "NCCL") != NULL, "strerror ECOMM");
    CHECK(strstr(perks_strerror(PERKS_ETIMEOUT), "timed out") != NULL && PERKS_ETIMEOUT == 20, "strerror ETIMEOUT");
#ifdef PERKS_HAVE_NCCL
    {
        ncclComm_t comm = NULL;
        cudaStream_t st = 0;
        CHECK(perks_nccl_wait(NULL, &st, 1, 1.0) == PERKS_ENULL && perks_nccl_wait(&comm, NULL, 1, 1.0) == PERKS_ENULL, "wait: NULL");
        CHECK(perks_nccl_wait(&comm, &st, 0, 1.0) == PERKS_ESIZE && perks_nccl_wait(&comm, &st, 1, 0.0) == PERKS_ESIZE,
              "wait: no stream, no time");
        CHECK(perks_slab_agree_nccl(NULL, 1, 8, &comm, &st, 1.0) == PERKS_ENULL &&
                  perks_slab_agree_nccl(s, 1, 8, NULL, &st, 1.0) == PERKS_ENULL &&
                  perks_slab_agree_nccl(s, 1, 8, &comm, NULL, 1.0) == PERKS_ENULL,
              "agree: NULL");
        CHECK(perks_slab_agree_nccl(s, 0, 8, &comm, &st, 1.0) == PERKS_ESIZE &&
                  perks_slab_agree_nccl(s, PERKS_NCCL_MAXLOCAL + 1, 8, &comm, &st, 1.0) == PERKS_ESIZE &&
                  perks_slab_agree_nccl(s, 1, 8, &comm, &st, -1.0) == PERKS_ESIZE,
              "agree: ranks or time out of range");
    }
#endif
    cudaFree(bufs[0]);
    cudaFree(bufs[1]);
    case_end();
}

/* usage: test_perks_exchange [--light] */
int main(int argc, char **argv)
{
    int light = gpucheck_begin(argc, argv);
    /* every mode the same 7: errors, one step plain and overlapped, temporal, perks, the one-rank
     * communicator, one rank a GPU (the last two counted skips where the build or machine lacks them) */
    check_plan(9);
    setenv("NCCL_NVLS_ENABLE", "0", 0); /* no NVLink multicast: these collectives are a few bytes */
    test_errors();
    test_local_step(light, 0);
    test_local_step(light, 1);
    test_local_temporal(light);
    test_local_perks(light);
    test_local_block3(light);
    test_blocks_step(light);
    test_nccl_one(light);
    test_nccl(light);
    return check_exit();
}
