#!/usr/bin/env bash
# `nanoscatter pattern2d` end to end: HDF5 layout and attributes, text and
# PNG outputs, and the physics of two atoms through the command line:
# I₂(q)/I₁(q) = |1 + e^{i q·d}|² = 2 (1 + cos q·d) for a pair at separation
# d against one atom, at every pixel of the Ewald sphere (tolerance 1e-12:
# float64 rounding only), read back with h5py; float32 within 1e-5 max I of
# float64.
set -u
bin=$1 work=$2
py=/usr/bin/python3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
$py -c 'import h5py, numpy' 2>/dev/null || { echo "skip: $py lacks h5py/numpy"; exit 77; }

printf '1\none gold atom\nAu 0 0 0\n' > au1.xyz
printf '2\ntwo gold atoms\nAu 0 0 0\nAu 1.5 -2.0 0.7\n' > au2.xyz
polar=(--wavelength 1.2 --qmax 6 --nq 25 --nphi 36 --euler-zyz 10 20 30 --device cpu -q)

"$bin" pattern2d au1.xyz "${polar[@]}" --amplitude -o one.h5 || fail "one atom"
"$bin" pattern2d au2.xyz "${polar[@]}" --amplitude -o two.h5 --png two.png || fail "two atoms"
"$bin" pattern2d au2.xyz "${polar[@]}" --amplitude -o two.dat || fail "text output"
"$bin" pattern2d au2.xyz "${polar[@]}" --precision single -o two_single.h5 || fail "single precision"
"$bin" pattern2d au2.xyz --wavelength 1.0 --flat --distance 100 --pixel-size 2 --nx 40 --ny 30 \
  --direct-beam 19.5 12.5 --no-curvature --device cpu -q -o flat.h5 --png flat.png || fail "flat detector"
[ "$(ls | sort | tr '\n' ' ')" = "au1.xyz au2.xyz flat.h5 flat.png one.h5 two.dat two.h5 two.png two_single.h5 " ] ||
  fail "unexpected files: $(ls)"
for p in two.png flat.png; do
  [ "$(head -c 8 "$p" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$p is not a PNG"
done

$py - <<'PY' || fail "HDF5 checks"
import math, sys
import h5py, numpy as np

def check(ok, what):
    if not ok:
        print("check failed:", what)
        sys.exit(1)

one, two = h5py.File("one.h5", "r"), h5py.File("two.h5", "r")
i1, i2 = one["intensity"][...], two["intensity"][...]
q = two["q"][...]
check(i2.shape == (25, 36) and q.shape == (25, 36, 3), "shapes")
check(np.allclose(two["axes/q"][...], np.linspace(0, 6, 25), rtol=0, atol=1e-15), "q axis")
check(np.allclose(two["axes/phi"][...], np.arange(36) * 10.0, rtol=0, atol=1e-12), "phi axis")
k = 2 * math.pi / 1.2
check(np.allclose(np.linalg.norm(q + np.array([0, 0, k]), axis=2), k, rtol=1e-13, atol=0), "Ewald sphere")
# Atoms are turned by R = Rz(10°) Ry(20°) Rz(30°): q·(R d) is the phase.
def rz(a):
    c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
def ry(a):
    c, s = math.cos(math.radians(a)), math.sin(math.radians(a))
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
d = rz(10) @ ry(20) @ rz(30) @ np.array([1.5, -2.0, 0.7])
expected = 2 * (1 + np.cos(q @ d))
ratio = i2 / i1
err = np.max(np.abs(ratio - expected) / np.maximum(expected, 1e-3))
check(err < 1e-12, f"two-atom closed form, error {err:.3g}")
a = two["amplitude"][...]
check(a.dtype == np.complex128, "amplitude dtype")
check(np.allclose(np.abs(a) ** 2, i2, rtol=1e-12, atol=0), "|A|^2 = I")
check(np.allclose(one["amplitude"][...].imag, 0, atol=1e-9), "one atom at the origin: real amplitude")
attrs = two.attrs
check(attrs["engine"] == "pattern2d" and attrs["detector"] == "polar", "engine/detector attributes")
check(attrs["wavelength_angstrom"] == 1.2 and attrs["nq"] == 25 and attrs["nphi"] == 36, "geometry attributes")
check("pattern2d au2.xyz" in attrs["command"] and attrs["precision"] == "double", "command/precision")
check(np.allclose(attrs["orientation"].reshape(3, 3), rz(10) @ ry(20) @ rz(30), atol=1e-15), "orientation")
single = h5py.File("two_single.h5", "r")["intensity"][...]
# float32: per-atom phase errors ≲ 1e-6 rad give |ΔA| ≲ 2e-6 Σ|f| and so
# |ΔI| ≤ 2 |ΔA| |A| ≲ 4e-6 max I (two atoms do not average errors away).
check(np.max(np.abs(single - i2)) < 1e-5 * i2.max(), "single vs double precision")
text = np.loadtxt("two.dat")
check(text.shape == (25 * 36, 8), "text shape")
check(np.array_equal(text[:, 5], i2.ravel()), "text I equals HDF5 I bit for bit")
check(np.array_equal(text[:, 6] + 1j * text[:, 7], a.ravel()), "text amplitude")
flat = h5py.File("flat.h5", "r")
check(flat["intensity"].shape == (30, 40) and flat.attrs["detector"] == "flat", "flat shape")
check(np.allclose(flat["axes/x"][...], (np.arange(40) - 19) * 2.0) and
      np.allclose(flat["axes/y"][...], (np.arange(30) - 12) * 2.0), "flat axes")
fq = flat["q"][...]
check(np.all(fq[..., 2] == 0) and np.all(fq[12, 19] == 0), "no curvature: q_z = 0, q = 0 at the beam centre")
PY
echo "pattern2d outputs: HDF5, text, PNG and the two-atom closed form agree"
