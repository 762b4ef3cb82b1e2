#include <onchip/names_push.h>
/* ssam/stencil/queue3d.cuh -- the 3D z-queue piece: one step of a 3D star stencil with the model's
 * updates and coefficient fields (onchip/stencil.h), for a user's kernel.
 *
 * WHAT
 *   ssam_queue3d_args<T>        the kernel's parameter: src (u), dst (u_prev in, u' out), the fields
 *                               scale (s), damp (d) or NULL (the layout of src), nx, ny, nz, pitch,
 *                               plane, update (ONCHIP_UPDATE_*), boundary (ONCHIP_KEEP_EXTENT or
 *                               ONCHIP_ZERO_OUTSIDE), seg (planes a block), vec (16-byte copies:
 *                               ssam_queue3d_vec(&a))
 *   ssam_queue3d_step<T, S, BY, PD[, UPD]>(a, c)   the block's columns: 32 x BY threads, each V = 16 /
 *                               sizeof(T) cells of a row, planes blockIdx.z * seg ... of them; c the
 *                               shape's coefficients (c[I] for point I; a kernel parameter array)
 *   ssam_queue3d_smem<T, S, BY, PD>()       its dynamic shared memory (bytes)
 *   ssam_queue3d_grid<T>(a, BY)             its grid: (nx / 32V, ny / BY, nz / seg), rounded up
 *   ssam_queue3d_seg<T>(a, BY, sms)         a seg that fills a device of sms multiprocessors
 *   ssam_queue3d_check<T, S[, UPD]>(&a)     SSAM_SUCCESS, or the code of what the step cannot take
 *                                           (a periodic boundary: SSAM_EBORDER); call it before a launch
 *   u' = s L u (SUM), 2u - u_prev + s L u (LEAPFROG), (2u - (1 - d) u_prev + s L u) / (1 + d) (DAMPED),
 *   L u = sum of c[I] u(cell + d_I); s = 1, d = 0 where the field is NULL.  UPD (default -1: a.update
 *   at run time) fixes the update at compile time: the faster body; check<T, S, UPD> refuses another.
 *
 * EXAMPLE
 *   [compile]
 *   typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_STAR3D_R4) star;
 *   struct coef { float c[star::npts]; };
 *   __global__ void __launch_bounds__(512) wave(ssam_queue3d_args<float> a, coef c)
 *   {
 *       ssam_queue3d_step<float, star, 16, 2>(a, c.c);
 *   }
 *   // wave<<<ssam_queue3d_grid(&a, 16), dim3(32, 16), ssam_queue3d_smem<float, star, 16, 2>()>>>(a, c)
 *   // (the kernel's dynamic shared-memory limit raised first); swap src and dst between steps
 *
 * LIMITS
 *   S a star (every point on an axis), T float or double, BY 1 .. 32, PD (planes copied ahead of
 *   need) 1 .. 4: static_asserts.  src and dst distinct; the fields read only.  The schedule and
 *   its costs: docs/ssam.md#queue3d-application-stencils-in-3d-stencilqueue3dcuh.
 */
#ifndef SSAM_STENCIL_QUEUE3D_CUH
#define SSAM_STENCIL_QUEUE3D_CUH

#include <onchip/async.cuh>
#include <onchip/boundary.h>
#include <onchip/check.h>
#include <onchip/shape.cuh>
#include <onchip/stencil.h>
#include "../codes.h"
#include "../regcache.cuh"

template <class T>
struct ssam_queue3d_args {
    const T *src;
    T *dst;
    const T *scale, *damp;
    int nx, ny, nz;
    long long pitch, plane;
    int update, boundary;
    int seg, vec;
};

/* 1 when every point of S has at most one non-zero offset */
template <class S>
struct ssam__is_star;
template <class... P>
struct ssam__is_star<onchip_shape<P...>> {
    enum { value = (1 && ... && ((P::dx != 0) + (P::dy != 0) + (P::dz != 0) <= 1)) };
};

/* the tile: V cells a thread, x halos rounded up to V */
template <class T, class S, int BY, int PD>
struct ssam__q3 {
    enum {
        V = 16 / (int)sizeof(T), TX = 32 * V, HL = (-S::xlo + V - 1) / V * V, HR = (S::xhi + V - 1) / V * V,
        TW = HL + TX + HR, YL = -S::ylo, TH = YL + BY + S::yhi, ZL = -S::zlo, ZH = S::zhi, NQ = ZL + ZH + 1,
        NS = ZH + 2 + PD, SL = TH * TW
    };
};

