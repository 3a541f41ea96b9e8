#!/usr/bin/env bash
# Build a relocatable-enough GPU tree for the lent device machine, which has
# CUDA but none of our Debian libraries: configure at .gpu-build (git-ignored,
# carried by the device tool), build for sm_90, and copy every non-system
# shared library the binaries need into .gpu-build/lib. On the device, link
# the checkout to this machine's path so CTest's absolute paths resolve:
#   mkdir -p /work && ln -sfn "$PWD" /work/main && cd /work/main/.gpu-build &&
#   LD_LIBRARY_PATH=$PWD/lib ctest -L gpu
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/.gpu-build"
bash "$root/scripts/deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DNANOSCATTER_CUDA=ON \
      -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build "$build" -j"$(nproc)"
mkdir -p "$build/lib"
# Everything outside glibc/libstdc++ and the CUDA driver/toolkit (present there).
for exe in "$build"/bin/* "$build"/tests/ns_*tests "$build"/bench/*; do
  [ -x "$exe" ] && [ -f "$exe" ] || continue
  ldd "$exe" | awk '/=> \// {print $3}' 
done | sort -u | grep -vE '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux)[.-]|/usr/local/cuda|libcuda\.so' |
  while read -r lib; do cp -L "$lib" "$build/lib/"; done
du -sh "$build/lib" "$build"
