/* tests/host/test_perks_decomp.c -- perks/decomp.h on the host: every slab split of 1..60 planes
 * over 1..12 ranks with halos 0..4, both boundaries, against the rules (coverage, balance, the
 * thinnest slab), every exchange matched plane by plane with its receiver in the documented order,
 * and a simulated run: a 3-point stencil, T steps between exchanges (halo T), equal bit for bit to
 * the undivided run.  The overlap parts (interior, edges, their windows; thin slabs) against their
 * rules for every split, halo and reach, and the overlap recipe simulated: the interior from own
 * planes before the exchange, each edge from its window into scratch after it, equal bit for bit
 * to the undivided run.  And the fingerprint and every error code. */
#include <perks/decomp.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void test_split(void)
{
    case_begin("perks decomp: slabs cover the planes evenly, exchanges match plane by plane, ETHIN exactly when thin");
    long splits = 0; /* the splits whose slabs and exchanges were checked (thin ones are skipped) */
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
                        /* the pass window: own planes plus the ghosts of existing peers, nothing else */
                        CHECK(s[r].win[0] == (s[r].peer[0] >= 0 ? 0 : h) &&
                              s[r].win[1] == (s[r].peer[1] >= 0 ? s[r].buf_planes : h + s[r].own),
                              "n %d P %d rank %d: window [%d, %d)", n, P, r, s[r].win[0], s[r].win[1]);
                        for (int b = s[r].win[0]; b < s[r].win[1]; b++)
                            CHECK(perks_slab_global(&s[r], b) >= 0, "window plane %d holds no global plane", b);
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
                    splits++;
                }
    CHECK(splits > 0, "%ld splits checked", splits);
    printf("  %ld splits checked (thin ones refused)\n", splits);
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
    long runs = 0, planes = 0; /* the runs simulated and the planes compared */
    for (int n = 1; n <= 40 && !check__failed_case; n++)
        for (int P = 1; P <= 8; P++)
            for (int T = 1; T <= 3; T++)
                for (int bd = 0; bd < 2; bd++) {
                    perks_slab s[8];
                    double g[40], gn[40], *buf[8], *tmp[8];
                    int ok = 1;
                    for (int r = 0; r < P && ok; r++) ok = perks_slab_make(&s[r], n, P, r, T, bd) == 0;
                    /* refused exactly when thin (n / P < T): a split skipped is one that must be */
                    CHECK(ok == (n / P >= T), "n %d P %d T %d bd %d: slab_make %s", n, P, T, bd, ok ? "accepted" : "refused");
                    if (!ok) continue; /* thin: checked above */
                    runs++;
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
                        for (int b = 0; b < s[r].own; b++, planes++)
                            CHECK(buf[r][T + b] == g[s[r].first + b], "n %d P %d T %d bd %d: rank %d plane %d: %.17g vs %.17g", n,
                                  P, T, bd, r, s[r].first + b, buf[r][T + b], g[s[r].first + b]);
                        free(buf[r]);
                        free(tmp[r]);
                    }
                }
    CHECK(runs > 0 && planes > 0, "%ld runs simulated, %ld planes compared", runs, planes);
    printf("  %ld runs simulated, %ld planes compared\n", runs, planes);
    case_end();
}

/* the part of slab s (0 edge before, 1 inner, 2 edge after) that own buffer plane b lies in */
static int part_of(const perks_slab_parts *q, int b)
{
    if (b >= q->edge[0][0] && b < q->edge[0][1]) return 0;
    if (b >= q->inner[0] && b < q->inner[1]) return 1;
    if (b >= q->edge[1][0] && b < q->edge[1][1]) return 2;
    return -1;
}

