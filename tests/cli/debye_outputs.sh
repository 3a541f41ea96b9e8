#!/usr/bin/env bash
# `nanoscatter debye` end to end on tiny inputs with closed forms:
# text and HDF5 output, headers, partials summing to the total, 2θ grids,
# histogram mode, normalisation, the PDF file, quiet and progress output.
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3

# Two Au atoms 2.8837 Å apart (along a diagonal, off the origin).
printf '2\ntwo gold atoms\nAu 0.5 0.5 0.5\nAu 2.164920 2.164920 2.164920\n' > au2.xyz
d=2.8837000   # |(1.664920, 1.664920, 1.664920)| = 2.88372...
d=$(awk 'BEGIN { x = 2.164920 - 0.5; printf "%.15g", sqrt(3 * x * x) }')

# Neutrons: I = 2b²(1 + sin(Qd)/(Qd)) with a Q-independent b, so I/(1 + sinc)
# must be the same number at every Q (float64: 1e-12 relative).
"$bin" debye au2.xyz --radiation neutron --qmin 0 --qmax 20 --qpoints 401 --device cpu \
  --output n.dat --quiet 2> err.txt || fail "neutron run failed: $(cat err.txt)"
[ -s err.txt ] && fail "--quiet printed: $(cat err.txt)"
awk -v d="$d" '!/^#/ { u = $1 * d; s = (u == 0) ? 1 : sin(u) / u; c = $2 / (1 + s);
  if (NR_DATA++ == 0) c0 = c; r = (c - c0) / c0; if (r < 0) r = -r; if (r > worst) worst = r }
  END { if (NR_DATA != 401 || worst > 1e-12) { print "rows", NR_DATA, "worst", worst; exit 1 } }' n.dat ||
  fail "neutron two-atom pattern is not 2b²(1 + sinc(Qd))"
# The default precision, auto, is double on the CPU and the header says
# which ran (docs/conventions.md).
grep -qF "precision double, device cpu" n.dat || fail "default precision on the CPU is not named double: $(grep method n.dat)"
for h in "# command: " "# version: nanoscatter " "# atoms: 2" "# radiation: neutron" "# method: exact" \
         "# units: Q [1/Å], I [fm²]" "# Q I"; do
  grep -qF -- "$h" n.dat || fail "header line '$h' missing"
done

# Histogram mode: within the Taylor bound 2b²(QΔr)³/192 ≤ 2b²·2.2e-7 at
# Q = 20, Δr = 1e-3 Å — so 1e-6 relative of I ≥ 2b²(1 − 0.22).
"$bin" debye au2.xyz --radiation neutron --qmin 0 --qmax 20 --qpoints 401 --method histogram \
  --bin-width 1e-3 --output h.dat --quiet || fail "histogram run failed"
paste <(grep -v '^#' n.dat) <(grep -v '^#' h.dat) | awk '{ r = ($4 - $2) / $2; if (r < 0) r = -r;
  if (r > w) w = r } END { if (w > 1e-6) { print w; exit 1 } }' || fail "histogram differs from exact"

# X-ray, two species, partials: columns named by species pair, summing to I
# (1e-12 relative), and the same numbers in HDF5.
printf '3\nAuPd\nAu 0 0 0\nPd 2.75 0 0\nAu 0 2.9 0.3\n' > aupd.xyz
"$bin" debye aupd.xyz --radiation xray --qmin 0.2 --qmax 12 --qpoints 100 --partials \
  --output p.dat --quiet || fail "partials run failed"
grep -q '^# Q I Au-Au Au-Pd Pd-Pd$' p.dat || fail "partial columns: $(grep '^# Q' p.dat)"
awk '!/^#/ { s = $3 + $4 + $5; r = (s - $2) / $2; if (r < 0) r = -r; if (r > w) w = r }
  END { if (w > 1e-12) { print w; exit 1 } }' p.dat || fail "partials do not sum to the total"
"$bin" debye aupd.xyz --radiation xray --qmin 0.2 --qmax 12 --qpoints 100 --partials \
  --output p.h5 --quiet || fail "HDF5 run failed"
