/* examples/ksum_custom.cu -- kernels of one's own, written from ksum's pieces (gemm.cuh's tile loads
 * and chunks, epilogue.cuh's epilogue pieces), without the KSUM_DEFINE generator.
 *
 *   ksum_custom [M N DIM]          (default 40009 16411 32: ragged, not multiples of the 128 tile)
 *
 * 1. rq_sum_kernel:  v_i = sum_j K(a_i, b_j) w_j with a kernel function of our own, the rational
 *    quadratic K(d) = (1 + d^2 / (2 alpha h^2))^-alpha, alpha a RUN-TIME argument of the kernel (the
 *    generator's kernels take only h, so this is one reason to write your own).
 * 2. nw_mean_kernel: the Nadaraya-Watson kernel-weighted mean, a non-radial use of the epilogue:
 *        out_i = sum_j K(a_i, b_j) y_j / sum_j K(a_i, b_j)          (Gaussian K)
 *    numerator and denominator summed in the same pass, the ratio formed by the lane that owns the row.
 *
 * Both are checked against a CPU sum in double on a sample of rows (every output is also checked to be
 * written: outputs are NaN-poisoned first), and timed beside the generated KSUM_DEFINE Gaussian of the
 * same size.  Exit status 0 when both checks pass, 1 otherwise (2: a CUDA call failed).
 *
 * How a kernel function plugs into the epilogue: the pieces take a NAME and expand NAME_EVAL(T, t),
 * where t = s |a_i - b_j|^2 >= 0 is the accumulator after the GEMM (s is the scale we fold into the
 * data: the targets are staged times -2s and the accumulators start at s|a_i|^2 + s|b_j|^2).  NAME_EVAL
 * expands inside our kernel, so it may name the kernel's own parameters (here `alpha`).
 *
 * The block: 256 threads (16 x 16), a 128 x 128 tile of (target, source) pairs, 8 x 8 accumulators per
 * thread; the coordinates go through shared memory 8 at a time, double-buffered (the next chunk's
 * global loads are in flight while this one is computed; one barrier per chunk). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ksum/ksum.cuh> /* the pieces (gemm.cuh, epilogue.cuh) and, for the timing reference, KSUM_DEFINE */

#define CU(call)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) {                                                                       \
            fprintf(stderr, "ksum_custom: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            exit(2);                                                                                   \
        }                                                                                              \
    } while (0)

enum { TM = 8, TN = 8, BM = 16 * TM, BN = 16 * TN }; /* 8 x 8 per thread: a 128 x 128 block tile */
enum { NW_TN = 4, NW_BN = 16 * NW_TN }; /* Nadaraya-Watson: 8 x 4 (two sums per row: 8 x 8 would spill) */

/* ---- 1. the user's kernel function -------------------------------------------------------------
 * K(d) = (1 + d^2 / (2 alpha h^2))^-alpha.  With s = 1 / (2 alpha h^2) and t = s d^2:  K = (1 + t)^-alpha
 * = 2^(-alpha log2(1 + t)): one lg2.approx and one ex2.approx (ksum_exp2neg_float: 2^-x, x >= 0). */
static __device__ __forceinline__ float rq_eval_float(float t, float alpha)
{
    return ksum_exp2neg_float(alpha * __log2f(1.0f + t));
}
#define RQ_EVAL(T, t) rq_eval_##T(t, alpha) /* `alpha`: the parameter of rq_sum_kernel below */
static double rq_scale(double h, double alpha) { return 1.0 / (2.0 * alpha * h * h); }

/* the pre-pass: out[i] = s |x_i|^2 (the accumulators start at these; the workspace is ours) */
__global__ void scaled_sqnorms(const float *__restrict__ x, int np, int dim, float s, float *__restrict__ out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= np) return;
    float q = 0.0f;
    for (int k = 0; k < dim; k++) q = fmaf(x[(long long)i * dim + k], x[(long long)i * dim + k], q);
    out[i] = s * q;
}

/* v[i] += sum over this block's source tiles (blockIdx.y's share) of K(a_i, b_j) w_j; v zeroed first.
 * na, nb: s|a_i|^2 (m) and s|b_j|^2 (n).  vec_a, vec_b: 16-byte loads allowed (dim % 4 == 0, aligned). */
