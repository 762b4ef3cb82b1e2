#include <onchip/names_push.h>
/* perks/mg/kernels.cuh -- the multigrid V-cycle's and the outer CG's kernel bodies (perks/mg.cuh):
 * grid-stride loops over one level's cells, arithmetic in double, vectors stored in T (float or
 * double); PERKS__MG_KERNELS(name, T) defines the generator's __global__ kernels from them.
 *
 * WHAT
 *   perks__mg_op                      one level: nx, ny, nz and the 7 weights (ONCHIP_SHAPE_STAR3D_R1's order)
 *   perks__mg_apply_dot_body<T>       q = A p; part[block] = sum p q
 *   perks__mg_resid_body<T>           r = b - A x; part (not NULL): r.r, b.b by block
 *   perks__mg_update_body<T>          x += alpha p, r -= alpha q; part r.r by block
 *   perks__mg_dot_body<T>             part[block] = sum u v
 *   perks__mg_pupdate_body<T>         p = z + beta p
 *   perks__mg_scale_body<T>           x = d b (a Jacobi sweep from x = 0)
 *   perks__mg_jacobi_body<T>          y = x + d (b - A x)
 *   perks__mg_restrict_body<T>        coarse = R fine (full weighting, (1/4, 1/2, 1/4) per axis)
 *   perks__mg_prolong_body<T>         fine += P coarse (trilinear, 0 outside the coarse grid)
 *   perks__mg_kern<T>                 the table of one instance's kernels (host launches through it)
 *   PERKS__MG_KERNELS(name, T)        name_apply, _resid, _update, _dot, _pupdate, _scale, _jacobi,
 *                                     _restrict, _prolong (T float or double)
 *
 * EXAMPLE: launched by perks/mg/host.cuh only.
 *   [not compiled: no code, a pointer to the host side]
 *
 * LIMITS: a level has at most 2^31 - 1 cells; the kernels with a partial run on PERKS_MG_DOT_BLOCKS
 * blocks of PERKS_MG_THREADS threads (the block sum's shared array).
 */
#ifndef PERKS_MG_KERNELS_CUH
#define PERKS_MG_KERNELS_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#endif

#include "../barrier.cuh"

#define PERKS_MG_THREADS 256 /* threads per block of every kernel */
#ifndef PERKS_MG_DOT_BLOCKS
#define PERKS_MG_DOT_BLOCKS 1024 /* blocks of the kernels that write partials (host-summed in order) */
#endif

typedef struct perks__mg_op {
    int nx, ny, nz, pad_;
    double w0, w1, w2, w3, w4, w5, w6; /* centre, -x, +x, -y, +y, -z, +z */
} perks__mg_op;

/* (A v)(i) at cell (x, y, z) = i: the centre, then -x, +x, -y, +y, -z, +z (0 outside) */
template <class T>
static __device__ __forceinline__ double perks__mg_stencil(const perks__mg_op &o, const T *__restrict__ v, long long i,
                                                            int x, int y, int z)
{
    const long long sx = 1, sy = o.nx, sz = (long long)o.nx * o.ny;
    double s = o.w0 * (double)v[i];
    if (x > 0) s += o.w1 * (double)v[i - sx];
    if (x < o.nx - 1) s += o.w2 * (double)v[i + sx];
    if (y > 0) s += o.w3 * (double)v[i - sy];
    if (y < o.ny - 1) s += o.w4 * (double)v[i + sy];
    if (z > 0) s += o.w5 * (double)v[i - sz];
    if (z < o.nz - 1) s += o.w6 * (double)v[i + sz];
    return s;
}

/* the cell (x, y, z) of index i < 2^31 (32-bit division) */
static __device__ __forceinline__ void perks__mg_xyz(long long i, int nx, int ny, int *x, int *y, int *z)
{
    const unsigned u = (unsigned)i, q = u / (unsigned)nx;
    *x = (int)(u - q * (unsigned)nx), *y = (int)(q % (unsigned)ny), *z = (int)(q / (unsigned)ny);
}

