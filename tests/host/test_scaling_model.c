/* tests/host/test_scaling_model.c -- the scaling model of docs/PERFORMANCE.md ("A scaling model"):
 * a step's time on P GPUs = the largest block's cells at the one-GPU rate + one exchange (a latency
 * and the rank's face bytes over its link) + the solver's reductions (a latency each).  The rank grid
 * is perks/decomp3d.h's (slabs 1 x 1 x P, pencils 1 x a x b, blocks perks_grid3_choose).  The
 * latencies are fitted to the 2-GPU points measured on 4 x H200 (NVLink); every other measured
 * point is a prediction, checked here to be within 15 % of its measurement.
 *   test_scaling_model            the checks
 *   test_scaling_model --table    the model's tables, 1 to 512 GPUs (markdown) */
#include <perks/decomp3d.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* links: NVLink 4 on an H200, 18 links of 25 GB/s each way; one 400 Gb/s InfiniBand NIC a GPU
 * past a node of 8 (every face over it: a bound) */
#define B_NVLINK 450e9
#define B_IB 50e9
#define GPUS_A_NODE 8

typedef struct model {
    double lat;    /* s, one exchange (the calls, the launch, the wait), NVLink */
    double lat_ib; /* s, the same across nodes (2 lat: assumed) */
    double red;    /* s, one all-reduce of a scalar */
} model;

typedef struct work {
    double rate;       /* cells/s on one GPU, measured */
    double cell_bytes; /* bytes a face cell sends */
    int halo, reductions;
} work;

/* seconds a step of w on grid p over n; 0 if the grid does not fit */
static double step_time(const model *m, const work *w, const int *n, const int *p)
{
    perks_grid3 g;
    if (perks_grid3_make(p[0], p[1], p[2], n[0], n[1], n[2], w->halo, 0, &g)) return 0;
    double own = 1, faces = 0;
    for (int a = 0; a < 3; a++) own *= (double)((n[a] + p[a] - 1) / p[a]);
    for (int a = 0; a < 3; a++) {
        if (p[a] < 2) continue;
        double face = (double)w->halo;
        for (int b = 0; b < 3; b++)
            if (b != a) face *= (double)((n[b] + p[b] - 1) / p[b]);
        faces += (p[a] > 2 ? 2 : 1) * face; /* an inner rank's two faces (one at p = 2) */
    }
    const int P = g.nranks, ib = P > GPUS_A_NODE;
    const double x = faces == 0 ? 0 : (ib ? m->lat_ib : m->lat) + faces * w->cell_bytes / (ib ? B_IB : B_NVLINK);
    return own / w->rate + x + (P > 1 ? w->reductions * m->red : 0);
}

/* the measured points (4 x H200 of one host, docs/PERFORMANCE.md "Several GPUs"): GCells/s, or ms
 * an iteration for CG */
static const work w3d = {452.9e9, 4, 1, 0}, w2d_weak = {471.8e9, 4, 1, 0}, w2d_strong = {470.7e9, 4, 1, 0},
                  wcg = {512.0 * 512 * 512 / 7.398e-3, 8, 1, 2};

/* the latencies from the 2-GPU points: weak 3d7pt (one exchange), CG (one exchange, two reductions) */
static model fit(void)
{
    model m;
    const double cells = 512.0 * 512 * 512, t2 = 2 * cells / 852.0e9, tcg2 = 3.763e-3;
    m.lat = t2 - cells / w3d.rate - 512.0 * 512 * 4 / B_NVLINK; /* one face of 512^2 floats */
    m.lat_ib = 2 * m.lat;
    m.red = (tcg2 - cells / 2 / wcg.rate - m.lat - 512.0 * 512 * 8 / B_NVLINK) / 2;
    return m;
}

static double predicted(const model *m, const char *what, int P)
{
    if (!strcmp(what, "weak 3d7pt")) {
        const int n[3] = {512, 512, 512 * P}, p[3] = {1, 1, P};
        return (double)n[0] * n[1] * n[2] / step_time(m, &w3d, n, p) / 1e9;
    }
    if (!strcmp(what, "weak 2d5pt")) {
        const int n[3] = {16384, 16384 * P, 1}, p[3] = {1, P, 1};
        return (double)n[0] * n[1] / step_time(m, &w2d_weak, n, p) / 1e9;
    }
    if (!strcmp(what, "strong 2d5pt")) {
        const int n[3] = {32768, 32768, 1}, p[3] = {1, P, 1};
        return 32768.0 * 32768 / step_time(m, &w2d_strong, n, p) / 1e9;
    }
    const int n[3] = {512, 512, 512}, p[3] = {1, 1, P}; /* CG: ms an iteration */
    return step_time(m, &wcg, n, p) * 1e3;
}

