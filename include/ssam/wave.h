#include <onchip/names_push.h>
/* ssam/wave.h -- what a wave-equation code sets up around ssam_queue3d_step (C99, host): central
 * second-derivative weights of any even order, the leapfrog's stability bound, a Ricker wavelet,
 * and the trilinear weights of an off-grid point (a source injected there, a receiver read there).
 *
 * WHAT
 *   ssam_fd2_weights(M, w)      w[0..M]: the order-2M central weights of d2/dx2 at spacing 1,
 *                               f''(0) ~ w[0] f(0) + sum_{r=1..M} w[r] (f(r) + f(-r)); M 1 .. 8
 *   ssam_wave_courant_max(w, M, dims)   the largest v dt / h for which the leapfrog
 *                               u' = 2u - u_prev + (v dt / h)^2 L u is stable, L the dims-D Laplacian
 *                               of the weights w (every axis alike)
 *   ssam_ricker(f, t0, t)       the Ricker wavelet of peak frequency f, centred at t0
 *   ssam_trilinear(x, y, z, &p) the 8 cells around the point (x, y, z) (cell units) and their
 *                               weights, summing to 1 and reproducing linear functions exactly;
 *                               ssam_trilinear_in(x, y, z, nx, ny, nz, &p) the 8 cells inside a domain
 *
 * EXAMPLE
 *   [compile in a function]
 *   double w[9], dt = 1e-3, h = 10.0, vmax = 4500.0;
 *   int rc = ssam_fd2_weights(4, w);                       // 8th order: the 25-point star
 *   double cmax = ssam_wave_courant_max(w, 4, 3);          // 0.453 for order 8 in 3D
 *   if (!rc && vmax * dt / h > cmax) return;               // unstable: a smaller dt
 *   ssam_trilinear_pt p;
 *   rc = ssam_trilinear(12.3, 40.0, 7.75, &p);            // p.x0, p.y0, p.z0, p.w[8]
 *
 * ERRORS (ssam/codes.h)  SSAM_ENULL a NULL output, SSAM_ESIZE M outside 1 .. 8, dims
 *   outside 1 .. 3, a point that is not finite or outside [0, 2^30); on an error nothing is written.
 */
#ifndef SSAM_WAVE_H
#define SSAM_WAVE_H

#include "codes.h"

typedef struct ssam_trilinear_pt {
    int x0, y0, z0; /* the corner: the cells x0 .. x0 + 1, y0 .. y0 + 1, z0 .. z0 + 1 */
    double w[8];    /* w[dx + 2 dy + 4 dz] the weight of cell (x0 + dx, y0 + dy, z0 + dz) */
} ssam_trilinear_pt;

#ifndef __CUDACC_RTC__ /* the functions: host code */
#include <math.h>


/* w[r] = 2 (-1)^(r+1) (M!)^2 / (r^2 (M - r)! (M + r)!), w[0] = -2 sum w[r] */
static inline int ssam_fd2_weights(int M, double *w)
{
    int r, k;
    double sum = 0.0;
    if (!w) return SSAM_ENULL;
    if (M < 1 || M > 8) return SSAM_ESIZE;
    for (r = 1; r <= M; r++) {
        double q = 2.0 / ((double)r * r); /* (M!)^2 / ((M - r)! (M + r)!) = prod_{k=1..r} (M - r + k) / (M + k) */
        for (k = 1; k <= r; k++) q *= (double)(M - r + k) / (double)(M + k);
        w[r] = (r & 1) ? q : -q;
        sum += w[r];
    }
    w[0] = -2.0 * sum;
    return SSAM_SUCCESS;
}

/* the leapfrog is stable while (v dt / h)^2 max|L| <= 4; max|L| over a dims-D grid = dims times the
 * 1D symbol's largest |w0 + 2 sum w_r cos(r k)|, taken here on a fine grid of k in [0, pi] (at k = pi
 * for the central weights).  0 for bad arguments */
static inline double ssam_wave_courant_max(const double *w, int M, int dims)
{
    int i, r;
    double big = 0.0;
    if (!w || M < 1 || M > 8 || dims < 1 || dims > 3) return 0.0;
    for (i = 0; i <= 4096; i++) {
        const double k = 3.14159265358979323846 * i / 4096.0;
        double s = w[0];
        for (r = 1; r <= M; r++) s += 2.0 * w[r] * cos(r * k);
        if (fabs(s) > big) big = fabs(s);
    }
    return big > 0.0 ? sqrt(4.0 / (dims * big)) : 0.0;
}

static inline double ssam_ricker(double f, double t0, double t)
{
    const double a = 3.14159265358979323846 * f * (t - t0), a2 = a * a;
    return (1.0 - 2.0 * a2) * exp(-a2);
}

static inline int ssam_trilinear(double x, double y, double z, ssam_trilinear_pt *p)
{
    const double lim = 1073741824.0; /* 2^30 */
    double fx, fy, fz;
    int i;
    if (!p) return SSAM_ENULL;
    if (!(x >= 0.0 && x < lim && y >= 0.0 && y < lim && z >= 0.0 && z < lim)) return SSAM_ESIZE;
    p->x0 = (int)floor(x), p->y0 = (int)floor(y), p->z0 = (int)floor(z);
    fx = x - p->x0, fy = y - p->y0, fz = z - p->z0;
    for (i = 0; i < 8; i++)
        p->w[i] = ((i & 1) ? fx : 1.0 - fx) * ((i & 2) ? fy : 1.0 - fy) * ((i & 4) ? fz : 1.0 - fz);
    return SSAM_SUCCESS;
}
/* the same for a domain of nx x ny x nz cells (each >= 2): the corner clamped so that all 8 cells are
 * inside (a point on the last cell gets weight 1 there); a point outside [0, n - 1] is SSAM_ESIZE */
static inline int ssam_trilinear_in(double x, double y, double z, int nx, int ny, int nz, ssam_trilinear_pt *p)
{
    ssam_trilinear_pt q;
    double f[3];
    int i, rc;
    if (!p) return SSAM_ENULL;
    if (nx < 2 || ny < 2 || nz < 2 || !(x <= nx - 1) || !(y <= ny - 1) || !(z <= nz - 1)) return SSAM_ESIZE;
    if ((rc = ssam_trilinear(x, y, z, &q))) return rc;
    q.x0 = q.x0 > nx - 2 ? nx - 2 : q.x0, q.y0 = q.y0 > ny - 2 ? ny - 2 : q.y0, q.z0 = q.z0 > nz - 2 ? nz - 2 : q.z0;
    f[0] = x - q.x0, f[1] = y - q.y0, f[2] = z - q.z0;
    for (i = 0; i < 8; i++)
        q.w[i] = ((i & 1) ? f[0] : 1.0 - f[0]) * ((i & 2) ? f[1] : 1.0 - f[1]) * ((i & 4) ? f[2] : 1.0 - f[2]);
    *p = q;
    return SSAM_SUCCESS;
}
#endif /* !__CUDACC_RTC__ */

#endif /* SSAM_WAVE_H */
#include <onchip/names_pop.h>
