#include <onchip/names_push.h>
/* ssam/stencil/stream3d.cuh -- the 3D register-streaming kernel's body (SSAM_STENCIL3D_DEFINE
 * with SSAM_SCHEDULE_STREAM, or AUTO where its rule picks streaming).
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 2 along Z)
 *   ssam__stencil3d_body<T, S, P, B, GHM, TRIM>(src, dst, g, cf): one time step of the 3D shape type
 *   S (ONCHIP_SHAPE3D_TYPE), P output rows per warp, B threads per block; GHM the ghost mode (0 overlap
 *   lanes, 1 ghost lanes where the shape allows), TRIM 1: each plane slot keeps only the rows its
 *   points read.  Dynamic shared memory: the row and plane tables, (B/32 P + NY - 1 + g.seg + NZ) ints.
 * HOW
 *   A block is B/32 warps stacked in y, each owning P output rows of STEP columns; the block sweeps
 *   the planes [Zs, Ze) of one segment.  Each warp keeps NZ planes in registers (win[V][NZ * R], plane
 *   slot zi = plane offset ZLO + zi at rows zi * R + ...) and moves them down one slot per output
 *   plane.  TRIM 0: every slot holds the P + NY - 1 rows of the window, and one new plane is loaded
 *   per output plane (the next one prefetched).  TRIM 1: slot zi holds only the rows its own points
 *   read ([slo, shi]: for a star's planes dz != 0 the P output rows); a plane is loaded in pieces as
 *   it moves down (the rows slot zi needs and slot zi + 1 lacked, prefetched one plane ahead in nxt),
 *   so the same rows are read per plane and a star keeps about (NZ - 1)(NY - 1) rows fewer in
 *   registers.
 * PIECES (block scope; names as in the body)
 *   ssam__stencil3d_slots    the window rows [slo[zi], shi[zi]] of each slot
 *   ssam__stencil3d_fetch    FIRST 1: the state before the first plane; FIRST 0: the prefetched
 *                            pieces into the window, the next plane's prefetched
 *   ssam__stencil3d_move     the window down one slot
 *   they take the body's facts as structs: ssam__stencil3d_input (src, g, the plane and row tables),
 *   ssam__lane, ssam__ghost and ssam__stencil3d_maps (cx, the slots' rows), with the ghost columns gcx
 * COST
 *   Registers: at most V (NZ (P + NY - 1) + P + NY - 1) (trimmed slots hold fewer).
 */
#ifndef SSAM_STENCIL_STREAM3D_CUH
#define SSAM_STENCIL_STREAM3D_CUH

#include "host.cuh"
#include "row.cuh"

/* a lane's tables: arrays only, apart from the scalars of ssam__lane and ssam__ghost and from the
 * ghost columns gcx (why: docs/ssam.md#tb-context-structs) */
template <int V, int NZ1>
struct ssam__stencil3d_maps {
    int cx[V];           /* the lane's columns x + k border-mapped */
    int slot_first[NZ1]; /* plane slot zi holds window rows [slot_first[zi], slot_last[zi]] (constants */
    int slot_last[NZ1];  /* after unrolling); slot NZ holds none (R, -1) */
};

/* where a warp's planes come from: plane slot zi of step pz is plane planes[pz + zi] of src (the
 * block's plane table), window row r is row rows[r] (the warp's part of the row table) */
template <class T>
struct ssam__stencil3d_input {
    const T *src;
    ssam_stencil_geom g;
    const int *planes;
    const int *rows;
};

/* the window rows slot zi holds: the first (HI 0) or the last (HI 1); slot NZ holds none */
template <class S, int P, int TRIM, int HI>
static __host__ __device__ __forceinline__ constexpr int ssam__stencil3d_slot_row(int zi)
{
    const int R = P + S::yhi - S::ylo, dz = S::zlo + zi;
    if (zi > S::zhi - S::zlo) return HI ? -1 : R;
    if (!TRIM) return HI ? R - 1 : 0;
    return HI ? ssam__shape_extent<'y', 1>(S(), dz) - S::ylo + P - 1 : ssam__shape_extent<'y', -1>(S(), dz) - S::ylo;
}
/* slot zi's window rows [slo[zi], shi[zi]] (constants after unrolling) */
template <class S, int P, int TRIM, int NZ1>
static __device__ __forceinline__ void ssam__stencil3d_slots(int (&slo)[NZ1], int (&shi)[NZ1])
{
#pragma unroll
    for (int zi = 0; zi < NZ1; zi++) {
        slo[zi] = ssam__stencil3d_slot_row<S, P, TRIM, 0>(zi);
        shi[zi] = ssam__stencil3d_slot_row<S, P, TRIM, 1>(zi);
    }
}

