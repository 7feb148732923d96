#!/usr/bin/env bash
# dap_scale_gpu.sh [BIN]: issue 13's strong-scaling table. One Pairformer block forward+backward
# (bench/dap_bench.c, af3 sizes unless SCALE_SET says otherwise) at each N of SCALE_N (default
# 2048,4096,8192) on P ranks with dap = P for each P of SCALE_P (default 1 2 4 8, those above the
# GPUs found skipped): median ms, peak GiB per rank, the collectives' share of the time, and the
# strong-scaling efficiency t(1) / (P t(P)) (targets at N = 4096: 0.70 at P = 4, 0.55 at 8). Then
# the largest N of SCALE_SEARCH (default 8192,10240,12288,13312: ascending, stops at the first
# failure) one pass runs at on the largest P. Ranks start through bench/launch.sh (the payload's
# binaries have no MPI) unless SCALE_RUN is given, e.g. "mpirun -np" (P is appended).
# SCALE_DEV (default cuda); SCALE_LIMIT seconds per try (default 300). CPU smoke test:
#   SCALE_DEV=cpu SCALE_P="1 2 4" SCALE_N=16,32 SCALE_SEARCH=32,48 SCALE_SET="--set c_z=16 ..." \
#   bash bench/dap_scale_gpu.sh build/dap_bench
# Prints one line per try as it ends, then the table; results also in $OUT/dap_scale/.
set -u
BIN=${1:-build/dap_bench}
OUTD=${OUT:-/tmp}/dap_scale
mkdir -p "$OUTD"
here=$(cd "$(dirname "$0")" && pwd)
DEV=${SCALE_DEV:-cuda}
NS=${SCALE_N:-2048,4096,8192}
PS=${SCALE_P:-1 2 4 8}
LIM=${SCALE_LIMIT:-300}
ngpu=0
if [ "$DEV" != cpu ]; then ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU'); fi
start() {  # start P CMD...: P ranks (P = 1: the command alone), each under the time limit
    local p=$1; shift
    if [ "$p" -eq 1 ]; then timeout $LIM "$@"
    elif [ -n "${SCALE_RUN:-}" ]; then timeout $LIM $SCALE_RUN $p "$@"
    else "$here/launch.sh" $p timeout $LIM "$@"; fi
}
row() { grep "^dap_bench *$1 *$2 " "$3" 2>/dev/null | tail -1; }
res=$OUTD/table.txt; : > $res
pmax=1
for p in $PS; do
    if [ "$DEV" != cpu ] && [ "$p" -gt "$ngpu" ]; then echo "P = $p: skipped ($ngpu GPUs)" >&2; continue; fi
    pmax=$p
    for n in ${NS//,/ }; do
        f=$OUTD/p${p}_n$n.txt t0=$SECONDS
        start $p $BIN --device $DEV ${SCALE_SET:-} --n $n --reps ${SCALE_REPS:-3} > $f 2>&1
        rc=$? r=$(row $n $p $f)
        echo "P=$p N=$n rc=$rc ($((SECONDS - t0)) s): ${r:-$(tail -1 $f)}" >&2
        [ -n "$r" ] && echo "$r" >> $res
    done
done
python3 - "$res" <<'PY'
import sys
rows = {}
for l in open(sys.argv[1]):
    f = l.split()  # dap_bench N P fb_ms peak_GiB comm_share
    rows[(int(f[1]), int(f[2]))] = (float(f[3]), float(f[4]), float(f[5]))
print(f"{'N':>6} {'P':>3} {'fb_ms':>10} {'peak_GiB':>9} {'comm':>6} {'efficiency':>10}")
for (n, p), (t, m, c) in sorted(rows.items()):
    t1 = rows.get((n, 1), (None,))[0]
    eff = f"{t1 / (p * t):.3f}" if t1 else "-"
    print(f"{n:>6} {p:>3} {t:>10.1f} {m:>9.2f} {c:>6.3f} {eff:>10}")
PY
best=0
SEARCH=${SCALE_SEARCH:-8192,10240,12288,13312}
for n in ${SEARCH//,/ }; do
    [ $((n % pmax)) -eq 0 ] || { echo "search N=$n: not a multiple of P = $pmax, skipped" >&2; continue; }
    f=$OUTD/search_p${pmax}_n$n.txt t0=$SECONDS
    start $pmax $BIN --device $DEV ${SCALE_SET:-} --n $n --reps 0 > $f 2>&1
    rc=$?
    if [ $rc -eq 0 ] && row $n $pmax $f > /dev/null; then
        best=$n; echo "search P=$pmax N=$n: ran in $((SECONDS - t0)) s: $(row $n $pmax $f)" >&2
    else echo "search P=$pmax N=$n: failed (rc $rc, $((SECONDS - t0)) s): $(tail -1 $f)" >&2; break; fi
done
echo "largest N on P = $pmax: $best (target 12288 on 8 GPUs)"
