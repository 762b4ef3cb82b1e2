#include <onchip/names_push.h>
/* perks/cg_stencil/host.cuh -- the host side of the matrix-free CG (perks/cg_stencil.cuh): the
 * arguments and the plan, the weights' checks, the planner of the sweep's work items, one
 * cooperative run, the true residual and the refinements of name_run.
 *
 * WHAT
 *   perks_cgs_args, perks_cgs_plan       one solve; its plan (onchip_plan's head, the kernel's
 *                                        argument, the workspace), perks_cgs_plan_free(p)
 *   perks__cgs_weights<S>(w, &dinv)     PERKS_EDIAG / PERKS_EFORMAT / PERKS_ENOTSYM or 0 (dinv: 1 / centre)
 *   perks__cgs_items(&a, G, zw)          the z chunk giving the fewest rounds of the longest block
 *   perks__cgs_run(kernel, &a, zw, blocks, stream, &out) one cooperative launch, waited for
 *   perks__cgs_resid<S, TX, OP>(&a, b, x, r, part, stream, &rr, &bb, &aa)   ||b - A x||^2 ... in double
 *   perks__cgs_round<TI, TX>(...)        one refinement: A d = r / ||r|| solved in TI, x += ||r|| d
 *   perks__cgs_divk_setup<S, T>(a, mixed, p, &why)   ONCHIP_OPERATOR_DIVK's checks and diagonal
 *   perks__cgs_plan_make<S, OP, T>(native, float_or_NULL, dims, a, p)   name_plan: checks, the workspace
 *   perks__cgs_solve<S, T, OP>(a, p, stream)   name_run: the direct solve and its refinements
 *                                        (native), or the mixed kernel and its double fallback
 *
 * EXAMPLE: name_plan and name_run are one call each (perks/cg_stencil.cuh, the generators).
 *   [not compiled: no code, a pointer to the generators]
 *
 * LIMITS: see perks/cg_stencil.cuh.  Host C++ (templates over the shape type); not under NVRTC.
 */
#ifndef PERKS_CG_STENCIL_HOST_CUH
#define PERKS_CG_STENCIL_HOST_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "../base.h"
#include "../cg/resid.cuh"
#include "../cg/types.cuh"
#include "../grid.cuh"
#include "../stencil/shapes.cuh"
#include "body.cuh"

/* the shape's points as arrays (host) */
template <class S> struct perks__cgs_tab;
template <class... P> struct perks__cgs_tab<onchip_shape<P...>> {
    static constexpr int n = (int)sizeof...(P);
    static constexpr int i[] = {P::i...}, dx[] = {P::dx...}, dy[] = {P::dy...}, dz[] = {P::dz...};
};

/* the weight an offset gets: the sum over the shape's points at that offset */
template <class S>
static inline double perks__cgs_coef(const double *w, int x, int y, int z)
{
    typedef perks__cgs_tab<S> t;
    double c = 0;
    for (int k = 0; k < t::n; k++)
        if (t::dx[k] == x && t::dy[k] == y && t::dz[k] == z) c += w[t::i[k]];
    return c;
}

/* the weights' checks (LIMITS AND ERRORS); *dinv = 1 / the centre's weight */
template <class S>
static inline int perks__cgs_weights(const double *w, double *dinv)
{
    typedef perks__cgs_tab<S> t;
    const double c = perks__cgs_coef<S>(w, 0, 0, 0);
    if (!(c > 0) || !isfinite(c)) return PERKS_EDIAG;
    for (int k = 0; k < t::n; k++)
        if (!isfinite(w[t::i[k]])) return PERKS_EFORMAT;
    for (int k = 0; k < t::n; k++)
        if (perks__cgs_coef<S>(w, t::dx[k], t::dy[k], t::dz[k]) != perks__cgs_coef<S>(w, -t::dx[k], -t::dy[k], -t::dz[k]))
            return PERKS_ENOTSYM;
    *dinv = 1.0 / c;
    return PERKS_SUCCESS;
}

/* tiles of 32 x 8 columns times z chunks of zc planes: the zc that minimises the rounds of the
 * longest block times the planes it loads (zc + zw - 1 a work item) */
