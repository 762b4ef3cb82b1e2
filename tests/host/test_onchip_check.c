/* test_onchip_check -- onchip/check.h, the span and overlap tests of the launchers (plain C99):
 * onchip_span against its formula over every small size, and at the 2^60-byte bound; onchip_overlap
 * against a byte-by-byte count over every pair of small ranges (disjoint, touching, contained,
 * identical, partial, empty), NULL, and sizes whose ends would pass the address space. */
#include <limits.h>
#include <stdint.h>

#include <onchip/check.h>

#include "check.h"

/* the span by its definition, for sizes whose products fit */
static long long span_ref(long long rows, long long pitch, long long width, long long es)
{
    if (rows <= 0 || width <= 0) return 0;
    if (es <= 0 || pitch < 0) return -1;
    return ((rows - 1) * pitch + width) * es;
}

static void test_span_small(void)
{
    long long rows, pitch, width, es, n = 0;
    case_begin("onchip_span: every rows, pitch, width, es in -2..6 against ((rows - 1) pitch + width) es");
    for (rows = -2; rows <= 6; rows++)
        for (pitch = -2; pitch <= 6; pitch++)
            for (width = -2; width <= 6; width++)
                for (es = -2; es <= 6; es++) {
                    const long long got = onchip_span(rows, pitch, width, es), want = span_ref(rows, pitch, width, es);
                    CHECK(got == want, "span(%lld, %lld, %lld, %lld) = %lld, not %lld", rows, pitch, width, es, got, want);
                    n++;
                }
    CHECK(n == 9 * 9 * 9 * 9, "%lld cases", n);
    /* the kit's uses: one row, pitch 0 (every row the same bytes), rows wider than the pitch */
    CHECK(onchip_span(1, 0, 5, 4) == 20, "one row of 5 floats");
    CHECK(onchip_span(3, 0, 5, 4) == 20, "pitch 0: the rows overlay");
    CHECK(onchip_span(2, 3, 5, 1) == 8, "rows wider than the pitch");
    case_end();
}

static void test_span_bound(void)
{
    const long long e60 = 1LL << 60;
    case_begin("onchip_span: -1 past 2^60 bytes, never a wrapped product");
    CHECK(onchip_span(1, 0, e60, 1) == e60, "one row of 2^60 bytes");
    CHECK(onchip_span(1, 0, e60 + 1, 1) == -1, "one row of 2^60 + 1 bytes");
    CHECK(onchip_span(1, 0, e60 / 8, 8) == e60, "2^57 doubles");
    CHECK(onchip_span(1, 0, e60 / 8 + 1, 8) == -1, "2^57 + 1 doubles");
    CHECK(onchip_span(2, e60 / 2, e60 / 2, 1) == e60, "2 rows of 2^59 bytes");
    CHECK(onchip_span(2, e60 / 2, e60 / 2 + 1, 1) == -1, "2 rows, the last 2^59 + 1 bytes");
    CHECK(onchip_span(1LL << 40, 1LL << 20, 1LL << 20, 1) == e60, "2^40 rows of 2^20 bytes");
    CHECK(onchip_span(1LL << 40, 1LL << 20, 1LL << 20, 2) == -1, "2^40 rows of 2^20 halves");
    CHECK(onchip_span((1LL << 40) + 1, 1LL << 20, 1, 1) == -1, "2^40 + 1 rows, the last one byte: 2^60 + 1");
    CHECK(onchip_span(LLONG_MAX, LLONG_MAX, LLONG_MAX, 8) == -1, "LLONG_MAX everywhere");
    CHECK(onchip_span(LLONG_MAX, 1, 1, 1) == -1, "LLONG_MAX rows of pitch 1");
    CHECK(onchip_span(LLONG_MAX, 0, 1, 1) == 1, "LLONG_MAX rows of pitch 0: one byte");
    CHECK(onchip_span(3, LLONG_MAX / 2, 1, 1) == -1, "3 rows of pitch LLONG_MAX / 2");
    CHECK(onchip_span(1, 0, LLONG_MAX, 1) == -1, "width LLONG_MAX");
    CHECK(onchip_span(1, 0, 1, LLONG_MAX) == -1, "es LLONG_MAX");
    CHECK(onchip_span(1, 0, 1, 0) == -1 && onchip_span(1, 0, 1, -4) == -1, "es <= 0");
    CHECK(onchip_span(LLONG_MIN, 5, 5, 4) == 0 && onchip_span(5, 5, LLONG_MIN, 4) == 0, "LLONG_MIN rows or width: empty");
    CHECK(onchip_span(2, LLONG_MIN, 5, 4) == -1, "pitch LLONG_MIN");
    case_end();
}

