#include <onchip/names_push.h>
/* ssam/temporal/lane.cuh -- the 2D temporal lane pieces: a window of rows as a ring in registers, one
 * time level of its middle row, and the columns a warp loses to TT levels. */
#ifndef SSAM_TEMPORAL_LANE_CUH
#define SSAM_TEMPORAL_LANE_CUH

#include "../stencil/row.cuh"

/* the columns lost at each end of a warp's strip after TT levels (whole lanes), and those stored */
#define SSAM_TEMPORAL_HL(V, XLO, TT) (SSAM_STENCIL_QL(V, (XLO) * (TT)) * (V))
#define SSAM_TEMPORAL_HR(V, XHI, TT) (SSAM_STENCIL_QR(V, (XHI) * (TT)) * (V))
#define SSAM_TEMPORAL_STEP(V, XLO, XHI, TT) (32 * (V)-SSAM_TEMPORAL_HL(V, XLO, TT) - SSAM_TEMPORAL_HR(V, XHI, TT))
/* the register budget of the TT windows, in 32-bit registers */
#define SSAM_TEMPORAL_MAXREGS 160

/* A window of NY rows kept as a ring: ring[k][s], the row at offset r (0: the oldest) in slot
 * (ph + r) % NY at phase ph = row mod NY (a constant in a loop unrolled by NY): moving the window
 * is a renaming.  ssam_temporal_view: the window as rows in order, win[k][r]. */
template <class T, int V, int NY>
static __device__ __forceinline__ void ssam_temporal_view(T (&win)[V][NY], const T (&ring)[V][NY], int ph)
{
#pragma unroll
    for (int k = 0; k < V; k++)
#pragma unroll
        for (int r = 0; r < NY; r++) win[k][r] = ring[k][(ph + r) % NY];
}
#define SSAM_TEMPORAL_VIEW(V, NY, win, ring, ph) ssam_temporal_view(win, ring, ph)
/* row[k] enters the ring as its newest row at phase ph (it overwrites the oldest of phase ph - 1) */
template <class T, int V, int NY>
static __device__ __forceinline__ void ssam_temporal_push(T (&ring)[V][NY], int ph, const T (&row)[V])
{
#pragma unroll
    for (int k = 0; k < V; k++) ring[k][(ph + NY - 1) % NY] = row[k];
}
#define SSAM_TEMPORAL_PUSH(V, NY, ring, ph, row) ssam_temporal_push(ring, ph, row)

/* one step of the window's row -YLO: out[k] is the stencil where keep and colin bit k, else the
 * cell's own value; fast (warp-uniform: keep and every lane's colin full) skips the selects */
template <class S, int XLO, int XHI, int YLO, class T, int V, int NY>
static __device__ __forceinline__ void ssam_temporal_level(T (&out)[V], const T (&win)[V][NY], const T *coef, int keep,
                                                           int colin, int fast)
{
    ssam_stencil2d_row<S, XLO, XHI, YLO>(out, win, 0, coef);
    if (!fast) {
#pragma unroll
        for (int k = 0; k < V; k++) out[k] = (keep && ((colin >> k) & 1)) ? out[k] : win[k][-YLO];
    }
}
#define SSAM_TEMPORAL_LEVEL(T, V, SHAPE, XLO, XHI, YLO, out, win, coef, keep, colin, fast)              \
    ssam_temporal_level<ONCHIP_SHAPE2D_TYPE(SHAPE), XLO, XHI, YLO>(out, win, coef, keep, colin, fast)

#endif /* SSAM_TEMPORAL_LANE_CUH */
#include <onchip/names_pop.h>
