/* tests/common/cbi_kernels.cuh -- the kernels that bench/cbi_orders.cu times and tests/gpu/test_cbi.cu verifies:
 * the thesis's naive 9x9 box stencil (Listing 3) and naive matrix product (Listing 4), each in four
 * thread orders:
 *   naive   tid -> (tid % W, tid / W)                       (the thesis's baseline)
 *   rows2d  2D grid, a 32 x (B/32) tile per block, tiles in row order (the usual 2D launch)
 *   cbi     tid -> cbi_remap32_xy: columns of width w (optionally zigzag)        (Listing 5)
 *   tiles   a 32 x (B/32) tile per block, blocks remapped into column groups of G tiles
 *           (cbi_block_plan_make: the block swizzle)
 * Every order computes each output with the same arithmetic in the same sequence, so all orders
 * give bit-identical outputs. */
#ifndef ONCHIP_BENCH_CBI_KERNELS_CUH
#define ONCHIP_BENCH_CBI_KERNELS_CUH

#include <cbi/cbi.h>

#define CBIK_R 4 /* 9x9 box: radius 4 */
#define CBIK_TX 32

/* 9x9 box mean with clamped (nearest) borders, summed row by row in a fixed order; int index math
 * as in the thesis's Listing 3 (the benchmarks stay below 2^31 cells) */
static __device__ __forceinline__ float cbik_box9(const float *__restrict__ in, int W, int H, int x, int y)
{
    float s = 0.0f;
#pragma unroll
    for (int dy = -CBIK_R; dy <= CBIK_R; dy++) {
        int i = min(max(y + dy, 0), H - 1);
#pragma unroll
        for (int dx = -CBIK_R; dx <= CBIK_R; dx++) s += __ldg(in + (i * W + min(max(x + dx, 0), W - 1)));
    }
    return s * (1.0f / 81.0f);
}

__global__ void cbik_stencil_naive(const float *__restrict__ in, float *__restrict__ out, int W, int H)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= (unsigned)W * (unsigned)H) return;
    int x = (int)(tid % (unsigned)W), y = (int)(tid / (unsigned)W);
    out[tid] = cbik_box9(in, W, H, x, y);
}

__global__ void cbik_stencil_rows2d(const float *__restrict__ in, float *__restrict__ out, int W, int H)
{
    int x = blockIdx.x * CBIK_TX + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    out[(size_t)y * W + x] = cbik_box9(in, W, H, x, y);
}

__global__ void cbik_stencil_cbi(cbi_plan p, const float *__restrict__ in, float *__restrict__ out)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, x, y;
    if (tid >= (unsigned)p.cells) return;
    cbi_remap32_xy(&p, tid, &x, &y);
    int W = (int)p.width, H = (int)p.height;
    out[(size_t)y * W + x] = cbik_box9(in, W, H, (int)x, (int)y);
}

/* bp: block plan over the tiles grid (ceil(W/32) x ceil(H/(B/32))); blockDim = (32, B/32) */
__global__ void cbik_stencil_tiles(cbi_plan bp, const float *__restrict__ in, float *__restrict__ out, int W,
                                   int H)
{
    unsigned tx, ty;
    cbi_remap32_xy(&bp, blockIdx.x, &tx, &ty);
    int x = (int)tx * CBIK_TX + threadIdx.x, y = (int)ty * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    out[(size_t)y * W + x] = cbik_box9(in, W, H, x, y);
}

/* C (H x W) = A (H x D) * B (D x W), row-major, one output per thread, fmaf in order of k */
static __device__ __forceinline__ float cbik_dot(const float *__restrict__ a, const float *__restrict__ b, int W,
                                                 int D, int x, int y)
{
    const float *ar = a + (size_t)y * D, *bc = b + x;
    float acc = 0.0f;
#pragma unroll 4
    for (int k = 0; k < D; k++) acc = fmaf(__ldg(ar + k), __ldg(bc + (size_t)k * W), acc);
    return acc;
}

__global__ void cbik_matmul_naive(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                                  int W, int H, int D)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= (unsigned)W * (unsigned)H) return;
    int x = (int)(tid % (unsigned)W), y = (int)(tid / (unsigned)W);
    c[tid] = cbik_dot(a, b, W, D, x, y);
}

