#!/usr/bin/env python3
"""sass_regs.py FILE.cu KERNEL [--top N] [--arch sm_90a] [-D NAME[=VALUE]]: where a kernel's registers go, without a GPU.

Compiles FILE.cu (nvcc -O3 -lineinfo, the Makefile's flags for one arch) to a cubin and reads it back with
nvdisasm: for each instantiation whose mangled name contains KERNEL, the registers and spills ptxas reports
(and its C75xx performance notes, e.g. C7512: every wgmma serialised), the spill instructions (STL / LDL)
by source line, the source lines where the live-register count is within 8 of its peak (nvdisasm
--print-life-ranges), and the wgmma sequence's shape (HGMMA, WARPGROUP.ARRIVE, WARPGROUP.DEPBAR counts: one
ARRIVE / DEPBAR pair per HGMMA means serialised products). Session 40 used it to take k_tm_outbw<3> from
612 bytes of spills and 96 serialised wgmma to 136 bytes and none (docs/TRIMUL.md "Session 40").

Run from the repository root: python3 tools/sass_regs.py src/cuda/cu_trimul_outwb.cu k_tm_outbw
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile


def tool(name):
    """CUDA_HOME/bin, /usr/local/cuda/bin, PATH, then the pip wheels' nvidia/cu*/bin (nvdisasm and cuobjdump
    come with the nvidia-cuda-nvdisasm / -cuobjdump wheels where the toolkit lacks them)."""
    dirs = [os.path.join(os.environ["CUDA_HOME"], "bin")] if os.environ.get("CUDA_HOME") else []
    for d in dirs + ["/usr/local/cuda/bin"]:
        if os.path.exists(os.path.join(d, name)):
            return os.path.join(d, name)
    found = shutil.which(name)
    if found:
        return found
    for base in sys.path:
        nv = os.path.join(base, "nvidia")
        if os.path.isdir(nv):
            for sub in sorted(os.listdir(nv)):
                cand = os.path.join(nv, sub, "bin", name)
                if os.path.exists(cand):
                    return cand
    sys.exit("sass_regs.py: %s not found (CUDA_HOME/bin, /usr/local/cuda/bin, PATH, pip's nvidia/*/bin)" % name)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        sys.exit("sass_regs.py: %s failed:\n%s" % (" ".join(cmd), p.stdout[-4000:]))
    return p.stdout


def section(dump, fn):
    """The lines of an nvdisasm listing that belong to function fn's .text section."""
    inside = False
    for line in dump.splitlines():
        if re.match(r"\s*\.text\.", line):
            inside = fn in line
        if inside:
            yield line


def source_lines(dump, fn):
    """address -> 'file:line' (the line the instruction came from) for fn."""
    where, loc = {}, None
    for line in section(dump, fn):
        m = re.search(r'//## File ".*?([^/"]+)", line (\d+)', line)
        if m:
            loc = "%s:%s" % (m.group(1), m.group(2))
            continue
        m = re.search(r"/\*([0-9a-f]{4,})\*/", line)
        if m:
            where[m.group(1)] = loc or "?"
    return where


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("kernel", help="a substring of the mangled name (every instantiation that has it)")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--arch", default="sm_90a")
    ap.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                    help="a macro for the compile (repeatable): a variant of the file without editing it")
    args = ap.parse_args()
    if not os.path.exists(args.file):
        sys.exit("sass_regs.py: %s: no such file" % args.file)
    comp = "compute_" + args.arch[3:]
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "k.cubin")
        ptxas = run([tool("nvcc"), "-O3", "-std=c++17", "-lineinfo", "-gencode",
                     "arch=%s,code=%s" % (comp, args.arch), "-Xptxas", "-v", "-cubin", "-o", cubin]
                    + ["-D" + d for d in args.defines] + [args.file])
        dump = run([tool("nvdisasm"), "-g", cubin])
        lives = run([tool("nvdisasm"), "-plr", "-lrm", "count", cubin])
    fns = sorted(set(re.findall(r"^\s*\.text\.(\S*%s\S*):" % re.escape(args.kernel), dump, re.M)))
    if not fns:
        sys.exit("sass_regs.py: no function with %r in %s" % (args.kernel, args.file))
    for fn in fns:
        print("== %s" % fn)
        notes = [l.strip() for l in ptxas.splitlines() if fn in l and re.search(r"C75\d\d", l)]
        at = ptxas.find("Compiling entry function '%s'" % fn)
        if at >= 0:
            text = "\n".join(ptxas[at:].splitlines()[1:4])
            regs = re.search(r"Used (\d+) registers", text)
            spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", text)
            print("  ptxas: %s registers, spills %s / %s bytes (stores / loads)" %
                  (regs.group(1) if regs else "?", spill.group(1) if spill else "?", spill.group(2) if spill else "?"))
        for n in notes:
            print("  ptxas note: %s" % n[n.index("(C75"):][:160])
        where = source_lines(dump, fn)
        rows = []
        for line in section(lives, fn):
            m = re.search(r"/\*([0-9a-f]{4,})\*/\s+([^;]*);.*?\|\s*(\d+)", line)
            if m:
                rows.append((int(m.group(3)), m.group(2).split()[0] if m.group(2).split() else "", where.get(m.group(1), "?")))
        if not rows:
            print("  (no instructions read)")
            continue
        ops = collections.Counter(r[1].split(".")[0] if not r[1].startswith("WARPGROUP") else r[1] for r in rows)
        print("  instructions %d; HGMMA %d, WARPGROUP.ARRIVE %d, WARPGROUP.DEPBAR %d" %
              (len(rows), ops["HGMMA"], sum(v for k, v in ops.items() if k.startswith("WARPGROUP.ARRIVE")),
               sum(v for k, v in ops.items() if k.startswith("WARPGROUP.DEPBAR"))))
        spills = collections.Counter((r[1].split(".")[0], r[2]) for r in rows if r[1].startswith(("STL", "LDL")))
        if spills:
            print("  spill instructions by line: " + ", ".join("%s %s x%d" % (k[0], k[1], v) for k, v in spills.most_common(args.top)))
        peak = max(r[0] for r in rows)
        hot = collections.Counter(r[2] for r in rows if r[0] >= peak - 8)
        print("  live registers: peak %d; lines within 8 of it: %s" %
              (peak, ", ".join("%s x%d" % (k, v) for k, v in hot.most_common(args.top))))


if __name__ == "__main__":
    main()
