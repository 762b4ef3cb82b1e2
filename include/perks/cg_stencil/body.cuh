#include <onchip/names_push.h>
/* perks/cg_stencil/body.cuh -- the device side of the matrix-free CG (perks/cg_stencil.cuh): the
 * kernel argument, the sweep that applies the stencil on the fly, the whole iteration, and the
 * kernels of the host side (true residual, scaling, x += d).
 *
 * WHAT
 *   perks_cgs_kargs                      the one argument of every kernel (by value)
 *   perks__cgs_cfg<T, S, MX, OP>::u, ::minb   planes a sweep step, blocks per SM of a kernel
 *   perks_cgs_sweep<T, S, U, OP>(a, w, v, ld, f, K)   every cell of the block's work items: q =
 *                                        (A v)(cell), then f(i, q, v(cell), ld(i)); z in a register
 *                                        window (ONCHIP_OPERATOR_DIVK: k's beside it, K the field)
 *   perks_cgs_body<T, S, K, MX, OP>(a)   the whole solve (perks/cg_stencil.cuh, THE ITERATION)
 *   perks__cgs_replace<S, K, OP>(a, first)   mixed: x_hi += x, r = (float)(b - A x_hi) in double
 *   perks__cgs_resid_kernel<S, TX>, perks__cgs_resid_divk_kernel<S, TX>, perks__cgs_diag_kernel<S, TK,
 *   TD> (DIVK's 1 / A_ii), perks__cgs_scale_kernel<TO>, perks__cgs_add_kernel<TX, TD>
 *
 * EXAMPLE (what PERKS_CG_STENCIL3D_DEFINE(name, double, SHAPE) defines, S its shape type)
 *   [not compiled: what the generator expands to]
 *   __global__ void __launch_bounds__(256, 4) name_kernel(perks_cgs_kargs a)
 *   { struct k; perks_cgs_body<double, S, k, false>(a); }
 *
 * LIMITS: a block is PERKS_CGS_BLOCK = 256 threads (32 x 8 columns); a cooperative launch of the
 * occupancy's grid (perks/cg_stencil/host.cuh); 6 G doubles of partials.
 */
#ifndef PERKS_CG_STENCIL_BODY_CUH
#define PERKS_CG_STENCIL_BODY_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <math.h>
#include <string.h>
#endif

#include "../base.h"
#include "../cg/reduce.cuh"
#include "../cg/resid.cuh"
#include "../cg/types.cuh"
#include "../grid.cuh"
#include "../stencil/shapes.cuh"
#include <onchip/operator.h>

#define PERKS_CGS_BX 32 /* a block: 32 x 8 columns */
#define PERKS_CGS_BY 8
#define PERKS_CGS_BLOCK (PERKS_CGS_BX * PERKS_CGS_BY)
#define PERKS_CGS_MAXCOEF 128
/* the sweep's shape of a kernel (T, shape S, mixed MX, operator OP): U z planes a step (2 for float in
 * 3D with constant weights, else 1) and the blocks per SM its registers are set for (4: 64 registers,
 * 3: 80, 2 past 13 points or past 7 for DIVK: 128), no spills on sm_80 and sm_90 (why:
 * docs/perks-cg.md#design-notes).  PERKS_CGS_UNROLL / PERKS_CGS_MINB set them. */
template <class T, class S, bool MX, int OP = ONCHIP_OPERATOR_STENCIL> struct perks__cgs_cfg {
    enum { d3 = S::zlo < 0 || S::zhi > 0 }; /* a 3D shape: a z window to march */
#ifdef PERKS_CGS_UNROLL
    enum { u = PERKS_CGS_UNROLL };
#else
    enum { u = sizeof(T) == 4 && d3 && OP == ONCHIP_OPERATOR_STENCIL ? 2 : 1 };
#endif
#ifdef PERKS_CGS_MINB
    enum { minb = PERKS_CGS_MINB };
#else
    enum { minb = OP == ONCHIP_OPERATOR_DIVK ? (S::npts > 7 ? 2 : 3) : S::npts > 13 ? 2 : (MX || sizeof(T) == 4) && d3 ? 3 : 4 };
#endif
};

