#!/usr/bin/env bash
# Bad input to `nanoscatter rmc`: each case exits non-zero with one line
# "nanoscatter: error: ..." naming the file or option at fault, and leaves
# no output directory or file behind.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"

printf '1 2 3\n4 5 6\n' > rect.txt
printf '1 2 3 4\n5 6 7 8\n9 8 7 6\n5 4 3 2\n' > square.txt
printf '0 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n' > zero.txt
printf '1 1 1\n1 1 1\n1 1 1\n' > mask3.txt
printf '1 2\n3 x\n' > bad.txt
printf '0 1 0\n1 0 0\n0 0 1\n' > model3.txt
printf '0 1 0 0\n1 0 0.5 0\n0 0 1 0\n0 0 0 1\n' > halfmodel.txt
printf '0 1 0 0\n1 0 0 0\n0 0 1 0\n0 0 0 1\n' > model4.txt
# A CBF whose binary section declares more bytes than the file holds
# (refused before CBFlib sees it) and an HDF5 signature followed by junk
# (refused by libhdf5 in its contained child process).
printf '###CBF: VERSION 1.5\r\ndata_x\r\n_array_data.data\r\n;\r\n--CIF-BINARY-FORMAT-SECTION--\r\n%s\r\n%s\r\n%s\r\n%s\r\n%s\r\n\r\n\x0c\x1a\x04\xd5\x01\x07\x07\x07\r\n--CIF-BINARY-FORMAT-SECTION----\r\n;\r\n' \
  'Content-Type: application/octet-stream; conversions="x-CBF_BYTE_OFFSET"' 'X-Binary-Size: 999999' \
  'X-Binary-Number-of-Elements: 4' 'X-Binary-Size-Fastest-Dimension: 2' 'X-Binary-Size-Second-Dimension: 2' > big.cbf
printf '\x89HDF\r\n\x1a\nnot an HDF5 superblock' > junk.h5
inputs=$(ls | sort)

expect_error() {
  local expected=$1
  shift
  expect_cli_error "$expected" "$bin" rmc "$@" --output out
}

expect_error "rect.txt: target is 2×3, not square; take its central square with --crop" \
  --target rect.txt --loading 0.3 --device cpu
expect_error "--loading: must lie in (0, 1), got 1.5" --target square.txt --loading 1.5 --device cpu
expect_error "--loading: must lie in (0, 1), got 0" --target square.txt --loading 0 --device cpu
expect_error "--max-device-memory: must be ≥ 0, got '-2G'" --target square.txt --loading 0.5 --device cpu --max-device-memory -2G
expect_error "mask3.txt: --mask: mask is 3×3, target is 4×4" --target square.txt --mask mask3.txt --loading 0.5 --device cpu
expect_error "zero.txt: the target is zero at every used pixel" --target zero.txt --loading 0.5 --device cpu
expect_error "missing.h5: no such file" --target missing.h5:/data --loading 0.5 --device cpu
expect_error "big.cbf: X-Binary-Size: 999999 bytes declared, but the file has only 42 after the binary section's header" \
  --target big.cbf --loading 0.5 --device cpu
expect_error "junk.h5: cannot open as HDF5*" --target junk.h5 --loading 0.5 --device cpu
expect_error "bad.txt:2: column 2: not a number: 'x'" --target bad.txt --loading 0.5 --device cpu
expect_error "--tile: model size 8 is larger than the 4×4 target" --target square.txt --tile 8 --loading 0.5 --device cpu
expect_error "--schedule: unknown schedule 'fast' (expected fixed, exponential or linear)" \
  --target square.txt --loading 0.5 --schedule fast --device cpu
expect_error "--temperature: expected a number or 'auto', got 'hot'" --target square.txt --loading 0.5 --temperature hot
expect_error "model3.txt: --initial-model: initial model is 3×3, the model is 4×4" \
  --target square.txt --initial-model model3.txt --device cpu
expect_error "halfmodel.txt: --initial-model: initial model must hold only 0 and 1, got 0.5 at row 1, column 2" \
  --target square.txt --initial-model halfmodel.txt --device cpu
expect_error "model4.txt: --initial-model: initial model has 4 occupied sites (loading 0.25), loading 0.5 needs 8" \
  --target square.txt --initial-model model4.txt --loading 0.5 --device cpu
expect_error "--loading-scan: start and stop must lie in (0, 1), got 0.1 and 1.2" \
  --target square.txt --loading-scan 0.1:1.2:0.1 --device cpu
expect_error "--loading-scan: start and stop must lie in (0, 1), got 0 and 0.5" \
  --target square.txt --loading-scan 0:0.5:0.1 --device cpu
expect_error "--loading: required: the fraction of occupied sites (or a loading scan)" --target square.txt --device cpu
expect_error "--chi2-scale: unknown scale 'auto' (expected free, absolute or fixed)" \
  --target square.txt --loading 0.5 --chi2-scale auto --device cpu
echo "ok: all bad inputs rejected with one line and no output"
