/* tests/host/test_props.c -- property test of the host planners and index math (perks/plan.h,
 * cbi/cbi.h, perks/decomp.h, ssam/tbplan.h) under gcc: the contracts of tests/fuzz/fuzz_plan.c
 * (that file is included, its FUZZ_ASSERT made a CHECK that ends the input) over random inputs
 * and inputs made of edge values (0, +-1, INT_MAX, LLONG_MAX, 2^32, 2^62, NaN, infinities ...),
 * a case per module.
 *
 * usage: test_props [--list | all] [--seed N]   (--list: the parts run-tests may run, one: all) */
#include "../fuzz/fuzz.h"

#include "check.h"

/* a broken contract fails the case and ends the input (every helper of fuzz_plan.c returns int) */
#undef FUZZ_ASSERT
#define FUZZ_ASSERT(cond, ...)                                                             \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            CHECK(0, "contract broken: %s", #cond);                                        \
            printf("    ");                                                                \
            printf(__VA_ARGS__);                                                           \
            printf("\n");                                                                  \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

#include "../fuzz/fuzz_plan.c"

#include <string.h>

static uint64_t props_state;
static uint64_t props_rng(void)
{
    props_state ^= props_state >> 12;
    props_state ^= props_state << 25;
    props_state ^= props_state >> 27;
    return props_state * 2685821657736338717ull;
}

/* inputs for module m: random bytes, or bytes that mostly select edge values (selectors < 16) */
static void props_module(int m, const char *name, long inputs)
{
    uint8_t buf[160];
    long i;
    case_begin(name);
    for (i = 0; i < inputs && !check__failed_case; i++) {
        size_t n = 1 + (size_t)(props_rng() % (sizeof buf - 1)), j;
        int edges = (int)(i % 3); /* 0: random, 1: mostly edges, 2: all edges */
        buf[0] = (uint8_t)m;
        for (j = 1; j < n; j++) {
            uint64_t r = props_rng();
            buf[j] = (uint8_t)(edges == 2 || (edges == 1 && (r >> 8) % 4) ? r % 16 : r);
        }
        if (m == 0 && (i & 4) && n > 4) /* perks: a mask of few hostile fields, so that more plans succeed */
            for (j = 1; j <= 3; j++) buf[j] = (uint8_t)(props_rng() & props_rng() & props_rng() & (i & 8 ? 0x10 : 0xff));
        LLVMFuzzerTestOneInput(buf, n);
    }
    case_end();
}

int main(int argc, char **argv)
{
    int a;
    props_state = 0x9E3779B97F4A7C15ull;
    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "--list") == 0) {
            printf("all\n");
            return 0;
        }
        if (strcmp(argv[a], "--seed") == 0 && a + 1 < argc) props_state = strtoull(argv[++a], NULL, 10) | 1;
        else if (strcmp(argv[a], "all") != 0) {
            printf("FAIL test_props %s: no such part (--list names them)\n", argv[a]);
            return 1;
        }
    }
    check_seed(props_state);
    check_plan(5);
    props_module(0, "props: perks/plan.h make, max_blocks, little, tiles2d/3d over random and edge arguments", 100000);
    props_module(1, "props: cbi/cbi.h plans and remaps (bijective below 4096 cells, sampled above)", 20000);
    props_module(2, "props: cbi/cbi.h width choosers and block group (against brute force below 4096 groups)", 60000);
    props_module(3, "props: perks/decomp.h slabs, exchanges landing in the peer's ghosts, parts", 60000);
    props_module(4, "props: ssam/tbplan.h plans (passes cover the steps, codes, the plan of a failure)", 60000);
    return check_exit();
}