typedef struct perks_cgs_kargs {
    int nx, ny, nz;
    int tx, ty, zc, items; /* tiles along x and y, the z chunk, work items (tiles x chunks) */
    int max_iter, use_x0, jacobi;
    double tol, dinv;             /* dinv: 1 / the centre's weight (Jacobi) */
    double w[PERKS_CGS_MAXCOEF];  /* the weights, by coefficient index */
    const void *b;
    void *x, *r, *p0, *p1;
    double *xh;        /* mixed: x in double (the caller's); the kernel's float x is the correction */
    const double *bh;  /* mixed: b in double */
    double *part; /* 6 x G block partials */
    perks__cg_out *out;
    /* ONCHIP_OPERATOR_DIVK (w holds -w[I], sigma the weights' sum): the cell field k and 1 / the
     * diagonal a cell, both in the kernel's type; mixed: kh, k in double for the replacements */
    const void *k, *dv;
    void *z; /* DIVK with Jacobi: z = r / A_ii, kept for phase A (the kernel's type) */
    const double *kh;
    double sigma;
    int face;
} perks_cgs_kargs;

/* ---- the shape's static checks */
template <class S> struct perks__cgs_shape;
template <class... P> struct perks__cgs_shape<onchip_shape<P...>> {
    template <int X, int Y, int Z> ONCHIP__CX int has() { return (0 + ... + (P::dx == X && P::dy == Y && P::dz == Z)); }
    enum {
        centre = has<0, 0, 0>() > 0,
        paired = (1 && ... && (has<-P::dx, -P::dy, -P::dz>() > 0)),
        zw = onchip_shape<P...>::zhi - onchip_shape<P...>::zlo + 1
    };
};

static __device__ __forceinline__ float perks__cgs_fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
static __device__ __forceinline__ double perks__cgs_fma(double a, double b, double c) { return __fma_rn(a, b, c); }

/* one point of the gather: q = fma(w[I], v(cell + offset), q); DX = DY = 0 reads the z window */
template <class T, class V, int ZLO, int ZW>
struct perks__cgs_gather {
    const perks_cgs_kargs &a;
    const T *w, *win;
    V &v;
    long long i, plane;
    int gx, gy, z;
    T &q;
    template <int I, int DX, int DY, int DZ>
    __device__ __forceinline__ void operator()(onchip_pt<I, DX, DY, DZ>) const
    {
        T t;
        if (DX == 0 && DY == 0) t = win[DZ - ZLO];
        else {
            const int x = gx + DX, y = gy + DY, zz = z + DZ;
            t = x >= 0 && x < a.nx && y >= 0 && y < a.ny && zz >= 0 && zz < a.nz ? v(i + DX + (long long)DY * a.nx + DZ * plane)
                                                                                : (T)0;
        }
        q = perks__cgs_fma(w[I], t, q);
    }
};

/* one point of ONCHIP_OPERATOR_DIVK's gather: q = fma(w[I] face(k(c), k(c + d)), u(c) - u(c + d), q), with
 * w[I] the negated weight; u = 0 and k = k(c) outside the grid; the centre's points add nothing (the
 * caller's sigma u(c)); W: the column's points from the windows (else loaded like the others) */
