#include <onchip/names_push.h>
/* ksum/wgmma.cuh -- Hopper warpgroup MMA (wgmma, sm_90a): the pieces, and ksum's TF32 kernel on them.
 *
 * WHAT
 *   Pieces for a kernel of one's own (the table: docs/ksum.md#pieces-for-a-kernel-of-ones-own;
 *   empty outside an sm_90a build, where KSUM_WG_ON is 0 -- check it, as ksum__wg_body does):
 *     ksum_wg_swz(r, k), ksum_wg_desc(saddr)   a K-major tile of 32-float rows, 128-byte swizzle
 *     ksum_wg_mma_tf32(d, da, db, acc)   d[64] (+)= A B^T, one wgmma.m64n128k8 TF32 (A 64 x 8, B
 *                                 128 x 8); d[4c + 2h + e] = D[16w + t/4 + 8h][8c + 2(t%4) + e]
 *     ksum_wg_fence(), ksum_wg_commit(), ksum_wg_wait<N>() (KSUM_WG_WAIT(N))
 *     ksum_mbar_init / _init_fence / _expect / _wait, ksum_bulk_copy (TMA without a tensor map)
 *     ksum__fence_async()         makes generic shared-memory writes visible to wgmma
 *   ksum__wg_body<PASSES, R, FAC>: the kernel KSUM_DEFINE of T ksum_tf32 / ksum_tf32x3 runs on
 *   sm_90 with sm_90a code (KSUM_PATH_WGMMA); KSUM__WG_KERNELS(name, KERNEL, CFG) defines it
 *   (name_kernel_wg) and the sources' pre-pass name_prepb.  docs/ksum.md#design-notes-ksumwgmmacuh.
 *
 * LIMITS
 *   dim <= 288 (1 pass), <= 64 (3 passes) in 227 KB of shared memory; larger dim runs the mma.sync
 *   kernels.  1 block per SM.  Built without sm_90a the body is empty and never launched.
 */
#ifndef KSUM_WGMMA_CUH
#define KSUM_WGMMA_CUH

#include "ksum.cuh"
#include "ksum/wgmma.cuh"

#endif
#include <onchip/names_pop.h>
