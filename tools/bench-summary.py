#!/usr/bin/env python3
"""tools/bench-summary.py BENCH.json -- the short table of a benchmark's JSON (bench/*.cu --json)."""
import json
import sys


def cbi(d):
    rows = d["rows"]
    keys = sorted({(r["kernel"], r["W"], r["H"]) for r in rows}, key=lambda k: (k[0], k[1]))
    print(f"cbi on {d['device']} ({d['date']}, median of {d['reps']}): ratio = best naive ms / ms")
    print(f"{'kernel':<11}{'size':>12}{'naive ms':>10}  {'best order':<24}{'ms':>9}{'ratio':>7}"
          f"  {'auto':<16}{'ratio':>7}{'vs best':>8}")
    for k in keys:
        rs = [r for r in rows if (r["kernel"], r["W"], r["H"]) == k]
        naive = min(r["ms"] for r in rs if r["order"] == "naive")
        best = min(rs, key=lambda r: r["ms"])
        au = [r for r in rs if r["order"].startswith("auto")][0]
        name = f"{best['order']} b{best['block']} w{best['w']}" + (" zz" if best["zigzag"] else "")
        aname = f"rows2d b{au['block']}" if au["w"] >= (k[1] + 31) // 32 else f"tiles b{au['block']} G{au['w']}"
        print(f"{k[0]:<11}{k[1]:>6}x{k[2]:<5}{naive:>10.4f}  {name:<24}{best['ms']:>9.4f}{naive / best['ms']:>7.3f}"
              f"  {aname:<16}{naive / au['ms']:>7.3f}{best['ms'] / au['ms']:>8.3f}")


