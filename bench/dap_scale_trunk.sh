#!/usr/bin/env bash
# dap_scale_trunk.sh [PAIRFOLD]: issue 13's whole-trunk items on P ranks (SCALE_P, default 8; one GPU
# each), after bench/dap_scale_gpu.sh's block table:
#   crop    the largest AF3 trunk training crop with dap = P: one step (recompute 8) at each crop of
#           SCALE_CROPS (default 4352,5120,6144,6656; ascending, stops at the first failure); target
#           6144 on 8 GPUs;
#   hybrid  throughput at crop SCALE_HYBRID_CROP (default 768): P ranks as P / 4 structures x dap 4
#           against P x 1 data parallel (dap 1), SCALE_HYBRID_STEPS steps (default 4), tokens/s over
#           the steps after the first (train.jsonl's tokens_per_s: every group's tokens).
#   infer   inference at N = SCALE_INFER_N (default 20000) with dap = P (`predict --set dap=P`, a single-
#           sequence query, recycles 0, random weights from a one-step checkpoint): the trunk cut to each
#           block count of SCALE_INFER_BLOCKS (default 2,6), so that each run fits a call; wall time and
#           rank 0's peak per run, then the time per block and the fixed part from the first and last
#           runs, and the whole trunk's time extrapolated to SCALE_INFER_FULL blocks (default 48, the af3
#           preset's) and labelled so. Not in the default parts: a call of its own (SCALE_PARTS=infer).
#           The prediction file (N^2 x 64 float32: 102 GB at 20,000) goes to SCALE_INFER_DIR (default
#           /dev/shm where it has room, else SCALE_TMP or /tmp) and is deleted after each run.
# SCALE_PARTS (default "crop hybrid"), SCALE_DEV (cuda), SCALE_PRESET (af3), SCALE_SET (more
# "--set K=V"), SCALE_LIMIT seconds per run (default 600). Ranks start through bench/launch.sh
# (torchrun-style variables) unless SCALE_RUN is given, e.g. "mpirun -np" (P is appended). CPU smoke:
#   SCALE_DEV=cpu SCALE_P=4 SCALE_PRESET=tiny SCALE_CROPS=24,32 SCALE_HYBRID_CROP=24 \
#   SCALE_HYBRID_STEPS=2 bash bench/dap_scale_trunk.sh ./pairfold
#   SCALE_DEV=cpu SCALE_P=2 SCALE_PRESET=tiny SCALE_PARTS=infer SCALE_INFER_N=40 SCALE_INFER_BLOCKS=1,3 \
#   bash bench/dap_scale_trunk.sh ./pairfold
# Prints one line per run as it ends, then the results; logs under $OUT/dap_scale_trunk/.
set -u
PF=${1:-./pairfold}
OUTD=${OUT:-/tmp}/dap_scale_trunk
mkdir -p "$OUTD"
here=$(cd "$(dirname "$0")" && pwd)
P=${SCALE_P:-8} DEV=${SCALE_DEV:-cuda} LIM=${SCALE_LIMIT:-600}
case "$P" in ''|*[!0-9]*|0) echo "dap_scale_trunk.sh: SCALE_P must be a positive integer (got '$P')" >&2; exit 2 ;; esac
if [ "$DEV" != cpu ]; then
    ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
    [ "$ngpu" -ge "$P" ] || { echo "dap_scale_trunk.sh: SCALE_P = $P but $ngpu GPUs" >&2; exit 2; }
