#!/usr/bin/env python3
"""bench/torch_wave.py -- the acoustic wave step in PyTorch: the peers of bench/ssam_queue3d.

One leapfrog step with a velocity field, u' = 2u - u_prev + s L u, L the order-2R central star of
radius R (the 6R + 1 points of bench/ssam_queue3d's hand kernel in 3D, 4R + 1 in 2D), keep-extent:
the cells within R of a face keep their value.  Written the way a PyTorch user writes it, as sums
of shifted slices of u, and timed twice: eager (one kernel an operation) and torch.compile of the
same function (Inductor fuses it).  Each rate is printed beside its floor: the bytes a cell and step
(u, u_prev, s read, u' written: 16 float, 32 double) over the copy bandwidth measured in the same
run.  The boundary layer of u and u_prev is equal at the start, so writing u' into u_prev's
interior keeps keep-extent's rule exactly (those cells never change).

Before timing, each formulation's first steps on a small grid are checked against a float64
reference on the CPU (the same sums, the loop written out per point): within 1e-5 (float) or
1e-12 (double) of the largest |u|.

    python3 bench/torch_wave.py [--dims 3] [--n 512] [--steps 10] [--radius 4] [--dtype float32]
                                [--reps 5] [--no-compile]
"""
import argparse
import math
import sys
import time


def fd2_weights(m):
    """the order-2m central weights of the second derivative, w[0] .. w[m] (ssam/wave.h's
    ssam_fd2_weights): w[k] = 2 (-1)^(k+1) (m!)^2 / (k^2 (m-k)! (m+k)!), w[0] = -2 sum w[k]"""
    w = [0.0] * (m + 1)
    for k in range(1, m + 1):
        w[k] = 2.0 * (-1) ** (k + 1) * math.factorial(m) ** 2 / (k * k * math.factorial(m - k) * math.factorial(m + k))
    w[0] = -2.0 * sum(w[1:])
    return w


def shifted(u, r, d, k):
    """u's interior (r cells in from every face) moved k cells along axis d"""
    idx = []
    for a, n in enumerate(u.shape):
        lo = r + (k if a == d else 0)
        idx.append(slice(lo, n - r + (k if a == d else 0)))
    return u[tuple(idx)]


def step(u, up, s, w, r):
    """one step, in place: up's interior becomes 2u - up + s L u (arrays of numpy or torch)"""
    dims = u.dim() if hasattr(u, "dim") else u.ndim
    inner = tuple(slice(r, n - r) for n in u.shape)
    c = u[inner]
    lap = (dims * w[0]) * c
    for k in range(1, r + 1):
        for d in range(dims):
            lap = lap + w[k] * (shifted(u, r, d, -k) + shifted(u, r, d, k))
    up[inner] = 2 * c - up[inner] + s[inner] * lap
    return up


