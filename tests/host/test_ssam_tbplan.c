/* tests/host/test_ssam_tbplan.c -- ssam/tbplan.h on the host: the compile-time TT rule on the 2D
 * catalogue (the values docs/PERFORMANCE.md measured best or near it), every rule of the run-time
 * plan (each reason reached, the passes counted), and the error code. */
#include <ssam/tbplan.h>

#include <limits.h>
#include <string.h>

#include "check.h"

static void test_rule(void)
{
    case_begin("ssam tbplan: TT rule over the 2D catalogue, fp32 and fp64");
    /* (columns, rows, points): star r = 1..6 (2r + 1, 2r + 1, 4r + 1), boxes r1, r2, 8x8, r4, r5 */
    CHECK(SSAM_TB_TT_RULE(4, 3, 3, 5) == 8 && SSAM_TB_TT_RULE(8, 3, 3, 5) == 8, "2d5pt: 8");
    CHECK(SSAM_TB_TT_RULE(4, 5, 5, 9) == 4 && SSAM_TB_TT_RULE(8, 5, 5, 9) == 4, "2ds9pt: 4");
    CHECK(SSAM_TB_TT_RULE(4, 7, 7, 13) == 4 && SSAM_TB_TT_RULE(8, 7, 7, 13) == 2, "2d13pt: 4 fp32, 2 fp64");
    CHECK(SSAM_TB_TT_RULE(4, 9, 9, 17) == 4 && SSAM_TB_TT_RULE(8, 9, 9, 17) == 1, "2d17pt: 4 fp32, one pass fp64");
    CHECK(SSAM_TB_TT_RULE(4, 11, 11, 21) == 1 && SSAM_TB_TT_RULE(8, 13, 13, 25) == 1, "2d21pt, 2ds25pt: one pass");
    CHECK(SSAM_TB_TT_RULE(4, 3, 3, 9) == 8 && SSAM_TB_TT_RULE(4, 5, 5, 25) == 2 && SSAM_TB_TT_RULE(8, 5, 5, 25) == 2,
          "boxes r1: 8, r2 (25 points): 2");
    CHECK(SSAM_TB_TT_RULE(4, 8, 8, 64) == 1 && SSAM_TB_TT_RULE(4, 9, 9, 81) == 1 && SSAM_TB_TT_RULE(8, 11, 11, 121) == 1,
          "boxes 8x8, r4, r5: one pass");
    CHECK(SSAM_TB_TT_RULE(4, 3, 1, 3) == 8 && SSAM_TB_TT_RULE(4, 1, 4, 3) == 4, "a one-row shape; a one-column one");
    /* wide in x, few rows: the halo columns bound TT (a quarter of the warp: 32 fp32, 16 fp64 columns) */
    CHECK(SSAM_TB_TT_RULE(8, 9, 3, 11) == 2 && SSAM_TB_TT_RULE(4, 17, 3, 19) == 2 && SSAM_TB_TT_RULE(4, 9, 3, 11) == 4 &&
          SSAM_TB_TT_RULE(8, 18, 1, 10) == 1, "x radius 4 fp64: 2; x radius 8 fp32: 2; 4 fp32: 4; 17 columns fp64: 1");
    case_end();
}