template <class T, class V, int ZLO, bool W = true>
struct perks__cgs_divk_pt {
    const perks_cgs_kargs &a;
    const T *w, *win, *kwin, *K; /* kwin: k along z, as win */
    V &v;
    long long i, plane;
    int gx, gy, z;
    T uc, kc;
    T &q;
    template <int I, int DX, int DY, int DZ>
    __device__ __forceinline__ void operator()(onchip_pt<I, DX, DY, DZ>) const
    {
        if (DX == 0 && DY == 0 && DZ == 0) return;
        const int x = gx + DX, y = gy + DY, zz = z + DZ;
        const bool inside = x >= 0 && x < a.nx && y >= 0 && y < a.ny && zz >= 0 && zz < a.nz;
        const long long j = i + DX + (long long)DY * a.nx + DZ * plane;
        const T un = W && DX == 0 && DY == 0 ? win[DZ - ZLO] : inside ? v(j) : (T)0;
        const T kn = !inside ? kc : W && DX == 0 && DY == 0 ? kwin[DZ - ZLO] : K[j];
        q = perks__cgs_fma(w[I] * onchip_face_k_dev(a.face, kc, kn), uc - un, q);
    }
};

/* Every cell of the block's work items: q = (A v)(cell) in the shape's point order, then f(i, q,
 * v(cell), ld(i)); v(j) gives the vector at index j (loads), ld(i) what f needs of cell i besides
 * (loads), cells outside the grid are skipped.  The column's values along z sit in the register
 * window win[0 .. ZW+U-2] (planes z + zlo .. z + zhi + U - 1); U planes a step: every load of the
 * U cells (window, neighbours, ld) comes before any store of f, so U cells' loads are in flight.
 * W false (ONCHIP_OPERATOR_DIVK, U 1): no windows, every point loaded (the fewest registers: the
 * mixed kernel's double replacement, once in many iterations). */
template <class T, class S, int U, int OP = ONCHIP_OPERATOR_STENCIL, bool W = true, class V, class L, class F>
static __device__ __forceinline__ void perks_cgs_sweep(const perks_cgs_kargs &a, const T *w, V v, L ld, F f,
                                                       const T *K = nullptr)
{
    constexpr int ZLO = S::zlo, ZHI = S::zhi, ZW = ZHI - ZLO + 1;
    typedef decltype(ld(0LL)) LT;
    const long long plane = (long long)a.nx * a.ny;
    const int ntiles = a.tx * a.ty;
    if constexpr (!W) {
        static_assert(OP == ONCHIP_OPERATOR_DIVK && U == 1, "perks_cgs_sweep: W false is ONCHIP_OPERATOR_DIVK's, U 1");
        for (int it = blockIdx.x; it < a.items; it += gridDim.x) {
            const int t = it % ntiles, z0 = it / ntiles * a.zc, z1 = min(z0 + a.zc, a.nz);
            const int gx = t % a.tx * PERKS_CGS_BX + (int)threadIdx.x % PERKS_CGS_BX;
            const int gy = t / a.tx * PERKS_CGS_BY + (int)threadIdx.x / PERKS_CGS_BX;
            if (gx >= a.nx || gy >= a.ny) continue;
            for (int z = z0; z < z1; ++z) {
                const long long i = (long long)gy * a.nx + gx + z * plane;
                const T uc = v(i), kc = K[i];
                T q = 0;
                const perks__cgs_divk_pt<T, V, ZLO, false> g = {a, w, nullptr, nullptr, K, v, i, plane, gx, gy, z, uc, kc, q};
                onchip_shape_each(S(), g);
                q = perks__cgs_fma((T)a.sigma, uc, q);
                f(i, q, uc, ld(i));
            }
        }
    } else
    for (int it = blockIdx.x; it < a.items; it += gridDim.x) {
        const int t = it % ntiles, z0 = it / ntiles * a.zc, z1 = min(z0 + a.zc, a.nz);
        const int gx = t % a.tx * PERKS_CGS_BX + (int)threadIdx.x % PERKS_CGS_BX;
        const int gy = t / a.tx * PERKS_CGS_BY + (int)threadIdx.x / PERKS_CGS_BX;
        const bool in = gx < a.nx && gy < a.ny;
        const long long col = (long long)gy * a.nx + gx;
        T win[ZW - 1 + U], kwin[OP == ONCHIP_OPERATOR_DIVK ? ZW - 1 + U : 1]; /* kwin: DIVK's k along z */
#pragma unroll
        for (int k = 0; k < ZW - 1; ++k) {
            const int z = z0 + ZLO + k;
            win[k] = in && z >= 0 && z < a.nz ? v(col + z * plane) : (T)0;
            if constexpr (OP == ONCHIP_OPERATOR_DIVK) kwin[k] = in && z >= 0 && z < a.nz ? K[col + z * plane] : (T)0;
        }
        for (int z = z0; z < z1; z += U) {
            T q[U];
            LT s[U];
#pragma unroll
            for (int u = 0; u < U; ++u) {
                const int zt = z + u + ZHI;
                win[ZW - 1 + u] = in && zt < a.nz ? v(col + zt * plane) : (T)0;
                if constexpr (OP == ONCHIP_OPERATOR_DIVK) kwin[ZW - 1 + u] = in && zt < a.nz ? K[col + zt * plane] : (T)0;
            }
#pragma unroll
            for (int u = 0; u < U; ++u) {
                q[u] = 0, s[u] = LT();
                if (in && z + u < z1) {
                    const long long i = col + (z + u) * plane;
                    if constexpr (OP == ONCHIP_OPERATOR_DIVK) {
                        const T uc = win[u - ZLO], kc = kwin[u - ZLO];
                        const perks__cgs_divk_pt<T, V, ZLO> g = {a,  w, win + u, kwin + u, K,  v,
                                                                 i,  plane, gx, gy, z + u, uc, kc, q[u]};
                        onchip_shape_each(S(), g);
                        q[u] = perks__cgs_fma((T)a.sigma, uc, q[u]);
                    } else {
                        const perks__cgs_gather<T, V, ZLO, ZW> g = {a, w, win + u, v, i, plane, gx, gy, z + u, q[u]};
                        onchip_shape_each(S(), g);
                    }
                    s[u] = ld(i);
                }
            }
#pragma unroll
            for (int u = 0; u < U; ++u)
                if (in && z + u < z1) f(col + (z + u) * plane, q[u], win[u - ZLO], s[u]);
#pragma unroll
            for (int k = 0; k < ZW - 1; ++k) {
                win[k] = win[k + U];
                if constexpr (OP == ONCHIP_OPERATOR_DIVK) kwin[k] = kwin[k + U];
            }
        }
    }
}

