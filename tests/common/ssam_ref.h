/* tests/common/ssam_ref.h -- what the ssam tests' CPU references share (include after ssam/base.cuh and math.h). */
#ifndef ONCHIP_TEST_SSAM_REF_H
#define ONCHIP_TEST_SSAM_REF_H

/* the reference's own border rule: fold step by step (independent of ssam_border_index) */
static inline int ref_index(int i, int n, int border)
{
    if (i >= 0 && i < n) return i;
    switch (border) {
    case SSAM_BORDER_NEAREST: return i < 0 ? 0 : n - 1;
    case SSAM_BORDER_WRAP: return ((i % n) + n) % n;
    case SSAM_BORDER_REFLECT:
        while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
        return i;
    case SSAM_BORDER_MIRROR:
        if (n == 1) return 0;
        while (i < 0 || i >= n) i = i < 0 ? -i : 2 * n - 2 - i;
        return i;
    default: return -1;
    }
}

/* out(x, y) by the definitions in conv.cuh, in double, with the anchor (cx, cy): the tap that
 * reads in(x, y); mag(x, y) = sum |w v|, the scale of the rounding error (a sum that cancels to
 * almost nothing is still only as exact as its terms) */
static inline void ref_conv2d(const double *in, int W, int H, long long sp, const double *w, int M, int N, int border,
                              double cval, unsigned flags, int cx, int cy, double *out, double *mag, int *ow, int *oh)
{
    int valid = (flags & SSAM_VALID) != 0, conv = (flags & SSAM_CONVOLVE) != 0;
    *ow = valid ? W - M + 1 : W;
    *oh = valid ? H - N + 1 : H;
    for (int y = 0; y < *oh; y++)
        for (int x = 0; x < *ow; x++) {
            double s = 0, a = 0;
            for (int n = 0; n < N; n++)
                for (int m = 0; m < M; m++) {
                    int ix, iy;
                    if (valid) { ix = conv ? x + M - 1 - m : x + m; iy = conv ? y + N - 1 - n : y + n; }
                    else { ix = conv ? x - m + cx : x + m - cx; iy = conv ? y - n + cy : y + n - cy; }
                    int jx = ref_index(ix, W, border), jy = ref_index(iy, H, border);
                    double v = (jx < 0 || jy < 0) ? cval : in[(long long)jy * sp + jx];
                    s += w[n * M + m] * v;
                    a += fabs(w[n * M + m] * v);
                }
            out[(long long)y * *ow + x] = s;
            mag[(long long)y * *ow + x] = a;
        }
}

/* ---- stencils: the points {I, dx, dy, dz} of a shape (tests/gpu/test_ssam_stencil*.cu): the one
 * stencil reference of the kit's tests; its policies 0 and 1 are SSAM_STENCIL_DIRICHLET and
 * SSAM_STENCIL_PERIODIC ---- */
#include "stencil_ref.h"

#ifdef SSAM_STENCIL_CUH
typedef int (*ref_plan_fn)(const ssam_stencil_args *, ssam_plan *);
typedef int (*ref_run_fn)(const ssam_stencil_args *, const ssam_plan *, cudaStream_t);
typedef int (*ref_launch_fn)(const ssam_stencil_args *, cudaStream_t);
/* name_plan + name_run of `steps` steps from the state h0 (n elements of es bytes, copied to da)
 * must give the bits of the stepwise launches (`cur`, device) in the plan's result, da or db as
 * steps is even or odd, with steps_per_pass * passes == steps; name_launch (plan + run) the same
 * bits there (a GPU check: CHECK) */
