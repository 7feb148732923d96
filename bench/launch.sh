#!/usr/bin/env bash
# launch.sh P CMD...: CMD as the P ranks of one TCP group (torchrun-style variables
# WORLD_SIZE RANK LOCAL_RANK MASTER_ADDR MASTER_PORT; rank r takes GPU r), for binaries
# built without MPI (the device payload). Rank 0's output goes to stdout, the others' to
# $LAUNCH_LOG (default /dev/null). Exit status 0 only if every rank exits 0.
set -u
P=${1:-}
case "$P" in ''|*[!0-9]*) echo "launch.sh: the first argument must be the rank count P (got '$P')" >&2; exit 2 ;; esac
[ "$P" -ge 1 ] || { echo "launch.sh: P must be >= 1" >&2; exit 2; }
shift
[ $# -ge 1 ] || { echo "usage: launch.sh P CMD..." >&2; exit 2; }
port=$((20000 + RANDOM % 20000))
export WORLD_SIZE=$P MASTER_ADDR=127.0.0.1 MASTER_PORT=$port OMP_NUM_THREADS=${OMP_NUM_THREADS:-4}
pids=()
for r in $(seq 1 $((P - 1))); do
    RANK=$r LOCAL_RANK=$r "$@" >> "${LAUNCH_LOG:-/dev/null}" 2>&1 &
    pids+=($!)
done
RANK=0 LOCAL_RANK=0 "$@"
rc=$?
for p in "${pids[@]}"; do wait "$p" || rc=1; done
exit $rc
