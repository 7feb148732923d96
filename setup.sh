#!/usr/bin/env bash
# Installs what pairfold needs to build and test on Debian/Ubuntu: a C compiler,
# OpenBLAS, cJSON, zlib, Open MPI (data-parallel runs), clang (fuzzers, sanitizers), Python with numpy and
# safetensors (checkpoint interop test), gemmi and Biopython (structure file test), setuptools + wheel
# (the Python package) and matplotlib (plot). Safe to run again: it installs only
# what is missing.
set -e
need=()
dpkg -s build-essential >/dev/null 2>&1 || need+=(build-essential)
for p in libopenblas-openmp-dev libcjson-dev zlib1g-dev python3 python3-pip libopenmpi-dev openmpi-bin; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
command -v clang >/dev/null 2>&1 || need+=(clang)
# AddressSanitizer / UBSan / libFuzzer runtimes for clang (make test-asan, make fuzz)
dpkg -s libclang-rt-dev >/dev/null 2>&1 || need+=(libclang-rt-dev)
if [ ${#need[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    echo "setup: installing ${need[*]}"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! python3 -c "import numpy, safetensors" >/dev/null 2>&1; then
    echo "setup: installing numpy and safetensors (pip)"
    python3 -m pip install -q numpy safetensors 2>/dev/null ||
        python3 -m pip install -q --break-system-packages numpy safetensors
fi
# gemmi and Biopython: tests/test_score.py reads the mmCIF / PDB files pairfold writes with both
if ! python3 -c "import gemmi, Bio.PDB" >/dev/null 2>&1; then
    echo "setup: installing gemmi and biopython (pip)"
    python3 -m pip install -q gemmi biopython 2>/dev/null ||
        python3 -m pip install -q --break-system-packages gemmi biopython
fi
# the Python package (pip install ./python; its test builds it offline with
# --no-build-isolation, which needs setuptools and wheel here) and pairfold plot (matplotlib)
for mod in setuptools:setuptools wheel:wheel matplotlib:matplotlib; do
    if ! python3 -c "import ${mod%%:*}" >/dev/null 2>&1; then
        echo "setup: installing ${mod#*:} (pip)"
        python3 -m pip install -q "${mod#*:}" 2>/dev/null || python3 -m pip install -q --break-system-packages "${mod#*:}"
    fi
done
echo "setup: ok"