__global__ void cbik_matmul_rows2d(const float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c,
                                   int W, int H, int D)
{
    int x = blockIdx.x * CBIK_TX + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    c[(size_t)y * W + x] = cbik_dot(a, b, W, D, x, y);
}

__global__ void cbik_matmul_cbi(cbi_plan p, const float *__restrict__ a, const float *__restrict__ b,
                                float *__restrict__ c, int D)
{
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x, x, y;
    if (tid >= (unsigned)p.cells) return;
    cbi_remap32_xy(&p, tid, &x, &y);
    int W = (int)p.width;
    c[(size_t)y * W + x] = cbik_dot(a, b, W, D, (int)x, (int)y);
}

__global__ void cbik_matmul_tiles(cbi_plan bp, const float *__restrict__ a, const float *__restrict__ b,
                                  float *__restrict__ c, int W, int H, int D)
{
    unsigned tx, ty;
    cbi_remap32_xy(&bp, blockIdx.x, &tx, &ty);
    int x = (int)tx * CBIK_TX + threadIdx.x, y = (int)ty * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    c[(size_t)y * W + x] = cbik_dot(a, b, W, D, x, y);
}

/* ---- host side: one launcher for every order ------------------------------------------------- */
enum { CBIK_NAIVE = 0, CBIK_ROWS2D, CBIK_CBI, CBIK_TILES };
typedef struct cbik_cfg {
    int order;      /* CBIK_* */
    int block;      /* threads per block, a multiple of 32 */
    long long w;    /* CBIK_CBI: column width; CBIK_TILES: group size in tiles */
    unsigned flags; /* CBI_ZIGZAG or 0 */
} cbik_cfg;

/* a = input (stencil) or A (matmul); b = B (matmul only); W x H output; D depth (matmul only).
 * Returns 0, a CBI_E* code, or -1 for a bad configuration; the launch error is left to the caller. */
static int cbik_launch(int matmul, const cbik_cfg *k, const float *a, const float *b, float *out, int W, int H, int D,
                       cudaStream_t s)
{
    long long cells = (long long)W * H;
    if (k->block <= 0 || k->block % 32 || k->block > 1024 || W <= 0 || H <= 0) return -1;
    if (cells > 0xFFFFFFFFLL) return CBI_EOVERFLOW;
    unsigned grid1 = (unsigned)((cells + k->block - 1) / k->block);
    int ty = k->block / CBIK_TX;
    long long tiles_x = (W + CBIK_TX - 1) / CBIK_TX, tiles_y = (H + ty - 1) / ty;
    cbi_plan p;
    int rc = 0;
    switch (k->order) {
    case CBIK_NAIVE:
        if (matmul) cbik_matmul_naive<<<grid1, k->block, 0, s>>>(a, b, out, W, H, D);
        else cbik_stencil_naive<<<grid1, k->block, 0, s>>>(a, out, W, H);
        break;
    case CBIK_ROWS2D: {
        dim3 g((unsigned)tiles_x, (unsigned)tiles_y), blk(CBIK_TX, ty);
        if (tiles_y > 65535) return -1;
        if (matmul) cbik_matmul_rows2d<<<g, blk, 0, s>>>(a, b, out, W, H, D);
        else cbik_stencil_rows2d<<<g, blk, 0, s>>>(a, out, W, H);
        break;
    }
    case CBIK_CBI:
        if ((rc = cbi_plan_make(&p, W, H, k->w, k->flags | CBI_INDEX32))) return rc;
        if (matmul) cbik_matmul_cbi<<<grid1, k->block, 0, s>>>(p, a, b, out, D);
        else cbik_stencil_cbi<<<grid1, k->block, 0, s>>>(p, a, out);
        break;
    case CBIK_TILES: {
        dim3 blk(CBIK_TX, ty);
        if ((rc = cbi_block_plan_make(&p, tiles_x, tiles_y, k->w, k->flags | CBI_INDEX32))) return rc;
        if (matmul) cbik_matmul_tiles<<<(unsigned)p.cells, blk, 0, s>>>(p, a, b, out, W, H, D);
        else cbik_stencil_tiles<<<(unsigned)p.cells, blk, 0, s>>>(p, a, out, W, H);
        break;
    }
    default: return -1;
    }
    return 0;
}
#endif
