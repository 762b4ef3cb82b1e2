#include <onchip/names_push.h>
/* perks/cg_stencil.cuh -- matrix-free conjugate gradient: the operator is a constant-coefficient stencil
 * on a 2D or 3D grid with homogeneous Dirichlet boundary, applied on the fly inside one persistent
 * kernel; double, float, or mixed (float iterations, double replacements and true residual).
 *
 * WHAT (PERKS paper sections 3-4: the CG time loop inside one cooperative kernel; the operator is
 * recomputed from the vector each phase instead of being read as a matrix)
 *   PERKS_CG_STENCIL3D_DEFINE(name, T, SHAPE)   SHAPE a 3D X-macro list (perks/stencil/shapes.cuh)
 *   PERKS_CG_STENCIL2D_DEFINE(name, T, SHAPE)   SHAPE a 2D list; the grid's nz is 1
 *       __global__ void name_kernel(perks_cgs_kargs)   every CG iteration (perks_cgs_body<T, S, k>)
 *       int name_solve(nx, ny, nz, const double *w, const T *d_b, T *d_x, const perks_cg_opts *o,
 *                      perks_cg_result *res, cudaStream_t stream)                  (synchronous)
 *   PERKS_CG_STENCIL3D_MIXED_DEFINE(name, SHAPE), PERKS_CG_STENCIL2D_MIXED_DEFINE(name, SHAPE)
 *       name_fkernel (float), name_dkernel (double) and name_solve with double d_b, d_x
 *   The system: cells (x, y, z), x fastest (index x + nx (y + ny z)), one unknown each;
 *       (A v)(c) = sum over the shape's points (I, DX, DY, DZ) of w[I] v(c + (DX, DY, DZ))
 *   with v = 0 outside the grid (Dirichlet values belong in b).  w: ncoef doubles on the HOST (the
 *   shape's coefficient indices 0 .. ncoef-1).  Options, result and codes are perks/cg.cuh's
 *   (perks_cg_opts, perks_cg_result): tol, max_iter, jacobi, x0 are read; the rest are CSR options.
 *
 * THE ITERATION (classic CG, the arithmetic of perks/cg.cuh's grid kernel; 2 grid barriers)
 *   phase A   p' = z + beta p, q = A p' and the partial p'.q, where the gather evaluates
 *             z + beta p at each neighbour (fma, the bits the owner stores); q is not stored
 *   barrier   alpha = r.z / p'.q  (not positive or not finite: PERKS_EBREAKDOWN)
 *   phase B   q = A p' again from the stored p' (the same bits), x += alpha p', r -= alpha q,
 *             z = r / w_centre (Jacobi) or r; partials r.r, r.z
 *   barrier   beta; stop when r.r <= tol^2 b.b
 *   Iterations equal the CSR solver's on the same operator (the test checks it).  Bytes an
 *   iteration: phase A reads r, p and writes p'; phase B reads p', x, r and writes x, r: 8 vectors,
 *   64 bytes a cell in double (32 in float), against 12 bytes a nonzero plus 6 vectors for CSR.
 *   The sweep: blocks of 32 x 8 threads own a tile of columns and march a chunk of z; the column's
 *   values along z sit in a register window (points with DX = DY = 0 read it), the other points
 *   load through L1 (the block's own plane and its neighbours').  Work items (tile, z chunk) go to
 *   blocks round-robin; the chunk length is the planner's (the fewest rounds of the longest block).
 *   Float kernels in 3D step 2 planes at a time (twice the loads in flight for half the bytes).
 *
 * WHAT A SUCCESS MEANS (as perks/cg.cuh)
 *   Every solve ends with res.true_residual = ||b - A x|| / ||b|| summed in double from w, b and x as
 *   stored, and res.rounding_floor / res.at_floor.  PERKS_SUCCESS only when true_residual <= tol.
 *   Double and float: when the recurrence met tol and the true residual did not, up to
 *   PERKS_CG_RESTARTS refinements (r = b - A x in double, A d = r solved to PERKS_CG_RESTART_TOL tol
 *   ||b|| from d = 0, x += d; res.replacements counts them) while each lowers the true residual;
 *   one that does not is undone; then PERKS_EINACCURATE.
 *   Mixed (res.ran = PERKS_CG_RAN_MIXED): the caller's x is double; the float kernel iterates on a
 *   float correction and replaces the residual in double inside the kernel (reliable updates, as
 *   PERKS_CG_MIXED_DEFINE): x_hi += x, x = 0, r = (float)(b - A x_hi) summed in double, p kept.
 *   Replacements: every PERKS_CG_MIXED_PERIOD (200) iterations, when ||r|| fell PERKS_CG_MIXED_DELTA
 *   (10x) since the last one, and when the recurrence meets tol (the double residual decides;
 *   PERKS_CG_STALL such in a row that do not lower it to a quarter end the float solve).  A float
 *   solve that stalls or breaks down hands x to the double kernel (PERKS_CG_RAN_FALLBACK), which
 *   goes on with the iterations left.  res.replacements counts the replacements.
 *
 * EXAMPLE
 *   [compile: const double *d_b; double *d_x]
 *   #include <perks/cg_stencil.cuh>
 *   PERKS_CG_STENCIL3D_DEFINE(poisson, double, ONCHIP_SHAPE_STAR3D_R1)
 *
 *   const double w[7] = {6, -1, -1, -1, -1, -1, -1};       // -laplace, h = 1
 *   perks_cg_opts o = perks_cg_defaults();
 *   perks_cg_result res;
 *   int rc = poisson_solve(256, 256, 256, w, d_b, d_x, &o, &res, 0);
 *
 * LIMITS AND ERRORS
 *   Static (each sentence names the generator and the instance): T float or double; SHAPE holds
 *   the centre point (0, 0, 0), its points come in opposite pairs (an offset and its negative),
 *   radius at most 4, at most PERKS_CGS_MAXCOEF (128) coefficients.
 *   name_solve: PERKS_ENULL a NULL w, d_b, d_x or o; PERKS_ESIZE a side < 1, nz != 1 for the 2D
 *   generators, more than 2^31 - 1 cells, tol not positive or not finite, max_iter < 0;
 *   PERKS_EDIAG the centre's weight not positive or not finite; PERKS_EFORMAT another weight not
 *   finite; PERKS_ENOTSYM the weights of an offset and of its negative differ (the operator is
 *   not symmetric); PERKS_EBREAKDOWN p.Ap <= 0 (the operator is not positive definite for this b);
 *   PERKS_ENOCONV, PERKS_EINACCURATE as perks/cg.cuh; PERKS_ECUDA, PERKS_ENOMEM, PERKS_ENOCOOP.
 *   Workspace: 6 n doubles (cudaMalloc, freed before return).  The launch is cooperative: every
 *   block resident (the grid is the occupancy's).
 */
