#!/usr/bin/env bash
# Sharded predict (`pairfold predict --set dap=P` on P ranks of a TCP group, docs/PARALLEL.md): the trunk of
# each structure sharded over the ranks, rank 0 writing the files. Against one process, from 10-step checkpoints
# of the tiny preset (trained weights, --raw-weights: distograms far from uniform, checked): a distogram-only
# Pairformer at dap = 2 (the model's pair tensors as each rank's rows), one with a structure module at dap = 3
# (154 residues: uneven rows) and dap = 2 (the structure module on each rank's rows of the pair tensor: IPA and
# the PAE head by rows, z never gathered whole, checked by its log line), an Evoformer at dap = 2: the
# same distogram to 1e-5, coordinates to 0.002 A, pLDDT / PAE / pTM to 1e-3; AF3 JSON jobs at dap = 2 with one
# unsupported job skipped on every rank (exit 1). Bad launches are refused with a clear error.
# The safetensors file is written a row block at a time (rank 0 never holds the (N, N, n_bins)
# probabilities): at dap = 1, 2, 3 it is byte for byte what the one-go writer (pf_st_write, through
# `test_unit_safetensors --rewrite`) gives for its content; forced small blocks (PF_PREDICT_ROWS_BLOCK:
# several blocks, under dap rows of the ranks side by side, written out of order) give the same bytes;
# bad values are refused; a path that cannot be written and a write failing half way (a file size
# limit) give a clear error on every rank and leave no file, no temporary; the npz's distogram above
# PF_PREDICT_NPZ_MAX is left out with a note. Prints one verdict line "N passed, M failed".
set -u
cd "$(dirname "$0")/.."
. tests/testlib.sh
MSA=data/msas/102M_A/non_pairing.a3m.gz
ST=${BUILD:-build}/test_unit_safetensors  # its --rewrite: a file's content again through pf_st_write
[ -x "$ST" ] || make -s "$ST" >/dev/null 2>&1
# 10 steps (30 before): what the comparisons need is weights whose outputs are not trivial, and 10
# steps give distograms as far from uniform as 30 (largest probability 0.52 / 0.64 for the Pairformer / the
# Evoformer, mean entropy 2.41 / 2.15 nats, uniform 4.16; at 30 steps 0.68 / 0.75, 2.54 / 2.49); the
# structure module's coordinates are as collapsed at 30 steps as at 10 (CA radius of gyration 0.35 / 0.37 A,
# pLDDT 50 and PAE 16 everywhere). The three checkpoints: ~25 CPU seconds at 30 steps, ~13 at 10.
TRAIN="--preset tiny --trunk pairformer --data synthetic --steps 10 --set lr=3e-3 --set warmup_steps=0 --quiet"

# ranks W OUT ARGS...: `pairfold predict ARGS` on W ranks of one TCP group, rank r's output in OUT.rR; the
# exit status of rank 0 (the others must exit the same way: 0 when all agree, else 1)
ranks() {
    local W=$1 out=$2 rc
    shift 2
    tcp_ranks $W "$out" 300 PF_RENDEZVOUS_TIMEOUT=60 $BIN predict "$@"
    for rc in $TCP_RCS; do [ $rc -eq $TCP_RC0 ] || return 99; done
    return $TCP_RC0
}

