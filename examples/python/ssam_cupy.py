#!/usr/bin/env python3
"""examples/python/ssam_cupy.py -- onchip's ssam pieces and a generated convolution, from Python.

Compiles examples/python/ssam_kernels.cu at run time with NVRTC (cupy.RawModule).  Under NVRTC the
kit's headers have no host code, so what a launcher does on the host (the geometry, the grid, the
shared memory) is done here, and on CuPy arrays it runs
  (a) maxfilter5: a 5x5 maximum filter written from ssam's pieces (register cache, systolic step
      with an operator of one's own), checked against cupyx.scipy.ndimage.maximum_filter(size=5,
      mode='reflect') exactly (a max is exact);
  (b) blur5_kernel: the kernel of SSAM_CONV2D_DEFINE(blur5, float, 5, 5, ssam_conv_policy<4, 128>), checked against
      cupyx.scipy.ndimage.correlate(mode='reflect') within 1e-5 (inputs in [0, 1), weights >= 0
      summing to 1, so outputs lie in [0, 1]: float32 sums of 25 products in another order differ
      by a few 1e-7), and timed beside it (CUDA events, a warm-up, then the mean of --reps).
Each check prints the pixels it compared and the worst error; the exit status is 1 on a mismatch.

    python3 examples/python/ssam_cupy.py [--size N] [--reps R]

Needs CuPy (cupy-cuda12x or cupy-cuda13x) and the CUDA toolkit's headers (cuda_fp16.h): CuPy finds
them through CUDA_PATH or nvcc's folder, and `make demo` sets CUDA_PATH.  docs/python.md says more.
"""
import argparse
import hashlib
import os
import sys

import numpy as np
import cupy as cp
import cupyx.scipy.ndimage as ndi

HERE = os.path.dirname(os.path.abspath(__file__))
ONCHIP_INCLUDE = os.path.normpath(os.path.join(HERE, "..", "..", "include"))

# ssam/base.cuh
SSAM_BORDER_REFLECT = 2  # SciPy's mode='reflect': d c b a | a b c d | d c b a

# (a) ssam_kernels.cu's maxfilter5: 4 warps a block, each warp MF_STEP columns and MF_SEG rows
MF_M = 5
MF_STEP = (32 * 4 - MF_M + 1 - 3) // 4 * 4  # 120
MF_WARPS, MF_SEG = 4, 64

# (b) SSAM_CONV2D_DEFINE(blur5, float, 5, 5, ssam_conv_policy<4, 128>): an M x N filter, P rows a step, B threads
M, N, P, B = 5, 5, 4, 128
V = 4  # SSAM_CONV_V(float): one 16-byte vector of 4 floats a lane
STEP = (32 * V - M + 1 - (V - 1)) // V * V  # SSAM_CONV_STEP(float, 5): 120 output columns a warp

# ssam_conv2d_geom, the kernel's second-to-last parameter (ssam/conv.cuh, NVRTC AND PYTHON); checked
# against the compiler's layout (the kernel conv_geom_layout) before the first launch
GEOM_FIELDS = ["w", "h", "ow", "oh", "sp", "dp", "ax", "ay", "border", "vec", "ovec", "seg", "cval"]
GEOM = np.dtype({
    "names": GEOM_FIELDS,
    "formats": ["<i4"] * 4 + ["<i8"] * 2 + ["<i4"] * 6 + ["<f8"],
    "offsets": [0, 4, 8, 12, 16, 24, 32, 36, 40, 44, 48, 52, 56],
    "itemsize": 64,
})
# blur5_weights: struct { float w[25]; }, passed by value like the geometry (a NumPy array of one
# element is a kernel argument by value in CuPy)
WEIGHTS = np.dtype([("w", "<f4", (M * N,))])


