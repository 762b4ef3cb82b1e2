#include <onchip/names_push.h>
/* ssam/temporal3d.cuh -- temporal blocking in 3D: TT time steps of a 3D stencil per pass through
 * memory, the time levels in shared-memory planes.
 *
 * WHAT (the PERKS paper's section 7 "next step"; AN5D's 2.5D streaming (CGO'20) with SSAM's register
 * step, SC'19 section 4, Listing 2; docs/ssam.md#temporal-blocking-3d-temporal3dcuh)
 *   SSAM_STENCIL3D_TEMPORAL_DEFINE(name, T, SHAPE, ssam_temporal_policy<TT, B, SCHEDULE, P>) defines
 *       __global__ name_kernel                                                up to TT steps, one pass
 *       int name_plan(const ssam_stencil_args *a, ssam_plan *p), name_run(a, p, stream),
 *       name_launch(a, stream): ssam/temporal.cuh's three verbs (a->steps steps; SSAM_PATH_TEMPORAL,
 *       TT steps a pass, the last one shorter, or AUTO's SSAM_PATH_ONEPASS; p->result by the parity)
 *       int name_ncoef(void); enum name_NPTS, name_TT, name_STEPX, name_STEPY (columns and rows a
 *       block stores), name_SMEM (its shared bytes); name_coef
 *   for a 3D shape, TT steps a pass, P rows a warp, B threads; arguments, boundaries and codes are
 *   ssam/stencil.cuh's.  The policy as ssam/temporal.cuh's (TT, P, B 0: the rules, tbplan.h); SCHEDULE:
 *     SSAM_SCHEDULE_SMEM  the time levels in shared-memory rings
 *     SSAM_SCHEDULE_RING  levels 1 .. TT-1 also keep the warp's own rows in registers
 *     SSAM_SCHEDULE_ZCOL  the z-column kernel for z-stars (3d7pt, 3d13pt), NZ - 1 planes a level
 *     SSAM_SCHEDULE_AUTO  name_plan's choice (name_tb_kernel or name_onepass_kernel, as 2D's)
 *
 * HOW  A block of W = B/32 warps owns a tile of RT = W P rows x 32 V columns and sweeps z one plane a
 *   step, each level t a ring of NZ + 1 planes in shared memory (the z-column kernel: NZ - 1); level t
 *   computes plane z - t (ZHI + 1) from ring t - 1, one barrier a step.  Halo recompute in x and y.
 *   N steps equal N launches of SSAM_STENCIL3D_DEFINE's streaming kernel bit for bit (periodic widths
 *   not a multiple of V: within the 2D bound).  Design and measurements: docs/ssam.md#temporal3d-design.
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#temporal-glossary.
 *
 * PIECES FOR KERNELS OF ONE'S OWN (functions; the macro spellings are one-line wrappers)
 *   ssam_temporal3d_window<NY, NZ, YLO>(win, base, pl, r): win[V][NZ NY] (ssam_stencil3d_row's layout,
 *       R = NY, p = 0) from planes of 16-byte vectors in shared memory ([row][lane]): plane dz at
 *       base + pl[dz], rows r + YLO .. r + YHI (the caller pads the plane so they exist)
 *   ssam_temporal3d_put(ring, i, vals): a lane's V values as one 16-byte shared store at ring[i]
 *
 * EXAMPLE
 *   [compile: cudaStream_t stream]
 *     #include <ssam/temporal3d.cuh>
 *     SSAM_STENCIL3D_TEMPORAL_DEFINE(heat3, float, ONCHIP_SHAPE_3D7PT,
 *                                    ssam_temporal_policy<2, 704, SSAM_SCHEDULE_SMEM, 2>)
 *
 *     ssam_stencil_args a = {};   // ... as for SSAM_STENCIL3D_DEFINE ...
 *     a.steps = 1000;
 *     int rc = heat3_launch(&a, stream);               // 500 passes of 2 steps: the state in a.src
 *   or ssam_temporal_policy<> (AUTO: the z-column kernel, TT 4, or one pass); examples/heat3d.cu runs both.
 *
 * PARAMETERS AND LIMITS (compile-time sentences; tests/compile-fail/ssam_temporal3d_*.cu)
 *   T float or double; TT >= 1; P >= 1; B a multiple of 32 up to 1024, name_STEPY >= 1, name_STEPX >= V;
 *   name_SMEM = TT (NZ + 1)(RT + NY - 1) 512 bytes <= 227 KB (ZCOL: TT (NZ - 1)(RT + NY - 1) 512); the
 *   window V NZ NY sizeof(T)/4 <= 128 registers (a 125-point box: AUTO, one pass per step); ZCOL z-stars
 *   only; the shape's limits as stencil.cuh's.  Any nx, ny, nz >= 1, ceil(ny / STEPY) <= 65535.  src
 *   and dst must not overlap; name_run overwrites both.  Codes: stencil.cuh's; a->path another path:
 *   SSAM_EFLAGS; a device without name_SMEM bytes a block: SSAM_ECUDA.
 *
 * NVRTC (docs/python.md)  Kernels only: name_kernel(src, dst, g, int L, cf) with name_SMEM dynamic
 *   bytes (over 48 KB: raise the kernel's limit); AUTO's: name_onepass_kernel, name_tb_kernel.
 */
