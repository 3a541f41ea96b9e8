#!/usr/bin/env bash
# The CPU test suite under AddressSanitizer + UndefinedBehaviorSanitizer
# (clang, scripts/sanitize_build.sh): every test except those labelled gpu
# or mpi. Extra arguments go to ctest (e.g. -R Structure).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${NANOSCATTER_SANITIZE_BUILD:-build-sanitize}
bash scripts/sanitize_build.sh
source scripts/sanitizer_env.sh
cd "$dir"
ctest --output-on-failure -j"$(nproc)" --timeout 3000 -LE 'gpu|mpi' "$@"
