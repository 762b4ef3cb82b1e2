#include <onchip/names_push.h>
/* ssam/temporal.cuh -- temporal blocking: TT time steps of a 2D stencil per pass through memory,
 * for domains far larger than the chip.
 *
 * WHAT (the PERKS paper's section 7 "next step"; the streaming of AN5D (CGO'20) and EBISU (ICS'23),
 * built from SSAM's register pieces, SC'19 section 4, Listing 2; docs/ssam.md#temporal-blocking-2d-temporalcuh-tbplanh)
 *   SSAM_STENCIL2D_TEMPORAL_DEFINE(name, T, SHAPE, ssam_temporal_policy<TT, B, SCHEDULE>) defines
 *       __global__ name_kernel                                                up to TT steps, one pass
 *       int name_plan(const ssam_stencil_args *a, ssam_plan *p)   every check; the path (ssam/plan.h):
 *           SSAM_PATH_TEMPORAL (steps_per_pass TT, ceil(a->steps / TT) passes, the last one shorter) or
 *           SSAM_PATH_ONEPASS (1, a->steps passes); p->result a->src or a->dst by the passes' parity
 *       int name_run(const ssam_stencil_args *a, const ssam_plan *p, cudaStream_t)   p's passes
 *       int name_launch(const ssam_stencil_args *a, cudaStream_t)  name_plan, then name_run
 *       int name_ncoef(void); enum name_NPTS, name_TT, name_STEP (columns a warp stores), name_SMEM
 *       (dynamic shared bytes a block); name_coef.  Arguments, boundaries, codes: ssam/stencil.cuh's.
 *   ssam_temporal_policy<TT = 0, B = 0, SCHEDULE = SSAM_SCHEDULE_AUTO, P = 0, MINB = 1>: TT, B 0 the
 *   rule's (tbplan.h; B 128); P is 3D's (0); MINB: __launch_bounds__(B, MINB).  SCHEDULE:
 *     SSAM_SCHEDULE_REGS  TT register windows (docs/ssam.md#temporal-registers)
 *     SSAM_SCHEDULE_SMEM  the staged kernel: level 0's window, the input rows, in shared memory
 *     SSAM_SCHEDULE_AUTO  name_plan chooses (ssam/tbplan.h's rules and why sentences) name_tb_kernel
 *         (SMEM where SSAM_TB_SMEM_RULE says) or name_onepass_kernel; a->path SSAM_PATH_TEMPORAL or
 *         _ONEPASS asks for one (a fixed SCHEDULE: 0 or TEMPORAL).  Other schedules' kernels: empty.
 *
 * HOW  A warp streams a strip of 32 V columns down a row segment, keeping TT register windows of NY
 *   rows (rings indexed by phase); input row j feeds level t's row j - t YHI, level TT's is stored.
 *   Halo recompute: a warp stores name_STEP = 32 V - HL - HR columns.  N steps equal N launches of
 *   SSAM_STENCIL2D_DEFINE's kernel bit for bit, except periodic widths not a multiple of V (within
 *   2 N npts eps max|u0| G^N, G = sum |c|).  Design and measurements: docs/ssam.md#temporal-design.
 *
 * PIECES FOR KERNELS OF ONE'S OWN (functions; the macro spellings are one-line wrappers)
 *   ssam_temporal_push(ring, ph, row), ssam_temporal_view(win, ring, ph): a window of NY rows as a
 *       ring T ring[V][NY] indexed by the phase ph = row mod NY (a constant in a loop unrolled by NY)
 *   ssam_temporal_level<S, XLO, XHI, YLO>(out, win, coef, keep, colin, fast): one step of the
 *       window's row -YLO, or its own value where keep or bit k of colin is 0; fast (warp-uniform:
 *       keep and every colin full) skips the selects.  Every lane of the warp must execute it.
 *   SSAM_TEMPORAL_HL(V, XLO, TT), SSAM_TEMPORAL_HR(V, XHI, TT), SSAM_TEMPORAL_STEP(V, XLO, XHI, TT)
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#temporal-glossary.
 *
 * EXAMPLE
 *   [compile: cudaStream_t stream]
 *     #include <ssam/temporal.cuh>
 *     SSAM_STENCIL2D_TEMPORAL_DEFINE(heat8, float, ONCHIP_SHAPE_2D5PT,
 *                                    ssam_temporal_policy<8, 128, SSAM_SCHEDULE_REGS>)  // <>: AUTO
 *
 *     ssam_stencil_args a = {};   // ... as for SSAM_STENCIL2D_DEFINE ...
 *     a.steps = 1000; ssam_plan p;                    // or both at once: heat8_launch(&a, stream)
 *     int rc = heat8_plan(&a, &p);                    // 125 passes of 8 steps, p.why says why
 *     if (!rc) rc = heat8_run(&a, &p, stream);        // p.result: a.dst (125 passes: odd)
 *
 * PARAMETERS AND LIMITS (compile-time sentences; tests/compile-fail/ssam_temporal_*.cu)
 *   T float or double; TT >= 1, windows 4 TT NY <= 160 32-bit registers (SSAM_TEMPORAL_MAXREGS);
 *   name_STEP >= V; B a multiple of 32 from 32 to 1024; the shape's limits as stencil.cuh's.  REGS:
 *   no shared memory.  SMEM: 4 (TT - 1) NY <= 160 and SSAM_TEMPORAL_SMEM_BYTES(NY, B) =
 *   B/32 2 (NY + 3) 512 bytes <= 227 KB (a device giving less: SSAM_ECUDA).  Any nx >= 1,
 *   1 <= ny <= 65535 * 4096.  src and dst must not overlap; name_run overwrites both.
 *   Codes: stencil.cuh's; a->path another path: SSAM_EFLAGS (AUTO: TEMPORAL where TT is 1 too).
 *
 * NVRTC (docs/python.md)  Kernels only: name_kernel(src, dst, g, int L, cf) runs L steps (1 <= L <= TT;
 *   SMEM with name_SMEM dynamic bytes); AUTO's are name_onepass_kernel and name_tb_kernel; no
 *   name_plan, name_run, name_launch (tbplan.h's rules remain, as macros).
 */
#ifndef SSAM_TEMPORAL_CUH
#define SSAM_TEMPORAL_CUH

#include "stencil.cuh"
#include "tbplan.h"
#include "temporal/lane.cuh"
#include "temporal/body2d.cuh"
#include "temporal/staged2d.cuh"
#include "temporal/policy.cuh"
#include "temporal/host.cuh"
#include "temporal/define2d.cuh"

#endif /* SSAM_TEMPORAL_CUH */
#include <onchip/names_pop.h>
