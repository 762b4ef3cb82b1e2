#include <onchip/names_push.h>
/* perks/mg/host.cuh -- the host side of the multigrid-preconditioned CG (perks/mg.cuh): the plan (its
 * levels and their device buffers), the V-cycle as a sequence of launches, the outer CG loop.
 *
 * WHAT
 *   perks_mg_plan, perks_mg_plan_free(p)     the plan: onchip_plan's head, the levels, one allocation
 *   perks__mg_levels(nx, ny, nz, lv)         the level sizes; returns how many
 *   perks__mg_plan_make<T>(kern, a, p)       name_plan: checks, levels, the allocation (kern: the
 *                                            instance's kernels, perks/mg/kernels.cuh)
 *   perks__mg_vcycle<T>(p, s, &z)            z = M r (r in lv[0].b; z lv[0].x or lv[0].t)
 *   perks__mg_solve<T>(a, p, s)              name_run: PCG, the true residual, the result
 *
 * EXAMPLE: name_plan and name_run are one call each (perks/mg.cuh, the generator).
 *   [not compiled: no code, a pointer to the generator]
 *
 * LIMITS: see perks/mg.cuh.  Host C++ (templates over T); not under NVRTC.
 */
#ifndef PERKS_MG_HOST_CUH
#define PERKS_MG_HOST_CUH

#ifndef __CUDACC_RTC__
#include <cuda_runtime.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "../base.h"
#include "../cg/types.cuh"
#include "../cg_stencil/host.cuh"
#include "kernels.cuh"

#ifndef PERKS_MG_LEVELS
#define PERKS_MG_LEVELS 12 /* levels at most, the finest included */
#endif
#ifndef PERKS_MG_COARSE_CELLS
#define PERKS_MG_COARSE_CELLS 64 /* a level of at most this many cells is the coarsest */
#endif
#ifndef PERKS_MG_NU
#define PERKS_MG_NU 2 /* damped Jacobi sweeps before and after the coarse correction */
#endif
#ifndef PERKS_MG_OMEGA
#define PERKS_MG_OMEGA 0.8 /* Jacobi's damping where the Gershgorin bound of D^-1 A is <= 2 */
#endif
#ifndef PERKS_MG_COARSE_SWEEPS
#define PERKS_MG_COARSE_SWEEPS 40 /* damped Jacobi sweeps from 0 on the coarsest level */
#endif
#define PERKS_MG_PATH_VCYCLE 1 /* the plan's path: host-driven launches on one stream */

static_assert(PERKS_MG_NU >= 1 && PERKS_MG_COARSE_SWEEPS >= 1,
              "perks/mg.cuh: PERKS_MG_NU and PERKS_MG_COARSE_SWEEPS must be >= 1");
static_assert(PERKS_MG_LEVELS >= 1 && PERKS_MG_LEVELS <= 32, "perks/mg.cuh: PERKS_MG_LEVELS must be 1..32");

/* one level: its operator, Jacobi's factor d (damping / centre), its cells, its vectors (T, device):
 * b the right-hand side, x and t the solution's two buffers (level 0: b is the outer CG's r) */
typedef struct perks__mg_level {
    perks__mg_op op;
    double d;
    long long n;
    void *b, *x, *t;
} perks__mg_level;

typedef struct perks_mg_plan {
    /* the head (onchip/plan.h): path PERKS_MG_PATH_VCYCLE; steps_per_pass 0; passes 1 (one solve of
     * host-driven launches); workspace_bytes the device memory the plan holds; result a->x */
    ONCHIP_PLAN_HEAD
    /* the multigrid plan's own */
    int levels, elt;
    perks__mg_level lv[PERKS_MG_LEVELS];
    void *base;   /* one device allocation: every level's vectors, p, q, the partials */
    void *p, *q;  /* the outer CG's direction and A p (level 0's size) */
    double *part; /* 2 x PERKS_MG_DOT_BLOCKS block partials */
    const void *kern; /* the instance's kernels: a perks__mg_kern<T> (static storage) */
    perks_cg_opts opts;
} perks_mg_plan;

