#!/usr/bin/env bash
# `nanoscatter rmc --loading-scan` with the absolute chi2 on a synthetic
# 32×32 target made by the forward model at loading 0.25 (random sites):
# loading_scan.dat and /loading_scan in rmc.h5 list every loading, the
# minimum lies within 0.05 of the truth, and the q = 0 note appears once in
# the log. Also: an initial model from a text file sets the loading, and the
# run from the true structure keeps chi2 = 0. Needs numpy/h5py (skips otherwise).
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3
$py -c "import numpy, h5py" 2>/dev/null || { echo "skip: no numpy/h5py"; exit 77; }

$py - <<'PY' || fail "could not write the target"
import numpy as np
n = 32
rng = np.random.default_rng(5)
a = np.zeros(n * n); a[rng.choice(n * n, 256, replace=False)] = 1; a = a.reshape(n, n)
np.savetxt("target.txt", np.fft.fftshift(np.abs(np.fft.fft2(a)) ** 2))
np.savetxt("truth.txt", a, fmt="%d")
PY

"$bin" rmc --target target.txt --loading-scan 0.15:0.35:0.05 --chi2-scale absolute --steps 30000 --seed 2 \
  --device cpu --output scan > log.txt 2>&1 || fail "scan exited non-zero: $(cat log.txt)"
[ "$(grep -c 'q = 0 pixel' log.txt)" = 1 ] || fail "expected one q = 0 note: $(cat log.txt)"
grep -q "loading scan minimum" log.txt || fail "no scan summary in the log: $(cat log.txt)"
$py - <<'PY' || fail "scan results"
import numpy as np, h5py
t = np.loadtxt("scan/loading_scan.dat")
assert t.shape == (5, 3), t.shape
with h5py.File("scan/rmc.h5") as f:
    np.testing.assert_allclose(f["loading_scan/chi2"][:], t[:, 1], rtol=1e-12)
    refined = f["loading_scan"].attrs["refined_loading"]
    assert f["tiles/chi2_final"].shape == (5,)
    assert f.attrs["chi2_scale"] in (b"absolute", "absolute"), f.attrs["chi2_scale"]
assert abs(refined - 0.25) <= 0.05, (refined, t)
PY

"$bin" rmc --target target.txt --initial-model truth.txt --chi2-scale absolute --temperature 0 --steps 200 \
  --device cpu --output from_truth --quiet || fail "initial model run failed"
$py - <<'PY' || fail "initial model results"
import numpy as np
s = np.loadtxt("from_truth/acceptance.dat", ndmin=2)
assert s[0, 1] == 0.25 and s[0, 2] == 256, s[0]   # loading and count from the model
assert s[0, 8] < 1e-12 and s[0, 9] < 1e-12, s[0]  # chi2 stays 0 at the truth
PY
echo "ok: loading scan and initial model"