/* the window's planes pl[pz .. pz+NZ-1] of the table.  FIRST 1, the state after a move: slot zi
 * holds the rows it shares with slot zi + 1, nxt the rest (gdata unused).  FIRST 0, one output plane
 * on: the prefetched pieces (nxt, gnxt) into the window, then the next plane's pieces into nxt.
 * Then the ghosts of those planes into gnxt */
template <int FIRST, int R, class T, int V, int W, int GW, int NZ1>
static __device__ __forceinline__ void ssam__stencil3d_fetch(T (&data)[V][W], T (&nxt)[V][W], T (&gdata)[GW][W],
                                                             T (&gnxt)[GW][W], const ssam__stencil3d_input<T> &input,
                                                             int pz, const ssam__lane &lane, const ssam__ghost &ghost,
                                                             const int (&gcx)[GW], const ssam__stencil3d_maps<V, NZ1> &maps)
{
    enum { NZ = NZ1 - 1 };
    /* the members read, as locals read before any store (why: docs/ssam.md#tb-context-structs) */
    const T *const src = input.src;
    const ssam_stencil_geom g = input.g;
    const int *const pl = input.planes, *const rows = input.rows;
    const int x = lane.x, in = lane.vec_ok, gx = ghost.x, glane = ghost.active;
    const int(&cx)[V] = maps.cx;
    const int(&slo)[NZ1] = maps.slot_first;
    const int(&shi)[NZ1] = maps.slot_last;
    if constexpr (FIRST) {
#pragma unroll
        for (int zi = 0; zi < NZ; zi++) {
            const T *const pln = src + (long long)pl[pz + zi] * g.plane;
#pragma unroll
            for (int r = 0; r < R; r++) {
                if (r < slo[zi] || r > shi[zi]) continue;
                if (r >= slo[zi + 1] && r <= shi[zi + 1])
                    ssam_regcache_rows_as<1, T, T>(data, zi * R + r, pln, g.pitch, x, cx, in, rows + r, (T)0);
                else
                    ssam_regcache_rows_as<1, T, T>(nxt, zi * R + r, pln, g.pitch, x, cx, in, rows + r, (T)0);
            }
        }
    } else {
#pragma unroll
        for (int zi = 0; zi < NZ; zi++)
#pragma unroll
            for (int r = 0; r < R; r++)
                if (r >= slo[zi] && r <= shi[zi] && !(r >= slo[zi + 1] && r <= shi[zi + 1]))
#pragma unroll
                    for (int j = 0; j < V; j++) data[j][zi * R + r] = nxt[j][zi * R + r];
#pragma unroll
        for (int zi = 0; zi < NZ; zi++) { /* the next plane's pieces */
            const T *const pln = src + (long long)pl[pz + zi] * g.plane;
#pragma unroll
            for (int r = 0; r < R; r++)
                if (r >= slo[zi] && r <= shi[zi] && !(r >= slo[zi + 1] && r <= shi[zi + 1]))
                    ssam_regcache_rows_as<1, T, T>(nxt, zi * R + r, pln, g.pitch, x, cx, in, rows + r, (T)0);
        }
#pragma unroll
        for (int j = 0; j < GW; j++)
#pragma unroll
            for (int r = 0; r < NZ * R; r++) gdata[j][r] = gnxt[j][r];
    }
#pragma unroll
    for (int zi = 0; zi < NZ; zi++)
        ssam__stencil_gload<R, T, T>(gnxt, zi * R, src + (long long)pl[pz + zi] * g.plane, g.pitch, gx, gcx, glane, rows);
}

/* move the window down one slot: slot zi takes slot zi + 1's shared rows */
template <int R, class T, int V, int W, int NZ1>
static __device__ __forceinline__ void ssam__stencil3d_move(T (&data)[V][W], const int (&slo)[NZ1], const int (&shi)[NZ1])
{
#pragma unroll
    for (int zi = 0; zi < NZ1 - 2; zi++)
#pragma unroll
        for (int r = 0; r < R; r++)
            if (r >= slo[zi] && r <= shi[zi] && r >= slo[zi + 1] && r <= shi[zi + 1])
#pragma unroll
                for (int j = 0; j < V; j++) data[j][zi * R + r] = data[j][(zi + 1) * R + r];
}