template <class T, class S, int BY, int PD>
static __host__ __device__ constexpr size_t ssam_queue3d_smem(void)
{
    return (size_t)ssam__q3<T, S, BY, PD>::NS * ssam__q3<T, S, BY, PD>::SL * sizeof(T);
}

/* V cells of row (z, y) from column x into the ring at s, cell by cell, zeros outside */
template <class T>
static __device__ __forceinline__ void ssam__q3_copy(T *s, const ssam_queue3d_args<T> &a, int z, int y, int x)
{
    enum { V = 16 / (int)sizeof(T) };
    const bool zy = z >= 0 && z < a.nz && y >= 0 && y < a.ny;
    const T *row = a.src + (zy ? (long long)z * a.plane + (long long)y * a.pitch : 0);
#pragma unroll
    for (int e = 0; e < V; e++) {
        const bool ok = zy && x + e >= 0 && x + e < a.nx;
        if constexpr (sizeof(T) == 4) onchip_cp_async4(s + e, row + (ok ? x + e : 0), ok);
        else onchip_cp_async8(s + e, row + (ok ? x + e : 0), ok);
    }
}
/* V values at p (16-byte aligned, shared or global memory) into v */
template <class T>
static __device__ __forceinline__ void ssam__q3_lds(T *v, const T *p)
{
    if constexpr (sizeof(T) == 4) {
        const float4 t = *(const float4 *)p;
        v[0] = t.x, v[1] = t.y, v[2] = t.z, v[3] = t.w;
    } else {
        const double2 t = *(const double2 *)p;
        v[0] = t.x, v[1] = t.y;
    }
}
/* V cells of p at (z, y, x) into v (zeros outside); v out to p (the cells inside) */
template <bool FAST, class T>
static __device__ __forceinline__ void ssam__q3_load(T (&v)[16 / sizeof(T)], const T *p, const ssam_queue3d_args<T> &a,
                                                     int z, int y, int x)
{
    enum { V = 16 / (int)sizeof(T) };
    const bool zy = z >= 0 && z < a.nz && y >= 0 && y < a.ny;
    const T *row = p + (zy ? (long long)z * a.plane + (long long)y * a.pitch : 0);
    if constexpr (FAST) {
        if (zy && x >= 0 && x < a.nx) {
            ssam__q3_lds(v, row + x);
        } else {
#pragma unroll
            for (int e = 0; e < V; e++) v[e] = T(0);
        }
    } else {
#pragma unroll
        for (int e = 0; e < V; e++) v[e] = zy && x + e >= 0 && x + e < a.nx ? row[x + e] : T(0);
    }
}
template <bool FAST, class T>
static __device__ __forceinline__ void ssam__q3_store(T *p, const T (&v)[16 / sizeof(T)], const ssam_queue3d_args<T> &a,
                                                      int z, int y, int x)
{
    enum { V = 16 / (int)sizeof(T) };
    T *row = p + (long long)z * a.plane + (long long)y * a.pitch;
    if constexpr (FAST) {
        if constexpr (sizeof(T) == 4) *(float4 *)(row + x) = make_float4(v[0], v[1], v[2], v[3]);
        else *(double2 *)(row + x) = make_double2(v[0], v[1]);
    } else {
#pragma unroll
        for (int e = 0; e < V; e++)
            if (x + e < a.nx) row[x + e] = v[e];
    }
}

/* the thread's copy sites in a plane of the tile: its cells, its share of the y halo rows, the x
 * halo chunk of lanes at the row's ends.  Per site: the ring offset (o, -1 when the thread has no such
 * site), the cell's row y and column x, and g, the offset in the plane (-1 outside rows 0 .. ny - 1 or
 * columns 0 .. nx - 1 of the chunk's first cell) */
