#!/usr/bin/env python3
"""ptx_split_stores.py [FILE.cu ...] [--arch sm_90a]: 16-byte global stores that nvcc split into four 4-byte ones.

Compiles each CUDA source (default: every src/cuda/*.cu) to PTX with the Makefile's flags for one arch and -lineinfo,
and lists, per kernel, the source lines where four `st.global.{u32,b32,f32}` write offsets +0, +4, +8, +12 of one
base register within a few instructions: a uint4 store the front end broke up. Each such store costs 4 store
instructions and 4x the L2 sector writes of one 16-byte store. Session 47 found them in k_tm_sides_wgp's LayerNorm,
k_ln_fwd_v, k_lnb_*, k_tm_outfw / outbw / outbw_dwz (st8 and make_uint4 stores through a cast) and replaced them by
cu_vec.cuh's stg16 (one st.global.v4 by hand): trimul f+b -2.4% at N = 1024 (docs/TRIMUL.md "Session 47").
fp32 kernels (template argument `f`) are left out unless --all. Scalar stores to consecutive floats match too (e.g.
cu_ipa.cu's 9-float frame gradients): read the line before changing it.

Run from the repository root (no GPU needed): python3 tools/ptx_split_stores.py [src/cuda/cu_vec_user.cu ...]
"""
import argparse
import collections
import glob
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

STORE = re.compile(r"st\.global\.(?:u32|b32|f32)\s+\[(%rd\d+)(?:\+(\d+))?\]")
ENTRY = re.compile(r"\.(?:visible|weak)\s+\.entry (\S+)\(")


def ptx_of(src, arch, tmp):
    out = os.path.join(tmp, os.path.basename(src) + ".ptx")
    r = subprocess.run(["nvcc", "-O3", "-std=c++17", "-lineinfo", "-gencode",
                        "arch=compute_%s,code=%s" % (arch[3:], arch), "-Isrc", "-Isrc/cuda", "-Iinclude",
                        "-ptx", "-o", out, src], capture_output=True, text=True)
    if r.returncode:
        sys.exit("ptx_split_stores.py: nvcc failed on %s:\n%s" % (src, r.stderr[-2000:]))
    return out


def split_stores(ptx):
    """(kernel, file, line) -> count of split 16-byte stores."""
    files, found = {}, collections.Counter()
    loc, fn, win = None, "?", []
    for line in open(ptx):
        m = re.match(r"\s*\.file\s+(\d+)\s+\"([^\"]+)\"", line)
        if m:
            files[m.group(1)] = os.path.relpath(m.group(2)) if m.group(2).startswith("/") else m.group(2)
            continue
        m = re.match(r"\s*\.loc\s+(\d+)\s+(\d+)", line)
        if m:
            loc = (m.group(1), int(m.group(2)))  # the .file table comes last: named below
            continue
        m = ENTRY.match(line)
        if m:
            fn, win = m.group(1), []
            continue
        m = STORE.search(line)
        if not m:
            continue
        win = (win + [(m.group(1), int(m.group(2) or 0))])[-8:]
        offs = {o for r, o in win if r == m.group(1)}
        b = min(offs)
        if b % 16 == 0 and {b, b + 4, b + 8, b + 12} <= offs:
            found[(fn, loc)] += 1
            win = []
    return {(fn, (files.get(l[0], l[0]), l[1]) if l else None): k for (fn, l), k in found.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("--all", action="store_true", help="fp32 kernels too")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob("src/cuda/*.cu"))
    with tempfile.TemporaryDirectory() as tmp:
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
            ptxs = list(ex.map(lambda f: ptx_of(f, args.arch, tmp), files))
        n = 0
        for src, ptx in zip(files, ptxs):
            for (fn, loc), k in sorted(split_stores(ptx).items(), key=lambda x: str(x[0])):
                if not args.all and re.search(r"I(f|d)(E|Li)", fn):
                    continue
                n += 1
                print("%s: %s:%s %s (%d)" % (src, loc[0] if loc else "?", loc[1] if loc else "?", fn, k))
    print("%d kernel lines with four 4-byte stores to one 16-byte slot, in %d files" % (n, len(files)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
