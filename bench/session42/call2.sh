#!/usr/bin/env bash
# Session 42's second GPU call (carry [".devpack", ".cueq"]): the forms that call 1 found right and faster, set in the
# environment by the caller (e.g. `PF_TRIMUL_OUTW_DWZ=1 bash bench/session42/call2.sh`), through the whole test_cuda
# (4 shards) and the PyTorch parity, then the Pairformer block against PyTorch + cuEquivariance at BLOCK_N, then the
# trimul module at 1024 / 2048 once more (the default against the forms, taking turns).
. bench/device_common.sh
t0=$SECONDS
env | grep -E '^PF_(TRIMUL|ATTN_GATE)' | sed 's/^/== env /' >> $S
parity_shards ${SHARD_LIMIT:-250}
echo "== shards done at $((SECONDS - t0)) s" >> $S
cueq_blocks ${BLOCK_N:-512,1024,1536,2048} 5 ${BLOCK_LIMIT:-240}
echo "== blocks done at $((SECONDS - t0)) s" >> $S
cd $OUT && tar czf logs.tgz *.log da 2>/dev/null; rm -rf *.log da
cat $S
