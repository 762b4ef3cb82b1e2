#!/usr/bin/env python3
"""bench/mg_peers.py -- GPU multigrid peers of bench/perks_mg and bench/perks_cg_precond.

The same systems and the same promise as the kit's benches: fp64, x = 0 at the start, b uniform in
[-1, 1), a relative residual ||b - A x|| / ||b|| <= tol, time to it with the setup included, the
true residual of the x returned computed on the host in float64 beside it ("to tol with setup":
the hierarchy's setup and one solve; the first solve, where JAX compiles, is printed apart).  Peers
(each one only where its package imports):

  cupy-sa   PyAMG's smoothed aggregation hierarchy, built on the CPU (setup), then PCG with one
            V-cycle an iteration on the GPU through CuPy (cuSPARSE SpMV): damped Jacobi (omega
            4 / (3 rho(D^-1 A)) a level, 2 sweeps before and after), the coarsest level by a dense
            inverse
  amjax     the same hierarchy, the V-cycle PCG traced and compiled by JAX (amjax; one omega, the
            finest level's, for every level)
  solvax    matrix-free geometric multigrid PCG in JAX (solvax), the 3D 7-point grids only; its
            transfers need 2^k - 1 cells an axis, so an n^3 grid runs as (n - 1)^3

Systems: --grid N (3D Poisson, w = {6, -1 x 6}, Dirichlet, N^3 cells; default 64 128 256) and
--mtx FILE (Matrix Market, symmetric positive definite).  Without a GPU the CuPy peer runs on NumPy
and JAX on the CPU (a check of the code, not a peer).  No AmgX, Ginkgo or hypre build runs there.

    python3 bench/mg_peers.py [--grid N ...] [--mtx FILE ...] [--tol 1e-8] [--reps 3]
                              [--peers cupy-sa,amjax,solvax] [--maxiter 500]
"""
import argparse
import statistics
import sys
import time

import numpy as np
import scipy.io
import scipy.sparse as sp


def poisson3d(n):
    """the 7-point 3D Poisson matrix on n^3 cells, Dirichlet (zero outside), x fastest"""
    d = sp.diags([-np.ones(n - 1), 2 * np.ones(n), -np.ones(n - 1)], [-1, 0, 1], format="csr")
    i = sp.identity(n, format="csr")
    return (sp.kron(sp.kron(i, i), d) + sp.kron(sp.kron(i, d), i) + sp.kron(sp.kron(d, i), i)).tocsr()


def true_res(a, b, x):
    x = np.asarray(x, dtype=np.float64).reshape(-1)
    return float(np.linalg.norm(b - a @ x) / np.linalg.norm(b))


def sa_levels(a):
    import pyamg
    return pyamg.smoothed_aggregation_solver(a, max_coarse=500)


def jacobi_omega(a):
    """4 / (3 rho(D^-1 A)): the damping that keeps Jacobi smoothing convergent for any SPD A (2/3 for
    the Poisson matrices, where rho is 2)"""
    from pyamg.util.linalg import approximate_spectral_radius
    return 4.0 / (3.0 * approximate_spectral_radius(sp.diags(1.0 / a.diagonal()) @ a))


class CupySA:
    """cupy-sa: the SA hierarchy on the device, V(2, 2) with damped Jacobi, dense coarsest level"""
    name = "cupy-sa"

    def __init__(self, a):
        try:
            import cupy as xp
            import cupyx.scipy.sparse as xsp
            self.sync = lambda: xp.cuda.Device().synchronize()
        except ImportError:
            xp, xsp, self.sync = np, sp, (lambda: None)
        self.xp = xp
        ml = sa_levels(a)
        self.nlev = len(ml.levels)
        self.A = [xsp.csr_matrix(lv.A.tocsr()) for lv in ml.levels]
        self.P = [xsp.csr_matrix(lv.P.tocsr()) for lv in ml.levels[:-1]]
        self.R = [xsp.csr_matrix(lv.R.tocsr()) for lv in ml.levels[:-1]]
        self.dinv = [jacobi_omega(lv.A) / xp.asarray(lv.A.diagonal()) for lv in ml.levels]
        self.cinv = xp.asarray(np.linalg.inv(ml.levels[-1].A.toarray()))

    def vcycle(self, b, lv=0):
        if lv == self.nlev - 1:
            return self.cinv @ b
        a, d = self.A[lv], self.dinv[lv]
        x = d * b
        x += d * (b - a @ x)
        x += self.P[lv] @ self.vcycle(self.R[lv] @ (b - a @ x), lv + 1)
        for _ in range(2):
            x += d * (b - a @ x)
        return x

    def solve(self, b, tol, maxiter):
        xp = self.xp
        a, b = self.A[0], xp.asarray(b)
        x = xp.zeros_like(b)
        r = b.copy()
        nb = float(xp.linalg.norm(b))
        z = self.vcycle(r)
        p = z.copy()
        rz = r @ z  # the scalars stay on the device: one host read an iteration, the test
        for k in range(1, maxiter + 1):
            q = a @ p
            alpha = rz / (p @ q)
            x += alpha * p
            r -= alpha * q
            if float(xp.linalg.norm(r)) <= tol * nb:
                break
            z = self.vcycle(r)
            rz1 = r @ z
            p = z + (rz1 / rz) * p
            rz = rz1
        self.sync()
        return (x.get() if hasattr(x, "get") else x), k


