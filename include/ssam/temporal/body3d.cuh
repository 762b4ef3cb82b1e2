#include <onchip/names_push.h>
/* ssam/temporal/body3d.cuh -- the 3D temporal kernels' body: the shared rings (SSAM_SCHEDULE_SMEM), the
 * register ring (_RING) and the z-column (_ZCOL), with their block and level pieces. */
#ifndef SSAM_TEMPORAL_BODY3D_CUH
#define SSAM_TEMPORAL_BODY3D_CUH

#include "../regcache.cuh"
#include "../stencil/host.cuh"
#include "../stencil/row.cuh"
#include "body2d.cuh"
#include "lane3d.cuh"

/* The window of the warp's row p of a level: ssam_temporal3d_window from shared memory, then (reg)
 * the rows of the warp's own P rows from the register ring zr[dz][k][row] (the level's last NZ planes,
 * oldest first); which rows those are is known at compile time, so their shared loads are dead code */
template <int NY, int YLO, class T, int V, int W, int NZ, int P>
static __device__ __forceinline__ void ssam__tb3_window_r(T (&win)[V][W], const T (&zr)[NZ][V][P], int reg,
                                                          const ssam_vec<T, V> *base, const int *pl, int p)
{
    ssam_temporal3d_window<NY, NZ, YLO>(win, base, pl, p);
#pragma unroll
    for (int z = 0; z < NZ; z++)
#pragma unroll
        for (int y = 0; y < NY; y++) {
            const int r = p + YLO + y;
            if (reg && r >= 0 && r < P) {
#pragma unroll
                for (int k = 0; k < V; k++) win[k][z * NY + y] = zr[z][k][r];
            }
        }
}

/* move a register ring of NZ planes down one plane: slot NZ - 1 is then free for the newest */
template <class T, int NZ, int V, int P>
static __device__ __forceinline__ void ssam__tb3_shift(T (&zr)[NZ][V][P])
{
#pragma unroll
    for (int z = 0; z < NZ - 1; z++)
#pragma unroll
        for (int k = 0; k < V; k++)
#pragma unroll
            for (int p = 0; p < P; p++) zr[z][k][p] = zr[z + 1][k][p];
}

/* a warp's place in its block's tile (both 3D bodies; ssam__tb3_tile_make fills it, the ssam__lane
 * and the arrays cx, ry, rowin, rowst; each member's glossary name after it) */
template <class T, int V>
struct ssam__tb3_tile {
    ssam_vec<T, V> *warp_smem; /* wb: the lane's vector of the warp's first row in plane slot 0 */
    int seg_begin, seg_end;    /* Zs, Ze: the planes [Zs, Ze) of segment blockIdx.z, the ones stored */
    int z_first, z_end;        /* z0, z1: the steps z0 .. z1 - 1 */
    int y0;                    /* the warp's first row */
    int border_mode;           /* bmode: SSAM_BORDER_WRAP (periodic) or SSAM_BORDER_NEAREST */
    int warp_inside;           /* allin: every lane's col_inside_mask full (warp-uniform) */
};

/* the members the levels read, at once before any store, for names bound to them (why:
 * docs/ssam.md#tb-context-structs) */
template <class T, int V>
struct ssam__tb3_read {
    ssam_stencil_geom g;
    T *dst;
    const T *cf;
    int L, Zs, Ze, y0, allin;
    ssam_vec<T, V> *wb;
    int x, colin;
};
template <class T, int V>
static __device__ __forceinline__ ssam__tb3_read<T, V> ssam__tb3_reads(const ssam__tb_args<T> &a,
                                                                       const ssam__tb3_tile<T, V> &tile,
                                                                       const ssam__lane &lane)
{
    const ssam__tb3_read<T, V> r = {a.g, a.dst, a.coef, a.steps, tile.seg_begin, tile.seg_end, tile.y0, tile.warp_inside,
                                    tile.warp_smem, lane.x, lane.col_inside_mask};
    return r;
}

/* level t of plane zt = z - t (ZHI + 1) for the warp's P rows (plane zz in slot (zz - z0) mod NS, PS
 * vectors each) from level t - 1's rings; into level t's rings, or stored at t = TT, after every
 * row's window is loaded (shared rows load once) */
