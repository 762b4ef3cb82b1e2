/* tests/common/bounds_stencil.h -- per-cell error bounds of the stencil tests (host code; include
 * after math.h, string.h and ssam_ref.h).
 *
 * A whole-domain norm lets a few wrong cells through; these checks bound every cell by what its own
 * arithmetic can give:
 *   |out_i - ref_i| <= beta * mag_i,   mag_i = sum_k |c_k x_k| over the points of cell i,
 * ref and mag in double from the input the kernel read (bs_step) or, for N fused steps, the N steps
 * of ref and of |c| on |u0| (bs_steps: mag is then (|S|^N |u0|)_i, which bounds N steps' rounding
 * to first order, beta being N times one step's).  beta is the caller's, derived from the kernel's
 * arithmetic (products and sums per mode); for a storage type that rounds once at the store, the
 * cell must lie in [round(ref - beta mag), round(ref + beta mag)] (round monotone: the kernel's sum
 * lies within beta mag of ref, and its stored value is that sum rounded).  Dirichlet cells (the
 * stencil leaves the domain) must equal ref exactly: they keep their input.  Padding is skipped. */
#ifndef ONCHIP_TEST_BOUNDS_STENCIL_H
#define ONCHIP_TEST_BOUNDS_STENCIL_H

/* one step in double from in: out = sum c[I] in(cell + d), mag = sum |c[I] in(cell + d)|; Dirichlet
 * cells out = in, mag = 0 (periodic: every cell computed, indices wrapped) */
static inline void bs_step(const int (*pts)[4], int npts, const double *c, const double *in, double *out, double *mag,
                           int nx, int ny, int nz, long long pitch, long long plane, int periodic)
{
    int e[6];
    ref_stencil_extents(pts, npts, e);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const long long o = z * plane + y * pitch + x;
                if (!periodic && !ref_stencil_inside(e, x, y, z, nx, ny, nz)) { out[o] = in[o]; mag[o] = 0; continue; }
                double s = 0, m = 0;
                for (int i = 0; i < npts; i++) {
                    const int *p = pts[i];
                    const double t = c[p[0]] * in[ref_index(z + p[3], nz, SSAM_BORDER_WRAP) * plane +
                                                  ref_index(y + p[2], ny, SSAM_BORDER_WRAP) * pitch +
                                                  ref_index(x + p[1], nx, SSAM_BORDER_WRAP)];
                    s += t;
                    m += fabs(t);
                }
                out[o] = s;
                mag[o] = m;
            }
}

/* N steps from u0 (n elements, the layout's padding included): ref = S^N u0, mag = |S|^N |u0| (|S|:
 * the same steps with |c|); scratch: 2 n doubles */
static inline void bs_steps(const int (*pts)[4], int npts, const double *c, const double *u0, int N, double *ref,
                            double *mag, double *scratch, size_t n, int nx, int ny, int nz, long long pitch,
                            long long plane, int periodic)
{
    double ca[256], *u = ref, *ua = mag, *v = scratch, *va = scratch + n;
    int nc = 0;
    for (int i = 0; i < npts; i++)
        if (pts[i][0] + 1 > nc) nc = pts[i][0] + 1;
    for (int i = 0; i < nc && i < 256; i++) ca[i] = fabs(c[i]);
    /* an even number of swaps leaves the result in ref and mag: start in the buffer the last step
     * writes */
    if (N % 2) { u = v; ua = va; v = ref; va = mag; }
    for (size_t i = 0; i < n; i++) u[i] = u0[i], ua[i] = fabs(u0[i]);
    for (int s = 0; s < N; s++) {
        ref_stencil_step(pts, npts, c, u, v, nx, ny, nz, pitch, plane, periodic);
        ref_stencil_step(pts, npts, ca, ua, va, nx, ny, nz, pitch, plane, periodic);
        double *t = u; u = v; v = t;
        t = ua; ua = va; va = t;
    }
}

/* the outcome of one per-cell comparison */
typedef struct bs_res {
    long long cells;    /* cells compared */
    long long bad;      /* cells outside their bound (NaN included) */
    long long kept_bad; /* Dirichlet cells that differ from their input */
    long long amb;      /* store rounding: cells whose interval holds more than one value */
    long long off;      /* store rounding: cells that differ from round(ref) */
    long long first;    /* the first bad cell's offset, -1 when none */
    double g, ref, lo, hi; /* there: the kernel's value, the reference, the allowed interval */
    double worst;       /* no rounding: the largest |out - ref| / (beta mag) over cells with mag > 0 */
} bs_res;

/* out (the kernel's values as doubles, the layout's padding included) against ref within beta * mag
 * per cell; round NULL (out itself within the bound) or the store type's rounding of a double;
 * e: the shape's extents (ref_stencil_extents), for the Dirichlet cells */
static inline bs_res bs_check(const double *out, const double *ref, const double *mag, double beta,
                              double (*round)(double), const int *e, int periodic, int nx, int ny, int nz,
                              long long pitch, long long plane)
{
    bs_res r;
    memset(&r, 0, sizeof r);
    r.first = -1;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const long long o = z * plane + y * pitch + x;
                const double g = out[o], f = ref[o];
                double lo, hi;
                int ok;
                r.cells++;
                if (!periodic && !ref_stencil_inside(e, x, y, z, nx, ny, nz)) {
                    lo = hi = f;
                    ok = g == f;
                    if (!ok) r.kept_bad++;
                } else {
                    const double d = beta * mag[o];
                    if (round) {
                        lo = round(f - d);
                        hi = round(f + d);
                        r.amb += lo != hi;
                        r.off += !(g == round(f));
                    } else {
                        lo = f - d;
                        hi = f + d;
                        if (d > 0 && fabs(g - f) / d > r.worst) r.worst = fabs(g - f) / d;
                    }
                    ok = g >= lo && g <= hi; /* false for NaN */
                }
                if (!ok) {
                    if (r.first < 0) { r.first = o; r.g = g; r.ref = f; r.lo = lo; r.hi = hi; }
                    r.bad++;
                }
            }
    return r;
}
/* the cell (x, y, z) of offset o */
static inline void bs_cell(long long o, long long pitch, long long plane, int *x, int *y, int *z)
{
    *z = (int)(o / plane);
    *y = (int)(o % plane / pitch);
    *x = (int)(o % plane % pitch);
}

#endif
