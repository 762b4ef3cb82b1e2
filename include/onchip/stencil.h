#include <onchip/names_push.h>
/* onchip/stencil.h -- one stencil problem as every stencil engine takes it: the fields, their
 * layout, the weights, the boundary policy and the steps; then the engine's choices, 0 meaning the
 * planner's (C99; also C++, CUDA and NVRTC, where it is a plain struct).
 *
 * WHAT
 *   onchip_stencil_args   the arguments of name_plan, name_run and name_launch of the ssam stencils
 *                         (one pass, temporal blocking, tensor cores) and the perks persistent
 *                         stencils (ssam_stencil_args and perks_stencil2d_args / 3d_args name it)
 *   After a.steps steps the state is in the plan's result: a.src or a.dst, by the parity of the
 *   passes (ping-pong; both buffers are written).
 *   onchip_field          a coefficient field: pointer, pitch, plane (the state's domain)
 *   a.update, a.field[]   how the new state u' is formed from L u = sum over the shape's points of
 *                         coef[I] u(cell + d_I):
 *     ONCHIP_UPDATE_SUM       u' = L u
 *     ONCHIP_UPDATE_LEAPFROG  u' = 2 u - u_prev + s L u          (the wave equation's three levels)
 *     ONCHIP_UPDATE_DAMPED    u' = (2 u - (1 - d) u_prev + s L u) / (1 + d)    (absorbing layers)
 *   where u_prev is dst's cell (the level before src; u' overwrites it, so two buffers hold three
 *   levels), s = field[ONCHIP_FIELD_SCALE] (1 where its p is NULL) and d = field[ONCHIP_FIELD_DAMP];
 *   the kept boundary cells keep u.  onchip_stencil_plain_why(&a): NULL for the plain sum with no
 *   field, else the sentence of an engine that forms only that.
 *
 * EXAMPLE
 *   [compile: float *d_u0, *d_u1; int W, H]
 *   float c[5] = {0.6f, 0.1f, 0.1f, 0.1f, 0.1f};   // host memory, in the shape's point order
 *   onchip_stencil_args a = {0};
 *   a.src = d_u0; a.dst = d_u1; a.nx = W; a.ny = H;
 *   a.coef = c; a.ncoef = 5; a.boundary = ONCHIP_KEEP_EXTENT; a.steps = 100;
 *   if (a.nx < 1 || a.ny < 1) return;   // an empty domain: every engine refuses it
 *
 * LIMITS
 *   Each engine states which policies, layouts and choices it takes and refuses the rest with its
 *   module's code (SSAM_EBORDER, PERKS_EBOUNDARY, ...); a field that concerns other engines only is
 *   ignored where its comment says so.
 */
#ifndef ONCHIP_STENCIL_H
#define ONCHIP_STENCIL_H

#ifndef __CUDACC_RTC__
#include <stddef.h>
#endif
#include <onchip/boundary.h>

/* the updates (args.update) and the fields' roles (the index into args.field) */
#define ONCHIP_UPDATE_SUM 0
#define ONCHIP_UPDATE_LEAPFROG 1
#define ONCHIP_UPDATE_DAMPED 2
#define ONCHIP_FIELD_SCALE 0 /* s, scaling the stencil's sum cell by cell */
#define ONCHIP_FIELD_DAMP 1  /* d, the damping of ONCHIP_UPDATE_DAMPED */
#define ONCHIP_FIELDS 4      /* args.field's length */

typedef struct onchip_field {
    const void *p;          /* T *, device; NULL: no field */
    long long pitch, plane; /* elements between its rows / planes; 0: those of src and dst */
} onchip_field;

typedef struct onchip_stencil_args {
    /* the problem */
    const void *src;        /* T *, device: the state at step 0 */
    void *dst;              /* T *, device: a second buffer of the same layout (ping-pong) */
    int nx, ny, nz;         /* cells per row, rows, planes (2D: nz 0 or 1) */
    long long pitch, plane; /* elements between rows / planes of src and dst; 0: dense */
    const void *coef;       /* T *, HOST memory: ncoef weights, coef[I] for the shape's point I */
    int ncoef;              /* the shape's largest I + 1 */
    int boundary;           /* onchip/boundary.h: ONCHIP_KEEP_EXTENT (0), ONCHIP_PERIODIC, ... */
    int steps;              /* time steps, >= 0 */
    int update;             /* ONCHIP_UPDATE_SUM (0), _LEAPFROG, _DAMPED: how u' is formed (above) */
    onchip_field field[ONCHIP_FIELDS]; /* by role, ONCHIP_FIELD_SCALE, ...: the update's fields */
    /* the engine's choices: 0 the planner's */
    int path;               /* a path the engine names (its *_PATH_* / *_KERNEL_* constants) */
    int cache;              /* persistent engines: where the domain stays between steps (PERKS_CACHE_*) */
    int blocks_per_sm;      /* persistent engines: co-resident blocks an SM */
    int cache_rows_max;     /* persistent engines: at most this many cached rows (2D) / planes (3D) a tile */
    void *work;             /* device workspace of the plan's workspace_bytes; NULL: the run allocates it */
    size_t work_bytes;      /* the bytes at work */
} onchip_stencil_args;

#ifndef __CUDACC_RTC__ /* host code: not under NVRTC */
/* NULL when a asks for the plain sum (ONCHIP_UPDATE_SUM, no field); else why an engine that forms
 * only the plain sum refuses it */
static inline const char *onchip_stencil_plain_why(const onchip_stencil_args *a)
{
    int i;
    if (a->update != ONCHIP_UPDATE_SUM)
        return a->update == ONCHIP_UPDATE_LEAPFROG || a->update == ONCHIP_UPDATE_DAMPED
                   ? "an update other than ONCHIP_UPDATE_SUM (args.update): this engine forms the plain sum only"
                   : "args.update is not an ONCHIP_UPDATE_* value";
    for (i = 0; i < ONCHIP_FIELDS; i++)
        if (a->field[i].p) return "a coefficient field (args.field[]): this engine takes constant coefficients only";
    return 0;
}
#endif

#endif /* ONCHIP_STENCIL_H */
#include <onchip/names_pop.h>
