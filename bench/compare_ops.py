#!/usr/bin/env python3
"""Join pairfold and PyTorch JSON lines (same op, N) and print a table with
speed-up ratios (PyTorch ms / pairfold ms: > 1 means pairfold is faster)."""
import json
import sys


def load(path):
    rows = {}
    for line in open(path):
        line = line.strip()
        if line.startswith("{"):
            r = json.loads(line)
            rows[(r["op"], r["N"])] = r
    return rows


def main():
    pf, pt = load(sys.argv[1]), load(sys.argv[2])
    print(f"{'op':9} {'N':>5} | {'pf fwd ms':>9} {'pt fwd ms':>9} {'x':>5} | {'pf f+b ms':>9} {'pt f+b ms':>9} {'x':>5} |"
          f" {'pf TF/s':>7} {'pt TF/s':>7} | {'pf MiB':>7} {'pt MiB':>7}")
    for key in sorted(set(pf) | set(pt)):
        a, b = pf.get(key, {}), pt.get(key, {})
        def g(r, k):
            return r.get(k, float("nan"))
        rf = g(b, "fwd_ms") / g(a, "fwd_ms") if a and b and "fwd_ms" in b else float("nan")
        rb = g(b, "fwdbwd_ms") / g(a, "fwdbwd_ms") if a and b and "fwdbwd_ms" in b else float("nan")
        print(f"{key[0]:9} {key[1]:5} | {g(a,'fwd_ms'):9.3f} {g(b,'fwd_ms'):9.3f} {rf:5.2f} | {g(a,'fwdbwd_ms'):9.3f}"
              f" {g(b,'fwdbwd_ms'):9.3f} {rb:5.2f} | {g(a,'fwdbwd_tflops'):7.1f} {g(b,'fwdbwd_tflops'):7.1f} |"
              f" {g(a,'peak_mib'):7.0f} {g(b,'peak_mib'):7.0f}" + ("  " + b["error"] if "error" in b else ""))


if __name__ == "__main__":
    main()
