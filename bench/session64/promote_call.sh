#!/usr/bin/env bash
# Session 64: the call after bench/session63/call_1.sh, when one of k_s9_fwd_half's opt-in forms timed faster (any
# sm_90 card; carry [".devpack", ".cueq"]; the same payload). FORM: that form's environment words, e.g.
# FORM="PF_ATTN_FWD_FX=1 PF_ATTN_FWD_AO=1" (required); CALL_LIMIT s, default 560. What making it the default needs,
# in one call, with FORM exported to everything:
# 1. in parallel: the whole test_cuda, fp32 and bf16 modes each in 4 shards (8 processes, 2 OpenMP threads each),
#    and the PyTorch parity test;
# 2. the starting and ending node's modules and trimul at 1024 / 2048, the defaults against FORM, two rounds;
# 3. on an H200: the Pairformer block against PyTorch + cuEquivariance at 512..2048 with FORM (issue 11's table).
# Then the form can become the default in cu_flash_sm90_tma.cu (fwd_fx / fwd_ao / fwd_sb) with its test evidence.
[ -n "${FORM:-}" ] || { echo "promote_call.sh: FORM is not set (e.g. FORM=\"PF_ATTN_FWD_FX=1\")" >&2; exit 2; }
for w in $FORM; do
    case $w in PF_ATTN_FWD_FX=[012] | PF_ATTN_FWD_AO=[01] | PF_ATTN_FWD_SB=[01]) ;;
        *) echo "promote_call.sh: FORM word '$w' is not PF_ATTN_FWD_FX=0..2, _AO=0/1 or _SB=0/1" >&2; exit 2 ;;
    esac
done
. bench/device_common.sh
t0=$SECONDS
L=${CALL_LIMIT:-560}
b=${CHECK_LIMIT:-300}
echo "== FORM: $FORM" >> $S
mode_shards $b $FORM
run parity 200 env $FORM python3 tests/cuda/parity.py --devices cpu,cuda-fp32,cuda --pairfold $P/pairfold
checks_report $names parity
for n in $names; do grep -h '^\[test_cuda' $OUT/$n.log | tail -n 1 | sed "s/^/$n: /" >> $S; done
tail -n 4 $OUT/parity.log >> $S
echo "== checks done at $((SECONDS - t0)) s" >> $S
ab_env 2 $((L - 200)) 70 tri_attn,tri_attn_end,trimul 1024,2048 "" "$FORM"
if nvidia-smi -L | grep -q H200 && [ -f .cueq/site.tar.xz ] && [ $((L - (SECONDS - t0))) -gt 150 ]; then
    (for w in $FORM; do export "$w"; done; cueq_blocks 512,1024,1536,2048 5 $((L - (SECONDS - t0) - 10)))
fi
echo "== end at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log 2>/dev/null; rm -rf *.log
cat $S
