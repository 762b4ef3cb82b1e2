/* examples/kde.cu -- a Gaussian kernel density estimate with ksum.
 *
 *   kde [points.csv [out.csv]]
 *
 * Reads points from a CSV file (one point per line, the same number of comma-separated coordinates on
 * every line; lines starting with '#' and a non-numeric header line are skipped), or, with no file,
 * draws 200000 points from a 2D mixture of three Gaussians.  The bandwidth is Scott's rule,
 * h = sigma n^(-1/(d+4)) with sigma the mean standard deviation of the coordinates.  The density
 *     p(x) = 1 / (n (2 pi h^2)^(d/2)) sum_j exp(-|x - x_j|^2 / 2h^2)
 * is evaluated with one fused ksum call (ksum/smalldim.cuh for d <= 3, else ksum.cuh): targets are the
 * query points, sources the data points, weights all 1/(n (2 pi h^2)^(d/2)).  In 2D the queries are a 256 x 256 grid over the data's
 * bounding box (plus a margin of 3h), and the program prints the mode and the integral of p over the
 * grid (close to 1); in other dimensions the queries are the data points themselves.  The densities at
 * the queries beside 16 data points are checked against a CPU sum in double (the count compared and
 * the worst relative error are printed; none compared, or an error over 1e-3, fails).  With out.csv the grid (x, y, p) or the points' densities
 * are written there. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ksum/ksum.cuh>
#include <ksum/smalldim.cuh>

KSUM_DEFINE(kde_gauss, float, KSUM_GAUSS, ksum_policy<>)                          /* any dim: the fused GEMM path */
KSUM_SMALLDIM_DEFINE(kde_gauss_small, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1>) /* dim <= 3: targets in registers */

#define DIE(...)                                                                                       \
    do {                                                                                               \
        fprintf(stderr, "kde: " __VA_ARGS__);                                                          \
        fprintf(stderr, "\n");                                                                         \
        exit(1);                                                                                       \
    } while (0)
#define CU(call)                                                                                       \
    do {                                                                                               \
        cudaError_t e_ = (call);                                                                       \
        if (e_ != cudaSuccess) DIE("%s: %s", #call, cudaGetErrorString(e_));                           \
    } while (0)

static unsigned long long rng = 88172645463325252ull;
static double unif(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return ((rng >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}
static double gauss(void) { return sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif()); }

/* reads a CSV of points; returns the count, sets *dim and *pts (float, row-major) */
static int read_csv(const char *path, int *dim, float **pts)
{
    FILE *f = fopen(path, "r");
    if (!f) DIE("cannot open %s", path);
    char line[8192];
    int n = 0, cap = 0, d = 0;
    float *p = NULL;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n' || line[0] == '\r') continue;
        float tmp[256];
        int k = 0;
        char *s = line, *end;
        while (k < 256) {
            double x = strtod(s, &end);
            if (end == s) break;
            tmp[k++] = (float)x;
            s = end;
            while (*s == ' ' || *s == '\t') s++;
            if (*s != ',') break;
            s++;
        }
        if (k == 0) {
            if (n == 0) continue; /* a header */
            DIE("%s: line %d is not numeric", path, n + 1);
        }
        if (d == 0) d = k;
        if (k != d) DIE("%s: point %d has %d coordinates, the first has %d", path, n + 1, k, d);
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            p = (float *)realloc(p, (size_t)cap * d * sizeof *p);
            if (!p) DIE("out of memory");
        }
        memcpy(p + (size_t)n * d, tmp, (size_t)d * sizeof *p);
        n++;
    }
    fclose(f);
    if (n == 0) DIE("%s: no points", path);
    *dim = d;
    *pts = p;
    return n;
}