template <class S, int NS, int PS, int RING, int t, class T, int TT, int NZ, int V, int P>
static __device__ __forceinline__ void ssam__tb3_level(int ph, const int &zt_ref, T (&zr)[TT][NZ][V][P],
                                                       const ssam__tb_args<T> &a, const ssam__tb3_tile<T, V> &tile,
                                                       const ssam__lane &lane, const int (&rowin)[P], const int (&rowst)[P])
{
    enum { XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, ZLO = S::zlo, ZHI = S::zhi, NY = S::yhi - S::ylo + 1 };
    const int zt = zt_ref; /* zt (by const reference) first, then the members (ssam__tb3_reads) */
    const auto [g, dst, cf, L, Zs, Ze, y0, allin, wb, x, colin] = ssam__tb3_reads(a, tile, lane);
    int pl[NZ];
#pragma unroll
    for (int dz = 0; dz < NZ; dz++) pl[dz] = ((t - 1) * NS + ((ph - t * (ZHI + 1) + ZLO + dz) % NS + NS) % NS) * PS;
    const int zin = g.periodic || (zt + ZLO >= 0 && zt + ZHI < g.nz);
    const int po = (t * NS + ((ph - t * (ZHI + 1)) % NS + NS) % NS) * PS;
    if (RING && t < TT) ssam__tb3_shift(zr[t < TT ? t : 0]);
    T outs[P][V]; /* stored after every row's window is loaded: rows the windows share are loaded once */
#pragma unroll
    for (int p = 0; p < P; p++) {
        const int keep = t <= L && zin && rowin[p];
        T win[V][NZ * NY];
        ssam__tb3_window_r<NY, YLO>(win, zr[t - 1], RING && t >= 2, wb, pl, p);
        ssam_stencil3d_row<S, XLO, XHI, YLO, ZLO, NY>(outs[p], win, 0, cf);
        if (!(keep && allin)) {
#pragma unroll
            for (int k = 0; k < V; k++) outs[p][k] = (keep && ((colin >> k) & 1)) ? outs[p][k] : win[k][-ZLO * NY - YLO];
        }
        if (RING && t < TT) {
#pragma unroll
            for (int k = 0; k < V; k++) zr[t < TT ? t : 0][NZ - 1][k][p] = outs[p][k];
        }
    }
#pragma unroll
    for (int p = 0; p < P; p++) {
        if (t < TT) ssam_temporal3d_put(wb, po + p * 32, outs[p]);
        else if (rowst[p] && zt >= Zs && zt < Ze)
            ssam__stencil_store<T>(dst, (long long)zt * g.plane, (long long)(y0 + p) * g.pitch, x, g.nx, outs[p], outs[p],
                                   (1 << V) - 1, 1, g.vst);
    }
}

/* levels I .. TT of step z (RING: from TT down), each with its t a constant of its own instantiation */
template <class S, int NS, int PS, int RING, int I, class T, int TT, int NZ, int V, int P>
static __device__ __forceinline__ void ssam__tb3_levels(int ph, int z, T (&zr)[TT][NZ][V][P], const ssam__tb_args<T> &a,
                                                        const ssam__tb3_tile<T, V> &tile, const ssam__lane &lane,
                                                        const int (&rowin)[P], const int (&rowst)[P])
{
    if constexpr (I <= TT) {
        enum { t = RING ? TT + 1 - I : I };
        ssam__tb3_level<S, NS, PS, RING, t>(ph, z - t * (S::zhi + 1), zr, a, tile, lane, rowin, rowst);
        ssam__tb3_levels<S, NS, PS, RING, I + 1>(ph, z, zr, a, tile, lane, rowin, rowst);
    }
}

/* the prefetched input plane z into level 0's shared ring (slot ph; level 1 reads level 0 from
 * shared memory only), then the next plane prefetched */