static void test_points(void)
{
    static const struct { const char *what; int P; double measured; int fitted; } pts[] = {
        {"weak 3d7pt", 2, 852.0, 1},    {"weak 3d7pt", 4, 1673.1, 0},  {"weak 2d5pt", 2, 923.0, 0},
        {"weak 2d5pt", 4, 1833.5, 0},   {"strong 2d5pt", 2, 941.8, 0}, {"strong 2d5pt", 4, 1857.8, 0},
        {"cg 512^3 (ms)", 2, 3.763, 1}, {"cg 512^3 (ms)", 4, 1.991, 0}};
    const model m = fit();
    case_begin("scaling model: the latencies fitted to two 2-GPU points are positive; every other measured point "
               "(4 x H200) predicted within 15 %");
    CHECK(m.lat > 0 && m.lat < 1e-3 && m.red > 0 && m.red < 1e-3, "fitted latencies %.3g s, %.3g s", m.lat, m.red);
    for (size_t i = 0; i < sizeof pts / sizeof *pts; i++) {
        const double p = predicted(&m, pts[i].what, pts[i].P), e = p / pts[i].measured - 1;
        printf("  %-14s %d GPUs: measured %8.3f, model %8.3f (%+.1f %%)%s\n", pts[i].what, pts[i].P, pts[i].measured, p,
               100 * e, pts[i].fitted ? " (fitted)" : "");
        CHECK(fabs(e) <= (pts[i].fitted ? 1e-9 : 0.15), "%s at %d GPUs: model %.4g, measured %.4g", pts[i].what, pts[i].P, p,
              pts[i].measured);
    }
    case_end();
}

/* the grids of P ranks: slabs, pencils (the squarest a x b), blocks (perks_grid3_choose) */
static int grid_of(int kind, int P, const int *n, int halo, int *p)
{
    perks_grid3 g;
    p[0] = 1, p[1] = 1, p[2] = P;
    if (kind == 1)
        for (int a = (int)sqrt((double)P); a >= 1; a--)
            if (P % a == 0) {
                p[1] = a, p[2] = P / a;
                break;
            }
    if (kind == 2) {
        if (perks_grid3_choose(P, n[0], n[1], n[2], halo, 0, &g)) return 0;
        memcpy(p, g.p, sizeof g.p);
    }
    return 1;
}

static void table(void)
{
    const model m = fit();
    static const char *kinds[] = {"slabs", "pencils", "blocks"};
    printf("fitted: exchange latency %.1f us (NVLink; %.1f across nodes), all-reduce %.1f us\n\n", 1e6 * m.lat,
           1e6 * m.lat_ib, 1e6 * m.red);
    for (int part = 0; part < 3; part++) {
        const work *w = part == 2 ? &wcg : &w3d;
        printf("| %s | GPUs |", part == 0 ? "weak 3d7pt fp32, 512^3 a GPU" : part == 1 ? "strong 3d7pt fp32, 512^3"
                                                                                     : "strong CG 512^3 double");
        for (int P = 1; P <= 512; P *= 2) printf(" %d |", P);
        printf("\n|---|---|");
        for (int P = 1; P <= 512; P *= 2) printf("---:|");
        printf("\n");
        for (int k = 0; k < 3; k++) {
            printf("| %s | efficiency |", kinds[k]);
            double t1 = 0;
            for (int P = 1; P <= 512; P *= 2) {
                int n[3] = {512, 512, 512}, p[3], q[3];
                if (part == 0) { /* the domain grows by cubes of 512^3: as perks_grid3_choose splits 512^3 */
                    const int cube[3] = {512, 512, 512};
                    if (!grid_of(2, P, cube, 1, q)) return;
                    for (int a = 0; a < 3; a++) n[a] = 512 * q[a];
                }
                const double t = grid_of(k, P, n, w->halo, p) ? step_time(&m, w, n, p) : 0;
                if (P == 1) t1 = t;
                const double eff = t > 0 ? (part == 0 ? t1 / t : t1 / (P * t)) : 0;
                if (t > 0) printf(" %.0f %% |", 100 * eff);
                else printf(" – |");
            }
            printf("\n");
        }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--table")) return table(), 0;
    if (argc > 1 && strcmp(argv[1], "all")) return 2; /* no parts ("--list" and others) */
    check_plan(1);
    test_points();
    return check_exit();
}