int main(int argc, char **argv)
{
    int n, d;
    float *pts;
    if (argc > 1) {
        n = read_csv(argv[1], &d, &pts);
        printf("kde: %d points of dimension %d from %s\n", n, d, argv[1]);
    } else { /* a mixture of three 2D Gaussians */
        const double mx[3] = {-2, 1.5, 0.5}, my[3] = {0, 1, -2.5}, sd[3] = {0.6, 0.9, 0.4}, wt[3] = {0.5, 0.3, 0.2};
        n = 200000;
        d = 2;
        pts = (float *)malloc((size_t)n * 2 * sizeof *pts);
        for (int i = 0; i < n; i++) {
            double u = unif();
            int c = u < wt[0] ? 0 : u < wt[0] + wt[1] ? 1 : 2;
            pts[2 * i] = (float)(mx[c] + sd[c] * gauss());
            pts[2 * i + 1] = (float)(my[c] + sd[c] * gauss());
        }
        printf("kde: %d points drawn from a mixture of 3 Gaussians in 2D\n", n);
    }
    /* Scott's rule */
    double sig = 0;
    for (int k = 0; k < d; k++) {
        double s = 0, s2 = 0;
        for (int i = 0; i < n; i++) { s += pts[(size_t)i * d + k]; s2 += (double)pts[(size_t)i * d + k] * pts[(size_t)i * d + k]; }
        double var = s2 / n - (s / n) * (s / n);
        sig += sqrt(var > 0 ? var : 0);
    }
    sig /= d;
    if (!(sig > 0)) sig = 1;
    const double h = sig * pow((double)n, -1.0 / (d + 4));
    const double norm = 1.0 / ((double)n * pow(2 * 3.141592653589793 * h * h, d / 2.0));
    /* queries */
    const int G = 256;
    int m;
    float *q;
    double x0 = 0, y0 = 0, dx = 0, dy = 0;
    if (d == 2) {
        double lo[2] = {1e300, 1e300}, hi[2] = {-1e300, -1e300};
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 2; k++) {
                lo[k] = fmin(lo[k], pts[2 * i + k]);
                hi[k] = fmax(hi[k], pts[2 * i + k]);
            }
        x0 = lo[0] - 3 * h; y0 = lo[1] - 3 * h;
        dx = (hi[0] - lo[0] + 6 * h) / (G - 1); dy = (hi[1] - lo[1] + 6 * h) / (G - 1);
        m = G * G;
        q = (float *)malloc((size_t)m * 2 * sizeof *q);
        for (int y = 0; y < G; y++)
            for (int x = 0; x < G; x++) { q[2 * (y * G + x)] = (float)(x0 + x * dx); q[2 * (y * G + x) + 1] = (float)(y0 + y * dy); }
    } else {
        m = n;
        q = pts;
    }
    float *wh = (float *)malloc((size_t)n * sizeof *wh), *ph = (float *)malloc((size_t)m * sizeof *ph);
    for (int j = 0; j < n; j++) wh[j] = (float)norm;
    float *dq, *dp, *dw, *dv;
    CU(cudaMalloc(&dq, (size_t)m * d * 4));
    CU(cudaMalloc(&dp, (size_t)n * d * 4));
    CU(cudaMalloc(&dw, (size_t)n * 4));
    CU(cudaMalloc(&dv, (size_t)m * 4));
    CU(cudaMemcpy(dq, q, (size_t)m * d * 4, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(dp, pts, (size_t)n * d * 4, cudaMemcpyHostToDevice));
    CU(cudaMemcpy(dw, wh, (size_t)n * 4, cudaMemcpyHostToDevice));
    ksum_args k;
    memset(&k, 0, sizeof k);
    k.a = dq; k.b = dp; k.w = dw; k.v = dv; k.m = m; k.n = n; k.dim = d; k.h = h;
    cudaEvent_t e0, e1;
    CU(cudaEventCreate(&e0));
    CU(cudaEventCreate(&e1));
    CU(cudaEventRecord(e0));
    int rc = d <= 3 ? kde_gauss_small_launch(&k, 0) : kde_gauss_launch(&k, 0);
    CU(cudaEventRecord(e1));
    if (rc) DIE("ksum: %s", ksum_strerror(rc));
    CU(cudaEventSynchronize(e1));
    float ms;
    CU(cudaEventElapsedTime(&ms, e0, e1));
    CU(cudaMemcpy(ph, dv, (size_t)m * 4, cudaMemcpyDeviceToHost));
    printf("kde: h = %.4g (Scott), %d queries x %d points in %.3f ms (%.1f Gpairs/s)\n", h, m, n, ms,
           (double)m * n / ms / 1e6);
    /* check densities against the CPU in double where they are not negligible: at the queries nearest
     * to 16 data points spread over the set (in 2D the grid point nearest each; otherwise the points
     * themselves), where every density is at least about norm (the point's own term) */
    double worst = 0;
    int compared = 0;
    const int NCHK = 16;
    for (int t = 0; t < NCHK; t++) {
        const int j0 = (int)((long long)t * n / NCHK);
        int i = j0;
        if (d == 2) {
            int gx = (int)floor((pts[2 * j0] - x0) / dx + 0.5), gy = (int)floor((pts[2 * j0 + 1] - y0) / dy + 0.5);
            gx = gx < 0 ? 0 : gx > G - 1 ? G - 1 : gx;
            gy = gy < 0 ? 0 : gy > G - 1 ? G - 1 : gy;
            i = gy * G + gx;
        }
        double s = 0;
        for (int j = 0; j < n; j++) {
            double r2 = 0;
            for (int c = 0; c < d; c++) {
                double z = (double)q[(size_t)i * d + c] - pts[(size_t)j * d + c];
                r2 += z * z;
            }
            s += exp(-r2 / (2 * h * h));
        }
        s *= norm;
        if (!(s > 1e-30)) continue; /* cannot happen at a query beside a data point; counted below */
        double err = fabs(ph[i] - s) / s;
        if (!(err <= worst)) worst = err; /* a NaN density counts as the worst */
        compared++;
    }
    printf("kde: %d of %d densities (queries beside data points) against a CPU sum in double: worst relative "
           "error %.2e (bound 1e-3)\n", compared, NCHK, worst);
    if (compared == 0) DIE("no density was compared with the CPU reference");
    if (d == 2) {
        double mass = 0, best = -1;
        int bi = 0;
        for (int i = 0; i < m; i++) {
            mass += ph[i] * dx * dy;
            if (ph[i] > best) { best = ph[i]; bi = i; }
        }
        printf("kde: mode %.4g at (%.3f, %.3f); integral over the grid %.4f\n", best, q[2 * bi], q[2 * bi + 1], mass);
        if (fabs(mass - 1) > 0.02) DIE("the density does not integrate to 1");
    }
    if (!(worst <= 1e-3)) DIE("densities differ from the CPU reference");
    if (argc > 2) {
        FILE *f = fopen(argv[2], "w");
        if (!f) DIE("cannot write %s", argv[2]);
        for (int i = 0; i < m; i++) {
            for (int c = 0; c < d; c++) fprintf(f, "%g,", q[(size_t)i * d + c]);
            fprintf(f, "%g\n", ph[i]);
        }
        fclose(f);
        printf("kde: wrote %s\n", argv[2]);
    }
    cudaFree(dq); cudaFree(dp); cudaFree(dw); cudaFree(dv);
    if (q != pts) free(q);
    free(pts); free(wh); free(ph);
    return 0;
}