__global__ void __launch_bounds__(KSUM_THREADS, 2)
    rq_sum_kernel(const float *__restrict__ a, const float *__restrict__ b, const float *__restrict__ w,
                  float *__restrict__ v, int m, int n, int dim, const float *__restrict__ na_g,
                  const float *__restrict__ nb_g, float s, float alpha, int tiles_per_split, int vec_a, int vec_b)
{
    __shared__ __align__(16) float sa[KSUM_GEMM_SMEM_ELEMS(BM)]; /* targets, k-major, 2 buffers */
    __shared__ __align__(16) float sb[KSUM_GEMM_SMEM_ELEMS(BN)]; /* sources */
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const long long row0 = (long long)blockIdx.x * BM;
    const int ntiles = (n + BN - 1) / BN, t0 = blockIdx.y * tiles_per_split;
    const int t1 = min(ntiles, t0 + tiles_per_split);
    if (t0 >= t1) return;
    const int nchunks = (dim + KSUM_BK - 1) / KSUM_BK, nsteps = (t1 - t0) * nchunks;
    const float m2s = -2.0f * s; /* targets staged times -2s */

    float acc[TM][TN], vacc[TM][1], ra[TM / 2], rb[TN / 2];
#pragma unroll
    for (int i = 0; i < TM; i++) vacc[i][0] = 0.0f;

    /* step 0's chunk into buffer 0 */
    KSUM_GEMM_LOAD(float, TM / 2, ra, a, dim, m, dim, row0, 0, tid, vec_a);
    KSUM_GEMM_LOAD(float, TN / 2, rb, b, dim, n, dim, (long long)t0 * BN, 0, tid, vec_b);
    KSUM_GEMM_STORE(float, TM / 2, ra, sa, BM, 0, tid, m2s);
    if (nchunks == 1) KSUM_GEMM_STORE(float, TM / 2, ra, sa, BM, 1, tid, m2s); /* dim <= 8: stays */
    KSUM_GEMM_STORE(float, TN / 2, rb, sb, BN, 0, tid, 1.0f);
    __syncthreads();

    int tile = t0, c = 0;                 /* step st = (source tile, chunk c of 8 coordinates) */
    for (int st = 0; st < nsteps; st++) {
        const long long col0 = (long long)tile * BN;
        const int nc = c + 1 == nchunks ? 0 : c + 1, ntile = nc == 0 ? tile + 1 : tile; /* next step */
        if (st + 1 < nsteps) { /* the next step's chunk: global -> registers, in flight meanwhile */
            if (nchunks > 1) KSUM_GEMM_LOAD(float, TM / 2, ra, a, dim, m, dim, row0, nc * KSUM_BK, tid, vec_a);
            KSUM_GEMM_LOAD(float, TN / 2, rb, b, dim, n, dim, (long long)ntile * BN, nc * KSUM_BK, tid, vec_b);
        }
        if (c == 0) { /* a new source tile: accumulators start at s|a_i|^2 + s|b_j|^2 */
            float na[TM], nb[TN]; /* (re-read per tile from L1: fewer live registers than keeping na) */
            KSUM_GEMM_PER_POINT(float, TM, na, na_g, 1, row0, m, ty);
            KSUM_GEMM_PER_POINT(float, TN, nb, nb_g, 1, col0, n, tx);
            KSUM_EPI_START(TM, TN, acc, na, nb);
        }
        KSUM_GEMM_CHUNK(float, TM, TN, acc, sa, sb, BM, BN, st & 1, min(KSUM_BK, dim - c * KSUM_BK), tx, ty);
        if (c == nchunks - 1) { /* the tile is done: acc = t = s|a_i - b_j|^2; weighted kernel values */
            float wj[TN], wv[TN][1];
            KSUM_GEMM_PER_POINT(float, TN, wj, w, 1, col0, n, tx); /* 0 past n: padded sources add 0 */
#pragma unroll
            for (int j = 0; j < TN; j++) wv[j][0] = wj[j];
            KSUM_EPI_TILE(float, TM, TN, 1, RQ, acc, wv, vacc); /* vacc[i] += RQ_EVAL(t_ij) w_j */
        }
        if (st + 1 < nsteps) { /* registers -> the other buffer (read by nobody since the last barrier) */
            if (nchunks > 1) KSUM_GEMM_STORE(float, TM / 2, ra, sa, BM, (st + 1) & 1, tid, m2s);
            KSUM_GEMM_STORE(float, TN / 2, rb, sb, BN, (st + 1) & 1, tid, 1.0f);
        }
        __syncthreads();
        tile = ntile;
        c = nc;
    }
    KSUM_EPI_ROWSUM16(float, TM, 1, vacc);                          /* the 16 lanes of a row group */
    KSUM_EPI_STORE(float, TM, 1, vacc, v, row0, m, 1, tx, ty, 1, 0); /* one atomicAdd per row and split */
}