template <int PS, class T, int V, int P>
static __device__ __forceinline__ void ssam__tb3_intake(int ph, int z, T (&pf)[V][P], const ssam__tb_args<T> &a,
                                                        const ssam__tb3_tile<T, V> &tile, const ssam__lane &lane,
                                                        const int (&ry)[P], const int (&cx)[V])
{
    const ssam_stencil_geom g = a.g; /* the members read, as locals (as in ssam__tb3_level) */
    const T *const src = a.src;
    ssam_vec<T, V> *const wb = tile.warp_smem;
    const int z1 = tile.z_end, bmode = tile.border_mode, x = lane.x_load, in = lane.vec_ok;
#pragma unroll
    for (int p = 0; p < P; p++) {
        T row[V];
#pragma unroll
        for (int k = 0; k < V; k++) row[k] = pf[k][p];
        ssam_temporal3d_put(wb, ph * PS + p * 32, row);
    }
    if (z + 1 < z1)
        ssam_regcache_rows_as<P, T, T>(pf, 0, src + (long long)ssam_border_index(z + 1, g.nz, bmode) * g.plane, g.pitch, x,
                                       cx, in, ry, (T)0);
}

/* one step z: the input plane into level 0, levels 1 .. TT (independent within a step), one barrier;
 * the order of intake and levels: docs/ssam.md#temporal3d-design */
template <class S, int NS, int PS, int RING, class T, int TT, int NZ, int V, int P>
static __device__ __forceinline__ void ssam__tb3_plane(int ph, int z, T (&pf)[V][P], T (&zr)[TT][NZ][V][P],
                                                       const ssam__tb_args<T> &a, const ssam__tb3_tile<T, V> &tile,
                                                       const ssam__lane &lane, const int (&cx)[V], const int (&ry)[P],
                                                       const int (&rowin)[P], const int (&rowst)[P])
{
    if (!RING) ssam__tb3_intake<PS>(ph, z, pf, a, tile, lane, ry, cx);
    ssam__tb3_levels<S, NS, PS, RING, 1>(ph, z, zr, a, tile, lane, rowin, rowst);
    if (RING) ssam__tb3_intake<PS>(ph, z, pf, a, tile, lane, ry, cx);
    __syncthreads();
}

/* a block's tile and a lane's place in it (both 3D bodies), sh the block's shared memory */
template <class T, class S, int TT, int P, int B, int LAG, int V>
static __device__ __forceinline__ void ssam__tb3_tile_make(ssam__tb3_tile<T, V> &tile, ssam__lane &lane, int (&cx)[V],
                                                           int (&ry)[P], int (&rowin)[P], int (&rowst)[P],
                                                           const ssam_stencil_geom &g, ssam_vec<T, V> *sh)
{
    enum {
        XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, YHI = S::yhi, ZLO = S::zlo, RT = B / 32 * P,
        HL = SSAM_TEMPORAL_HL(V, XLO, TT), HR = SSAM_TEMPORAL_HR(V, XHI, TT), STEPX = 32 * V - HL - HR, YH0 = TT * -YLO,
        STEPY = RT - TT * (YHI - YLO)
    };
    const int lane_id = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int bmode = g.periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;
    tile.border_mode = bmode;
    tile.warp_smem = sh + (wid * P - YLO) * 32 + lane_id;
    const int x = blockIdx.x * STEPX - HL + V * lane_id;
    lane.x = x;
    const int store = lane_id >= HL / V && lane_id < 32 - HR / V && x < g.nx;
    lane.store = store;
    const int y0 = blockIdx.y * STEPY - YH0 + wid * P;
    tile.y0 = y0;
    const int Zs = blockIdx.z * g.seg, Ze = min(Zs + g.seg, g.nz);
    tile.seg_begin = Zs, tile.seg_end = Ze;
    tile.z_first = Zs + TT * ZLO, tile.z_end = Ze + TT * LAG;
    int colin = 0;
    ssam_regcache_columns<V>(cx, lane.vec_ok, x, g.nx, bmode, g.vld);
    lane.x_load = ssam__tb_xload(x, g.nx, V, g.periodic, g.vld, &lane.vec_ok); /* loads: whole vectors */
#pragma unroll
    for (int k = 0; k < V; k++) colin |= (g.periodic || (x + k + XLO >= 0 && x + k + XHI < g.nx)) << k;
    lane.col_inside_mask = colin;
    tile.warp_inside = __all_sync(0xffffffffu, colin == (1 << V) - 1);
#pragma unroll
    for (int p = 0; p < P; p++) {
        const int y = y0 + p, r = wid * P + p;
        ry[p] = ssam_border_index(y, g.ny, bmode);
        rowin[p] = g.periodic || (y + YLO >= 0 && y + YHI < g.ny);
        rowst[p] = store && r >= YH0 && r < YH0 + STEPY && y < g.ny;
    }
}

