#include <onchip/names_push.h>
/* perks/stencil/resident.cuh -- the resident and hybrid persistent 2D kernels' body, as a function
 * template over pieces: the tile in shared memory for the whole run, one pass over it a step.
 *
 * WHAT (PERKS paper §3-§4.2: the domain cached on chip; here all of it, 'F' in the paper)
 *   perks_stencil2d_resident<T, S, BX, RC, HYB>(a, b, ea, eb, W, H, steps, tiles_x, TH, SC, w)
 *       the body of name_res_kernel (HYB 0) and name_hyb_kernel (HYB 1).
 *   RESIDENT: the tile with a frame of r rows and columns in shared memory, element (y, x) at
 *   sm[(y + r) * (BX + 2r) + x + r], rows rounded up to RR = max(RC, r); a step: (1) the frame,
 *   (2) the pass in place, (3) the halo out, one grid barrier.  HYBRID: rows [0, SC) cached as
 *   above, rows [SC, tile) streamed in the same pass (docs/perks.md#the-resident-kernel-name_res_kernel,
 *   docs/perks.md#the-hybrid-kernel-name_hyb_kernel).
 *   pieces (internal, described where defined): perks__s2d_frame1, _frameb, _halo_out, _hhalo, and
 *   perks/stencil/stream.cuh's perks__s2d_point; the pass and the streamed rows' loads are written
 *   out in the body.
 *
 * LIMITS AND COSTS
 *   As PERKS_STENCIL2D_DEFINE's (perks/stencil.cuh).  Shared memory: (RR-rounded tile rows + 2r) x
 *   (BX + 2r) cells a block, after perks__s2d_sizes::hwin cells of streaming windows (hybrid).
 */
#ifndef PERKS_STENCIL_RESIDENT_CUH
#define PERKS_STENCIL_RESIDENT_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <stddef.h>
#endif

#include "../cache.cuh"
#include "../grid.cuh"
#include "plan.cuh"
#include "shapes.cuh"
#include "stream.cuh"

/* The pieces take the tile's state as plain values named as perks_stencil2d_resident's locals
 * (docs/perks.md#perks-stencil-glossary); sm[(y + R) * WW + x + R] the cached tile's cell (y, x). */

/* (1) the frame, one cell at a time (the hybrid kernel: batches spill its fp64 builds): rows above /
 * below (with the corners), then columns left / right; t the step (step 0 reads the input) */
template <class T, int BX, int R>
static __device__ __forceinline__ void perks__s2d_frame1(int tx, int x0, int y0, int W, int H, int sc, int TH,
                                                         const T *in, const T *ein, T *sm, int t)
{
    enum { WW = BX + 2 * R };
#pragma unroll 1
    for (int i = tx; i < 2 * R * WW; i += BX) {
        const int hr = i / WW, cx = i - hr * WW - R;
        const int y = hr < R ? hr - R : sc + hr - R;
        const int gy = y0 + y, gx = x0 + cx;
        sm[(y + R) * WW + cx + R] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? in[(size_t)gy * W + gx] : (T)0;
    }
#pragma unroll 1
    for (int i = tx; i < 2 * R * sc; i += BX) {
        const int side = i >= R * sc, j = i - side * R * sc;
        const int k = j / sc, y = j - k * sc;
        const int cx = side ? BX + k : k - R, gx = x0 + cx;
        T v = (T)0;
        if (gx >= 0 && gx < W)
            v = t == 0 ? in[(size_t)(y0 + y) * W + gx]
                       : ein[PERKS_EDGE_INDEX((int)blockIdx.x + (side ? 1 : -1), 1 - side, k, y, R, TH)];
        sm[(y + R) * WW + cx + R] = v;
    }
}

/* (1) the frame of the resident kernel: rows above / below (with the corners) and columns left /
 * right, in batches of FB cells a thread, all the loads of a batch in flight at once */