/* ---- 2. Nadaraya-Watson: two sums per row, their ratio out --------------------------------------
 * One block walks ALL source tiles of its 128 targets (no split over gridDim.y), so the ratio can be
 * formed in the block.  Per pair: num += K y_j and den += K live_j, live_j = 0 for the padded sources
 * past n (their coordinates are zero-filled, so K is not 0 there: counting them would be a wrong
 * denominator).  out_i is NaN when den = 0 (no source within reach of a_i: h too small).
 * Tile 128 x 64, 8 x 4 per thread: with 2 x 8 row sums, 8 x 8 accumulators would not fit the 128
 * registers of 2 blocks per SM (ptxas: 64 bytes of spills). */
#define NW_PAIR(i, j, k)                                                                               \
    do {                                                                                               \
        vacc[i][0] = fmaf(k, yj[j], vacc[i][0]);                                                       \
        vacc[i][1] = fmaf(k, live[j], vacc[i][1]);                                                     \
    } while (0)
#define NW_OUT(row, sums) (out[row] = (sums)[0] / (sums)[1])

__global__ void __launch_bounds__(KSUM_THREADS, 2)
    nw_mean_kernel(const float *__restrict__ a, const float *__restrict__ b, const float *__restrict__ y,
                   float *__restrict__ out, int m, int n, int dim, const float *__restrict__ na_g,
                   const float *__restrict__ nb_g, float s, int vec_a, int vec_b)
{
    __shared__ __align__(16) float sa[KSUM_GEMM_SMEM_ELEMS(BM)];
    __shared__ __align__(16) float sb[KSUM_GEMM_SMEM_ELEMS(NW_BN)];
    const int tid = threadIdx.x, tx = tid & 15, ty = tid >> 4;
    const long long row0 = (long long)blockIdx.x * BM;
    const int ntiles = (n + NW_BN - 1) / NW_BN;
    const int nchunks = (dim + KSUM_BK - 1) / KSUM_BK, nsteps = ntiles * nchunks;
    const float m2s = -2.0f * s;

    float acc[TM][NW_TN], vacc[TM][2], ra[TM / 2], rb[NW_TN / 2];
#pragma unroll
    for (int i = 0; i < TM; i++) vacc[i][0] = vacc[i][1] = 0.0f;
    KSUM_GEMM_LOAD(float, TM / 2, ra, a, dim, m, dim, row0, 0, tid, vec_a);
    KSUM_GEMM_LOAD(float, NW_TN / 2, rb, b, dim, n, dim, 0, 0, tid, vec_b);
    KSUM_GEMM_STORE(float, TM / 2, ra, sa, BM, 0, tid, m2s);
    if (nchunks == 1) KSUM_GEMM_STORE(float, TM / 2, ra, sa, BM, 1, tid, m2s);
    KSUM_GEMM_STORE(float, NW_TN / 2, rb, sb, NW_BN, 0, tid, 1.0f);
    __syncthreads();

    int tile = 0, c = 0;
    for (int st = 0; st < nsteps; st++) {
        const long long col0 = (long long)tile * NW_BN;
        const int nc = c + 1 == nchunks ? 0 : c + 1, ntile = nc == 0 ? tile + 1 : tile;
        if (st + 1 < nsteps) {
            if (nchunks > 1) KSUM_GEMM_LOAD(float, TM / 2, ra, a, dim, m, dim, row0, nc * KSUM_BK, tid, vec_a);
            KSUM_GEMM_LOAD(float, NW_TN / 2, rb, b, dim, n, dim, (long long)ntile * NW_BN, nc * KSUM_BK, tid, vec_b);
        }
        if (c == 0) {
            float na[TM], nb[NW_TN];
            KSUM_GEMM_PER_POINT(float, TM, na, na_g, 1, row0, m, ty);
            KSUM_GEMM_PER_POINT(float, NW_TN, nb, nb_g, 1, col0, n, tx);
            KSUM_EPI_START(TM, NW_TN, acc, na, nb);
        }
        KSUM_GEMM_CHUNK(float, TM, NW_TN, acc, sa, sb, BM, NW_BN, st & 1, min(KSUM_BK, dim - c * KSUM_BK), tx, ty);
        if (c == nchunks - 1) {
            float yj[NW_TN], live[NW_TN];
            KSUM_GEMM_PER_POINT(float, NW_TN, yj, y, 1, col0, n, tx);
#pragma unroll
            for (int j = 0; j < NW_TN; j++) live[j] = col0 + KSUM_GEMM_ROW(j, tx) < n ? 1.0f : 0.0f;
            KSUM_EPI_PAIRS(float, TM, NW_TN, KSUM_GAUSS, acc, NW_PAIR); /* the combine step is ours */
        }
        if (st + 1 < nsteps) {
            if (nchunks > 1) KSUM_GEMM_STORE(float, TM / 2, ra, sa, BM, (st + 1) & 1, tid, m2s);
            KSUM_GEMM_STORE(float, NW_TN / 2, rb, sb, NW_BN, (st + 1) & 1, tid, 1.0f);
        }
        __syncthreads();
        tile = ntile;
        c = nc;
    }
    KSUM_EPI_ROWSUM16(float, TM, 2, vacc);
    KSUM_EPI_ROWS(TM, vacc, row0, m, tx, ty, NW_OUT); /* the row's owner writes num / den */
}

