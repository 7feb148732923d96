#!/usr/bin/env bash
# Axial parallelism at the shard counts of the 4- and 8-GPU scaling run (issue 13), on
# CPU ranks of a TCP group: 6 training steps of the tiny preset, Pairformer trunk, with
# dap = 4 and dap = 8 (crops of 45 and 46 tokens: 6 or 12 rows per rank, the last rank
# padded) give the losses of one process to 1e-6 relative; 8 ranks as 2 data-parallel
# groups x dap 4 equal one process with grad_accum = 2; bench/dap_scale_trunk.sh's logic on 4 CPU ranks.
# Prints one verdict line "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
. tests/testlib.sh
ARGS="--preset tiny --trunk pairformer --data synthetic --set val_every=0 --set dropout_pair=0.25 --quiet"
STEPS=6

# ranks W OUT ARGS...: W ranks of one TCP group (torchrun-style variables); 0 if all exit 0
ranks() {
    local W=$1 out=$2 rc
    shift 2
    tcp_ranks $W "$out" 400 PF_RENDEZVOUS_TIMEOUT=90 $BIN train $ARGS --steps $STEPS --out "$out" "$@"
    for rc in $TCP_RC0 $TCP_RCS; do [ $rc -eq 0 ] || return 1; done
    return 0
}

# same_losses A B: the same number of steps and crops, losses within 1e-6 relative
same_losses() {
    python3 - "$1" "$2" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
b = [json.loads(l) for l in open(sys.argv[2])]
worst = max((abs(x["loss"] - y["loss"]) / abs(y["loss"]) for x, y in zip(a, b)), default=1)
print(f"worst relative loss difference {worst:.2e} over {len(a)} steps")
sys.exit(0 if len(a) == len(b) > 0 and worst <= 1e-6 and all(x["n_res"] == y["n_res"] for x, y in zip(a, b)) else 1)
PY
}

# the two one-process references (one OpenMP thread each) side by side, the grad_accum=2 one in the background
OMP_NUM_THREADS=1 $BIN train $ARGS --steps $STEPS --set grad_accum=2 --out "$T/acc" >"$T/acc.out" 2>&1 &
pid_acc=$!
OMP_NUM_THREADS=1 $BIN train $ARGS --steps $STEPS --out "$T/one" >"$T/one.out" 2>&1
check "one process, $STEPS steps" $? "$(tail -n 2 "$T/one.out")"
wait $pid_acc; rc_acc=$?
for P in 4 8; do
    ranks $P "$T/d$P" --set dap=$P
    check "dap=$P: $P ranks train $STEPS steps" $? "$(tail -n 2 "$T/d$P.r0" "$T/d$P.r1")"
    out=$(same_losses "$T/d$P/train.jsonl" "$T/one/train.jsonl")
    check "dap=$P: losses = one process (1e-6 relative)" $? "$out"
done
check "one process, grad_accum=2" $rc_acc "$(tail -n 2 "$T/acc.out")"
ranks 8 "$T/h" --set dap=4
check "8 ranks as 2 groups x dap 4" $? "$(tail -n 2 "$T/h.r0")"
grep -q "8 ranks (2 data-parallel groups x dap 4)" "$T/h.r0"
check "the run says how the ranks are grouped" $? "$(grep model: "$T/h.r0")"
out=$(same_losses "$T/h/train.jsonl" "$T/acc/train.jsonl")
check "2 groups x dap 4 = grad_accum 2 (1e-6 relative)" $? "$out"
# bench/dap_scale_trunk.sh (issue 13's trunk items on GPUs) on CPU ranks: the crop search stops at
# the first failing crop (3 < dap 4) and the hybrid comparison prints its line
out=$(OUT="$T/dst" SCALE_DEV=cpu SCALE_P=4 SCALE_PRESET=tiny SCALE_CROPS=24,3,32 SCALE_HYBRID_CROP=24 \
      SCALE_HYBRID_STEPS=2 SCALE_LIMIT=200 SCALE_TMP="$T" OMP_NUM_THREADS=1 bash bench/dap_scale_trunk.sh $BIN 2>&1)
echo "$out" | grep -q "largest trunk training crop on P = 4 (dap = 4): 24 " && ! echo "$out" | grep -q crop_p4_n32
check "dap_scale_trunk.sh: the crop search on CPU ranks (24 runs, 3 fails, 32 not tried)" $? "$out"
echo "$out" | grep -q "hybrid at crop 24 on 4 ranks: 1 x dap 4 [0-9.]* tokens/s, 4 x 1 data parallel [0-9.]* tokens/s"
check "dap_scale_trunk.sh: the hybrid line" $? "$out"
# its inference part (issue 13's N = 20,000 on GPUs): sharded predict on 2 CPU ranks at two trunk depths
out=$(OUT="$T/dsi" SCALE_DEV=cpu SCALE_P=2 SCALE_PRESET=tiny SCALE_PARTS=infer SCALE_INFER_N=40 SCALE_INFER_BLOCKS=1,3 \
      SCALE_INFER_DIR="$T" SCALE_LIMIT=200 SCALE_TMP="$T" OMP_NUM_THREADS=1 bash bench/dap_scale_trunk.sh $BIN 2>&1)
echo "$out" | grep -q "infer_p2_n40_b3 blocks=3 ok rc=0" &&
    echo "$out" | grep -q "inference at N = 40 on 2 ranks (dap 2): [0-9.]* s per block, .*extrapolated, not run: [0-9.-]* s for 48 blocks" &&
    [ ! -e "$T/dst_pred_40.safetensors" ]
check "dap_scale_trunk.sh: sharded predict at two depths, the per-block line, the file removed" $? "$out"
verdict