/* the block's sum of v in thread 0 (PERKS_MG_THREADS threads) */
static __device__ __forceinline__ double perks__mg_block_sum(double v)
{
    double unused = 0;
    perks__block_sum<PERKS_MG_THREADS, 1>(v, unused);
    return v;
}

#define PERKS__MG_LOOP(i, n)                                                                    \
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n);               \
         i += (long long)gridDim.x * blockDim.x)

template <class T>
static __device__ __forceinline__ void perks__mg_apply_dot_body(
    perks__mg_op o, const T *__restrict__ p, T *__restrict__ q, double *__restrict__ part)
{
    const long long n = (long long)o.nx * o.ny * o.nz;
    double acc = 0;
    PERKS__MG_LOOP(i, n)
    {
        int x, y, z;
        perks__mg_xyz(i, o.nx, o.ny, &x, &y, &z);
        const double s = perks__mg_stencil<T>(o, p, i, x, y, z);
        q[i] = (T)s;
        acc += (double)p[i] * (double)(T)s;
    }
    acc = perks__mg_block_sum(acc);
    if (threadIdx.x == 0) part[blockIdx.x] = acc;
}

template <class T>
static __device__ __forceinline__ void perks__mg_resid_body(
    perks__mg_op o, const T *__restrict__ b, const T *__restrict__ x, T *__restrict__ r, double *__restrict__ part)
{
    const long long n = (long long)o.nx * o.ny * o.nz;
    double rr = 0, bb = 0;
    PERKS__MG_LOOP(i, n)
    {
        int cx, cy, cz;
        perks__mg_xyz(i, o.nx, o.ny, &cx, &cy, &cz);
        const double bi = (double)b[i], ri = bi - perks__mg_stencil<T>(o, x, i, cx, cy, cz);
        r[i] = (T)ri;
        rr += ri * ri, bb += bi * bi;
    }
    if (!part) return; /* uniform: every thread of the grid returns */
    perks__block_sum<PERKS_MG_THREADS, 2>(rr, bb);
    if (threadIdx.x == 0) part[blockIdx.x] = rr, part[gridDim.x + blockIdx.x] = bb;
}

template <class T>
static __device__ __forceinline__ void perks__mg_update_body(
    long long n, double alpha, const T *__restrict__ p, const T *__restrict__ q, T *__restrict__ x,
    T *__restrict__ r, double *__restrict__ part)
{
    double rr = 0;
    PERKS__MG_LOOP(i, n)
    {
        x[i] = (T)((double)x[i] + alpha * (double)p[i]);
        const T ri = (T)((double)r[i] - alpha * (double)q[i]);
        r[i] = ri;
        rr += (double)ri * (double)ri;
    }
    rr = perks__mg_block_sum(rr);
    if (threadIdx.x == 0) part[blockIdx.x] = rr;
}

template <class T>
static __device__ __forceinline__ void perks__mg_dot_body(
    long long n, const T *__restrict__ u, const T *__restrict__ v, double *__restrict__ part)
{
    double s = 0;
    PERKS__MG_LOOP(i, n) s += (double)u[i] * (double)v[i];
    s = perks__mg_block_sum(s);
    if (threadIdx.x == 0) part[blockIdx.x] = s;
}

template <class T>
static __device__ __forceinline__ void perks__mg_pupdate_body(
    long long n, double beta, const T *__restrict__ z, T *__restrict__ p)
{
    PERKS__MG_LOOP(i, n) p[i] = (T)((double)z[i] + beta * (double)p[i]);
}

template <class T>
static __device__ __forceinline__ void perks__mg_scale_body(
    long long n, double d, const T *__restrict__ b, T *__restrict__ x)
{
    PERKS__MG_LOOP(i, n) x[i] = (T)(d * (double)b[i]);
}

