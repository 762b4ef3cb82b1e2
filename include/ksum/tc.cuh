#include <onchip/names_push.h>
/* ksum/tc.cuh -- the tensor-core path: dot products on TF32 mma (sm_80+), FP32 epilogue.
 *
 * WHAT (ksum.cuh's generators with T ksum_tf32 or ksum_tf32x3: float data)
 *   KSUM_DEFINE(name, ksum_tf32, KERNEL, ksum_policy<R, MINB, SCHEDULE, WIDE_RES, WIDE_STREAM>)
 *   defines name_norms, name_kernel, name_kernel_stream (mma.sync), name_prepb, name_kernel_wg
 *   (wgmma), name_plan, name_run and name_launch (ksum.cuh), computing the sum of KSUM_DEFINE(name,
 *   float, KERNEL, ...) with the dot products on mma.sync.m16n8k8 TF32 (FP32 accumulation).
 *   ksum_tf32: one pass (t = s d^2 errs by about 2^-11 * 2 s |a||b|: kernel values ~1e-3 relative
 *   off where t is a few units); ksum_tf32x3: the split x = big + small, a.b ~ big.big + big.small +
 *   small.big, near FP32 at 3x the tensor work.
 *   Norms, kernel function and sums are FP32.  For dim >= 16 (below, the SIMT path is exp- or
 *   issue-bound).  256 threads, 128 x 128 tiles.  The fields (ksum.cuh: R, MINB):
 *     SCHEDULE     KSUM_SCHEDULE_AUTO (0): on an sm_90 device with sm_90a code in the build (nvcc
 *                  -arch=sm_90a; ARCH=90) the wgmma kernel (wgmma.cuh) up to dim 288 (one pass) / 64
 *                  (three) where a->work is NULL or holds the prepared sources (that plan's
 *                  workspace_bytes), else mma.sync; KSUM_SCHEDULE_MMA: mma.sync only (name_prepb,
 *                  name_kernel_wg empty).  name_plan says which (p.path KSUM_PATH_WGMMA or
 *                  KSUM_PATH_MMA, p.why).
 *     WIDE_RES, WIDE_STREAM   the mma.sync kernels' fragment reads, resident and streamed, 0 to 4
 *                  (docs/ksum.md#tf32-fragment-placement); -1 (the default): 4 / 0 one pass, 1 / 0
 *                  three passes.
 *   KSUM_REGS_DEFINE(name, ksum_tf32, KERNEL, ksum_regs_policy<R, 8, 8, MINB>): the register-staged
 *   mma.sync kernel (KSUM_PATH_REGS_MMA), a barrier per 8-coordinate chunk, 19 KB of static shared
 *   memory (the bench row tf32-v1; devices with little shared memory).  MINB 0: 2 blocks per SM for
 *   R = 1, 1 above.
 *   Below sm_80 name_plan returns KSUM_EUNSUPPORTED after the checks (the header compiles for sm_75).
 *   How each runs: docs/ksum.md.
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
