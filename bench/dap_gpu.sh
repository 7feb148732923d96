#!/usr/bin/env bash
# Axial parallelism (dap) of one Pairformer block on two GPUs against one
# (bench/dap_bench.c; issue 12's acceptance). Run on a 2-GPU machine (kind
# nvidia-h200-x2) from the repo root with dap_bench built with CUDA=1 and MPI
# (stage `dapgpu` of bench/device_all.sh builds it). Parts (DAP_PARTS, default all):
#   check   sharded (2 GPUs) = one GPU at N = DAP_N: outputs z, s, input gradients,
#           every parameter gradient (bf16: L2 rel 2e-2; fp32 mode at DAP_FP32_N: 1e-4); then
#           the same with the sharded ops forced into pieces of DAP_PIECES_BYTES (default 16 MiB:
#           trimul channel pieces with the gather and reduce-scatter per piece, attention row
#           pieces; dap_bench --chunk-bytes) in fp32 at DAP_FP32_N and bf16 at DAP_PIECES_N (1024)
#   time    block forward+backward at N = DAP_N: 1 GPU, then 2 GPUs (dap = 2): median ms,
#           peak memory per GPU (the backend's allocations), communication share
#   search  the largest N of SEARCH1 (1 GPU, default 6144,6400,6656) and SEARCH2 (2 GPUs, default
#           8704,8960,9216) one pass runs at; one line per try as it ends (each under SEARCH_LIMIT
#           s, default 240; SEARCH_THREADS host threads per rank, default half the cores). Planned (build/mem_plan [--dap 2] N): one GPU 6144 119.9 GiB, 6400
#           130.1, 6656 140.7; per rank of 2: 8704 120.4, 8960 127.6, 9216 135.0 (an H200: ~140)
#   train   `pairfold train --set dap=2` under mpirun (af3 preset, 2 blocks, crop 128, lr 0,
#           recompute DAP_TRAIN_RECOMPUTE, default 0)
#           against one process: losses within 2e-2 relative (bf16), 1e-4 (cuda-fp32)
#   trunk   the whole AF3 trunk's training step (48 Pairformer blocks + MSA module, 128 MSA
#           rows, recycles 0, synthetic proteins) on 2 GPUs with dap = 2 at the crops of
#           DAP_TRUNK and on one GPU at those of DAP_TRUNK1 (entries crop:recompute[:steps],
#           steps default DAP_TRUNK_STEPS = 2; each try under DAP_TRUNK_LIMIT s, default 280):
#           step times and peak memory per rank, one line per try as it ends; the largest
#           crop each trained at (every step, or at least the first before the limit) and
#           their ratio (target >= 1.4x). DAP_TRUNK_SET: extra --set
#           options (a CPU smoke run shrinks the model with them).
# Prints a summary table and one verdict line against the targets (time <= 0.6x,
# memory <= 0.55x, largest N >= 1.4x, trunk crop >= 1.4x; the check must pass).
# DAP_DRY=1: print each command instead of running it (the script's own logic runs).
set -u
BIN=${1:-build/dap_bench}
PF=${2:-./pairfold}
OUTD=${OUT:-/tmp}/dap
mkdir -p $OUTD
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# DAP_RUN: how two ranks start (default mpirun; bench/launch2.sh for the payload's binaries built without MPI)
RUN=${DAP_RUN:-mpirun -np 2 --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OMP_NUM_THREADS=4}
N=${DAP_N:-2048}
DEV=${DAP_DEV:-cuda}; DEV32=${DAP_DEV32:-cuda-fp32}  # (cpu: a smoke test of this script with small DAP_SET sizes)
B="$BIN ${DAP_SET:-}"
PARTS=${DAP_PARTS:-check time search train}
fail=0
has() { [[ " $PARTS " == *" $1 "* ]]; }
# dry: with DAP_DRY=1 print the command (after `timeout SECONDS`) and succeed without running it
dry() {
    if [ "${DAP_DRY:-0}" = 1 ]; then echo "dry run: $*" >&2; return 0; fi
    "$@"
}
if has check; then
    dry timeout 300 $RUN $B --device $DEV --check $N > $OUTD/check_bf16.txt 2>&1 || fail=1
    tail -n 30 $OUTD/check_bf16.txt | grep -E "FAIL|dap_check"
    dry timeout 200 $RUN $B --device $DEV32 --check ${DAP_FP32_N:-512} --tol 1e-4 > $OUTD/check_fp32.txt 2>&1 || fail=1
    tail -n 30 $OUTD/check_fp32.txt | grep -E "FAIL|dap_check"
    PB=${DAP_PIECES_BYTES:-16777216}
    dry timeout 200 $RUN $B --device $DEV32 --check ${DAP_FP32_N:-512} --tol 1e-4 --chunk-bytes $PB \
        > $OUTD/check_fp32_pieces.txt 2>&1 || fail=1
    echo "pieces of $PB bytes:"; tail -n 30 $OUTD/check_fp32_pieces.txt | grep -E "FAIL|dap_check"
    dry timeout 200 $RUN $B --device $DEV --check ${DAP_PIECES_N:-1024} --chunk-bytes $PB \
        > $OUTD/check_bf16_pieces.txt 2>&1 || fail=1
    echo "pieces of $PB bytes:"; tail -n 30 $OUTD/check_bf16_pieces.txt | grep -E "FAIL|dap_check"
