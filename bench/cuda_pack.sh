#!/usr/bin/env bash
# Builds the CUDA test and benchmark programs here and packs them, with the
# shared libraries the device machine's image may lack (OpenBLAS, cJSON, ...),
# into build/h_cuda/pack/payload.tar.xz for bench/device_run.sh (carry
# build/h_cuda/pack). Usage: bench/cuda_pack.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build/h_cuda}
make BUILD=$B $B/test_cuda $B/bench_cuda_ops -j2 >/dev/null
S=$B/pack/stage
rm -rf $B/pack && mkdir -p $S/lib
cp $B/test_cuda $B/bench_cuda_ops $S/
for l in libopenblas.so.0 libcjson.so.1 libgfortran.so.5 libquadmath.so.0 libgomp.so.1; do
  cp -L /lib/x86_64-linux-gnu/$l $S/lib/
done
# pairfold itself, linked with the CUDA backend into a private build dir
# (bench/cuda_pack.sh does not touch ./pairfold): build/h_cuda_full/pairfold
[ -x build/h_cuda_full/pairfold ] && cp build/h_cuda_full/pairfold $S/ || true
tar -C $S -cJf $B/pack/payload.tar.xz .
rm -rf $S
ls -la $B/pack
