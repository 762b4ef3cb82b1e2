#include <onchip/names_push.h>
/* ssam/stencil/slice3d.cuh -- the 3D slice kernel's body (SSAM_STENCIL3D_DEFINE with
 * SSAM_SCHEDULE_SLICE, or AUTO where its rule picks the slices).
 *
 * WHAT (SSAM, Chen et al. SC'19, section 4.9)
 *   ssam__stencil3s_body<T, S, P, B>(src, dst, g, cf): one time step of the 3D shape type S; the B/32
 *   warps of a block work on consecutive XY slices (planes) of one tile of P rows; each warp computes
 *   the in-plane partial sums of its plane for every plane offset dz systolically, and the Z partial
 *   sums travel between warps through shared memory (a ring of planes).  Ghost lanes where the shape
 *   allows them (ssam/stencil/row.cuh).
 * HOW
 *   A block of NW = B/32 warps owns one tile of STEP columns x P rows and sweeps the planes [Zs, Ze)
 *   of one segment, NW input planes at a time: warp w loads input plane Zs + ZLO + it + w (one plane
 *   of P + NY - 1 rows in registers, the next one prefetched) and computes, for every plane offset dz,
 *   the in-plane partial sum of the output plane zi - dz systolically (lane shifts), with that
 *   plane's own x extent (a star's planes dz != 0 are one FMA, no shuffle).  The partials of dz < ZHI
 *   go to a ring of NS = NW + NZ - 1 plane slots in shared memory (16-byte vectors, 512 bytes per warp
 *   row); after a barrier the warp sums, for the output plane zo = zi - ZHI, its own dz = ZHI partial
 *   (registers) and the NZ - 1 partials its predecessors left in the ring, and stores.  A second
 *   barrier guards the ring before the next planes are written.  Dirichlet cells read their own value
 *   back from src (the warp holds another plane).
 * PIECES
 *   ssam__stencil3s_row       the in-plane partial sum of plane offset dz for one output row
 *   ssam__stencil3s_partials  a warp's partial sums of its input plane (to the ring and last[])
 * COST
 *   Registers 2 V (P + NY - 1); shared memory SSAM__STENCIL3S_SMEM(T, NY, NZ, B/32, P) bytes: the
 *   ring of (NW + NZ - 1) (NZ - 1) P 512 bytes and the row table; two barriers per B/32 planes.
 */
#ifndef SSAM_STENCIL_SLICE3D_CUH
#define SSAM_STENCIL_SLICE3D_CUH

#include "host.cuh"
#include "row.cuh"

/* the ring's 16-byte vectors, and the kernel's shared memory in bytes (the ring and the row table) */
#define SSAM__STENCIL3S_NPART(NZ, NW, P) ((NZ) > 1 ? ((NW) + (NZ)-1) * ((NZ)-1) * (P)*32 : 0)
#define SSAM__STENCIL3S_SMEM(T, NY, NZ, NW, P)                                                          \
    ((size_t)SSAM__STENCIL3S_NPART(NZ, NW, P) * 16 + (size_t)((P) + (NY)-1) * sizeof(int))

/* the in-plane partial sum of plane offset dz for output row p, from the one-plane window win[V][R]
 * (and the ghost window gw with GH): the lane schedule restricted to that plane's points, with that
 * plane's own x extent (a star's off-centre planes cost one FMA and no shuffle) */
template <class S, int GH, class T, int V, int R, class G>
static __device__ __forceinline__ void ssam__stencil3s_row(T (&out)[V], const T (&win)[V][R], const G &gw, int p, int dz,
                                                           const T *coef)
{
    enum { XLO = S::xlo, XHI = S::xhi, YLO = S::ylo };
    ssam__stencil_lanes<V, XLO, XHI, GH>(
        out, ssam__shape_extent<'x', -1>(S(), dz), ssam__shape_extent<'x', 1>(S(), dz), (T)0,
        [&](T acc, int k, int d) { return ssam__stencil_pts<S, V, YLO, 0, R, 1>(acc, win, k, d, 0, p, dz, coef, ssam__st_fma()); },
        [&](T acc, int k, int d) {
            return ssam__stencil_pts<S, V, YLO, 0, R, 1>(acc, gw, k, d, d < 0 ? XLO : 0, p, dz, coef, ssam__st_fma());
        },
        ssam__st_add());
}