template <class T, int BX, int R, int FB>
static __device__ __forceinline__ void perks__s2d_frameb(int tx, int x0, int y0, int W, int H, int sc, int TH,
                                                         const T *in, const T *ein, T *sm, int t)
{
    enum { WW = BX + 2 * R };
    const int nfr = 2 * R * WW, nf = nfr + 2 * R * sc;
#pragma unroll 1
    for (int i0 = tx; i0 < nf; i0 += FB * BX) {
        T fv[FB];
        int fo[FB];
#pragma unroll
        for (int q = 0; q < FB; q++) {
            const int i = i0 + q * BX;
            T v = (T)0;
            int o = -1;
            if (i < nfr) {
                const int hr = i / WW, cx = i - hr * WW - R;
                const int y = hr < R ? hr - R : sc + hr - R;
                const int gy = y0 + y, gx = x0 + cx;
                o = (y + R) * WW + cx + R;
                if (gy >= 0 && gy < H && gx >= 0 && gx < W) v = in[(size_t)gy * W + gx];
            } else if (i < nf) {
                const int i2 = i - nfr;
                const int side = i2 >= R * sc, j = i2 - side * R * sc;
                const int k = j / sc, y = j - k * sc;
                const int cx = side ? BX + k : k - R, gx = x0 + cx;
                o = (y + R) * WW + cx + R;
                if (gx >= 0 && gx < W)
                    v = t == 0 ? in[(size_t)(y0 + y) * W + gx]
                               : ein[PERKS_EDGE_INDEX((int)blockIdx.x + (side ? 1 : -1), 1 - side, k, y, R, TH)];
            }
            fv[q] = v;
            fo[q] = o;
        }
#pragma unroll
        for (int q = 0; q < FB; q++)
            if (fo[q] >= 0) sm[fo[q]] = fv[q];
    }
}

/* (3) the halo out: rows to the domain array (all rows after the last step), columns transposed
 * to the edge buffer */
template <class T, int BX, int R>
static __device__ __forceinline__ void perks__s2d_halo_out(int tx, int x, int xin, int y0, int W, int sc, int TH,
                                                           int has_l, int has_r, int last, T *out, T *eout,
                                                           const T *sm)
{
    enum { WW = BX + 2 * R };
    if (xin && last)
#pragma unroll 1
        for (int y = 0; y < sc; y++) out[(size_t)(y0 + y) * W + x] = sm[(y + R) * WW + tx + R];
    if (xin && !last)
#pragma unroll 1
        for (int j = 0; j < 2 * R; j++) {
            const int y = j < R ? j : sc - 2 * R + j;
            if (y >= 0 && y < sc) out[(size_t)(y0 + y) * W + x] = sm[(y + R) * WW + tx + R];
        }
    if (!last) {
#pragma unroll 1
        for (int i = tx; i < 2 * R * sc; i += BX) {
            const int side = i >= R * sc, j = i - side * R * sc;
            const int k = j / sc, y = j - k * sc;
            if (side ? has_r : has_l)
                eout[PERKS_EDGE_INDEX((int)blockIdx.x, side, k, y, R, TH)] = sm[(y + R) * WW + (side ? BX - R + k : k) + R];
        }
    }
}

/* side halo of streamed chunk k (rows sc + k RC - r ... + RC + r - 1) into h[r]: warp 0 the left
 * columns, warp 1 the right, one lane per row, from the input array */
template <class T, int BX, int RC, int R, int HR>
static __device__ __forceinline__ void perks__s2d_hhalo(int tx, int x0, int y0, int W, int H, int sc, const T *in,
                                                        int k, T (&h)[HR])
{
    const int wid = tx >> 5, lane = tx & 31;
    if (wid < 2 && lane < RC + 2 * R) {
        const int gy = y0 + sc + k * RC - R + lane;
#pragma unroll
        for (int kk = 0; kk < R; kk++) {
            const int gx = wid ? x0 + BX + kk : x0 - R + kk;
            h[kk] = (gy >= 0 && gy < H && gx >= 0 && gx < W) ? in[(size_t)gy * W + gx] : (T)0;
        }
    }
}

