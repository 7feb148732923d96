#!/usr/bin/env python3
"""Join pairfold and PyTorch JSON lines (same op, N) and print a table with
speed-up ratios (other ms / pairfold ms: > 1 means pairfold is faster).

  compare_ops.py PAIRFOLD.jsonl EAGER.jsonl [CUEQ.jsonl]

The optional third file holds the cuEquivariance runs (torch_ops_bench.py
--impl cueq), measured in the same call on the same GPU."""
import json
import sys

NAN = float("nan")


def load(path):
    rows = {}
    for line in open(path):
        line = line.strip()
        if line.startswith("{"):
            r = json.loads(line)
            rows[(r["op"], r["N"])] = r
    return rows


def ratio(other, pf, key):
    if not other or not pf or key not in other or key not in pf:
        return NAN
    return other[key] / pf[key]


def main():
    pf, pt = load(sys.argv[1]), load(sys.argv[2])
    cq = load(sys.argv[3]) if len(sys.argv) > 3 else {}
    print(f"{'op':9} {'N':>5} | {'pf fwd':>8} {'eager':>8} {'cueq':>8} {'x eag':>5} {'x cq':>5} |"
          f" {'pf f+b':>8} {'eager':>8} {'cueq':>8} {'x eag':>5} {'x cq':>5} |"
          f" {'pf TF/s':>7} | {'pf MiB':>7} {'eag MiB':>7} {'cq MiB':>7}   (ms)")
    for key in sorted(set(pf) | set(pt) | set(cq)):
        a, b, c = pf.get(key, {}), pt.get(key, {}), cq.get(key, {})

        def g(r, k):
            return r.get(k, NAN)
        print(f"{key[0]:9} {key[1]:5} | {g(a,'fwd_ms'):8.3f} {g(b,'fwd_ms'):8.3f} {g(c,'fwd_ms'):8.3f}"
              f" {ratio(b,a,'fwd_ms'):5.2f} {ratio(c,a,'fwd_ms'):5.2f} |"
              f" {g(a,'fwdbwd_ms'):8.3f} {g(b,'fwdbwd_ms'):8.3f} {g(c,'fwdbwd_ms'):8.3f}"
              f" {ratio(b,a,'fwdbwd_ms'):5.2f} {ratio(c,a,'fwdbwd_ms'):5.2f} |"
              f" {g(a,'fwdbwd_tflops'):7.1f} | {g(a,'peak_mib'):7.0f} {g(b,'peak_mib'):7.0f} {g(c,'peak_mib'):7.0f}"
              + "".join("  " + r["error"] for r in (b, c) if "error" in r))


if __name__ == "__main__":
    main()