/* the start of both bodies: the shared memory's NSH int4 zeroed (finite before the first planes),
 * the rows of plane z0 into pf, a barrier */
template <int B, int NSH, class T, int V, int P>
static __device__ __forceinline__ void ssam__tb3_start(int4 *sh, T (&pf)[V][P], const ssam__tb_args<T> &a,
                                                       const ssam__tb3_tile<T, V> &tile, const ssam__lane &lane,
                                                       const int (&ry)[P], const int (&cx)[V])
{
    const ssam_stencil_geom g = a.g; /* the members read, as locals (as in ssam__tb3_level) */
    const T *const src = a.src;
    const int z0 = tile.z_first, bmode = tile.border_mode, xl = lane.x_load, in = lane.vec_ok;
    for (int i = threadIdx.x; i < NSH; i += B) sh[i] = make_int4(0, 0, 0, 0);
    ssam_regcache_rows_as<P, T, T>(pf, 0, src + (long long)ssam_border_index(z0, g.nz, bmode) * g.plane, g.pitch, xl, cx, in,
                                   ry, (T)0);
    __syncthreads();
}

/* the steps z of [tile.z_first, tile.z_end) of both bodies, the loop unrolled by N (slot ph = (z - z0)
 * mod N: every shared-memory offset a constant): f(ph, z) */
template <int N, class T, int V, class F>
static __device__ __forceinline__ void ssam__tb3_steps(const ssam__tb3_tile<T, V> &tile, F &&f)
{
    const int z0 = tile.z_first, z1 = tile.z_end;
#pragma unroll 1
    for (int zb = z0; zb < z1; zb += N) {
#pragma unroll
        for (int ph = 0; ph < N; ph++) {
            const int z = zb + ph;
            if (z >= z1) break; /* block-uniform */
            f(ph, z);
        }
    }
}

/* ---- the z-column variant (z-stars, ZLO < 0 < ZHI): docs/ssam.md#temporal-blocking-3d-temporal3dcuh */
template <class... P>
static __host__ __device__ constexpr int ssam__tb3z_fits(onchip_shape<P...>)
{
    return (0 + ... + (P::dz != 0 && P::dy != 0)) == 0 && onchip_shape<P...>::zlo < 0 && onchip_shape<P...>::zhi > 0;
}

/* cells that keep their values (outside row_inside / col_inside_mask, or lv 0: an idle level) take
 * them back from the centre plane c; one warp-uniform test for all P rows */
template <class T, int V, int P>
static __device__ __forceinline__ void ssam__tb3z_keep(T (&nw)[V][P], const ssam_vec<T, V> *c, int lv,
                                                       const int (&row_inside)[P], int col_inside_mask, int warp_inside)
{
    int rows = warp_inside && lv;
#pragma unroll
    for (int p = 0; p < P; p++) rows = rows && row_inside[p];
    if (__builtin_expect(rows, 1)) return;
#pragma unroll
    for (int p = 0; p < P; p++) {
        const ssam_vec<T, V> q = c[p * 32];
        const int keep = lv && row_inside[p];
#pragma unroll
        for (int k = 0; k < V; k++) nw[k][p] = (keep && ((col_inside_mask >> k) & 1)) ? nw[k][p] : q.v[k];
    }
}

/* level t of plane zt = z - t ZHI: the window from level t - 1 (nw in registers, the rest from shared
 * memory), nw into the slot of its oldest plane; level t's row replaces nw, or is stored at t = TT */