template <class T> struct perks__cgs_xr { T x, r; }; /* phase B's loads of a cell */

/* Jacobi's 1 / A_ii: the centre weight's (dinv) or ONCHIP_OPERATOR_DIVK's cell's (dv[i]) */
template <int OP, class T>
static __device__ __forceinline__ T perks__cgs_di(const T *dv, T dinv, long long i)
{
    return OP == ONCHIP_OPERATOR_DIVK ? dv[i] : dinv;
}
/* ONCHIP_OPERATOR_DIVK with Jacobi: z(i) kept for phase A */
template <int OP, class T>
static __device__ __forceinline__ void perks__cgs_zput(T *Z, int jac, long long i, T zi)
{
    if (OP == ONCHIP_OPERATOR_DIVK && jac) Z[i] = zi;
}

/* the block sums of v0..v2 published to part[slot ..], a grid barrier, their totals into tot */
static __device__ __forceinline__ void perks__cgs_total(const perks_cgs_kargs &a, double v0, double v1, double v2,
                                                        int nv, int slot, double (*red)[3], double *tot)
{
    const int G = gridDim.x;
    double s0 = 0, s1 = 0, s2 = 0;
    perks__cg_block_reduce(v0, v1, v2, red, &s0, &s1, &s2);
    if (threadIdx.x == 0) {
        a.part[slot * G + blockIdx.x] = s0;
        if (nv > 1) a.part[(slot + 1) * G + blockIdx.x] = s1;
        if (nv > 2) a.part[(slot + 2) * G + blockIdx.x] = s2;
    }
    PERKS_GRID_SYNC();
    perks__cg_grid_total(a.part, slot, nv, G, tot);
}