template <class T>
static __device__ __forceinline__ void perks__mg_jacobi_body(
    perks__mg_op o, double d, const T *__restrict__ b, const T *__restrict__ x, T *__restrict__ y)
{
    const long long n = (long long)o.nx * o.ny * o.nz;
    PERKS__MG_LOOP(i, n)
    {
        int cx, cy, cz;
        perks__mg_xyz(i, o.nx, o.ny, &cx, &cy, &cz);
        y[i] = (T)((double)x[i] + d * ((double)b[i] - perks__mg_stencil<T>(o, x, i, cx, cy, cz)));
    }
}

/* coarse (I, J, K) = the (1/4, 1/2, 1/4)^3 weighted sum of fine (2I + a, 2J + b, 2K + c), a, b, c in 0..2
 * (always inside: nc = (n - 1) / 2 per axis) */
template <class T>
static __device__ __forceinline__ void perks__mg_restrict_body(
    int fx, int fy, int cx, int cy, int cz, const T *__restrict__ f, T *__restrict__ c)
{
    const long long n = (long long)cx * cy * cz, fxy = (long long)fx * fy;
    PERKS__MG_LOOP(i, n)
    {
        int I, J, K;
        perks__mg_xyz(i, cx, cy, &I, &J, &K);
        const long long base = (2LL * K) * fxy + (2LL * J) * fx + 2LL * I;
        double s = 0;
#pragma unroll
        for (int cc = 0; cc < 3; cc++) {
            double sz = 0;
#pragma unroll
            for (int bb = 0; bb < 3; bb++) {
                const T *row = f + base + cc * fxy + (long long)bb * fx;
                const double sx = 0.25 * (double)row[0] + 0.5 * (double)row[1] + 0.25 * (double)row[2];
                sz += (bb == 1 ? 0.5 : 0.25) * sx;
            }
            s += (cc == 1 ? 0.5 : 0.25) * sz;
        }
        c[i] = (T)s;
    }
}

/* one axis of P: fine f takes coarse ia with weight wa and ib with wb (0: absent; indices in range) */
static __device__ __forceinline__ void perks__mg_axis(int f, int nc, int *ia, double *wa, int *ib, double *wb)
{
    if (f & 1) {
        const int I = (f - 1) >> 1;
        *wa = I < nc ? 1.0 : 0.0, *ia = I < nc ? I : nc - 1;
        *wb = 0.0, *ib = *ia;
    } else {
        const int I = (f >> 1) - 1, J = f >> 1;
        *wa = I >= 0 ? 0.5 : 0.0, *ia = I >= 0 ? I : 0;
        *wb = J < nc ? 0.5 : 0.0, *ib = J < nc ? J : nc - 1;
    }
}

/* x(fine) += sum of the (up to 8) coarse values trilinear interpolation gives it */
template <class T>
static __device__ __forceinline__ void perks__mg_prolong_body(
    int fx, int fy, int fz, int cx, int cy, int cz, const T *__restrict__ c, T *__restrict__ x)
{
    const long long n = (long long)fx * fy * fz, cxy = (long long)cx * cy;
    PERKS__MG_LOOP(i, n)
    {
        int X, Y, Z;
        perks__mg_xyz(i, fx, fy, &X, &Y, &Z);
        int ix[2], iy[2], iz[2];
        double wx[2], wy[2], wz[2];
        perks__mg_axis(X, cx, &ix[0], &wx[0], &ix[1], &wx[1]);
        perks__mg_axis(Y, cy, &iy[0], &wy[0], &iy[1], &wy[1]);
        perks__mg_axis(Z, cz, &iz[0], &wz[0], &iz[1], &wz[1]);
        double s = 0;
#pragma unroll
        for (int kc = 0; kc < 2; kc++)
#pragma unroll
            for (int jc = 0; jc < 2; jc++)
#pragma unroll
                for (int ic = 0; ic < 2; ic++) {
                    const double w = wz[kc] * wy[jc] * wx[ic];
                    if (w != 0.0) s += w * (double)c[iz[kc] * cxy + (long long)iy[jc] * cx + ix[ic]];
                }
        x[i] = (T)((double)x[i] + s);
    }
}