#ifndef SSAM_TEMPORAL3D_CUH
#define SSAM_TEMPORAL3D_CUH

#include "temporal.cuh"

/* the rows of a tile plane in shared memory: RT rows and the -YLO above and YHI below them that the
 * windows of the end rows read (never written: zero, halo garbage only) */
#define SSAM_TEMPORAL3D_ROWS(RT, YLO, YHI) ((RT) + (YHI) - (YLO))
/* the shared memory of TT levels of NZ + 1 planes of such rows x 32 lanes x 16 bytes */
#define SSAM_TEMPORAL3D_SMEM(TT, NZ, RT, YLO, YHI) ((size_t)(TT) * ((NZ) + 1) * SSAM_TEMPORAL3D_ROWS(RT, YLO, YHI) * 512)

/* ---- lane pieces ----------------------------------------------------------------------------- */
/* a lane's V values as one 16-byte vector at ring[i] */
template <class T, int V>
static __device__ __forceinline__ void ssam_temporal3d_put(ssam_vec<T, V> *ring, int i, const T (&vals)[V])
{
    ssam_vec<T, V> q;
#pragma unroll
    for (int k = 0; k < V; k++) q.v[k] = vals[k];
    ring[i] = q;
}
#define SSAM_TEMPORAL3D_PUT(T, V, ring, i, vals) ssam_temporal3d_put((ssam_vec<T, V> *)(ring), i, vals)

/* win[k][dz NY + dy] = the lane's column k of row r + YLO + dy of plane dz, from 16-byte vectors:
 * plane dz's row r at base[pl[dz] + r 32] (pl: vector offsets of the planes, constants after
 * unrolling, so every load is base + a constant); loads the shape does not read are dead code */
template <int NY, int NZ, int YLO, class T, int V, int W>
static __device__ __forceinline__ void ssam_temporal3d_window(T (&win)[V][W], const ssam_vec<T, V> *base, const int *pl,
                                                              int r)
{
#pragma unroll
    for (int z = 0; z < NZ; z++)
#pragma unroll
        for (int y = 0; y < NY; y++) {
            const ssam_vec<T, V> q = base[pl[z] + (r + YLO + y) * 32];
#pragma unroll
            for (int k = 0; k < V; k++) win[k][z * NY + y] = q.v[k];
        }
}
#define SSAM_TEMPORAL3D_WINDOW(T, V, NY, NZ, win, base, pl, r, YLO)                                     \
    ssam_temporal3d_window<NY, NZ, YLO>(win, (const ssam_vec<T, V> *)(base), pl, r)

/* ---- the kernel's pieces ----------------------------------------------------------------------- */
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