static inline void perks__cgs_items(perks_cgs_kargs *a, int G, int zw)
{
    a->tx = (a->nx + PERKS_CGS_BX - 1) / PERKS_CGS_BX;
    a->ty = (a->ny + PERKS_CGS_BY - 1) / PERKS_CGS_BY;
    const long long tiles = (long long)a->tx * a->ty;
    long long best = LLONG_MAX;
    for (int zc = 1; zc <= a->nz; zc++) {
        const long long items = tiles * ((a->nz + zc - 1) / zc), cost = (items + G - 1) / G * (zc + zw - 1);
        if (cost <= best) best = cost, a->zc = zc, a->items = (int)items;
    }
}

/* one cooperative launch of kernel (its grid: the occupancy's blocks, or `blocks` when that is
 * fewer and > 0), waited for; its result into *h */
static inline int perks__cgs_run(const void *kernel, perks_cgs_kargs *a, int zw, int blocks, cudaStream_t st,
                                 perks__cg_out *h)
{
    int bps = 0, sms = 0, rc = perks_occupancy(kernel, PERKS_CGS_BLOCK, 0, &bps, &sms);
    if (rc) return rc;
    const int G = blocks > 0 && blocks < bps * sms ? blocks : bps * sms;
    perks__cgs_items(a, G, zw);
    void *args[] = {a};
    rc = perks_launch(kernel, dim3(G), dim3(PERKS_CGS_BLOCK), args, 0, st);
    if (rc) return rc;
    if (cudaMemcpyAsync(h, a->out, sizeof *h, cudaMemcpyDeviceToHost, st) != cudaSuccess) return PERKS_ECUDA;
    return cudaStreamSynchronize(st) == cudaSuccess ? PERKS_SUCCESS : PERKS_ECUDA;
}

/* the true residual of x: ||b - A x||^2, ||b||^2, || |A| |x| ||^2 (r = b - A x into r when not NULL) */
template <class S, class TX, int OP = ONCHIP_OPERATOR_STENCIL>
static inline int perks__cgs_resid(const perks_cgs_kargs *a, const TX *b, const TX *x, double *r, double *part,
                                   cudaStream_t st, double *rr, double *bb, double *aa)
{
    if constexpr (OP == ONCHIP_OPERATOR_DIVK)
        perks__cgs_resid_divk_kernel<S, TX><<<PERKS_CG_RESID_BLOCKS, PERKS_CG_RESID_THREADS, 0, st>>>(*a, b, x, r, part);
    else perks__cgs_resid_kernel<S, TX><<<PERKS_CG_RESID_BLOCKS, PERKS_CG_RESID_THREADS, 0, st>>>(*a, b, x, r, part);
    if (cudaGetLastError() != cudaSuccess || cudaStreamSynchronize(st) != cudaSuccess) return PERKS_ECUDA;
    return perks__cg_resid_read(part, rr, bb, aa);
}

/* the workspace of a solve: r, p0, p1 (double-sized), the residual rh (double), a refinement's rhs and
 * correction (double-sized), the partials, the out record; a native solve's refinement keeps x in
 * p1 while a round runs (the round's kernel uses r, p0 and rh) */
typedef struct perks__cgs_ws {
    char *base;
    void *r, *p0, *p1, *rhs, *d;
    double *rh, *part, *rpart;
    perks__cg_out *out;
    size_t bytes; /* of base */
    /* ONCHIP_OPERATOR_DIVK: 1 / the diagonal in T (dv), z (Jacobi's, 8 bytes a cell), and for a
     * mixed instance k and 1 / the diagonal in float (kf, dvf) beside the double dv; kbase their one
     * allocation */
    char *kbase;
    void *dv, *z;
    float *kf, *dvf;
    size_t kbytes;
} perks__cgs_ws;

static inline int perks__cgs_ws_make(perks__cgs_ws *w, long long n, int G)
{
    const size_t v = ((size_t)n * 8 + 255) / 256 * 256;
    const size_t parts = ((size_t)6 * G * 8 + 255) / 256 * 256, rparts = 3 * PERKS_CG_RESID_BLOCKS * 8;
    w->bytes = 6 * v + parts + rparts + 256;
    if (cudaMalloc((void **)&w->base, w->bytes) != cudaSuccess) {
        w->base = NULL;
        return PERKS_ENOMEM;
    }
    w->r = w->base, w->p0 = w->base + v, w->p1 = w->base + 2 * v, w->rh = (double *)(w->base + 3 * v);
    w->rhs = w->base + 4 * v, w->d = w->base + 5 * v;
    w->part = (double *)(w->base + 6 * v), w->rpart = (double *)(w->base + 6 * v + parts);
    w->out = (perks__cg_out *)(w->base + 6 * v + parts + rparts);
    return PERKS_SUCCESS;
}

