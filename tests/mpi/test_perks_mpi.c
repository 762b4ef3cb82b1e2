/* tests/mpi/test_perks_mpi.c -- perks/mpi.h under mpirun with CPU ranks (C99): the node-local rank,
 * the agreement check (every rank refuses when one rank's slab differs: n, halo, boundary, plane, its
 * rank, no slab at all (NULL), or a communicator of another size), a NULL on one rank of the
 * collectives (that rank PERKS_ENULL, none left waiting), a peer that never comes (PERKS_ETIMEOUT
 * within the bound), and the host halo exchange on every slab split of several
 * domains (Dirichlet and periodic, halo 1 to 3, plane sizes 1 to 33 bytes' worth), each ghost plane
 * checked against the global plane it mirrors, the own planes unchanged, the padding untouched; the
 * same for the pencils and blocks of perks/decomp3d.h (perks_block3_exchange_mpi: every rank grid of
 * P, 2D and 3D, star and box, halo 1 and 2, every periodic mask, cells of 1, 4 and 12 bytes, each
 * cell against tests/mpi/ghosts.h's rule), their agreement check and refusals.
 * Rank 0 prints the cases; a failure on any rank fails every rank's case.
 *   mpirun -np P build/tests/mpi/test_perks_mpi      (P >= 1; tools/run-tests runs P = 1, 2, 3, 4) */
#include <perks/mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../host/check.h"
#include "ghosts.h"

#ifndef PERKS_HAVE_MPI
#error "test_perks_mpi: no <mpi.h> on the include path (build it with mpicc)"
#endif

static int g_rank, g_size;

/* case_begin with the rank count in the name (the test runs at several P) */
static void begin(const char *what)
{
    static char name[320];
    snprintf(name, sizeof name, "%s [%d ranks]", what, g_size);
    case_begin(name);
}

/* the case's result on every rank: ok only when every rank's CHECKs held */
static void case_end_all(void)
{
    int mine = check__failed_case, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any && !mine) CHECK(0, "another rank failed this case");
    case_end();
}

/* a byte of global plane g, element e: what the exchange must deliver */
static unsigned char val(int g, int e) { return (unsigned char)(g * 31 + e * 7 + 1); }

static void test_local(void)
{
    int local = -1, nlocal = 0, sum = 0;
    begin("perks_mpi_local: a node-local rank in 0 .. nlocal-1, the node's ranks counted once");
    CHECK(perks_mpi_local(MPI_COMM_WORLD, &local, &nlocal) == PERKS_SUCCESS, "rc");
    CHECK(nlocal >= 1 && nlocal <= g_size && local >= 0 && local < nlocal, "local %d of %d", local, nlocal);
    MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    /* one node (mpirun on this machine): the local ranks are the ranks */
    CHECK(nlocal != g_size || (local == g_rank && sum == g_size * (g_size - 1) / 2), "local %d, ranks sum to %d", local, sum);
    /* collective with a NULL on one rank: that rank PERKS_ENULL, the others their answer, none waits */
    const int last = g_rank == g_size - 1;
    const int rc = perks_mpi_local(MPI_COMM_WORLD, last ? NULL : &local, &nlocal);
    CHECK(rc == (last ? PERKS_ENULL : PERKS_SUCCESS), "NULL local on the last rank: rc %d", rc);
    case_end_all();
}

