/* tests/host/test_check_part.c -- the harness's parts (tests/host/check.h: check_part, case_part): of
 * the cases begun with case_part, part K of N runs the i-th when i % N == K and counts the others as
 * skipped, so that N processes with K = 0 .. N-1 run every case once.  Each part runs as a child
 * process (this program with --child K N, its output to a file beside it), whose case lines are
 * read back and checked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { N = 3, CASES = 7 };

static int child(int k, int n)
{
    char name[32];
    check_part(k, n);
    check_plan(CASES);
    for (int i = 0; i < CASES; i++) {
        snprintf(name, sizeof name, "parted %d", i);
        if (case_part(name)) case_end();
    }
    return check_exit();
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "--child")) return child(atoi(argv[2]), atoi(argv[3]));
    check_plan(1);
    case_begin("case_part: part K of N runs exactly the cases i with i % N == K, the others skipped");
    int total = 0;
    for (int k = 0; k < N; k++) {
        char cmd[1200], out[1024], line[256];
        int ran[CASES] = {0}, skipped[CASES] = {0}, i;
        snprintf(out, sizeof out, "%s.part%d.out", argv[0], k);
        snprintf(cmd, sizeof cmd, "\"%s\" --child %d %d > \"%s\"", argv[0], k, N, out);
        CHECK(system(cmd) == 0, "part %d of %d: the child failed", k, N);
        FILE *f = fopen(out, "r");
        CHECK(f != NULL, "part %d: no output", k);
        while (f && fgets(line, sizeof line, f)) {
            if (sscanf(line, "ok parted %d", &i) == 1 && i >= 0 && i < CASES) ran[i]++;
            if (sscanf(line, "skip parted %d", &i) == 1 && i >= 0 && i < CASES) skipped[i]++;
        }
        if (f) fclose(f);
        remove(out);
        for (i = 0; i < CASES; i++) {
            CHECK(ran[i] == (i % N == k) && skipped[i] == (i % N != k), "part %d of %d: case %d ran %d, skipped %d", k, N,
                  i, ran[i], skipped[i]);
            total += ran[i];
        }
    }
    CHECK(total == CASES, "%d cases ran over the parts, not %d", total, CASES);
    case_end();
    return check_exit();
}
