# bench/device_common.sh: what every device call script (bench/device_all.sh, bench/session20/, bench/session21/) starts with
# (sourced from the repo root on the GPU machine, carry [".devpack"] made by bench/pack_device.sh): the payload unpacked into
# $P, the summary file $S headed by the card's name, and two helpers.
set -u
OUT=${OUT:-/tmp/out}
P=/tmp/pf
mkdir -p $P && tar -C $P -xJf .devpack/payload.tar.xz
export LD_LIBRARY_PATH=$P/lib:${LD_LIBRARY_PATH:-}
export PATH=$PATH:/usr/local/cuda/bin PYTHONUNBUFFERED=1
S=$OUT/summary.txt
nvidia-smi -L > $S 2>&1
T=$P/test_cuda
# compute-sanitizer's filters for the TMA / wgmma attention kernels (one --kernel-name a family; session 61's call 2)
ATTN_KNS=""
for k in k_s9_fwd_half k_bwd_ws_tma k_bwd_dbias_wg k_attn_lnproj_wg k_attn_gate k_tm_gdw; do ATTN_KNS="$ATTN_KNS --kernel-name kns=$k"; done
# run NAME SECONDS CMD...: CMD in the background, output and exit status in $OUT/NAME.log
run() { local name=$1 lim=$2; shift 2; ( timeout -k 15 $lim "$@" > $OUT/$name.log 2>&1; echo "rc=$?" >> $OUT/$name.log ) & }
# mode_shards SECONDS [NAME=VALUE...]: the whole test_cuda, fp32 and bf16 modes each in 4 shards (8 `run` jobs, 2
# OpenMP threads each, at most SECONDS s each) with the assignments in their environment; the job names in $names
# (for checks_report; the written-out loop of bench/session58/call_1.sh and session60's calls)
mode_shards() {
    local lim=$1 m k
    shift
    names=""
    for m in fp32 bf16; do for k in 0 1 2 3; do
        OMP_NUM_THREADS=2 run ${m}_$k $lim env "$@" stdbuf -oL $T --mode $m --shard $k/4; names="$names ${m}_$k"
    done; done
}
# cueq_blocks NS REPS SECONDS: the Pairformer block against PyTorch + cuEquivariance at NS (carry .cueq), into
# $OUT/blocks_cueq.json and $OUT/benchcq.log; its exit status and table in the summary
cueq_blocks() {
    mkdir -p /tmp/site && tar -C /tmp/site -xJf .cueq/site.tar.xz
    PYTHONPATH=/tmp/site timeout $3 python3 bench/compare_blocks.py --impl cueq --pairfold $P/pairfold --kinds pairformer \
        --n $1 --reps $2 --graph --out $OUT/blocks_cueq.json > $OUT/benchcq.log 2>&1
    echo "== benchcq rc=$?" >> $S; grep -v Warn $OUT/benchcq.log | tail -n 8 >> $S
}
# cueq_ops SIZES: the triangle modules against cuEquivariance at SIZES (bench_cuda_ops --ops tri_attn,trimul against
# torch_ops_bench.py --impl cueq, 5 reps each; after cueq_blocks, which unpacks .cueq), the table into $S
cueq_ops() {
    timeout 150 $P/bench_cuda_ops --ops tri_attn,trimul --sizes $1 --reps 5 > $OUT/ops_pf.log 2>&1; echo "pf rc=$?" >> $S
    PYTHONPATH=/tmp/site timeout 200 python3 bench/torch_ops_bench.py --impl cueq --sizes $1 --reps 5 > $OUT/ops_cueq.log 2>&1
    echo "cueq rc=$?" >> $S
    grep -h '^{' $OUT/ops_pf.log > $OUT/ops_pf.jsonl; grep -h '^{' $OUT/ops_cueq.log > $OUT/ops_cueq.jsonl
    python3 bench/compare_ops.py $OUT/ops_pf.jsonl /dev/null $OUT/ops_cueq.jsonl >> $S 2>&1
}
# ncu_rows NAME SECS TOP KERNELS CMD...: CMD under ncu (time and DRAM bytes per launch of the kernels matching the
# regex KERNELS, "." for all; clocks not locked) into $OUT/ncu_NAME.log, then its TOP largest rows by kernel and grid
# (bench/ncu_launches.py) into $S
ncu_rows() {
    local name=$1 secs=$2 top=$3 kern=$4 ncu
    shift 4
    ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
    timeout -k 5 $secs $ncu --clock-control none -k regex:$kern \
        --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum "$@" > $OUT/ncu_$name.log 2>&1
    echo "== ncu $name rc=$? ($*)" >> $S
    python3 bench/ncu_launches.py $OUT/ncu_$name.log --top $top >> $S 2>&1
}
# ncu_one NAME REGEX ENV...: one `bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1` under ncu with the ENV
# assignments (kernels matching REGEX: time, L2 requests and sectors, instructions) into $OUT/ncu_NAME.log; its two
# largest rows and the three counters into $S
ncu_one() {
    local name=$1 rx=$2
    shift 2
    env "$@" timeout -k 5 40 ncu --clock-control none -k regex:"$rx" --metrics \
        gpu__time_duration.sum,lts__t_requests.sum,lts__t_sectors.sum,smsp__inst_executed.sum \
        $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_$name.log 2>&1
    echo "== ncu $name ($*) rc=$?" >> $S
    python3 bench/ncu_launches.py $OUT/ncu_$name.log --top 2 >> $S 2>&1
    grep -E "lts__t_requests|lts__t_sectors|inst_executed" $OUT/ncu_$name.log | head -3 >> $S
}
# report NAME...: each log's verdict line, sanitizer summary, FAIL count and exit status (and its first FAILs)
report() {
    for f in "$@"; do
        echo "$f: $(grep -h 'passed,' $OUT/$f.log | tail -1) | $(grep -h 'ERROR SUMMARY' $OUT/$f.log | tail -1) | $(grep -c FAIL $OUT/$f.log) FAIL | $(tail -1 $OUT/$f.log)" >> $S
        grep -m3 FAIL $OUT/$f.log >> $S
    done
}
# parity_shards LIMIT: PyTorch parity and the whole test_cuda in 4 shards (bench/device_all.sh; each shard at most
# LIMIT s) into $OUT/da; the time taken and its summary into $S
parity_shards() {
    local t0=$SECONDS
    mkdir -p $OUT/da
    OUT=$OUT/da STAGES="parity shards" TEST_SHARDS=4 TESTS_LIMIT=$1 bash bench/device_all.sh > $OUT/device_all.log 2>&1
    echo "== device_all parity shards: $((SECONDS - t0)) s" >> $S
    cat $OUT/da/summary.txt >> $S
}
# ab_env ROUNDS STOP SECS OPS SIZES CFG...: `PROG --ops OPS --sizes SIZES --reps 5` under each CFG taking turns,
# ROUNDS rounds, each run at most SECS s, the JSON lines into $S; stops once STOP s have passed since the caller's
# t0. A CFG's words: environment assignments (NAME=VALUE) and at most one program of the payload (PROG, default
# bench_cuda_ops: e.g. bench_old, the build before a change); "" runs bench_cuda_ops with nothing set.
ab_env() {
    local rounds=$1 stop=$2 secs=$3 ops=$4 sizes=$5 r f w prog envs
    shift 5
    for r in $(seq $rounds); do
        for f in "$@"; do
            [ $((SECONDS - t0)) -lt $stop ] || { echo "== the rest skipped at $((SECONDS - t0)) s" >> $S; return 0; }
            echo "== round $r: ${f:-the defaults}" >> $S
            prog=bench_cuda_ops envs=""
            for w in $f; do case $w in *=*) envs="$envs $w" ;; *) prog=$w ;; esac; done
            env $envs timeout -k 5 $secs $P/$prog --ops $ops --sizes $sizes --reps 5 2>&1 | grep '^{' |
                cut -c1-150 >> $S
        done
    done
}
# ab_modules ROUNDS SECS PATTERN "PROG ..." "PRESET N" ...: `PROG bench --per-module` (--reps 5) of each preset at N,
# the programs of the payload taking turns (a build before a change against the one after, same run), ROUNDS rounds;
# each run's lines matching PATTERN into $S, its log $OUT/b_PROG_PRESET_ROUND.log
ab_modules() {
    local rounds=$1 secs=$2 pat=$3 progs=$4 r b cfg pre n
    shift 4
    for r in $(seq $rounds); do
        for b in $progs; do
            for cfg in "$@"; do
                read -r pre n <<< "$cfg"
                echo "== $b $pre N=$n round $r" >> $S
                timeout -k 5 $secs $P/$b bench --preset $pre --device cuda --n $n --reps 5 --per-module \
                    > $OUT/b_${b}_${pre}_${r}.log 2>&1
                grep -E "$pat" $OUT/b_${b}_${pre}_${r}.log >> $S
            done
        done
    done
}
# checks_report NAMES...: after `run` jobs: waits for them, then each log's verdict (report) and last line into $S
checks_report() {
    local n
    wait
    report "$@"
    for n in "$@"; do echo "$n: last line: $(grep -v '^=====' $OUT/$n.log | tail -1 | cut -c1-100)" >> $S; done
}
# ncu_pipes NAME REGEX ENV...: one `bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1` launch of the first kernel
# matching REGEX under ncu with the ENV assignments: per-pipe use (bench/ncu_pipes.py: issue, warps active, tensor,
# xu / MUFU, alu, fma, lsu, DRAM, L2 as % of peak), the warp-state and occupancy sections, into $OUT/ncu_NAME.log and $S
ncu_pipes() {
    local name=$1 rx=$2 m
    shift 2
    m=gpu__time_duration.sum,sm__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
    m=$m,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
    m=$m,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
    m=$m,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
    m=$m,lts__t_sectors.avg.pct_of_peak_sustained_elapsed
    env "$@" timeout -k 5 60 ncu --clock-control none --csv -k regex:"$rx" -c 1 --section WarpStateStats \
        --section Occupancy --metrics $m $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1 > $OUT/ncu_$name.log 2>&1
    echo "== ncu pipes / warp state $name ($*) rc=$?" >> $S
    python3 bench/ncu_pipes.py $OUT/ncu_$name.log 3 >> $S 2>&1
    grep -o '"Warp Cycles Per Issued Instruction","cycle","[0-9.]*"' $OUT/ncu_$name.log >> $S
}
# shards LIMIT: the whole test_cuda in 4 shards (bench/device_all.sh, each at most LIMIT s) into $OUT/da; its summary
# into $S
shards() {
    mkdir -p $OUT/da
    OUT=$OUT/da STAGES=shards TEST_SHARDS=4 TESTS_LIMIT=$1 bash bench/device_all.sh > $OUT/device_all.log 2>&1
    cat $OUT/da/summary.txt >> $S
}