static void test_parts(void)
{
    case_begin("perks decomp: slab parts (interior, edges, windows) for every split, halo and reach, thin slabs too");
    int thin_seen = 0, inner_seen = 0;
    for (int n = 1; n <= 48 && !check__failed_case; n++)
        for (int P = 1; P <= 9; P++)
            for (int h = 0; h <= 4; h++)
                for (int bd = 0; bd < 2; bd++)
                    for (int r = 0; r < P && !check__failed_case; r++) {
                        perks_slab s;
                        if (perks_slab_make(&s, n, P, r, h, bd)) continue;
                        for (int reach = 0; reach <= h; reach++) {
                            perks_slab_parts q;
                            const int H = h, own = s.own, lo = s.peer[0] >= 0 ? H - reach : H;
                            const int hi = s.peer[1] >= 0 ? H + own + reach : H + own;
                            memset(&q, 0x5a, sizeof q);
                            CHECK(perks_slab_parts_make(&s, reach, &q) == 0, "n %d P %d r %d halo %d reach %d", n, P, r, h, reach);
                            /* edge[0], inner, edge[1]: contiguous, in order, covering the own planes */
                            CHECK(q.reach == reach && q.edge[0][0] == H && q.edge[0][1] == q.inner[0] && q.inner[0] <= q.inner[1] &&
                                      q.inner[1] == q.edge[1][0] && q.edge[1][0] <= q.edge[1][1] && q.edge[1][1] == H + own &&
                                      q.edge[0][0] <= q.edge[0][1],
                                  "n %d P %d rank %d halo %d reach %d: parts [%d %d) [%d %d) [%d %d)", n, P, r, h, reach, q.edge[0][0],
                                  q.edge[0][1], q.inner[0], q.inner[1], q.edge[1][0], q.edge[1][1]);
                            const int e[2] = {q.edge[0][1] - q.edge[0][0], q.edge[1][1] - q.edge[1][0]};
                            const int need0 = s.peer[0] >= 0 ? reach : 0, need1 = s.peer[1] >= 0 ? reach : 0;
                            const int thin = need0 + need1 > own;
                            if (thin) {
                                thin_seen++;
                                CHECK(q.inner[0] == q.inner[1] && (e[0] == own || e[1] == own), "thin: all boundary, one part");
                                CHECK(s.peer[0] >= 0 ? e[0] == own : e[1] == own, "thin: edge[0] holds it where there is a peer before");
                            } else {
                                inner_seen += q.inner[1] > q.inner[0];
                                CHECK(e[0] == need0 && e[1] == need1, "n %d P %d rank %d halo %d reach %d: edges %d %d, wanted %d %d", n, P,
                                      r, h, reach, e[0], e[1], need0, need1);
                            }
                            for (int k = 0; k < 2; k++)
                                if (s.peer[k] < 0) CHECK(e[k] == 0 || (thin && e[k] == own && s.peer[1 - k] >= 0), "edge without a peer");
                            /* every inner plane reads no ghost plane; every edge plane of a non-thin slab does */
                            for (int b = H; b < H + own; b++) {
                                const int reads_ghost = (s.peer[0] >= 0 && b - reach < H) || (s.peer[1] >= 0 && b + reach >= H + own);
                                const int pt = part_of(&q, b);
                                CHECK(pt >= 0, "plane %d in no part", b);
                                if (pt == 1) CHECK(!reads_ghost, "n %d P %d rank %d reach %d: inner plane %d reads a ghost", n, P, r, reach, b);
                                else if (!thin) CHECK(reads_ghost, "n %d P %d rank %d reach %d: edge plane %d reads no ghost", n, P, r, reach, b);
                            }
                            /* windows: reach past the part, clipped at the domain's edge or the reach into the ghosts */
                            const int *part[3] = {q.edge[0], q.inner, q.edge[1]};
                            const int *win[3] = {q.edge_win[0], q.inner_win, q.edge_win[1]};
                            int big = 0;
                            for (int k = 0; k < 3; k++) {
                                if (part[k][0] == part[k][1]) {
                                    CHECK(win[k][0] == win[k][1], "empty part, window not empty");
                                    continue;
                                }
                                const int w0 = part[k][0] - reach > lo ? part[k][0] - reach : lo;
                                const int w1 = part[k][1] + reach < hi ? part[k][1] + reach : hi;
                                CHECK(win[k][0] == w0 && win[k][1] == w1, "n %d P %d rank %d reach %d: part %d window [%d %d), wanted [%d %d)", n,
                                      P, r, reach, k, win[k][0], win[k][1], w0, w1);
                                CHECK(win[k][0] >= 0 && win[k][1] <= s.buf_planes, "window inside the buffer");
                                if (k == 1) CHECK(win[k][0] >= H && win[k][1] <= H + own, "the inner window reads own planes only");
                                else big = win[k][1] - win[k][0] > big ? win[k][1] - win[k][0] : big;
                            }
                            CHECK(q.scratch_planes == big, "scratch %d, wanted %d", q.scratch_planes, big);
                        }
                    }
    CHECK(thin_seen > 0 && inner_seen > 0, "cases seen: thin %d, with an interior %d", thin_seen, inner_seen);
    case_end();
}

/* T steps of the 3-point stencil over window [w0, w1) of u into v, as a GPU pass does: the end
 * planes of the window keep their values at every step, every plane of the window is written */