/* a 3D policy resolved for T and the shape S: the schedule (AUTO: ZCOL where SSAM_TB3_ZCOL_RULE says,
 * else RING where SSAM_TB3_RING_RULE says, else SMEM), and TT, P, B (0: the schedule's rules) */
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_schedule(void)
{
    return POL::schedule != SSAM_SCHEDULE_AUTO ? (int)POL::schedule
           : SSAM_TB3_ZCOL_RULE(S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::zhi - S::zlo + 1, S::npts,
                                ssam__tb3z_fits(S()))
               ? SSAM_SCHEDULE_ZCOL
           : SSAM_TB3_RING_RULE(S::npts) ? SSAM_SCHEDULE_RING
                                         : SSAM_SCHEDULE_SMEM;
}
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_tt(void)
{
    return POL::tt != 0 ? (int)POL::tt
           : ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_ZCOL
               ? SSAM_TB3_ZCOL_TT_RULE(S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::zhi - S::zlo + 1)
               : SSAM_TB3_TT_RULE(sizeof(T), S::xhi - S::xlo + 1, S::yhi - S::ylo + 1, S::zhi - S::zlo + 1, S::npts);
}
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_p(void)
{
    return POL::p != 0 ? (int)POL::p
           : ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_ZCOL ? SSAM_TB3_ZCOL_P_RULE : SSAM_TB3_P_RULE;
}
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_b(void)
{
    return POL::b != 0 ? (int)POL::b
           : ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_ZCOL ? SSAM_TB3_ZCOL_B_RULE : SSAM_TB3_B_RULE(S::npts);
}
/* the bodies' MODE: 0 shared rings (SMEM), 1 with the register ring (RING), 2 the z-column (ZCOL) */
template <class POL, class T, class S>
static __host__ __device__ constexpr int ssam__tb3_mode(void)
{
    return ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_ZCOL   ? 2
           : ssam__tb3_schedule<POL, T, S>() == SSAM_SCHEDULE_RING ? 1
                                                                   : 0;
}

/* ---- host side and the generators --------------------------------------------------------------- */
#ifndef __CUDACC_RTC__ /* host code: not under NVRTC, where the generators emit their kernels only */
/* the launchers' view of a 3D temporal kernel: tiles of STEPX x STEPY, planes in segments (each
 * streaming TT NZ extra planes; TT (NZ - 1) with the z-column kernel, MODE 2), smem bytes of shared memory */
template <class T, class S, int TT, int P, int B, int MODE>
static inline ssam__stencil_kern ssam__tb3_kern(const void *fn, int stepy, size_t smem)
{
    enum { V = SSAM_STENCIL_V(T), NZ = S::zhi - S::zlo + 1 };
    ssam__stencil_kern k = ssam__stencil_kern_of<S>(fn, 3, V, SSAM_TEMPORAL_STEP(V, S::xlo, S::xhi, TT), B, P);
    k.wy = stepy;
    k.nzw = TT * (MODE == 2 ? NZ - 1 : NZ) + 1;
    k.es = k.cs = sizeof(T);
    k.occ_smem = k.smem0 = smem;
    return k;
}
/* a kernel part's internal host side: name__kern (its launch's view) and name__pass(a, L, stream),
 * one pass of 1 <= L <= TT steps (ON 0: SSAM_ESIZE) */
#define SSAM__TB3_HOST(name, T, TT, P, B, ON, MODE)                                                     \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        return ssam__tb3_kern<T, name##_shape, TT, P, B, MODE>((const void *)name##_kernel, name##_STEPY, name##_SMEM); \
    }                                                                                                   \
    SSAM__TB_PASS(name, TT, ON)
/* AUTO's one-pass part: name__kern and name__pass(a, 1, stream), one step (on 0: SSAM_ESIZE) */
#define SSAM__TB3_ONEPASS_HOST(name, T, P, GHM, ON)                                                     \
    static inline __attribute__((unused)) ssam__stencil_kern name##__kern(void)                         \
    {                                                                                                   \
        return ssam__stencil3d_kern<T, name##_shape, P, 128, name##_SLICE, GHM>((const void *)name##_kernel); \
    }                                                                                                   \
    SSAM__TB_ONEPASS_PASS(name, ON)
