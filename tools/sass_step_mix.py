#!/usr/bin/env python3
"""Instruction mix per step of the one-pass attention backward's main loop, from SASS.

Static counts of a loop body overstate a step: it also holds rare paths (the dk / dv
store on a key tile's last query tile, the bf16 dq output on an item's last key tile,
the new item's set-up, partial-tile copies). So each basic block of the loop (the
largest backward branch span holding a BAR.SYNC) gets the frequency of its source
region at N = 1024 (16 query tiles x 8 key tiles per item: 1/16, 1/8, 1/128; 0 for
partial tiles and the tail), taken from nvdisasm's inline line info, and the script
prints the weighted count per warp and step by instruction class. Checked against
ncu's per-instruction counts of k_bwd_fused<32, 8, 1, 1, 1> at N = 1024 (H200):
957.6 measured, 1017 estimated (the estimate errs high by ~6%; CSE'd expressions
carry the line of their first use).

Usage: tools/sass_step_mix.py CUBIN KERNEL_REGEX [SRC_DIR]
  CUBIN: e.g. nvcc -O3 -std=c++17 -lineinfo -gencode arch=compute_90a,code=sm_90a -cubin
         -o f.cubin src/cuda/cu_flash_bwd_fused.cu
  NVDISASM (environment): the nvdisasm to run (default: nvdisasm on PATH).
docs/ATTENTION_BWD.md, "Session 8"."""
import collections
import os
import re
import subprocess
import sys

NQT, NKT, NSTEP = 16.0, 8.0, 128.0


def klass(op):
    b = op.split('.')[0]
    if b in ('HMMA', 'LDSM', 'MUFU'):
        return b
    if b in ('FFMA', 'FADD', 'FMUL', 'FMNMX', 'FSETP', 'FSEL', 'FCHK', 'FSET'):
        return 'FP32'
    if b in ('F2FP', 'F2F', 'I2F', 'F2I', 'HADD2', 'HFMA2', 'HMUL2', 'PRMT'):
        return 'CVT/PACK'
    if b in ('MOV', 'MOV32I'):
        return 'MOV'
    if b in ('LDS', 'STS', 'LD', 'ST', 'LDL', 'STL'):
        return 'LDS/STS'
    if b in ('LDG', 'STG', 'LDGSTS', 'LDGDEPBAR', 'DEPBAR', 'RED', 'ATOM', 'LDC'):
        return 'GMEM/CP'
    if b in ('BRA', 'BSSY', 'BSYNC', 'BAR', 'EXIT', 'WARPSYNC', 'NOP', 'CALL', 'RET', 'YIELD'):
        return 'CTRL'
    return 'INT'  # IMAD, IADD3, ISETP, LEA, SHF, LOP3, SEL, S2R, uniform-datapath ops, ...


