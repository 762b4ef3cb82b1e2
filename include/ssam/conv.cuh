#include <onchip/names_push.h>
/* ssam/conv.cuh -- 1D and 2D correlation/convolution of any filter, as software systolic arrays.
 *
 * WHAT (SSAM, Chen et al. SC'19: Listing 1, sections 4.1-4.7; docs/ssam.md#convolution-convcuh)
 *   SSAM_CONV2D_DEFINE(name, T, M, N, ssam_conv_policy<P, B, MINB>): an M-wide, N-high filter:
 *       __global__ name_kernel (the systolic walk), name_qkernel (the queued walk, small filters)
 *       int name_plan(const ssam_conv2d_args *a, ssam_plan *p)      every check, the walk; no launch
 *       int name_run(const ssam_conv2d_args *a, const ssam_plan *p, cudaStream_t)   launches p's walk
 *       int name_launch(const ssam_conv2d_args *a, cudaStream_t)    name_plan, then name_run
 *   The plan (ssam/plan.h): path SSAM_PATH_QUEUED or SSAM_PATH_SYSTOLIC, why (the rule that chose),
 *   passes 1, steps_per_pass 0, workspace_bytes 0, result a->dst; refused: the code, why, passes 0.
 *   ssam_conv_policy<P = 4, B = 128, MINB = 1>: P output rows a step, B threads, __launch_bounds__(B,
 *   MINB) on the systolic walk.  A 1D filter along every row: N = 1, P = 1.  T __half / __nv_bfloat16:
 *   stored so (V = 8), FP32 arithmetic, each output rounded once, the weights a FLOAT host array.
 *   Systolic walk: a warp keeps P+N-1 rows x 32V columns in registers (V = 16/sizeof(T)), each input
 *   row loaded once, the border applied at load; STEP = 32V - M + 1 outputs (whole vectors) a warp.
 *   Queued walk (half/bf16 up to 9x9, float 5x5 to 7x7, centred column anchor): lanes own their
 *   columns, halo by shuffles, partial sums along y.  a.flags |= SSAM_SYSTOLIC_WALK keeps the systolic.
 *
 * PIECES  ssam_conv2d_body<TS, T, M, N, P, B>(src, dst, g, w) (systolic), ssam_conv2d_qbody<TS, M, N,
 *   D, B> (queued); TS storage, T arithmetic type, g the ssam_conv2d_geom the launcher fills.
 *   GLOSSARY of the internal bodies' names: docs/ssam.md#conv-glossary.
 *
 * EXAMPLE
 *   [compile: const float *d_in; float *d_out; int W, H; cudaStream_t stream]
 *     #include <ssam/conv.cuh>
 *     SSAM_CONV2D_DEFINE(blur5, float, 5, 5, ssam_conv_policy<>)  // P 4 rows a step, 128 threads
 *
 *     float w[25] = {0};  // the taps, in host memory, 5 rows of 5, row-major
 *     ssam_conv2d_args a = {};
 *     a.src = d_in; a.dst = d_out; a.width = W; a.height = H; a.src_pitch = W; a.dst_pitch = W;
 *     a.weights = w; a.fw = 5; a.fh = 5; a.border = SSAM_BORDER_REFLECT;
 *     ssam_plan p;                                      // or both at once: blur5_launch(&a, stream)
 *     int rc = blur5_plan(&a, &p);                      // 0 or SSAM_E*: ssam_strerror(rc), p.why
 *     if (!rc) rc = blur5_run(&a, &p, stream);          // p.path SSAM_PATH_QUEUED (float 5x5)
 *     a.flags = SSAM_ANCHOR; a.anchor_x = 0; a.anchor_y = 4; // the filter's lower-left tap over (x, y)
 *
 * CONVENTIONS (docs/ssam.md#conv-anchor: SciPy's and OpenCV's anchors)
 *   Correlation: out(x, y) = sum_{n<N, m<M} w[n*M + m] in(x + m - ax, y + n - ay), anchor (ax, ay) =
 *   ((M-1)/2, (N-1)/2) unless SSAM_ANCHOR (a.anchor_x, a.anchor_y; set without the flag, or with
 *   SSAM_VALID: SSAM_EANCHOR).  SSAM_CONVOLVE flips the filter; SSAM_VALID gives (W-M+1) x (H-N+1)
 *   outputs, no border (SSAM_ESIZE when the filter is larger).  Weights: HOST memory, copied into the
 *   kernel's parameters at launch; fw, fh must equal M, N.  Pitches in elements (0: the width); src
 *   and dst must not overlap (SSAM_EOVERLAP).  The two walks agree to rounding, not bit for bit.
 *
 * PARAMETERS AND LIMITS (static_assert sentences)
 *   T float, double, __half or __nv_bfloat16; M, N >= 1, M <= 30V + 2 (122 float, 62 double, 242
 *   half); P >= 1; the cache V (P+N-1) <= 192 registers; B a multiple of 32 from 32 to 1024.  Images
 *   from 1x1 up to ceil(H/P) <= 65535 block rows; weights M N sizeof(T) bytes of parameters (32 KB).
 *
 * NVRTC (docs/python.md; the launcher's segment rule: docs/ssam.md#conv-segments)
 *   No host code: name_kernel(const TS *src, TS *dst, ssam_conv2d_geom g, name_weights wt) (C++
 *   linkage) and name_qkernel, same parameters (from Python use name_kernel); TS is T.  wt: struct
 *   { T w[M*N]; } (float for the half types), flipped both ways for a convolution.  g (64 bytes): int
 *   w, h, ow, oh at 0..12 (input; output, w-M+1, h-N+1 with SSAM_VALID); long long sp, dp at 16, 24
 *   (pitches); int ax, ay, border, vec, ovec, seg at 32..52 (anchor, SSAM_CONVOLVE: M-1-ax, N-1-ay,
 *   SSAM_VALID: 0, 0 and SSAM_BORDER_NEAREST; vec, ovec 1 where src / dst is 16-byte aligned with a
 *   pitch a multiple of V; seg output rows a block row, a multiple of P, <= 4096); double cval at 56.
 *   Grid ceil(ow / ((B/32) SSAM_CONV_STEP(TS, M))) x ceil(oh / seg) (<= 65535), B threads,
 *   (seg + N - 1 + P) * 4 bytes of dynamic shared memory.
 */
#ifndef SSAM_CONV_CUH
#define SSAM_CONV_CUH

#include "conv/geometry.cuh"
#include "conv/host.cuh"
#include "conv/systolic.cuh"
#include "conv/queued.cuh"
#include "conv/policy.cuh"
#include "conv/define.cuh"

#endif /* SSAM_CONV_CUH */
#include <onchip/names_pop.h>