/* mixed: x_hi += x (the float correction), x = 0; then (after a barrier) r = (float)(b - A x_hi) summed
 * in double, with its partials: r.r of the double residual, r.z, b.b */
template <class S, class K, int OP = ONCHIP_OPERATOR_STENCIL>
static __device__ __forceinline__ void perks__cgs_replace(const perks_cgs_kargs &a, bool first, double (*red)[3],
                                                          double *tot)
{
    float *X = (float *)a.x, *R = (float *)a.r;
    const long long n = (long long)a.nx * a.ny * a.nz, stride = (long long)gridDim.x * blockDim.x;
    if (!first) {
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride)
            a.xh[i] += (double)X[i], X[i] = 0;
        PERKS_GRID_SYNC();
    }
    const float dinv = (float)a.dinv;
    const int jac = a.jacobi;
    const double *xh = a.xh, *bh = a.bh;
    float *P = (float *)a.p0;
    double s0 = 0, s1 = 0, s2 = 0;
    perks_cgs_sweep<double, S, 1, OP, OP != ONCHIP_OPERATOR_DIVK>(
        a, a.w, [=](long long j) { return xh[j]; }, [=](long long i) { return bh[i]; },
        [&](long long i, double q, double, double bi) {
            const double rd = bi - q;
            const float ri = (float)rd, zi = jac ? ri * perks__cgs_di<OP>((const float *)a.dv, dinv, i) : ri;
            R[i] = ri;
            perks__cgs_zput<OP>((float *)a.z, jac, i, zi);
            if (first) X[i] = 0, P[i] = 0;
            s0 += rd * rd, s1 += (double)ri * zi, s2 += bi * bi;
        },
        OP == ONCHIP_OPERATOR_DIVK ? a.kh : nullptr);
    perks__cgs_total(a, s0, s1, s2, 3, 0, red, tot);
}

/* the whole solve (THE ITERATION); K: a type of the kernel's own (its static shared memory); MX: the
 * mixed kernel (T float, x and b in double: the replacements of WHAT A SUCCESS MEANS) */
