# testlib.sh: what the shell tests share (sourced after `cd` to the repository root):
# the binary, a temporary folder removed on exit, check(), and the verdict line.
BIN=./pairfold
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0
check() {  # check NAME CONDITION-EXIT-STATUS [detail]
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1 ${3:-}"; fi
}
verdict() {  # the last line: "N passed, M failed"; the exit status of the test
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
# free_port: a TCP port for a test's rank 0 to listen on: below the kernel's ephemeral range (where every outgoing
# connection, other tests' included, takes its local port; session 62's CI lost a run to a random port in
# 20000-40000 that was in use) and free to bind on 127.0.0.1 when asked
free_port() {
    python3 - <<'PY'
import random, socket
try:
    eph = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
except (OSError, ValueError, IndexError):
    eph = 32768
lo, hi = 20000, max(eph, 21000)
for _ in range(500):
    p = random.randrange(lo, hi)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", p))
        print(p)
        break
    except OSError:
        pass
    finally:
        s.close()
PY
}
# tcp_ranks W OUT SECS CMD...: CMD (environment assignments, then a program and its arguments) as the W ranks of one
# TCP group on 127.0.0.1 (torchrun-style variables, one OpenMP thread each), rank r's output in OUT.rR, each killed
# after SECS s; all again on another port (up to 3 tries) where rank 0's log says it could not listen (its port
# taken between free_port and the bind). Sets TCP_RC0, rank 0's exit status, and TCP_RCS, the others'.
tcp_ranks() {
    local W=$1 out=$2 secs=$3 port pids r p try
    shift 3
    for try in 1 2 3; do
        port=$(free_port) pids=() TCP_RCS=""
        for r in $(seq 1 $((W - 1))); do
            timeout -s KILL "$secs" env WORLD_SIZE=$W RANK=$r MASTER_ADDR=127.0.0.1 MASTER_PORT=$port OMP_NUM_THREADS=1 \
                "$@" >"$out.r$r" 2>&1 &
            pids+=($!)
        done
        timeout -s KILL "$secs" env WORLD_SIZE=$W RANK=0 MASTER_ADDR=127.0.0.1 MASTER_PORT=$port OMP_NUM_THREADS=1 \
            "$@" >"$out.r0" 2>&1
        TCP_RC0=$?
        for p in "${pids[@]}"; do wait "$p"; TCP_RCS="$TCP_RCS $?"; done
        [ $TCP_RC0 -ne 0 ] && grep -q "cannot listen on" "$out.r0" || break
    done
}