static void test_smem_rule(void)
{
    case_begin("ssam tbplan: the staged kernel's rule and TT over the 2D catalogue, its size rule");
    CHECK(SSAM_TB_SMEM_RULE(4, 7, 7, 13) && SSAM_TB_SMEM_TT_RULE(4, 7) == 4, "2d13pt fp32: staged, TT 4");
    CHECK(SSAM_TB_SMEM_RULE(4, 9, 9, 17) && SSAM_TB_SMEM_TT_RULE(4, 9) == 3, "2d17pt fp32: staged, TT 3");
    CHECK(SSAM_TB_SMEM_RULE(8, 9, 9, 17) && SSAM_TB_SMEM_TT_RULE(8, 9) == 2, "2d17pt fp64: staged, TT 2");
    CHECK(SSAM_TB_SMEM_RULE(4, 5, 5, 25) && SSAM_TB_SMEM_TT_RULE(4, 5) == 4, "2d25pt fp32: staged, TT 4");
    CHECK(!SSAM_TB_SMEM_RULE(4, 3, 3, 5) && !SSAM_TB_SMEM_RULE(8, 3, 3, 5) && !SSAM_TB_SMEM_RULE(4, 5, 5, 9) &&
          !SSAM_TB_SMEM_RULE(8, 5, 5, 9) && !SSAM_TB_SMEM_RULE(4, 3, 3, 9) && !SSAM_TB_SMEM_RULE(8, 3, 3, 9),
          "2d5pt, 2ds9pt, the 3x3 box: the register kernel");
    CHECK(!SSAM_TB_SMEM_RULE(8, 7, 7, 13) && !SSAM_TB_SMEM_RULE(8, 5, 5, 25), "2d13pt, 2d25pt fp64: the register kernel");
    CHECK(!SSAM_TB_SMEM_RULE(4, 11, 11, 21) && !SSAM_TB_SMEM_RULE(4, 8, 8, 64) && !SSAM_TB_SMEM_RULE(4, 9, 9, 81) &&
          !SSAM_TB_SMEM_RULE(4, 7, 7, 49), "wide shapes: none (one pass)");
    {
        ssam_tb_plan p;
        CHECK(ssam_tb_smem_plan_make(&p, 3, 100, 2048, 2048) == 0 && p.path == SSAM_TB_TEMPORAL && p.tt == 3 &&
                  p.passes == 34 && strstr(p.why, "shared memory") != NULL,
              "2048^2: the staged kernel, 34 passes");
        CHECK(ssam_tb_smem_plan_make(&p, 3, 100, 1024, 1024) == 0 && p.path == SSAM_TB_ONEPASS && p.tt == 1 &&
                  p.passes == 100 && strstr(p.why, "SSAM_TB_SMEM_MIN_CELLS") != NULL,
              "1024^2: one pass, the reason");
        CHECK(ssam_tb_smem_plan_make(&p, 3, 100, 3LL << 19, 1) == 0 && p.path == SSAM_TB_TEMPORAL &&
                  ssam_tb_smem_plan_make(&p, 3, 100, (3LL << 19) - 1, 1) == 0 && p.path == SSAM_TB_ONEPASS,
              "the threshold, SSAM_TB_SMEM_MIN_CELLS cells");
        CHECK(ssam_tb_smem_plan_make(&p, 3, 1, 4096, 4096) == 0 && p.path == SSAM_TB_ONEPASS &&
                  ssam_tb_smem_plan_make(&p, 1, 100, 4096, 4096) == 0 && p.path == SSAM_TB_ONEPASS,
              "one step, or no temporal kernel: one pass");
        CHECK(ssam_tb_smem_plan_make(NULL, 3, 1, 1, 1) == SSAM_TB_EINVAL &&
                  ssam_tb_smem_plan_make(&p, 3, 100, 0, 5) == SSAM_TB_EINVAL &&
                  ssam_tb_smem_plan_make(&p, 3, -1, 5, 5) == SSAM_TB_EINVAL,
              "NULL plan, an empty domain, negative steps: SSAM_TB_EINVAL");
    }
    case_end();
}

