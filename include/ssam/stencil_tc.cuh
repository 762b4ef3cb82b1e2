#include <onchip/names_push.h>
/* ssam/stencil_tc.cuh -- box stencils on tensor cores: each (dz, dy) row of the stencil's box as a
 * banded matrix (conv_tc.cuh's band), the domain streamed along z with the partial sums of the planes
 * in flight kept in registers.
 *
 * WHAT (docs/ssam.md#box-stencils-on-tensor-cores-stencil_tccuh)
 *   SSAM_STENCIL3D_TC_DEFINE(name, MODE, SHAPE, ssam_stencil_tc_policy<D, JX, WY, WX, MINB>)  3D shape
 *   SSAM_STENCIL2D_TC_DEFINE(name, MODE, SHAPE, ssam_stencil_tc_policy<...>)  a 2D shape X(I, DX, DY)
 *   define, with stencil.cuh's ssam_stencil_args, boundaries and codes:
 *       __global__ name_kernel                                the tensor-core kernel
 *       int name_plan(const ssam_stencil_args *a, ssam_plan *p)   every check, the path here; no launch
 *       int name_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t)   a->steps steps
 *       int name_launch(const ssam_stencil_args *a, cudaStream_t)  name_plan, then name_run
 *       int name_ncoef(void), enum name_NPTS, name_XLO .. name_ZHI
 *       name_simt_*                                           stencil.cuh's instance (the fallback)
 *   The plan: path SSAM_PATH_TC or SSAM_PATH_SIMT (a->path 0: this device's; either one forces it, TC
 *   where it cannot run is SSAM_EFLAGS), why; the rest as stencil.cuh's (passes a->steps, result ...).
 *   MODE f64 (FP64 MMAs, every product and sum in double), tf32 (one TF32 pass, ~2^-10 a product),
 *   tf32x3 (three TF32 passes: FP32-like).  The fallback runs below sm_80, for PTX older than sm_80,
 *   or where the device lacks the shared memory.  The policy is the tile: D-dilated fragments, JX
 *   8-column tiles a warp, WY x WX warps, MINB blocks per SM; a field 0 (every one by default:
 *   ssam_stencil_tc_policy<>) the MODE's default tile (SSAM_STC3_TILE_MODE, SSAM_STC2_TILE_MODE).
 *
 * HOW  Each (dz, dy) row of the box is a 1D correlation, C += A B with A the staged data and B the
 *   row's band (B[k][x] = c(k - x + XLO, dy, dz)).  A block stages each input plane once (cp.async)
 *   and multiplies it into the NZ output planes that read it, acc[NZ][D][JX] a warp; fragment o holds
 *   rows D m + o, so D + NY - 1 loads of A feed D NY NZ products.  Dirichlet cells get their input back
 *   at the store; a tile whose sums are not all finite is computed again with FMAs over the shape's
 *   points.  A shape that is not a full box is computed as its box.  docs/ssam.md#stencil-tc-design.
 *
 * PIECES (MD a mode type: conv_tc/frag.cuh)  warp: ssam_tc_zrows<MD, D, NY, NZ, JX, S8, T4>(acc, ta,
 *   TP, wr, WP, cq, bands) (SSAM_TC_ZROWS), ssam_tc_zbands, ssam_tc_zbreg; block: ssam__stc_copy, _put,
 *   _fma, ssam__stencil_tc_body; host: ssam__stc_box, ssam__stencil_tc_plan, ssam__stencil_tc_run
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#tc-glossary.
 *
 * EXAMPLE
 *   [compile: cudaStream_t stream]
 *     #include <ssam/stencil_tc.cuh>
 *     SSAM_STENCIL3D_TC_DEFINE(box125, f64, ONCHIP_SHAPE_BOX3D_R2, ssam_stencil_tc_policy<>)
 *
 *     ssam_stencil_args a = {};  // ...               // exactly as for SSAM_STENCIL3D_DEFINE
 *     ssam_plan p;
 *     a.steps = 100;
 *     int rc = box125_plan(&a, &p);                   // p.path SSAM_PATH_TC on sm_80+, p.why
 *     if (!rc) rc = box125_run(&a, &p, stream);       // p.result a.src; both: box125_launch(&a, stream)
 *   examples/box3d_tc.cu runs it beside the SIMT kernel; bench/ssam_stencil_tc.cu times every box.
 *
 * LIMITS AND WHEN TO USE IT
 *   stencil.cuh's limits, and its SSAM_STENCIL3D_DEFINE (P 1, 128 threads) of the shape must compile
 *   (the fallback: for float a box of radius <= 2 in y and z).  An offset listed twice: SSAM_EFILTER
 *   on every device.  Two staging slots of (16 D WY + NY - 1) rows and the padded coefficients within
 *   227 KB of shared memory, the box's coefficients and flags within 31 KB of parameters, 1 <= D <= 7
 *   (static_asserts; tests/compile-fail/ssam_stencil_tc_*.cu).  ceil(ny / (16 D WY)) <= 65535 and the
 *   segments <= 65535.  Another shape than the catalogue's may need a policy's smaller MINB (check
 *   with -Xptxas -v).  Accuracy (tested): f64 < 1e-12 relative a step, tf32 5e-3 rms, tf32x3 1e-5.
 *   It pays for the large boxes (3D radius 2, 2D r >= 4); stars and memory-bound boxes belong to
 *   stencil.cuh (docs/ssam.md#stencil-tc-design).
 *
 * NVRTC (docs/python.md)  Kernels only: name_kernel(src, dst, g, name_w wt) (sm_80+), name_simt_kernel;
 *   no name_plan, name_run, name_launch, name_ncoef (name_w's box is ssam__stc_box's, host code).
 */
#ifndef SSAM_STENCIL_TC_CUH
#define SSAM_STENCIL_TC_CUH

#include "conv_tc.cuh"
#include "stencil.cuh"
#include "stencil_tc/sizes.cuh"
#include "stencil_tc/warp.cuh"
#include "stencil_tc/body.cuh"
#include "stencil_tc/host.cuh"
#include "stencil_tc/define.cuh"

#endif /* SSAM_STENCIL_TC_CUH */
#include <onchip/names_pop.h>