/* the body of name_res_kernel (HYB 0: every row cached, SC unused) and name_hyb_kernel (HYB 1);
 * why its pass is written out: docs/perks.md#kernel-bodies */
template <class T, class S, int BX, int RC, int HYB>
static __device__ __forceinline__ void perks_stencil2d_resident(T *a, T *b, T *ea, T *eb, int W, int H, int steps,
                                                                int tiles_x, int TH, int SC, const T *w)
{
    typedef perks__s2d_sizes<T, S, BX, RC> Z;
    enum { R = S::rmax, WW = BX + 2 * S::rmax, RR = Z::rr, PF = Z::pf, HR = S::rmax > 0 ? S::rmax : 1 };
    const int tx = (int)threadIdx.x;
    extern __shared__ __align__(16) unsigned char perks__s2d_dyn[];
    T *sm = (T *)perks__s2d_dyn + (HYB ? (int)Z::hwin : 0);
    const int tix = blockIdx.x % tiles_x, tiy = blockIdx.x / tiles_x;
    const int x0 = tix * BX, y0 = tiy * TH;
    const int the = min(TH, H - y0);
    const int sc = HYB ? min(SC, the) : the;
    const int x = x0 + tx;
    const int xin = x < W;
    const int xint = x >= R && x < W - R;
    const int has_l = tix > 0, has_r = tix < tiles_x - 1;
    const int nch = (sc + RR - 1) / RR;
    (void)SC;
#pragma unroll 1
    for (int y = 0; y < sc; y++) sm[(y + R) * WW + tx + R] = xin ? a[(size_t)(y0 + y) * W + x] : (T)0;
    PERKS_FOR_STEPS(t, steps)
    {
        PERKS__STEP_ARRAYS(T, t, steps, a, b, ea, eb);
        if (!HYB || sc > 0) {
            if (HYB)
                perks__s2d_frame1<T, BX, R>(tx, x0, y0, W, H, sc, TH, in, ein, sm, t);
            else
                perks__s2d_frameb<T, BX, R, Z::fb>(tx, x0, y0, W, H, sc, TH, in, ein, sm, t);
            __syncthreads();
            {
                /* (2) the step, in place, one chunk of RR rows behind; the last chunk is written once
                 * every thread is past its compute (the loop's last barrier) */
                T col[RR + 2 * R];
                T p[RR];
#pragma unroll
                for (int l = 0; l < RR + 2 * R; l++) col[l] = sm[l * WW + tx + R];
#pragma unroll
                for (int i = 0; i < RR; i++) p[i] = (T)0;
#pragma unroll 1
                for (int c = 0; c < nch; c++) {
                    const int yc = c * RR;
                    T o[RR];
#pragma unroll
                    for (int i = 0; i < RR; i++) {
                        const int gy = y0 + yc + i;
                        const T s = perks__s2d_point<T, S, R, WW>(w, col, sm, yc, i, tx);
                        o[i] = (xint && gy >= R && gy < H - R) ? s : col[i + R];
                    }
#pragma unroll
                    for (int l = 0; l < 2 * R; l++) col[l] = col[RR + l];
                    if (c + 1 < nch)
#pragma unroll
                        for (int l = 0; l < RR; l++) col[2 * R + l] = sm[(yc + RR + 2 * R + l) * WW + tx + R];
                    __syncthreads();
                    if (c > 0)
#pragma unroll
                        for (int i = 0; i < RR; i++) sm[(yc - RR + i + R) * WW + tx + R] = p[i];
#pragma unroll
                    for (int i = 0; i < RR; i++) p[i] = o[i];
                }
                if (nch > 0)
#pragma unroll
                    for (int i = 0; i < RR; i++)
                        if ((nch - 1) * RR + i < sc) sm[((nch - 1) * RR + i + R) * WW + tx + R] = p[i];
            }
            __syncthreads();
            perks__s2d_halo_out<T, BX, R>(tx, x, xin, y0, W, sc, TH, has_l, has_r, last, out, eout, sm);
        }
        if (HYB) {
            const int nsc = (the - sc + RC - 1) / RC;
            T hc[RC + 2 * R];
            T q[PF][RC];
            T qh[PF][HR];
#pragma unroll
            for (int l = 0; l < 2 * R; l++) /* rows of the step's input, 0 outside the domain */
                hc[l] = (xin && y0 + (sc - R + l) >= 0 && y0 + (sc - R + l) < H) ? in[(size_t)(y0 + (sc - R + l)) * W + x]
                                                                                  : (T)0;
#pragma unroll
            for (int j = 0; j < PF; j++) {
#pragma unroll
                for (int l = 0; l < RC; l++) q[j][l] = (T)0;
#pragma unroll
                for (int kk = 0; kk < HR; kk++) qh[j][kk] = (T)0;
                if (j < nsc) {
#pragma unroll
                    for (int l = 0; l < RC; l++)
                        q[j][l] = (xin && y0 + (sc + j * RC + R + l) >= 0 && y0 + (sc + j * RC + R + l) < H)
                                      ? in[(size_t)(y0 + (sc + j * RC + R + l)) * W + x]
                                      : (T)0;
                    perks__s2d_hhalo<T, BX, RC, R>(tx, x0, y0, W, H, sc, in, j, qh[j]);
                }
            }
#pragma unroll 1
            for (int k = 0; k < nsc; k++) {
                T *hw = (T *)perks__s2d_dyn + (k & 1) * (RC + 2 * R) * WW;
#pragma unroll
                for (int l = 0; l < RC; l++) hc[2 * R + l] = q[0][l];
#pragma unroll
                for (int l = 0; l < RC + 2 * R; l++) hw[l * WW + tx + R] = hc[l];
                {
                    const int wid = tx >> 5, lane = tx & 31;
                    if (wid < 2 && lane < RC + 2 * R)
#pragma unroll
                        for (int kk = 0; kk < R; kk++) hw[lane * WW + (wid ? BX + R + kk : kk)] = qh[0][kk];
                }
#pragma unroll
                for (int j = 0; j + 1 < PF; j++) {
#pragma unroll
                    for (int l = 0; l < RC; l++) q[j][l] = q[j + 1][l];
#pragma unroll
                    for (int kk = 0; kk < HR; kk++) qh[j][kk] = qh[j + 1][kk];
                }
                if (k + PF < nsc) {
#pragma unroll
                    for (int l = 0; l < RC; l++)
                        q[PF - 1][l] = (xin && y0 + (sc + (k + PF) * RC + R + l) >= 0 && y0 + (sc + (k + PF) * RC + R + l) < H)
                                       ? in[(size_t)(y0 + (sc + (k + PF) * RC + R + l)) * W + x] : (T)0;
                    perks__s2d_hhalo<T, BX, RC, R>(tx, x0, y0, W, H, sc, in, k + PF, qh[PF - 1]);
                }
                __syncthreads();
#pragma unroll
                for (int i = 0; i < RC; i++) {
                    const int y = sc + k * RC + i, gy = y0 + y;
                    T s = perks__s2d_point<T, S, R, WW>(w, hc, hw, 0, i, tx);
                    s = (xint && gy >= R && gy < H - R) ? s : hc[i + R];
                    if (xin && y < the) out[(size_t)gy * W + x] = s;
                }
#pragma unroll
                for (int l = 0; l < 2 * R; l++) hc[l] = hc[RC + l];
            }
        }
        if (!last) PERKS_GRID_SYNC();
    }
}

#endif /* PERKS_STENCIL_RESIDENT_CUH */
#include <onchip/names_pop.h>