template <class T, class S, class K, bool MX = false, int OP = ONCHIP_OPERATOR_STENCIL>
static __device__ __forceinline__ void perks_cgs_body(const perks_cgs_kargs &a)
{
    double (&red)[PERKS_CGS_BLOCK / 32][3] = perks__cg_red<K, PERKS_CGS_BLOCK / 32>;
    double (&tot)[4] = perks__cg_tot<K>;
    T w[S::ncoef];
#pragma unroll
    for (int k = 0; k < S::ncoef; ++k) w[k] = (T)a.w[k];
    const T dinv = (T)a.dinv;
    const T *Dv = (const T *)a.dv, *Kf = (const T *)a.k;
    T *Z = (T *)a.z;
    const int jac = a.jacobi;
    const T *B = (const T *)a.b;
    T *X = (T *)a.x, *R = (T *)a.r, *Pold = (T *)a.p0, *Pnew = (T *)a.p1;
    const long long n = (long long)a.nx * a.ny * a.nz, stride = (long long)gridDim.x * blockDim.x;

    /* prologue: r = b - A x0 (or b, x = 0), p = 0; r.r, r.z, b.b */
    double s0 = 0, s1 = 0, s2 = 0;
    if (MX) perks__cgs_replace<S, K, OP>(a, true, red, tot);
    else if (a.use_x0) {
        perks_cgs_sweep<T, S, perks__cgs_cfg<T, S, MX, OP>::u, OP>(a, w, [=](long long j) { return X[j]; },
                                                          [=](long long i) { return B[i]; },
                                                [&](long long i, T q, T, T bi) {
            const T ri = bi - q, zi = jac ? ri * perks__cgs_di<OP>(Dv, dinv, i) : ri;
            R[i] = ri;
            perks__cgs_zput<OP>(Z, jac, i, zi);
            Pold[i] = 0;
            s0 += (double)ri * ri, s1 += (double)ri * zi, s2 += (double)bi * bi;
        }, Kf);
    } else {
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
            const T bi = B[i], zi = jac ? bi * perks__cgs_di<OP>(Dv, dinv, i) : bi;
            X[i] = 0, R[i] = bi, Pold[i] = 0;
            perks__cgs_zput<OP>(Z, jac, i, zi);
            s0 += (double)bi * bi, s1 += (double)bi * zi, s2 += (double)bi * bi;
        }
    }
    if (!MX) perks__cgs_total(a, s0, s1, s2, 3, 0, red, tot);
    double rr = tot[0], rz = tot[1], beta = 0;
    const double bb = tot[2], stop = a.tol * a.tol * bb;
    double rlast = rr, rbest = rr; /* mixed: r.r at the last replacement, the smallest true one */
    int it = 0, status = PERKS_ENOCONV, since = 0, stalls = 0, nrep = 0;
    if (bb == 0) { /* b = 0: x = 0 */
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) {
            X[i] = 0;
            if (MX) a.xh[i] = 0;
        }
        status = PERKS_SUCCESS, rr = 0;
    } else if (rr <= stop) status = PERKS_SUCCESS;
    while (status == PERKS_ENOCONV && it < a.max_iter) {
        /* phase A: p' = z + beta p, q = A p', p'.q */
        const T bt = (T)beta;
        double pq = 0;
        perks_cgs_sweep<T, S, perks__cgs_cfg<T, S, MX, OP>::u, OP>(
            a, w, [=](long long j) {
                if constexpr (OP == ONCHIP_OPERATOR_DIVK) return perks__cgs_fma(bt, Pold[j], jac ? Z[j] : R[j]);
                else { const T rj = R[j]; return perks__cgs_fma(bt, Pold[j], jac ? rj * dinv : rj); }
            },
            [](long long) { return 0; }, [&](long long i, T q, T vc, int) {
                Pnew[i] = vc;
                pq += (double)vc * q;
            }, Kf);
        perks__cgs_total(a, pq, 0, 0, 1, 3, red, tot);
        const double pqt = tot[0];
        if (!(pqt > 0) || !isfinite(pqt)) { status = PERKS_EBREAKDOWN; break; }
        const T al = (T)(rz / pqt);
        /* phase B: q = A p' again, x += alpha p', r -= alpha q; r.r, r.z */
        double rr2 = 0, rz2 = 0;
        perks_cgs_sweep<T, S, perks__cgs_cfg<T, S, MX, OP>::u, OP>(a, w, [=](long long j) { return Pnew[j]; },
                                                [=](long long i) { return perks__cgs_xr<T>{X[i], R[i]}; },
                                                [&](long long i, T q, T vc, perks__cgs_xr<T> xr) {
            X[i] = perks__cgs_fma(al, vc, xr.x);
            const T ri = perks__cgs_fma(-al, q, xr.r), zi = jac ? ri * perks__cgs_di<OP>(Dv, dinv, i) : ri;
            R[i] = ri;
            perks__cgs_zput<OP>(Z, jac, i, zi);
            rr2 += (double)ri * ri, rz2 += (double)ri * zi;
        }, Kf);
        perks__cgs_total(a, rr2, rz2, 0, 2, 4, red, tot);
        ++it, ++since;
        double rrn = tot[0], rzn = tot[1];
        if (MX && (rrn <= stop || since >= PERKS_CG_MIXED_PERIOD ||
                   rrn <= PERKS_CG_MIXED_DELTA * PERKS_CG_MIXED_DELTA * rlast)) {
            /* a replacement: x_hi += x, r from x_hi in double; the true r.r decides */
            const bool conv = rrn <= stop;
            perks__cgs_replace<S, K, OP>(a, false, red, tot);
            rrn = tot[0], rzn = tot[1], rlast = rrn, since = 0, ++nrep;
            if (conv && rrn > stop) { /* the recurrence had drifted: PERKS_CG_STALL such in a row end it */
                stalls = rrn < 0.25 * rbest ? 0 : stalls + 1;
                if (stalls >= PERKS_CG_STALL) status = PERKS_EINACCURATE;
            }
            if (rrn < rbest) rbest = rrn;
        }
        beta = rzn / rz, rr = rrn, rz = rzn;
        if (rr <= stop) status = PERKS_SUCCESS;
        T *s = Pold; Pold = Pnew; Pnew = s;
    }
    if (MX) /* the correction since the last replacement into x_hi */
        for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += stride) a.xh[i] += (double)X[i];
    if (blockIdx.x == 0 && threadIdx.x == 0)
        a.out->status = status, a.out->iterations = it, a.out->repl = nrep, a.out->rr = rr, a.out->bb = bb;
}