def functions(path):
    """(name, first line, last line) of each function definition (brace matching)."""
    txt = open(path).read().split('\n')
    out, i = [], 0
    while i < len(txt):
        t = txt[i]
        if re.match(r'^(__device__|__global__|static|template|int|void)', t) and '(' in t and not t.rstrip().endswith(';'):
            names = [n for n in re.findall(r'(\w+)\s*\(', t) if n not in ('__launch_bounds__', 'if', 'for')]
            depth, j, started = 0, i, False
            while j < len(txt):
                for ch in txt[j]:
                    if ch == '{':
                        depth, started = depth + 1, True
                    elif ch == '}':
                        depth -= 1
                if (started and depth == 0) or (not started and txt[j].rstrip().endswith(';')):
                    break
                j += 1
            if started and names:
                out.append((names[0], i + 1, j + 1))
            i = j + 1 if started else i + 1
        else:
            i += 1
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    cubin, krx = sys.argv[1], re.compile(sys.argv[2])
    src = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), '..', 'src', 'cuda')
    files = ('cu_flash_bwd.cuh', 'cu_flash_bwd_fused.cu', 'cu_flash_bwd_lean.cuh', 'cu_mma.cuh')
    text = {f: open(os.path.join(src, f)).read().split('\n') for f in files if os.path.exists(os.path.join(src, f))}
    fr = {f: functions(os.path.join(src, f)) for f in text}

    def fn_of(f, l):
        return next((n for n, a, b in fr.get(f, []) if a <= l <= b), None)

    def find(f, pat, after=0):
        return next((i + 1 for i, t in enumerate(text.get(f, [])) if i + 1 > after and pat in t), None)

    def block(f, start):
        depth, s = 0, False
        for j in range(start - 1, len(text[f])):
            for ch in text[f][j]:
                if ch == '{':
                    depth, s = depth + 1, True
                elif ch == '}':
                    depth -= 1
            if s and depth == 0:
                return (start, j + 1)
        return (start, start)

    rules = []  # (file, first, last line, frequency)
    for f, n, w in (('cu_flash_bwd.cuh', 'bw_store_dkdv', 1 / NQT), ('cu_flash_bwd.cuh', 'bw_mask2', 1 / NQT),
                    ('cu_flash_bwd_fused.cu', 'bwf_item', 1 / NSTEP), ('cu_flash_bwd_lean.cuh', 'bwl_item', 1 / NSTEP),
                    ('cu_flash_bwd_lean.cuh', 'bwl_src_item', 1 / NSTEP)):
        rules += [(f, a, b, w) for m, a, b in fr.get(f, []) if m == n]
    for f in ('cu_flash_bwd_fused.cu', 'cu_flash_bwd_lean.cuh'):
        for pat, w in (('if (p.qt == 0) {', 1 / NQT), ('if (!(cur.item < nitems)) {', 0.0)):
            l = 0
            while f in text:
                l = find(f, pat, l)
                if not l:
                    break
                rules.append((f, *block(f, l), w))
    l = find('cu_flash_bwd_lean.cuh', 'bwl_dq_store(')
    if l:  # bf16 dq output: after the slot path's return
        r = find('cu_flash_bwd_lean.cuh', 'return;', l)
        e = next(b for n, a, b in fr['cu_flash_bwd_lean.cuh'] if n == 'bwl_dq_store')
        rules.append(('cu_flash_bwd_lean.cuh', r + 1, e, 1 / NKT))
    l = find('cu_flash_bwd_fused.cu', 'bf16 *op = (bf16 *)a.dq')
    if l:
        rules.append(('cu_flash_bwd_fused.cu', l, l, 1 / NKT))
        e = find('cu_flash_bwd_fused.cu', '} else {', l)
        rules.append(('cu_flash_bwd_fused.cu', e, e + 3, 1 / NKT))
    fallback = {'bw_load_fl', 'bw_bias_fl', 'bw_lseD', 'bw_load', 'bw_bias_tile', 'bw_tile', 'bw_bias'}
    fb_lines = set(i + 1 for i, t in enumerate(text.get('cu_flash_bwd_lean.cuh', []))
                   if re.search(r'bw_tile<|bw_lseD\(|bw_bias_fl<|bw_bias<|\(float \*\)\(smp', t))
    loop_at = {'k_bwd_lean': find('cu_flash_bwd_lean.cuh', 'for (int b = 0; cur.item < nitems; b ^= 1)') or 0,
               'k_bwd_fused': find('cu_flash_bwd_fused.cu', 'for (int64_t step = 0; cur.item < nitems; step++)') or 0}

    def weight(chain, lean_cp):
        w = 1.0
        for f, l in chain:
            for rf, a, b, rw in rules:
                if rf == f and a <= l <= b:
                    w = min(w, rw)
            if lean_cp and ((f == 'cu_flash_bwd.cuh' and fn_of(f, l) in fallback) or
                            (f == 'cu_flash_bwd_lean.cuh' and l in fb_lines)):
                w = 0.0  # partial tiles: none at N = 1024
        return w

    def neutral(chain):  # set-up lines outside the loop (CSE'd there): no vote on a block's weight
        for f, l in chain:
            n = fn_of(f, l)
            if n == 'bwl_addrs' or (n in loop_at and l < loop_at[n]):
                return True
        return False

    nvd = os.environ.get('NVDISASM', 'nvdisasm')
    dis = subprocess.run([nvd, '-gi', '-c', cubin], capture_output=True, text=True, check=True).stdout
    for sec in re.split(r'\n\t\.section\t\.text\.', dis)[1:]:
        name = sec.split(',', 1)[0]
        if not krx.search(name):
            continue
        ins, chain, fresh, labels, pend = [], [], True, {}, []
        for line in sec.split('\n'):
            m = re.match(r'\s*//## File "([^"]+)", line (\d+)(?: inlined at "([^"]+)", line (\d+))?', line)
            if m:
                if fresh:
                    chain, fresh = [], False
                chain.append((m.group(1).split('/')[-1], int(m.group(2))))
                if m.group(3):
                    chain.append((m.group(3).split('/')[-1], int(m.group(4))))
                continue
            ml = re.match(r'^(\.L_x_\d+):', line)
            if ml:
                pend.append(ml.group(1))
                continue
            m = re.search(r'/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z0-9_.]+)([^;]*);', line)
            if m:
                fresh, a = True, int(m.group(1), 16)
                for lb in pend:
                    labels[lb] = a
                pend = []
                ins.append((a, m.group(3), m.group(4), list(chain)))
        bars = [a for a, op, _, _ in ins if op.startswith('BAR.SYNC')]
        best = None
        for a, op, rest, _ in ins:
            t = re.search(r'\((\.L_x_\d+)\)', rest) if op == 'BRA' else None
            if t and t.group(1) in labels:
                tgt = labels[t.group(1)]
                if tgt < a and any(tgt <= b <= a for b in bars) and (best is None or a - tgt > best[1] - best[0]):
                    best = (tgt, a)
        if not best:
            continue
        m = re.search(r'k_bwd_leanI.*ELi(\d+)EEv7fa_args', name)
        lean_cp = bool(m and int(m.group(1)) & 2)
        body = [x for x in ins if best[0] <= x[0] <= best[1] and x[1] != 'NOP']
        bw, blk, starts = {}, [], set(labels.values())

        def flush(blk):
            if blk:
                votes = collections.Counter(weight(x[3], lean_cp) for x in blk if not neutral(x[3]))
                votes = votes or collections.Counter(weight(x[3], lean_cp) for x in blk)
                for x in blk:
                    bw[x[0]] = votes.most_common(1)[0][0]
        for x in body:
            if x[0] in starts:
                flush(blk)
                blk = []
            blk.append(x)
            if x[1] in ('BRA', 'EXIT', 'BSYNC') or x[1].startswith('BAR'):
                flush(blk)
                blk = []
        flush(blk)
        cls = collections.Counter()
        for a, op, _, _ in body:
            cls[klass(op)] += bw[a]
        print('%-56s static %5d  per warp-step %6.1f  %s' % (name[:56], len(body), sum(cls.values()), ' '.join(
            '%s %.1f' % kv for kv in sorted(cls.items(), key=lambda x: -x[1]))))


if __name__ == '__main__':
    main()