/* the body (see the usage block) */
template <class T, class S, int P, int B, int GHM, int TRIM>
static __device__ __forceinline__ void ssam__stencil3d_body(const T *src, T *dst, const ssam_stencil_geom g, const T *cf)
{
    enum {
        XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, YHI = S::yhi, ZLO = S::zlo, ZHI = S::zhi, V = SSAM_STENCIL_V(T),
        NY = YHI - YLO + 1, NZ = ZHI - ZLO + 1, R = P + NY - 1, QL = SSAM_STENCIL_QL(V, XLO), QR = SSAM_STENCIL_QR(V, XHI),
        GH = ssam__stencil_gh<S, V, GHM>(), STEP = ssam__stencil_wstep<S, V, GHM>(), LOFF = GH ? 0 : QL, WY = B / 32,
        GW = ssam__stencil_gw<S>() /* ghost columns (<= V with GH) */
    };
    extern __shared__ int ssam__tab3[];
    int *const rowt = ssam__tab3, *const plt = ssam__tab3 + WY * P + NY - 1;
    const int bmode = g.periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;
    const int Yb = blockIdx.y * (WY * P);
    const int Zs = blockIdx.z * g.seg;
    const int Ze = min(Zs + g.seg, g.nz);
    for (int i = threadIdx.x; i < WY * P + NY - 1; i += B) rowt[i] = ssam_border_index(Yb + YLO + i, g.ny, bmode);
    for (int i = threadIdx.x; i < g.seg + NZ; i += B) plt[i] = ssam_border_index(Zs + ZLO + i, g.nz, bmode);
    __syncthreads();
    const int lane_id = threadIdx.x & 31, wid = threadIdx.x >> 5;
    const int yw = Yb + wid * P;
    if (yw >= g.ny) return; /* whole warps only */
    const int X0 = blockIdx.x * STEP;
    const int x = X0 + V * (lane_id - LOFF);
    const int store = GH || (lane_id >= QL && lane_id < 32 - QR);
    const int glane = GH && ((lane_id == 0 && QR > 0) || (lane_id == 31 && QL > 0));
    const int gx = lane_id == 0 ? X0 + 32 * V : X0 + XLO;
    const ssam__stencil3d_input<T> input = {src, g, plt, rowt + wid * P};
    int colin = 0;
    ssam__lane lane;
    ssam__ghost ghost;
    int gcx[GW];
    ssam__stencil3d_maps<V, NZ + 1> maps;
    T data[V][NZ * R], nxt[V][NZ * R], out[V], own[V], gdata[GW][NZ * R], gnxt[GW][NZ * R];
    lane.x = lane.x_load = x;
    lane.store = store;
    ghost.x = gx;
    ghost.active = glane;
    ssam__stencil3d_slots<S, P, TRIM>(maps.slot_first, maps.slot_last);
    ssam_regcache_columns<V>(maps.cx, lane.vec_ok, x, g.nx, bmode, g.vld);
#pragma unroll
    for (int j = 0; j < GW; j++) gcx[j] = ssam_border_index(gx + j, g.nx, bmode); /* ghosts: the elements needed */
#pragma unroll
    for (int k = 0; k < V; k++) colin |= (g.periodic || (x + k + XLO >= 0 && x + k + XHI < g.nx)) << k;
    lane.col_inside_mask = colin;
    ssam__stencil3d_fetch<1, R>(data, nxt, gdata, gnxt, input, 0, lane, ghost, gcx, maps);
#pragma unroll 1
    for (int z = Zs; z < Ze; z++) {
        ssam__stencil3d_fetch<0, R>(data, nxt, gdata, gnxt, input, z - Zs + 1, lane, ghost, gcx, maps);
        const int zin = g.periodic || (z + ZLO >= 0 && z + ZHI < g.nz);
#pragma unroll
        for (int p = 0; p < P; p++) {
            ssam__stencil3d_rowg<S, XLO, XHI, YLO, ZLO, R, GH>(out, data, gdata, p, cf);
            const int y = yw + p;
            if (y < g.ny && store) {
                const int rowin = zin && (g.periodic || (y + YLO >= 0 && y + YHI < g.ny));
#pragma unroll
                for (int k = 0; k < V; k++) own[k] = data[k][(-ZLO) * R + p - YLO];
                ssam__stencil_store<T>(dst, (long long)z * g.plane, (long long)y * g.pitch, x, g.nx, out, own, colin,
                                       rowin, g.vst);
            }
        }
        ssam__stencil3d_move<R>(data, maps.slot_first, maps.slot_last); /* move down one slot */
    }
}

#endif /* SSAM_STENCIL_STREAM3D_CUH */
#include <onchip/names_pop.h>