template <class S, int NSZ, int PS, int t, class T, int TT, int V, int P>
static __device__ __forceinline__ void ssam__tb3z_level(int ph, const int &zt_ref, T (&nw)[V][P],
                                                        const ssam__tb_args<T> &a, const ssam__tb3_tile<T, V> &tile,
                                                        const ssam__lane &lane, const int (&rowin)[P], const int (&rowst)[P])
{
    enum { XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, ZLO = S::zlo, ZHI = S::zhi, NY = S::yhi - S::ylo + 1, NZ = ZHI - ZLO + 1 };
    const int zt = zt_ref; /* zt and the members read, as locals (as in ssam__tb3_level) */
    const auto [g, dst, cf, L, Zs, Ze, y0, allin, wb, x, colin] = ssam__tb3_reads(a, tile, lane);
    int pl[NZ]; /* level t - 1's plane zt + ZLO + dz in slot (zt + ZLO + dz - z0) mod NSZ */
#pragma unroll
    for (int dz = 0; dz < NZ; dz++) pl[dz] = ((t - 1) * NSZ + ((ph - t * ZHI + ZLO + dz) % NSZ + NSZ) % NSZ) * PS;
    const int zin = g.periodic || (zt + ZLO >= 0 && zt + ZHI < g.nz);
    ssam_vec<T, V> c[P + NY - 1]; /* the centre plane's rows YLO .. P - 1 + YHI of the warp's, each once */
#pragma unroll
    for (int i = 0; i < P + NY - 1; i++) c[i] = wb[pl[-ZLO] + (i + YLO) * 32];
#pragma unroll
    for (int p = 0; p < P; p++) {
        T win[V][NZ * NY], out[V], row[V];
#pragma unroll
        for (int z = 0; z < NZ; z++)
#pragma unroll
            for (int y = 0; y < NY; y++) {
                if (z == -ZLO) {
#pragma unroll
                    for (int k = 0; k < V; k++) win[k][z * NY + y] = c[p + y].v[k];
                } else if (y != -YLO || z == NZ - 1) { /* the newest plane, or a row no point reads */
#pragma unroll
                    for (int k = 0; k < V; k++) win[k][z * NY + y] = (z == NZ - 1 && y == -YLO) ? nw[k][p] : (T)0;
                } else { /* the row's own cells of an older plane */
                    const ssam_vec<T, V> q = wb[pl[z] + p * 32];
#pragma unroll
                    for (int k = 0; k < V; k++) win[k][z * NY + y] = q.v[k];
                }
            }
#pragma unroll
        for (int k = 0; k < V; k++) row[k] = nw[k][p];
        ssam_temporal3d_put(wb, pl[0] + p * 32, row); /* level t - 1's newest into its oldest's slot, read above */
        ssam_stencil3d_row<S, XLO, XHI, YLO, ZLO, NY>(out, win, 0, cf);
#pragma unroll
        for (int k = 0; k < V; k++) nw[k][p] = out[k]; /* row p of nw is read by row p alone */
    }
    ssam__tb3z_keep(nw, wb + pl[-ZLO], t <= L && zin, rowin, colin, allin);
    if (t == TT) {
#pragma unroll
        for (int p = 0; p < P; p++) {
            T out[V];
#pragma unroll
            for (int k = 0; k < V; k++) out[k] = nw[k][p];
            if (rowst[p] && zt >= Zs && zt < Ze)
                ssam__stencil_store<T>(dst, (long long)zt * g.plane, (long long)(y0 + p) * g.pitch, x, g.nx, out, out,
                                       (1 << V) - 1, 1, g.vst);
        }
    }
}
template <class S, int NSZ, int PS, int t, class T, int TT, int V, int P>
static __device__ __forceinline__ void ssam__tb3z_levels(int ph, int z, T (&nw)[V][P], const ssam__tb_args<T> &a,
                                                         const ssam__tb3_tile<T, V> &tile, const ssam__lane &lane,
                                                         const int (&rowin)[P], const int (&rowst)[P])
{
    if constexpr (t <= TT) {
        ssam__tb3z_level<S, NSZ, PS, t, T, TT>(ph, z - t * S::zhi, nw, a, tile, lane, rowin, rowst);
        ssam__tb3z_levels<S, NSZ, PS, t + 1, T, TT>(ph, z, nw, a, tile, lane, rowin, rowst);
    }
}

/* the prefetched input plane z into nw (level 0 of the z-column), then the next plane prefetched */
template <class T, int V, int P>
static __device__ __forceinline__ void ssam__tb3z_intake(int z, T (&pf)[V][P], T (&nw)[V][P], const ssam__tb_args<T> &a,
                                                         const ssam__tb3_tile<T, V> &tile, const ssam__lane &lane,
                                                         const int (&ry)[P], const int (&cx)[V])
{
    const ssam_stencil_geom g = a.g; /* the members read, as locals (as in ssam__tb3_level) */
    const T *const src = a.src;
    const int z1 = tile.z_end, bmode = tile.border_mode, x = lane.x_load, in = lane.vec_ok;
#pragma unroll
    for (int k = 0; k < V; k++)
#pragma unroll
        for (int p = 0; p < P; p++) nw[k][p] = pf[k][p];
    if (z + 1 < z1)
        ssam_regcache_rows_as<P, T, T>(pf, 0, src + (long long)ssam_border_index(z + 1, g.nz, bmode) * g.plane, g.pitch, x,
                                       cx, in, ry, (T)0);
}

