#include <onchip/names_push.h>
/* ssam/plan.h -- the plan every ssam family's name_plan fills and name_run reads (C99; also C++,
 * CUDA and NVRTC).
 *
 * WHAT
 *   ssam_plan   onchip/plan.h's head (path, why, steps_per_pass, passes, workspace_bytes, result),
 *               nothing more: the ssam kernels need no workspace and keep no state between calls
 *   the paths (ssam_plan.path), each named by what runs:
 *     SSAM_PATH_SIMT      the tensor-core families' fallback on the CUDA cores
 *     SSAM_PATH_TC        tensor cores (ssam/conv_tc.cuh, ssam/stencil_tc.cuh)
 *     SSAM_PATH_ONEPASS   one pass a step: 2D rows, 3D register streaming along z
 *     SSAM_PATH_SLICE     one pass a step, 3D slices (z partial sums through shared memory)
 *     SSAM_PATH_TEMPORAL  temporal blocking: steps_per_pass steps a pass through memory
 *     SSAM_PATH_SYSTOLIC  the convolution's systolic walk (ssam/conv.cuh)
 *     SSAM_PATH_QUEUED    the convolution's queued walk (ssam/conv.cuh)
 *
 * EXAMPLE
 *   [compile in a function]
 *   ssam_plan p = {0};
 *   if (p.path == SSAM_PATH_TEMPORAL && p.steps_per_pass < 2) return;
 */
#ifndef SSAM_PLAN_H
#define SSAM_PLAN_H

#include <onchip/plan.h>

#define SSAM_PATH_SIMT 1
#define SSAM_PATH_TC 2
#define SSAM_PATH_ONEPASS 3
#define SSAM_PATH_SLICE 4
#define SSAM_PATH_TEMPORAL 5
#define SSAM_PATH_SYSTOLIC 6
#define SSAM_PATH_QUEUED 7

typedef onchip_plan ssam_plan;

#endif /* SSAM_PLAN_H */
#include <onchip/names_pop.h>
