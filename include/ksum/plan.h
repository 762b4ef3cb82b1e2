#include <onchip/names_push.h>
/* ksum/plan.h -- the plan every ksum generator's name_plan fills and name_run reads (C99; also C++,
 * CUDA and NVRTC).
 *
 * WHAT
 *   ksum_plan   onchip/plan.h's head, then what the run launches:
 *     path             KSUM_PATH_*: the kernel that computes the sum (below)
 *     why              the rule that chose it (or the refusal), a sentence in static storage
 *     steps_per_pass   0 (ksum has no time steps)
 *     passes           kernel launches name_run makes: the pre-pass (name_norms, name_prepb) and
 *                      name_reduce count, v's cudaMemsetAsync does not; 0 when refused
 *     workspace_bytes  device scratch name_run uses: a->work when it holds that many bytes, else
 *                      cudaMallocAsync / cudaFreeAsync on the stream (0: none)
 *     result           a->v, where the sums are
 *     blocks, splits   the main kernel's grid: blocks of targets (gridDim.x), source splits (gridDim.y)
 *     tiles_per_split  source tiles (small-dim: chunks of 256) a split walks
 *     resident         the staged kernels: 1 targets resident in shared memory (name_kernel), 0
 *                      streamed (name_kernel_stream); the others 0
 *     stage            the staged kernels: coordinates a stage; the others 0
 *     smem_bytes       the main kernel's dynamic shared memory
 *     vec              16-byte loads: bit 0 the targets, bit 1 the sources (register-staged, wgmma)
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
