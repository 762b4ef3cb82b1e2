#include <onchip/names_push.h>
/* ssam/temporal/plan.h -- the temporal planner (C99): the rules that size a temporal kernel, the plans
 * that choose temporal blocking or one pass per step. */
#ifndef SSAM_TEMPORAL_PLAN_H
#define SSAM_TEMPORAL_PLAN_H

#define SSAM_TB_ONEPASS 0
#define SSAM_TB_TEMPORAL 1
#define SSAM_TB_EINVAL 1
#define SSAM_TB_ESIZE 2

/* the register budget of the windows per element size (32-bit registers) */
#define SSAM__TB_BUDGET(ES, TT) ((ES) == 4 ? ((TT) >= 8 ? 112 : 144) : 96)
#define SSAM__TB_FITS(ES, NX, NY, TT) ((TT) * (NY)*4 <= SSAM__TB_BUDGET(ES, TT) && (TT) * ((NX)-1) * (ES) <= 128)
#define SSAM_TB_TT_RULE(ES, NX, NY, NPTS)                                                                   \
    (((NY) > 9 || (NPTS) > 25 || ((ES) == 8 && (NY) > 7)) ? 1                                             \
     : SSAM__TB_FITS(ES, NX, NY, 8) && (NPTS) <= 17 ? 8                                                     \
     : SSAM__TB_FITS(ES, NX, NY, 4) && (NPTS) <= 17 ? 4                                                     \
     : SSAM__TB_FITS(ES, NX, NY, 2) ? 2                                                                     \
                                    : 1)

/* the staged kernel and its TT (docs/ssam.md#tbplan-rules) */
#define SSAM_TB_SMEM_RULE(ES, NX, NY, NPTS)                                                                 \
    ((ES) == 4 ? (((NY) == 7 || (NY) == 9) && (NPTS) <= 17) || ((NY) == 5 && (NPTS) > 17 && (NPTS) <= 25)    \
               : (NY) == 9 && (NPTS) == 2 * (NY)-1)
#define SSAM_TB_SMEM_TT_RULE(ES, NY) ((NY) >= 9 ? ((ES) == 4 ? 3 : 2) : 4)

/* 3D (docs/ssam.md#tbplan-rules) */
#define SSAM_TB3_TT_RULE(ES, NX, NY, NZ, NPTS) (((NZ) <= 3 && (NY) <= 3 && (NX) <= 3 && (NPTS) <= 27) ? 2 : 1)
#define SSAM_TB3_B_RULE(NPTS) ((NPTS) <= 7 ? 704 : 512)
/* the register ring beyond 7 points (docs/ssam.md#tbplan-rules) */
#define SSAM_TB3_RING_RULE(NPTS) ((NPTS) > 7)
#define SSAM_TB3_P_RULE 2
/* the z-column kernel for z-stars (ZSTAR) (docs/ssam.md#tbplan-rules) */
#define SSAM_TB3_ZCOL_RULE(NX, NY, NZ, NPTS, ZSTAR) ((ZSTAR) && (NX) <= 5 && (NY) <= 5 && (NZ) <= 5 && (NPTS) <= 13)
#define SSAM_TB3_ZCOL_TT_RULE(NX, NY, NZ) (((NX) > 3 || (NY) > 3 || (NZ) > 3) ? 2 : 4)
#define SSAM_TB3_ZCOL_P_RULE 3
#define SSAM_TB3_ZCOL_B_RULE 512

typedef struct ssam_tb_plan {
    int path;        /* SSAM_TB_TEMPORAL or SSAM_TB_ONEPASS */
    int tt;          /* steps per pass: the kernel's TT (temporal) or 1 */
    long long passes; /* launches for the steps */
    const char *why; /* a sentence, static storage */
} ssam_tb_plan;

#ifndef __CUDACC_RTC__ /* host code (NVRTC: the rules only) */
#include <limits.h>

/* a plan made one pass per step, for the reason why */
static inline void ssam__tb_plan_onepass(ssam_tb_plan *p, long long steps, const char *why)
{
    p->path = SSAM_TB_ONEPASS;
    p->tt = 1;
    p->passes = steps;
    p->why = why;
}

/* an error rc: a non-NULL plan made one pass per step of no passes, why naming the error */
static inline int ssam__tb_plan_fail(ssam_tb_plan *p, int rc, const char *why)
{
    if (p) ssam__tb_plan_onepass(p, 0, why);
    return rc;
}