/* the generated Gaussian, for the timing reference only */
KSUM_DEFINE(gen_gauss, float, KSUM_GAUSS, ksum_policy<>)

/* ---- host ----------------------------------------------------------------------------------- */
static unsigned long long rng = 0x9E3779B97F4A7C15ull;
static float unif(void) /* [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((double)(rng >> 11) * (2.0 / 9007199254740992.0) - 1.0);
}

typedef struct run_ctx {
    int which; /* 0 generated Gaussian, 1 rq_sum, 2 nw_mean */
    const float *a, *b, *w, *y;
    float *v, *out, *norms;
    int m, n, dim, splits, per, vec_a, vec_b;
    double h, alpha;
    ksum_args gen;
} run_ctx;

static void run(const run_ctx *c)
{
    const unsigned rowtiles = (unsigned)((c->m + BM - 1) / BM);
    if (c->which == 0) {
        int rc = gen_gauss_launch(&c->gen, 0);
        if (rc) { fprintf(stderr, "ksum_custom: gen_gauss_launch: %s\n", ksum_strerror(rc)); exit(2); }
        return;
    }
    const double s = c->which == 1 ? rq_scale(c->h, c->alpha) : KSUM_GAUSS_SCALE(c->h);
    scaled_sqnorms<<<(c->m + 255) / 256, 256>>>(c->a, c->m, c->dim, (float)s, c->norms);
    CU(cudaGetLastError());
    scaled_sqnorms<<<(c->n + 255) / 256, 256>>>(c->b, c->n, c->dim, (float)s, c->norms + c->m);
    CU(cudaGetLastError());
    if (c->which == 1) {
        CU(cudaMemsetAsync(c->v, 0, (size_t)c->m * sizeof(float))); /* the blocks atomically add */
        rq_sum_kernel<<<dim3(rowtiles, (unsigned)c->splits), KSUM_THREADS>>>(
            c->a, c->b, c->w, c->v, c->m, c->n, c->dim, c->norms, c->norms + c->m, (float)s, (float)c->alpha,
            c->per, c->vec_a, c->vec_b);
    } else {
        nw_mean_kernel<<<rowtiles, KSUM_THREADS>>>(c->a, c->b, c->y, c->out, c->m, c->n, c->dim, c->norms,
                                                   c->norms + c->m, (float)s, c->vec_a, c->vec_b);
    }
    CU(cudaGetLastError());
}

static int cmpd(const void *x, const void *y)
{
    double p = *(const double *)x, q = *(const double *)y;
    return p < q ? -1 : p > q;
}
static double time_ms(run_ctx *c, int which)
{
    cudaEvent_t e0, e1;
    double t[15];
    c->which = which;
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    for (int i = -3; i < 15; i++) {
        float ms;
        CU(cudaEventRecord(e0));
        run(c);
        CU(cudaEventRecord(e1));
        CU(cudaEventSynchronize(e1));
        CU(cudaEventElapsedTime(&ms, e0, e1));
        if (i >= 0) t[i] = ms;
    }
    CU(cudaEventDestroy(e0));
    CU(cudaEventDestroy(e1));
    qsort(t, 15, sizeof *t, cmpd);
    return t[7];
}