template <class T, class S, int BY, int PD>
struct ssam__q3_sites {
    typedef ssam__q3<T, S, BY, PD> Q;
    enum { NYH = (Q::YL + S::yhi + BY - 1) / BY, N = 2 + NYH };
    int o[N], y[N], x[N];
    long long g[N];
    __device__ __forceinline__ void set(int k, int o_, int y_, int x_, const ssam_queue3d_args<T> &a)
    {
        o[k] = o_, y[k] = y_, x[k] = x_;
        g[k] = y_ >= 0 && y_ < a.ny && x_ >= 0 && x_ < a.nx ? (long long)y_ * a.pitch + x_ : -1;
    }
    __device__ __forceinline__ ssam__q3_sites(const ssam_queue3d_args<T> &a, int bx, int by)
    {
        const int tx = threadIdx.x, ty = threadIdx.y, xc = Q::HL + tx * Q::V;
        set(0, (Q::YL + ty) * Q::TW + xc, by + ty, bx + tx * Q::V, a);
#pragma unroll
        for (int j = 0; j < NYH; j++) {
            const int h = ty + j * BY, r = h < Q::YL ? h : BY + h;
            set(1 + j, h < Q::YL + S::yhi ? r * Q::TW + xc : -1, by - Q::YL + r, bx + tx * Q::V, a);
        }
        const int j = tx - (32 - Q::HR / Q::V), row = (Q::YL + ty) * Q::TW;
        if (tx < Q::HL / Q::V) set(N - 1, row + tx * Q::V, by + ty, bx - Q::HL + tx * Q::V, a);
        else if (j >= 0) set(N - 1, row + Q::HL + Q::TX + j * Q::V, by + ty, bx + Q::TX + j * Q::V, a);
        else set(N - 1, -1, 0, 0, a);
    }
    /* plane z into ring slot s.  FAST (16-byte copies, nx a multiple of V): a chunk is all inside or
     * all outside, one copy; else cell by cell */
    template <bool FAST>
    __device__ __forceinline__ void fetch(T *s, const ssam_queue3d_args<T> &a, int z) const
    {
        const bool zok = z >= 0 && z < a.nz;
        const T *p = a.src + (zok ? (long long)z * a.plane : 0);
#pragma unroll
        for (int k = 0; k < N; k++) {
            if (o[k] < 0) continue;
            if constexpr (FAST) {
                const bool ok = zok && g[k] >= 0;
                onchip_cp_async16_fill_unordered(s + o[k], ok ? p + g[k] : a.src, ok ? 16 : 0);
            } else {
                ssam__q3_copy(s + o[k], a, z, y[k], x[k]);
            }
        }
    }
};

/* the damped update's division: float's __fdividef (within 2 ulp for 1 + d in [1, 2^126]; the IEEE
 * division's slow path is a call with a stack frame), double's / */
static __device__ __forceinline__ float ssam__q3_div(float a, float b) { return __fdividef(a, b); }
static __device__ __forceinline__ double ssam__q3_div(double a, double b) { return a / b; }
/* the sum over the points in their order: a point's V values from the queue (DZ), the
 * ring's rows (DY) or the row w (DX, the centre) */
template <class T, class S, int BY, int PD>
struct ssam__q3_sum {
    typedef ssam__q3<T, S, BY, PD> Q;
    enum { V = Q::V, NW = Q::HL + Q::V + Q::HR };
    T (&s)[V];
    const T (&q)[Q::NQ][V];
    const T (&w)[NW];
    const T *c0, *c;
    template <class P>
    __device__ __forceinline__ void operator()(P) const
    {
        T v[V];
        if constexpr (P::dz != 0) {
#pragma unroll
            for (int e = 0; e < V; e++) v[e] = q[Q::ZL + P::dz][e];
        } else if constexpr (P::dy != 0) {
            ssam__q3_lds(v, c0 + P::dy * Q::TW);
        } else {
#pragma unroll
            for (int e = 0; e < V; e++) v[e] = w[Q::HL + P::dx + e];
        }
#pragma unroll
        for (int e = 0; e < V; e++) s[e] += c[P::i] * v[e];
    }
};

