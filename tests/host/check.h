/* tests/host/check.h -- the smallest test harness, plain C99.  A program declares how many cases it
 * runs (check_plan), and each case prints one line: "ok NAME", "FAIL NAME: why" or "skip NAME: why".
 * check_exit() prints "cases: N ok, N failed, N skipped" and fails the program when the cases that
 * ran are not the ones declared.  tools/run-tests counts those lines and checks the count.
 *
 *   check_plan(3);
 *   case_begin("a"); CHECK(x == 1, "x %d", x); case_end();
 *   case_begin("b"); if (!have_data) { case_skip("no data"); } else { ...; case_end(); }
 *   check_skip("c", "needs sm_90");            (a case that is not run at all)
 *   if (case_part("d")) { ...; case_end(); }   (a case of this part only, else skipped)
 *   return check_exit();
 *
 * A CHECK that fails outside a case (between case_end and the next case_begin) is a failure of
 * the program, printed as "FAIL outside a case (after PREV): ...".  check_seed(s) makes every
 * FAIL line carry "[seed s]", so that a randomized test can be replayed with --seed s.  A harness
 * for device code sets check__hook to a function that reports a pending device error: it is
 * asked at every case_begin (an error there belongs to no case), case_end and check_exit.  With
 * ONCHIP_CASE_TIMES in the environment, case_end also prints "time N s: NAME" for a case that took
 * a second or more. */
#ifndef ONCHIP_TEST_CHECK_H
#define ONCHIP_TEST_CHECK_H
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int check__failed_case;   /* set when a CHECK in the current case fails */
static int check__in_case;       /* between case_begin and case_end / case_skip */
static int check__fails;         /* cases failed in this program */
static int check__ok;            /* cases passed */
static int check__skips;         /* cases skipped */
static int check__outside;       /* failures outside any case */
static int check__planned = -1;  /* the declared number of cases, -1 when none was declared */
static int check__have_seed;
static unsigned long long check__seed;
static const char *check__case = "";
static time_t check__t0; /* when the current case began (ONCHIP_CASE_TIMES: case_end prints its seconds) */
static int check__part_k, check__part_n = 1, check__parted; /* check_part's K, N; case_part's calls so far */
static char check__last[256] = "the start";
/* a pending error of the device, with its message in msg, or 0 */
static int (*check__hook)(char *msg, size_t size);

/* the start of a failure report: 1 when the caller is to print its message */
static inline int check__report(const char *file, int line)
{
    if (check__in_case) {
        if (check__failed_case) return 0;
        check__failed_case = 1;
        printf("FAIL %s: %s:%d: ", check__case, file, line);
    } else {
        check__outside++;
        printf("FAIL outside a case (after %s): %s:%d: ", check__last, file, line);
    }
    return 1;
}
static inline void check__report_end(void)
{
    if (check__have_seed) printf(" [seed %llu]", check__seed);
    printf("\n");
    fflush(stdout);
}

/* CHECK(cond, fmt, ...) -- report the first failure of a case with its context. */
#define CHECK(cond, ...)                                                                   \
    do {                                                                                   \
        if (!(cond) && check__report(__FILE__, __LINE__)) {                                \
            printf(__VA_ARGS__);                                                           \
            check__report_end();                                                           \
        }                                                                                  \
    } while (0)

/* a pending device error, reported where it was found */
static inline void check__poll(const char *file, int line)
{
    char msg[256];
    if (check__hook && check__hook(msg, sizeof msg) && check__report(file, line)) {
        printf("device error: %s", msg);
        check__report_end();
    }
}
static inline void check__set_last(const char *name)
{
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof check__last; i++) check__last[i] = name[i];
    check__last[i] = 0;
}

/* the number of cases this program (or this part of it) runs, skipped ones included */
static inline void check_plan(int cases)
{
    check__planned = cases;
    printf("plan %d cases\n", cases);
    fflush(stdout);
}
/* every FAIL line then names the seed */
static inline void check_seed(unsigned long long seed)
{
    check__seed = seed;
    check__have_seed = 1;
}
static inline void case_begin(const char *name)
{
    check__poll(__FILE__, __LINE__); /* outside a case: an error left by the code before */
    check__case = name;
    check__failed_case = 0;
    check__in_case = 1;
    check__t0 = time(NULL);
}
static inline void case_end(void)
{
    check__poll(__FILE__, __LINE__);
    if (check__failed_case) check__fails++;
    else {
        check__ok++;
        printf("ok %s\n", check__case);
    }
    if (getenv("ONCHIP_CASE_TIMES")) { /* the cases that take seconds (which to split or lighten) */
        const double secs = difftime(time(NULL), check__t0);
        if (secs >= 1) printf("time %.0f s: %s\n", secs, check__case);
    }
    check__in_case = 0;
    check__set_last(check__case);
    fflush(stdout);
}
/* end the current case as skipped (a case whose CHECKs already failed stays failed) */
static inline void case_skip(const char *why)
{
    check__poll(__FILE__, __LINE__);
    if (check__failed_case) check__fails++;
    else {
        check__skips++;
        printf("skip %s: %s\n", check__case, why);
    }
    check__in_case = 0;
    check__set_last(check__case);
    fflush(stdout);
}
/* the cases begun with case_part: the i-th runs when i % n == k, the others are skipped (a long test
 * split over several processes: compute-sanitizer's parts side by side) */
static inline void check_part(int k, int n)
{
    if (n < 1 || k < 0 || k >= n) k = 0, n = 1; /* not a part: the whole */
    check__part_k = k, check__part_n = n;
}
/* case_begin(name) when the case is this part's (returns 1), else the case skipped (returns 0) */
static inline int case_part(const char *name)
{
    if (check__parted++ % check__part_n != check__part_k) {
        case_begin(name);
        case_skip("another --part");
        return 0;
    }
    case_begin(name);
    return 1;
}
/* a case not run at all */
static inline void check_skip(const char *name, const char *why)
{
    case_begin(name);
    case_skip(why);
}
static inline int check_exit(void)
{
    int ran;
    check__poll(__FILE__, __LINE__);
    ran = check__ok + check__fails + check__skips;
    printf("cases: %d ok, %d failed, %d skipped\n", check__ok, check__fails, check__skips);
    if (check__planned >= 0 && ran != check__planned) {
        printf("FAIL case count: %d cases ran, %d declared\n", ran, check__planned);
        check__outside++;
    }
    fflush(stdout);
    return check__fails || check__outside ? 1 : 0;
}
#endif
