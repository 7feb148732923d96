#!/usr/bin/env bash
# launch2.sh CMD...: CMD as the 2 ranks of one TCP group (torchrun-style variables
# WORLD_SIZE RANK LOCAL_RANK MASTER_ADDR MASTER_PORT; rank r takes GPU r), for binaries
# built without MPI (the device payload). Rank 0's output goes to stdout, rank 1's to
# $LAUNCH_LOG (default /dev/null). Exit status 0 only if both ranks exit 0.
set -u
port=$((20000 + RANDOM % 20000))
export WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
RANK=1 LOCAL_RANK=1 "$@" >> "${LAUNCH_LOG:-/dev/null}" 2>&1 &
pid=$!
RANK=0 LOCAL_RANK=0 "$@"
rc=$?
wait $pid || rc=1
exit $rc
