#!/usr/bin/env bash
# Builds pairfold and libpairfold.so with the CUDA backend and the CUDA test program here, and packs
# them with the shared libraries the GPU machine's image lacks (OpenBLAS built
# for OpenMP, cJSON, gfortran, quadmath, gomp) into .devpack/payload.tar.xz.
# Then, on the GPU machine (device tool, carry [".devpack"]):
#   bash bench/device_all.sh              # parity, test_cuda, block benchmark, GPU training
#   STAGES="parity tests" bash bench/device_all.sh
#   STAGES=maketest bash bench/device_all.sh   # `make test-cuda` built from source there
# ./pairfold and ./libpairfold.so are left as the CPU-only builds. BINS (below) picks the programs.
set -euo pipefail
cd "$(dirname "$0")/.."
B=build/devpack  # its own objects: MPI=0 here, and make does not track flags
S=.devpack/stage
rm -rf .devpack && mkdir -p $S/lib
# LIBS_ONLY=1: only the libraries and headers, for stages that build there (dp, dapgpu, maketest)
if [ -z "${LIBS_ONLY:-}" ]; then
    rm -f pairfold libpairfold.so
    # MPI=0: the GPU image's Open MPI lives elsewhere; single-process binaries travel light.
    # libpairfold.so with the CUDA backend: the Python package and tests/torch (stage torch).
    # BINS: which programs travel (default all); a smaller payload leaves room beside .cueq,
    # e.g. BINS="pairfold bench_cuda_ops" for the ops and benchcq stages
    T=""
    for b in ${BINS:-pairfold libpairfold.so test_cuda bench_cuda_ops attn_bwd_check dap_bench}; do
        case $b in pairfold|libpairfold.so) T="$T $b" ;; *) T="$T $B/$b" ;; esac
    done
    make -j2 CUDA=1 MPI=0 BUILD=$B $T >/dev/null
    cp $T $S/
    # host debug info off (the device code keeps its -lineinfo): 67 -> ~65 MB each; the
    # programs share most of their bytes (the same CUDA objects), so xz below runs with a
    # dictionary larger than one program and stores the second copy as references
    for b in $T; do strip --strip-debug "$S/$(basename $b)"; done
fi
# EXTRA="FILE:NAME ...": more programs into the payload under NAME (e.g. the previous build's
# bench_cuda_ops for a same-run before / after; xz stores its shared bytes as references)
for e in ${EXTRA:-}; do cp "${e%%:*}" "$S/${e##*:}" && strip --strip-debug "$S/${e##*:}"; done
for l in /usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0 /lib/x86_64-linux-gnu/libcjson.so.1 \
         /lib/x86_64-linux-gnu/libgfortran.so.5 /lib/x86_64-linux-gnu/libquadmath.so.0 /lib/x86_64-linux-gnu/libgomp.so.1; do
    cp -L "$l" $S/lib/
done
# headers and link names, so `make test-cuda` can also build from source there
mkdir -p $S/sys/include/cjson $S/sys/lib
cp /usr/include/x86_64-linux-gnu/openblas-openmp/*.h /usr/include/zlib.h /usr/include/zconf.h $S/sys/include/
cp /usr/include/cjson/cJSON.h $S/sys/include/cjson/
cp -L /usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblas.so.0 $S/sys/lib/libopenblas.so
cp -L /usr/lib/x86_64-linux-gnu/libcjson.so $S/sys/lib/libcjson.so
cp -L /usr/lib/x86_64-linux-gnu/libz.so $S/sys/lib/libz.so
# NO_SYS=1: leave out sys/ (only the stages that build on the GPU machine need it)
[ -n "${NO_SYS:-}" ] && rm -rf $S/sys
# dict 256 MiB (one thread; ~250 MiB to compress, 256 MiB to unpack): pairfold + bench_cuda_ops
# 35 MB with an 8 MiB dictionary (xz -6) -> about 20 MB (session 11); XZ_LEVEL=1: faster, larger
tar -C $S -cf - . | xz -T1 --lzma2=preset=${XZ_LEVEL:-6},dict=256MiB > .devpack/payload.tar.xz
rm -rf $S
[ -n "${LIBS_ONLY:-}" ] || { rm -f pairfold libpairfold.so; make -j2 pairfold libpairfold.so >/dev/null; }
X=$(git rev-parse --git-path info/exclude); grep -q "^/.devpack/" "$X" 2>/dev/null || { mkdir -p "$(dirname "$X")"; echo "/.devpack/" >> "$X"; }
ls -la .devpack