static void test_rule3(void)
{
    case_begin("ssam tbplan: 3D TT rule over the 3D catalogue, and the block rule");
    CHECK(SSAM_TB3_TT_RULE(4, 3, 3, 3, 7) == 2 && SSAM_TB3_TT_RULE(8, 3, 3, 3, 7) == 2, "3d7pt: 2");
    CHECK(SSAM_TB3_TT_RULE(4, 3, 3, 3, 27) == 2 && SSAM_TB3_TT_RULE(8, 3, 3, 3, 27) == 2, "3d27pt: 2");
    CHECK(SSAM_TB3_TT_RULE(4, 5, 5, 5, 13) == 1 && SSAM_TB3_TT_RULE(8, 5, 5, 5, 13) == 1, "3d13pt: one pass");
    CHECK(SSAM_TB3_TT_RULE(4, 5, 5, 5, 125) == 1 && SSAM_TB3_TT_RULE(8, 3, 3, 3, 28) == 1, "3d125pt, 28 points: one pass");
    CHECK(SSAM_TB3_TT_RULE(4, 3, 4, 3, 5) == 1 && SSAM_TB3_TT_RULE(4, 3, 3, 4, 5) == 1 && SSAM_TB3_TT_RULE(4, 1, 1, 2, 2) == 2,
          "4 rows or 4 planes: one pass; a 2-plane shape: 2");
    CHECK(SSAM_TB3_B_RULE(7) == 704 && SSAM_TB3_B_RULE(8) == 512 && SSAM_TB3_B_RULE(27) == 512 && SSAM_TB3_P_RULE == 2,
          "blocks: 704 threads up to 7 points, else 512; 2 rows per warp");
    CHECK(!SSAM_TB3_RING_RULE(7) && SSAM_TB3_RING_RULE(8) && SSAM_TB3_RING_RULE(27), "register ring beyond 7 points");
    CHECK(SSAM_TB3_ZCOL_RULE(3, 3, 3, 7, 1) && !SSAM_TB3_ZCOL_RULE(3, 3, 3, 7, 0) && SSAM_TB3_ZCOL_RULE(5, 5, 5, 13, 1) &&
              !SSAM_TB3_ZCOL_RULE(5, 5, 5, 14, 1) && !SSAM_TB3_ZCOL_RULE(7, 7, 7, 13, 1) && !SSAM_TB3_ZCOL_RULE(3, 3, 3, 8, 0),
          "z-column for z-stars of up to 13 points within 5 x 5 x 5 (3d7pt, 3d13pt), not for wider ones or non-stars");
    CHECK(SSAM_TB3_ZCOL_TT_RULE(3, 3, 3) == 4 && SSAM_TB3_ZCOL_TT_RULE(5, 5, 5) == 2 && SSAM_TB3_ZCOL_TT_RULE(5, 5, 3) == 2 &&
              SSAM_TB3_ZCOL_TT_RULE(3, 3, 5) == 2 && SSAM_TB3_ZCOL_P_RULE == 3 && SSAM_TB3_ZCOL_B_RULE == 512,
          "z-column: TT 4 within 3 x 3 x 3 (3d7pt), else 2 (3d13pt); P 3, 512 threads");
    case_end();
}

static void test_plan3(void)
{
    ssam_tb_plan p;
    case_begin("ssam tbplan: the 3D size rule (cells, strip fill), its reason, the error code");
    CHECK(ssam_tb3_plan_make(&p, 2, 1000, 512, 512, 512, 120) == 0 && p.path == SSAM_TB_TEMPORAL && p.tt == 2 &&
          p.passes == 500, "512^3, 120-column strips: temporal (85%% of the columns stored)");
    CHECK(ssam_tb3_plan_make(&p, 2, 1000, 256, 256, 256, 120) == 0 && p.path == SSAM_TB_ONEPASS && p.tt == 1 &&
          p.passes == 1000 && strstr(p.why, "too small"), "256^3: one pass");
    CHECK(ssam_tb3_plan_make(&p, 2, 10, 1000, 512, 512, 120) == 0 && p.path == SSAM_TB_TEMPORAL, "1000 x 512^2: temporal");
    CHECK(ssam_tb3_plan_make(&p, 2, 10, 600, 512, 512, 120) == 0 && p.path == SSAM_TB_TEMPORAL, "600: 5 full strips");
    CHECK(ssam_tb3_plan_make(&p, 2, 10, 361, 512, 1024, 120) == 0 && p.path == SSAM_TB_ONEPASS,
          "361 columns: 4 strips of 120, 75%% stored: one pass");
    CHECK(ssam_tb3_plan_make(&p, 1, 10, 512, 512, 512, 120) == 0 && p.path == SSAM_TB_ONEPASS && strstr(p.why, "wide"),
          "no kernel: the shape's reason first");
    CHECK(ssam_tb3_plan_make(&p, 2, 1, 512, 512, 512, 120) == 0 && p.path == SSAM_TB_ONEPASS, "1 step");
    CHECK(ssam_tb3_plan_make(&p, 2, 10, 0, 512, 512, 120) == SSAM_TB_EINVAL &&
          ssam_tb3_plan_make(&p, 2, 10, 512, 512, 512, 0) == SSAM_TB_EINVAL && ssam_tb3_plan_make(NULL, 2, 10, 1, 1, 1, 1),
          "sizes < 1, NULL");
    case_end();
}

