/* tests/host/check.h -- the smallest test harness: one "ok NAME" or "FAIL NAME: why" line per case.
 * tools/run-tests counts those lines.  Plain C99. */
#ifndef ONCHIP_TEST_CHECK_H
#define ONCHIP_TEST_CHECK_H
#include <stdio.h>

static int check__failed_case; /* set when a CHECK in the current case fails */
static int check__fails;       /* cases failed in this program */

/* CHECK(cond, fmt, ...) -- report the first failure of a case with its context. */
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            if (!check__failed_case) {                                                     \
                printf("FAIL %s: %s:%d: ", check__case, __FILE__, __LINE__);               \
                printf(__VA_ARGS__);                                                       \
                printf("\n");                                                              \
            }                                                                              \
            check__failed_case = 1;                                                        \
        }                                                                                  \
    } while (0)

static const char *check__case = "";
static inline void case_begin(const char *name)
{
    check__case = name;
    check__failed_case = 0;
}
static inline void case_end(void)
{
    if (check__failed_case) check__fails++;
    else printf("ok %s\n", check__case);
    fflush(stdout);
}
static inline int check_exit(void) { return check__fails ? 1 : 0; }
#endif
