#include <onchip/names_push.h>
/* ssam/tbplan.h -- which path runs N steps of a 2D or 3D stencil: temporal blocking (TT steps per
 * pass, ssam/temporal.cuh, ssam/temporal3d.cuh) or one pass per step (ssam/stencil.cuh), and why.
 * Plain C99 (host-tested).
 *
 * WHAT (docs/ssam.md#temporal-blocking-2d-temporalcuh-tbplanh; the rules: docs/ssam.md#tbplan-rules)
 *   SSAM_TB_TT_RULE(ES, NX, NY, NPTS)   compile-time: the steps per pass to instantiate for a shape
 *       of NX columns, NY rows and NPTS points with elements of ES bytes (1: one pass per step)
 *   SSAM_TB_SMEM_RULE(ES, NX, NY, NPTS), SSAM_TB_SMEM_TT_RULE(ES, NY)   1 where AUTO builds the staged
 *       kernel (SSAM_SCHEDULE_SMEM), and its TT
 *   SSAM_TB3_TT_RULE, SSAM_TB3_B_RULE(NPTS), SSAM_TB3_P_RULE, SSAM_TB3_RING_RULE(NPTS),
 *   SSAM_TB3_ZCOL_RULE, SSAM_TB3_ZCOL_TT_RULE, _P_RULE, _B_RULE   the same for 3D
 *   ssam_tb_plan_make(&p, tt, steps)   run-time, given the kernel's TT (1: none): p.path, p.tt,
 *       p.passes, p.why (a sentence); ssam_tb_smem_plan_make(&p, tt, steps, nx, ny) for the staged
 *       kernel, ssam_tb3_plan_make for 3D.
 *
 * EXAMPLE
 *   [compile in a function]
 *     #include <stdio.h>
 *
 *     enum { TT = SSAM_TB_TT_RULE(4, 3, 3, 5) };          // 2d5pt in float: 8
 *     ssam_tb_plan p;
 *     if (ssam_tb_plan_make(&p, TT, 1000) == 0) printf("%s: %lld passes (%s)\n",
 *         p.path == SSAM_TB_TEMPORAL ? "temporal" : "one pass per step", p.passes, p.why);
 *   (SSAM_STENCIL2D_TEMPORAL_DEFINE with SSAM_SCHEDULE_AUTO, ssam/temporal.cuh, does this for a shape.)
 *
 * LIMITS (docs/ssam.md#design-notes-ssamtemporalplanh)
 *   The rules are fitted to one GPU; SSAM_TB_NO_TEMPORAL defined before the include makes every
 *   plan one pass per step.  Codes: 0; SSAM_TB_EINVAL (1) an argument out of range; SSAM_TB_ESIZE
 *   (2) a size past LLONG_MAX.  On an error a non-NULL plan is one pass per step with 0 passes and
 *   why naming the error.
 */
#ifndef SSAM_TBPLAN_H
#define SSAM_TBPLAN_H

#include "temporal/plan.h"

#endif /* SSAM_TBPLAN_H */
#include <onchip/names_pop.h>
