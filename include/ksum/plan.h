#include <onchip/names_push.h>
/* ksum/plan.h -- the plan every ksum generator's name_plan fills and name_run reads (C99; also C++,
 * CUDA and NVRTC).
 *
 * WHAT (each field: docs/ksum.md#plans)
 *   ksum_plan   onchip/plan.h's head (path, why, steps_per_pass 0, passes, workspace_bytes, result
 *               a->v), then what the run launches: blocks, splits (the main kernel's grid),
 *               tiles_per_split, resident and stage (the staged kernels; the others 0), smem_bytes,
 *               vec (16-byte loads: bit 0 the targets, bit 1 the sources)
 *   the paths, each named by the kernel that runs:
 *     KSUM_PATH_MMA       TF32 mma.sync, staged (KSUM_DEFINE of ksum_tf32 / ksum_tf32x3; tc.cuh)
 *     KSUM_PATH_WGMMA     TF32 wgmma (the same generator on an sm_90 device with sm_90a code)
 *     KSUM_PATH_STAGED    SIMT float, staged by cp.async (KSUM_DEFINE of float)
 *     KSUM_PATH_REGS      SIMT register-staged (KSUM_DEFINE of double, KSUM_REGS_DEFINE of float, double)
 *     KSUM_PATH_REGS_MMA  TF32 mma.sync, register-staged (KSUM_REGS_DEFINE of ksum_tf32 / ksum_tf32x3)
 *     KSUM_PATH_SMALLDIM  the small-dim kernel (KSUM_SMALLDIM_DEFINE)
 *
 * EXAMPLE
 *   [compile in a function]
 *   ksum_plan p = {0};
 *   if (p.path == KSUM_PATH_WGMMA && p.passes != 2) return;
 */
#ifndef KSUM_PLAN_H
#define KSUM_PLAN_H

#include <onchip/plan.h>

#define KSUM_PATH_MMA 1
#define KSUM_PATH_WGMMA 2
#define KSUM_PATH_STAGED 3
#define KSUM_PATH_REGS 4
#define KSUM_PATH_REGS_MMA 5
#define KSUM_PATH_SMALLDIM 6

typedef struct ksum_plan {
    ONCHIP_PLAN_HEAD /* onchip/plan.h */
    long long blocks;
    int splits, tiles_per_split;
    int resident, stage;
    size_t smem_bytes;
    int vec;
} ksum_plan;

#endif /* KSUM_PLAN_H */
#include <onchip/names_pop.h>