/* tt: the temporal kernel's steps per pass (1: there is none) */
static inline int ssam_tb_plan_make(ssam_tb_plan *p, int tt, long long steps)
{
    if (!p) return SSAM_TB_EINVAL;
    if (tt <= 0 || steps < 0)
        return ssam__tb_plan_fail(p, SSAM_TB_EINVAL, "SSAM_TB_EINVAL: tt < 1 or steps < 0, no plan");
#ifdef SSAM_TB_NO_TEMPORAL
    ssam__tb_plan_onepass(p, steps, "SSAM_TB_NO_TEMPORAL is defined: one pass per step");
    return 0;
#else
    if (tt < 2) {
        ssam__tb_plan_onepass(p, steps, "no temporal kernel for this shape (a wide stencil, or windows over the "
                                        "register or shared-memory budget): temporal blocking measures slower than "
                                        "one pass per step");
        return 0;
    }
    if (steps < 2) {
        ssam__tb_plan_onepass(p, steps, "fewer than 2 steps: nothing to fuse");
        return 0;
    }
    p->path = SSAM_TB_TEMPORAL;
    p->tt = tt;
    p->passes = steps / tt + (steps % tt != 0); /* ceil(steps / tt), no sum past LLONG_MAX */
    p->why = "TT steps per pass through device memory: about TT times fewer bytes per step";
    return 0;
#endif
}

/* the staged kernel runs temporal from SSAM_TB_SMEM_MIN_CELLS cells (define before the include; 0:
 * off); docs/ssam.md#tbplan-rules */
#ifndef SSAM_TB_SMEM_MIN_CELLS
#define SSAM_TB_SMEM_MIN_CELLS (3LL << 19)
#endif

/* ssam_tb_plan_make for nx x ny cells, the temporal kernel the staged one */
static inline int ssam_tb_smem_plan_make(ssam_tb_plan *p, int tt, long long steps, long long nx, long long ny)
{
    int rc;
    if (!p) return SSAM_TB_EINVAL;
    if (nx < 1 || ny < 1) return ssam__tb_plan_fail(p, SSAM_TB_EINVAL, "SSAM_TB_EINVAL: a size < 1, no plan");
    if (nx > LLONG_MAX / ny)
        return ssam__tb_plan_fail(p, SSAM_TB_ESIZE, "SSAM_TB_ESIZE: nx x ny cells overflow long long, no plan");
    rc = ssam_tb_plan_make(p, tt, steps);
    if (rc || p->path != SSAM_TB_TEMPORAL) return rc;
    if (nx * ny < (long long)(SSAM_TB_SMEM_MIN_CELLS)) {
        ssam__tb_plan_onepass(p, steps, "the domain is too small for the staged kernel's passes (under "
                                        "SSAM_TB_SMEM_MIN_CELLS cells): measured slower than one pass per step");
        return 0;
    }
    p->why = "TT steps per pass through device memory, the input rows staged in shared memory "
             "(SSAM_TB_SMEM_RULE: the registers they free hide the latency of a wide shape)";
    return 0;
}

/* 3D: temporal from SSAM_TB3_MIN_CELLS cells and SSAM_TB3_MIN_XFILL of the strips' columns stored
 * (define before the include; 0 and 0: off); docs/ssam.md#tbplan-rules */
#ifndef SSAM_TB3_MIN_CELLS
#define SSAM_TB3_MIN_CELLS (1LL << 27)
#endif
#ifndef SSAM_TB3_MIN_XFILL
#define SSAM_TB3_MIN_XFILL 0.8
#endif

/* ssam_tb_plan_make for nx x ny x nz, the temporal kernel storing stepx columns a strip */
static inline int ssam_tb3_plan_make(ssam_tb_plan *p, int tt, long long steps, long long nx, long long ny, long long nz,
                                     int stepx)
{
    int rc;
    long long strips;
    if (!p) return SSAM_TB_EINVAL;
    if (nx < 1 || ny < 1 || nz < 1 || stepx < 1)
        return ssam__tb_plan_fail(p, SSAM_TB_EINVAL, "SSAM_TB_EINVAL: a size or stepx < 1, no plan");
    strips = nx / stepx + (nx % stepx != 0);
    if (nx > LLONG_MAX / ny || nx * ny > LLONG_MAX / nz || strips > LLONG_MAX / stepx)
        return ssam__tb_plan_fail(p, SSAM_TB_ESIZE, "SSAM_TB_ESIZE: the cells or the strips' columns overflow "
                                                    "long long, no plan");
    rc = ssam_tb_plan_make(p, tt, steps);
    if (rc || p->path != SSAM_TB_TEMPORAL) return rc;
    if (nx * ny * nz < (long long)(SSAM_TB3_MIN_CELLS) ||
        (double)nx < (double)(SSAM_TB3_MIN_XFILL) * (double)(strips * stepx))
        ssam__tb_plan_onepass(p, steps, "the domain is too small for the temporal tiles (under SSAM_TB3_MIN_CELLS "
                                        "cells, or strips storing under SSAM_TB3_MIN_XFILL of their columns): "
                                        "measured slower than one pass per step");
    return 0;
}
#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_TEMPORAL_PLAN_H */
#include <onchip/names_pop.h>
