#!/usr/bin/env bash
# Axial parallelism (dap, docs/PARALLEL.md) end to end on CPU ranks of a TCP
# group: 20 training steps of the tiny preset with the Pairformer trunk (its MSA
# module sharded too, MSA dropout 0.15 on the pair-weighted averaging) (and 6
# with the Evoformer trunk; 10 over mpirun) give the losses of one process for dap = 2 and dap = 3 (crops of 45 and 46 tokens:
# uneven rows, padded; pair dropout 0.25, up to one recycling pass); 4 ranks as 2 data-parallel groups x dap 2 equal one
# process with grad_accum = 2; a dap run resumes exactly; bad dap values are
# refused with a clear error. With recompute = 1 and 2 (segments of the sharded
# trunk re-run in the backward) the same runs give the losses and gradient norms
# of recompute = 0 bit for bit, and a recompute run resumes exactly.
# Prints one verdict line "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
. tests/testlib.sh
ARGS="--preset tiny --trunk pairformer --data synthetic --set val_every=0 --set dropout_pair=0.25 --set dropout_msa=0.15 --quiet"

# ranks W STEPS OUT ARGS...: W ranks of one TCP group (torchrun-style variables); 0 if all exit 0
ranks() {
    local W=$1 steps=$2 out=$3 rc
    shift 3
    tcp_ranks $W "$out" 300 PF_RENDEZVOUS_TIMEOUT=60 $BIN train $ARGS --steps "$steps" --out "$out" "$@"
    for rc in $TCP_RC0 $TCP_RCS; do [ $rc -eq 0 ] || return 1; done
    return 0
}

# close_losses A B N: N lines in A, at least N in B, the same crops, losses within 1e-6 relative
close_losses() {
    python3 - "$1" "$2" "$3" <<'PY'
import json, sys
a = [json.loads(l) for l in open(sys.argv[1])]
n = int(sys.argv[3])
b = [json.loads(l) for l in open(sys.argv[2])][:n]
keys = ("loss", "val_loss")  # validation too: with dap it runs sharded on every rank
worst = max((abs(x[k] - y[k]) / abs(y[k]) for x, y in zip(a, b) for k in keys if k in y), default=1)
nval = sum("val_loss" in y for y in b)
ok = len(a) == n and len(b) == n and worst <= 1e-6 and all(
    x["n_res"] == y["n_res"] and ("val_loss" in x) == ("val_loss" in y) for x, y in zip(a, b))
print(f"worst relative loss difference {worst:.2e} over {len(a)} steps and {nval} validations")
sys.exit(0 if ok else 1)
PY
}

# The three one-process references (one OpenMP thread each) run first, the Pairformer's 20 steps in the
# background beside the Evoformer's 6 and the grad_accum=2 run's 6 (checked where they were run before)
OMP_NUM_THREADS=1 $BIN train $ARGS --steps 20 --set recycles=1 --set val_every=10 --out "$T/one" >"$T/one.out" 2>&1 &
pid_one=$!
EVO="--preset tiny --data synthetic --set val_every=3 --set dropout_pair=0.25 --set dropout_msa=0.15 --set recycles=1 --quiet"
OMP_NUM_THREADS=1 $BIN train $EVO --steps 6 --out "$T/evo1" >"$T/evo1.out" 2>&1
rc_evo1=$?
OMP_NUM_THREADS=1 $BIN train $ARGS --steps 6 --set grad_accum=2 --out "$T/ga2" >"$T/ga2.out" 2>&1
rc_ga2=$?
wait $pid_one
check "one process, 20 steps" $? "$(tail -n 2 "$T/one.out")"
for P in 2 3; do
    ranks $P 20 "$T/d$P" --set dap=$P --set recycles=1 --set val_every=10
    check "dap=$P: $P ranks train 20 steps" $? "$(tail -n 2 "$T/d$P.r0" "$T/d$P.r1")"
    grep -q "$P ranks (1 data-parallel groups x dap $P)" "$T/d$P.r0"
    check "dap=$P: the run says how the ranks are grouped" $? "$(grep model: "$T/d$P.r0")"
    out=$(close_losses "$T/d$P/train.jsonl" "$T/one/train.jsonl" 20)
    check "dap=$P: 20 losses and 3 validation losses = one process (1e-6 relative)" $? "$out"