# same A B: the predictions A and B (OUT stems) agree: every safetensors array, and where present the
# structure's coordinates and the confidence JSON
same() {
    python3 - "$1" "$2" <<'PY'
import json, os, sys
import numpy as np
from safetensors.numpy import load_file
a, b = sys.argv[1], sys.argv[2]
x, y = load_file(a + ".safetensors"), load_file(b + ".safetensors")
worst = 0.0
ok = sorted(x) == sorted(y)
for k in x:
    if x[k].dtype.kind == "f":
        worst = max(worst, float(np.abs(x[k] - y[k]).max()))
    else:
        ok = ok and np.array_equal(x[k], y[k])
ok = ok and worst <= 1e-5
msg = f"arrays: worst {worst:.2e}"
if os.path.exists(a + ".pdb"):
    def xyz(p):
        return np.array([[float(l[30:38]), float(l[38:46]), float(l[46:54])] for l in open(p) if l.startswith("ATOM")])
    ca, cb = xyz(a + ".pdb"), xyz(b + ".pdb")
    dc = float(np.abs(ca - cb).max()) if ca.shape == cb.shape and len(ca) else 1e9
    ja, jb = json.load(open(a + "_confidence.json")), json.load(open(b + "_confidence.json"))
    def flat(v):
        return np.array(v, dtype=float).ravel() if isinstance(v, list) else np.array([v], dtype=float)
    dj = max(float(np.abs(flat(ja[k]) - flat(jb[k])).max()) for k in ja if isinstance(ja[k], (int, float, list)))
    ok = ok and sorted(ja) == sorted(jb) and dc <= 0.002 and dj <= 1e-3 and len(ca) > 0
    msg += f"; coordinates {len(ca)} atoms, worst {dc:.3f} A; confidence worst {dj:.1e}"
print(msg)
sys.exit(0 if ok else 1)
PY
}

# The one-process runs (each one OpenMP thread) go two at a time on CI's 2 cores, the structure module's
# checkpoint beside the other two; the one-process predictions below likewise, before the checks that read them
OMP_NUM_THREADS=1 $BIN train $TRAIN --set structure_module=1 --out "$T/s" >"$T/s.out" 2>&1 &
pid_s=$!
OMP_NUM_THREADS=1 $BIN train $TRAIN --out "$T/m" >"$T/m.out" 2>&1
rc_m=$?
# the AF2 Evoformer trunk (m sharded by columns and re-sharded between row and column modules), checked below
TRAIN_E=${TRAIN/--trunk pairformer/--trunk evoformer}
OMP_NUM_THREADS=1 $BIN train $TRAIN_E --out "$T/e" >"$T/e.out" 2>&1
rc_e=$?
wait $pid_s; rc_s=$?
check "a distogram-only checkpoint" $rc_m "$(tail -n 2 "$T/m.out")"
check "a checkpoint with a structure module" $rc_s "$(tail -n 2 "$T/s.out")"

OMP_NUM_THREADS=1 $BIN predict --ckpt "$T/s" --msa $MSA --raw-weights --out "$T/s1.safetensors" >"$T/s1.out" 2>&1 &
pid_s1=$!
OMP_NUM_THREADS=1 $BIN predict --ckpt "$T/m" --msa $MSA --raw-weights --out "$T/m1.safetensors" >"$T/m1.out" 2>&1
rc_m1=$?
[ $rc_e -eq 0 ] && OMP_NUM_THREADS=1 $BIN predict --ckpt "$T/e" --msa $MSA --raw-weights --out "$T/e1.safetensors" >"$T/e1.out" 2>&1
rc_e1=$?
wait $pid_s1; rc_s1=$?
check "one process: the distogram-only model" $rc_m1 "$(tail -n 2 "$T/m1.out")"
ranks 2 "$T/m2" --ckpt "$T/m" --msa $MSA --raw-weights --out "$T/m2.safetensors" --set dap=2
check "dap=2: 2 ranks predict" $? "$(tail -n 2 "$T/m2.r0" "$T/m2.r1")"
grep -q "predict: 2 ranks, each structure's trunk sharded over them (dap 2)" "$T/m2.r0" &&
    grep -q "top long-range" "$T/m2.r0" && ! grep -q "top long-range" "$T/m2.r1"