def conv(d, plot=None):
    rates = [r for r in d["rows"] if r.get("impl") == "mma-rate"]
    rows = [r for r in d["rows"] if "type" in r and r.get("impl") != "ssam-storage" and r["type"] not in ("half", "bf16")]
    storage = [r for r in d["rows"] if r.get("impl") == "ssam-storage"]
    half_tc = [r for r in d["rows"] if r.get("type") in ("half", "bf16") and r.get("impl", "").startswith("tc-")]
    print(f"conv on {d['device']} ({d['date']}, {rows[0]['size']}^2, median of {d['reps']}): ms, % of floor, speedup of ssam")
    print(f"{'type':<5}{'filter':>7}{'ssam ms':>9}{'%floor':>7}{'smem':>9}{'npp':>9}{'cudnn':>9}"
          f"{'x smem':>8}{'x npp':>7}{'x cudnn':>8}")
    keys = []
    for r in rows:
        k = (r["type"], r["M"], r["N"])
        if k not in keys:
            keys.append(k)
    geo = {}
    for k in keys:
        rs = {r["impl"]: r for r in rows if (r["type"], r["M"], r["N"]) == k}
        s = min((r for r in rs.values() if r["impl"].startswith("ssam")), key=lambda r: r["ms"])
        cells = []
        for impl in ("smem", "npp", "cudnn"):
            cells.append(f"{rs[impl]['ms']:>9.4f}" if impl in rs else f"{'-':>9}")
        sp = []
        for impl in ("smem", "npp", "cudnn"):
            if impl in rs:
                x = rs[impl]["ms"] / s["ms"]
                sp.append(f"{x:>7.2f}x")
                if k[1] == k[2] and k[1] >= 3:
                    geo.setdefault((k[0], impl), []).append(x)
            else:
                sp.append(f"{'-':>8}")
        print(f"{k[0]:<5}{k[1]:>4}x{k[2]:<2}{s['ms']:>9.4f}{100 * s['floor_ms'] / s['ms']:>6.0f}%" + "".join(cells) + "".join(sp)
              + f"  P{s['P']}")
    for (t, impl), xs in sorted(geo.items()):
        g = 1.0
        for x in xs:
            g *= x
        print(f"geomean speedup of ssam over {impl} ({t}, square 3x3..20x20): {g ** (1 / len(xs)):.2f}x over {len(xs)} filters")
    for r in storage:
        print(f"{r['type']} storage {r['M']}x{r['N']}: {r['ms']:.4f} ms, {100 * r['floor_ms'] / r['ms']:.0f}% of the copy-bandwidth"
              f" floor {r['floor_ms']:.4f} ms; fp32 {r['fp32_ms']:.4f} ms ({r['fp32_ms'] / r['ms']:.2f}x); |{r['type']} - fp32| / |fp32| {r['diff_fp32']:.1e}")
    for r in half_tc:
        print(f"{r['type']} on tensor cores ({r['impl']}) {r['M']}x{r['N']}: {r['ms']:.4f} ms, {100 * r['floor_ms'] / r['ms']:.0f}% of"
              f" its floor {r['floor_ms']:.4f} ms; fp32 SIMT {r['fp32_ms']:.4f} ms ({r['fp32_ms'] / r['ms']:.2f}x);"
              f" |{r['type']} - fp32| / |fp32| {r['diff_fp32']:.1e}")
    tc = [r for r in rows if r["impl"].startswith("tc-")]
    if tc:
        print("tensor cores (conv_tc.cuh): mma.sync rates " + ", ".join(f"{r['kind']} {r['fma_s'] / 1e12:.1f} TFMA/s" for r in rates))
        print(f"{'type':<5}{'filter':>7}{'mode':>22}{'ms':>9}{'x simt':>8}{'%mma floor':>11}{'cudnn-tc ms':>12}")
        for r in tc:
            k = (r["type"], r["M"], r["N"])
            cd = [q for q in rows if (q["type"], q["M"], q["N"]) == k and q["impl"] == "cudnn-tc"]
            print(f"{k[0]:<5}{k[1]:>4}x{k[2]:<2}{r['impl'][3:]:>22}{r['ms']:>9.4f}{r['vs_simt']:>7.2f}x"
                  f"{100 * r['mma_floor_ms'] / r['ms']:>10.0f}%" + (f"{cd[0]['ms']:>12.4f}" if cd else f"{'-':>12}"))
    if plot:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            return
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for impl, style in (("ssam", "o-"), ("smem", "s--"), ("npp", "^--"), ("cudnn", "v--"), ("cudnn-tc", "v:"),
                            ("tc-tf32", "D-"), ("tc-tf32x3", "d-")):
            best = {}
            for r in rows:
                name = r["impl"] if r["impl"].startswith(("tc-", "cudnn")) else r["impl"].split("-")[0]
                if (name == impl or name.startswith(impl + "-q")) and r["type"] == "fp32" and r["M"] == r["N"]:
                    best[r["M"]] = min(best.get(r["M"], 1e30), r["ms"])
            pts = sorted(best.items())
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, label=impl)
        f16 = sorted((r["M"], r["ms"]) for r in half_tc if r["impl"] == "tc-f16" and r["M"] == r["N"])
        if f16:
            ax.plot([p[0] for p in f16], [p[1] for p in f16], "P-", label="tc-f16 (half storage)")
        fl = sorted((r["M"], r["floor_ms"]) for r in rows if r["impl"] == "ssam" and r["type"] == "fp32" and r["M"] == r["N"])
        ax.plot([p[0] for p in fl], [p[1] for p in fl], "k:", label="floor")
        ax.set_xlabel("filter size (M = N)")
        ax.set_ylabel("ms (8192^2 fp32)")
        ax.set_yscale("log")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        ax.set_title(f"2D convolution on {d['device']}, {d['date']}")
        fig.tight_layout()
        fig.savefig(plot, dpi=110)
        print("plot:", plot)


def designs(d):
    rows = d["rows"]
    shapes = []
    for r in rows:
        if (r["taps"], r["stride"]) not in shapes:
            shapes.append((r["taps"], r["stride"]))
    impls = ["plain", "SBM", "BSM", "FSM", "BFS", "FFS", "FBS"]
    print(f"1-D systolic designs on {d['device']} ({d['date']}, median of {d['reps']}): % of floor (speed vs plain)")
    print(f"{'taps':>4}{'S':>3}" + "".join(f"{i:>14}" for i in impls))
    for q, st in shapes:
        rs = {r["impl"]: r for r in rows if (r["taps"], r["stride"]) == (q, st)}
        plain = rs["plain"]["ms"]
        print(f"{q:>4}{st:>3}" + "".join(
            f"{100 * rs[i]['floor_ms'] / rs[i]['ms']:>7.0f}% ({plain / rs[i]['ms']:.2f})" if i in rs else f"{'-':>14}"
            for i in impls))


