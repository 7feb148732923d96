#!/usr/bin/env bash
# Session 41, for a GPU call (carry [".devpack"]; payload `BINS="pairfold test_cuda bench_cuda_ops" NO_SYS=1 bash
# bench/pack_device.sh`): PF_ATTN_GATE_WG=3 (k_attn_gate_bwd_dw, cu_attn_gate_wgd.cu: the gate's backward with W_o's
# gradient summed in the kernel; never run on a GPU). 1. test_cuda --only attn_gate_wg (modes 3..0 against the CPU
# reference) and its memcheck (--quick); 2. triangle attention f+b (both nodes) at 1024 / 2048 with PF_ATTN_GATE_WG
# 1 (the default), 2 and 3 taking turns, two rounds; 3. ncu of the gate kernels and the dW_o GEMM at 1024.
# Within the 600 s call limit at these timeouts (150 + 150 + ~100 + 2 x 90 s at worst; the first two parts matter most).
# If 3 is right and faster: the whole test_cuda with it (PF_ATTN_GATE_WG=3 parity_shards 260), then the default
# (ago_mode's cu_env_int default in cu_attn_gate_wg.cu) after the block against cuEquivariance (cueq_blocks).
. bench/device_common.sh
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout -k 5 150 $T --only attn_gate_wg > $OUT/agw.log 2>&1; echo "rc=$?" >> $OUT/agw.log
timeout -k 5 150 compute-sanitizer --tool memcheck --error-exitcode 3 $T --quick --only attn_gate_wg > $OUT/agw_mc.log 2>&1
echo "rc=$?" >> $OUT/agw_mc.log
report agw agw_mc
for r in 1 2; do
  for m in 1 2 3; do
    echo "== tri_attn PF_ATTN_GATE_WG=$m round $r" >> $S
    PF_ATTN_GATE_WG=$m timeout -k 5 120 $P/bench_cuda_ops --ops tri_attn,tri_attn_end --sizes 1024,2048 --reps 5 2>&1 |
      grep '^{' | cut -c1-140 >> $S
  done
done
for m in 2 3; do
  PF_ATTN_GATE_WG=$m ncu_rows "gate$m" 90 20 "k_attn_gate|k_gate|gemm|Kernel|k_agd" $P/bench_cuda_ops --ops tri_attn --sizes 1024 --reps 1
done
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -f *.log
cat $S
