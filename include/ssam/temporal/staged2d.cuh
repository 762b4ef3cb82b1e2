#include <onchip/names_push.h>
/* ssam/temporal/staged2d.cuh -- the 2D staged kernel's body (SSAM_SCHEDULE_SMEM): level 0's window,
 * the input rows, in shared memory. */
#ifndef SSAM_TEMPORAL_STAGED2D_CUH
#define SSAM_TEMPORAL_STAGED2D_CUH

#include <onchip/async.cuh>

#include "body2d.cuh"

/* rows of input a lane has in flight (cp.async) ahead of the row it computes from */
#define SSAM_TEMPORAL_AHEAD 3
/* the dynamic shared memory of the staged kernel: per warp 2 (NY + AHEAD) rows of 32 lanes x 16 bytes */
#define SSAM_TEMPORAL_SMEM_BYTES(NY, B) ((B) / 32 * 2 * ((NY) + SSAM_TEMPORAL_AHEAD) * 32 * 16)

/* input row j (border-mapped) into the lane's slot q0 and its copy q1: one 16-byte cp.async each
 * where in, else V elements at the border-mapped columns (ssam__tb2_load), stored */
template <class T, int V>
static __device__ __forceinline__ void ssam__tb2s_load(ssam_vec<T, V> *q0, ssam_vec<T, V> *q1, const T *src,
                                                       const ssam_stencil_geom g, int j, int x, int in, int bmode)
{
    if (in) {
        const T *row = src + (long long)ssam_border_index(j, g.ny, bmode) * g.pitch;
        onchip_cp_async16(q0, row + x);
        onchip_cp_async16(q1, row + x);
    } else { /* ssam__tb2_load's element path, stored */
        T e[V][1];
        ssam_vec<T, V> v;
        ssam__tb2_load(e, 0, src, g, j, x, 0, bmode);
#pragma unroll
        for (int k = 0; k < V; k++) v.v[k] = e[k][0];
        *q0 = v;
        *q1 = v;
    }
}

/* The staged body: ssam__tb2_body with level 0's window in shared memory, a lane's own 16 bytes of
 * a row in a ring of R0 = NY + AHEAD slots, each row written at s and s + R0 (the window is the NY
 * slots from sb on); row j + AHEAD copied into row j - NY's slot after level 1 read it */
template <class T, class S, int TT, int B>
static __device__ __forceinline__ void ssam__tb2s_body(const T *src, T *dst, const ssam_stencil_geom g, int L, const T *cf)
{
    enum {
        XLO = S::xlo, XHI = S::xhi, YLO = S::ylo, YHI = S::yhi, V = SSAM_STENCIL_V(T), NY = YHI - YLO + 1,
        HL = SSAM_TEMPORAL_HL(V, XLO, TT), HR = SSAM_TEMPORAL_HR(V, XHI, TT), STEP = 32 * V - HL - HR,
        D = SSAM_TEMPORAL_AHEAD, R0 = NY + D, NR = TT > 1 ? TT - 1 : 1
    };
    typedef ssam_vec<T, V> vec;
    extern __shared__ __align__(16) unsigned char ssam__tb2s_smem[];
    const int bmode = g.periodic ? SSAM_BORDER_WRAP : SSAM_BORDER_NEAREST;
    const int lane = threadIdx.x & 31;
    vec *const q = (vec *)ssam__tb2s_smem + (threadIdx.x >> 5) * (2 * R0 * 32) + lane; /* slot s: q[32 s] */
    int X0, by;
    if (!ssam__tb2_warp<B, STEP>(g, &X0, &by)) return; /* whole warps only: the shuffles need every lane */
    const int x = X0 - HL + V * lane;
    const int store = lane >= HL / V && lane < 32 - HR / V && x < g.nx;
    const int Ys = by * g.seg, Ye = min(Ys + g.seg, g.ny);
    const int j0 = Ys + TT * YLO, j1 = Ye + TT * YHI; /* input rows [j0, j1) */
    int colin = 0, in;
    T ring[NR][V][NY], out[V];
    const int xl = ssam__tb_xload(x, g.nx, V, g.periodic, g.vld, &in);
#pragma unroll
    for (int k = 0; k < V; k++) colin |= (g.periodic || (x + k + XLO >= 0 && x + k + XHI < g.nx)) << k;
    const int allin = __all_sync(0xffffffffu, colin == (1 << V) - 1);
    const int yoff = g.periodic ? 0x40000000 : 0;
    const int ylim = g.periodic ? 0x7fffffff : max(g.ny - (YHI - YLO), 0);
    { /* rows before j0 (never stored) read as 0, as ssam__tb2_body's rings */
        vec z;
#pragma unroll
        for (int k = 0; k < V; k++) z.v[k] = (T)0;
#pragma unroll
        for (int s = D; s < R0; s++) q[32 * s] = q[32 * (s + R0)] = z;
#pragma unroll
        for (int t = 0; t < NR; t++)
#pragma unroll
            for (int k = 0; k < V; k++)
#pragma unroll
                for (int r = 0; r < NY; r++) ring[t][k][r] = (T)0;
    }
#pragma unroll
    for (int s = 0; s < D; s++) { /* rows j0 .. j0 + D - 1 into slots 0 .. D - 1 */
        if (j0 + s < j1) ssam__tb2s_load(q + 32 * s, q + 32 * (s + R0), src, g, j0 + s, xl, in, bmode);
        onchip_cp_async_commit();
    }
    int sb = (R0 - NY + 1) % R0; /* the slot of row j - NY + 1, the oldest of level 0's window at row j */
#pragma unroll 1
    for (int jb = j0; jb < j1; jb += NY) {
#pragma unroll
        for (int ph = 0; ph < NY; ph++) {
            const int j = jb + ph;
            if (j >= j1) break;
            onchip_cp_async_wait<D - 1>(); /* row j's group is in */
#pragma unroll
            for (int t = 1; t <= TT; t++) {
                const int y = j - t * YHI;
                const int keep = t <= L && (unsigned)(y + YLO + yoff) < (unsigned)ylim;
                T win[V][NY];
                if (t == 1) {
#pragma unroll
                    for (int r = 0; r < NY; r++) {
                        const vec v = q[32 * (sb + r)];
#pragma unroll
                        for (int k = 0; k < V; k++) win[k][r] = v.v[k];
                    }
                } else
                    ssam_temporal_view(win, ring[t > 1 ? t - 2 : 0], ph);
                ssam_temporal_level<S, XLO, XHI, YLO>(out, win, cf, keep, colin, keep && allin);
                if (t == 1) { /* row j + D into the slot of row j - NY: (sb - 1) mod R0 */
                    const int s = sb == 0 ? R0 - 1 : sb - 1;
                    if (j + D < j1) ssam__tb2s_load(q + 32 * s, q + 32 * (s + R0), src, g, j + D, xl, in, bmode);
                    onchip_cp_async_commit();
                }
                if (t < TT) ssam_temporal_push(ring[t - 1], ph, out);
                else if (store && y >= Ys && y < Ye)
                    ssam__stencil_store<T>(dst, 0, (long long)y * g.pitch, xl, g.nx, out, out, (1 << V) - 1, 1, g.vst);
            }
            sb = sb + 1 == R0 ? 0 : sb + 1;
        }
    }
}

#endif /* SSAM_TEMPORAL_STAGED2D_CUH */
#include <onchip/names_pop.h>
