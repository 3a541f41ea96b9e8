#!/usr/bin/env bash
# Copy every non-system shared library that the given executables load into
# BUNDLE/lib, strip the executables and the libraries, and pack the
# libraries into BUNDLE/lib.tar.xz (the device tool carries at most 64 MiB;
# unpack there with: tar xJf BUNDLE/lib.tar.xz -C BUNDLE).
# Used by bench/make_gpu_bundle.sh and scripts/make_sanitize_bundle.sh.
#   scripts/bundle_libs.sh [--keep-symbols] BUNDLE EXECUTABLE...
set -euo pipefail
strip_mode=--strip-unneeded
if [ "${1:-}" = "--keep-symbols" ]; then strip_mode=--strip-debug; shift; fi
bundle=$1
shift
mkdir -p "$bundle/lib"
# Everything but glibc, libstdc++/libgcc and the CUDA driver (the device has those).
for exe in "$@"; do
  ldd "$exe" | awk '/=> \// {print $3}'
done | sort -u | grep -vE '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s|ld-linux)[.-]|libcuda\.so|/usr/local/cuda' |
  while read -r lib; do cp -L "$lib" "$bundle/lib/"; done
strip "$strip_mode" "$@" "$bundle"/lib/* 2>/dev/null || true
tar cJf "$bundle/lib.tar.xz" -C "$bundle" lib && rm -rf "$bundle/lib"
