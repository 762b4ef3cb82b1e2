#include <onchip/names_push.h>
/* onchip/stdint.h -- the fixed-width integer types in every compiler the kit serves (C99; also C++,
 * CUDA and NVRTC).
 *
 * WHAT
 *   int8_t .. int64_t, uint8_t .. uint64_t, intptr_t, uintptr_t, INT64_MAX, UINT32_MAX: from
 *   <stdint.h>; under NVRTC (no C library headers) from libcu++'s <cuda/std/cstdint> where the
 *   toolkit's include/cccl is on the path, else typedefs of the same builtins.
 *
 * EXAMPLE
 *   [compile in a function]
 *   uint64_t bits = (uint64_t)UINT32_MAX + 1;   // 2^32
 *   if (bits >> 32 != 1) return;
 */
#ifndef ONCHIP_STDINT_H
#define ONCHIP_STDINT_H

#ifndef __CUDACC_RTC__
#include <stdint.h>
#else
#if defined(__has_include) && __has_include(<cuda/std/cstdint>)
#include <cuda/std/cstdint>
#else
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
#define INT64_MAX 9223372036854775807LL
#define UINT32_MAX 4294967295U
#endif
#endif

#endif /* ONCHIP_STDINT_H */
#include <onchip/names_pop.h>