#ifndef __CUDACC_RTC__ /* the host side's kernels: not under NVRTC */
template <class S, class TX>
static __global__ void __launch_bounds__(PERKS_CG_RESID_THREADS)
perks__cgs_resid_kernel(const perks_cgs_kargs a, const TX *b, const TX *x, double *r_out, double *part)
{
    __shared__ double red[PERKS_CG_RESID_THREADS / 32][3];
    const int nx = a.nx, ny = a.ny, nz = a.nz;
    const long long plane = (long long)nx * ny, n = plane * nz;
    double rr = 0, bb = 0, aa = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const int gx = (int)(i % nx), gy = (int)(i / nx % ny), gz = (int)(i / plane);
        double s = 0, sa = 0;
        onchip_shape_each(S(), [&](auto pt) {
            typedef decltype(pt) P;
            const int x1 = gx + P::dx, y1 = gy + P::dy, z1 = gz + P::dz;
            if (x1 >= 0 && x1 < nx && y1 >= 0 && y1 < ny && z1 >= 0 && z1 < nz) {
                const double t = a.w[P::i] * (double)x[i + P::dx + (long long)P::dy * nx + P::dz * plane];
                s += t, sa += fabs(t);
            }
        });
        const double bi = (double)b[i], ri = bi - s;
        if (r_out) r_out[i] = ri;
        rr += ri * ri, bb += bi * bi, aa += sa * sa;
    }
    double s0 = 0, s1 = 0, s2 = 0;
    perks__cg_block_reduce(rr, bb, aa, red, &s0, &s1, &s2);
    if (threadIdx.x == 0) part[3 * blockIdx.x] = s0, part[3 * blockIdx.x + 1] = s1, part[3 * blockIdx.x + 2] = s2;
}

/* the same for ONCHIP_OPERATOR_DIVK: (A x)(c) = sigma x(c) + sum over I != 0 of w[I] k_I (x(c) - x(c + d_I)),
 * w the kernel's negated weights, k in x's type (kh where set) */