static void window_pass(const double *u, double *v, int w0, int w1, int T)
{
    double a[64], b[64];
    const int m = w1 - w0;
    for (int i = 0; i < m; i++) a[i] = u[w0 + i];
    for (int t = 0; t < T; t++) {
        for (int i = 0; i < m; i++) b[i] = (i == 0 || i == m - 1) ? a[i] : 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1];
        memcpy(a, b, sizeof(double) * m);
    }
    for (int i = 0; i < m; i++) v[w0 + i] = a[i];
}

static void test_overlap_simulated(void)
{
    case_begin("perks decomp: the overlap recipe (interior before the exchange, edges through scratch) equals the undivided run bit for bit");
    long runs = 0, planes = 0; /* the runs simulated and the planes compared */
    for (int n = 1; n <= 40 && !check__failed_case; n++)
        for (int P = 1; P <= 8; P++)
            for (int T = 1; T <= 3; T++)
                for (int bd = 0; bd < 2; bd++) {
                    perks_slab s[8];
                    perks_slab_parts q[8];
                    double g[40], gn[40], *cur[8], *nxt[8], scratch[64];
                    int ok = 1;
                    for (int r = 0; r < P && ok; r++)
                        ok = perks_slab_make(&s[r], n, P, r, T, bd) == 0 && perks_slab_parts_make(&s[r], T, &q[r]) == 0;
                    CHECK(ok == (n / P >= T), "n %d P %d T %d bd %d: slab or parts %s", n, P, T, bd, ok ? "accepted" : "refused");
                    if (!ok) continue; /* thin: refused, as it must be */
                    runs++;
                    for (int i = 0; i < n; i++) g[i] = (double)((i * 29 + 5) % 17) / 3.0;
                    for (int r = 0; r < P; r++) {
                        cur[r] = (double *)malloc(sizeof(double) * s[r].buf_planes);
                        nxt[r] = (double *)malloc(sizeof(double) * s[r].buf_planes);
                        for (int b = 0; b < s[r].buf_planes; b++) cur[r][b] = nxt[r][b] = NAN; /* poison: ghosts until exchanged */
                        for (int b = 0; b < s[r].own; b++) cur[r][T + b] = g[s[r].first + b];
                    }
                    for (int it = 0; it < 3; it++) {
                        for (int r = 0; r < P; r++) /* before the exchange: the interior, from own planes only */
                            if (q[r].inner_win[1] > q[r].inner_win[0]) window_pass(cur[r], nxt[r], q[r].inner_win[0], q[r].inner_win[1], T);
                        for (int r = 0; r < P; r++)
                            for (int k = 0; k < 2; k++) {
                                const int p = s[r].peer[k];
                                if (p >= 0) memcpy(cur[p] + s[p].recv_at[1 - k], cur[r] + s[r].send_at[k], sizeof(double) * T);
                            }
                        for (int r = 0; r < P; r++) /* after it: each edge into scratch, its planes copied */
                            for (int k = 0; k < 2; k++) {
                                const int w0 = q[r].edge_win[k][0], w1 = q[r].edge_win[k][1];
                                if (q[r].edge[k][0] == q[r].edge[k][1]) continue;
                                CHECK(w1 - w0 <= q[r].scratch_planes, "scratch too small");
                                window_pass(cur[r] + w0, scratch, 0, w1 - w0, T);
                                memcpy(nxt[r] + q[r].edge[k][0], scratch + (q[r].edge[k][0] - w0),
                                       sizeof(double) * (q[r].edge[k][1] - q[r].edge[k][0]));
                            }
                        for (int r = 0; r < P; r++) { double *x = cur[r]; cur[r] = nxt[r]; nxt[r] = x; }
                        for (int t = 0; t < T; t++) {
                            for (int i = 0; i < n; i++) gn[i] = step3(g, i, n, bd);
                            memcpy(g, gn, sizeof(double) * n);
                        }
                    }
                    for (int r = 0; r < P; r++) {
                        for (int b = 0; b < s[r].own; b++, planes++)
                            CHECK(cur[r][T + b] == g[s[r].first + b], "n %d P %d T %d bd %d: rank %d plane %d: %.17g vs %.17g", n, P, T, bd, r,
                                  s[r].first + b, cur[r][T + b], g[s[r].first + b]);
                        free(cur[r]);
                        free(nxt[r]);
                    }
                }
    CHECK(runs > 0 && planes > 0, "%ld runs simulated, %ld planes compared", runs, planes);
    printf("  %ld runs simulated, %ld planes compared\n", runs, planes);
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
    {
        perks_slab_parts q;
        CHECK(perks_slab_make(&s, 10, 2, 0, 2, 0) == 0, "slab for parts");
        CHECK(perks_slab_parts_make(NULL, 1, &q) == PERKS_ENULL && perks_slab_parts_make(&s, 1, NULL) == PERKS_ENULL, "parts NULL");
        CHECK(perks_slab_parts_make(&s, -1, &q) == PERKS_ESIZE && perks_slab_parts_make(&s, 3, &q) == PERKS_ESIZE,
              "parts: reach outside 0..halo");
        CHECK(perks_slab_parts_make(&s, 2, &q) == 0 && q.inner[0] == 2 && q.inner[1] == 5 && q.edge[0][0] == q.edge[0][1] &&
                  q.edge[1][0] == 5 && q.edge[1][1] == 7 && q.edge_win[1][0] == 3 && q.edge_win[1][1] == 9 &&
                  q.inner_win[0] == 2 && q.inner_win[1] == 7 && q.scratch_planes == 6,
              "10 planes over 2, rank 0, halo 2: inner [2, 5), edge after [5, 7) from window [3, 9)");
        CHECK(perks_slab_make(&s, 9, 3, 1, 2, 0) == 0 && perks_slab_parts_make(&s, 2, &q) == 0 && q.inner[0] == q.inner[1] &&
                  q.edge[0][0] == 2 && q.edge[0][1] == 5 && q.edge_win[0][0] == 0 && q.edge_win[0][1] == 7,
              "a middle slab of 3 planes, reach 2: thin, all in edge[0], window = the whole buffer");
        CHECK(perks_slab_make(&s, 9, 1, 0, 2, 1) == 0 && perks_slab_parts_make(&s, 1, &q) == 0 && q.edge[0][1] - q.edge[0][0] == 1 &&
                  q.edge[1][1] - q.edge[1][0] == 1 && q.edge_win[0][0] == 1 && q.inner_win[0] == 2 && q.inner_win[1] == 11,
              "one periodic rank: both edges (it is its own peer), reach 1 of halo 2");
    }
    case_end();
}

