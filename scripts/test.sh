#!/usr/bin/env bash
# Build and run the whole test suite (GPU tests skip without a GPU).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh "$@"
cd build
ctest --output-on-failure -j"$(nproc)" --timeout 1500