static void test_agree(void)
{
    perks_slab s;
    memset(&s, 0, sizeof s);
    int rc;
    begin("perks_slab_agree_mpi: every rank agrees on one domain; one rank's other n, halo, boundary, rank "
               "or a communicator of another size is PERKS_ESIZE on every rank");
    CHECK(perks_slab_make(&s, 40, g_size, g_rank, 1, PERKS_SLAB_DIRICHLET) == 0, "make");
    CHECK((rc = perks_slab_agree_mpi(&s, 17, MPI_COMM_WORLD)) == PERKS_SUCCESS, "agree: rc %d", rc);
    for (int v = 0; v < 6; v++) { /* the last rank differs */
        perks_slab t;
        memset(&t, 0, sizeof t);
        const int last = g_rank == g_size - 1;
        const int n = last && v == 0 ? 41 : 40, h = last && v == 1 ? 2 : 1;
        const int b = last && v == 2 ? PERKS_SLAB_PERIODIC : PERKS_SLAB_DIRICHLET;
        CHECK(perks_slab_make(&t, n, g_size, g_rank, h, b) == 0, "make %d", v);
        if (last && v == 3) t.rank = g_size > 1 ? 0 : 1; /* not comm's rank */
        /* v 4: another plane; v 5: no slab (its make failed) */
        rc = perks_slab_agree_mpi(last && v == 5 ? NULL : &t, last && v == 4 ? 18 : 17, MPI_COMM_WORLD);
        /* one rank cannot disagree with itself but on its rank */
        const int want = last && v == 5 ? PERKS_ENULL : g_size == 1 && v != 3 && v != 5 ? PERKS_SUCCESS : PERKS_ESIZE;
        CHECK(rc == want, "variant %d: rc %d, want %d", v, rc, want);
    }
    if (g_size > 1) { /* a slab of all P ranks over a communicator of ranks 0 .. P-2 and one of the last */
        MPI_Comm half;
        MPI_Comm_split(MPI_COMM_WORLD, g_rank == g_size - 1, g_rank, &half);
        rc = perks_slab_agree_mpi(&s, 17, half);
        CHECK(rc == PERKS_ESIZE, "a communicator of another size: rc %d", rc);
        MPI_Comm_free(&half);
    }
    case_end_all();
}

static void test_exchange(void)
{
    static const int ns[] = {1, 2, 3, 5, 8, 13, 40};
    char label[240];
    for (int bnd = 0; bnd < 2; bnd++) {
        snprintf(label, sizeof label, "perks_slab_exchange_mpi %s: every ghost plane is the global plane it mirrors, "
                 "own planes and padding unchanged (n 1..40, halo 1..3, planes of 1..33 bytes)",
                 bnd ? "periodic" : "Dirichlet");
        begin(label);
        int cases = 0;
        for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
            for (int halo = 1; halo <= 3; halo++)
                for (int pb = 1; pb <= 33; pb += 16) {
                    perks_slab s;
                    memset(&s, 0, sizeof s);
                    const int n = ns[ni];
                    /* a slab thinner than its halo is refused on the ranks it hits: skip the split on all */
                    int rc = perks_slab_make(&s, n, g_size, g_rank, halo, bnd), any = 0;
                    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
                    if (any) continue;
                    const size_t bytes = (size_t)(s.buf_planes + 2) * pb; /* one padding plane each side */
                    unsigned char *buf = (unsigned char *)malloc(bytes), *b = buf + pb;
                    memset(buf, 0xEE, bytes);
                    for (int p = 0; p < s.own; p++)
                        for (int e = 0; e < pb; e++) b[(size_t)(s.halo + p) * pb + e] = val(s.first + p, e);
                    rc = perks_slab_exchange_mpi(&s, b, (size_t)pb, MPI_COMM_WORLD, 30.0);
                    CHECK(rc == PERKS_SUCCESS, "n %d halo %d: rc %d", n, halo, rc);
                    for (int p = 0; p < s.buf_planes; p++) {
                        const int g = ghosts_plane(&s, n, bnd, p); /* -1: no ghost (0xEE) */
                        for (int e = 0; e < pb; e++) {
                            const unsigned char want = g >= 0 ? val(g, e) : 0xEE;
                            CHECK(b[(size_t)p * pb + e] == want, "n %d halo %d pb %d rank %d: plane %d byte %d is %d, want %d",
                                  n, halo, pb, g_rank, p, e, b[(size_t)p * pb + e], want);
                        }
                    }
                    for (int e = 0; e < pb; e++)
                        CHECK(buf[e] == 0xEE && buf[bytes - 1 - e] == 0xEE, "padding written (n %d halo %d)", n, halo);
                    free(buf);
                    cases++;
                }
        CHECK(cases > 0, "no split ran");
        case_end_all();
    }
    begin("perks_slab_exchange_mpi refuses NULLs, a timeout not > 0 and a halo past INT_MAX bytes");
    {
        perks_slab s;
        memset(&s, 0, sizeof s);
        char c[4] = {0};
        CHECK(perks_slab_make(&s, 4 * g_size, g_size, g_rank, 1, PERKS_SLAB_DIRICHLET) == 0, "make");
        CHECK(perks_slab_exchange_mpi(NULL, c, 1, MPI_COMM_WORLD, 1.0) == PERKS_ENULL, "NULL slab");
        CHECK(perks_slab_exchange_mpi(&s, NULL, 1, MPI_COMM_WORLD, 1.0) == PERKS_ENULL, "NULL buf");
        CHECK(perks_slab_exchange_mpi(&s, c, 1, MPI_COMM_WORLD, 0.0) == PERKS_ESIZE, "timeout 0");
        CHECK(perks_slab_exchange_mpi(&s, c, (size_t)INT_MAX + 1, MPI_COMM_WORLD, 1.0) == PERKS_ESIZE, "2^31 bytes");
        perks_slab z = s;
        z.halo = 0; /* nothing to send */
        CHECK(perks_slab_exchange_mpi(&z, c, 1, MPI_COMM_WORLD, 1.0) == PERKS_SUCCESS, "halo 0");
    }
    case_end_all();
    begin("perks_slab_exchange_mpi: a peer that never comes is PERKS_ETIMEOUT within the bound, ghosts untouched");
    if (g_size > 1) { /* rank 0 alone exchanges, on a communicator of its own (its sends go nowhere else) */
        MPI_Comm c2;
        MPI_Comm_dup(MPI_COMM_WORLD, &c2);
        if (g_rank == 0) {
            perks_slab s;
            memset(&s, 0, sizeof s);
            unsigned char b[64];
            memset(b, 0xEE, sizeof b);
            CHECK(perks_slab_make(&s, 4 * g_size, g_size, 0, 1, PERKS_SLAB_DIRICHLET) == 0, "make");
            const double t0 = MPI_Wtime();
            const int rc = perks_slab_exchange_mpi(&s, b, 1, c2, 0.2);
            const double dt = MPI_Wtime() - t0;
            CHECK(rc == PERKS_ETIMEOUT && dt >= 0.2 && dt < 5, "rc %d after %.3f s", rc, dt);
            CHECK(b[s.recv_at[1]] == 0xEE, "the ghost was written");
        }
        MPI_Barrier(MPI_COMM_WORLD);
        case_end_all();
    } else case_skip("one rank: no peer to wait for");
}

