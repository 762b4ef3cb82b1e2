#include <onchip/names_push.h>
/* ksum/smalldim.cuh -- fused kernel summation for few coordinates (dim <= DMAX <= 8), float:
 * targets in registers, sources broadcast from shared memory, no GEMM tile.
 *
 * WHAT (docs/ksum.md#small-dim-path)
 *   KSUM_SMALLDIM_DEFINE(name, KERNEL, ksum_smalldim_policy<DMAX, R, GF, NPOLY, MINB>)
 *   defines  __global__ name_kernel, name_reduce  and  name_plan, name_run, name_launch (ksum.cuh; the
 *   path KSUM_PATH_SMALLDIM), the arguments, flags and status codes of base.cuh, for dim <= DMAX (a
 *   larger dim: KSUM_ESIZE) and nrhs <= R; KERNEL any kernel (epilogue.cuh), float data.  The fields:
 *     DMAX   the most coordinates (8)             R      right-hand sides (1)
 *     GF     1: the Gaussian factorised, one MUFU.EX2 a pair (KERNEL must be KSUM_GAUSS); 0 (the
 *            default): the general path
 *     NPOLY  (0..8, default 0) of every 8 pairs compute 2^-u by a polynomial on the FMA pipe (GF 1)
 *     MINB   the __launch_bounds__ blocks per SM; 0 (the default): 2 while DMAX + R <= 9, else 1
 *   No norm pre-pass.  KSUM_DETERMINISTIC: each split's sums into the workspace (p.workspace_bytes:
 *   splits x m x nrhs floats, at least ksum_work_bytes; none with one split), added in split order by
 *   name_reduce (bitwise reruns on one device).
 *
 * EXAMPLE
 *   [compile: const float *targets, *sources, *w; float *v; int M, N; cudaStream_t stream]
 *     #include <ksum/smalldim.cuh>
 *     KSUM_SMALLDIM_DEFINE(kde3, KSUM_GAUSS, ksum_smalldim_policy<3, 1, 1>)   // dim <= 3, one rhs, factorised
 *
 *     ksum_args k = {};  k.a = targets; k.b = sources; k.w = w; k.v = v; k.m = M; k.n = N; k.dim = 3;
 *     k.h = 0.1;  int rc = kde3_launch(&k, stream);      // kde3_plan + kde3_run
 *
 * ACCURACY  as ksum.cuh's; float sums in source order per split (docs/ksum.md#accuracy).
 *
 * LIMITS  float only; dim <= DMAX <= 8; R >= 1; 256 threads, 2048 targets a block.  Static_asserts:
 *   DMAX 1 to 8, R >= 1, MINB >= 0, NPOLY 0 to 8, GF = 1 only with KSUM_GAUSS.
 *
 * STRUCTURE: name_kernel calls ksum__sd_body<DMAX, R, GF, NPOLY>, name_reduce ksum__sd_reduce,
 *   name_plan / name_run ksum__plan_sd / ksum__run_sd; the policy is typedef'd as name_policy.
 *   GLOSSARY of the internal bodies' names: docs/ksum.md#ksum-glossary.
 *   NVRTC (docs/python.md): name_kernel and name_reduce only.
 */
#ifndef KSUM_SMALLDIM_CUH
#define KSUM_SMALLDIM_CUH

#include "ksum.cuh"
#include "ksum/smalldim.cuh"

#endif
#include <onchip/names_pop.h>