/* this warp's partial sums of its input plane for the P rows: plane offsets ZLO .. ZHI-1 into the
 * shared ring (slot), the last one (dz = ZHI) kept in registers (last[P][V]) */
template <class S, int GH, class T, int V, int R, int P, class G>
static __device__ __forceinline__ void ssam__stencil3s_partials(T (&out)[V], const T (&data)[V][R], const G &gdata,
                                                                const T *cf, ssam_vec<T, V> *slot, T (&last)[P][V])
{
    enum { ZLO = S::zlo, NZ = S::zhi - S::zlo + 1 };
#pragma unroll
    for (int p = 0; p < P; p++) {
#pragma unroll
        for (int j = 0; j < NZ; j++) {
            const int dz = ZLO + j;
            if (ssam__shape_has(S(), dz)) {
                ssam__stencil3s_row<S, GH>(out, data, gdata, p, dz, cf);
                if (j < NZ - 1) {
                    ssam_vec<T, V> q;
#pragma unroll
                    for (int k = 0; k < V; k++) q.v[k] = out[k];
                    slot[(j * P + p) * 32] = q;
                } else {
#pragma unroll
                    for (int k = 0; k < V; k++) last[p][k] = out[k];
                }
            } else if (j == NZ - 1) {
#pragma unroll
                for (int k = 0; k < V; k++) last[p][k] = (T)0;
            }
        }
    }
}