/* the step's body: FAST as ssam__q3_sites::fetch's */
template <bool FAST, class T, class S, int BY, int PD, int UPD>
static __device__ __forceinline__ void ssam__q3_body(const ssam_queue3d_args<T> &a, const T *c)
{
    typedef ssam__q3<T, S, BY, PD> Q;
    enum { V = Q::V, NW = Q::HL + V + Q::HR };
    extern __shared__ __align__(16) unsigned char ssam__q3_smem[];
    T *ring = (T *)ssam__q3_smem;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int bx = blockIdx.x * Q::TX, by = blockIdx.y * BY, x = bx + tx * V, y = by + ty;
    const int z0 = blockIdx.z * a.seg, z1 = z0 + a.seg < a.nz ? z0 + a.seg : a.nz, upd = UPD >= 0 ? UPD : a.update;
    const ssam__q3_sites<T, S, BY, PD> sites(a, bx, by);
    const bool keep = a.boundary != ONCHIP_ZERO_OUTSIDE, ykept = y < Q::YL || y >= a.ny - S::yhi;
    bool xkept[V];
#pragma unroll
    for (int e = 0; e < V; e++) xkept[e] = x + e < -S::xlo || x + e >= a.nx - S::xhi;
    T q[Q::NQ][V];
    /* the queue: planes z0 - ZL .. z0 + ZH - 1 of the thread's cells (plane z + ZH comes from the ring) */
#pragma unroll
    for (int k = 1; k < Q::NQ; k++) ssam__q3_load<FAST>(q[k], a.src, a, z0 - Q::ZL + k - 1, y, x);
#pragma unroll 1
    for (int k = 0; k < Q::ZH + PD; k++) {
        sites.template fetch<FAST>(ring + k * Q::SL, a, z0 + k);
        onchip_cp_async_commit();
    }
    int sc = 0; /* the slot of plane z */
    T up[V] = {}, sv[V] = {}, dv[V] = {}; /* plane z's u_prev, s and d, loaded a plane ahead */
    if (upd != ONCHIP_UPDATE_SUM) ssam__q3_load<FAST>(up, a.dst, a, z0, y, x);
    if (a.scale) ssam__q3_load<FAST>(sv, a.scale, a, z0, y, x);
    if (a.damp) ssam__q3_load<FAST>(dv, a.damp, a, z0, y, x);
    /* the leapfrog fixed, radius <= 4 in z: the plane loop unrolled by the queue's length, so that the
     * queue's shift is a renaming, not moves (why, and where it loses: docs/ssam.md#queue3d-unroll) */
    constexpr int ZU = UPD == ONCHIP_UPDATE_LEAPFROG && Q::NQ <= 9 ? Q::NQ : 1;
#pragma unroll ZU
    for (int z = z0; z < z1; z++) {
        {   /* plane z + ZH + PD into the slot of plane z - 2 (read last before the previous barrier) */
            int sn = sc + Q::ZH + PD;
            sn -= sn >= Q::NS ? Q::NS : 0;
            sites.template fetch<FAST>(ring + sn * Q::SL, a, z + Q::ZH + PD);
            onchip_cp_async_commit();
        }
        T un[V] = {}, sn[V] = {}, dn[V] = {};
        if (z + 1 < z1) {
            if (upd != ONCHIP_UPDATE_SUM) ssam__q3_load<FAST>(un, a.dst, a, z + 1, y, x);
            if (a.scale) ssam__q3_load<FAST>(sn, a.scale, a, z + 1, y, x);
            if (a.damp) ssam__q3_load<FAST>(dn, a.damp, a, z + 1, y, x);
        }
        onchip_cp_async_wait<PD>();
        __syncthreads();
        const T *c0 = ring + sc * Q::SL + (Q::YL + ty) * Q::TW + Q::HL + tx * V;
#pragma unroll
        for (int k = 0; k + 1 < Q::NQ; k++)
#pragma unroll
            for (int e = 0; e < V; e++) q[k][e] = q[k + 1][e];
        {
            int sr = sc + Q::ZH;
            sr -= sr >= Q::NS ? Q::NS : 0;
            ssam__q3_lds(q[Q::NQ - 1], c0 + (sr - sc) * Q::SL);
        }
        T w[NW], sum[V], o[V];
#pragma unroll
        for (int j = 0; j < NW / V; j++) ssam__q3_lds(w + j * V, c0 - Q::HL + j * V);
#pragma unroll
        for (int e = 0; e < V; e++) sum[e] = T(0);
        {
            const ssam__q3_sum<T, S, BY, PD> f = {sum, q, w, c0, c};
            onchip_shape_each(S(), f);
        }
#pragma unroll
        for (int e = 0; e < V; e++) {
            const T u = q[Q::ZL][e], sc_ = a.scale ? sv[e] : T(1);
            const bool kept = keep && (xkept[e] || ykept || z < Q::ZL || z >= a.nz - Q::ZH);
            if (kept) o[e] = u;
            else if (upd == ONCHIP_UPDATE_SUM) o[e] = sc_ * sum[e];
            else if (upd == ONCHIP_UPDATE_LEAPFROG) o[e] = T(2) * u - up[e] + sc_ * sum[e];
            else {
                const T d = a.damp ? dv[e] : T(0);
                o[e] = ssam__q3_div(T(2) * u - (T(1) - d) * up[e] + sc_ * sum[e], T(1) + d);
            }
        }
        if (x < a.nx && y < a.ny) ssam__q3_store<FAST>(a.dst, o, a, z, y, x);
#pragma unroll
        for (int e = 0; e < V; e++) up[e] = un[e], sv[e] = sn[e], dv[e] = dn[e];
        sc += 1;
        sc -= sc >= Q::NS ? Q::NS : 0;
    }
    onchip_cp_async_wait_all();
}