static inline void perks_mg_plan_free(perks_mg_plan *p)
{
    if (!p) return;
    if (p->base) cudaFree(p->base);
    memset(p, 0, sizeof *p);
}

static inline int perks__mg_refuse(perks_mg_plan *p, int rc, const char *why)
{
    perks_mg_plan_free(p);
    p->why = why;
    return rc;
}

/* the STAR3D_R1 shape, for cg_stencil's weight checks */
typedef ONCHIP_SHAPE3D_TYPE(ONCHIP_SHAPE_STAR3D_R1) perks__mg_star;

/* Jacobi's factor of a level: PERKS_MG_OMEGA min(1, 2 / g) / w0, g = (|w0| + sum |w_k|) / w0 the
 * Gershgorin bound of D^-1 A (so that the damped sweep contracts in the A-norm) */
static inline double perks__mg_damp(const perks__mg_op *o)
{
    const double g =
        (fabs(o->w0) + fabs(o->w1) + fabs(o->w2) + fabs(o->w3) + fabs(o->w4) + fabs(o->w5) + fabs(o->w6)) / o->w0;
    return PERKS_MG_OMEGA * (g > 2.0 ? 2.0 / g : 1.0) / o->w0;
}

/* the level sizes from the finest: halve (nc = (n - 1) / 2) every axis while all are >= 3, the level
 * has more than PERKS_MG_COARSE_CELLS cells and fewer than PERKS_MG_LEVELS levels exist */
static inline int perks__mg_levels(int nx, int ny, int nz, int dims[][3])
{
    int L = 1;
    dims[0][0] = nx, dims[0][1] = ny, dims[0][2] = nz;
    while (L < PERKS_MG_LEVELS) {
        const int *f = dims[L - 1];
        if (f[0] < 3 || f[1] < 3 || f[2] < 3 || (long long)f[0] * f[1] * f[2] <= PERKS_MG_COARSE_CELLS) break;
        dims[L][0] = (f[0] - 1) / 2, dims[L][1] = (f[1] - 1) / 2, dims[L][2] = (f[2] - 1) / 2;
        L++;
    }
    return L;
}

static inline int perks__mg_grid(long long n)
{
    const long long g = (n + PERKS_MG_THREADS - 1) / PERKS_MG_THREADS;
    return g < 1 ? 1 : g > 8192 ? 8192 : (int)g;
}

/* name_plan: the checks (as cg_stencil's: sizes, tol, max_iter, the weights), the levels, one
 * allocation, onchip_plan's head */