/* sizes near INT_MAX: the buffer's planes (n + 2 halo, the same bound on every rank) stay ints */
static void test_hostile(void)
{
    perks_slab s, before;
    case_begin("perks decomp: n + 2 halo past INT_MAX refused on every rank (slab untouched), INT_MAX itself planned");
    memset(&s, 0x5a, sizeof s);
    before = s;
    CHECK(perks_slab_make(&s, 2147483647 - 10, 1, 0, 6, PERKS_SLAB_DIRICHLET) == PERKS_ESIZE, "n INT_MAX - 10, halo 6");
    CHECK(perks_slab_make(&s, 2147483646, 2, 0, 1000, PERKS_SLAB_PERIODIC) == PERKS_ESIZE &&
              perks_slab_make(&s, 2147483646, 2, 1, 1000, PERKS_SLAB_PERIODIC) == PERKS_ESIZE,
          "two ranks of INT_MAX - 1 planes, halo 1000: both refuse");
    CHECK(perks_slab_make(&s, 5, 1, 0, 2147483647, PERKS_SLAB_DIRICHLET) == PERKS_ESIZE, "halo INT_MAX");
    CHECK(memcmp(&s, &before, sizeof s) == 0, "a refused slab is left unchanged");
    CHECK(perks_slab_make(&s, 2147483647 - 2000, 1, 0, 1000, PERKS_SLAB_PERIODIC) == 0 && s.buf_planes == 2147483647 &&
              s.recv_at[1] == 2147483647 - 1000 && perks_slab_global(&s, s.buf_planes - 1) == 999 &&
              perks_slab_global(&s, 0) == 2147483647 - 3000,
          "n + 2 halo = INT_MAX: planned, the last ghost wraps to plane 999");
    CHECK(perks_slab_own(5, 0, 0) == 0 && perks_slab_first(5, 0, 0) == 0, "no ranks: no planes");
    case_end();
}

/* usage: test_perks_decomp [--list | all]   (--list: the parts run-tests may run, one: all) */
int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        printf("all\n");
        return 0;
    }
    check_plan(6);
    test_split();
    test_simulated();
    test_parts();
    test_overlap_simulated();
    test_errors();
    test_hostile();
    return check_exit();
}