template <class T, class S, int BY, int PD, int UPD = -1>
static __device__ __forceinline__ void ssam_queue3d_step(const ssam_queue3d_args<T> &a, const T *c)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "ssam_queue3d_step: T must be float or double");
    static_assert(ssam__is_star<S>::value, "ssam_queue3d_step: S must be a star (every point on an axis)");
    static_assert(BY >= 1 && BY <= 32, "ssam_queue3d_step: BY must be 1 .. 32 (32 x BY threads)");
    static_assert(PD >= 1 && PD <= 4, "ssam_queue3d_step: PD must be 1 .. 4");
    static_assert(UPD >= -1 && UPD <= ONCHIP_UPDATE_DAMPED, "ssam_queue3d_step: UPD must be -1 (a.update at run time) or an ONCHIP_UPDATE_*");
    if (a.vec && a.nx % (16 / (int)sizeof(T)) == 0) ssam__q3_body<true, T, S, BY, PD, UPD>(a, c);
    else ssam__q3_body<false, T, S, BY, PD, UPD>(a, c);
}

#ifndef __CUDACC_RTC__
/* 1 when ssam_queue3d_args a may take 16-byte copies: its arrays 16-byte aligned, pitch and plane
 * multiples of V (ssam_vec_ok) */
template <class T>
static inline int ssam_queue3d_vec(const ssam_queue3d_args<T> *a)
{
    const int V = 16 / (int)sizeof(T);
    const T *p[4] = {a->src, a->dst, a->scale, a->damp};
    for (int i = 0; i < 4; i++)
        if (p[i] && !ssam_vec_ok(p[i], a->pitch, V)) return 0;
    return a->plane % V == 0;
}
/* SSAM_SUCCESS when the step of shape S can take a: src, dst set; nx, ny, nz, seg >= 1; pitch >= nx,
 * plane >= pitch ny; src and dst apart; an ONCHIP_UPDATE_*; a boundary policy it gives (keep-extent,
 * zero-outside, keep-radius where onchip_boundary_same says it keeps the same cells): else the code */
template <class T, class S, int UPD = -1>
static inline int ssam_queue3d_check(const ssam_queue3d_args<T> *a)
{
    const onchip_extent e = {S::xlo, S::xhi, S::ylo, S::yhi, S::zlo, S::zhi, S::rmax, 3};
    long long span;
    if (!a || !a->src || !a->dst) return SSAM_ENULL;
    if (a->nx < 1 || a->ny < 1 || a->nz < 1 || a->seg < 1) return SSAM_ESIZE;
    if (a->pitch < a->nx || a->plane < a->pitch * a->ny) return SSAM_EPITCH;
    span = onchip_span(a->ny, a->pitch, a->nx, 1); /* elements of a plane's rows, then bytes of all planes */
    span = span < 0 ? -1 : onchip_span(a->nz, a->plane, span, (long long)sizeof(T));
    if (span < 0) return SSAM_ESIZE;
    if (onchip_overlap(a->src, span, a->dst, span)) return SSAM_EOVERLAP;
    if (a->update < ONCHIP_UPDATE_SUM || a->update > ONCHIP_UPDATE_DAMPED || (UPD >= 0 && a->update != UPD)) return SSAM_EUPDATE;
    if (a->boundary != ONCHIP_ZERO_OUTSIDE && !onchip_boundary_same(a->boundary, ONCHIP_KEEP_EXTENT, &e)) return SSAM_EBORDER;
    return SSAM_SUCCESS;
}
/* planes a block for a's grid (BY rows a block) on a device of sms multiprocessors: all nz while the
 * x-y columns alone give every multiprocessor a block (one wave), else cut into at most two blocks a
 * multiprocessor, at least 16 planes */
template <class T>
static inline int ssam_queue3d_seg(const ssam_queue3d_args<T> *a, int by, int sms)
{
    const long long tx = 32 * (16 / (int)sizeof(T)), cols = ((a->nx + tx - 1) / tx) * (long long)((a->ny + by - 1) / by);
    const long long m = sms > 0 ? sms : 1, cuts = cols >= m ? 1 : 2 * m / cols;
    const long long seg = (a->nz + cuts - 1) / cuts;
    return a->nz < 16 ? a->nz : seg < 16 ? 16 : (int)seg;
}
template <class T>
static inline dim3 ssam_queue3d_grid(const ssam_queue3d_args<T> *a, int by)
{
    const int tx = 32 * (16 / (int)sizeof(T));
    return dim3((unsigned)((a->nx + tx - 1) / tx), (unsigned)((a->ny + by - 1) / by),
                (unsigned)((a->nz + a->seg - 1) / a->seg));
}
#endif

#endif /* SSAM_STENCIL_QUEUE3D_CUH */
#include <onchip/names_pop.h>