/* how many bytes [a, a + an) and [b, b + bn) (offsets into one buffer) share, counted one by one */
static int shared_bytes(int a, int an, int b, int bn)
{
    int x, n = 0;
    for (x = 0; x < 64; x++) n += x >= a && x < a + an && x >= b && x < b + bn;
    return n;
}

static void test_overlap_small(void)
{
    static char buf[64];
    int a, an, b, bn, n = 0, met = 0;
    case_begin("onchip_overlap: every pair of ranges at offsets 0..11, sizes -1..9, against a byte count");
    for (a = 0; a <= 11; a++)
        for (an = -1; an <= 9; an++)
            for (b = 0; b <= 11; b++)
                for (bn = -1; bn <= 9; bn++) {
                    const int want = shared_bytes(a, an, b, bn) > 0;
                    const int got = onchip_overlap(buf + a, an, buf + b, bn);
                    CHECK(got == want, "[%d, %d + %d) and [%d, %d + %d): %d, not %d", a, a, an, b, b, bn, got, want);
                    n++;
                    met += want;
                }
    CHECK(n == 12 * 11 * 12 * 11 && met > 0 && met < n, "%d pairs, %d meet", n, met);
    /* the named shapes */
    CHECK(!onchip_overlap(buf, 8, buf + 16, 8), "disjoint");
    CHECK(!onchip_overlap(buf, 8, buf + 8, 8) && !onchip_overlap(buf + 8, 8, buf, 8), "touching");
    CHECK(onchip_overlap(buf, 32, buf + 8, 4) && onchip_overlap(buf + 8, 4, buf, 32), "contained");
    CHECK(onchip_overlap(buf, 8, buf, 8) && onchip_overlap(buf + 5, 1, buf + 5, 1), "identical");
    CHECK(onchip_overlap(buf, 8, buf + 7, 8) && onchip_overlap(buf + 7, 8, buf, 8), "partial: one byte");
    CHECK(!onchip_overlap(buf, 0, buf, 8) && !onchip_overlap(buf + 4, 0, buf, 8) && !onchip_overlap(buf, 8, buf + 4, -1),
          "an empty range inside another");
    case_end();
}

static void test_overlap_edges(void)
{
    static char buf[64];
    const void *top = (const void *)(UINTPTR_MAX - 7), *low = (const void *)(uintptr_t)64;
    case_begin("onchip_overlap: NULL, LLONG_MAX sizes, ranges whose ends pass the address space");
    CHECK(!onchip_overlap(NULL, 16, buf, 16) && !onchip_overlap(buf, 16, NULL, 16) && !onchip_overlap(NULL, 16, NULL, 16),
          "NULL meets nothing");
    CHECK(onchip_overlap(buf, LLONG_MAX, buf + 63, 1) && onchip_overlap(buf + 63, 1, buf, LLONG_MAX), "LLONG_MAX bytes from buf");
    CHECK(!onchip_overlap(buf + 8, LLONG_MAX, buf, 8) && !onchip_overlap(buf, 8, buf + 8, LLONG_MAX),
          "LLONG_MAX bytes after a range it touches");
    CHECK(onchip_overlap(buf + 8, LLONG_MAX, buf, 9), "LLONG_MAX bytes, one byte shared");
    CHECK(!onchip_overlap(top, 16, low, 8) && !onchip_overlap(low, 8, top, 16), "a range at the top does not wrap to 0");
    CHECK(onchip_overlap(top, 8, top, 1) && onchip_overlap(low, LLONG_MAX, top, 1) ==
                                                  ((unsigned long long)(UINTPTR_MAX - 71) < (unsigned long long)LLONG_MAX),
          "ranges at the top of the address space");
    case_end();
}

int main(void)
{
    check_plan(4);
    test_span_small();
    test_span_bound();
    test_overlap_small();
    test_overlap_edges();
    return check_exit();
}