def jax_pcg(jnp, jax, matvec, prec, b, tol, maxiter):
    """PCG as one jax.lax.while_loop: (x, iterations)"""
    nb = jnp.linalg.norm(b)

    def body(s):
        x, r, z, p, rz, k = s
        q = matvec(p)
        alpha = rz / jnp.vdot(p, q)
        x, r = x + alpha * p, r - alpha * q
        z = prec(r)
        rz1 = jnp.vdot(r, z)
        return x, r, z, z + (rz1 / rz) * p, rz1, k + 1

    z = prec(b)
    s = (jnp.zeros_like(b), b, z, z, jnp.vdot(b, z), 0)
    s = jax.lax.while_loop(lambda s: (jnp.linalg.norm(s[1]) > tol * nb) & (s[5] < maxiter), body, s)
    return s[0], s[5]


class Amjax:
    """amjax: the SA hierarchy's V-cycle and the PCG compiled by JAX"""
    name = "amjax"

    def __init__(self, a):
        import jax
        import jax.numpy as jnp
        from amjax import MultilevelSolver
        from jax.experimental import sparse as jsparse
        jax.config.update("jax_enable_x64", True)
        try:
            jax.config.update("jax_bcoo_cusparse_lowering", True)
        except (AttributeError, KeyError):
            pass
        jac = ("jacobi", {"iterations": 2, "omega": jacobi_omega(a)})  # one damping for every level
        self.ml = MultilevelSolver.from_pyamg(sa_levels(a), presmoother=jac, postsmoother=jac, coarse_solver="pinv")
        self.nlev = len(self.ml.levels) if hasattr(self.ml, "levels") else 0
        self.A = jsparse.BCOO.from_scipy_sparse(a)
        self.jax, self.jnp = jax, jnp
        self.f = None

    def solve(self, b, tol, maxiter):
        jax, jnp = self.jax, self.jnp
        if self.f is None:
            def run(A, b, ml):
                return jax_pcg(jnp, jax, lambda v: A @ v, ml.aspreconditioner("V"), b, tol, maxiter)
            self.f = jax.jit(run)
        x, k = self.f(self.A, jnp.asarray(b), self.ml)
        x = jax.block_until_ready(x)
        return np.asarray(x), int(k)


class Solvax:
    """solvax: geometric multigrid, matrix-free 7-point operator, V(2, 2), Jacobi damping 6/7"""
    name = "solvax"

    def __init__(self, n):
        import jax
        import jax.numpy as jnp
        from solvax.pcg import pcg
        from solvax.precond import MultigridLevel, multigrid
        from solvax.transfer import coarse_grid_shape, grid_transfer
        jax.config.update("jax_enable_x64", True)
        self.jax, self.jnp, self.pcg, self.n = jax, jnp, pcg, n

        def lap(u):
            p = jnp.pad(u, 1)
            return (6 * u - p[:-2, 1:-1, 1:-1] - p[2:, 1:-1, 1:-1] - p[1:-1, :-2, 1:-1] - p[1:-1, 2:, 1:-1]
                    - p[1:-1, 1:-1, :-2] - p[1:-1, 1:-1, 2:])

        shape, levels = (n, n, n), []
        while shape[0] > 7:
            r, p = grid_transfer(shape, (True,) * 3, boundary="dirichlet")
            levels.append(MultigridLevel(lap, jnp.full(shape, 6.0), r, p))
            shape = coarse_grid_shape(shape, (True,) * 3, boundary="dirichlet")
        m = shape[0] ** 3
        eye = jnp.eye(m).reshape((m,) + shape)
        ainv = jnp.linalg.inv(jax.vmap(lap)(eye).reshape(m, m))
        coarse = lambda v: (ainv @ v.reshape(-1)).reshape(v.shape)  # noqa: E731
        self.nlev = len(levels) + 1
        self.lap = lap
        self.M = multigrid(levels, coarse, cycle="v", pre_smooth=2, post_smooth=2, damping=6.0 / 7.0)
        self.f = None

    def solve(self, b, tol, maxiter):
        jax, jnp, n = self.jax, self.jnp, self.n
        if self.f is None:
            self.f = jax.jit(lambda b: self.pcg(self.lap, b, precond=self.M, rtol=tol, max_steps=maxiter))
        sol = self.f(jnp.asarray(b).reshape(n, n, n))
        x = jax.block_until_ready(sol.x)
        return np.asarray(x).reshape(-1), int(sol.iterations)


