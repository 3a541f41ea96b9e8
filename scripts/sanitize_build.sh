#!/usr/bin/env bash
# Configure and build the ASan + UBSan build with clang (shared by
# scripts/sanitize.sh and scripts/fuzz.sh, so the instrumented library is
# compiled once). Folder: $NANOSCATTER_SANITIZE_BUILD, default
# build-sanitize. Arguments: the targets to build (none: all).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
dir=${NANOSCATTER_SANITIZE_BUILD:-build-sanitize}
# The Python module would need the ASan runtime preloaded into the
# interpreter, MPI and CUDA are not what is checked here: all three off.
CC=clang CXX=clang++ cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DNANOSCATTER_FUZZ=ON -DNANOSCATTER_CUDA=OFF -DNANOSCATTER_MPI=OFF -DNANOSCATTER_PYTHON=OFF \
  -DNANOSCATTER_BENCH=OFF -DNANOSCATTER_TESTS=ON >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
