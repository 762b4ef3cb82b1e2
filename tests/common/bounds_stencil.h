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
 * lies within beta mag of ref, and its stored value is that sum rounded).  Kept cells (the
 * boundary policy's) must equal ref exactly: they keep their input.  Padding is skipped. */
#ifndef ONCHIP_TEST_BOUNDS_STENCIL_H
#define ONCHIP_TEST_BOUNDS_STENCIL_H

/* one step in double from in: out = sum c[I] in(cell + d), mag = sum |c[I] in(cell + d)|; kept
 * cells out = in, mag = 0 (stencil_ref.h; policy 0 keeps the cells whose stencil leaves the domain,
 * 1 wraps) */
static inline void bs_step(const int (*pts)[4], int npts, const double *c, const double *in, double *out, double *mag,
                           int nx, int ny, int nz, long long pitch, long long plane, int policy)
{
    ref_stencil_step_dims(pts, npts, c, in, out, mag, ref_stencil_dims(pts, npts, nz), nx, ny, nz, pitch, plane, policy);
}

/* N steps from u0 (n elements, the layout's padding included): ref = S^N u0, mag = |S|^N |u0|;
 * scratch: 2 n doubles */
static inline void bs_steps(const int (*pts)[4], int npts, const double *c, const double *u0, int N, double *ref,
                            double *mag, double *scratch, size_t n, int nx, int ny, int nz, long long pitch,
                            long long plane, int policy)
{
    ref_stencil_steps(pts, npts, c, u0, N, ref, mag, scratch, n, ref_stencil_dims(pts, npts, nz), nx, ny, nz, pitch,
                      plane, policy);
}

/* the outcome of one per-cell comparison */
typedef struct bs_res {
    long long cells;    /* cells compared */
    long long bad;      /* cells outside their bound (NaN included) */
    long long kept_bad; /* kept cells that differ from their input */
    long long amb;      /* store rounding: cells whose interval holds more than one value */
    long long off;      /* store rounding: cells that differ from round(ref) */
    long long first;    /* the first bad cell's offset, -1 when none */
    double g, ref, lo, hi; /* there: the kernel's value, the reference, the allowed interval */
    double worst;       /* no rounding: the largest |out - ref| / (beta mag) over cells with mag > 0 */
} bs_res;

/* out (the kernel's values as doubles, the layout's padding included) against ref within beta * mag
 * per cell; round NULL (out itself within the bound) or the store type's rounding of a double;
 * e: the shape's extents (ref_stencil_extents) and policy, for the kept cells */
static inline bs_res bs_check(const double *out, const double *ref, const double *mag, double beta,
                              double (*round)(double), const int *e, int policy, int nx, int ny, int nz,
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
                if (ref_stencil_kept(policy, e, e[4] < 0 || e[5] > 0 || nz > 1 ? 3 : 2, x, y, z, nx, ny, nz)) {
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