done
# same_log A B [KEYS [N]]: the logs' KEYS equal bit for bit, over all of both (or A's N steps against B's first N)
same_log() {
    python3 - "$1" "$2" "${3:-loss val_loss grad_norm n_res}" "${4:-0}" <<'PY'
import json, sys
a, b = ([json.loads(l) for l in open(p)] for p in sys.argv[1:3])
keys, n = sys.argv[3].split(), int(sys.argv[4])
if n: b = b[:n]
diff = [(x["step"], k) for x, y in zip(a, b) for k in keys if x.get(k) != y.get(k)]
print(f"{len(a)} and {len(b)} steps; first differences {diff[:3]}")
sys.exit(0 if len(a) == len(b) and (not n or len(a) == n) and a and not diff else 1)
PY
}
# recompute (issue 12): each rank keeps its shard's segment-start snapshots only
# recompute: the first 10 of those 20 steps (the same learning-rate schedule: lr_decay_steps=20; the
# validation at step 10 included), against recompute 0 bit for bit (10 steps since session 21: CI time)
for P in 2 3; do
    for K in 1 2; do
        ranks $P 10 "$T/d${P}r$K" --set dap=$P --set recycles=1 --set val_every=10 --set recompute=$K --set lr_decay_steps=20
        check "dap=$P recompute=$K: $P ranks train 10 steps" $? "$(tail -n 2 "$T/d${P}r$K.r0" "$T/d${P}r$K.r1")"
        out=$(same_log "$T/d${P}r$K/train.jsonl" "$T/d$P/train.jsonl" "loss val_loss grad_norm n_res" 10)
        check "dap=$P recompute=$K: losses and gradient norms = recompute 0's first 10 steps, bit for bit" $? "$out"
        out=$(close_losses "$T/d${P}r$K/train.jsonl" "$T/one/train.jsonl" 10)
        check "dap=$P recompute=$K: 10 losses and 2 validation losses = one process (1e-6 relative)" $? "$out"
    done
done
python3 -c "import json,sys; sys.exit(0 if any(json.loads(l)['n_res'] % 3 for l in open('$T/one/train.jsonl')) else 1)"
check "the runs include crops whose length is not a multiple of 2 or 3 (padded rows)" $?

# the same over MPI ranks (mpirun): the group's collectives are MPI sums
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if command -v mpirun >/dev/null 2>&1; then
    timeout -s KILL 300 mpirun -np 2 --oversubscribe -x OMP_NUM_THREADS=1 $BIN train $ARGS --steps 10 --set recycles=1 \
        --set val_every=10 --set dap=2 --out "$T/mpi" >"$T/mpi.out" 2>&1
    check "mpirun -np 2, dap=2 runs" $? "$(tail -n 3 "$T/mpi.out")"
    out=$(close_losses "$T/mpi/train.jsonl" "$T/one/train.jsonl" 10)
    check "mpirun dap=2: 10 losses = one process (1e-6 relative)" $? "$out"
else
    check "mpirun available (setup.sh installs Open MPI)" 1
fi

# the Evoformer trunk (tiny preset: extra-MSA stack replicated, 16 MSA rows: padded to 18 for
# dap = 3), MSA dropout too, 6 steps (EVO and the one-process run at the top)
check "Evoformer: one process, 6 steps" $rc_evo1 "$(tail -n 2 "$T/evo1.out")"
for P in 2 3; do
    ARGS="$EVO" ranks $P 6 "$T/evo$P" --set dap=$P
    check "Evoformer dap=$P: $P ranks train 6 steps" $? "$(tail -n 2 "$T/evo$P.r0" "$T/evo$P.r1")"
    out=$(close_losses "$T/evo$P/train.jsonl" "$T/evo1/train.jsonl" 6)
    check "Evoformer dap=$P: 6 losses and 3 validation losses = one process (1e-6 relative)" $? "$out"
