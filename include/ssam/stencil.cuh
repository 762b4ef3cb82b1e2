#include <onchip/names_push.h>
/* ssam/stencil.cuh -- 2D and 3D stencils as software systolic arrays: describe a stencil once (an
 * X-macro list of points, ssam/stencil_shapes.cuh), get a kernel.
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 2, sections 4.8-4.9, Table 3; docs/ssam.md#stencils-stencil_shapescuh-stencilcuh)
 *   SSAM_STENCIL2D_DEFINE(name, T, SHAPE, ssam_stencil_policy<P, B, MINB, SCHEDULE>)  SHAPE X(I, DX, DY)
 *   SSAM_STENCIL3D_DEFINE(name, T, SHAPE, ssam_stencil_policy<...>)              SHAPE X(I, DX, DY, DZ)
 *   The policy (ssam_stencil_policy<> is P 8, B 128, MINB 1, AUTO): P output rows a lane and step,
 *   B threads, MINB blocks per SM (__launch_bounds__(B, MINB)); SCHEDULE (3D) SSAM_SCHEDULE_STREAM
 *   (register streaming along z), _SLICE (section 4.9: z partial sums through shared memory) or _AUTO
 *   (SSAM_STENCIL3D_SLICE_RULE's pick); 2D takes AUTO only.  T float or double; in 2D also __half /
 *   __nv_bfloat16: the state stored so (V = 8), computed in float, one rounding at the store (2^-11 /
 *   2^-8 relative a step), coefficients FLOAT.  It defines
 *       __global__ name_kernel                                                 one time step
 *       int name_plan(const ssam_stencil_args *a, ssam_plan *p)    every check; the path; no launch
 *       int name_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t)   a->steps launches
 *       int name_launch(const ssam_stencil_args *a, cudaStream_t)  name_plan, then name_run
 *       enum name_NPTS, name_NCOEF, name_XLO .. name_YHI (3D .. name_ZHI, name_SLICE: the slices or
 *       not); name_coef { c[NPTS]; }; name_shape (ONCHIP_SHAPE2D_TYPE), name_policy; int name_ncoef(void)
 *   The plan (ssam/plan.h): path SSAM_PATH_ONEPASS (2D rows, 3D streaming) or SSAM_PATH_SLICE, why
 *   (the rule), steps_per_pass 1, passes a->steps, workspace_bytes 0, result a->src or a->dst by the
 *   parity of the steps (0 steps: src, nothing launched); refused: the code, why, passes 0.
 *
 * HOW  The bodies are in stencil/ (row.cuh: the pieces, docs/pieces.md; body2d, stream3d, slice3d;
 *   host.cuh: arguments, grids, plans, launches).  Layouts, grid rules: docs/ssam.md#stencil-design.
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#stencil-glossary.
 * BOUNDARIES (a->boundary: onchip/boundary.h's policies; the temporal and tensor-core stencils alike)
 *   ONCHIP_KEEP_EXTENT (SSAM_STENCIL_DIRICHLET)  a cell whose stencil reaches outside the domain keeps
 *                           its value (a radius-r star or box: the cells within r of an edge)
 *   ONCHIP_PERIODIC (SSAM_STENCIL_PERIODIC)  every cell computed; indices wrap at any distance
 *   ONCHIP_KEEP_RADIUS      for a shape whose extents all equal its radius (the same cells); any other
 *                           policy, or keep-radius for another shape, is SSAM_EBORDER
 *
 * EXAMPLE
 *   [compile: float *d_u0, *d_u1; int W, H; float r; cudaStream_t stream]
 *     #include <ssam/stencil.cuh>
 *     SSAM_STENCIL2D_DEFINE(heat, float, ONCHIP_SHAPE_2D5PT, ssam_stencil_policy<>)   // P 8, B 128
 *
 *     float c[5] = {1 - 4 * r, r, r, r, r};          // host memory, in the shape's point order
 *     ssam_stencil_args a = {};
 *     a.src = d_u0; a.dst = d_u1; a.nx = W; a.ny = H; a.coef = c; a.ncoef = 5;
 *     a.boundary = SSAM_STENCIL_DIRICHLET; a.steps = 1000;
 *     ssam_plan p;                                    // or both at once: heat_launch(&a, stream)
 *     int rc = heat_plan(&a, &p);                     // 0 or SSAM_E*: ssam_stencil_strerror(rc), p.why
 *     if (!rc) rc = heat_run(&a, &p, stream);         // p.result: d_u0 (1000 steps: even)
 *
 * PARAMETERS AND LIMITS (static_assert sentences; tests/compile-fail/ssam_stencil_*.cu)
 *   Offsets within +-10 (SSAM_STENCIL_RMAX); every I in [0, NPTS); P >= 1; B a multiple of 32 from 32
 *   to 1024; MINB >= 1; register windows <= 192 32-bit registers: V (P + NY - 1) + V P (2D), V times
 *   the rows of the trimmed plane slots and their prefetched pieces (3D streaming: a star of radius
 *   r at P 1, 4 (6 r + 2)), 2 V (P + NY - 1) (3D slice); slice shared memory
 *   (B/32 + NZ - 1)(NZ - 1) P 512 bytes + a row table <= 227 KB.  Coefficients from HOST memory into
 *   the kernel's parameters.  One pitch for src and dst; they must not overlap; both are written.
 *   2D ny <= 65535 * 4096; 3D ceil(ny / (P B/32)) (slice ceil(ny / P)) and the z segments <= 65535.
 *   a->path 0 or the instance's path, else SSAM_EFLAGS; cache, blocks_per_sm, cache_rows_max, work,
 *   work_bytes are ignored.  Codes: SSAM_ENULL, SSAM_ESIZE (also steps < 0), SSAM_EPITCH, SSAM_EBORDER,
 *   SSAM_EFILTER (ncoef), SSAM_EFLAGS, SSAM_EOVERLAP, SSAM_ECUDA; ssam_stencil_strerror names them.
 *
 * NVRTC (docs/python.md)  Kernels only: name_kernel(const TS *src, TS *dst, ssam_stencil_geom g,
 *   name_coef cf), the enums and name_coef (no name_plan, name_run, name_launch, name_ncoef: use
 *   name_NCOEF); the grid, g.seg and the shared memory are ssam__stencil_prepare's (stencil/host.cuh).
 */
#ifndef SSAM_STENCIL_CUH
#define SSAM_STENCIL_CUH

#include "base.cuh"
#include "regcache.cuh"
#include "shift.cuh"
#include "stencil_shapes.cuh"
#include "stencil/body2d.cuh"
#include "stencil/host.cuh"
#include "stencil/row.cuh"
#include "stencil/slice3d.cuh"
#include "stencil/stream3d.cuh"
#include "stencil/define.cuh"

#endif /* SSAM_STENCIL_CUH */
#include <onchip/names_pop.h>
