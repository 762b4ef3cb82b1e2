/* ssam/tbplan.h -- which path runs N steps of a 2D stencil: temporal blocking (TT steps per pass,
 * ssam/temporal.cuh) or one pass per step (ssam/stencil.cuh), and why.  Plain C99 (host-tested).
 *
 * WHAT
 *   SSAM_TB_TT_RULE(ES, NX, NY, NPTS)   compile-time: the steps per pass to instantiate for a shape
 *       of NX columns (XHI - XLO + 1), NY rows and NPTS points with elements of ES bytes: the largest
 *       TT in {8, 4, 2} whose windows (TT NY 4 registers: 16 bytes of a row per lane and level) fit
 *       112 registers (fp32) / 96 (fp64) and whose halo columns TT (NX - 1) are at most a quarter of
 *       a warp's 32 V columns (32 in fp32, 16 in fp64), or 1 (one pass per step) for wide shapes
 *       (NY > 9 or more than 25 points).
 *   ssam_tb_plan_make(&p, tt, steps)
 *       run-time: given the kernel's TT (1: none) and the step count: p.path, p.tt, p.passes and
 *       p.why (a sentence).
 *   The rules are measurements (H100, 2026-11-25, bench/temporal, docs/PERFORMANCE.md):
 *     - TT: fp32 2d5pt 8192^2 TT 2/4/8/12 = 1.9/3.5/4.6/4.2x one pass; 2d9pt TT 4 2.6x, TT 8 2.3x;
 *       2d13pt TT 4 1.6x, TT 2 1.4x; fp64 2d13pt TT 2 1.7x, TT 4 1.4x; 2d17pt fp32 TT 2 1.1x, TT 4
 *       1.25x (the rule's one miss: TT 4 windows take 144 registers), fp64 TT 2 and 4 1.1x;
 *     - wide shapes lose at every TT: 2d21pt 0.9-0.97x, 2ds25pt 0.8x, 2d64pt 0.8x, 2d81pt 0.7x;
 *     - temporal blocking also wins where the domain fits in the L2 (2d5pt fp32 1024^2: TT 4 1.9x,
 *       2048^2: TT 8 2.5x; fp64 1024^2 2.7x) and beats the perks path (perks/stencil.cuh AUTO:
 *       1.5x, 2.1x, 2.2x there), so the plan never picks perks for these stencils; both paths
 *       cost one launch per TT steps or fewer, so small domains gain too.
 *
 * EXAMPLE
 *     enum { TT = SSAM_TB_TT_RULE(4, 3, 3, 5) };          // 2d5pt in float: 8
 *     ssam_tb_plan p;
 *     if (ssam_tb_plan_make(&p, TT, 1000) == 0) printf("%s: %lld passes (%s)\n",
 *         p.path == SSAM_TB_TEMPORAL ? "temporal" : "one pass per step", p.passes, p.why);
 *   (SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE in ssam/temporal.cuh does this for a shape.)
 *
 * LIMITS
 *   The rules were fitted on one GPU; SSAM_TB_NO_TEMPORAL defined before the include makes every
 *   plan one pass per step.  Codes: 0, or SSAM_TB_EINVAL (1) for a NULL plan, tt < 1 or steps < 0.
 */
#ifndef SSAM_TBPLAN_H
#define SSAM_TBPLAN_H

#define SSAM_TB_ONEPASS 0
#define SSAM_TB_TEMPORAL 1
#define SSAM_TB_EINVAL 1

/* the register budget of the windows per element size (32-bit registers) */
#define SSAM__TB_BUDGET(ES) ((ES) == 4 ? 112 : 96)
#define SSAM__TB_FITS(ES, NX, NY, TT) ((TT) * (NY)*4 <= SSAM__TB_BUDGET(ES) && (TT) * ((NX)-1) * (ES) <= 128)
#define SSAM_TB_TT_RULE(ES, NX, NY, NPTS)                                                                   \
    (((NY) > 9 || (NPTS) > 25) ? 1                                                                          \
     : SSAM__TB_FITS(ES, NX, NY, 8) ? 8                                                                     \
     : SSAM__TB_FITS(ES, NX, NY, 4) ? 4                                                                     \
     : SSAM__TB_FITS(ES, NX, NY, 2) ? 2                                                                     \
                                    : 1)

typedef struct ssam_tb_plan {
    int path;        /* SSAM_TB_TEMPORAL or SSAM_TB_ONEPASS */
    int tt;          /* steps per pass: the kernel's TT (temporal) or 1 */
    long long passes; /* launches for the steps */
    const char *why; /* a sentence, static storage */
} ssam_tb_plan;

/* tt the temporal kernel's steps per pass (SSAM_TB_TT_RULE; 1: there is none), steps the step count */
static inline int ssam_tb_plan_make(ssam_tb_plan *p, int tt, long long steps)
{
    if (!p || tt <= 0 || steps < 0) return SSAM_TB_EINVAL;
    p->path = SSAM_TB_ONEPASS;
    p->tt = 1;
    p->passes = steps;
#ifdef SSAM_TB_NO_TEMPORAL
    p->why = "SSAM_TB_NO_TEMPORAL is defined: one pass per step";
    return 0;
#else
    if (tt < 2) {
        p->why = "a wide stencil (more than 9 rows or 25 points) or windows over the register budget: temporal "
                 "blocking was measured slower than one pass per step";
        return 0;
    }
    if (steps < 2) {
        p->why = "fewer than 2 steps: nothing to fuse";
        return 0;
    }
    p->path = SSAM_TB_TEMPORAL;
    p->tt = tt;
    p->passes = (steps + tt - 1) / tt;
    p->why = "TT steps per pass through device memory: about TT times fewer bytes per step";
    return 0;
#endif
}

#endif /* SSAM_TBPLAN_H */