/* one instance's kernels, as host pointers (the launches of perks/mg/host.cuh go through them) */
template <class T> struct perks__mg_kern {
    void (*apply)(perks__mg_op, const T *, T *, double *);
    void (*resid)(perks__mg_op, const T *, const T *, T *, double *);
    void (*update)(long long, double, const T *, const T *, T *, T *, double *);
    void (*dot)(long long, const T *, const T *, double *);
    void (*pupdate)(long long, double, const T *, T *);
    void (*scale)(long long, double, const T *, T *);
    void (*jacobi)(perks__mg_op, double, const T *, const T *, T *);
    void (*restr)(int, int, int, int, int, const T *, T *);
    void (*prolong)(int, int, int, int, int, int, const T *, T *);
};

/* the generator's kernels over the bodies (TY: float or double); static where the host table refers
 * to them, external under NVRTC (found by name, never referred to in the source) */
#ifndef __CUDACC_RTC__
#define PERKS__MG_KERNEL_ATTR static __global__ void __launch_bounds__(PERKS_MG_THREADS)
#else
#define PERKS__MG_KERNEL_ATTR __global__ void __launch_bounds__(PERKS_MG_THREADS)
#endif
#define PERKS__MG_KERNELS(name, TY)                                                                        \
    PERKS__MG_KERNEL_ATTR name##_apply(perks__mg_op o, const TY *__restrict__ p, TY *__restrict__ q,      \
                                       double *__restrict__ part)                                          \
    { perks__mg_apply_dot_body<TY>(o, p, q, part); }                                                       \
    PERKS__MG_KERNEL_ATTR name##_resid(perks__mg_op o, const TY *__restrict__ b, const TY *__restrict__ x, \
                                       TY *__restrict__ r, double *__restrict__ part)                      \
    { perks__mg_resid_body<TY>(o, b, x, r, part); }                                                        \
    PERKS__MG_KERNEL_ATTR name##_update(long long n, double alpha, const TY *__restrict__ p,               \
                                        const TY *__restrict__ q, TY *__restrict__ x, TY *__restrict__ r,  \
                                        double *__restrict__ part)                                         \
    { perks__mg_update_body<TY>(n, alpha, p, q, x, r, part); }                                             \
    PERKS__MG_KERNEL_ATTR name##_dot(long long n, const TY *__restrict__ u, const TY *__restrict__ v,      \
                                     double *__restrict__ part)                                            \
    { perks__mg_dot_body<TY>(n, u, v, part); }                                                             \
    PERKS__MG_KERNEL_ATTR name##_pupdate(long long n, double beta, const TY *__restrict__ z,               \
                                         TY *__restrict__ p)                                               \
    { perks__mg_pupdate_body<TY>(n, beta, z, p); }                                                         \
    PERKS__MG_KERNEL_ATTR name##_scale(long long n, double d, const TY *__restrict__ b, TY *__restrict__ x) \
    { perks__mg_scale_body<TY>(n, d, b, x); }                                                              \
    PERKS__MG_KERNEL_ATTR name##_jacobi(perks__mg_op o, double d, const TY *__restrict__ b,                \
                                        const TY *__restrict__ x, TY *__restrict__ y)                      \
    { perks__mg_jacobi_body<TY>(o, d, b, x, y); }                                                          \
    PERKS__MG_KERNEL_ATTR name##_restrict(int fx, int fy, int cx, int cy, int cz, const TY *__restrict__ f, \
                                          TY *__restrict__ c)                                              \
    { perks__mg_restrict_body<TY>(fx, fy, cx, cy, cz, f, c); }                                             \
    PERKS__MG_KERNEL_ATTR name##_prolong(int fx, int fy, int fz, int cx, int cy, int cz,                   \
                                         const TY *__restrict__ c, TY *__restrict__ x)                     \
    { perks__mg_prolong_body<TY>(fx, fy, fz, cx, cy, cz, c, x); }

#endif /* PERKS_MG_KERNELS_CUH */
#include <onchip/names_pop.h>