static void test_plan(void)
{
    ssam_tb_plan p;
    case_begin("ssam tbplan: every rule, the passes, the error code");
    memset(&p, 0x5a, sizeof p);
    CHECK(ssam_tb_plan_make(&p, 8, 1000) == 0, "make");
    CHECK(p.path == SSAM_TB_TEMPORAL && p.tt == 8 && p.passes == 125 && strstr(p.why, "TT steps"), "1000 steps, TT 8");
    CHECK(ssam_tb_plan_make(&p, 8, 1001) == 0 && p.passes == 126, "1001 steps: 126 passes");
    CHECK(ssam_tb_plan_make(&p, 4, 7) == 0 && p.path == SSAM_TB_TEMPORAL && p.tt == 4 && p.passes == 2, "7 steps, TT 4");
    CHECK(ssam_tb_plan_make(&p, 2, 2) == 0 && p.path == SSAM_TB_TEMPORAL && p.passes == 1, "2 steps, TT 2");
    CHECK(ssam_tb_plan_make(&p, 1, 1000) == 0 && p.path == SSAM_TB_ONEPASS && p.tt == 1 && p.passes == 1000 &&
          strstr(p.why, "wide"), "no temporal kernel (TT 1)");
    CHECK(ssam_tb_plan_make(&p, 8, 1) == 0 && p.path == SSAM_TB_ONEPASS && p.passes == 1 &&
          strstr(p.why, "fewer than 2 steps"), "1 step");
    CHECK(ssam_tb_plan_make(&p, 8, 0) == 0 && p.path == SSAM_TB_ONEPASS && p.passes == 0, "0 steps");
    CHECK(ssam_tb_plan_make(NULL, 8, 1) == SSAM_TB_EINVAL, "NULL plan");
    CHECK(ssam_tb_plan_make(&p, 0, 1) == SSAM_TB_EINVAL, "tt 0");
    CHECK(ssam_tb_plan_make(&p, 8, -1) == SSAM_TB_EINVAL, "steps < 0");
    case_end();
}

/* hostile numbers: passes for steps up to LLONG_MAX, sizes whose product passes it, sizes checked on
 * every path, and the plan a failure leaves */
