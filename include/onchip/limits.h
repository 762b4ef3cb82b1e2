#include <onchip/names_push.h>
/* onchip/limits.h -- the hardware limits the kit's checks name (C99; also C++, CUDA and NVRTC).
 *
 * WHAT
 *   Every architecture the kit builds for (sm_70 and up):
 *     ONCHIP_THREADS_PER_BLOCK_MAX  1024   threads of a block
 *     ONCHIP_REGS_PER_THREAD_MAX    255    registers of a thread
 *     ONCHIP_SMEM_DEFAULT_MAX       48 KB  shared memory of a block without the opt-in
 *                                          (cudaFuncAttributeMaxDynamicSharedMemorySize)
 *   sm_90:
 *     ONCHIP_SMEM_OPTIN_MAX         227 KB shared memory of a block with the opt-in: the largest
 *                                          of the architectures the kit builds for, the bound of
 *                                          the generators' static_asserts
 *     ONCHIP_SM90_SMEM_PER_SM       228 KB shared memory of an SM
 *     ONCHIP_SM90_SMEM_RESERVED     1 KB   of it reserved for each resident block
 *     ONCHIP_SM90_REGS_PER_SM       65536  registers of an SM
 *     ONCHIP_SM90_THREADS_PER_SM    2048   threads (64 warps) resident on an SM
 *     ONCHIP_SM90_BLOCKS_PER_SM     32     blocks resident on an SM
 *
 * EXAMPLE
 *   [compile: size_t bytes; const void *kernel]
 *   if (bytes > ONCHIP_SMEM_DEFAULT_MAX)
 *       cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
 *
 * LIMITS
 *   int constants, for compile-time bounds and descriptions off-line; a launch asks the device
 *   (cudaDevAttrMaxSharedMemoryPerBlockOptin: 163 KB on sm_80, 99 KB on sm_86 and sm_89).
 */
#ifndef ONCHIP_LIMITS_H
#define ONCHIP_LIMITS_H

#define ONCHIP_THREADS_PER_BLOCK_MAX 1024
#define ONCHIP_REGS_PER_THREAD_MAX 255
#define ONCHIP_SMEM_DEFAULT_MAX 49152 /* 48 * 1024 */

#define ONCHIP_SMEM_OPTIN_MAX 232448 /* 227 * 1024 */
#define ONCHIP_SM90_SMEM_PER_SM 233472 /* 228 * 1024 */
#define ONCHIP_SM90_SMEM_RESERVED 1024
#define ONCHIP_SM90_REGS_PER_SM 65536
#define ONCHIP_SM90_THREADS_PER_SM 2048
#define ONCHIP_SM90_BLOCKS_PER_SM 32

#endif /* ONCHIP_LIMITS_H */
#include <onchip/names_pop.h>
