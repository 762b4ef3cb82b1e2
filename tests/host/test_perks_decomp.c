/* tests/host/test_perks_decomp.c -- perks/decomp.h on the host: every slab split of 1..60 planes
 * over 1..12 ranks with halos 0..4, both boundaries, against the rules (coverage, balance, the
 * thinnest slab), every exchange matched plane by plane with its receiver in the documented order,
 * and a simulated run: a 3-point stencil, T steps between exchanges (halo T), equal bit for bit to
 * the undivided run.  And the fingerprint and every error code. */
#include <perks/decomp.h>

#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_split(void)
{
    case_begin("perks decomp: slabs cover the planes evenly, exchanges match plane by plane, ETHIN exactly when thin");
    for (int n = 1; n <= 60 && !check__failed_case; n++)
        for (int P = 1; P <= 12; P++)
            for (int h = 0; h <= 4; h++)
                for (int bd = 0; bd < 2; bd++) {
                    perks_slab s[12];
                    int thin = n / P < h, next = 0, rc = 0;
                    for (int r = 0; r < P; r++) {
                        memset(&s[r], 0x5a, sizeof s[r]);
                        rc |= perks_slab_make(&s[r], n, P, r, h, bd) != (thin ? PERKS_ETHIN : 0);
                    }
                    CHECK(!rc, "n %d P %d halo %d bd %d: status (thin %d)", n, P, h, bd, thin);
                    if (thin || rc) continue;
                    for (int r = 0; r < P; r++) {
                        CHECK(s[r].first == next && s[r].own >= n / P && s[r].own <= n / P + 1 &&
                              s[r].buf_planes == s[r].own + 2 * h, "n %d P %d rank %d: first %d own %d", n, P, r, s[r].first,
                              s[r].own);
                        next += s[r].own;
                        for (int b = 0; b < s[r].own; b++) CHECK(perks_slab_global(&s[r], h + b) == s[r].first + b, "own plane");
                        for (int k = 0; k < 2; k++) {
                            const int q = s[r].peer[k];
                            if (q < 0) {
                                /* no peer: halo 0, or a Dirichlet end whose ghosts lie outside */
                                CHECK(h == 0 || (bd == 0 && (k == 0 ? r == 0 : r == P - 1)), "n %d P %d rank %d k %d: no peer", n,
                                      P, r, k);
                                for (int j = 0; j < h; j++)
                                    CHECK(perks_slab_global(&s[r], (k == 0 ? 0 : h + s[r].own) + j) == -1, "outer ghost");
                                continue;
                            }
                            /* I send to q; q receives from its peer on the other side, which must be me */
                            CHECK(s[q].peer[1 - k] == r, "n %d P %d: rank %d's peer %d does not point back", n, P, r, q);
                            for (int j = 0; j < h; j++) {
                                const int g = perks_slab_global(&s[r], s[r].send_at[k] + j);
                                CHECK(g >= s[r].first && g < s[r].first + s[r].own, "sent planes are own planes");
                                CHECK(perks_slab_global(&s[q], s[q].recv_at[1 - k] + j) == g,
                                      "n %d P %d halo %d bd %d: rank %d plane %d lands on a ghost of rank %d holding %d", n, P,
                                      h, bd, r, g, q, perks_slab_global(&s[q], s[q].recv_at[1 - k] + j));
                            }
                        }
                    }
                    CHECK(next == n, "n %d P %d: the slabs cover %d planes", n, P, next);
                }
    case_end();
}

/* one step of u' = 0.25 u[i-1] + 0.5 u[i] + 0.25 u[i+1]; Dirichlet: the end planes keep their values */
static double step3(const double *u, int i, int n, int bd)
{
    if (bd == PERKS_SLAB_DIRICHLET && (i == 0 || i == n - 1)) return u[i];
    return 0.25 * u[(i - 1 + n) % n] + 0.5 * u[i] + 0.25 * u[(i + 1) % n];
}