def cdiv(a, b):
    return -(-a // b)


def compile_options():
    """-I include/ and --std=c++17; the toolkit's include folder for cuda_fp16.h (conv.cuh).  ssam
    needs no CCCL folder (perks does: add -I<toolkit>/include/cccl there)."""
    opts = ["-I" + ONCHIP_INCLUDE, "--std=c++17"]
    cuda = os.environ.get("CUDA_PATH") or cp.cuda.get_cuda_path()
    if cuda and os.path.isfile(os.path.join(cuda, "include", "cuda_fp16.h")):
        opts.append("-I" + os.path.join(cuda, "include"))
    return tuple(opts)


def load_module():
    with open(os.path.join(HERE, "ssam_kernels.cu")) as f:
        code = f.read()
    # CuPy's kernel cache keys on the source text, not on the headers it includes: name the
    # headers' contents in the source so that an edited header compiles anew
    digest = hashlib.sha1()
    for root, _, files in sorted(os.walk(os.path.join(ONCHIP_INCLUDE, "ssam"))):
        for name in sorted(files):
            with open(os.path.join(root, name), "rb") as f:
                digest.update(f.read())
    code += "\n// onchip ssam headers: %s\n" % digest.hexdigest()
    # blur5_kernel has C++ linkage: name_expressions finds its lowered name; the others are extern "C"
    return cp.RawModule(code=code, options=compile_options(), name_expressions=("blur5_kernel",))


def check_geom_layout(mod):
    out = cp.zeros(14, dtype=cp.int64)
    mod.get_function("conv_geom_layout")((1,), (1,), (out,))
    got = [int(v) for v in out.get()]
    want = [GEOM.itemsize] + [GEOM.fields[f][1] for f in GEOM_FIELDS]
    if got != want:
        sys.exit("ssam_conv2d_geom's layout is %s, the dtype here says %s" % (got, want))


def maxfilter5(mod, src, dst):
    """dst = the 5x5 maximum of src (both C-contiguous float32, the same shape), SciPy's reflect."""
    h, w = src.shape
    pitch = src.strides[0] // 4
    vec = int(src.data.ptr % 16 == 0 and pitch % 4 == 0)  # ssam_vec_ok: 16-byte loads allowed
    grid = (cdiv(w, MF_WARPS * MF_STEP), cdiv(h, MF_SEG))
    mod.get_function("maxfilter5")(grid, (MF_WARPS * 32,),
                                   (src, dst, np.int32(w), np.int32(h), np.int64(pitch), np.int32(vec)))


def conv_seg(ow, oh, sms):
    """output rows a block row: the rule of ssam__conv2d_grid for the systolic walk"""
    warps_x = cdiv(ow, STEP)
    seg = cdiv(oh, cdiv(192 * sms, warps_x))  # segments for about 192 warps an SM
    seg48 = cdiv(oh, cdiv(48 * sms, warps_x))
    if seg < 4 * (N - 1):  # not shorter than 4 (N - 1) rows, nor longer than 48 warps' segments
        seg = min(4 * (N - 1), seg48)
    seg = min(max(seg, 1), 4096)  # the row table: seg + N - 1 + P ints of shared memory
    return cdiv(seg, P) * P


def blur5(mod, src, dst, weights, sms):
    """a function that launches dst = the correlation of src with the 5x5 weights (a host array),
    SciPy's reflect: what blur5_launch does, the geometry, the weights parameter and the grid made
    once here, the launch on each call"""
    h, w = src.shape
    g = np.zeros(1, dtype=GEOM)
    g["w"], g["h"], g["ow"], g["oh"] = w, h, w, h
    g["sp"], g["dp"] = src.strides[0] // 4, dst.strides[0] // 4
    g["ax"], g["ay"] = (M - 1) // 2, (N - 1) // 2  # the centre tap over the output (correlation)
    g["border"] = SSAM_BORDER_REFLECT
    g["vec"] = int(src.data.ptr % 16 == 0 and (src.strides[0] // 4) % V == 0)
    g["ovec"] = int(dst.data.ptr % 16 == 0 and (dst.strides[0] // 4) % V == 0)
    seg = conv_seg(w, h, sms)
    g["seg"], g["cval"] = seg, 0.0
    wt = np.zeros(1, dtype=WEIGHTS)
    wt["w"][0] = np.asarray(weights, dtype=np.float32).ravel()  # row-major; a convolution flips it
    grid = (cdiv(w, (B // 32) * STEP), cdiv(h, seg))
    if grid[1] > 65535:
        sys.exit("image too tall for one launch")
    smem = (seg + N - 1 + P) * 4  # the row table of the segment
    kernel = mod.get_function("blur5_kernel")
    return lambda: kernel(grid, (B,), (src, dst, g, wt), shared_mem=smem)


def worst(a, b):
    return float(cp.max(cp.abs(a - b))) if a.size else 0.0


def timed(fn, reps):
    fn()  # warm-up: compilation, first touch
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    for _ in range(reps):
        fn()
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop) / reps


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=int, default=8192, help="the timed image is SIZE x SIZE (default 8192)")
    ap.add_argument("--reps", type=int, default=20, help="timed repetitions (default 20)")
    args = ap.parse_args()

    dev = cp.cuda.Device()
    sms = dev.attributes["MultiProcessorCount"]
    name = cp.cuda.runtime.getDeviceProperties(dev.id)["name"]
    print("device %s (%d SMs), CuPy %s, NVRTC options %s" % (
        name.decode() if isinstance(name, bytes) else name, sms, cp.__version__, " ".join(compile_options())))
    mod = load_module()
    check_geom_layout(mod)

    rs = cp.random.RandomState(2026)
    wts = np.random.RandomState(7).uniform(0.0, 1.0, (N, M))
    wts = (wts / wts.sum()).astype(np.float32)
    wts_d = cp.asarray(wts)
    tol = 1e-5
    bad = compared = 0
    # odd sizes (unaligned rows: element loads), a tiny one (borders past the image), the timed one
    for h, w in [(771, 1021), (5, 7), (args.size, args.size)]:
        x = rs.uniform(0.0, 1.0, (h, w)).astype(cp.float32)
        y = cp.full_like(x, np.nan)  # a pixel the kernel does not write stays NaN: a mismatch
        maxfilter5(mod, x, y)
        ref = ndi.maximum_filter(x, size=5, mode="reflect")
        e = worst(y, ref)
        ok = e == 0.0
        bad += not ok
        compared += x.size
        print("%s maxfilter5 (ssam pieces) %d x %d: compared %d pixels with cupyx maximum_filter, worst error %g "
              "(exact required)" % ("ok  " if ok else "FAIL", w, h, x.size, e))
        z = cp.full_like(x, np.nan)
        blur5(mod, x, z, wts, sms)()
        ref = ndi.correlate(x, wts_d, mode="reflect")
        e = worst(z, ref)
        ok = e <= tol
        bad += not ok
        compared += x.size
        print("%s blur5_kernel (SSAM_CONV2D_DEFINE) %d x %d: compared %d pixels with cupyx correlate, worst error "
              "%.3g (tolerance %g)" % ("ok  " if ok else "FAIL", w, h, x.size, e, tol))

    # timing: the generated kernel beside cupyx.scipy.ndimage.correlate, on the last image (the
    # launches are made ahead, so the events time the GPU, not Python)
    n = args.size
    r = cp.empty_like(x)
    t_ssam = timed(blur5(mod, x, z, wts, sms), args.reps)
    t_cupyx = timed(lambda: ndi.correlate(x, wts_d, output=r, mode="reflect"), args.reps)
    print("time, 5x5 float32 correlation of %d x %d (mean of %d after a warm-up): ssam blur5_kernel %.3f ms, "
          "cupyx.scipy.ndimage.correlate %.3f ms (cupyx / ssam %.2f)" % (n, n, args.reps, t_ssam, t_cupyx,
                                                                       t_cupyx / t_ssam))
    if bad:
        print("ssam_cupy: %d of 6 checks FAILED (%d pixels compared)" % (bad, compared))
        return 1
    print("ssam_cupy: 6 checks passed, %d pixels compared" % compared)
    return 0


if __name__ == "__main__":
    sys.exit(main())