int main(int argc, char **argv)
{
    int m = 40009, n = 16411, dim = 32;
    if (argc == 4) {
        m = atoi(argv[1]);
        n = atoi(argv[2]);
        dim = atoi(argv[3]);
    } else if (argc != 1) {
        fprintf(stderr, "usage: ksum_custom [M N DIM]\n");
        return 2;
    }
    if (m < 1 || n < 1 || dim < 1 || m > (1 << 26) || n > (1 << 26) || dim > 4096) {
        fprintf(stderr, "ksum_custom: sizes out of range (1 <= M, N <= 2^26, 1 <= DIM <= 4096)\n");
        return 2;
    }
    int dev = 0, sms = 0;
    cudaDeviceProp prop;
    CU(cudaGetDevice(&dev));
    CU(cudaGetDeviceProperties(&prop, dev));
    CU(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const double h = 0.5 * sqrt((double)dim), alpha = 1.5; /* points uniform in [-1, 1)^dim */
    printf("ksum_custom: %d targets, %d sources, dim %d, h %.3g, alpha %.2g on %s\n", m, n, dim, h, alpha, prop.name);

    /* data: a, b uniform in [-1, 1); w in (0, 1] (weights, e.g. masses); y in [-0.5, 1.5) (values to average) */
    float *ha = (float *)malloc((size_t)m * dim * 4), *hb = (float *)malloc((size_t)n * dim * 4);
    float *hw = (float *)malloc((size_t)n * 4), *hy = (float *)malloc((size_t)n * 4);
    float *hv = (float *)malloc((size_t)m * 4), *hout = (float *)malloc((size_t)m * 4);
    if (!ha || !hb || !hw || !hy || !hv || !hout) { fprintf(stderr, "ksum_custom: out of memory\n"); return 2; }
    for (size_t i = 0; i < (size_t)m * dim; i++) ha[i] = unif();
    for (size_t i = 0; i < (size_t)n * dim; i++) hb[i] = unif();
    for (int j = 0; j < n; j++) { hw[j] = 0.5f * (1.0f - unif()); hy[j] = 0.5f + unif(); }

    float *da, *db, *dw, *dy, *dv, *dout, *dnorms, *dgen, *dwork;
    CU(cudaMalloc((void **)&da, (size_t)m * dim * 4));
    CU(cudaMalloc((void **)&db, (size_t)n * dim * 4));
    CU(cudaMalloc((void **)&dw, (size_t)n * 4));
    CU(cudaMalloc((void **)&dy, (size_t)n * 4));
    CU(cudaMalloc((void **)&dv, (size_t)m * 4));
    CU(cudaMalloc((void **)&dout, (size_t)m * 4));
    CU(cudaMalloc((void **)&dgen, (size_t)m * 4));
    CU(cudaMalloc((void **)&dnorms, ((size_t)m + n) * 4));
    CU(cudaMalloc((void **)&dwork, ksum_work_bytes(m, n, 4)));
    CU(cudaMemcpy(da, ha, (size_t)m * dim * 4, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(db, hb, (size_t)n * dim * 4, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(dw, hw, (size_t)n * 4, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(dy, hy, (size_t)n * 4, cudaMemcpyHostToDevice));
    CU(cudaMemset(dv, 0xFF, (size_t)m * 4)); /* NaN: an output never written shows */
    CU(cudaMemset(dout, 0xFF, (size_t)m * 4));

    run_ctx c;
    memset(&c, 0, sizeof c);
    c.a = da; c.b = db; c.w = dw; c.y = dy; c.v = dv; c.out = dout; c.norms = dnorms;
    c.m = m; c.n = n; c.dim = dim; c.h = h; c.alpha = alpha;
    c.vec_a = c.vec_b = dim % 4 == 0; /* cudaMalloc'd: 256-byte aligned */
    /* source splits: about 4 blocks per SM in all, as the generator does */
    const int rowtiles = (m + BM - 1) / BM, ntiles = (n + BN - 1) / BN;
    int splits = (4 * sms + rowtiles - 1) / rowtiles;
    if (splits > ntiles) splits = ntiles;
    if (splits > 65535) splits = 65535;
    c.per = (ntiles + splits - 1) / splits;
    c.splits = (ntiles + c.per - 1) / c.per;
    c.gen.a = da; c.gen.b = db; c.gen.w = dw; c.gen.v = dgen; c.gen.m = m; c.gen.n = n; c.gen.dim = dim;
    c.gen.h = h; c.gen.work = dwork; c.gen.work_bytes = ksum_work_bytes(m, n, 4);

    c.which = 1;
    run(&c);
    c.which = 2;
    run(&c);
    CU(cudaDeviceSynchronize());
    CU(cudaMemcpy(hv, dv, (size_t)m * 4, cudaMemcpyDeviceToHost));
    CU(cudaMemcpy(hout, dout, (size_t)m * 4, cudaMemcpyDeviceToHost));

    /* check: every output written and finite; a sample of rows (the first, the last -- in the ragged
     * last block tile -- and 254 spread between) against sums in double over all sources */
    int bad_v = 0, bad_out = 0;
    for (int i = 0; i < m; i++) { bad_v += !isfinite(hv[i]); bad_out += !isfinite(hout[i]); }
    const int nsample = m < 256 ? m : 256;
    const double s_rq = rq_scale(h, alpha), s_g = 1.0 / (2.0 * h * h);
    double e2 = 0, r2 = 0, nw_worst = 0;
    for (int q = 0; q < nsample; q++) {
        const int i = nsample == m ? q : (int)((long long)q * (m - 1) / (nsample - 1));
        double sum = 0, num = 0, den = 0, numabs = 0;
        for (int j = 0; j < n; j++) {
            double d2 = 0;
            for (int k = 0; k < dim; k++) {
                const double x = (double)ha[(size_t)i * dim + k] - hb[(size_t)j * dim + k];
                d2 += x * x;
            }
            const double krq = pow(1.0 + s_rq * d2, -alpha), kg = exp(-s_g * d2);
            sum += krq * hw[j];
            num += kg * hy[j];
            numabs += kg * fabs(hy[j]);
            den += kg;
        }
        e2 += (hv[i] - sum) * (hv[i] - sum);
        r2 += sum * sum;
        /* the mean's error against the kernel-weighted mean of |y| (the scale of the terms) */
        const double e = fabs(hout[i] - num / den) / (numabs / den);
        if (!(e <= nw_worst) && nw_worst == nw_worst) nw_worst = e; /* a NaN stays */
    }
    const double rq_err = sqrt(e2 / r2), tol = 1e-5;
    const int ok_rq = bad_v == 0 && rq_err <= tol, ok_nw = bad_out == 0 && nw_worst <= tol;
    printf("rq_sum   (rational quadratic, alpha run-time): rel. 2-norm error %.2e over %d rows, %d outputs not "
           "finite: %s\n", rq_err, nsample, bad_v, ok_rq ? "ok" : "FAIL");
    printf("nw_mean  (Nadaraya-Watson, Gaussian):          max error / weighted mean |y| %.2e over %d rows, %d "
           "outputs not finite: %s\n", nw_worst, nsample, bad_out, ok_nw ? "ok" : "FAIL");

    /* timing: median of 15 after 3 warm-up runs, each with its norm pre-pass (and memset) */
    const double pairs = (double)m * n;
    const double t_gen = time_ms(&c, 0), t_rq = time_ms(&c, 1), t_nw = time_ms(&c, 2);
    printf("time (ms, median of 15)          ms     G pairs/s\n");
    printf("  KSUM_DEFINE Gaussian      %8.3f  %8.1f   (generated, reference)\n", t_gen, pairs / t_gen * 1e-6);
    printf("  rq_sum (pieces)           %8.3f  %8.1f\n", t_rq, pairs / t_rq * 1e-6);
    printf("  nw_mean (pieces)          %8.3f  %8.1f   (two sums per pair, one split)\n", t_nw, pairs / t_nw * 1e-6);

    CU(cudaFree(da)); CU(cudaFree(db)); CU(cudaFree(dw)); CU(cudaFree(dy)); CU(cudaFree(dv));
    CU(cudaFree(dout)); CU(cudaFree(dgen)); CU(cudaFree(dnorms)); CU(cudaFree(dwork));
    free(ha); free(hb); free(hw); free(hy); free(hv); free(hout);
    return ok_rq && ok_nw ? 0 : 1;
}