check "dap=2: rank 0 says so and alone prints the prediction" $? "$(head -n 3 "$T/m2.r0")"
python3 -c "
import sys; from safetensors.numpy import load_file
p = load_file(sys.argv[1])['distogram_probs']; sys.exit(0 if p.max() > 0.2 else 1)" "$T/m1.safetensors"
check "the trained distogram is far from uniform (so the comparisons below can fail)" $?
out=$(same "$T/m1" "$T/m2"); check "dap=2: the distogram of one process (1e-5)" $? "$out"

check "one process: the model with a structure module" $rc_s1 "$(tail -n 2 "$T/s1.out")"
ranks 3 "$T/s3" --ckpt "$T/s" --msa $MSA --raw-weights --out "$T/s3.safetensors" --set dap=3
check "dap=3: 3 ranks predict a structure (154 residues: 52 rows per rank, 2 padded)" $? "$(tail -n 2 "$T/s3.r0" "$T/s3.r2")"
out=$(same "$T/s1" "$T/s3"); check "dap=3: the distogram, coordinates and confidence of one process" $? "$out"
grep -q "structure module: on z's rows (dap 3, 52 rows per rank); z gathered whole 0 times" "$T/s3.r0"
check "dap=3: the structure module ran on each rank's rows of z, z never gathered whole" $? \
    "$(grep -i "structure module" "$T/s3.r0")"
ranks 2 "$T/s2" --ckpt "$T/s" --msa $MSA --raw-weights --out "$T/s2.safetensors" --set dap=2
check "dap=2: 2 ranks predict a structure (77 rows per rank)" $? "$(tail -n 2 "$T/s2.r0" "$T/s2.r1")"
out=$(same "$T/s1" "$T/s2"); check "dap=2: the distogram, coordinates and confidence of one process" $? "$out"
grep -q "structure module: on z's rows (dap 2, 77 rows per rank); z gathered whole 0 times" "$T/s2.r0"
check "dap=2: the structure module on z's rows, z never gathered whole" $? "$(grep -i "structure module" "$T/s2.r0")"

# the AF2 Evoformer trunk (its checkpoint and one-process prediction above)
check "one process: an Evoformer checkpoint's distogram" $rc_e1 "$(tail -n 2 "$T/e.out" "$T/e1.out" 2>&1)"
ranks 2 "$T/e2" --ckpt "$T/e" --msa $MSA --raw-weights --out "$T/e2.safetensors" --set dap=2
check "dap=2, Evoformer: 2 ranks predict" $? "$(tail -n 2 "$T/e2.r0" "$T/e2.r1")"
out=$(same "$T/e1" "$T/e2"); check "dap=2, Evoformer: the distogram of one process (1e-5)" $? "$out"

# AF3 JSON jobs (a homodimer + peptide, a server list with one good and one unsupported job): tests/data/af3
# with the homodimer's chains cut to 102M's first 40 residues (and its alignment, from a path, to their
# columns): 88 tokens instead of 316. What is checked here, the jobs of a JSON directory under dap (every
# rank predicts the good ones, skips the unsupported one, exits 1; the distograms as one process's), does not
# depend on the size; sharding at 154 tokens is checked above, and the 316-token job's chains and residue
# indices in test_train.sh. The 316-token job cost ~60 of this script's ~100 CPU seconds.
mkdir -p "$T/af3/msa"
cp tests/data/af3/server_jobs.json "$T/af3/"
python3 - tests/data/af3/dimer_peptide.json "$T/af3" 40 <<'PY'
import gzip, json, os, sys
src, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
job = json.load(open(src))
prot = job["sequences"][0]["protein"]
rows = []  # a3m rows cut to the first n match columns (upper case or '-'), the insertions among them kept
for line in gzip.open(os.path.join(os.path.dirname(src), prot["unpairedMsaPath"]), "rt"):
    line = line.rstrip("\n")
    if line.startswith(">"):
        rows.append(line)
        continue
    cols, cut = 0, ""
    for ch in line:
        if cols == n:
            break
        cut += ch
        cols += ch.isupper() or ch == "-"
    rows.append(cut)