fi
has() { case " ${SCALE_PARTS:-crop hybrid} " in *" $1 "*) return 0 ;; esac; return 1; }
start() {  # start P CMD...: P ranks (P = 1: the command alone), under the time limit
    local p=$1; shift
    if [ "$p" -eq 1 ]; then timeout $LIM "$@"
    elif [ -n "${SCALE_RUN:-}" ]; then timeout $LIM $SCALE_RUN $p "$@"
    else LAUNCH_LOG=${LAUNCH_LOG:-/dev/null} "$here/launch.sh" $p timeout $LIM "$@"; fi
}
# run NAME CROP DAP RECOMPUTE STEPS: one training run on P ranks; prints "NAME rc=RC secs steps
# step_ms tokens_per_s peak_gib" (rank 0's log)
run() {
    local name=$1 n=$2 dap=$3 k=$4 steps=$5 d=${SCALE_TMP:-/tmp}/dst_$1 t0=$SECONDS rc=0
    rm -rf "$d" "$OUTD/$name.jsonl"
    # shellcheck disable=SC2086
    start $P "$PF" train --preset ${SCALE_PRESET:-af3} --device $DEV --data synthetic --set synthetic_len=$n \
        --set crop_size=$n --set msa_rows=128 --set recycles=0 --set val_every=0 --set n_val=0 --set recompute=$k \
        --set dap=$dap ${SCALE_SET:-} --steps $steps --out "$d" --log "$OUTD/$name.jsonl" --quiet \
        > "$OUTD/$name.log" 2>&1 || rc=$?
    rm -rf "$d"
    python3 - "$OUTD/$name" "$name" $rc $((SECONDS - t0)) "$steps" <<'PY'
import json, os, re, sys
base, name, rc, secs, steps = sys.argv[1:]
rows = [json.loads(l) for l in open(base + ".jsonl")] if os.path.exists(base + ".jsonl") else []
ok = rc == "0" and len(rows) == int(steps)
tail = rows[1:] or rows
tps = sum(r["tokens_per_s"] for r in tail) / len(tail) if tail else 0
peak = re.findall(r"peak \S+ memory ([0-9.]+) GiB", open(base + ".log").read()) if os.path.exists(base + ".log") else []
print("%s %s rc=%s %s s steps=%d step_ms=%s tokens_per_s=%.1f peak_gib=%s" % (name, "ok" if ok else "failed", rc,
      secs, len(rows), ",".join("%.0f" % r["ms"] for r in rows) or "-", tps, peak[-1] if peak else "-"))
PY
}
res=$OUTD/results.txt
: > "$res"
if has crop; then
    best=0
    CROPS=${SCALE_CROPS:-4352,5120,6144,6656}
    for n in ${CROPS//,/ }; do
        line=$(run crop_p${P}_n$n $n $P 8 1)
        echo "$line" | tee -a "$res" >&2
        case "$line" in *" ok "*) best=$n ;; *) break ;; esac
    done
    echo "largest trunk training crop on P = $P (dap = $P): $best (target 6144 on 8 GPUs)" | tee -a "$res"
fi
if has hybrid; then
    if [ $((P % 4)) -ne 0 ]; then
        echo "hybrid: P = $P is not a multiple of 4, skipped" | tee -a "$res"
    else
        n=${SCALE_HYBRID_CROP:-768} st=${SCALE_HYBRID_STEPS:-4}
        a=$(run hybrid_dap4_n$n $n 4 1 $st)
        b=$(run hybrid_dp_n$n $n 1 1 $st)
        echo "$a" | tee -a "$res" >&2
        echo "$b" | tee -a "$res" >&2
        python3 - "$a" "$b" $P $n <<'PY' | tee -a "$res"
