#include <onchip/names_push.h>
/* perks/stencil.cuh -- persistent 2D stencils: the time loop in one cooperative kernel, the domain
 * cached in registers and shared memory between steps.
 *
 * WHAT (PERKS paper §3-§4.2, Listing 1)
 *   PERKS_STENCIL2D_DEFINE(name, T, SHAPE, perks_stencil2d_policy<BX, RC, DEPTH, MINB>) defines
 *       __global__ void name_kernel(...)                        the streaming persistent kernel
 *       __global__ void name_res_kernel(...), name_hyb_kernel(...)  the resident / hybrid ones
 *       __global__ void name_step_kernel(...)                   one non-persistent step (baseline)
 *       int name_plan(const perks_stencil2d_args *a, perks_plan *p)   checks a, picks the kernel,
 *                                    fills p's head (onchip/plan.h: path PERKS_PLAN_*, why, ...)
 *       int name_run(const perks_stencil2d_args *a, const perks_plan *p, cudaStream_t)   runs p
 *       int name_launch(const perks_stencil2d_args *a, cudaStream_t)  name_plan, then name_run
 *   (and name_*_smem, name_geom, types name_policy, name_weights, name_shape, name_sizes,
 *   constants name_R, name_WW, name_RR, name_HWIN, name_SMEM_BASE, name_NCOEF).
 *   SHAPE: an X-macro list of points X(I, DX, DY) (onchip/shape.cuh: ONCHIP_SHAPE_*, or a user's).
 *   A step: out(x, y) = sum over points, in list order, of c[I] * in(x + DX, y + DY) for every cell
 *   at least r = max |offset| from the edge, the others kept (args.boundary ONCHIP_KEEP_RADIUS, or
 *   the default ONCHIP_KEEP_EXTENT where it keeps the same cells); every path bit for bit the same.
 *   Kernels RESIDENT, HYBRID, STREAM, or one launch a step (args.path; AUTO: name_plan picks):
 *   docs/perks.md#2d-stencils-perks_stencil2d_define.
 *   POLICY (defaults perks_stencil2d_policy<256, 8, 32, 1>): BX threads = tile columns, RC rows a
 *   chunk, DEPTH register rows (0: none), MINB the streaming kernel's __launch_bounds__(BX, MINB).
 *
 * EXAMPLE
 *   [compile: float *d_u, *d_v; int W, H; cudaStream_t stream]
 *     #include <perks/stencil.cuh>
 *     PERKS_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_STAR2D_R1, perks_stencil2d_policy<256, 8, 32>)
 *
 *     float c[5] = {0.6f, 0.1f, 0.1f, 0.1f, 0.1f};   // (0,0), (-1,0), (1,0), (0,-1), (0,1)
 *     perks_stencil2d_args a = {};
 *     a.src = d_u; a.dst = d_v; a.nx = W; a.ny = H; a.steps = 100; a.coef = c; a.ncoef = heat_NCOEF;
 *     a.cache = PERKS_CACHE_MIX;
 *     perks_plan p;
 *     int rc = heat_plan(&a, &p);          // p.path, p.why; p.result: d_u (even steps) or d_v
 *     if (!rc) rc = heat_run(&a, &p, stream);   // heat_launch(&a, stream): the two in one
 *
 * PARAMETERS AND LIMITS (all: docs/perks.md#reference-2d-parameters-and-limits)
 *   T float or double; BX a multiple of 32, >= 64 and >= 2r; RC + 2r <= 32; DEPTH a multiple of RC
 *   (0: no register cache); MINB >= 1; r <= 8.  Any nx, ny >= 1, dense (pitch, plane 0 or the dense
 *   value, else PERKS_ESIZE); src and dst apart (both written); coef in HOST memory, ncoef the
 *   shape's; work NULL: name_run allocates p.workspace_bytes (synchronising).  Refused: the code,
 *   p.why, p.passes 0, nothing launched; a grid that cannot be co-resident: PERKS_ECORESIDENT, never
 *   a hang.  Bad instantiations: static_asserts naming the generator, instance and argument.
 *
 * PIECES: perks/stencil/{shapes,stream,resident,plan,define}.cuh (docs/perks.md#reference-the-pieces-of-a-2d-stencil);
 *   GLOSSARY of the bodies' names: docs/perks.md#perks-stencil-glossary.  ssam/stencil_shapes.cuh's
 *   lists are SHAPEs too.  NVRTC: the four kernels only (docs/perks.md#reference-nvrtc-2d-stencils).
 */
#ifndef PERKS_STENCIL_CUH
#define PERKS_STENCIL_CUH

#include "stencil/shapes.cuh"
#include "stencil/plan.cuh"
#include "stencil/stream.cuh"
#include "stencil/resident.cuh"
#include "stencil/define.cuh"

#endif /* PERKS_STENCIL_CUH */
#include <onchip/names_pop.h>
