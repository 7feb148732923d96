#!/usr/bin/env python3
"""Summarize Nsight Compute per-instruction warp-stall samples of one kernel.

Input: the SASS source page of a `ncu --set full` report, exported with
    ncu -i X.ncu-rep --page source --csv --print-source sass > NAME_sass.csv
(.xz-compressed is fine): one row per SASS instruction, absolute addresses.
Printed: the stall-reason shares over all samples ("unlisted" = samples that
no stall_* column counts; the tool names the opcodes holding them, HGMMA so
far), the top K instructions by samples (offset = address minus the first
row's, SASS, dominant reason), and each mbarrier wait site: a SYNCS.PHASECHK
TRYWAIT fast path plus the retry loop after it (a short branch back over a
TRYWAIT on its predicate), with the share of the samples that sits there.

With --cubin-sass FILE (output of `nvdisasm -gi -c X.cubin`, or -g, or
`cuobjdump -sass`) the kernel's function is looked up in FILE (the candidate
whose SASS agrees best with the CSV at equal offsets; --function forces one),
the agreement is reported (a differing instruction is flagged "!"), each top
instruction gets its source location (inline chain innermost first,
"inner < caller", middle frames beyond --depth shown as ".."), and the
samples are also grouped by source location and by the outermost --outer
frames (the kernel body's line: in a warp-specialized kernel, which role).

Run: python3 tools/ncu_stalls.py NAME_sass.csv.xz [--top 15] [--lines 12]
         [--cubin-sass X.sass [--function MANGLED]] [--depth 4]
  e.g. nvdisasm -gi -c cu_trimul_outwd.sm_90a.cubin > outbw.sass  (the cubin from
       cuobjdump -xelf cu_trimul_outwd.sm_90a.cubin build/devpack/bench_cuda_ops)
"""
import argparse
import collections
import csv
import lzma
import os
import re

SAMPLES = "Warp Stall Sampling (All Samples)"
LINE = re.compile(r'//## File "([^"]+)", line (\d+)')
INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def num(s):
    try:
        return int(float((s or "0").replace(",", "")))
    except ValueError:
        return 0


def load_csv(path):
    """-> (kernel name, rows); a row: off, text, norm (branch targets as offsets), samples, executed, reasons."""
    with (lzma.open(path, "rt") if path.endswith(".xz") else open(path)) as f:
        first = next(csv.reader([f.readline()]))
        reader = csv.DictReader(f)
        cols = [c for c in reader.fieldnames if c.startswith("stall_") and "Not Issued" not in c]
        rows = []
        for r in reader:
            reasons = {c[6:]: num(r[c]) for c in cols}
            n = num(r[SAMPLES])
            reasons["unlisted"] = n - sum(reasons.values())
            rows.append(dict(addr=int(r["Address"], 16), text=" ".join(r["Source"].split()), samples=n,
                             executed=num(r["Instructions Executed"]), reasons=reasons))
    base, end = rows[0]["addr"], rows[-1]["addr"] + 16
    rel = lambda m: "0x%x" % (int(m.group(0), 16) - base) if base <= int(m.group(0), 16) <= end else m.group(0)
    for r in rows:
        r["off"] = r["addr"] - base
        r["norm"] = re.sub(r"0x[0-9a-fA-F]+", rel, r["text"])
    return (first[1] if len(first) > 1 else "?"), rows


def load_sass(path):
    """-> {function: {off: (text, chain)}}; chain = [(file, line), ...] innermost first."""
    funcs, raw, labels, pending, cur, chain, block = {}, [], {}, [], None, [], []
    for line in open(path, errors="replace"):
        m = re.match(r"\s*\.section\s+\.text\.([^,\s]+)", line) or re.search(r"Function\s*:\s*(\S+)", line)
        src = LINE.search(line)
        if m:
            cur, chain, block = m.group(1), [], []
            funcs[cur] = {}
        elif src:
            block.append((src.group(1), int(src.group(2))))
        elif cur and re.match(r"\s*([.$\w]+):\s*$", line):
            pending.append(line.strip()[:-1])
        elif cur and INSN.search(line):
            m = INSN.search(line)
            chain, block = (block, []) if block else (chain, block)
            labels.update((lab, int(m.group(1), 16)) for lab in pending)
            pending = []
            raw.append((cur, int(m.group(1), 16), m.group(2), chain))
    for fn, off, text, ch in raw:  # labels -> offsets; drop .reuse and (*"SpillRefill"*) notes
        text = re.sub(r"`\(([^)]+)\)", lambda m: "0x%x" % labels[m.group(1)] if m.group(1) in labels
                      else m.group(1), text)
        funcs[fn][off] = (" ".join(re.sub(r"\(\*.*?\*\)", "", text.replace(".reuse", "")).split()), ch)
    return funcs


