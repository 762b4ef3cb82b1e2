#include <onchip/names_push.h>
/* ksum/tc.cuh -- the tensor-core path: dot products on TF32 mma (sm_80+), FP32 epilogue.
 *
 * WHAT (ksum.cuh's generators with T ksum_tf32 or ksum_tf32x3: float data)
 *   KSUM_DEFINE(name, ksum_tf32, KERNEL, ksum_policy<R, MINB, SCHEDULE, WIDE_RES, WIDE_STREAM>)
 *   defines name_norms, name_kernel, name_kernel_stream (mma.sync), name_prepb, name_kernel_wg
 *   (wgmma), name_plan, name_run and name_launch (ksum.cuh): KSUM_DEFINE of float's sum with the
 *   dot products on TF32 mma (FP32 accumulation, norms, kernel function and sums).
 *   ksum_tf32: one pass; ksum_tf32x3: the split x = big + small, a.b ~ big.big + big.small +
 *   small.big, near FP32 at 3x the tensor work (docs/ksum.md#accuracy).  256 threads, 128 x 128
 *   tiles.  The fields (ksum.cuh: R, MINB):
 *     SCHEDULE     KSUM_SCHEDULE_AUTO (0): the wgmma kernel (wgmma.cuh) on an sm_90 device with
 *                  sm_90a code in the build, up to dim 288 (one pass) / 64 (three), where a->work is
 *                  NULL or holds the prepared sources, else mma.sync; KSUM_SCHEDULE_MMA: mma.sync
 *                  only (name_prepb, name_kernel_wg empty).  p.path and p.why say which.
 *     WIDE_RES, WIDE_STREAM   the mma.sync kernels' fragment reads, resident and streamed, 0 to 4
 *                  (docs/ksum.md#tf32-fragment-placement); -1 (the default): 4 / 0 one pass, 1 / 0
 *                  three passes.
 *   KSUM_REGS_DEFINE(name, ksum_tf32, KERNEL, ksum_regs_policy<R, 8, 8, MINB>): the register-staged
 *   mma.sync kernel (KSUM_PATH_REGS_MMA), 19 KB of static shared memory.
 *   Below sm_80 name_plan returns KSUM_EUNSUPPORTED after the checks (the header compiles for sm_75).
 *
 * EXAMPLE
 *   [compile: ksum_args k; cudaStream_t stream]
 *     #include <ksum/tc.cuh>
 *     KSUM_DEFINE(gauss_tc, ksum_tf32x3, KSUM_GAUSS, ksum_policy<>)     // 3-pass TF32, one rhs
 *
 *     ksum_plan p;                                   // k as for KSUM_DEFINE (float data)
 *     int rc = gauss_tc_plan(&k, &p);                 // p.path: KSUM_PATH_WGMMA or KSUM_PATH_MMA
 *     if (!rc) rc = gauss_tc_run(&k, &p, stream);
 *
 * LIMITS (static_asserts naming the generator, the instance and the field)
 *   R >= 1; MINB >= 0; SCHEDULE AUTO or MMA; WIDE_RES and WIDE_STREAM -1 to 4; TM x TN 8 x 8.
 *
 * NVRTC (docs/python.md): kernels only (name_kernel_wg's body for sm_90a only); no host functions.
 */
#ifndef KSUM_TC_CUH
#define KSUM_TC_CUH

#include "ksum.cuh"
#include "wgmma.cuh"
#include "ksum/tc.cuh"

#endif
#include <onchip/names_pop.h>
