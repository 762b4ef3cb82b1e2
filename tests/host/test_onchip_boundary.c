/* tests/host/test_onchip_boundary.c -- onchip/boundary.h against a brute force: on every small
 * domain (1 .. 7 cells a side; to 2 rmax + 2 for the comparison of two policies), for random point sets, a cell keeps its value under KEEP_EXTENT
 * exactly where one of the shape's points reads outside the domain, and under KEEP_RADIUS exactly
 * where the cell lies within rmax of a face; onchip_boundary_same(a, b) holds exactly when the two
 * policies keep the same cells on every such domain. */
#include <onchip/boundary.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct shape {
    int n, dims, pts[12][3];
} shape;

static unsigned long long rng = 0x9e3779b97f4a7c15ULL;
static int rnd(int lo, int hi) /* uniform in [lo, hi] */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return lo + (int)(rng % (unsigned long long)(hi - lo + 1));
}

static onchip_extent extent_of(const shape *s)
{
    onchip_extent e = {0, 0, 0, 0, 0, 0, 0, s->dims};
    for (int i = 0; i < s->n; i++) {
        const int *p = s->pts[i];
        if (p[0] < e.xlo) e.xlo = p[0];
        if (p[0] > e.xhi) e.xhi = p[0];
        if (p[1] < e.ylo) e.ylo = p[1];
        if (p[1] > e.yhi) e.yhi = p[1];
        if (p[2] < e.zlo) e.zlo = p[2];
        if (p[2] > e.zhi) e.zhi = p[2];
    }
    e.rmax = -e.xlo;
    if (e.xhi > e.rmax) e.rmax = e.xhi;
    if (-e.ylo > e.rmax) e.rmax = -e.ylo;
    if (e.yhi > e.rmax) e.rmax = e.yhi;
    if (-e.zlo > e.rmax) e.rmax = -e.zlo;
    if (e.zhi > e.rmax) e.rmax = e.zhi;
    return e;
}

/* the brute force: does a point of s read outside the domain from cell (x, y, z)? */
static int reads_outside(const shape *s, int x, int y, int z, int nx, int ny, int nz)
{
    for (int i = 0; i < s->n; i++) {
        const int X = x + s->pts[i][0], Y = y + s->pts[i][1], Z = z + s->pts[i][2];
        if (X < 0 || X >= nx || Y < 0 || Y >= ny || Z < 0 || Z >= nz) return 1;
    }
    return 0;
}
static int near_face(int r, int dims, int x, int y, int z, int nx, int ny, int nz)
{
    return x < r || x >= nx - r || y < r || y >= ny - r || (dims == 3 && (z < r || z >= nz - r));
}

/* 1 when policies a and b keep the same cells on every domain up to 2 rmax + 2 a side (where any
 * difference between them shows) */
static int same_everywhere(int a, int b, const onchip_extent *e)
{
    const int m = 2 * e->rmax + 2, zmax = e->dims == 3 ? m : 1;
    if (a != b && (a == ONCHIP_PERIODIC || a == ONCHIP_ZERO_OUTSIDE || b == ONCHIP_PERIODIC || b == ONCHIP_ZERO_OUTSIDE))
        return 0; /* these compute every cell, with other values than a kept cell */
    for (int nz = 1; nz <= zmax; nz++)
        for (int ny = 1; ny <= m; ny++)
            for (int nx = 1; nx <= m; nx++)
                for (int z = 0; z < nz; z++)
                    for (int y = 0; y < ny; y++)
                        for (int x = 0; x < nx; x++)
                            if (onchip_boundary_keeps(a, e, x, y, z, nx, ny, nz) !=
                                onchip_boundary_keeps(b, e, x, y, z, nx, ny, nz))
                                return 0;
    return 1;
}