/* one exchange on every rank: grid px x py x pz of n (halo, periodic), cells of eb bytes; 1 if it
 * ran (0: the grid is refused on some rank, skipped on all) */
static int block3_case(int shape, const int *p, const int *n, int halo, int periodic, int eb)
{
    perks_grid3 g;
    perks_block3 b;
    int rc = perks_grid3_make(p[0], p[1], p[2], n[0], n[1], n[2], halo, periodic, &g), any = 0;
    if (!rc) rc = perks_block3_make(&g, g_rank, &b);
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) return 0;
    const size_t cells = (size_t)b.ext[0] * b.ext[1] * b.ext[2], bytes = (cells + 2) * eb;
    unsigned char *buf = (unsigned char *)malloc(bytes), *c = buf + eb; /* a padding cell each side */
    memset(buf, 0xEE, bytes);
    ghosts_fill3(&b, shape, n, c, eb);
    rc = perks_block3_exchange_mpi(&b, shape, c, (size_t)eb, MPI_COMM_WORLD, 30.0);
    CHECK(rc == PERKS_SUCCESS, "grid %dx%dx%d of %dx%dx%d halo %d periodic %d: rc %d", p[0], p[1], p[2], n[0], n[1], n[2],
          halo, periodic, rc);
    int at[3] = {0, 0, 0};
    const size_t bad = ghosts_bad3(&b, shape, n, c, eb, 0xEE, at);
    CHECK(bad == 0, "grid %dx%dx%d of %dx%dx%d halo %d periodic %d eb %d rank %d: %zu bytes wrong, the first in cell "
          "(%d, %d, %d)", p[0], p[1], p[2], n[0], n[1], n[2], halo, periodic, eb, g_rank, bad, at[0], at[1], at[2]);
    for (int e = 0; e < eb; e++) CHECK(buf[e] == 0xEE && buf[bytes - 1 - e] == 0xEE, "padding written");
    free(buf);
    return 1;
}

