#!/usr/bin/env bash
# seed_corpus.sh KIND DIR: a few real files of one kind from ../shared/data
# (decompressed, cut to 64 KiB) and the fixed findings fuzz/regress/KIND_* as
# the starting corpus of fuzz_KIND.
set -u
kind=$1; out=$2; dd=${PF_DATA_DIR:-../shared/data}
mkdir -p "$out"
# fixed findings (fuzz/regress/KIND_*): in every corpus, so each run replays them first
for f in fuzz/regress/"$kind"_*; do [ -f "$f" ] && cp "$f" "$out/regress_$(basename "$f")"; done
[ -d "$dd" ] || { echo "seed_corpus: $dd not found, no seed files"; exit 0; }
pick() { ls $1 2>/dev/null | head -n ${2:-6}; }
case $kind in
  pdb) files=$(pick "$dd/structures/*.pdb.gz" 8) ;;
  mmcif) files=$(pick "$dd/structures/*.cif.gz" 8) ;;
  structwrite) files="$(pick "$dd/structures/*.pdb.gz" 4) $(pick "$dd/structures/*.cif.gz" 4)" ;;
  a3m) files=$(pick "$dd/msas/*/*.a3m.gz" 6) ;;
  stockholm) files=$(pick "$dd/msas/*/*.sto.gz" 6) ;;
  fasta) files="$dd/sequences.fasta" ;;
  gzip) files="$(pick "$dd/structures/*.gz" 3) $(pick "$dd/msas/1PSM_A/*.gz" 3)" ;;
  record) files="" ; for f in $(pick "$dd/structures/*.pdb.gz" 4); do b=$(basename "$f" .gz); { printf "\001"; zcat "$f" | head -c 60000; } > "$out/$b.rec"; done ;;
  af3) files="" ; cp tests/data/af3/*.json "$out/" 2>/dev/null ;;
  safetensors) files="" ; python3 - "$out" <<'PY'
import json, struct, sys
def st(name, tensors, meta=None):  # tensors: (name, dtype, shape, bytes)
    h, off, body = {}, 0, b""
    for n, dt, shape, raw in tensors:
        h[n] = {"dtype": dt, "shape": shape, "data_offsets": [off, off + len(raw)]}
        off += len(raw); body += raw
    if meta: h["__metadata__"] = meta
    j = json.dumps(h).encode(); j += b" " * (-len(j) % 8)
    open(f"{sys.argv[1]}/{name}", "wb").write(struct.pack("<Q", len(j)) + j + body)
st("two.safetensors", [("w", "F32", [2, 3], bytes(24)), ("b", "I64", [2], bytes(16))], {"format": "pt"})
st("scalar.safetensors", [("s", "F64", [], bytes(8)), ("e", "BF16", [0], b"")])
PY
    ;;
  config) files="" ; printf '{\n  "c_z": 16,\n  "lr": 0.001,\n  "preset": "tiny",\n  "dropout_pair": 0.25\n}\n' > "$out/a.json"
    printf '{"crop_size": 64, "n_blocks": 2, "data": "synthetic", "grad_accum": 2, "ema_decay": 0.9}' > "$out/b.json"
    [ -f runs/tiny/config.json ] && cp runs/tiny/config.json "$out/run.json" ;;
  cache_header) files="" ; for f in cache/*.pfc; do [ -f "$f" ] && head -c 65536 "$f" > "$out/$(basename "$f")"; done ;;
  hello) files="" ; python3 -c '
import struct, sys
for w in (0, 1, 6):
    open(f"{sys.argv[1]}/hello{w}", "wb").write(bytes([w]) + struct.pack("<IIIIQ", 0x56524650, 1, 1, w + 2, 0))' "$out" ;;
  *) files="" ;;
esac
for f in $files; do
  b=$(basename "$f" .gz)
  if [ "$kind" = gzip ]; then head -c 65536 "$f" > "$out/$b.gz"; else zcat -f "$f" | head -c 65536 > "$out/$b"; fi
done
exit 0
