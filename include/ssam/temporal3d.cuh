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
#include "temporal/lane3d.cuh"
#include "temporal/body3d.cuh"
#include "temporal/host3d.cuh"
#include "temporal/define3d.cuh"

#endif /* SSAM_TEMPORAL3D_CUH */
#include <onchip/names_pop.h>