def temporal(d, plot=None):
    """bench/ssam_temporal: per shape, type and size the one-pass and perks rates, each TT, the best speedup;
    the plot: GCells/s against TT (one line per shape and type at the bench's main size)"""
    rows = d["rows"]
    keys = []
    for r in rows:
        k = (r["stencil"], r["paper"], r["type"], r["size"])
        if k not in keys:
            keys.append(k)
    print(f"temporal on {d['device']} ({d['date']}, {rows[0]['steps']} steps, median of {d['reps']}): GCells/s")
    print(f"{'stencil':<22}{'type':<5}{'size':>6}{'1-pass':>8}{'perks':>7}  {'TT: GCells/s':<40}{'best':>6}{'x1-pass':>8}")
    series = {}
    sizes = [r["size"] for r in rows]
    main = max(set(sizes), key=sizes.count)  # the bench's main size: the one most rows have
    for k in keys:
        rs = [r for r in rows if (r["stencil"], r["paper"], r["type"], r["size"]) == k]
        one = [r for r in rs if r["impl"] == "onepass"][0]["gcells_s"]
        pk = [r["gcells_s"] for r in rs if r["impl"] == "perks"]
        # the best variant of each TT (bench/ssam_temporal: tb-TT and the staged tbs-TT; bench/ssam_temporal3d:
        # tb-TT-pP-bB too); the occupancy variants tb-TT-mM are left out
        def variant(r):
            return r["impl"].startswith(("tb-", "tbs-")) and "-m" not in r["impl"]
        tbs = []
        for tt in sorted({r["tt"] for r in rs if variant(r)}):
            tbs.append(max((r for r in rs if r["tt"] == tt and variant(r)), key=lambda r: r["gcells_s"]))
        best = max(tbs, key=lambda r: r["gcells_s"]) if tbs else None
        tts = " ".join(f"{r['tt']}:{r['gcells_s']:.0f}" + ("" if r["bitwise"] else "!") for r in tbs)
        print(f"{k[0] + ' (' + k[1] + ')':<22}{k[2]:<5}{k[3]:>6}{one:>8.0f}{(f'{pk[0]:.0f}' if pk else ''):>7}  {tts:<40}"
              f"{(best['tt'] if best else '-'):>6}{(best['gcells_s'] / one if best else 1):>8.2f}")
        if tbs and k[3] == main:
            series[f"{k[1]} {k[2]}"] = [(1, one)] + [(r["tt"], r["gcells_s"]) for r in tbs]
    if plot and series:
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("plot: matplotlib missing")
            return
        fig, ax = plt.subplots(figsize=(7.5, 4.8))
        for name, pts in series.items():
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-" if "fp32" in name else "s--", label=name)
        ax.set_xlabel("time steps per pass through memory (TT; 1 = one-pass kernel)")
        ax.set_ylabel("GCells/s (cells x steps / time)")
        ax.set_xscale("log", base=2)
        ax.set_title(f"ssam temporal blocking{' 3D' if d.get('bench') == 'temporal3d' else ''}, {d['device']}, {d['date']}")
        ax.legend(fontsize=6, ncol=2)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(plot, dpi=110)
        print("plot:", plot)


def generic(d):
    """any other bench: one line per row with the fields that say what it is and how fast"""
    rows = d.get("rows", [])
    print(f"{d.get('bench')} on {d.get('device')} ({d.get('date')}, median of {d.get('reps')}): {len(rows)} rows")
    for r in rows:
        cells = []
        for k, v in r.items():
            if isinstance(v, float):
                v = f"{v:.4g}"
            cells.append(f"{k}={v}")
        print("  " + " ".join(cells))


def main():
    d = json.load(open(sys.argv[1]))
    plot = sys.argv[2] if len(sys.argv) > 2 else None
    if d.get("bench") == "conv":
        conv(d, plot)
    elif d.get("bench") == "cbi":
        cbi(d)
    elif d.get("bench") == "designs":
        designs(d)
    elif d.get("bench") in ("temporal", "temporal3d"):
        temporal(d, plot)
    else:
        generic(d)


if __name__ == "__main__":
    main()
