#!/usr/bin/env bash
# Prepare a run on the lent GPU machine, which has CUDA but none of our
# Debian libraries and no network: build here (BUILD_DIR, default build/,
# CUDA for sm_90), then copy what a GPU run needs into .gpu-bundle/
# (git-ignored; the device tool carries it): the executables, CTest's files
# and every non-system shared library the executables load.
# On the device, make the paths CTest recorded resolve, then run:
#   mkdir -p /work && ln -sfn "$PWD" /work/main && ln -sfn .gpu-bundle build &&
#   tar xJf build/lib.tar.xz -C build &&
#   export LD_LIBRARY_PATH=$PWD/build/lib && (cd build && ctest -L gpu) &&
#   bench/gpu_suite.sh build
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(realpath -m "${1:-$root/build}")"
bundle="$root/.gpu-bundle"
bash "$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNANOSCATTER_CUDA=ON \
      -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build "$build" -j"$(nproc)"
rm -rf "$bundle"
mkdir -p "$bundle/lib" "$bundle/bin" "$bundle/tests" "$bundle/bench"
cp "$build"/CTestTestfile.cmake "$bundle/"
cp "$build"/bin/* "$bundle/bin/"
cp "$build"/tests/ns_*tests "$build"/tests/*.cmake "$bundle/tests/"
find "$build/bench" -maxdepth 1 -type f -perm -u+x -exec cp {} "$bundle/bench/" \;
bash "$root/scripts/bundle_libs.sh" "$bundle" "$bundle"/bin/* "$bundle"/tests/ns_*tests "$bundle"/bench/*
du -sh "$bundle"