def bench(name, make, a, b, tol, reps, maxiter):
    """one peer on one system: setup (the hierarchy and its upload), the first solve (JAX compiles
    there: a cost once a shape, printed apart, as the kit's nvcc time is), then the median of reps
    solves; a line saying so where the peer's package is missing"""
    try:
        t0 = time.perf_counter()
        s = make()
        t1 = time.perf_counter()
        x, it = s.solve(b, tol, maxiter)
        first = time.perf_counter() - t1
        setup = t1 - t0
    except ImportError as e:
        print(f"  {name:8s} skipped: {e}")
        return
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        x, it = s.solve(b, tol, maxiter)
        times.append(time.perf_counter() - t0)
    solve = statistics.median(times)
    tr = true_res(a, b, x)
    ok = "ok" if tr <= tol * (1 + 1e-6) else "NOT MET"
    print(f"  {name:8s} levels {s.nlev:2d}  iters {it:5d}  setup {setup:8.3f} s  solve {1e3 * solve:10.2f} ms"
          f"  ({1e3 * solve / max(it, 1):7.3f} ms/it)  to tol with setup {setup + solve:8.3f} s  true {tr:.2e} {ok}"
          f"  (first solve {first:.2f} s)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--grid", type=int, nargs="*", default=None, help="3D Poisson n^3 cells (default 64 128 256)")
    ap.add_argument("--mtx", nargs="*", default=[], help="Matrix Market files (SPD)")
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--maxiter", type=int, default=500)
    ap.add_argument("--peers", default="cupy-sa,amjax,solvax")
    ap.add_argument("--seed", type=int, default=1)
    o = ap.parse_args()
    grids = o.grid if o.grid is not None else ([] if o.mtx else [64, 128, 256])
    if o.tol <= 0 or o.reps < 1 or o.maxiter < 1 or any(n < 8 for n in grids):
        sys.exit("mg_peers: need tol > 0, reps >= 1, maxiter >= 1, grids of at least 8 cells an axis")
    peers = set(o.peers.split(","))
    rng = np.random.default_rng(o.seed)
    systems = [(f"poisson3d {n}^3", n, None) for n in grids] + [(f, 0, f) for f in o.mtx]
    print(f"fp64, x0 = 0, b uniform [-1, 1), tol {o.tol:g} (relative residual), median of {o.reps}")
    for label, n, path in systems:
        a = poisson3d(n) if path is None else sp.csr_matrix(scipy.io.mmread(path).astype(np.float64))
        b = rng.uniform(-1.0, 1.0, a.shape[0])
        print(f"{label}: {a.shape[0]} rows, {a.nnz} nonzeros")
        if "cupy-sa" in peers:
            bench("cupy-sa", lambda: CupySA(a), a, b, o.tol, o.reps, o.maxiter)
        if "amjax" in peers:
            bench("amjax", lambda: Amjax(a), a, b, o.tol, o.reps, o.maxiter)
        if "solvax" in peers and path is None:
            m = n if n % 2 else n - 1
            if m != n:
                print(f"  (solvax on {m}^3: its transfers need 2^k - 1 cells an axis)")
            am = a if m == n else poisson3d(m)
            bm = b if m == n else rng.uniform(-1.0, 1.0, am.shape[0])
            bench("solvax", lambda: Solvax(m), am, bm, o.tol, o.reps, o.maxiter)


if __name__ == "__main__":
    main()