/* the 3D generator's own names: the fixed schedule's kernel part, the three verbs */
#define SSAM__TB3_NAME_HOST(name, T, TT, P, B, MODE)                                                    \
    SSAM__TB3_HOST(name, T, TT, P, B, !SSAM__TB_AUTO(name), MODE)                                       \
    SSAM__TB_NAME_HOST(name, ssam_tb3_plan_make(&t, name##_tb_TT, a->steps, a->nx, a->ny, a->nz, name##_tb_STEPX))
#else
#define SSAM__TB3_HOST(name, T, TT, P, B, ON, MODE)
#define SSAM__TB3_ONEPASS_HOST(name, T, P, GHM, ON)
#define SSAM__TB3_NAME_HOST(name, T, TT, P, B, MODE)
#endif /* !__CUDACC_RTC__ */

/* SSAM_STENCIL3D_TEMPORAL_DEFINE(name, T, SHAPE, ssam_temporal_policy<TT, B, SCHEDULE, P>): the
 * union of the schedules' names, the kernels of the others empty (why: docs/ssam.md#temporal-policy) */
#define SSAM_STENCIL3D_TEMPORAL_DEFINE(name, T, SHAPE, ...)                                             \
    typedef __VA_ARGS__ name##_policy;                                                                  \
    SSAM__TB3_DEFINE(name, "SSAM_STENCIL3D_TEMPORAL_DEFINE(" #name ")", T, typename ssam__stencil_real<T>::type, SHAPE, \
                     (ssam__tb3_tt<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()), \
                     (ssam__tb3_p<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()), \
                     (ssam__tb3_b<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()), \
                     (ssam__tb3_mode<name##_policy, typename ssam__stencil_real<T>::type, name##_shape>()))
/* WHO the sentences' subject, RT the real type of T, TT, P, B and MODE resolved */
#define SSAM__TB3_DEFINE(name, WHO, T, RT, SHAPE, TT, P, B, MODE)                                       \
    static_assert(ssam__is_temporal_policy<name##_policy>::value,                                       \
                  WHO ": the last argument must be an ssam_temporal_policy<TT, B, SCHEDULE, P, MINB>"); \
    static_assert(SSAM__TB_AUTO(name) || name##_policy::schedule == SSAM_SCHEDULE_SMEM ||               \
                      name##_policy::schedule == SSAM_SCHEDULE_RING || name##_policy::schedule == SSAM_SCHEDULE_ZCOL, \
                  WHO ": SCHEDULE must be SSAM_SCHEDULE_AUTO, SSAM_SCHEDULE_SMEM, SSAM_SCHEDULE_RING or SSAM_SCHEDULE_ZCOL"); \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 3)                                                        \
    enum { name##_ZLO = name##_shape::zlo, name##_ZHI = name##_shape::zhi };                            \
    SSAM__TB_CHECKS(WHO, TT, B)                                                                         \
    static_assert((P) >= 1, WHO ": P (output rows per lane) must be at least 1, or 0 for the rule's");  \
    SSAM__TB3_ONEPASS(name##_onepass, WHO, RT, SHAPE, SSAM__TB_AUTO(name))                              \
    SSAM__STENCIL_COMMON(name##_tb, WHO, RT, SHAPE, 3)                                                  \
    enum { name##_tb_ZLO = name##_tb_shape::zlo, name##_tb_ZHI = name##_tb_shape::zhi };                \
    SSAM__TB3_KERNEL(name##_tb, WHO, RT, TT, P, B, name##_policy::minb, SSAM__TB_AUTO(name) && (TT) >= 2, MODE) \
    SSAM__TB3_HOST(name##_tb, RT, TT, P, B, SSAM__TB_AUTO(name) && (TT) >= 2, MODE)                     \
    SSAM__TB3_KERNEL(name, WHO, T, TT, P, B, name##_policy::minb, !SSAM__TB_AUTO(name), MODE)           \
    SSAM__TB3_NAME_HOST(name, T, TT, P, B, MODE)
/* AUTO's one-pass kernel, SSAM_STENCIL3D_DEFINE's (P 4 fp32 / 2 fp64, 128 threads, the slice body
 * where SSAM_STENCIL3D_SLICE_RULE says); ON 0: an empty kernel, name_launch SSAM_ESIZE */
#define SSAM__TB3_ONEPASS(name, WHO, T, SHAPE, ON)                                                      \
    SSAM__STENCIL_COMMON(name, WHO, T, SHAPE, 3)                                                        \
    enum { name##_ZLO = name##_shape::zlo, name##_ZHI = name##_shape::zhi };                            \
    enum { name##_SLICE = SSAM__STENCIL3D_RULE(name, T) };                                              \
    static_assert(!(ON) || ssam__stencil3d_wregs<T, name##_shape, SSAM__TB3_ONEPASS_P(T), name##_SLICE>() <= 192, \
                  WHO ": the one-pass kernel's register window exceeds 192 registers; SHAPE is too large"); \
    __global__ void __launch_bounds__(128, 1)                                                           \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, name##_coef cf) \
    {                                                                                                   \
        if constexpr ((ON) != 0)                                                                        \
            ssam__stencil3d_any_body<T, name##_shape, SSAM__TB3_ONEPASS_P(T), 128, name##_SLICE,        \
                                     SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI),              \
                                     SSAM__STENCIL3D_TRIM_DEFAULT>(src, dst, g, cf.c);                  \
    }                                                                                                   \
    SSAM__TB3_ONEPASS_HOST(name, T, SSAM__TB3_ONEPASS_P(T), SSAM__STENCIL_GHM_DEFAULT(T, name##_XLO, name##_XHI), ON)
#define SSAM__TB3_ONEPASS_P(T) (sizeof(T) == 4 ? 4 : 2)
/* a 3D temporal kernel after its SSAM__STENCIL_COMMON and z extents: ON 0 an empty one, no limit
 * checked; MODE 0 shared rings, 1 the register ring, 2 the z-column (NZ - 1 planes a level) */
#define SSAM__TB3_KERNEL(name, WHO, T, TT, P, B, MINB, ON, MODE)                                        \
    enum {                                                                                              \
        name##_TT = (TT), name##_STEPX = SSAM_TEMPORAL_STEP(SSAM_STENCIL_V(T), name##_XLO, name##_XHI, TT), \
        name##_STEPY = (B) / 32 * (P) - (TT) * (name##_YHI - name##_YLO),                               \
        name##_SMEM = (int)SSAM_TEMPORAL3D_SMEM(TT, name##_ZHI - name##_ZLO + 1 - ((MODE) == 2 ? 2 : 0), \
                                                (B) / 32 * (P), name##_YLO, name##_YHI) /* ZCOL: NZ - 1 planes */ \
    };                                                                                                  \
    SSAM__TB3_CHECKS(name, WHO, T, ON)                                                                  \
    static_assert(!(ON) || (MODE) != 2 || ssam__tb3z_fits(name##_shape()),                              \
                  WHO ": SHAPE must read only the cell's own row off the centre plane (DY = 0 where DZ != 0) " \
                  "and reach both z neighbours, as 3d7pt and 3d13pt do; use SSAM_SCHEDULE_SMEM or SSAM_SCHEDULE_RING"); \
    __global__ void __launch_bounds__(B, MINB)                                                          \
        name##_kernel(const T *__restrict__ src, T *__restrict__ dst, ssam_stencil_geom g, int L, name##_coef cf) \
    {                                                                                                   \
        if constexpr ((ON) != 0)                                                                        \
            ssam__tb3_any_body<T, name##_shape, SSAM__TB_TT(TT), SSAM__STENCIL_P(P), B, MODE>(src, dst, g, L, cf.c); \
    }
/* the limits of a 3D temporal kernel (ON 0: none) */
#define SSAM__TB3_CHECKS(name, WHO, T, ON)                                                              \
    static_assert(!(ON) || name##_STEPY >= 1,                                                           \
                  WHO ": TT times the y extent leaves no tile row to store; raise B or P, or lower TT"); \
    static_assert(!(ON) || name##_STEPX >= SSAM_STENCIL_V(T),                                           \
                  WHO ": TT times the x radius leaves no column of the warp to store; lower TT");       \
    static_assert(!(ON) || name##_SMEM <= ONCHIP_SMEM_OPTIN_MAX,                                        \
                  WHO ": TT levels of the tile's planes (NZ + 1 a level, NZ - 1 with SSAM_SCHEDULE_ZCOL) exceed 227 KB of shared memory; lower TT, P or B"); \
    static_assert(!(ON) || SSAM_STENCIL_V(T) * (int)(sizeof(T) / 4) * (name##_ZHI - name##_ZLO + 1) *   \
                                   (name##_YHI - name##_YLO + 1) <= 128,                                \
                  WHO ": the shape's NZ x NY window exceeds 128 registers; SSAM_SCHEDULE_AUTO runs it one pass per step");

#endif /* SSAM_TEMPORAL3D_CUH */
#include <onchip/names_pop.h>
