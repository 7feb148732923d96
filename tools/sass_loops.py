#!/usr/bin/env python3
"""sass_loops.py OBJ KERNEL [--min-hmma K]: the instruction mix of each kernel's main loops, from SASS, without a GPU.

For every function of OBJ (an object or cubin built for sm_90a) whose mangled name contains KERNEL, each loop (a
backward branch and the instructions from its target up to it) holding at least K tensor-core instructions (HMMA or
HGMMA; default 100) is printed as one line: its length, the integer / address instructions among them, and the
counts of the classes the attention kernels' profiles talk about (HMMA, MUFU, FFMA, FMNMX, SHFL, F2FP, LDSM, spill
STL / LDL, barriers, branches). These are static counts: a loop's rarely taken paths (a rescale, a masked tile) are
in them. Session 63 compared k_s9_fwd_half's forms this way (docs/ATTENTION_SM90.md "Session 63": the FX loop of
two key tiles 1,055 instructions against the default's 1,632).

Needs cuobjdump and nvdisasm (CUOBJDUMP, default: cuobjdump on PATH). On a machine without them:
  pip install --target /tmp/cutools nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm
  CUOBJDUMP=/tmp/cutools/nvidia/cu13/bin/cuobjdump PATH=$PATH:/tmp/cutools/nvidia/cu13/bin python3 tools/sass_loops.py ...
(if pip puts nvdisasm elsewhere, put its folder on PATH: cuobjdump runs it). OBJ, e.g.:
  nvcc -O3 -std=c++17 -lineinfo -gencode arch=compute_90a,code=sm_90a -Isrc -Isrc/cuda -c
       src/cuda/cu_flash_sm90_tma.cu -o /tmp/tma.o"""
import argparse
import collections
import os
import re
import subprocess
import sys

INTEGER = {'LEA', 'LOP3', 'IMAD', 'SHF', 'S2R', 'MOV', 'IADD3', 'ISETP', 'SEL', 'IMNMX', 'PRMT', 'ISCADD', 'VIADD',
           'IABS', 'R2UR', 'S2UR', 'ULDC', 'UIADD3', 'ULEA', 'ULOP3', 'UMOV', 'USHF', 'UIMAD', 'UISETP', 'UMNMX', 'USEL'}
SHOWN = ('HMMA', 'HGMMA', 'MUFU', 'FFMA', 'FMNMX', 'SHFL', 'F2FP', 'LDSM', 'STL', 'LDL', 'BAR', 'SYNCS', 'FADD',
         'FMUL', 'FSETP', 'FSEL', 'BRA')


def opcode(text):
    """'@!P0 HMMA.16816.F32.BF16 R0, ...' -> 'HMMA'"""
    return re.sub(r'^@!?U?P\w+\s+', '', text).split()[0].split('.')[0]


def loops(body, min_mma):
    """Each loop of one function's instructions [(address, text)] with at least min_mma tensor-core instructions"""
    at = {a: i for i, (a, _) in enumerate(body)}
    for i, (a, text) in enumerate(body):
        b = re.search(r'BRA\b.*?0x([0-9a-f]+)', text)
        target = int(b.group(1), 16) if b else a
        if target >= a or target not in at:
            continue
        span = [opcode(t) for _, t in body[at[target]:i + 1]]
        if sum(op in ('HMMA', 'HGMMA') for op in span) >= min_mma:
            yield span


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split('\n')[0])
    ap.add_argument('obj')
    ap.add_argument('kernel')
    ap.add_argument('--min-hmma', type=int, default=100)
    opt = ap.parse_args()
    obj, kernel, min_mma = opt.obj, opt.kernel, opt.min_hmma
    tool = os.environ.get('CUOBJDUMP', 'cuobjdump')
    try:
        sass = subprocess.run([tool, '-sass', obj], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f'sass_loops: {tool} -sass {obj} failed: {getattr(e, "stderr", "") or e}')
    found = 0
    for f in re.split(r'\n\s+Function : ', sass)[1:]:
        name = f.split('\n', 1)[0].strip()
        if kernel not in name:
            continue
        found += 1
        body = [(int(m.group(1), 16), m.group(2)) for m in re.finditer(r'\n\s+/\*([0-9a-f]{4,})\*/\s+(.*?);', f)]
        for span in loops(body, min_mma):
            c = collections.Counter(span)
            mix = ' '.join(f'{k}={c[k]}' for k in SHOWN if c[k])
            print(f'{len(span):5d} int={sum(v for k, v in c.items() if k in INTEGER)} {mix}  {name}')
    if not found:
        sys.exit(f'sass_loops: no function of {obj} has "{kernel}" in its name')


if __name__ == '__main__':
    main()