#ifndef PERKS_CG_STENCIL_CUH
#define PERKS_CG_STENCIL_CUH

#include "cg_stencil/body.cuh"
#include "cg_stencil/host.cuh"

/* ---- the generators ------------------------------------------------------------------------------ */
#define PERKS__CGS_ASSERTS(GEN, name, S)                                                                    \
    static_assert(perks__cgs_shape<S>::centre, #GEN "(" #name "): SHAPE must contain the centre point (0, 0, 0)"); \
    static_assert(perks__cgs_shape<S>::paired,                                                               \
                  #GEN "(" #name "): SHAPE's points must come in opposite pairs (the operator is symmetric)"); \
    static_assert(S::rmax <= 4, #GEN "(" #name "): SHAPE's radius must be at most 4");                        \
    static_assert(S::ncoef <= PERKS_CGS_MAXCOEF, #GEN "(" #name "): SHAPE may have at most 128 coefficients")
#define PERKS__CGS_KERNEL(kname, T, S, MX)                                                                  \
    __global__ void __launch_bounds__(PERKS_CGS_BLOCK, (perks__cgs_cfg<perks__cg_real<T>::type, S, MX>::minb)) \
        kname(perks_cgs_kargs a)                                                                              \
    { struct k; perks_cgs_body<perks__cg_real<T>::type, S, k, MX>(a); }

#define PERKS_CG_STENCIL3D_DEFINE(name, T, SHAPE)                                                            \
    PERKS__CGS_DEFINE(PERKS_CG_STENCIL3D_DEFINE, name, T, ONCHIP_SHAPE3D_TYPE(SHAPE), 3)
#define PERKS_CG_STENCIL2D_DEFINE(name, T, SHAPE)                                                            \
    PERKS__CGS_DEFINE(PERKS_CG_STENCIL2D_DEFINE, name, T, ONCHIP_SHAPE2D_TYPE(SHAPE), 2)
#define PERKS__CGS_DEFINE(GEN, name, T, ST, DIMS)                                                           \
    typedef ST name##__shape;                                                                                \
    static_assert(perks__cg_real<T>::ok, #GEN "(" #name "): T must be float or double");                     \
    PERKS__CGS_ASSERTS(GEN, name, name##__shape);                                                            \
    PERKS__CGS_KERNEL(name##_kernel, T, name##__shape, false)                                                       \
    PERKS__CGS_HOST(name, T, name##__shape, DIMS, name##_kernel, NULL)

#define PERKS_CG_STENCIL3D_MIXED_DEFINE(name, SHAPE)                                                         \
    PERKS__CGS_MIXED(PERKS_CG_STENCIL3D_MIXED_DEFINE, name, ONCHIP_SHAPE3D_TYPE(SHAPE), 3)
#define PERKS_CG_STENCIL2D_MIXED_DEFINE(name, SHAPE)                                                         \
    PERKS__CGS_MIXED(PERKS_CG_STENCIL2D_MIXED_DEFINE, name, ONCHIP_SHAPE2D_TYPE(SHAPE), 2)
#define PERKS__CGS_MIXED(GEN, name, ST, DIMS)                                                                \
    typedef ST name##__shape;                                                                                \
    PERKS__CGS_ASSERTS(GEN, name, name##__shape);                                                            \
    PERKS__CGS_KERNEL(name##_fkernel, float, name##__shape, true)                                                  \
    PERKS__CGS_KERNEL(name##_dkernel, double, name##__shape, false)                                                 \
    PERKS__CGS_HOST(name, double, name##__shape, DIMS, name##_dkernel, name##_fkernel)

#ifndef __CUDACC_RTC__
#define PERKS__CGS_HOST(name, T, S, DIMS, KNATIVE, KFLOAT)                                                  \
    static inline __attribute__((unused)) int name##_solve(int nx, int ny, int nz, const double *w, const T *d_b, \
                                                           T *d_x, const perks_cg_opts *o, perks_cg_result *res, \
                                                           cudaStream_t stream)                               \
    {                                                                                                        \
        return perks__cgs_solve<S, T>((const void *)KNATIVE, (const void *)KFLOAT, DIMS, nx, ny, nz, w, d_b, d_x, o, \
                                      res, stream);                                                          \
    }
#else
#define PERKS__CGS_HOST(name, T, S, DIMS, KNATIVE, KFLOAT)
#endif

#endif /* PERKS_CG_STENCIL_CUH */
#include <onchip/names_pop.h>
