/* tests/common/stencil_ref.h -- the one CPU reference of the stencil tests (every engine: ssam's
 * one-pass, temporal and tensor-core stencils, perks' persistent stencils), in double, for every
 * boundary policy of onchip/boundary.h.  Host code, plain C99; include after math.h.
 *
 * A shape is its points {I, dx, dy, dz} (2D: dz 0); a domain nx x ny x nz cells, pitch elements
 * between rows and plane between planes.  The policies are the kit's numbers (ONCHIP_KEEP_EXTENT 0,
 * ONCHIP_PERIODIC 1, ONCHIP_KEEP_RADIUS 2, ONCHIP_ZERO_OUTSIDE 3), decided here by their definitions
 * (a point that reads outside; a face within the radius), not by the kit's own functions. */
#ifndef ONCHIP_TEST_STENCIL_REF_H
#define ONCHIP_TEST_STENCIL_REF_H

#define SREF_KEEP_EXTENT 0
#define SREF_PERIODIC 1
#define SREF_KEEP_RADIUS 2
#define SREF_ZERO_OUTSIDE 3

/* the shape's extents {xlo, xhi, ylo, yhi, zlo, zhi}, each range including 0 */
static inline void ref_stencil_extents(const int (*pts)[4], int npts, int *e)
{
    for (int j = 0; j < 6; j++) e[j] = 0;
    for (int i = 0; i < npts; i++)
        for (int j = 0; j < 3; j++) {
            int v = pts[i][1 + j];
            if (v < e[2 * j]) e[2 * j] = v;
            if (v > e[2 * j + 1]) e[2 * j + 1] = v;
        }
}
/* the cell's stencil stays inside the domain */
static inline int ref_stencil_inside(const int *e, int x, int y, int z, int nx, int ny, int nz)
{
    return x + e[0] >= 0 && x + e[1] < nx && y + e[2] >= 0 && y + e[3] < ny && z + e[4] >= 0 && z + e[5] < nz;
}
/* 1 where the cell keeps its value under the policy; e the extents, dims 2 or 3 */
static inline int ref_stencil_kept(int policy, const int *e, int dims, int x, int y, int z, int nx, int ny, int nz)
{
    if (policy == SREF_KEEP_EXTENT) return !ref_stencil_inside(e, x, y, z, nx, ny, nz);
    if (policy == SREF_KEEP_RADIUS) {
        int r = 0;
        for (int j = 0; j < 6; j++) r = (e[j] < 0 ? -e[j] : e[j]) > r ? (e[j] < 0 ? -e[j] : e[j]) : r;
        return x < r || x >= nx - r || y < r || y >= ny - r || (dims == 3 && (z < r || z >= nz - r));
    }
    return 0;
}
static inline long long ref_stencil_wrap(long long i, long long n) { return ((i % n) + n) % n; }

/* one step in double: out = sum c[I] in(cell + d) in the shape's order; mag (NULL: not wanted) =
 * sum |c[I] in(cell + d)|.  A kept cell: out = in, mag = 0.  PERIODIC wraps (any distance),
 * ZERO_OUTSIDE reads 0 outside.  dims: 2 or 3 (3 also for a 3D domain of one plane). */
static inline void ref_stencil_step_dims(const int (*pts)[4], int npts, const double *c, const double *in, double *out,
                                         double *mag, int dims, int nx, int ny, int nz, long long pitch,
                                         long long plane, int policy)
{
    int e[6];
    ref_stencil_extents(pts, npts, e);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const long long o = z * plane + y * pitch + x;
                double s = 0, m = 0;
                if (ref_stencil_kept(policy, e, dims, x, y, z, nx, ny, nz)) {
                    out[o] = in[o];
                    if (mag) mag[o] = 0;
                    continue;
                }
                for (int i = 0; i < npts; i++) {
                    const int *p = pts[i];
                    long long X = x + p[1], Y = y + p[2], Z = z + p[3];
                    double t;
                    if (X < 0 || X >= nx || Y < 0 || Y >= ny || Z < 0 || Z >= nz) {
                        if (policy == SREF_ZERO_OUTSIDE) continue;
                        X = ref_stencil_wrap(X, nx), Y = ref_stencil_wrap(Y, ny), Z = ref_stencil_wrap(Z, nz);
                    }
                    t = c[p[0]] * in[Z * plane + Y * pitch + X];
                    s += t;
                    m += fabs(t);
                }
                out[o] = s;
                if (mag) mag[o] = m;
            }
}
/* the dimensions of a problem: 3 where the shape reaches across planes or the domain has several */
static inline int ref_stencil_dims(const int (*pts)[4], int npts, int nz)
{
    int e[6];
    ref_stencil_extents(pts, npts, e);
    return e[4] < 0 || e[5] > 0 || nz > 1 ? 3 : 2;
}
/* the same, in ref_stencil_dims' dimensions */
static inline void ref_stencil_step(const int (*pts)[4], int npts, const double *c, const double *in, double *out,
                                    int nx, int ny, int nz, long long pitch, long long plane, int policy)
{
    ref_stencil_step_dims(pts, npts, c, in, out, NULL, ref_stencil_dims(pts, npts, nz), nx, ny, nz, pitch, plane,
                          policy);
}

/* N steps from u0 (n elements, the layout's padding included): ref = S^N u0, mag = |S|^N |u0| (|S|:
 * the same steps with |c|: a kept cell carries its magnitude); scratch: 2 n doubles */
static inline void ref_stencil_steps(const int (*pts)[4], int npts, const double *c, const double *u0, int N,
                                     double *ref, double *mag, double *scratch, size_t n, int dims, int nx, int ny,
                                     int nz, long long pitch, long long plane, int policy)
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
        ref_stencil_step_dims(pts, npts, c, u, v, NULL, dims, nx, ny, nz, pitch, plane, policy);
        ref_stencil_step_dims(pts, npts, ca, ua, va, NULL, dims, nx, ny, nz, pitch, plane, policy);
        double *t = u; u = v; v = t;
        t = ua; ua = va; va = t;
    }
}

#endif
