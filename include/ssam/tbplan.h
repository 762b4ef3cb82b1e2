#include <onchip/names_push.h>
/* ssam/tbplan.h -- which path runs N steps of a 2D or 3D stencil: temporal blocking (TT steps per
 * pass, ssam/temporal.cuh, ssam/temporal3d.cuh) or one pass per step (ssam/stencil.cuh), and why.
 * Plain C99 (host-tested).
 *
 * WHAT
 *   SSAM_TB_TT_RULE(ES, NX, NY, NPTS)   compile-time: the steps per pass to instantiate for a shape
 *       of NX columns (XHI - XLO + 1), NY rows and NPTS points with elements of ES bytes: the largest
 *       TT in {8, 4, 2} whose windows (TT NY 4 registers: 16 bytes of a row per lane and level) fit
 *       112 registers (fp32 TT 8), 144 (fp32 TT 4, 2) or 96 (fp64) and whose halo columns
 *       TT (NX - 1) are at most a quarter of a warp's 32 V columns (32 in fp32, 16 in fp64), TT 2
 *       at most for shapes of more than 17 points, or 1 (one pass per step) for wide shapes (NY > 9,
 *       NY > 7 in fp64, or more than 25 points).
 *   SSAM_TB_SMEM_RULE(ES, NX, NY, NPTS), SSAM_TB_SMEM_TT_RULE(ES, NY)   1 where AUTO builds the staged
 *       kernel (the input rows in shared memory, SSAM_STENCIL2D_TEMPORAL_DEFINE_SMEM), and its TT
 *   SSAM_TB3_TT_RULE(ES, NX, NY, NZ, NPTS), SSAM_TB3_B_RULE(NPTS), SSAM_TB3_P_RULE, SSAM_TB3_RING_RULE(NPTS)
 *       the same for 3D
 *       shapes, and the block the temporal kernel runs with (below, beside their measurements)
 *   ssam_tb_plan_make(&p, tt, steps)
 *       run-time: given the kernel's TT (1: none) and the step count: p.path, p.tt, p.passes and
 *       p.why (a sentence).  ssam_tb_smem_plan_make(&p, tt, steps, nx, ny): the same for the staged
 *       kernel, one pass below SSAM_TB_SMEM_MIN_CELLS cells; ssam_tb3_plan_make: 3D.
 *   The rules are measurements (bench/ssam_temporal, 8192^2,
 *   docs/PERFORMANCE.md#ssam-temporal-blocking).  H200, against one pass per step:
 *     - fp32: 2d5pt TT 2/4/8/12 = 1.9/3.3/4.2/3.7x (TT 12: 144 window registers); 2d9pt TT 4 2.4x,
 *       TT 8 2.0x; 2d13pt TT 4 1.5x, TT 2 1.5x; 2d17pt TT 4 1.26x (144 window registers), TT 2
 *       1.12x; 2d25pt (25 points) TT 2 and 4 1.34x;
 *     - fp64: 2d13pt TT 2 1.38x, TT 4 1.13x; 2d17pt TT 2 0.90x (180 registers: 2 blocks an SM),
 *       TT 4 0.82x;
 *     - wide shapes lose or tie at every TT: 2d21pt 0.99-1.06x (TT 3), 2ds25pt 0.92x, 2d64pt
 *       0.89x, 2d81pt 0.35x;
 *   and H100: temporal blocking also wins where the domain fits in the L2 (2d5pt fp32
 *   1024^2: TT 4 1.9x, 2048^2: TT 8 2.5x; fp64 1024^2 2.7x) and beats the perks path
 *   (perks/stencil.cuh AUTO: 1.5x, 2.1x, 2.2x there), so the plan never picks perks for these
 *   stencils; both paths cost one launch per TT steps or fewer, so small domains gain too.
 *
 * EXAMPLE
 *   [compile in a function]
 *     enum { TT = SSAM_TB_TT_RULE(4, 3, 3, 5) };          // 2d5pt in float: 8
 *     ssam_tb_plan p;
 *     if (ssam_tb_plan_make(&p, TT, 1000) == 0) printf("%s: %lld passes (%s)\n",
 *         p.path == SSAM_TB_TEMPORAL ? "temporal" : "one pass per step", p.passes, p.why);
 *   (SSAM_STENCIL2D_TEMPORAL_AUTO_DEFINE in ssam/temporal.cuh does this for a shape.)
 *
 * LIMITS
 *   The rules are fitted to one GPU; SSAM_TB_NO_TEMPORAL defined before the include makes every
 *   plan one pass per step.  Codes: 0; SSAM_TB_EINVAL (1) for a NULL plan, tt < 1, steps < 0, or
 *   (the 2D and 3D planners, on every path) a size or stepx < 1; SSAM_TB_ESIZE (2) for a domain
 *   whose cells (nx ny, nx ny nz) or whose strips' columns (ceil(nx / stepx) stepx) pass LLONG_MAX.
 *   On an error a non-NULL plan is one pass per step with 0 passes and why naming the error.
 *   passes is ceil(steps / tt) for every steps up to LLONG_MAX.
 */