/* The kernel body, MODE 0 shared rings, 1 with the register ring, 2 the z-column (ssam__tb3z_fits):
 * block (bx, by, bz) owns columns [X0, X0 + STEPX), tile rows Yb .. Yb + RT - 1 and the planes [Zs, Ze)
 * of segment bz; steps z0 = Zs + TT ZLO .. z1 - 1 = Ze - 1 + TT LAG (LAG = ZHI + 1; the z-column's
 * ZHI), the loop unrolled by NS (NZ + 1; the z-column's NZ - 1) so that every shared-memory offset is
 * a constant.  L: the steps of this pass. */
template <class T, class S, int TT, int P, int B, int MODE>
static __device__ __forceinline__ void ssam__tb3_body(const T *src, T *dst, const ssam_stencil_geom g, int L, const T *cf)
{
    enum {
        ZHI = S::zhi, V = SSAM_STENCIL_V(T), NZ = ZHI - S::zlo + 1, RING = MODE == 1, ZCOL = MODE == 2,
        NS = ZCOL ? NZ - 1 : NZ + 1, PS = SSAM_TEMPORAL3D_ROWS(B / 32 * P, S::ylo, S::yhi) * 32
    };
    typedef ssam_vec<T, V> vec_t;
    extern __shared__ int4 ssam__tb3[];
    const ssam__tb_args<T> a = {src, dst, g, L, cf};
    ssam__tb3_tile<T, V> tile;
    ssam__lane lane;
    int cx[V], ry[P], rowin[P], rowst[P]; /* arrays apart from the structs: docs/ssam.md#tb-context-structs */
    T pf[V][P], zr[TT][NZ][V][P], nw[V][P]; /* zr: the register rings (MODE 1); nw: the z-column's rows */
    ssam__tb3_tile_make<T, S, TT, P, B, ZCOL ? ZHI : ZHI + 1>(tile, lane, cx, ry, rowin, rowst, g, (vec_t *)ssam__tb3);
    if (RING) { /* rings of levels 1 .. TT-1 (zr[0] stays unused: level 1 reads shared memory) */
#pragma unroll
        for (int t = 0; t < TT; t++)
#pragma unroll
            for (int z = 0; z < NZ; z++)
#pragma unroll
                for (int k = 0; k < V; k++)
#pragma unroll
                    for (int p = 0; p < P; p++) zr[t][z][k][p] = (T)0;
    }
    ssam__tb3_start<B, TT * NS * PS>(ssam__tb3, pf, a, tile, lane, ry, cx);
    if constexpr (ZCOL)
        ssam__tb3_steps<NS>(tile, [&](int ph, int z) {
            ssam__tb3z_intake(z, pf, nw, a, tile, lane, ry, cx);
            ssam__tb3z_levels<S, NS, PS, 1, T, TT>(ph, z, nw, a, tile, lane, rowin, rowst);
            __syncthreads();
        });
    else
        ssam__tb3_steps<NS>(tile, [&](int ph, int z) {
            ssam__tb3_plane<S, NS, PS, RING>(ph, z, pf, zr, a, tile, lane, cx, ry, rowin, rowst);
        });
}

/* the body of a generated kernel: MODE 0 shared rings, 1 with the register ring, 2 the z-column */
template <class T, class S, int TT, int P, int B, int MODE>
static __device__ __forceinline__ void ssam__tb3_any_body(const T *src, T *dst, const ssam_stencil_geom g, int L,
                                                          const T *cf)
{
    if constexpr (MODE != 2 || ssam__tb3z_fits(S())) ssam__tb3_body<T, S, TT, P, B, MODE>(src, dst, g, L, cf);
}

#endif /* SSAM_TEMPORAL_BODY3D_CUH */
#include <onchip/names_pop.h>