/* one matrix-free solve (the generators' name_plan, name_run, name_launch); T the instance's (double
 * for T perks_cg_mixed) */
typedef struct perks_cgs_args {
    int nx, ny, nz;          /* cells along x (fastest), y, z; nz 1 for a 2D shape; at most 2^31 - 1 in all */
    const double *w;         /* host: the shape's ncoef weights, by coefficient index */
    const void *b;           /* T *, device, nx ny nz */
    void *x;                 /* T *, device, nx ny nz: the answer (and the start with opts.x0) */
    perks_cg_opts opts;      /* tol (> 0), max_iter, jacobi, x0, blocks are read; perks_cg_defaults() */
    perks_cg_result *result; /* host: filled by name_run */
    /* an instance generated with ONCHIP_OPERATOR_DIVK (onchip/operator.h) reads these; others refuse k */
    const void *k;           /* T *, device, nx ny nz: the cell field k, each in [2^-64, 2^64]; read by
                                name_plan (the diagonal) and by every run */
    int face;                /* ONCHIP_FACE_ARITH (0) or ONCHIP_FACE_HARMONIC: k's face rule */
} perks_cgs_args;

typedef struct perks_cgs_plan {
    /* the head (onchip/plan.h): path PERKS_CG_PATH_GRID; steps_per_pass 0; workspace_bytes the device
     * memory the plan holds (perks_cgs_plan_free); result a->x */
    ONCHIP_PLAN_HEAD
    /* the matrix-free plan's own */
    perks_cgs_kargs ka;     /* the kernels' argument: sizes, weights, 1 / centre, workspace */
    perks__cgs_ws ws;       /* one device allocation (ws.base) */
    perks_cg_opts opts;
    const void *knative, *kfloat; /* the kernel in T; mixed: the float kernel (else NULL) */
    const void *kfield;           /* ONCHIP_OPERATOR_DIVK: the k the plan was made from (name_run's a.k) */
} perks_cgs_plan;

static inline void perks_cgs_plan_free(perks_cgs_plan *p)
{
    if (!p) return;
    if (p->ws.base) cudaFree(p->ws.base);
    if (p->ws.kbase) cudaFree(p->ws.kbase);
    memset(p, 0, sizeof *p);
}

/* a refused plan: the code, why, no passes (nothing held) */
static inline int perks__cgs_refuse(perks_cgs_plan *p, int rc, const char *why)
{
    perks_cgs_plan_free(p);
    p->why = why;
    return rc;
}

/* one refinement round in TI (the inner kernel): rhs = r / ||r|| from w.rh, A d = rhs from d = 0 to
 * tol_in, x += ||r|| d; the inner solve's record (iterations, status) into *h */
template <class TI, class TX>
static inline int perks__cgs_round(const void *kin, perks_cgs_kargs a, int zw, int blocks, const perks__cgs_ws *w, TX *x,
                                   double rr, double tol_in, int budget, cudaStream_t st, perks__cg_out *h)
{
    const long long n = (long long)a.nx * a.ny * a.nz;
    const double rn = sqrt(rr);
    perks__cgs_scale_kernel<TI><<<1024, 256, 0, st>>>(n, w->rh, 1.0 / rn, (TI *)w->rhs);
    if (cudaGetLastError() != cudaSuccess) return PERKS_ECUDA;
    /* the round's vectors: r, p0 and rh (read by the scaling above, free once it ran) */
    a.b = w->rhs, a.x = w->d, a.r = w->r, a.p0 = w->p0, a.p1 = w->rh, a.use_x0 = 0, a.tol = tol_in, a.max_iter = budget;
    const int rc = perks__cgs_run(kin, &a, zw, blocks, st, h);
    if (rc) return rc;
    if (h->status == PERKS_EBREAKDOWN) return PERKS_SUCCESS; /* d not added */
    perks__cgs_add_kernel<TX, TI><<<1024, 256, 0, st>>>(n, x, (const TI *)w->d, rn);
    return cudaGetLastError() == cudaSuccess ? PERKS_SUCCESS : PERKS_ECUDA;
}