template <class S, class TX>
static __global__ void __launch_bounds__(PERKS_CG_RESID_THREADS)
perks__cgs_resid_divk_kernel(const perks_cgs_kargs a, const TX *b, const TX *x, double *r_out, double *part)
{
    __shared__ double red[PERKS_CG_RESID_THREADS / 32][3];
    const int nx = a.nx, ny = a.ny, nz = a.nz;
    const long long plane = (long long)nx * ny, n = plane * nz;
    const TX *K = (const TX *)(a.kh ? (const void *)a.kh : a.k);
    double rr = 0, bb = 0, aa = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const int gx = (int)(i % nx), gy = (int)(i / nx % ny), gz = (int)(i / plane);
        const double xc = (double)x[i], kc = (double)K[i];
        double s = a.sigma * xc, sa = fabs(s);
        onchip_shape_each(S(), [&](auto pt) {
            typedef decltype(pt) P;
            if (P::dx == 0 && P::dy == 0 && P::dz == 0) return;
            const int x1 = gx + P::dx, y1 = gy + P::dy, z1 = gz + P::dz;
            const bool inside = x1 >= 0 && x1 < nx && y1 >= 0 && y1 < ny && z1 >= 0 && z1 < nz;
            const long long j = i + P::dx + (long long)P::dy * nx + P::dz * plane;
            const double c = a.w[P::i] * onchip_face_k(a.face, kc, inside ? (double)K[j] : kc);
            const double xn = inside ? (double)x[j] : 0;
            s += c * (xc - xn), sa += fabs(c) * (fabs(xc) + fabs(xn));
        });
        const double bi = (double)b[i], ri = bi - s;
        if (r_out) r_out[i] = ri;
        rr += ri * ri, bb += bi * bi, aa += sa * sa;
    }
    double s0 = 0, s1 = 0, s2 = 0;
    perks__cg_block_reduce(rr, bb, aa, red, &s0, &s1, &s2);
    if (threadIdx.x == 0) part[3 * blockIdx.x] = s0, part[3 * blockIdx.x + 1] = s1, part[3 * blockIdx.x + 2] = s2;
}

/* ONCHIP_OPERATOR_DIVK's diagonal (the plan's): dv = 1 / (sigma + sum over I != 0 of -w[I] k_I) in TD
 * (and in double into dvd, when not NULL), kf = (float)k when not NULL; the cells whose k is outside
 * [ONCHIP_FACE_KMIN, ONCHIP_FACE_KMAX] (NaN included) or whose diagonal is not > 0 and finite,
 * counted into *bad */
template <class S, class TK, class TD>
static __global__ void perks__cgs_diag_kernel(const perks_cgs_kargs a, const TK *k, TD *dv, double *dvd, float *kf,
                                              int *bad)
{
    const int nx = a.nx, ny = a.ny, nz = a.nz;
    const long long plane = (long long)nx * ny, n = plane * nz;
    int nbad = 0;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
        const int gx = (int)(i % nx), gy = (int)(i / nx % ny), gz = (int)(i / plane);
        const double kc = (double)k[i];
        bool ok = kc >= ONCHIP_FACE_KMIN && kc <= ONCHIP_FACE_KMAX;
        double d = a.sigma;
        onchip_shape_each(S(), [&](auto pt) {
            typedef decltype(pt) P;
            if (P::dx == 0 && P::dy == 0 && P::dz == 0) return;
            const int x1 = gx + P::dx, y1 = gy + P::dy, z1 = gz + P::dz;
            const bool inside = x1 >= 0 && x1 < nx && y1 >= 0 && y1 < ny && z1 >= 0 && z1 < nz;
            const double kn = inside ? (double)k[i + P::dx + (long long)P::dy * nx + P::dz * plane] : kc;
            if (!(kn >= ONCHIP_FACE_KMIN && kn <= ONCHIP_FACE_KMAX)) ok = false;
            else d += a.w[P::i] * onchip_face_k(a.face, kc, kn);
        });
        const TD di = (TD)(1 / d);
        if (!ok || !(d > 0) || !isfinite(d) || !(di > 0) || !isfinite((double)di)) ++nbad;
        dv[i] = di;
        if (dvd) dvd[i] = 1 / d;
        if (kf) kf[i] = (float)kc;
    }
    if (nbad) atomicAdd(bad, nbad);
}

/* out = (TO)(scale r) and x = (TX)(x + scale d) (a refinement round) */
template <class TO>
static __global__ void perks__cgs_scale_kernel(long long n, const double *r, double scale, TO *out)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        out[i] = (TO)(scale * r[i]);
}
template <class TX, class TD>
static __global__ void perks__cgs_add_kernel(long long n, TX *x, const TD *d, double scale)
{
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
        x[i] = (TX)((double)x[i] + scale * (double)d[i]);
}
#endif

#endif /* PERKS_CG_STENCIL_BODY_CUH */
#include <onchip/names_pop.h>