template <class T>
static inline int perks__mg_plan_make(const perks__mg_kern<T> *kern, const perks_cgs_args *a, perks_mg_plan *p)
{
    if (!p) return PERKS_ENULL;
    memset(p, 0, sizeof *p);
    if (!a) return perks__mg_refuse(p, PERKS_ENULL, "refused: the arguments (a) are NULL");
    double dinv = 0;
    const char *why = NULL;
    const int rc = perks__cgs_check_args<perks__mg_star>(a, 3,
                                                         "refused: Chebyshev (opts.cheb) runs in the CSR solver "
                                                         "(perks/cg.cuh), not under the multigrid preconditioner",
                                                         &dinv, &why);
    if (rc) return perks__mg_refuse(p, rc, why);
    if (a->k)
        return perks__mg_refuse(p, PERKS_EUNSUPPORTED, "refused: a.k is set: the multigrid takes the constant "
                                                       "7-point stencil only (perks/cg_stencil.cuh's "
                                                       "ONCHIP_OPERATOR_DIVK instances take k)");
    int dims[PERKS_MG_LEVELS][3];
    const int L = perks__mg_levels(a->nx, a->ny, a->nz, dims);
    const size_t elt = sizeof(T);
    size_t bytes = 0, off[PERKS_MG_LEVELS][3], offp = 0, offq = 0, offpart = 0;
    for (int l = 0; l < L; l++) {
        const size_t v = ((size_t)dims[l][0] * dims[l][1] * dims[l][2] * elt + 255) / 256 * 256;
        for (int k = 0; k < 3; k++) off[l][k] = bytes, bytes += v;
        if (l == 0) offp = bytes, bytes += v, offq = bytes, bytes += v;
    }
    offpart = bytes, bytes += 2 * PERKS_MG_DOT_BLOCKS * sizeof(double);
    char *base = NULL;
    if (cudaMalloc((void **)&base, bytes) != cudaSuccess) {
        cudaGetLastError(); /* the failure is the code, not a sticky error */
        return perks__mg_refuse(p, PERKS_ENOMEM, "refused: the levels' cudaMalloc failed");
    }
    p->base = base;
    double scale = 1.0;
    for (int l = 0; l < L; l++, scale *= 0.25) {
        perks__mg_level *v = &p->lv[l];
        v->op.nx = dims[l][0], v->op.ny = dims[l][1], v->op.nz = dims[l][2], v->op.pad_ = 0;
        v->op.w0 = scale * a->w[0], v->op.w1 = scale * a->w[1], v->op.w2 = scale * a->w[2];
        v->op.w3 = scale * a->w[3], v->op.w4 = scale * a->w[4], v->op.w5 = scale * a->w[5], v->op.w6 = scale * a->w[6];
        v->d = perks__mg_damp(&v->op);
        v->n = (long long)dims[l][0] * dims[l][1] * dims[l][2];
        v->b = base + off[l][0], v->x = base + off[l][1], v->t = base + off[l][2];
    }
    p->levels = L, p->elt = (int)elt;
    p->p = base + offp, p->q = base + offq, p->part = (double *)(base + offpart);
    p->opts = a->opts;
    p->kern = kern;
    p->path = PERKS_MG_PATH_VCYCLE;
    p->why = L > 1 ? "vcycle: CG preconditioned by one symmetric multigrid V-cycle an iteration (damped Jacobi "
                     "before and after, full weighting, trilinear prolongation, Jacobi sweeps on the coarsest "
                     "level), host-driven launches on the stream"
                   : "vcycle: one level only (an axis below 3 cells or a small grid): CG preconditioned by a fixed "
                     "number of damped Jacobi sweeps from 0, host-driven launches on the stream";
    p->steps_per_pass = 0;
    p->passes = 1;
    p->workspace_bytes = bytes;
    p->result = a->x;
    return PERKS_SUCCESS;
}

static inline int perks__mg_ok(void) { return cudaGetLastError() == cudaSuccess ? PERKS_SUCCESS : PERKS_ECUDA; }

/* the rows of the partials (rows x PERKS_MG_DOT_BLOCKS), each summed in block order, into out[] */
static inline int perks__mg_sum(const double *part, int rows, cudaStream_t s, double *out)
{
    double h[2 * PERKS_MG_DOT_BLOCKS];
    if (cudaMemcpyAsync(h, part, (size_t)rows * PERKS_MG_DOT_BLOCKS * sizeof(double), cudaMemcpyDeviceToHost, s) !=
            cudaSuccess ||
        cudaStreamSynchronize(s) != cudaSuccess)
        return PERKS_ECUDA;
    for (int k = 0; k < rows; k++) {
        double t = 0;
        for (int i = 0; i < PERKS_MG_DOT_BLOCKS; i++) t += h[k * PERKS_MG_DOT_BLOCKS + i];
        out[k] = t;
    }
    return PERKS_SUCCESS;
}

/* k damped Jacobi sweeps on level v from *cur (ping-pong between x and t; *cur the last) */
template <class T>
static inline int perks__mg_sweeps(const perks__mg_kern<T> *k, const perks__mg_level *v, int m, cudaStream_t s, T **cur)
{
    const int g = perks__mg_grid(v->n);
    for (int j = 0; j < m; j++) {
        T *nxt = *cur == (T *)v->x ? (T *)v->t : (T *)v->x;
        k->jacobi<<<g, PERKS_MG_THREADS, 0, s>>>(v->op, v->d, (const T *)v->b, *cur, nxt);
        *cur = nxt;
    }
    return perks__mg_ok();
}