/* the matrix-free solvers' argument checks (cg_stencil's and multigrid's): NULLs, the sizes (dims 2:
 * nz 1), tol, max_iter, Chebyshev refused (cheb_why), the weights (centre > 0 and 1 / centre into
 * *dinv); the code, the sentence into *why */
template <class S>
static inline int perks__cgs_check_args(const perks_cgs_args *a, int dims, const char *cheb_why, double *dinv,
                                        const char **why)
{
    const perks_cg_opts *o = &a->opts;
    int rc = PERKS_SUCCESS;
    if (!a->w || !a->b || !a->x || !a->result)
        rc = PERKS_ENULL, *why = "refused: a.w, a.b, a.x or a.result is NULL";
    else if (a->nx < 1 || a->ny < 1 || a->nz < 1 || (dims == 2 && a->nz != 1) ||
             (long long)a->nx * a->ny * a->nz > INT_MAX)
        rc = PERKS_ESIZE, *why = "refused: nx, ny or nz < 1, nz != 1 for a 2D shape, or more than 2^31 - 1 cells";
    else if (!(o->tol > 0) || !isfinite(o->tol)) rc = PERKS_ESIZE, *why = "refused: opts.tol not > 0 and finite";
    else if (o->max_iter < 0) rc = PERKS_ESIZE, *why = "refused: opts.max_iter < 0";
    else if (o->blocks < 0) rc = PERKS_ESIZE, *why = "refused: opts.blocks < 0";
    else if (o->cheb) rc = PERKS_EUNSUPPORTED, *why = cheb_why;
    else if ((rc = perks__cgs_weights<S>(a->w, dinv)))
        *why = rc == PERKS_EDIAG     ? "refused: the centre's weight is not > 0 and finite"
               : rc == PERKS_EFORMAT ? "refused: a weight is not finite"
                                     : "refused: the weights are not symmetric (an offset's weight differs from its "
                                       "opposite's)";
    return rc;
}

/* ONCHIP_OPERATOR_DIVK's part of name_plan: a.k and a.face, the weights (every off-centre one <= 0,
 * their sum >= 0: the kernel's w[] = -w, sigma the sum), the diagonal kernel over a.k (mixed, kfloat
 * set: k and 1 / the diagonal in float too); the code, the sentence into *why */