open(os.path.join(out, "msa", "102M_A_1-40.a3m"), "w").write("\n".join(rows) + "\n")
assert rows[1] == prot["sequence"][:n]
prot["sequence"], prot["unpairedMsaPath"] = prot["sequence"][:n], "msa/102M_A_1-40.a3m"
job["name"] = "102M 1-40 homodimer with a peptide"
json.dump(job, open(os.path.join(out, "dimer_peptide.json"), "w"), indent=1)
PY
OMP_NUM_THREADS=1 $BIN predict --ckpt "$T/m" --json "$T/af3" --raw-weights --out "$T/j1" >"$T/j1.out" 2>&1
ranks 2 "$T/j2" --ckpt "$T/m" --json "$T/af3" --raw-weights --out "$T/j2" --set dap=2
rc=$?
[ $rc -eq 1 ] && grep -q "2 jobs predicted, 1 skipped" "$T/j2.r0" && grep -q "3 chains, 88 residues" "$T/j2.r0"
check "dap=2 --json: the good jobs predicted on every rank, the unsupported one skipped (exit 1 everywhere)" $? \
    "rc $rc: $(tail -n 3 "$T/j2.r0")"
ok=0
for j in 102M_1-40_homodimer_with_a_peptide srv1; do same "$T/j1/$j" "$T/j2/$j" >/dev/null || ok=1; done
check "dap=2 --json: each job's distogram as one process's" $ok

# the streamed file = the one-go writer's bytes for the same content (1, 2 and 3 ranks)
ok=0; msg=""
for f in m1 m2 s1 s3; do
    "$ST" --rewrite "$T/$f.safetensors" "$T/$f.onego.safetensors" && cmp -s "$T/$f.safetensors" "$T/$f.onego.safetensors" ||
        { ok=1; msg="$msg $f"; }
done
check "the streamed safetensors = pf_st_write's bytes (1 process, dap=2, dap=3)" $ok "differs:$msg"
# forced small row blocks: several blocks (under dap the ranks' rows side by side, out of file order), same bytes
PF_PREDICT_ROWS_BLOCK=5 OMP_NUM_THREADS=1 $BIN predict --ckpt "$T/m" --msa $MSA --raw-weights \
    --out "$T/m1b.safetensors" >"$T/m1b.out" 2>&1 && cmp -s "$T/m1.safetensors" "$T/m1b.safetensors"
check "PF_PREDICT_ROWS_BLOCK=5, one process (31 blocks): the same bytes" $? "$(tail -n 2 "$T/m1b.out")"
PF_PREDICT_ROWS_BLOCK=4 PF_PREDICT_NPZ_MAX=1000 ranks 2 "$T/m2b" --ckpt "$T/m" --msa $MSA --raw-weights \
    --out "$T/m2b.safetensors" --set dap=2 --formats npz && cmp -s "$T/m2.safetensors" "$T/m2b.safetensors"
check "PF_PREDICT_ROWS_BLOCK=4, dap=2 (blocks of both ranks interleaved): the same bytes" $? "$(tail -n 2 "$T/m2b.r0")"
grep -q "note: .*m2b.distogram.npz: key 'distogram' left out: the (154, 154, 64) probabilities are 6071296 bytes.*PF_PREDICT_NPZ_MAX" \
    "$T/m2b.r0" && python3 -c "
import sys, numpy as np
z = np.load(sys.argv[1]); sys.exit(0 if sorted(z.files) == ['bin_edges', 'chain_index', 'contact_probs', 'residue_index'] else 1)
" "$T/m2b.distogram.npz"
check "npz above PF_PREDICT_NPZ_MAX: 'distogram' left out with a note naming why, the other keys written" $? \
    "$(grep -i "npz" "$T/m2b.r0")"
PF_PREDICT_ROWS_BLOCK=7 ranks 3 "$T/s3b" --ckpt "$T/s" --msa $MSA --raw-weights --out "$T/s3b.safetensors" --set dap=3 &&
    cmp -s "$T/s3.safetensors" "$T/s3b.safetensors"
