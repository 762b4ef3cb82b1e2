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


def main():
    d = json.load(open(sys.argv[1]))
    {"cbi": cbi}.get(d.get("bench"), lambda d: print("no summary for", d.get("bench")))(d)


if __name__ == "__main__":
    main()
