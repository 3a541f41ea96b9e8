#!/usr/bin/env bash
# `nanoscatter gisaxs` on the acceptance benchmark sample writes the HDF5
# image with its axes and metadata, the log-scale PNG and the text in
# BornAgain's layout (one row per φ_f bin, one column per α_f bin); the
# text and the HDF5 image carry the same numbers; --quiet prints nothing;
# --approximation born changes the image; --device auto runs on the CPU.
set -u
bin=$1 work=$2 data=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
sample=$data/gisaxs/benchmark_cylinders.toml

"$bin" gisaxs "$sample" --output img.h5 --png img.png --text img.txt --device auto > out.txt 2> err.txt ||
  fail "exit $?: $(cat err.txt)"
[ -s out.txt ] && fail "stdout not empty: $(cat out.txt)"
grep -q "^gisaxs: 200 x 200 pixels, 1 particle kind(s), dwba" err.txt || fail "no summary: $(cat err.txt)"
for f in img.h5 img.png img.txt; do [ -s "$f" ] || fail "$f missing"; done
[ "$(ls -A | sort | tr '\n' ' ')" = "err.txt img.h5 img.png img.txt out.txt " ] || fail "stray files: $(ls -A)"
# PNG signature.
[ "$(head -c 8 img.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "img.png is not a PNG"
# Text: 200 rows (φ_f bins) of 200 numbers (α_f bins) after '#' lines.
rows=$(grep -vc '^#' img.txt)
cols=$(grep -v '^#' img.txt | head -n1 | wc -w)
[ "$rows" = 200 ] && [ "$cols" = 200 ] || fail "text layout $rows x $cols, expected 200 x 200"
grep -q '^# phi_f edges \[deg\]: -2 ' img.txt || fail "no phi_f edges line"
grep -q '^# alpha_f centres \[deg\]: 0.0074999999999999997 ' img.txt || fail "no alpha_f centres line"

"$bin" gisaxs "$sample" --output quiet.h5 --quiet > q_out.txt 2> q_err.txt || fail "--quiet run failed"
[ -s q_out.txt ] || [ -s q_err.txt ] && fail "--quiet printed: $(cat q_out.txt q_err.txt)"
"$bin" gisaxs "$sample" --output born.txt --approximation born --quiet || fail "born run failed"
cmp -s born.txt img.txt && fail "--approximation born gave the DWBA image"

if /usr/bin/python3 -c 'import h5py, numpy' 2>/dev/null; then
  /usr/bin/python3 - <<'PY' || fail "HDF5 content"
import h5py, numpy as np
f = h5py.File("img.h5", "r")
img = f["intensity"][...]
assert img.shape == (200, 200), img.shape
assert f["intensity"].attrs["rows"].startswith("alpha_f"), f["intensity"].attrs["rows"]
phi, alpha = f["axes/phi_f"][...], f["axes/alpha_f"][...]
assert abs(phi[0] + 1.99) < 1e-12 and abs(alpha[-1] - 2.9925) < 1e-12, (phi[0], alpha[-1])
assert f["axes/phi_f_edges"].shape == (201,) and f["axes/phi_f"].attrs["units"] == "deg"
assert f["pixels/solid_angle"].shape == (200, 200) and f["pixels/qz"].attrs["units"] == "1/nm"
assert f["entry/process/command"][()].decode().split()[1] == "gisaxs"
# The text holds the transposed image: rows φ_f, columns α_f.
txt = np.loadtxt("img.txt")
assert np.array_equal(txt, img.T), np.abs(txt - img.T).max()
# Row 0 is the lowest α_f; the Yoneda peak of the substrate (α_c ≈ 0.2°)
# is brighter than the image's top row.
assert img[:, 100].argmax() < 40
PY
fi
echo "ok: h5, png and text written; text = transposed HDF5 image"