check "PF_PREDICT_ROWS_BLOCK=7, dap=3 (52 rows per rank): the same bytes" $? "$(tail -n 2 "$T/s3b.r0")"
for v in 0 -3 abc 12x; do
    out=$(PF_PREDICT_ROWS_BLOCK=$v $BIN predict --ckpt "$T/m" --msa $MSA --out "$T/x.safetensors" 2>&1); rc=$?
    [ $rc -eq 2 ] && echo "$out" | grep -q "PF_PREDICT_ROWS_BLOCK.*rows of the distogram probabilities" || break
done
check "PF_PREDICT_ROWS_BLOCK=0, -3, abc, 12x: clear errors" $? "PF_PREDICT_ROWS_BLOCK=$v: rc $rc: $out"
# write failures: a path whose directory cannot exist (a regular file in it), then a file size limit
# hit part way through the probabilities (EFBIG, as a full disk's ENOSPC); every rank exits 1. What is
# predicted does not matter here: 102M's first 40 residues (the alignment cut for the JSON jobs above), a
# 424 KB file whose first 410 KB are the probabilities, so a 100 KB limit stops it inside them (as 1 MB did
# the 154-residue query's 6 MB, at 3 CPU seconds a run where these take 0.5)
SMALL_MSA="$T/af3/msa/102M_A_1-40.a3m"
: >"$T/notadir"
ranks 2 "$T/wf" --ckpt "$T/m" --msa "$SMALL_MSA" --raw-weights --out "$T/notadir/x.safetensors" --set dap=2; rc=$?
[ $rc -eq 1 ] && grep -q "error: $T/notadir/x.safetensors: write failed: Not a directory" "$T/wf.r0"
check "dap=2, an unwritable path: clear error naming the file, exit 1 on every rank" $? "rc $rc: $(tail -n 2 "$T/wf.r0")"
mkdir -p "$T/lim"
(trap '' XFSZ; ulimit -f 100; ranks 2 "$T/wl" --ckpt "$T/m" --msa "$SMALL_MSA" --raw-weights --out "$T/lim/x.safetensors" --set dap=2)
rc=$?
[ $rc -eq 1 ] && grep -q "error: $T/lim/x.safetensors: write failed: File too large" "$T/wl.r0" && [ -z "$(ls -A "$T/lim")" ]
check "dap=2, a write failing part way (100 KB file size limit, 424 KB file): clear error, no file and no temporary left" $? \
    "rc $rc: $(tail -n 2 "$T/wl.r0"); left: $(ls -A "$T/lim")"

# bad launches: refused before anything runs, naming what to change
out=$(env WORLD_SIZE=2 RANK=1 $BIN predict --ckpt "$T/m" --msa $MSA --out "$T/x.safetensors" 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "one of 2 ranks (WORLD_SIZE=2).*add --set dap=2" && [ ! -e "$T/x.safetensors" ]
check "2 ranks without --set dap: clear error" $? "rc $rc: $out"
out=$(env WORLD_SIZE=3 RANK=0 $BIN predict --ckpt "$T/m" --msa $MSA --out "$T/x.safetensors" --set dap=2 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "dap must equal the number of ranks"
check "3 ranks with dap=2: clear error" $? "rc $rc: $out"
out=$($BIN predict --ckpt "$T/m" --msa $MSA --out "$T/x.safetensors" --set dap=2 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "started alone: start 2"
check "dap=2 in one process: clear error" $? "rc $rc: $out"
out=$($BIN predict --ckpt "$T/m" --msa $MSA --out "$T/x.safetensors" --set dap=0 2>&1); rc=$?
[ $rc -eq 2 ] && echo "$out" | grep -q "dap"
check "dap=0: clear error" $? "rc $rc: $out"

verdict