static void test_block3(void)
{
    static const int ns[][3] = {{5, 4, 3}, {7, 6, 1}, {9, 8, 6}, {4, 4, 4}};
    static const int ebs[] = {1, 4, 12};
    char label[260];
    for (int shape = PERKS_STAR; shape <= PERKS_BOX; shape++) {
        snprintf(label, sizeof label, "perks_block3_exchange_mpi %s: every ghost is the global cell it mirrors, own "
                 "cells%s and padding unchanged (every rank grid, 2D and 3D, halo 1-2, each periodic mask, cells of "
                 "1, 4, 12 bytes)", shape == PERKS_STAR ? "star (faces)" : "box (faces, edges, corners)",
                 shape == PERKS_STAR ? ", edge and corner ghosts" : "");
        begin(label);
        int cases = 0, p[3];
        for (p[2] = 1; p[2] <= g_size; p[2]++)
            for (p[1] = 1; p[1] <= g_size; p[1]++) {
                if (g_size % (p[1] * p[2])) continue;
                p[0] = g_size / (p[1] * p[2]);
                for (size_t ni = 0; ni < sizeof ns / sizeof *ns; ni++)
                    for (int halo = 1; halo <= 2; halo++)
                        for (int per = 0; per < 8; per++)
                            for (size_t ei = 0; ei < sizeof ebs / sizeof *ebs && !check__failed_case; ei++)
                                cases += block3_case(shape, p, ns[ni], halo, per, ebs[ei]);
            }
        CHECK(cases > 0, "no grid ran");
        case_end_all();
    }
    begin("perks_block3_agree_mpi: one grid, shape and cell size on every rank; one rank's other n, ranks, halo, "
          "periodic mask, shape, cell size, rank, no block, an unknown shape or a cell of 0 bytes is PERKS_ESIZE on every "
          "rank (PERKS_ENULL on that one)");
    {
        perks_grid3 g;
        perks_block3 b;
        memset(&b, 0, sizeof b);
        int rc = perks_grid3_choose(g_size, 48, 40, 32, 1, 0, &g);
        CHECK(rc == 0 && perks_block3_make(&g, g_rank, &b) == 0, "choose: rc %d", rc);
        CHECK((rc = perks_block3_agree_mpi(&b, PERKS_BOX, 4, MPI_COMM_WORLD)) == PERKS_SUCCESS, "agree: rc %d", rc);
        const int last = g_rank == g_size - 1;
        for (int v = 0; v < 10 && !check__failed_case; v++) { /* the last rank differs */
            perks_grid3 t;
            perks_block3 tb;
            memset(&tb, 0, sizeof tb);
            int q[3] = {g.p[0], g.p[1], g.p[2]}, n0 = 48, h = 1, per = 0, made, any = 0;
            if (last && v == 0) n0 = 49;
            if (last && v == 1 && g_size > 1) q[0] = g.p[0] == g_size ? 1 : g_size, q[1] = g.p[0] == g_size ? g_size : 1, q[2] = 1;
            if (last && v == 2) h = 2;
            if (last && v == 3) per = PERKS_PERIODIC_Y;
            made = perks_grid3_make(q[0], q[1], q[2], n0, 40, 32, h, per, &t) == 0 && perks_block3_make(&t, g_rank, &tb) == 0;
            made = !made; /* a variant that no grid of this many ranks fits is skipped on every rank */
            MPI_Allreduce(&made, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
            if (any) continue;
            if (last && v == 6) tb.rank = g_size > 1 ? 0 : 1; /* not comm's rank */
            const int shape = last && v == 4 ? PERKS_STAR : last && v == 8 ? 2 : PERKS_BOX;
            const size_t eb = last && v == 5 ? 8 : last && v == 9 ? 0 : 4;
            rc = perks_block3_agree_mpi(last && v == 7 ? NULL : &tb, shape, eb, MPI_COMM_WORLD);
            /* one rank cannot disagree with itself: only a wrong rank, shape or cell size is refused there */
            const int want = last && v == 7 ? PERKS_ENULL
                           : g_size == 1 && v != 6 && v != 8 && v != 9 ? PERKS_SUCCESS : PERKS_ESIZE;
            CHECK(rc == want, "variant %d: rc %d, want %d", v, rc, want);
        }
        if (g_size > 1) { /* a grid of all P ranks over a communicator of ranks 0 .. P-2 and one of the last */
            MPI_Comm half;
            MPI_Comm_split(MPI_COMM_WORLD, last, g_rank, &half);
            rc = perks_block3_agree_mpi(&b, PERKS_BOX, 4, half);
            CHECK(rc == PERKS_ESIZE, "a communicator of another size: rc %d", rc);
            MPI_Comm_free(&half);
        }
    }
    case_end_all();
    begin("perks_block3_exchange_mpi refuses NULLs, a timeout not > 0, a cell of 0 or past INT_MAX bytes, an unknown "
          "shape, a region past INT_MAX bytes; halo 0 sends nothing");
    {
        perks_grid3 g, z;
        perks_block3 b, bz;
        static unsigned char c[16 * 16 * 16]; /* room for a block's cells: a wrong write shows, not overflows */
        memset(c, 0xEE, sizeof c);
        CHECK(perks_grid3_choose(g_size, 8, 8, 8, 1, 0, &g) == 0 && perks_block3_make(&g, g_rank, &b) == 0, "make");
        CHECK(perks_block3_exchange_mpi(NULL, PERKS_STAR, c, 1, MPI_COMM_WORLD, 1.0) == PERKS_ENULL, "NULL block");
        CHECK(perks_block3_exchange_mpi(&b, PERKS_STAR, NULL, 1, MPI_COMM_WORLD, 1.0) == PERKS_ENULL, "NULL buf");
        CHECK(perks_block3_exchange_mpi(&b, PERKS_STAR, c, 1, MPI_COMM_WORLD, 0.0) == PERKS_ESIZE, "timeout 0");
        CHECK(perks_block3_exchange_mpi(&b, PERKS_STAR, c, 0, MPI_COMM_WORLD, 1.0) == PERKS_ESIZE, "0 bytes");
        CHECK(perks_block3_exchange_mpi(&b, PERKS_STAR, c, (size_t)INT_MAX + 1, MPI_COMM_WORLD, 1.0) == PERKS_ESIZE,
              "2^31 bytes");
        CHECK(perks_block3_exchange_mpi(&b, 2, c, 1, MPI_COMM_WORLD, 1.0) == PERKS_ESIZE, "shape 2");
        CHECK(perks_grid3_choose(g_size, 8, 8, 8, 0, 7, &z) == 0 && perks_block3_make(&z, g_rank, &bz) == 0, "halo 0");
        CHECK(perks_block3_exchange_mpi(&bz, PERKS_BOX, c, 1, MPI_COMM_WORLD, 1.0) == PERKS_SUCCESS, "halo 0");
        size_t written = 0;
        for (size_t i = 0; i < sizeof c; i++) written += c[i] != 0xEE;
        CHECK(written == 0, "halo 0 wrote %zu bytes", written);
        perks_grid3 w;
        perks_block3 bw; /* every axis periodic: regions on one rank too */
        CHECK(perks_grid3_choose(g_size, 8, 8, 8, 1, 7, &w) == 0 && perks_block3_make(&w, g_rank, &bw) == 0, "periodic");
        CHECK(perks_block3_exchange_mpi(&bw, PERKS_STAR, c, (size_t)INT_MAX, MPI_COMM_WORLD, 1.0) == PERKS_ESIZE,
              "a region past INT_MAX bytes");
    }
    case_end_all();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    if (g_rank != 0 && !freopen("/dev/null", "w", stdout)) return 1; /* rank 0 prints */
    check_plan(10);
    test_local();
    test_agree();
    test_exchange();
    test_block3();
    int rc = check_exit(), any = 0;
    MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Finalize();
    return any;
}