static inline void ref_check_steps(ref_plan_fn plan, ref_run_fn run, ref_launch_fn launch, ssam_stencil_args a, void *da,
                                   void *db, const void *cur, const void *h0, void *hb, size_t n, size_t es, int steps,
                                   int nx, int ny, int nz)
{
    void *hres = malloc(n * es);
    ssam_plan p;
    CUDA_OK(cudaMemcpy(hres, cur, n * es, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 2 && !check__failed_case; k++) { /* plan + run, then name_launch */
        CUDA_OK(cudaMemcpy(da, h0, n * es, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(db, 0xFF, n * es));
        a.src = da; a.dst = db; a.steps = steps;
        int rc = plan(&a, &p);
        CHECK(rc == 0 && p.result == (steps % 2 ? db : da) && (long long)p.steps_per_pass * p.passes == steps,
              "%dx%dx%d, %d steps: plan rc %d (%s), %d x %lld steps, result %s", nx, ny, nz, steps, rc,
              ssam_stencil_strerror(rc), p.steps_per_pass, p.passes, p.result == da ? "src" : p.result == db ? "dst" : "neither");
        if (rc) break;
        rc = k ? launch(&a, 0) : run(&a, &p, 0);
        CHECK(rc == 0, "%dx%dx%d: %s rc %d (%s)", nx, ny, nz, k ? "name_launch" : "name_run", rc, ssam_stencil_strerror(rc));
        CUDA_OK(cudaDeviceSynchronize());
        if (rc || check__failed_case) break;
        CUDA_OK(cudaMemcpy(hb, p.result, n * es, cudaMemcpyDeviceToHost));
        CHECK(memcmp(hb, hres, n * es) == 0, "%dx%dx%d: %s of %d steps differs from the stepwise launches", nx, ny, nz,
              k ? "name_launch" : "name_plan + name_run", steps);
    }
    free(hres);
}
/* a one-pass stencil's `steps` steps as one call: its plan (a copy of a with those steps) and run,
 * *result the plan's result */
template <ref_plan_fn PLAN, ref_run_fn RUN>
static int ref_steps(const ssam_stencil_args *a, int steps, void **result, cudaStream_t stream)
{
    ssam_stencil_args b = *a;
    ssam_plan p;
    b.steps = steps;
    int rc = PLAN(&b, &p);
    if (!rc) rc = RUN(&b, &p, stream);
    *result = p.result;
    return rc;
}
/* a temporal stencil's `steps` steps through the three verbs, args.path PATH (0: the planner's):
 * *result the plan's result; the plan's promise checked: the head read alike, PATH taken, the passes cover the steps
 * with only the last one shorter, 0 steps nothing to launch with the state in src */
template <ref_plan_fn PLAN, ref_run_fn RUN, int PATH>
static int tb_steps(const ssam_stencil_args *a, int steps, void **result, cudaStream_t stream)
{
    ssam_stencil_args b = *a;
    ssam_plan p;
    b.steps = steps;
    b.path = PATH;
    int rc = PLAN(&b, &p);
    const onchip_plan h = onchip_plan_head(&p);
    CHECK(h.why == p.why && p.why && p.why[0], "the plan's why (rc %d)", rc);
    if (rc) {
        CHECK(p.passes == 0, "a refused plan: passes %lld", p.passes);
        return rc;
    }
    CHECK(PATH == 0 || p.path == PATH, "path %d, %d asked", p.path, PATH);
    CHECK(p.path == SSAM_PATH_TEMPORAL || (p.path == SSAM_PATH_ONEPASS && p.steps_per_pass == 1), "path %d", p.path);
    CHECK(p.workspace_bytes == 0 && p.steps_per_pass >= 1, "workspace %zu, %d steps a pass", p.workspace_bytes,
          p.steps_per_pass);
    CHECK(steps == 0 ? p.passes == 0 && p.result == b.src
                     : (long long)p.steps_per_pass * p.passes >= steps &&
                           (long long)p.steps_per_pass * (p.passes - 1) < steps &&
                           p.result == ((p.passes & 1) ? b.dst : (void *)b.src),
          "%d steps: %lld passes of %d, result %p", steps, p.passes, p.steps_per_pass, p.result);
    rc = RUN(&b, &p, stream);
    *result = p.result;
    return rc;
}
#endif

#endif