fi
row() { grep "^dap_bench *$1 " "$2" 2>/dev/null | tail -1; }
if has time; then
    dry timeout 200 $B --device $DEV --n $N --reps ${DAP_REPS:-3} > $OUTD/time1.txt 2>&1 || { fail=1; tail -3 $OUTD/time1.txt; }
    dry timeout 200 $RUN $B --device $DEV --n $N --reps ${DAP_REPS:-3} > $OUTD/time2.txt 2>&1 || { fail=1; tail -3 $OUTD/time2.txt; }
    row $N $OUTD/time1.txt; row $N $OUTD/time2.txt
fi
# the largest N in a list (ascending) that one pass runs at; stops at the first failure.
# One line per try on stderr as it ends (a cut call still shows what was tried).
largest() {  # largest FILE LABEL LIST CMD...
    local f=$1 label=$2 list=$3; shift 3
    local best=0 lim=${SEARCH_LIMIT:-240}
    for n in ${list//,/ }; do
        local t0=$SECONDS rc=0
        dry timeout $lim "$@" --n $n --reps 0 >> $f 2>&1 || rc=$?
        if [ $rc -eq 0 ] && { [ "${DAP_DRY:-0}" = 1 ] || row $n $f > /dev/null; }; then
            best=$n
            echo "search $label N=$n: ran in $((SECONDS - t0)) s: $(row $n $f)" >&2
        else
            local why="rc $rc"; [ $rc -eq 124 ] && why="cut at the $lim s limit"
            echo "search $label N=$n: FAILED ($why, $((SECONDS - t0)) s): $(tail -n 1 $f)" >&2
            break
        fi
    done
    echo $best
}
if has search; then
    # the inputs (2 n N c_z normals per rank, 4.8e9 at N = 8704) are made on the host's threads:
    # half the cores per rank (SEARCH_THREADS) instead of the launch's 4
    export OMP_NUM_THREADS=${SEARCH_THREADS:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}
    : > $OUTD/search1.txt; : > $OUTD/search2.txt
    L1=$(largest $OUTD/search1.txt "1 GPU" ${SEARCH1:-6144,6400,6656} $B --device $DEV)
    L2=$(largest $OUTD/search2.txt "2 GPUs" ${SEARCH2:-8704,8960,9216} $RUN $B --device $DEV)
    echo "largest N: 1 GPU $L1, 2 GPUs $L2"
    echo "$L1 $L2" > $OUTD/largest.txt
fi
if has train; then
    TS="--preset af3 --data synthetic --set n_blocks=2 --set crop_size=128 --set msa_rows=32 --set recycles=0 --set val_every=0 --set n_val=1 --set recompute=${DAP_TRAIN_RECOMPUTE:-0} --set lr=0 --steps 4 --quiet"
    for dev in cuda cuda-fp32; do
        rm -rf $OUTD/t1_$dev $OUTD/t2_$dev
        dry timeout 200 $PF train $TS --device $dev --out $OUTD/t1_$dev > $OUTD/t1_$dev.log 2>&1 || { fail=1; tail -3 $OUTD/t1_$dev.log; }
        dry timeout 200 $RUN $PF train $TS --device $dev --set dap=2 --out $OUTD/t2_$dev > $OUTD/t2_$dev.log 2>&1 || { fail=1; tail -3 $OUTD/t2_$dev.log; }
        [ "${DAP_DRY:-0}" = 1 ] && continue
        python3 - $OUTD/t2_$dev/train.jsonl $OUTD/t1_$dev/train.jsonl $([ $dev = cuda ] && echo 2e-2 || echo 1e-4) $dev <<'PY2' || fail=1
import json, sys
a, b = ([json.loads(l)["loss"] for l in open(p)] for p in sys.argv[1:3])
tol = float(sys.argv[3])
ok = len(a) == len(b) == 4 and all(abs(x - y) <= tol * abs(y) for x, y in zip(a, b))
print("train dap=2 vs 1 GPU (%s): losses %s vs %s: %s" % (sys.argv[4], a, b, "match" if ok else "DIFFER"))
sys.exit(0 if ok else 1)
PY2
    done
fi
# One whole-trunk training run: trunk_try GPUS CROP RECOMPUTE STEPS. Appends a line
# "trunk GPUS CROP RECOMPUTE ok|failed STEP_MS... | PEAK_GIB per rank" to trunk.txt and
# prints it. The run directory (a checkpoint of 1.8 GB) stays out of $OUT.
trunk_try() {
    local g=$1 n=$2 k=$3 steps=$4 lim=${DAP_TRUNK_LIMIT:-280}
    local d=${DAP_TMP:-/tmp}/dap_trunk${g}_$n log=$OUTD/trunk${g}_$n
    rm -rf $d $log.jsonl $log.r1.log
    local args="train --preset af3 --device $DEV --data synthetic --set synthetic_len=$n --set crop_size=$n
        --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=$k ${DAP_TRUNK_SET:-}
        --steps $steps --out $d --log $log.jsonl --quiet"
    local t0=$SECONDS rc=0
    if [ $g = 2 ]; then
        LAUNCH_LOG=$log.r1.log dry timeout $lim $RUN $PF $args --set dap=2 > $log.log 2>&1 || rc=$?
    else
        dry timeout $lim $PF $args > $log.log 2>&1 || rc=$?
    fi
    rm -rf $d
    python3 - $log $g $n $k $steps $rc $((SECONDS - t0)) $lim ${DAP_DRY:-0} <<'PYT' | tee -a $OUTD/trunk.txt
import json, os, re, sys
log, g, n, k, steps, rc, secs, lim, dry = sys.argv[1:]
ms = [json.loads(l)["ms"] for l in open(log + ".jsonl")] if os.path.exists(log + ".jsonl") else []
peaks = []  # rank 0 in the summary line ("peak cuda memory X GiB"); other ranks "rank R: peak ..."
for f in (log + ".log", log + ".r1.log"):
    if os.path.exists(f):
        peaks += [float(x) for x in re.findall(r"peak \S+ memory ([0-9.]+) GiB", open(f).read())]
ok = rc == "0" and (dry == "1" or len(ms) == int(steps))
status = "ok" if ok else "cut" if rc == "124" else "failed"
why = "" if ok else " cut at the %s s limit;" % lim if rc == "124" else " rc %s;" % rc
if not ok and os.path.exists(log + ".log"):
    tail = [l.strip() for l in open(log + ".log") if l.strip()]
    why += " last line: " + (tail[-1][:200] if tail else "-")
print("trunk %s %s %s %s step_ms %s peak_gib %s %s s%s%s" % (g, n, k, status,
      ",".join("%.0f" % x for x in ms) or "-", ",".join("%.2f" % x for x in peaks) or "-", secs, " dry" if dry == "1" else "", why))
PYT
}
if has trunk; then
    : > $OUTD/trunk.txt
    for spec in ${DAP_TRUNK1-4096:8 4128:8}; do  # docs/PARALLEL.md: the largest one-GPU crops by the plan (session 45)
        IFS=: read -r n k st <<< "$spec"; trunk_try 1 $n ${k:-8} ${st:-${DAP_TRUNK_STEPS:-2}}
    done
    for spec in ${DAP_TRUNK-5792:8}; do  # 1.4x 4128
        IFS=: read -r n k st <<< "$spec"; trunk_try 2 $n ${k:-8} ${st:-${DAP_TRUNK_STEPS:-2}}
    done
fi
python3 - $OUTD $N $fail <<'PY'
import os, sys
d, N, fail = sys.argv[1], sys.argv[2], int(sys.argv[3])
def row(f):
    p = os.path.join(d, f)
    r = [l.split() for l in open(p)] if os.path.exists(p) else []
    r = [x for x in r if len(x) == 6 and x[0] == "dap_bench" and x[1] == N]
    return (float(r[-1][3]), float(r[-1][4]), float(r[-1][5])) if r else None
one, two = row("time1.txt"), row("time2.txt")
ok = fail == 0
print("| Pairformer block, N = %s | 1 GPU | 2 GPUs (dap = 2) | ratio | target |" % N)
print("|---|---|---|---|---|")
if one and two:
    t, m = two[0] / one[0], two[1] / one[1] if one[1] > 0 else float("nan")  # (cpu: no peak counter)
    print("| forward+backward (ms) | %.1f | %.1f | %.2fx | <= 0.6x |" % (one[0], two[0], t))
    print("| peak memory per GPU (GiB) | %.2f | %.2f | %.2fx | <= 0.55x |" % (one[1], two[1], m))
    print("| communication share | | %.1f%% | | |" % (100 * two[2]))
    ok = ok and t <= 0.6 and m <= 0.55
lp = os.path.join(d, "largest.txt")
if os.path.exists(lp):
    a, b = map(int, open(lp).read().split())
    print("| largest N, one block f+b | %d | %d | %s | >= 1.4x |" % (a, b, "%.2fx" % (b / a) if a else "-"))
    ok = ok and a > 0 and b >= 1.4 * a
tp = os.path.join(d, "trunk.txt")
if os.path.exists(tp):
    runs = [l.split() for l in open(tp) if l.startswith("trunk ")]
    # trained at a crop: every step ran, or the limit cut a run after its first step
    trained = lambda r: r[4] == "ok" or (r[4] == "cut" and r[6] != "-")
    best = {g: max([int(r[2]) for r in runs if r[1] == g and trained(r)], default=0) for g in ("1", "2")}
    for r in runs:
        print("| AF3 trunk step, crop %s, recompute %s, %s GPU%s | %s | step ms %s | peak GiB per rank %s | |" %
              (r[2], r[3], r[1], "s (dap = 2)" if r[1] == "2" else "", r[4], r[6], r[8]))
    a, b = best["1"], best["2"]
    print("| largest trunk crop trained | %d | %d | %s | >= 1.4x |" % (a, b, "%.2fx" % (b / a) if a else "-"))
    ok = ok and a > 0 and b >= 1.4 * a
print("dap_gpu: %s" % ("passed" if ok else "FAILED (see the table and the logs in %s)" % d))
sys.exit(0 if ok else 1)
PY