$py - <<'PY' || fail "HDF5 content differs from the text output"
import h5py, numpy as np
t = np.loadtxt("p.dat")
with h5py.File("p.h5", "r") as f:
    q, i = f["/q"][...], f["/intensity"][...]
    parts = [f["/partials/" + n][...] for n in ("Au-Au", "Au-Pd", "Pd-Pd")]
    assert f.attrs["atom_count"] == 3
    assert f["/intensity"].attrs["units"] == "electron^2"  # docs/nexus.md spellings
assert np.array_equal(q, t[:, 0]) and np.array_equal(i, t[:, 1])
for k, p in enumerate(parts):
    assert np.array_equal(p, t[:, 2 + k])
PY

# 2θ grid: Q = 4π sin(θ)/λ (1e-12 relative).
"$bin" debye au2.xyz --two-theta-min 10 --two-theta-max 150 --wavelength 1.5406 --qpoints 57 \
  --output tt.dat --quiet || fail "2θ run failed"
awk '!/^#/ { tt = 10 + n * 140 / 56; n++; q = 4 * atan2(0, -1) * sin(tt / 2 * atan2(0, -1) / 180) / 1.5406;
  r = ($1 - q) / q; if (r < 0) r = -r; if (r > w) w = r } END { if (n != 57 || w > 1e-12) { print n, w; exit 1 } }' tt.dat ||
  fail "2θ grid is not Q = 4π sin θ / λ"
# ... and the table's last column is that 2θ (degrees, 1e-12).
grep -q '^# Q I two_theta$' tt.dat || fail "2θ column missing: $(grep '^# Q' tt.dat)"
awk '!/^#/ { tt = 10 + n * 140 / 56; n++; r = ($3 - tt) / tt; if (r < 0) r = -r; if (r > w) w = r }
  END { if (n != 57 || w > 1e-12) { print n, w; exit 1 } }' tt.dat || fail "2θ column is not the grid"

# per-atom normalisation: I/N.
"$bin" debye au2.xyz --qmin 0.5 --qmax 10 --qpoints 20 --normalize per-atom --output pa.dat --quiet || fail "per-atom"
"$bin" debye au2.xyz --qmin 0.5 --qmax 10 --qpoints 20 --output raw.dat --quiet || fail "raw"
paste <(grep -v '^#' pa.dat) <(grep -v '^#' raw.dat) | awk '{ r = ($2 - $4 / 2) / $2; if (r < 0) r = -r;
  if (r > w) w = r } END { if (w > 1e-15) exit 1 }' || fail "per-atom is not I/N"
grep -qF '# units: Q [1/Å], I_per_atom [e²/atom]' pa.dat || fail "per-atom units"

# PDF: two atoms at d, N = 2: R(r) = (1/N)·2 pairs-per-ordered-pair = 1 atom
# in the bin holding d, so Σ R dr = N − 1 = 1 and the peak sits at d.
"$bin" debye au2.xyz --qmin 0.5 --qmax 10 --qpoints 20 --pdf g.dat --pdf-dr 0.01 --output i.dat --quiet ||
  fail "PDF run failed"
grep -q '^# r R G$' g.dat || fail "PDF columns"
awk -v d="$d" '!/^#/ { s += $2 * 0.01; if ($2 > m) { m = $2; r = $1 } }
  END { x = s - 1; if (x < 0) x = -x; y = r - d; if (y < 0) y = -y; if (x > 1e-12 || y > 0.005) { print s, r; exit 1 } }' g.dat ||
  fail "PDF normalisation or peak position"

# Progress and summary on stderr without --quiet; stdout stays empty.
"$bin" debye au2.xyz --qmin 0.5 --qmax 10 --qpoints 20 --device cpu --output v.dat > out.txt 2> err.txt ||
  fail "verbose run failed"
[ -s out.txt ] && fail "stdout not empty"
grep -q "debye: exact pair sums: done in" err.txt || fail "no progress summary: $(cat err.txt)"
grep -q "debye: 2 atoms, 20 Q points" err.txt || fail "no run summary: $(cat err.txt)"
# PNG figures of I(Q) and G(r): tests/cli/png_figures.sh.
echo "ok: debye outputs"