static void test_hostile(void)
{
    ssam_tb_plan p;
    case_begin("ssam tbplan: steps near LLONG_MAX, cells past LLONG_MAX (SSAM_TB_ESIZE), sizes checked on every path");
    CHECK(ssam_tb_plan_make(&p, 8, LLONG_MAX) == 0 && p.path == SSAM_TB_TEMPORAL && p.passes == LLONG_MAX / 8 + 1,
          "LLONG_MAX steps, TT 8: %lld passes", p.passes);
    CHECK(ssam_tb_plan_make(&p, 2147483647, LLONG_MAX) == 0 && p.passes == LLONG_MAX / 2147483647 + 1,
          "TT INT_MAX: %lld passes", p.passes);
    CHECK(ssam_tb_plan_make(&p, 7, LLONG_MAX - 1) == 0 && p.passes == (LLONG_MAX - 1) / 7 + ((LLONG_MAX - 1) % 7 != 0),
          "LLONG_MAX - 1 steps, TT 7");
    CHECK(ssam_tb_smem_plan_make(&p, 3, LLONG_MAX, 4096, 4096) == 0 && p.passes == LLONG_MAX / 3 + 1, "staged, LLONG_MAX steps");
    CHECK(ssam_tb3_plan_make(&p, 2, LLONG_MAX, 512, 512, 512, 120) == 0 && p.passes == LLONG_MAX / 2 + 1, "3D, LLONG_MAX steps");
    memset(&p, 0x5a, sizeof p);
    CHECK(ssam_tb_smem_plan_make(&p, 3, 100, 1LL << 32, 1LL << 32) == SSAM_TB_ESIZE, "2^32 x 2^32 cells: SSAM_TB_ESIZE");
    CHECK(p.path == SSAM_TB_ONEPASS && p.tt == 1 && p.passes == 0 && p.why && strstr(p.why, "SSAM_TB_ESIZE"),
          "a failed plan: one pass of 0 passes, why names the error");
    CHECK(ssam_tb3_plan_make(&p, 2, 10, 1LL << 30, 1LL << 30, 1LL << 30, 120) == SSAM_TB_ESIZE &&
              ssam_tb3_plan_make(&p, 2, 10, 3037000500LL, 3037000500LL, 1, 120) == SSAM_TB_ESIZE,
          "3D cells past LLONG_MAX: SSAM_TB_ESIZE");
    CHECK(ssam_tb3_plan_make(&p, 2, 10, LLONG_MAX, 1, 1, 2) == SSAM_TB_ESIZE,
          "3D strips of 2 over LLONG_MAX columns: SSAM_TB_ESIZE");
    CHECK(ssam_tb3_plan_make(&p, 2, 10, LLONG_MAX - 1, 1, 1, 2) == 0 && p.path == SSAM_TB_TEMPORAL,
          "3D LLONG_MAX - 1 columns in strips of 2: planned");
    /* sizes on every path: no temporal kernel (TT 1), one step, SSAM_TB_NO_TEMPORAL's path alike */
    memset(&p, 0x5a, sizeof p);
    CHECK(ssam_tb_smem_plan_make(&p, 1, 100, 0, 5) == SSAM_TB_EINVAL && p.path == SSAM_TB_ONEPASS && p.passes == 0 &&
              strstr(p.why, "SSAM_TB_EINVAL"),
          "TT 1, nx 0: SSAM_TB_EINVAL");
    CHECK(ssam_tb_smem_plan_make(&p, 3, 1, 5, -1) == SSAM_TB_EINVAL && ssam_tb3_plan_make(&p, 1, 10, 0, 5, 5, 120) == SSAM_TB_EINVAL &&
              ssam_tb3_plan_make(&p, 2, 1, 5, 5, 5, 0) == SSAM_TB_EINVAL && ssam_tb3_plan_make(&p, 1, 1, 5, 5, -5, 1) == SSAM_TB_EINVAL,
          "one step or TT 1 with sizes < 1: SSAM_TB_EINVAL");
    memset(&p, 0x5a, sizeof p);
    CHECK(ssam_tb_plan_make(&p, 0, 5) == SSAM_TB_EINVAL && p.path == SSAM_TB_ONEPASS && p.passes == 0, "tt 0: the empty plan");
    case_end();
}

/* usage: test_ssam_tbplan [--list | all]   (--list: the parts run-tests may run, one: all) */
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        printf("all\n");
        return 0;
    }
    check_plan(6);
    test_rule();
    test_smem_rule();
    test_rule3();
    test_plan3();
    test_plan();
    test_hostile();
    return check_exit();
}