def same(a, b):
    """2 = equal SASS text, 1 = equal up to operand order (ncu prints LDGSTS operands reordered), 0 = different."""
    if a == b:
        return 2
    return 1 if sorted(re.split(r"[\s,]+", a)) == sorted(re.split(r"[\s,]+", b)) else 0


def pick_function(funcs, kname, rows, want):
    """The function of the dump whose SASS agrees best with the CSV's at equal offsets."""
    base = re.search(r"(\w+)\s*[<(]", kname.replace("void ", ""))
    names = [n for n in funcs if (want in n if want else base and re.search(r"\d%s[IEv]" % base.group(1), n))]
    score = lambda n: sum(1 for r in rows if same(funcs[n].get(r["off"], ("",))[0], r["norm"]))
    return max(names or list(funcs), key=score) if funcs else None


def proj(chain):  # the frames outside the toolkit's headers
    return [(f, ln) for f, ln in chain if "/targets/" not in f]


def chain_str(chain, depth):
    frames = ["%s:%d" % (os.path.basename(f), ln) for f, ln in proj(chain)]
    if len(frames) > depth:
        frames = frames[:1] + [".."] + frames[len(frames) - depth + 1:]
    return " < ".join(frames) or "?"


def dominant(reasons):
    tot = sum(reasons.values())
    k = max(reasons, key=reasons.get) if tot else None
    return "%s %d%%" % (k, round(100.0 * reasons[k] / tot)) if tot else "-"