def reference(u0, up0, s0, w, r, steps):
    """the same steps in float64, point by point (nested lists: independent of the slicing above)"""
    import itertools
    shape = u0.shape
    dims = len(shape)
    u, up, s = u0.double().cpu().tolist(), up0.double().cpu().tolist(), s0.double().cpu().tolist()

    def get(a, p):
        for i in p:
            a = a[i]
        return a

    def put(a, p, v):
        for i in p[:-1]:
            a = a[i]
        a[p[-1]] = v

    for _ in range(steps):
        nxt = []
        for p in itertools.product(*[range(n) for n in shape]):
            if any(x < r or x >= n - r for x, n in zip(p, shape)):
                continue
            lap = dims * w[0] * get(u, p)
            for k in range(1, r + 1):
                for d in range(dims):
                    lo, hi = list(p), list(p)
                    lo[d] -= k
                    hi[d] += k
                    lap += w[k] * (get(u, lo) + get(u, hi))
            nxt.append((p, 2 * get(u, p) - get(up, p) + get(s, p) * lap))
        for p, v in nxt:
            put(up, p, v)
        u, up = up, u
    return u


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dims", type=int, default=3, choices=(2, 3))
    ap.add_argument("--n", type=int, default=0, help="cells an edge (default 512 in 3D, 8192 in 2D)")
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--radius", type=int, default=4)
    ap.add_argument("--dtype", default="float32", choices=("float32", "float64"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-compile", action="store_true")
    o = ap.parse_args()
    import torch

    n = o.n or (512 if o.dims == 3 else 8192)
    r = o.radius
    if not (1 <= r <= 8) or n < 2 * r + 1 or o.steps < 1 or o.reps < 1:
        sys.exit("torch_wave: need 1 <= radius <= 8, n >= 2 radius + 1, steps >= 1, reps >= 1")
    dt = getattr(torch, o.dtype)
    dev = torch.device("cuda")
    w = fd2_weights(r)
    gen = torch.Generator(device=dev)
    gen.manual_seed(12345)

    def fields(shape):
        u = torch.rand(shape, generator=gen, device=dev, dtype=dt) - 0.5
        up = u + 0.01 * (torch.rand(shape, generator=gen, device=dev, dtype=dt) - 0.5)
        inner = tuple(slice(r, m - r) for m in shape)
        b = torch.ones(shape, dtype=torch.bool, device=dev)
        b[inner] = False
        up[b] = u[b]  # the boundary layer equal in both levels (keep-extent, above)
        s = 0.01 + 0.09 * torch.rand(shape, generator=gen, device=dev, dtype=dt)  # (v dt / h)^2
        return u, up, s

    eager = step
    compiled = None if o.no_compile else torch.compile(step, dynamic=False)  # each shape its own kernels
    peers = [("torch eager", eager)] + ([("torch.compile", compiled)] if compiled else [])

    # the check: a ragged small grid, 3 steps, against the float64 point-by-point reference
    small = (13, 11, 9) if o.dims == 3 else (37, 29)
    small = tuple(max(m, 2 * r + 3) for m in small)
    u0, up0, s0 = fields(small)
    ref = reference(u0, up0, s0, w, r, 3)
    ref = torch.tensor(ref, dtype=torch.float64)
    tol = (1e-5 if dt == torch.float32 else 1e-12) * max(1.0, float(ref.abs().max()))
    for name, f in peers:
        u, up = u0.clone(), up0.clone()
        for _ in range(3):
            up = f(u, up, s0, w, r)
            u, up = up, u
        err = float((u.double().cpu() - ref).abs().max())
        if not err <= tol:
            sys.exit(f"torch_wave: {name} differs from the float64 reference by {err:.3g} (allowed {tol:.3g})")
        print(f"{name}: 3 steps of a {'x'.join(map(str, small))} grid within {err:.2g} of the float64 reference")

    # the copy bandwidth (bytes read and written) on 1 GiB
    a = torch.empty(1 << 28, dtype=torch.float32, device=dev)
    b = torch.empty_like(a)
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
    best = 1e30
    for _ in range(10):
        ev[0].record()
        b.copy_(a)
        ev[1].record()
        torch.cuda.synchronize()
        best = min(best, ev[0].elapsed_time(ev[1]) * 1e-3)
    bw = 2 * a.numel() * 4 / best
    del a, b
    esz = torch.tensor([], dtype=dt).element_size()
    floor = bw / (4 * esz) / 1e9
    shape = (n,) * o.dims
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, copy {bw / 1e12:.2f} TB/s; floor = "
          f"{4 * esz} bytes a cell-step over it: {floor:.1f} GCells/s")
    u0, up0, s = fields(shape)
    cells = float(n) ** o.dims * o.steps
    for name, f in peers:
        u, up = u0.clone(), up0.clone()
        t0 = time.time()
        for _ in range(2):  # warm up (compiles)
            up = f(u, up, s, w, r)
            u, up = up, u
        torch.cuda.synchronize()
        warm = time.time() - t0
        best = 1e30
        for _ in range(o.reps):
            ev[0].record()
            for _ in range(o.steps):
                up = f(u, up, s, w, r)
                u, up = up, u
            ev[1].record()
            torch.cuda.synchronize()
            best = min(best, ev[0].elapsed_time(ev[1]) * 1e-3)
        g = cells / best / 1e9
        print(f"{'double' if o.dtype == 'float64' else 'float'} R {r} {n}^{o.dims} {o.steps} steps  {name:14s} "
              f"{g:7.1f} GCells/s ({100 * g / floor:5.1f}% of floor {floor:.1f})  warm-up {warm:.1f} s")
        del u, up


if __name__ == "__main__":
    main()
