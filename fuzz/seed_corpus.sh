#!/usr/bin/env bash
# seed_corpus.sh KIND DIR: a few real files of one kind from ../shared/data
# (decompressed, cut to 64 KiB) as the starting corpus of fuzz_KIND.
set -u
kind=$1; out=$2; dd=${PF_DATA_DIR:-../shared/data}
mkdir -p "$out"
[ -d "$dd" ] || { echo "seed_corpus: $dd not found, empty corpus"; exit 0; }
pick() { ls $1 2>/dev/null | head -n ${2:-6}; }
case $kind in
  pdb) files=$(pick "$dd/structures/*.pdb.gz" 8) ;;
  mmcif) files=$(pick "$dd/structures/*.cif.gz" 8) ;;
  a3m) files=$(pick "$dd/msas/*/*.a3m.gz" 6) ;;
  stockholm) files=$(pick "$dd/msas/*/*.sto.gz" 6) ;;
  fasta) files="$dd/sequences.fasta" ;;
  gzip) files="$(pick "$dd/structures/*.gz" 3) $(pick "$dd/msas/1PSM_A/*.gz" 3)" ;;
  record) files="" ; for f in $(pick "$dd/structures/*.pdb.gz" 4); do b=$(basename "$f" .gz); { printf "\001"; zcat "$f" | head -c 60000; } > "$out/$b.rec"; done ;;
  af3) files="" ; cp tests/data/af3/*.json "$out/" 2>/dev/null ;;
  *) files="" ;;
esac
for f in $files; do
  b=$(basename "$f" .gz)
  if [ "$kind" = gzip ]; then head -c 65536 "$f" > "$out/$b.gz"; else zcat -f "$f" | head -c 65536 > "$out/$b"; fi
done
exit 0