/* the V-cycle from x = 0 on every level: z = M r, r in lv[0].b; *z points at lv[0].x or lv[0].t */
template <class T>
static inline int perks__mg_vcycle(const perks_mg_plan *p, cudaStream_t s, T **z)
{
    const perks__mg_kern<T> *k = (const perks__mg_kern<T> *)p->kern;
    T *xs[PERKS_MG_LEVELS];
    const int L = p->levels;
    int rc;
    for (int l = 0; l < L; l++) { /* down: smooth from 0, the residual restricted */
        const perks__mg_level *v = &p->lv[l];
        const int m = l == L - 1 ? PERKS_MG_COARSE_SWEEPS : PERKS_MG_NU, g = perks__mg_grid(v->n);
        k->scale<<<g, PERKS_MG_THREADS, 0, s>>>(v->n, v->d, (const T *)v->b, (T *)v->x);
        xs[l] = (T *)v->x;
        if ((rc = perks__mg_sweeps<T>(k, v, m - 1, s, &xs[l]))) return rc;
        if (l == L - 1) break;
        const perks__mg_level *c = &p->lv[l + 1];
        T *tmp = xs[l] == (T *)v->x ? (T *)v->t : (T *)v->x;
        k->resid<<<g, PERKS_MG_THREADS, 0, s>>>(v->op, (const T *)v->b, xs[l], tmp, NULL);
        k->restr<<<perks__mg_grid(c->n), PERKS_MG_THREADS, 0, s>>>(
            v->op.nx, v->op.ny, c->op.nx, c->op.ny, c->op.nz, tmp, (T *)c->b);
        if ((rc = perks__mg_ok())) return rc;
    }
    for (int l = L - 2; l >= 0; l--) { /* up: the correction added, smooth */
        const perks__mg_level *v = &p->lv[l], *c = &p->lv[l + 1];
        k->prolong<<<perks__mg_grid(v->n), PERKS_MG_THREADS, 0, s>>>(
            v->op.nx, v->op.ny, v->op.nz, c->op.nx, c->op.ny, c->op.nz, xs[l + 1], xs[l]);
        if ((rc = perks__mg_sweeps<T>(k, v, PERKS_MG_NU, s, &xs[l]))) return rc;
    }
    *z = xs[0];
    return PERKS_SUCCESS;
}

/* name_run: PCG (Hestenes-Stiefel) preconditioned by the V-cycle, from x = 0 or a's x (opts.x0); the
 * recurrence residual stops it, the true residual (double) decides success */
