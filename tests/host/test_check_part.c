/* tests/host/test_check_part.c -- the harness's parts (tests/host/check.h: check_part, case_part): of
 * the cases begun with case_part, part K of N runs the i-th when i % N == K and counts the others as
 * skipped, so that N processes with K = 0 .. N-1 run every case once. */
#include "check.h"

int main(void)
{
    enum { N = 3, CASES = 7 };
    int ran[N][CASES] = {{0}}, total = 0;
    check_plan(N * CASES + 1);
    for (int k = 0; k < N; k++) {
        check_part(k, N);
        check__parted = 0; /* each part as if its own process */
        for (int i = 0; i < CASES; i++)
            if (case_part("a parted case")) {
                ran[k][i] = 1;
                case_end();
            }
    }
    check_part(0, 1);
    case_begin("case_part: part K of N runs exactly the cases i with i % N == K");
    for (int k = 0; k < N; k++)
        for (int i = 0; i < CASES; i++) {
            CHECK(ran[k][i] == (i % N == k), "part %d of %d: case %d ran %d", k, N, i, ran[k][i]);
            total += ran[k][i];
        }
    CHECK(total == CASES, "%d cases ran over the parts, not %d", total, CASES);
    CHECK(check__skips == (N - 1) * CASES, "%d skipped, not %d", check__skips, (N - 1) * CASES);
    case_end();
    return check_exit();
}