template <class S, class T>
static inline int perks__cgs_divk_setup(const perks_cgs_args *a, bool mixed, perks_cgs_plan *p, const char **why)
{
    typedef perks__cgs_tab<S> t;
    perks_cgs_kargs *k = &p->ka;
    if (!a->k) return *why = "refused: a.k is NULL (an ONCHIP_OPERATOR_DIVK instance needs the cell field k)", PERKS_ENULL;
    if (!onchip_face_valid(a->face))
        return *why = "refused: a.face is not ONCHIP_FACE_ARITH or ONCHIP_FACE_HARMONIC", PERKS_EFORMAT;
    double sigma = 0, wabs = 0;
    for (int j = 0; j < t::n; j++) {
        sigma += a->w[t::i[j]], wabs += fabs(a->w[t::i[j]]);
        if ((t::dx[j] || t::dy[j] || t::dz[j]) && !(a->w[t::i[j]] <= 0))
            return *why = "refused: an off-centre weight is > 0 (ONCHIP_OPERATOR_DIVK takes -w[I] k_I >= 0: the "
                          "operator is then symmetric positive definite)",
                   PERKS_EFORMAT;
    }
    /* a sum that is 0 but for its rounding (-laplace / h^2) is 0 */
    if (!(sigma >= -4.0 * t::n * 2.220446049250313e-16 * wabs) || !isfinite(sigma))
        return *why = "refused: the weights' sum (the operator's shift) is < 0 or not finite", PERKS_EFORMAT;
    if (sigma < 0) sigma = 0;
    for (int c = 0; c < PERKS_CGS_MAXCOEF; c++) k->w[c] = -k->w[c];
    k->sigma = sigma, k->face = a->face;
    const long long n = (long long)a->nx * a->ny * a->nz;
    const size_t v = ((size_t)n * 8 + 255) / 256 * 256;
    p->ws.kbytes = (mixed ? 4 : 2) * v + 256;
    if (cudaMalloc((void **)&p->ws.kbase, p->ws.kbytes) != cudaSuccess) {
        cudaGetLastError(); /* the failure is the code, not a sticky error */
        p->ws.kbase = NULL;
        return *why = "refused: the diagonal's cudaMalloc failed", PERKS_ENOMEM;
    }
    p->ws.dv = p->ws.kbase;
    p->ws.kf = mixed ? (float *)(p->ws.kbase + v) : NULL;
    p->ws.dvf = mixed ? (float *)(p->ws.kbase + 2 * v) : NULL;
    p->ws.z = p->ws.kbase + (mixed ? 3 : 1) * v; /* 8 bytes a cell: the float kernel's and the double's */
    int *bad = (int *)(p->ws.kbase + (mixed ? 4 : 2) * v), nbad = 0;
    if (cudaMemset(bad, 0, sizeof(int)) != cudaSuccess) return *why = "refused: a CUDA call failed", PERKS_ECUDA;
    if (mixed)
        perks__cgs_diag_kernel<S, double, float><<<1024, 256>>>(*k, (const double *)a->k, p->ws.dvf,
                                                                  (double *)p->ws.dv, p->ws.kf, bad);
    else perks__cgs_diag_kernel<S, T, T><<<1024, 256>>>(*k, (const T *)a->k, (T *)p->ws.dv, NULL, NULL, bad);
    if (cudaGetLastError() != cudaSuccess || cudaMemcpy(&nbad, bad, sizeof nbad, cudaMemcpyDeviceToHost) != cudaSuccess)
        return *why = "refused: the diagonal's kernel failed (a CUDA call failed)", PERKS_ECUDA;
    if (nbad)
        return *why = "refused: a cell's k is outside [2^-64, 2^64] or not finite (or its diagonal is not > 0)",
               PERKS_EFORMAT;
    k->k = mixed ? (const void *)p->ws.kf : a->k;
    k->dv = mixed ? (const void *)p->ws.dvf : p->ws.dv;
    k->kh = mixed ? (const double *)a->k : NULL;
    k->z = p->ws.z;
    p->kfield = a->k;
    return PERKS_SUCCESS;
}

/* name_plan: the checks (sizes, tol, max_iter, the weights), the occupancy of the kernels (knative in
 * T, kfloat the mixed one or NULL), the workspace (the most blocks of either), ONCHIP_OPERATOR_DIVK's
 * diagonal, onchip_plan's head */
template <class S, int OP = ONCHIP_OPERATOR_STENCIL, class T = double>
static inline int perks__cgs_plan_make(const void *knative, const void *kfloat, int dims, const perks_cgs_args *a,
                                       perks_cgs_plan *p)
{
    if (!p) return PERKS_ENULL;
    memset(p, 0, sizeof *p);
    if (!a) return perks__cgs_refuse(p, PERKS_ENULL, "refused: the arguments (a) are NULL");
    const perks_cg_opts *o = &a->opts;
    perks_cgs_kargs *k = &p->ka;
    const char *why = NULL;
    int rc = perks__cgs_check_args<S>(a, dims,
                                      "refused: Chebyshev (opts.cheb) runs in the CSR solver (perks/cg.cuh), not the "
                                      "matrix-free one",
                                      &k->dinv, &why);
    if (!rc && OP == ONCHIP_OPERATOR_STENCIL && a->k)
        rc = PERKS_EUNSUPPORTED, why = "refused: a.k is set, and the instance was generated for ONCHIP_OPERATOR_STENCIL "
                                       "(constant weights; ONCHIP_OPERATOR_DIVK takes k)";
    if (rc) return perks__cgs_refuse(p, rc, why);
    k->nx = a->nx, k->ny = a->ny, k->nz = a->nz, k->jacobi = o->jacobi != 0;
    for (int c = 0; c < S::ncoef; c++) k->w[c] = a->w[c];
    const long long n = (long long)a->nx * a->ny * a->nz;
    int bps = 0, sms = 0, bpf = 0;
    if ((rc = perks_occupancy(knative, PERKS_CGS_BLOCK, 0, &bps, &sms)) ||
        (kfloat && (rc = perks_occupancy(kfloat, PERKS_CGS_BLOCK, 0, &bpf, &sms))))
        return perks__cgs_refuse(p, rc, rc == PERKS_ENOCOOP ? "refused: the device has no cooperative launch"
                                                            : "refused: the kernel's occupancy (a CUDA call failed, "
                                                              "or no block fits an SM)");
    if ((rc = perks__cgs_ws_make(&p->ws, n, (bps > bpf ? bps : bpf) * sms)))
        return perks__cgs_refuse(p, rc, "refused: the workspace's cudaMalloc failed");
    if constexpr (OP == ONCHIP_OPERATOR_DIVK)
        if ((rc = perks__cgs_divk_setup<S, T>(a, kfloat != NULL, p, &why))) return perks__cgs_refuse(p, rc, why);
    k->r = p->ws.r, k->p0 = p->ws.p0, k->p1 = p->ws.p1, k->part = p->ws.part, k->out = p->ws.out;
    p->opts = *o;
    p->knative = knative, p->kfloat = kfloat;
    p->path = PERKS_CG_PATH_GRID;
    p->why = kfloat ? "grid: matrix-free, one cooperative grid at the occupancy's blocks; float iterations with "
                      "double replacements, the double kernel after a float stall; grid.sync barriers"
                    : "grid: matrix-free, one cooperative grid at the occupancy's blocks, the stencil applied on "
                      "the fly; grid.sync barriers";
    p->steps_per_pass = 0;
    p->passes = kfloat ? 2 : 1 + PERKS_CG_RESTARTS; /* the mixed kernel and its fallback; the refinements */
    p->workspace_bytes = p->ws.bytes + p->ws.kbytes;
    p->result = a->x;
    return PERKS_SUCCESS;
}

