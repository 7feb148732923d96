#!/usr/bin/env bash
# make install PREFIX=...: the binary, libpairfold.so (soname link), pairfold.h, the
# man page and bash completion (generated from --help), plot.py. The installed
# pieces are used: the binary runs and plots, a C program builds against the
# installed header and library, the completion completes, DESTDIR stages.
cd "$(dirname "$0")/.."
pass=0 fail=0
check() {  # check NAME STATUS [detail]
    if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $1 ${3:-}"; fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$T/usr
out=$(make -s install PREFIX="$P" 2>&1); rc=$?
check "make install PREFIX=..." $rc "$out"
[ $rc -ne 0 ] && { echo "$pass passed, $fail failed"; exit 1; }
for f in bin/pairfold lib/libpairfold.so.0 include/pairfold.h share/man/man1/pairfold.1 \
         share/bash-completion/completions/pairfold share/pairfold/plot.py share/pairfold/import_openfold.py; do
    [ -f "$P/$f" ]; check "installed $f" $?
done
[ -L "$P/lib/libpairfold.so" ] && [ "$(readlink "$P/lib/libpairfold.so")" = libpairfold.so.0 ]
check "lib/libpairfold.so -> libpairfold.so.0" $?
"$P/bin/pairfold" version | grep -q "^pairfold "
check "the installed binary runs" $?

# a C program against the installed header and library only
cat >"$T/use.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <pairfold.h>
int main(void) {
    pairfold_backend *be = NULL;
    pairfold_block *b = NULL;
    if (pairfold_api_version() != PAIRFOLD_API_VERSION) return 1;
    if (pairfold_backend_create("cpu", &be) || pairfold_block_create(be, "pairformer", "tiny", NULL, &b)) return 2;
    int c[3];
    pairfold_block_channels(b, c);
    float z[4 * 4 * 32], s[4 * 32];
    for (int i = 0; i < 4 * 4 * 32; i++) z[i] = (float)(i % 7) - 3;
    for (int i = 0; i < 4 * 32; i++) s[i] = 1;
    if (pairfold_block_forward(b, 4, 1, NULL, z, s, NULL, NULL, NULL, PAIRFOLD_KEEP, 1)) return 3;
    if (pairfold_block_backward(b, NULL, z, NULL)) return 4;
    int bad = pairfold_block_create(be, "nope", NULL, NULL, &b);
    printf("%s c_z %d; bad kind: status %d: %s\n", pairfold_version(), c[1], bad, pairfold_last_error());
    pairfold_block_free(b);
    pairfold_backend_free(be);
    return 0;
}
C
out=$(cc -std=c11 -Wall -Wextra -Werror -I"$P/include" "$T/use.c" -L"$P/lib" -lpairfold -Wl,-rpath,"$P/lib" \
      -o "$T/use" 2>&1 && OMP_NUM_THREADS=1 "$T/use" 2>&1); rc=$?
[ $rc -eq 0 ] && echo "$out" | grep -q "c_z 32; bad kind: status 1: unknown block kind 'nope'"
check "a C program builds and runs against the installed pairfold.h and libpairfold.so" $? "rc $rc: $out"
n=$(nm -D --defined-only "$P/lib/libpairfold.so.0" | awk '{print $3}' | grep -vc '^pairfold_')
[ "$n" -eq 0 ]; check "the library exports pairfold_* only" $? "$n other symbols"

# the man page: every command and its options, from --help
M=$P/share/man/man1/pairfold.1
head -n 1 "$M" | grep -q '^\.TH PAIRFOLD 1' && grep -q '^\.SS pairfold predict' "$M" && grep -q -- '--formats' "$M" &&
    grep -q '^\.SS pairfold plot' "$M" && grep -q -- '--max-msa-rows' "$M"
check "man page: .TH, one section per command with its options" $?
if command -v man >/dev/null 2>&1 && command -v groff >/dev/null 2>&1; then
    MANWIDTH=80 man -l "$M" 2>"$T/man.err" | grep -q "pairfold predict"; check "man -l renders it" $? "$(cat "$T/man.err")"
fi

# bash completion
comp() {  # comp WORD... : the completions of the last word
    bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pairfold; echo "${COMPREPLY[*]}"' \
        _ "$P/share/bash-completion/completions/pairfold" "$@"
}
[ "$(comp pairfold pr)" = "predict prep" ]; check "completion: commands" $? "$(comp pairfold pr)"
[ "$(comp pairfold predict --fo)" = "--formats" ]; check "completion: predict's options" $? "$(comp pairfold predict --fo)"
[ "$(comp pairfold train --preset a)" = "af2 af3" ]; check "completion: --preset values" $? "$(comp pairfold train --preset a)"
[ "$(comp pairfold plot --d)" = "--dpi" ]; check "completion: plot's options" $? "$(comp pairfold plot --d)"

# the installed binary finds the installed plot.py
printf '{"step":1,"loss":3,"lr":0.1,"grad_norm":1,"ms":5}\n{"step":2,"loss":2,"lr":0.1,"grad_norm":1,"ms":5}\n' >"$T/log.jsonl"
out=$(env -u PAIRFOLD_PLOT "$P/bin/pairfold" plot "$T/log.jsonl" --out "$T/c.png" --dpi 30 2>&1)
check "the installed pairfold plot uses share/pairfold/plot.py" $? "$out"

# DESTDIR stages under another root
out=$(make -s install DESTDIR="$T/stage" PREFIX=/opt/pf 2>&1)
[ -x "$T/stage/opt/pf/bin/pairfold" ] && [ -f "$T/stage/opt/pf/include/pairfold.h" ]
check "make install DESTDIR=... PREFIX=/opt/pf" $? "$out"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