/* the body (see the usage block) */
template <class T, class S, int P, int B>
static __device__ __forceinline__ void ssam__stencil3s_body(const T *src, T *dst, const ssam_stencil_geom g, const T *cf)
{
    enum {
        XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, YHI = S::yhi, ZLO = S::zlo, ZHI = S::zhi, V = SSAM_STENCIL_V(T),
        NY = YHI - YLO + 1, NZ = ZHI - ZLO + 1, R = P + NY - 1, QL = SSAM_STENCIL_QL(V, XLO), QR = SSAM_STENCIL_QR(V, XHI),
        GH = ssam__stencil_gh<S, V, 1>(), STEP = ssam__stencil_wstep<S, V, 1>(), LOFF = GH ? 0 : QL, NW = B / 32,
        NS = NW + NZ - 1, SLOT = (NZ > 1 ? NZ - 1 : 1) * P * 32, FULL = (1 << V) - 1,
        GW = ssam__stencil_gw<S>() /* ghost columns */
    };
    typedef ssam_vec<T, V> vec_t;
    extern __shared__ int4 ssam__slsm[];
    vec_t *const part = (vec_t *)ssam__slsm;
    int *const rowt = (int *)(ssam__slsm + SSAM__STENCIL3S_NPART(NZ, NW, P));
    const int bmode = g.periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;
    const int X0 = blockIdx.x * STEP, Yb = blockIdx.y * P;
    if (X0 >= g.nx) return; /* the whole block */
    const int Zs = blockIdx.z * g.seg;
    const int Ze = min(Zs + g.seg, g.nz);
    for (int i = threadIdx.x; i < R; i += B) rowt[i] = ssam_border_index(Yb + YLO + i, g.ny, bmode);
    __syncthreads();
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int x = X0 + V * (lane - LOFF);
    const int store = GH || (lane >= QL && lane < 32 - QR);
    const int glane = GH && ((lane == 0 && QR > 0) || (lane == 31 && QL > 0));
    const int gx = lane == 0 ? X0 + 32 * V : X0 + XLO;
    const int nin = Ze - Zs + NZ - 1; /* input planes of the segment */
    int cx[V], in, colin = 0, gcx[GW];
    T data[V][R], nxt[V][R], gdata[GW][R], gnxt[GW][R], out[V], own[V], last[P][V];
    ssam_regcache_columns<V>(cx, in, x, g.nx, bmode, g.vld);
#pragma unroll
    for (int j = 0; j < GW; j++) gcx[j] = ssam_border_index(gx + j, g.nx, bmode);
#pragma unroll
    for (int k = 0; k < V; k++) colin |= (g.periodic || (x + k + XLO >= 0 && x + k + XHI < g.nx)) << k;
    if (wid < nin) {
        const T *const pln = src + (long long)ssam_border_index(Zs + ZLO + wid, g.nz, bmode) * g.plane;
        ssam_regcache_rows_as<R, T, T>(nxt, 0, pln, g.pitch, x, cx, in, rowt, (T)0);
        ssam__stencil_gload<R, T, T>(gnxt, 0, pln, g.pitch, gx, gcx, glane, rowt);
    }
#pragma unroll 1
    for (int it = 0; it < nin; it += NW) {
        const int rel = it + wid; /* this warp's input plane, Zs + ZLO + rel */
        { /* no branch around the shuffles: past the last plane the warp computes unused sums */
#pragma unroll
            for (int r = 0; r < R; r++)
#pragma unroll
                for (int j = 0; j < V; j++) data[j][r] = nxt[j][r];
#pragma unroll
            for (int r = 0; r < R; r++)
#pragma unroll
                for (int j = 0; j < GW; j++) gdata[j][r] = gnxt[j][r];
            if (rel + NW < nin) {
                const T *const pln = src + (long long)ssam_border_index(Zs + ZLO + rel + NW, g.nz, bmode) * g.plane;
                ssam_regcache_rows_as<R, T, T>(nxt, 0, pln, g.pitch, x, cx, in, rowt, (T)0);
                ssam__stencil_gload<R, T, T>(gnxt, 0, pln, g.pitch, gx, gcx, glane, rowt);
            }
            vec_t *const slot = part + (rel % NS) * SLOT + lane;
            ssam__stencil3s_partials<S, GH>(out, data, gdata, cf, slot, last);
        }
        if (NZ > 1) __syncthreads();
        if (rel < nin && rel >= NZ - 1) {
            /* the output plane zo = Zs + rel - (NZ - 1): last[] plus the predecessors' partials from
             * the ring, stored (Dirichlet cells keep their value, read back from src) */
            const int zo = Zs + rel - (NZ - 1);
            const int zin = g.periodic || (zo + ZLO >= 0 && zo + ZHI < g.nz);
#pragma unroll
            for (int p = 0; p < P; p++) {
                const int y = Yb + p;
                if (y < g.ny && store) {
                    const int rowin = zin && (g.periodic || (y + YLO >= 0 && y + YHI < g.ny));
                    T *const drow = dst + (long long)zo * g.plane + (long long)y * g.pitch;
#pragma unroll
                    for (int k = 0; k < V; k++) out[k] = last[p][k];
#pragma unroll
                    for (int j = 0; j < NZ - 1; j++) {
                        if (ssam__shape_has(S(), ZLO + j)) {
                            const vec_t q = part[((rel - (NZ - 1) + j) % NS) * SLOT + (j * P + p) * 32 + lane];
#pragma unroll
                            for (int k = 0; k < V; k++) out[k] += q.v[k];
                        }
                    }
#pragma unroll
                    for (int k = 0; k < V; k++) own[k] = out[k];
                    if (!rowin || colin != FULL) {
                        const T *const srow = src + (long long)zo * g.plane + (long long)y * g.pitch;
#pragma unroll
                        for (int k = 0; k < V; k++)
                            if (x + k < g.nx) own[k] = srow[x + k];
                    }
                    ssam__stencil_store<T>(drow, 0, 0, x, g.nx, out, own, colin, rowin, g.vst);
                }
            }
        }
        if (NZ > 1) __syncthreads();
    }
}

#endif /* SSAM_STENCIL_SLICE3D_CUH */
#include <onchip/names_pop.h>
