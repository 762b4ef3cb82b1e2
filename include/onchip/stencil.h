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
    /* the engine's choices: 0 the planner's */
    int path;               /* a path the engine names (its *_PATH_* / *_KERNEL_* constants) */
    int cache;              /* persistent engines: where the domain stays between steps (PERKS_CACHE_*) */
    int blocks_per_sm;      /* persistent engines: co-resident blocks an SM */
    int cache_rows_max;     /* persistent engines: at most this many cached rows (2D) / planes (3D) a tile */
    void *work;             /* device workspace of the plan's workspace_bytes; NULL: the run allocates it */
    size_t work_bytes;      /* the bytes at work */
} onchip_stencil_args;

#endif /* ONCHIP_STENCIL_H */
#include <onchip/names_pop.h>