done
ARGS="$EVO" ranks 2 6 "$T/evo2r1" --set dap=2 --set recompute=1
check "Evoformer dap=2 recompute=1: 2 ranks train 6 steps" $? "$(tail -n 2 "$T/evo2r1.r0" "$T/evo2r1.r1")"
out=$(same_log "$T/evo2r1/train.jsonl" "$T/evo2/train.jsonl")
check "Evoformer dap=2 recompute=1: losses and gradient norms = recompute 0, bit for bit" $? "$out"

# hybrid: 4 ranks = 2 data-parallel groups x dap 2 = one process with grad_accum=2
check "one process, grad_accum=2" $rc_ga2 "$(tail -n 2 "$T/ga2.out")"  # run at the top
ranks 4 6 "$T/h4" --set dap=2
check "4 ranks, dap=2 (2 groups x 2 shards) run" $? "$(tail -n 2 "$T/h4.r0" "$T/h4.r1")"
out=$(close_losses "$T/h4/train.jsonl" "$T/ga2/train.jsonl" 6)
check "2 groups x dap 2 = one process with grad_accum=2 (6 steps)" $? "$out"

# resume: 4 steps with dap=2, then resumed to 8 (the checkpoint carries dap) = 8 straight, bit for bit
ranks 2 8 "$T/rs8" --set dap=2 && ranks 2 4 "$T/rs4" --set dap=2 --set lr_decay_steps=8 && ARGS="--quiet" ranks 2 8 "$T/rs4" --resume "$T/rs4"
check "dap=2 runs and resumes" $? "$(tail -n 2 "$T/rs4.r0" "$T/rs4.r1")"
python3 - "$T/rs8/train.jsonl" "$T/rs4/train.jsonl" <<'PY'
import json, sys
a, b = ([json.loads(l)["loss"] for l in open(p)] for p in sys.argv[1:])
sys.exit(0 if len(a) == 8 and a == b else 1)
PY
check "dap=2: 4 steps + resume to 8 = 8 straight (identical losses)" $?
ranks 2 4 "$T/rk4" --set dap=2 --set recompute=2 && ARGS="--quiet" ranks 2 8 "$T/rk4" --resume "$T/rk4"
check "dap=2 recompute=2 runs and resumes" $? "$(tail -n 2 "$T/rk4.r0" "$T/rk4.r1")"
out=$(same_log "$T/rk4/train.jsonl" "$T/rs8/train.jsonl" "loss grad_norm n_res")  # the 4-step run validated at its end
check "dap=2 recompute=2: 4 steps + resume to 8 = 8 straight without recompute (identical)" $? "$out"

# refusals: each names the field and what is wrong
refuse() {  # refuse NAME PATTERN COMMAND...
    local name=$1 pat=$2; shift 2
    local out; out=$("$@" 2>&1); local rc=$?
    [ $rc -ne 0 ] && echo "$out" | grep -q -- "$pat"
    check "$name" $? "rc $rc: $(echo "$out" | tail -n 2)"
}
refuse "dap=0 refused" "dap.*0" $BIN train $ARGS --steps 1 --set dap=0 --out "$T/b0"
refuse "dap > crop_size refused" "dap = 49 exceeds crop_size = 48" $BIN train $ARGS --steps 1 --set dap=49 --out "$T/b1"
refuse "dap with the structure module refused" "structure_module with dap = 2 is not implemented" \
    $BIN train $ARGS --steps 1 --set dap=2 --set structure_module=1 --out "$T/b6"
ranks 4 1 "$T/b5" --set dap=2 --set recycles=1
rc=$?
[ $rc -ne 0 ] && grep -q "needs recycles = 0" "$T/b5.r0"
check "several groups x dap with recycling refused" $? "rc $rc: $(tail -n 2 "$T/b5.r0")"
ranks 2 1 "$T/b4" --set dap=3
rc=$?
[ $rc -ne 0 ] && grep -q "dap = 3 must divide the world size 2" "$T/b4.r0"
check "dap not dividing the number of ranks refused" $? "rc $rc: $(tail -n 2 "$T/b4.r0" "$T/b4.r1")"

verdict