template <class T>
static inline int perks__mg_solve(const perks_cgs_args *args, const perks_mg_plan *p, cudaStream_t s)
{
    perks_cg_result r;
    memset(&r, 0, sizeof r);
    if (!args || !p || !args->result) return PERKS_ENULL;
    *args->result = r;
    if (!args->b || !args->x) return args->result->status = PERKS_ENULL;
    if (!p->passes || !p->base || !p->kern || p->elt != (int)sizeof(T)) return args->result->status = PERKS_ESIZE;
    const perks__mg_kern<T> *k = (const perks__mg_kern<T> *)p->kern;
    const perks__mg_level *f = &p->lv[0];
    const long long n = f->n;
    const int G = PERKS_MG_DOT_BLOCKS;
    const T *b = (const T *)args->b;
    T *x = (T *)args->x, *rv = (T *)f->b, *pv = (T *)p->p, *q = (T *)p->q, *z = NULL;
    const double tol = p->opts.tol;
    const int max_iter = p->opts.max_iter;
    double h[2] = {0, 0}, rr = 0, bb = 0, rz = 0, tr = 0;
    int rc = 0, it = 0, status = PERKS_SUCCESS;
    if (!p->opts.x0 && cudaMemsetAsync(x, 0, (size_t)n * sizeof(T), s) != cudaSuccess) {
        rc = PERKS_ECUDA;
        goto out;
    }
    k->resid<<<G, PERKS_MG_THREADS, 0, s>>>(f->op, b, x, rv, p->part);
    if ((rc = perks__mg_ok()) || (rc = perks__mg_sum(p->part, 2, s, h))) goto out;
    rr = h[0], bb = h[1];
    if (rr > tol * tol * bb) {
        if ((rc = perks__mg_vcycle<T>(p, s, &z))) goto out;
        k->dot<<<G, PERKS_MG_THREADS, 0, s>>>(n, rv, z, p->part);
        if ((rc = perks__mg_ok()) || (rc = perks__mg_sum(p->part, 1, s, h))) goto out;
        rz = h[0];
        if (cudaMemcpyAsync(pv, z, (size_t)n * sizeof(T), cudaMemcpyDeviceToDevice, s) != cudaSuccess) {
            rc = PERKS_ECUDA;
            goto out;
        }
        for (;;) {
            if (it >= max_iter) {
                status = PERKS_ENOCONV;
                break;
            }
            if (!(rz > 0)) {
                status = PERKS_EBREAKDOWN;
                break;
            }
            k->apply<<<G, PERKS_MG_THREADS, 0, s>>>(f->op, pv, q, p->part);
            if ((rc = perks__mg_ok()) || (rc = perks__mg_sum(p->part, 1, s, h))) goto out;
            const double pq = h[0];
            if (!(pq > 0)) {
                status = PERKS_EBREAKDOWN;
                break;
            }
            const double alpha = rz / pq;
            k->update<<<G, PERKS_MG_THREADS, 0, s>>>(n, alpha, pv, q, x, rv, p->part);
            if ((rc = perks__mg_ok())) goto out;
            /* the next z before the test: r.r and r.z read back together (one wait an iteration less) */
            if ((rc = perks__mg_vcycle<T>(p, s, &z))) goto out;
            k->dot<<<G, PERKS_MG_THREADS, 0, s>>>(n, rv, z, p->part + G);
            if ((rc = perks__mg_ok()) || (rc = perks__mg_sum(p->part, 2, s, h))) goto out;
            rr = h[0];
            it++;
            if (!(rr > tol * tol * bb)) break;
            const double beta = h[1] / rz;
            rz = h[1];
            k->pupdate<<<perks__mg_grid(n), PERKS_MG_THREADS, 0, s>>>(n, beta, z, pv);
            if ((rc = perks__mg_ok())) goto out;
        }
    }
    r.rel_residual = bb > 0 ? sqrt(rr / bb) : sqrt(rr);
    /* the true residual of x, in double (q is free) */
    k->resid<<<G, PERKS_MG_THREADS, 0, s>>>(f->op, b, x, q, p->part);
    if ((rc = perks__mg_ok()) || (rc = perks__mg_sum(p->part, 2, s, h))) goto out;
    tr = h[1] > 0 ? sqrt(h[0] / h[1]) : sqrt(h[0]);
    if (status == PERKS_SUCCESS && !(tr <= tol)) status = PERKS_EINACCURATE;
    r.status = status, r.iterations = it, r.bnorm = sqrt(h[1]), r.true_residual = tr;
    r.ran = PERKS_CG_RAN_NATIVE;
    r.precond = PERKS_CG_PC_MG, r.pc_degree = p->levels, r.pc_setup_ms = 0;
    rc = status;
out:
    if (rc) r.status = rc;
    r.precond = PERKS_CG_PC_MG, r.pc_degree = p->levels;
    *args->result = r;
    return rc;
}
#endif /* !__CUDACC_RTC__ */

#endif /* PERKS_MG_HOST_CUH */
#include <onchip/names_pop.h>