/* name_run (perks/cg_stencil.cuh, WHAT A SUCCESS MEANS): p's knative runs in T, kfloat (mixed; T
 * double) the mixed kernel; a's b, x and result (the plan made from a's grid, weights and options) */
template <class S, class T, int OP = ONCHIP_OPERATOR_STENCIL>
static inline int perks__cgs_solve(const perks_cgs_args *args, const perks_cgs_plan *p, cudaStream_t st)
{
    typedef perks__cgs_shape<S> sh;
    perks_cg_result r;
    memset(&r, 0, sizeof r);
    if (!args || !p || !args->result) return PERKS_ENULL;
    *args->result = r;
    if (!args->b || !args->x) return args->result->status = PERKS_ENULL;
    if (!p->passes || !p->ws.base) return args->result->status = PERKS_ESIZE; /* refused or freed */
    if (args->k != p->kfield) return args->result->status = PERKS_EUNSUPPORTED; /* another k than the plan's */
    const void *knative = p->knative, *kfloat = p->kfloat;
    const perks_cg_opts *o = &p->opts;
    const perks__cgs_ws ws = p->ws;
    const T *b = (const T *)args->b;
    T *x = (T *)args->x;
    perks_cgs_kargs a = p->ka;
    const long long n = (long long)a.nx * a.ny * a.nz;
    const double tol = o->tol;
    double rr = 0, bb = 0, aa = 0, tr = 0;
    int rc = 0, used = 0, rounds = 0, status = PERKS_ENOCONV;
    perks__cg_out h, hr; /* the solve's record, a refinement round's */
    memset(&h, 0, sizeof h), memset(&hr, 0, sizeof hr);
    r.ran = PERKS_CG_RAN_NATIVE;
    if (!kfloat) { /* the direct solve, then refinements while they help */
        a.b = b, a.x = x, a.use_x0 = o->x0 != 0, a.tol = tol, a.max_iter = o->max_iter;
        if ((rc = perks__cgs_run(knative, &a, sh::zw, o->blocks, st, &h))) goto out;
        used = h.iterations, status = h.status;
        r.rel_residual = h.bb > 0 ? sqrt(h.rr / h.bb) : 0;
        if ((rc = perks__cgs_resid<S, T, OP>(&a, b, x, ws.rh, ws.rpart, st, &rr, &bb, &aa))) goto out;
        tr = bb > 0 ? sqrt(rr / bb) : sqrt(rr);
        while (status == PERKS_SUCCESS && tr > tol && rounds < PERKS_CG_RESTARTS && used < o->max_iter) {
            /* x kept in the p1 buffer: a round that does not lower the true residual is undone */
            if (cudaMemcpyAsync(ws.p1, x, n * sizeof(T), cudaMemcpyDeviceToDevice, st) != cudaSuccess) {
                rc = PERKS_ECUDA;
                goto out;
            }
            if ((rc = perks__cgs_round<T, T>(knative, a, sh::zw, o->blocks, &ws, x, rr, PERKS_CG_RESTART_TOL * tol * sqrt(bb / rr),
                                             o->max_iter - used, st, &hr)))
                goto out;
            used += hr.iterations, rounds++;
            const double before = tr;
            if ((rc = perks__cgs_resid<S, T, OP>(&a, b, x, ws.rh, ws.rpart, st, &rr, &bb, &aa))) goto out;
            tr = bb > 0 ? sqrt(rr / bb) : sqrt(rr);
            if (!(tr < before)) { /* undo it and stop */
                if (cudaMemcpyAsync(x, ws.p1, n * sizeof(T), cudaMemcpyDeviceToDevice, st) != cudaSuccess) { rc = PERKS_ECUDA; goto out; }
                if ((rc = perks__cgs_resid<S, T, OP>(&a, b, x, ws.rh, ws.rpart, st, &rr, &bb, &aa))) goto out;
                tr = before;
                break;
            }
        }
        if (status == PERKS_SUCCESS && !(tr <= tol)) status = PERKS_EINACCURATE;
    } else { /* mixed: one float kernel with double replacements on the caller's x */
        r.ran = PERKS_CG_RAN_MIXED;
        if (!o->x0 && cudaMemsetAsync(x, 0, n * sizeof(T), st) != cudaSuccess) { rc = PERKS_ECUDA; goto out; }
        a.b = NULL, a.x = ws.d, a.xh = (double *)x, a.bh = (const double *)b, a.tol = tol, a.max_iter = o->max_iter;
        if ((rc = perks__cgs_run(kfloat, &a, sh::zw, o->blocks, st, &h))) goto out;
        used = h.iterations, status = h.status, rounds = h.repl;
        r.rel_residual = h.bb > 0 ? sqrt(h.rr / h.bb) : 0;
        if ((rc = perks__cgs_resid<S, T, OP>(&a, b, x, ws.rh, ws.rpart, st, &rr, &bb, &aa))) goto out;
        tr = bb > 0 ? sqrt(rr / bb) : sqrt(rr);
        /* float could not reach tol (or broke down; or the kernel's double residual met tol and this sum
         * of it does not): the double kernel goes on from x with the iterations left */
        if (status == PERKS_EINACCURATE || status == PERKS_EBREAKDOWN || (status == PERKS_SUCCESS && !(tr <= tol))) {
            r.ran = PERKS_CG_RAN_FALLBACK;
            a.b = b, a.x = x, a.xh = NULL, a.bh = NULL, a.use_x0 = 1, a.max_iter = o->max_iter - used;
            if (OP == ONCHIP_OPERATOR_DIVK) a.k = a.kh, a.dv = ws.dv, a.kh = NULL; /* k and the diagonal in double */
            if ((rc = perks__cgs_run(knative, &a, sh::zw, o->blocks, st, &h))) goto out;
            used += h.iterations, status = h.status;
            r.rel_residual = h.bb > 0 ? sqrt(h.rr / h.bb) : 0;
            if ((rc = perks__cgs_resid<S, T, OP>(&a, b, x, ws.rh, ws.rpart, st, &rr, &bb, &aa))) goto out;
            tr = bb > 0 ? sqrt(rr / bb) : sqrt(rr);
            if (status == PERKS_SUCCESS && !(tr <= tol)) status = PERKS_EINACCURATE;
        }
    }
    r.status = status, r.iterations = used, r.replacements = rounds, r.bnorm = sqrt(bb), r.true_residual = tr;
    r.rounding_floor = perks__cg_floor(kfloat ? 8 : (int)sizeof(T), aa, bb);
    r.at_floor = tol < PERKS_CG_FLOOR_MARGIN * r.rounding_floor;
    r.path = PERKS_CG_PATH_GRID; /* one cooperative grid */
    rc = status;
out:
    if (rc) r.status = rc;
    *args->result = r;
    return rc;
}
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_CG_STENCIL_HOST_CUH */
#include <onchip/names_pop.h>
