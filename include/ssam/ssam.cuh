#include <onchip/names_push.h>
/* ssam/ssam.cuh -- the ssam module in one include: software systolic arrays (Chen et al., SC'19).
 *   base.cuh      status codes, border modes, flags, ssam_border_index
 *   regcache.cuh  SSAM_REGCACHE_LOAD: a warp's tile of rows in registers, borders applied at load
 *   shift.cuh     ssam_shift_down/up, SSAM_SYSTOLIC_ROW: partial sums moved between lanes
 *   conv.cuh      SSAM_CONV2D_DEFINE: 1D and 2D correlation and convolution (ssam_conv_policy) over the
 *                 bodies ssam_conv2d_body (systolic walk) and ssam_conv2d_qbody (queued walk)
 *   conv_tc.cuh   SSAM_CONV2D_TC_DEFINE: the same convolution on tensor cores (FP64, TF32, 3xTF32, FP16,
 *                 BF16); its pieces by scope in conv_tc/ (mma, frag, warp, block, host)
 *   scan.cuh      ssam_warp_scan_inclusive/exclusive (Kogge-Stone), SSAM_SAT_DEFINE (summed-area table)
 *   stencil_shapes.cuh  the stencil catalogue as X-macro point lists (ONCHIP_SHAPE_*)
 *   stencil.cuh   SSAM_STENCIL2D_DEFINE / SSAM_STENCIL3D_DEFINE: stencils described once, systolic kernels
 *   stencil_tc.cuh  SSAM_STENCIL2D/3D_TC_DEFINE: box stencils on tensor cores (FP64, TF32, 3xTF32)
 *   temporal.cuh  SSAM_STENCIL2D_TEMPORAL_DEFINE: TT steps per pass through memory (temporal blocking)
 *   temporal3d.cuh  SSAM_STENCIL3D_TEMPORAL_DEFINE: the same in 3D, the time levels in shared memory
 *   tbplan.h      the planner (C99): steps per pass for a shape, temporal or one pass per step, and why
 *   designs.cuh   SSAM_DESIGN1D_DEFINE, ssam_design1d_tile: the URE paper's 1-D systolic designs (SBM BSM FSM
 *                 BFS FFS FBS)
 *   stencil/queue3d.cuh  ssam_queue3d_step: a 3D star step with the model's updates and coefficient
 *                 fields (leapfrog, damped) for a user's kernel
 *   stencil/points.cuh  ssam_point_add, ssam_point_read: sources and receivers at off-grid points
 *   wave.h        (C99) second-derivative weights of any even order, the leapfrog's Courant bound,
 *                 the Ricker wavelet, trilinear weights of off-grid sources and receivers
 * Each header also compiles alone; copy include/ssam/ to vendor the module. */
#ifndef SSAM_SSAM_CUH
#define SSAM_SSAM_CUH
#include "base.cuh"
#include "regcache.cuh"
#include "shift.cuh"
#include "conv.cuh"
#include "conv_tc.cuh"
#include "scan.cuh"
#include "stencil_shapes.cuh"
#include "stencil.cuh"
#include "stencil_tc.cuh"
#include "tbplan.h"
#include "temporal.cuh"
#include "temporal3d.cuh"
#include "designs.cuh"
#include "stencil/queue3d.cuh"
#include "wave.h"
#include "stencil/points.cuh"
#endif
#include <onchip/names_pop.h>
