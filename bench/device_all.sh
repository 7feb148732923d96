#!/usr/bin/env bash
# One device call that checks and measures the CUDA build end to end. Run on the
# GPU machine from the repo root with the payload made here by bench/pack_device.sh
# (carry .devpack).
# Stages (each with its own time limit; results under $OUT): parity with the
# PyTorch reference, test_cuda (tests; shards: as TEST_SHARDS parallel processes),
# launch gaps (gaps), eager against recorded replays (graph), test_cuda --quick under compute-sanitizer (memcheck), make
# test-cuda built there (maketest), 2-GPU data parallelism (dp), an ncu profile of the
# attention kernels (attnprof), the block benchmark against PyTorch, a short GPU
# training run on the bundled proteins, the PyTorch wrappers and import-openfold (torch).
. bench/device_common.sh  # the payload in $P, the summary $S, run / report
stage() {  # stage NAME SECONDS CMD...
    local name=$1 t=$2; shift 2
    local t0=$SECONDS
    timeout -k 15 $t "$@" > $OUT/$name.log 2>&1  # -k: pairfold train takes SIGTERM as "stop after this step"
    echo "== $name rc=$? ($((SECONDS - t0)) s)" >> $S
    tail -n ${TAIL:-25} $OUT/$name.log >> $S
}
for s in ${STAGES:-parity tests bench train}; do
  case $s in
    parity) stage parity 150 python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold ;;
    tests)  TAIL=6 stage tests ${TESTS_LIMIT:-480} $P/test_cuda ;;  # alone: 178 s in session 15; over 300 s with session 16's cases
    shards) # the whole test_cuda as TEST_SHARDS parallel processes (--shard K/M: attn / trimul cases split, every
            # other group in one shard); line-buffered, so a shard cut by the limit still shows its last group
            # the CPU references' OpenMP threads split between the shards (unset, each took every core: M x nproc
            # threads; session 25 set this, unmeasured yet); the results do not depend on the thread count
            t0=$SECONDS; M=${TEST_SHARDS:-4}; names=""
            n=$(( $(nproc) / M )); [ $n -ge 1 ] || n=1
            for k in $(seq 0 $((M - 1))); do
                OMP_NUM_THREADS=${SHARD_OMP:-$n} run shard$k ${TESTS_LIMIT:-450} stdbuf -oL $T --shard $k/$M; names="$names shard$k"
            done
            wait
            echo "== shards ($M, $((SECONDS - t0)) s)" >> $S
            report $names
            for k in $(seq 0 $((M - 1))); do grep -h '^\[test_cuda' $OUT/shard$k.log | tail -n 1 >> $S; done ;;
    gaps)   # what launches cost the block: ncu's kernel time total against the block's wall time at GAP_N (one
            # forward + backward after the warm-up; issue 11's N = 512 point, NOTES "Open / next" 0c)
            for n in ${GAP_N//,/ }; do
                stage gaps_wall_$n 60 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n $n --reps 3
                timeout 120 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
                    $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 --n $n --reps 1 > $OUT/gaps_ncu_$n.log 2>&1
                echo "== gaps ncu N=$n rc=$? (the bench's warm-up + 1 rep: divide the total by the f+b count it ran)" >> $S
                NCU_TOP=12 python3 bench/ncu_summary.py $OUT/gaps_ncu_$n.log >> $S 2>&1
                grep -h "Invocations" $OUT/gaps_ncu_$n.log | awk '{s += $NF} END {print "kernel launches:", s}' >> $S
            done ;;
    graph)  # the block f+b issued launch by launch against replays of a recorded pass (bench --graph), alternating,
            # at GRAPH_N (session 22: 0.28 ms of 12.3 at 512): what launch overhead costs the block
            G=${GRAPH_N:-512,1024}
            for n in ${G//,/ }; do for g in "" --graph; do
                echo "graph N=$n ${g:-eager}: $(timeout 120 $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 \
                    --reps 7 --n $n $g 2>&1 | tail -1)" >> $S
            done; done ;;
    torch)  # the PyTorch wrappers (triangle attention / multiplication, CPU and CUDA tensors) and the
            # import-openfold round trip against a PyTorch module (tests/torch), on the packed CUDA builds
            PAIRFOLD_LIB=$P/libpairfold.so PAIRFOLD=$P/pairfold VERBOSE=1 TAIL=${TORCH_TAIL:-80} \
                stage torch 400 bash tests/torch/run_all.sh ;;
    maketest) export PATH=$PATH:/usr/local/cuda/bin CPATH=$P/sys/include
            TAIL=12 stage maketest 500 make -j16 CUDA=1 BUILD=/tmp/pfb BLAS_DIR=$P/sys/lib test-cuda ;;
    dapscale) # kinds nvidia-h200-x4 / -x8 (issue 13): the block at SCALE_N on 1, 2, 4, 8 GPUs (dap = P, ranks
            # through bench/launch.sh), time, peak per GPU, communication share, strong-scaling efficiency,
            # then the largest N on all the GPUs (bench/dap_scale_gpu.sh; SCALE_* variables pass through)
            LAUNCH_LOG=$OUT/dapscale_ranks.log TAIL=${SCALE_TAIL:-40} \
                stage dapscale ${SCALE_STAGE_LIMIT:-590} bash bench/dap_scale_gpu.sh $P/dap_bench ;;
    dapscaletrunk) # kinds nvidia-h200-x4 / -x8 (issue 13): the largest AF3 trunk training crop with dap = P and
            # the hybrid (P / 4 structures x dap 4 against P x 1 data parallel) throughput at crop 768;
            # SCALE_PARTS=infer (a call of its own): inference at N = 20,000 with dap = P at two trunk depths
            # (bench/dap_scale_trunk.sh; SCALE_* variables pass through; P defaults to the GPUs found)
            SCALE_P=${SCALE_P:-$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')} LAUNCH_LOG=$OUT/dapscaletrunk_ranks.log \
                TAIL=${SCALE_TAIL:-20} stage dapscaletrunk ${SCALE_STAGE_LIMIT:-590} bash bench/dap_scale_trunk.sh $P/pairfold ;;
    dapgpu) # kind nvidia-h200-x2: one Pairformer block sharded over 2 GPUs (dap = 2) against one GPU:
            # match check, N = 2048 time and memory, largest N, whole-trunk training at DAP_TRUNK crops on 2 GPUs
            # and DAP_TRUNK1 on one (bench/dap_gpu.sh; DAP_PARTS selects parts: check time search train trunk)
            # The payload's dap_bench and pairfold (no MPI: two ranks through bench/launch2.sh), else
            # built here with the image's MPI
            if [ -x $P/dap_bench ]; then
                DAP_RUN="bash bench/launch2.sh" LAUNCH_LOG=$OUT/dapgpu_rank1.log TAIL=${DAP_TAIL:-30} \
                    stage dapgpu ${DAP_LIMIT:-540} bash bench/dap_gpu.sh $P/dap_bench $P/pairfold
            else
                export PATH=$PATH:/usr/local/cuda/bin CPATH=$P/sys/include
                make -j16 CUDA=1 BUILD=/tmp/pfb BLAS_DIR=$P/sys/lib /tmp/pfb/dap_bench pairfold > $OUT/dapgpu_build.log 2>&1 ||
                    tail -20 $OUT/dapgpu_build.log >> $S
                TAIL=${DAP_TAIL:-30} stage dapgpu ${DAP_LIMIT:-540} bash bench/dap_gpu.sh /tmp/pfb/dap_bench ./pairfold
            fi ;;
    dp)     export PATH=$PATH:/usr/local/cuda/bin CPATH=$P/sys/include  # kind nvidia-h200-x2; MPI from the image
            make -j16 CUDA=1 BUILD=/tmp/pfb BLAS_DIR=$P/sys/lib pairfold > $OUT/dp_build.log 2>&1
            TAIL=12 stage dp 300 bash bench/dp_check.sh ./pairfold ;;
    attn)   # attention core: check against the fp32 kernels, issue 10's shapes, triangle sizes
            TAIL=8 stage attn_check 120 $P/attn_bwd_check --check
            TAIL=6 stage attn_shapes 120 $P/attn_bwd_check --shapes --reps 10
            TAIL=16 stage attn_time 200 $P/attn_bwd_check --time ${ATTN_N:-512,1024,2048} --reps 10
            # per-kernel times of the single-attention shape (B = 1: three passes)
            NCUB=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
            TAIL=20 stage attn_single_kernels 120 $NCUB --clock-control none --print-summary per-kernel \
                --metrics gpu__time_duration.sum $P/attn_bwd_check --profile-shape 2 ;;
    structtrain) # the af2 preset with the structure module at crop SM_CROP (synthetic proteins: the module's
            # kernels run, its losses are 0 without backbone atoms), then without it: the module's share
            for smod in 1 0; do
                TAIL=4 stage structtrain_sm$smod 200 $P/pairfold train --preset af2 --device cuda --data synthetic \
                    --set synthetic_len=${SM_CROP:-384} --set crop_size=${SM_CROP:-384} --set structure_module=$smod \
                    --set recycles=0 --set val_every=0 --set n_val=0 --steps ${SM_STEPS:-6} --out /tmp/sm$smod \
                    --log $OUT/structtrain_sm$smod.jsonl
                python3 -c "import json,sys; r=[json.loads(l) for l in open(sys.argv[1])][1:]; k=[x for x in r[0] if 'ms' in x]; print('structure_module=$smod steps 2..:', {x: round(sum(y[x] for y in r)/len(r),1) for x in k})" \
                    $OUT/structtrain_sm$smod.jsonl >> $S 2>&1
            done ;;
    attnprof) export PATH=$PATH:/usr/local/cuda/bin  # where the attention kernels' time goes (next: tuning)
            TAIL=60 stage attnprof 300 ncu --clock-control none --kernel-name regex:k_tc_ --launch-count 8 \
                --section SpeedOfLight --section Occupancy --section WarpStateStats --section MemoryWorkloadAnalysis \
                $P/bench_cuda_ops --ops tri_attn --sizes ${PROF_N:-1024} --reps 1 ;;
    kprof)  # ncu per-kernel time: the triangle multiplication op and one Pairformer block at N = KPROF_N
            export PATH=$PATH:/usr/local/cuda/bin
            stage kprof_trimul 200 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
                $P/bench_cuda_ops --ops trimul --sizes ${KPROF_N:-1024} --reps 1
            python3 bench/ncu_summary.py $OUT/kprof_trimul.log >> $S 2>&1
            stage kprof_block 300 ncu --clock-control none --print-summary per-kernel --metrics gpu__time_duration.sum \
                $P/pairfold bench --preset af3 --device cuda --n ${KPROF_N:-1024} --reps 1
            python3 bench/ncu_summary.py $OUT/kprof_block.log >> $S 2>&1 ;;
    memcheck) # test_cuda --quick under memcheck, one process per group in parallel (the whole program
            # in one process takes well over 400 s): the attention parts and the other op groups
            # (session 11: 229 s); `core` is the tests outside the module ops (test_basic ... cuda_core_attn).
            CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
            # at most MEMCHECK_JOBS at once (session 12: 13 at once beside test_cuda left the
            # four largest groups and test_cuda itself unfinished in 330 s)
            for g in ${MEMCHECK_GROUPS:-attn.1 attn.2 attn.3 attn.4 attn.5 attn.6 core trimul structure heads global_attn transition opm pwavg}; do
                while [ "$(jobs -rp | wc -l)" -ge "${MEMCHECK_JOBS:-4}" ]; do sleep 2; done
                # a group NAME:K/M runs shard K of M (test_cuda --shard: attn.1, attn.5 and trimul
                # did not finish in 400 s whole in session 15)
                n=${g%%:*}; sh=; [ "$n" != "$g" ] && sh="--shard ${g#*:}"
                ( timeout ${MEMCHECK_LIMIT:-300} $CS --tool memcheck --error-exitcode 3 $P/test_cuda --quick --only $n $sh \
                      > $OUT/memcheck_${g//\//-}.log 2>&1; echo "rc=$?" >> $OUT/memcheck_${g//\//-}.log ) &
            done
            wait
            for g in ${MEMCHECK_GROUPS:-attn.1 attn.2 attn.3 attn.4 attn.5 attn.6 core trimul structure heads global_attn transition opm pwavg}; do
                l=$OUT/memcheck_${g//\//-}.log
                echo "== memcheck $g: $(grep -h 'passed,' $l | tail -1) $(grep -h 'ERROR SUMMARY' $l | tail -1) $(tail -1 $l)" >> $S
            done ;;
    ops)    # op level (triangle attention, triangle multiplication): pairfold vs PyTorch eager vs
            # cuEquivariance (wheels carried as .cueq/site.tar.xz: carry [".devpack", ".cueq"])
            mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
            SZ=${OPS_N:-512,1024,2048}
            stage ops_pf 200 $P/bench_cuda_ops --ops tri_attn,trimul --sizes $SZ --reps 5
            grep '^{' $OUT/ops_pf.log > $OUT/ops_pf.jsonl
            stage ops_eager 200 python3 bench/torch_ops_bench.py --impl eager --sizes $SZ --reps 5
            grep '^{' $OUT/ops_eager.log > $OUT/ops_eager.jsonl
            PYTHONPATH=/tmp/site stage ops_cueq 300 python3 bench/torch_ops_bench.py --impl cueq --sizes $SZ --reps 5
            grep '^{' $OUT/ops_cueq.log > $OUT/ops_cueq.jsonl
            python3 bench/compare_ops.py $OUT/ops_pf.jsonl $OUT/ops_eager.jsonl $OUT/ops_cueq.jsonl >> $S 2>&1 ;;
    predict) # inference memory: the af3 preset (48 Pairformer blocks, random weights from one step) on a
            # single-sequence query of each PRED_N (comma list) residues, no recycling; predict prints the device peak
            PRED_N=${PRED_N:-2048}
            TAIL=3 stage predict_ckpt 120 $P/pairfold train --preset af3 --device cuda --data synthetic --steps 1 \
                --set crop_size=32 --set msa_rows=4 --set n_val=1 --out /tmp/af3ck --quiet
            for n in ${PRED_N//,/ }; do
                python3 -c "import random; random.seed(1); print('>query'); print(''.join(random.choice('ACDEFGHIKLMNPQRSTVWY') for _ in range($n)))" > /tmp/query.a3m
                TAIL=6 stage predict_$n ${PRED_LIMIT:-240} $P/pairfold predict --ckpt /tmp/af3ck --msa /tmp/query.a3m --device cuda \
                    --recycles 0 --out /tmp/pred.safetensors
                rm -f /tmp/pred.safetensors
            done ;;
    trunk)  # whole AF3 trunk training steps (48 Pairformer blocks + MSA module, 128 MSA rows, recycles 0,
            # no validation) on synthetic proteins: TRUNK_N lists crop[:recompute[:steps]] entries, e.g. 768:1:5,3072:8:1
            for e in ${TRUNK_N//,/ }; do
                IFS=: read -r n r k <<< "$e"; r=${r:-1}; k=${k:-${TRUNK_STEPS:-4}}
                TAIL=2 stage trunk_$n ${TRUNK_LIMIT:-300} $P/pairfold train --preset af3 --device cuda --data synthetic \
                    --set synthetic_len=$n --set crop_size=$n --set msa_rows=128 --set recycles=0 --set val_every=0 \
                    --set n_val=0 --set recompute=$r --steps $k --out /tmp/trunk_$n --log /tmp/trunk_$n.jsonl --quiet
                python3 -c "import json,sys; ms=[json.loads(l)['ms'] for l in open(sys.argv[1])]; print('crop', sys.argv[2], 'recompute', sys.argv[3], 'step ms', [round(x) for x in ms])" \
                    /tmp/trunk_$n.jsonl $n $r >> $S 2>&1
            done ;;
    fwdonly) # one Pairformer block forward only (inference: no saved activations, chunked) at long N
            TAIL=6 stage fwdonly ${FWD_LIMIT:-300} $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 \
                --forward-only --n ${FWD_N:-10000} --reps 1 ;;
    bigfb)  # one Pairformer block forward + backward (training) at long N, pairfold alone (issue 11: 6144)
            TAIL=6 stage bigfb ${BIG_LIMIT:-300} $P/pairfold bench --preset af3 --device cuda --set n_msa_blocks=0 \
                --n ${BIG_N:-6144} --reps 1 ;;
    benchcq) # the same blocks against PyTorch with cuEquivariance's kernels (carry .cueq too)
            mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
            PYTHONPATH=/tmp/site stage benchcq ${BENCH_LIMIT:-170} python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold \
                --kinds ${BENCH_KINDS:-pairformer} --n ${BENCH_N:-256,512,1024,1536,2048} --reps 3 --out $OUT/blocks_cueq.json ;;
    bench)  stage bench ${BENCH_LIMIT:-170} python3 bench/compare_blocks.py --pairfold $P/pairfold --kinds ${BENCH_KINDS:-pairformer} \
                --n ${BENCH_N:-256,512,1024,1536,2048} --reps 3 --out $OUT/blocks.json ;;
    train)  TAIL=8 stage train 150 $P/pairfold train --preset af3 --device cuda --set n_blocks=4 --set crop_size=256 \
                --set msa_rows=128 --set steps=200 --set val_every=50 --set recycles=1 --out /tmp/run --log $OUT/train_gpu.jsonl ;;
  esac
done
# The device tool returns at most 8 files: the logs travel in one archive, the summary
# and the JSON results beside it.
(cd $OUT && shopt -s nullglob && f=(*.log *.jsonl) && [ ${#f[@]} -gt 0 ] && tar -cJf logs.tar.xz "${f[@]}" && rm -f "${f[@]}")
cat $S