#ifndef SSAM_TBPLAN_H
#define SSAM_TBPLAN_H

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

/* The staged kernel (SSAM_STENCIL2D_TEMPORAL_DEFINE_SMEM: the input rows in shared memory, the
 * registers of their window and prefetch freed) and its TT, for the shapes where it measured faster
 * than the register kernel (H200, bench/ssam_temporal --steps 1000 --no-small --no-large --only NAME,
 * 8192^2, GCells/s, staged against the register kernel at its TT): fp32 2d13pt TT 4 747 vs 647,
 * 2d17pt TT 3 540 vs TT 4 509, 2d25pt TT 4 589 vs 537 (TT 2 560); fp64 2d17pt TT 2 225 (the register
 * kernel 204, one pass 214).  Not taken (slower or equal): fp32 2d9pt TT 4 1026 vs 1058; fp64 2d9pt
 * TT 4 498 vs 501, 2d13pt TT 2 281 vs 287, 2d25pt TT 4 280 vs 291; 2d21pt fp32 TT 3 409 (one pass 382:
 * the TT rule keeps one pass for NY > 9).  At 16384^2 (--size 16384 --steps 300): fp32 2d13pt 789
 * vs 697, 2d17pt 574 vs 530, 2d25pt 658 vs 631; fp64 2d17pt 233 vs one pass 231. */
#define SSAM_TB_SMEM_RULE(ES, NX, NY, NPTS)                                                                 \
    ((ES) == 4 ? (((NY) == 7 || (NY) == 9) && (NPTS) <= 17) || ((NY) == 5 && (NPTS) > 17 && (NPTS) <= 25)    \
               : (NY) == 9 && (NPTS) == 2 * (NY)-1)
#define SSAM_TB_SMEM_TT_RULE(ES, NY) ((NY) >= 9 ? ((ES) == 4 ? 3 : 2) : 4)

/* 3D (ssam/temporal3d.cuh): TT 2 for shapes within one plane and one row of the cell (NZ, NY <= 3)
 * and at most 27 points, else 1; threads per block 704 for up to 7 points (the windows of a star
 * fit the 93 registers that leaves), else 512; 2 rows per warp.  704 threads (a tile of 44 rows,
 * 40 stored) against 768 (48, 44), H200, one pass of TT 2: 3d7pt fp32 +0.7 to +10.9 %
 * at 256^3 .. 1024^3 (512^3: 554 -> 614 GCells/s: 130 blocks fill 130 of 132 SMs where 768 left
 * 12 idle), fp64 +1.2 to +7.0 % from 512^3 up (smaller cubes run one pass).  Measured (H100,
 * bench/ssam_temporal3d, 512^3, 100 steps, against ssam's best one-pass kernel): 3d7pt TT 2/3/4 =
 * 1.38/1.33/1.19x fp32 and 1.69/1.44/1.26x fp64 (TT 2 at 768 threads, 3 and 4 at 512 and 384: the
 * shared memory of TT levels of NZ + 1 planes bounds the tile); 3d27pt TT 2 1.05x fp32, 1.25x fp64;
 * 3d13pt TT 2 0.84x fp32, 1.02x fp64 (one pass); 3d125pt: its window exceeds the registers. */