def wait_sites(rows):
    """mbarrier waits -> [(row indices, fast-path TRYWAIT index or None, loop TRYWAIT index or None)].
    Counted for a fast path: the TRYWAIT, the branch that reads its predicate and all rows from there to
    the end of the retry loop (not the work the compiler scheduled between TRYWAIT and branch)."""
    at = {r["off"]: i for i, r in enumerate(rows)}
    tw = [i for i, r in enumerate(rows) if "SYNCS.PHASECHK" in r["text"]]
    # SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [..], R (after any guard predicate): P0
    pred = lambda i: re.sub(r"^@!?U?P\w+ ", "", rows[i]["text"]).split()[1].rstrip(",")
    reads = lambda i: next((k for k in range(i + 1, min(i + 32, len(rows)))
                            if re.match(r"@!?%s BRA" % pred(i), rows[k]["text"])), i)
    sites, used = [], set()
    for i, r in enumerate(rows):
        m = re.match(r"@!?(U?P\d) BRA (0x[0-9a-f]+)$", r["norm"])
        if not m or int(m.group(2), 16) >= r["off"] or int(m.group(2), 16) not in at:
            continue
        lo = at[int(m.group(2), 16)]
        inner = [j for j in tw if lo <= j < i and i - j <= 4 and pred(j) == m.group(1)]
        if not inner or i - lo > 48:
            continue
        fast = [j for j in tw if lo - 32 <= j < lo and j not in used][-1:]
        used.update(inner + fast)
        start = reads(fast[0]) if fast else lo
        sites.append((fast + list(range(start, i + 1)), fast[0] if fast else None, inner[-1]))
    for j in tw:  # a TRYWAIT with no retry loop after it: itself and the branch that reads it
        if j not in used:
            sites.append((sorted({j, reads(j)}), j, None))
    return sorted(sites)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("csv")
    ap.add_argument("--cubin-sass")
    ap.add_argument("--function", help="substring of the function's (mangled) name in --cubin-sass")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--lines", type=int, default=12)
    ap.add_argument("--depth", type=int, default=4, help="inline frames shown per source location")
    ap.add_argument("--outer", type=int, default=2, help="outermost frames of the second grouping")
    a = ap.parse_args()
    kname, rows = load_csv(a.csv)
    total = sum(r["samples"] for r in rows) or 1
    pct = lambda n: 100.0 * n / total

    def summed(idx):
        c = collections.Counter()
        for i in idx:
            c.update(rows[i]["reasons"])
        return c
    print("kernel %s: %d instructions, %d samples" % (kname, len(rows), total))
    reasons = summed(range(len(rows)))
    print("stall reasons (all samples): " + ", ".join(
        "%s %.1f%%" % (k, pct(v)) for k, v in reasons.most_common() if pct(v) >= 0.1))
    if reasons["unlisted"]:
        ops = collections.Counter()
        for r in rows:
            ops[re.sub(r"^@!?U?P\w+ ", "", r["text"]).split()[0]] += r["reasons"]["unlisted"]
        print("  unlisted (no stall_* column counts them) sit on: " +
              ", ".join("%s %d" % kv for kv in ops.most_common(4) if kv[1]))

    sass = {}
    if a.cubin_sass:
        funcs = load_sass(a.cubin_sass)
        fn = pick_function(funcs, kname, rows, a.function)
        sass = funcs.get(fn, {})
        eq = collections.Counter(same(sass.get(r["off"], ("",))[0], r["norm"]) for r in rows)
        print("cubin sass: function %s (%d instructions); of the CSV's %d offsets the SASS is equal at %d, equal up "
              "to operand order at %d, DIFFERENT at %d%s" % (
                  fn, len(sass), len(rows), eq[2], eq[1], eq[0],
                  "" if any(ch for _, ch in sass.values()) else "; no line info in this dump (use nvdisasm -gi)"))
        for r in [r for r in rows if not same(sass.get(r["off"], ("",))[0], r["norm"])][:5]:
            print("  MISMATCH +0x%x csv %r vs cubin %r" % (r["off"], r["norm"], sass.get(r["off"], ("<none>",))[0]))
    src = lambda r: chain_str(sass[r["off"]][1], a.depth) if r["off"] in sass else ""
    flag = lambda r: "!" if sass and not same(sass.get(r["off"], ("",))[0], r["norm"]) else " "

    print("\ntop %d instructions: offset  samples  share  executed  dominant | SASS | source" % a.top)
    for r in sorted(rows, key=lambda r: -r["samples"])[:a.top]:
        print("  %s+0x%05x %7d %5.1f%% %9d  %-18s | %-44s | %s" % (
            flag(r), r["off"], r["samples"], pct(r["samples"]), r["executed"], dominant(r["reasons"]),
            r["norm"][:44], src(r)))

    outer = lambda r: chain_str(proj(sass[r["off"]][1])[-a.outer:], a.outer) if r["off"] in sass else ""
    for title, key_of in (("source locations (inline chain innermost first)", src),
                          ("outermost %d frames (the kernel body's line: which role / phase)" % a.outer, outer)):
        if not any(ch for _, ch in sass.values()):
            break
        by = collections.defaultdict(list)
        for i, r in enumerate(rows):
            by[key_of(r)].append(i)
        print("\ntop %d %s: samples  share  dominant  insns" % (a.lines, title))
        for key, idx in sorted(by.items(), key=lambda kv: -sum(rows[i]["samples"] for i in kv[1]))[:a.lines]:
            n = sum(rows[i]["samples"] for i in idx)
            if n:
                print("  %7d %5.1f%%  %-18s %4d  %s" % (n, pct(n), dominant(summed(idx)), len(idx), key))

    sites = wait_sites(rows)
    if not sites:
        print("\nno SYNCS.PHASECHK (mbarrier try-wait) in this kernel")
        return
    print("\nmbarrier wait sites: TRYWAIT offset  kind  rows  samples  share  dominant  barrier  source")
    in_wait = 0
    for idx, fast, loop in sites:
        n = sum(rows[i]["samples"] for i in idx)
        in_wait += n
        head = rows[fast if fast is not None else loop]
        bar = re.search(r"\[[^\]]*\]", head["text"])
        kind = "fast+loop" if fast is not None and loop is not None else ("loop" if loop is not None else "fast")
        print("  +0x%05x %-9s %3d %7d %5.1f%%  %-18s %-18s %s" % (head["off"], kind, len(idx), n, pct(n),
                                                               dominant(summed(idx)), bar.group(0) if bar else "",
                                                               src(head)))
    print("  in mbarrier waits: %d samples, %.1f%% of the kernel's" % (in_wait, pct(in_wait)))


if __name__ == "__main__":
    main()