int main(void)
{
    static const shape fixed[] = {
        {5, 2, {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}}},             /* star r1 */
        {5, 2, {{0, 0, 0}, {-1, 0, 0}, {0, -1, 0}, {-2, 0, 0}, {1, 2, 0}}},            /* upwind */
        {3, 2, {{-3, -3, 0}, {4, 4, 0}, {0, 0, 0}}},                                   /* 8x8's extents */
        {7, 3, {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, {0, 0, -1}, {0, 0, 1}}}, /* 3d7pt */
        {2, 3, {{0, 0, 0}, {0, 0, -2}}},                                               /* z only */
        {1, 2, {{0, 0, 0}}},                                                           /* one point */
    };
    const int nfixed = (int)(sizeof fixed / sizeof fixed[0]), nrand = 300;
    check_plan(4);

    case_begin("names and validity");
    CHECK(onchip_boundary_valid(ONCHIP_KEEP_EXTENT) && onchip_boundary_valid(ONCHIP_ZERO_OUTSIDE), "valid");
    CHECK(!onchip_boundary_valid(-1) && !onchip_boundary_valid(4), "invalid");
    CHECK(strcmp(onchip_boundary_name(ONCHIP_KEEP_RADIUS), "keep-radius") == 0, "name");
    CHECK(onchip_boundary_name(7) == NULL, "name of an invalid policy");
    case_end();

    case_begin("keeps equals the brute force (fixed and random shapes, every domain to 7 a side)");
    for (int k = 0; k < nfixed + nrand; k++) {
        shape s;
        onchip_extent e;
        int bad = 0;
        if (k < nfixed) s = fixed[k];
        else {
            s.dims = rnd(2, 3);
            s.n = rnd(1, 12);
            for (int i = 0; i < s.n; i++) {
                s.pts[i][0] = rnd(-3, 3);
                s.pts[i][1] = rnd(-3, 3);
                s.pts[i][2] = s.dims == 3 ? rnd(-3, 3) : 0;
            }
        }
        e = extent_of(&s);
        for (int nz = 1; nz <= (s.dims == 3 ? 7 : 1) && !bad; nz++)
            for (int ny = 1; ny <= 7 && !bad; ny++)
                for (int nx = 1; nx <= 7 && !bad; nx++)
                    for (int z = 0; z < nz && !bad; z++)
                        for (int y = 0; y < ny && !bad; y++)
                            for (int x = 0; x < nx && !bad; x++) {
                                const int ke = onchip_boundary_keeps(ONCHIP_KEEP_EXTENT, &e, x, y, z, nx, ny, nz);
                                const int kr = onchip_boundary_keeps(ONCHIP_KEEP_RADIUS, &e, x, y, z, nx, ny, nz);
                                const int kp = onchip_boundary_keeps(ONCHIP_PERIODIC, &e, x, y, z, nx, ny, nz);
                                const int kz = onchip_boundary_keeps(ONCHIP_ZERO_OUTSIDE, &e, x, y, z, nx, ny, nz);
                                if (ke != reads_outside(&s, x, y, z, nx, ny, nz) ||
                                    kr != near_face(e.rmax, s.dims, x, y, z, nx, ny, nz) || kp || kz) {
                                    CHECK(0, "shape %d, cell (%d, %d, %d) of %dx%dx%d: extent %d radius %d periodic %d zero %d",
                                          k, x, y, z, nx, ny, nz, ke, kr, kp, kz);
                                    bad = 1;
                                }
                            }
    }
    case_end();

    case_begin("same() holds exactly where the policies keep the same cells everywhere");
    for (int k = 0; k < nfixed + nrand; k++) {
        shape s;
        onchip_extent e;
        if (k < nfixed) s = fixed[k];
        else {
            s.dims = rnd(2, 3);
            s.n = rnd(1, 12);
            for (int i = 0; i < s.n; i++) {
                const int r = rnd(0, 2); /* symmetric shapes now and then */
                s.pts[i][0] = rnd(-r, r);
                s.pts[i][1] = rnd(-r, r);
                s.pts[i][2] = s.dims == 3 ? rnd(-r, r) : 0;
            }
        }
        e = extent_of(&s);
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++)
                CHECK(onchip_boundary_same(a, b, &e) == same_everywhere(a, b, &e), "shape %d, policies %d %d: same %d",
                      k, a, b, onchip_boundary_same(a, b, &e));
    }
    case_end();

    case_begin("the catalogue's shapes: extent and radius agree except for the 8x8 box");
    {
        onchip_extent star = {-1, 1, -1, 1, 0, 0, 1, 2}, box88 = {-3, 4, -3, 4, 0, 0, 4, 2},
                      s3 = {-1, 1, -1, 1, -1, 1, 1, 3};
        CHECK(onchip_boundary_same(ONCHIP_KEEP_EXTENT, ONCHIP_KEEP_RADIUS, &star), "star");
        CHECK(onchip_boundary_same(ONCHIP_KEEP_EXTENT, ONCHIP_KEEP_RADIUS, &s3), "3d7pt");
        CHECK(!onchip_boundary_same(ONCHIP_KEEP_EXTENT, ONCHIP_KEEP_RADIUS, &box88), "8x8");
        CHECK(!onchip_boundary_same(ONCHIP_KEEP_EXTENT, 9, &star), "an invalid policy is never the same");
    }
    case_end();
    return check_exit();
}