#define SSAM_TB3_TT_RULE(ES, NX, NY, NZ, NPTS) (((NZ) <= 3 && (NY) <= 3 && (NX) <= 3 && (NPTS) <= 27) ? 2 : 1)
#define SSAM_TB3_B_RULE(NPTS) ((NPTS) <= 7 ? 704 : 512)
/* the register ring (SSAM_STENCIL3D_TEMPORAL_DEFINE_RING) beyond 7 points, at 512 threads: 3d27pt TT 2
 * 1.16x fp32, 1.30x fp64 with it against 1.06x, 1.26x without (same run, 1000 steps); 3d7pt with it
 * at 512 threads (473 fp32, 262 fp64 GCells/s) does not beat 768 threads without it (473, 284), and
 * spills at 768 (85 registers) */
#define SSAM_TB3_RING_RULE(NPTS) ((NPTS) > 7)
#define SSAM_TB3_P_RULE 2
/* the z-column kernel (SSAM_STENCIL3D_TEMPORAL_DEFINE_ZCOL) for z-stars (ZSTAR: the points off the
 * centre plane lie on the cell's own row, and the shape reaches both z neighbours) of up to 13 points
 * within 5 x 5 x 5 (3d7pt, 3d13pt): TT 4 within 3 x 3 x 3, else TT 2 (NZ 5: its NZ - 1 = 4 planes a
 * level leave room for TT 2 at 48 rows); 3 rows per warp, 512 threads.  Measured (H200, 1000 steps,
 * bench/ssam_temporal3d, GCells/s, 512^3 / 1024^3 (300 steps)): 3d7pt fp32 TT 4 756 / 890 (one pass
 * 444 / 435; TT 3 698 / 871; the shared-ring kernel of the rules above, TT 2 at 704 threads, 681 /
 * 727), fp64 TT 4 360 / 398 (TT 2 348 / 347; one pass 217 / 213); 3d13pt TT 2 fp32 430 / 497 (one
 * pass 368 / 346), fp64 209 / 220 (155 / 158), where the shared-ring kernel runs 330 / 409 and 169 /
 * 184.  At 256^3 the z-column kernel loses (3d13pt 0.58x fp32, 0.88x fp64): SSAM_TB3_MIN_CELLS. */
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

#ifndef __CUDACC_RTC__ /* the planners are host code: under NVRTC the rules (macros) only */
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

/* tt the temporal kernel's steps per pass (SSAM_TB_TT_RULE; 1: there is none), steps the step count */
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

/* The staged kernel (2D) needs a domain large enough for its deep passes: at 1024^2 it runs below one
 * pass per step (H200, 1000 steps, GCells/s: 2d13pt fp32 TT 4 128 vs 174, 2d17pt fp32 TT 3 96 vs 107,
 * fp64 TT 2 88 vs 103), at 1448^2 above (263 vs 152, 200 vs 157, 128 vs 123).  Temporal from
 * SSAM_TB_SMEM_MIN_CELLS cells on (define it before the include to change it; 0 turns it off). */
#ifndef SSAM_TB_SMEM_MIN_CELLS
#define SSAM_TB_SMEM_MIN_CELLS (3LL << 19)
#endif

/* ssam_tb_plan_make for a 2D domain of nx x ny cells whose temporal kernel is the staged one */
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

/* 3D: the domain must be large enough for the temporal tiles.  Measured (H100, heat3d, 3d7pt fp32,
 * TT 2): 512^3 1.38x one pass per step, 256^3 0.87x (3 strips of 120 columns for 256: 71% of the
 * computed columns are stored; 18 tiles need 8 z segments of 32 planes, each streaming 6 more).
 * Temporal only from SSAM_TB3_MIN_CELLS cells on and where the strips store at least
 * SSAM_TB3_MIN_XFILL of the columns they compute (define either before the include to change it;
 * 0 and 0 turn the size rule off). */
#ifndef SSAM_TB3_MIN_CELLS
#define SSAM_TB3_MIN_CELLS (1LL << 27)
#endif
#ifndef SSAM_TB3_MIN_XFILL
#define SSAM_TB3_MIN_XFILL 0.8
#endif

/* ssam_tb_plan_make for a 3D domain nx x ny x nz whose temporal kernel stores stepx columns per strip */
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

#endif /* SSAM_TBPLAN_H */
#include <onchip/names_pop.h>
