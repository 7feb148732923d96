#!/usr/bin/env bash
# dap_scale_trunk.sh [PAIRFOLD]: issue 13's whole-trunk items on P ranks (SCALE_P, default 8; one GPU
# each), after bench/dap_scale_gpu.sh's block table:
#   crop    the largest AF3 trunk training crop with dap = P: one step (recompute 8) at each crop of
#           SCALE_CROPS (default 4352,5120,6144,6656; ascending, stops at the first failure); target
#           6144 on 8 GPUs;
#   hybrid  throughput at crop SCALE_HYBRID_CROP (default 768): P ranks as P / 4 structures x dap 4
#           against P x 1 data parallel (dap 1), SCALE_HYBRID_STEPS steps (default 4), tokens/s over
#           the steps after the first (train.jsonl's tokens_per_s: every group's tokens).
# Inference at N = 20,000 on 8 GPUs is not here: `predict` runs on one GPU (no sharded predict yet).
# SCALE_PARTS (default "crop hybrid"), SCALE_DEV (cuda), SCALE_PRESET (af3), SCALE_SET (more
# "--set K=V"), SCALE_LIMIT seconds per run (default 600). Ranks start through bench/launch.sh
# (torchrun-style variables) unless SCALE_RUN is given, e.g. "mpirun -np" (P is appended). CPU smoke:
#   SCALE_DEV=cpu SCALE_P=4 SCALE_PRESET=tiny SCALE_CROPS=24,32 SCALE_HYBRID_CROP=24 \
#   SCALE_HYBRID_STEPS=2 bash bench/dap_scale_trunk.sh ./pairfold
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