import re, sys
a, b, P, n = sys.argv[1:]
t = [float(re.search(r"tokens_per_s=([0-9.]+)", x).group(1)) for x in (a, b)]
r = "%.2fx" % (t[0] / t[1]) if t[1] > 0 else "-"
print("hybrid at crop %s on %s ranks: %d x dap 4 %.1f tokens/s, %s x 1 data parallel %.1f tokens/s: %s" %
      (n, P, int(P) // 4, t[0], P, t[1], r))
PY
    fi
fi
if has infer; then
    n=${SCALE_INFER_N:-20000} full=${SCALE_INFER_FULL:-48} blocks=${SCALE_INFER_BLOCKS:-2,6}
    case "$n$full${blocks//,/}" in *[!0-9]*) echo "dap_scale_trunk.sh: SCALE_INFER_N, _FULL and _BLOCKS take positive integers (got '$n', '$full', '$blocks')" >&2; exit 2 ;; esac
    [ "$n" -gt 0 ] && [ "$full" -gt 0 ] || { echo "dap_scale_trunk.sh: SCALE_INFER_N and SCALE_INFER_FULL must be positive" >&2; exit 2; }
    tmp=${SCALE_TMP:-/tmp}
    dir=${SCALE_INFER_DIR:-}
    if [ -z "$dir" ]; then  # the file is N^2 x 64 x 4 bytes: /dev/shm when it holds twice that
        need=$(( n * n * 64 * 4 * 2 / 1024 ))
        free=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')
        if [ -n "$free" ] && [ "$free" -gt "$need" ]; then dir=/dev/shm; else dir=$tmp; fi
    fi
    q=$tmp/dst_query_$n.a3m
    python3 -c "import random, sys; random.seed(1); n = int(sys.argv[1]); print('>query'); print(''.join(random.choice('ACDEFGHIKLMNPQRSTVWY') for _ in range(n)))" "$n" > "$q"
    lines=()
    for b in ${blocks//,/ }; do
        ck=$tmp/dst_ck_b$b name=infer_p${P}_n${n}_b$b t0=$SECONDS rc=0
        rm -rf "$ck"
        # shellcheck disable=SC2086
        timeout $LIM "$PF" train --preset ${SCALE_PRESET:-af3} --device $DEV --data synthetic --steps 1 \
            --set crop_size=32 --set msa_rows=4 --set n_val=1 --set n_blocks=$b ${SCALE_SET:-} --out "$ck" --quiet \
            > "$OUTD/${name}_ckpt.log" 2>&1 || rc=$?
        if [ $rc -eq 0 ]; then
            t0=$SECONDS
            start $P "$PF" predict --ckpt "$ck" --msa "$q" --device $DEV --recycles 0 --set dap=$P \
                --out "$dir/dst_pred_$n.safetensors" > "$OUTD/$name.log" 2>&1 || rc=$?
        fi
        secs=$((SECONDS - t0))
        rm -rf "$ck" "$dir/dst_pred_$n.safetensors"
        peak=$(grep -o 'peak [^ ]* memory: [0-9.]* GiB' "$OUTD/$name.log" 2>/dev/null | tail -n 1 | grep -o '[0-9.]* GiB')
        # predict's own time of the query ("predicted N residues ... in S s"): what the fit below uses
        pred=$(grep -o ' in [0-9.]* s -> ' "$OUTD/$name.log" 2>/dev/null | tail -n 1 | grep -o '[0-9.]*')
        line="$name blocks=$b $([ $rc -eq 0 ] && [ -n "$pred" ] && echo ok || echo failed) rc=$rc wall ${secs} s predict=${pred:--} s peak_rank0=${peak:--}"
        echo "$line" | tee -a "$res" >&2
        lines+=("$line")
    done
    rm -f "$q"
    python3 - "$n" "$P" "$full" "${lines[@]}" <<'PY' | tee -a "$res"
import re, sys
n, P, full = sys.argv[1:4]
runs = [(int(re.search(r"blocks=(\d+)", l).group(1)), float(re.search(r"predict=([0-9.]+) s", l).group(1)))
        for l in sys.argv[4:] if " ok " in l]
if len(runs) < 2 or runs[-1][0] == runs[0][0]:
    print("inference at N = %s on %s ranks: %d run(s) ok, too few for the time per block" % (n, P, len(runs)))
else:
    (b0, t0), (b1, t1) = runs[0], runs[-1]
    per = (t1 - t0) / (b1 - b0)
    fixed = t0 - b0 * per
    print("inference at N = %s on %s ranks (dap %s): %.2f s per block, %.1f s fixed (predict's times at %d and %d "
          "blocks); extrapolated, not run: %.1f s for %s blocks" % (n, P, P, per, fixed, b0, b1, fixed + int(full) * per, full))
PY
fi