static void test_simulated(void)
{
    case_begin("perks decomp: a 3-point stencil over P slabs, T steps between exchanges, equals the undivided run bit for bit");
    for (int n = 1; n <= 40 && !check__failed_case; n++)
        for (int P = 1; P <= 8; P++)
            for (int T = 1; T <= 3; T++)
                for (int bd = 0; bd < 2; bd++) {
                    perks_slab s[8];
                    double g[40], gn[40], *buf[8], *tmp[8];
                    int ok = 1;
                    for (int r = 0; r < P && ok; r++) ok = perks_slab_make(&s[r], n, P, r, T, bd) == 0;
                    if (!ok) continue; /* thin: checked above */
                    for (int i = 0; i < n; i++) g[i] = (double)((i * 37 + 11) % 23) / 7.0;
                    for (int r = 0; r < P; r++) {
                        buf[r] = (double *)calloc((size_t)s[r].buf_planes, sizeof(double));
                        tmp[r] = (double *)calloc((size_t)s[r].buf_planes, sizeof(double));
                        for (int b = 0; b < s[r].own; b++) buf[r][T + b] = g[s[r].first + b];
                    }
                    const int rounds = 3;
                    for (int it = 0; it < rounds; it++) {
                        /* the exchange: copies in the documented order */
                        for (int r = 0; r < P; r++)
                            for (int k = 0; k < 2; k++) {
                                const int q = s[r].peer[k];
                                if (q >= 0) memcpy(buf[q] + s[q].recv_at[1 - k], buf[r] + s[r].send_at[k], sizeof(double) * T);
                            }
                        /* T steps on each buffer: step t is valid on buffer planes [t + 1, buf - t - 1) */
                        for (int r = 0; r < P; r++)
                            for (int t = 0; t < T; t++) {
                                memcpy(tmp[r], buf[r], sizeof(double) * s[r].buf_planes);
                                for (int b = t + 1; b < s[r].buf_planes - t - 1; b++) {
                                    const int gi = perks_slab_global(&s[r], b);
                                    if (gi < 0) continue;
                                    tmp[r][b] = (bd == PERKS_SLAB_DIRICHLET && (gi == 0 || gi == n - 1))
                                                    ? buf[r][b] : 0.25 * buf[r][b - 1] + 0.5 * buf[r][b] + 0.25 * buf[r][b + 1];
                                }
                                memcpy(buf[r], tmp[r], sizeof(double) * s[r].buf_planes);
                            }
                        for (int t = 0; t < T; t++) {
                            for (int i = 0; i < n; i++) gn[i] = step3(g, i, n, bd);
                            memcpy(g, gn, sizeof(double) * n);
                        }
                    }
                    for (int r = 0; r < P; r++) {
                        for (int b = 0; b < s[r].own; b++)
                            CHECK(buf[r][T + b] == g[s[r].first + b], "n %d P %d T %d bd %d: rank %d plane %d: %.17g vs %.17g", n,
                                  P, T, bd, r, s[r].first + b, buf[r][T + b], g[s[r].first + b]);
                        free(buf[r]);
                        free(tmp[r]);
                    }
                }
    case_end();
}

static void test_errors(void)
{
    perks_slab s;
    case_begin("perks decomp: error codes, the fingerprint, strerror");
    CHECK(perks_slab_make(NULL, 10, 2, 0, 1, 0) == PERKS_ENULL, "NULL");
    CHECK(perks_slab_make(&s, 0, 2, 0, 1, 0) == PERKS_ESIZE, "n 0");
    CHECK(perks_slab_make(&s, 10, 0, 0, 1, 0) == PERKS_ESIZE, "P 0");
    CHECK(perks_slab_make(&s, 10, 2, 2, 1, 0) == PERKS_ESIZE && perks_slab_make(&s, 10, 2, -1, 1, 0) == PERKS_ESIZE, "rank");
    CHECK(perks_slab_make(&s, 10, 2, 0, -1, 0) == PERKS_ESIZE, "halo < 0");
    CHECK(perks_slab_make(&s, 10, 2, 0, 1, 2) == PERKS_ESIZE, "boundary 2");
    CHECK(perks_slab_make(&s, 10, 3, 0, 4, 0) == PERKS_ETHIN && perks_slab_make(&s, 10, 3, 0, 3, 0) == 0, "10 over 3: 4, 3, 3");
    CHECK(perks_slab_make(&s, 5, 8, 0, 0, 0) == 0 && s.own == 1 && perks_slab_make(&s, 5, 8, 7, 0, 0) == 0 && s.own == 0,
          "more ranks than planes, halo 0: empty slabs");
    CHECK(perks_slab_fingerprint(100, 4, 1, 0, 64) == perks_slab_fingerprint(100, 4, 1, 0, 64), "fingerprint stable");
    CHECK(perks_slab_fingerprint(100, 4, 1, 0, 64) != perks_slab_fingerprint(101, 4, 1, 0, 64) &&
          perks_slab_fingerprint(100, 4, 1, 0, 64) != perks_slab_fingerprint(100, 4, 2, 0, 64) &&
          perks_slab_fingerprint(100, 4, 1, 0, 64) != perks_slab_fingerprint(100, 4, 1, 1, 64) &&
          perks_slab_fingerprint(100, 4, 1, 0, 64) != perks_slab_fingerprint(100, 4, 1, 0, 65) &&
          perks_slab_fingerprint(100, 4, 1, 0, 64) != perks_slab_fingerprint(100, 3, 1, 0, 64), "fingerprint differs");
    CHECK(strstr(perks_strerror(PERKS_ETHIN), "thinner") != NULL, "strerror");
    case_end();
}

int main(void)
{
    test_split();
    test_simulated();
    test_errors();
    return check_exit();
}
