#!/usr/bin/env bash
# Meshes through the CLI: a sample with shape = "mesh" (a box written as a
# binary STL) gives the analytic box's image; --formfactor-only writes F on
# a 3D grid to HDF5 equal to the analytic box's closed form (checked with
# h5py/NumPy); bad meshes and grids end with one line naming the triangle
# or the axis and leave no file.
set -u
bin=$1 work=$2 data=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
source "$(dirname "${BASH_SOURCE[0]}")/lib.bash"
py=/usr/bin/python3
$py -c "import h5py, numpy" 2> /dev/null || { echo "skip: no h5py/numpy for $py"; exit 77; }

base=$data/gisaxs/benchmark_cylinders.toml
head=$(sed '/^\[\[particle\]\]/,$d' "$base")
# A box 10 x 15 x 5 nm (file units x 20), corners exact in float32; an open
# copy (one triangle less) and one with a flipped triangle.
$py - <<'PY'
import struct
a, b, c = 0.25, 0.375, 0.25
v = [(-a,-b,0),(a,-b,0),(a,b,0),(-a,b,0),(-a,-b,c),(a,-b,c),(a,b,c),(-a,b,c)]
quads = [(0,3,2,1),(4,5,6,7),(0,1,5,4),(1,2,6,5),(2,3,7,6),(3,0,4,7)]
tris = [t for q in quads for t in ((q[0],q[1],q[2]),(q[0],q[2],q[3]))]
def write(name, ts):
    with open(name, "wb") as f:
        f.write(b"\0" * 80 + struct.pack("<I", len(ts)))
        for t in ts:
            f.write(struct.pack("<3f", 0, 0, 0))
            for i in t: f.write(struct.pack("<3f", *v[i]))
            f.write(b"\0\0")
write("box.stl", tris)
write("open.stl", tris[:7] + tris[8:])
flipped = list(tris); flipped[4] = (tris[4][0], tris[4][2], tris[4][1])
write("flipped.stl", flipped)
PY
mesh_particle='[[particle]]
shape = "mesh"
material = "particle"
layer = "vacuum"
scale = 20'
printf '%s\n%s\nfile = "box.stl"\n' "$head" "$mesh_particle" > mesh.toml
printf '%s\n[[particle]]\nshape = "box"\nlength = 10\nwidth = 15\nheight = 5\nmaterial = "particle"\nlayer = "vacuum"\n' "$head" > box.toml
printf '%s\n%s\nfile = "open.stl"\n' "$head" "$mesh_particle" > open.toml
printf '%s\n%s\nfile = "flipped.stl"\n' "$head" "$mesh_particle" > flipped.toml

"$bin" gisaxs mesh.toml --device cpu --quiet --output mesh.h5 || fail "mesh sample failed"
"$bin" gisaxs box.toml --device cpu --quiet --output box.h5 || fail "box sample failed"
grid=(--qx=-2,2,9 --qy=-1.5,1.5,7 --qz=0,3,5)
"$bin" gisaxs mesh.toml --formfactor-only "${grid[@]}" --device cpu --quiet --output ff.h5 || fail "formfactor-only failed"
"$bin" gisaxs mesh.toml --formfactor-only "${grid[@]}" --device cpu --precision single --quiet --output ff32.h5 ||
  fail "formfactor-only single failed"
$py - <<'PY' || fail "mesh results differ from the analytic box"
import h5py, numpy as np
a = h5py.File("mesh.h5")["intensity"][()]; b = h5py.File("box.h5")["intensity"][()]
assert np.max(np.abs(a - b) / np.maximum(b, 1e-300)) < 1e-9, "image"
f = h5py.File("ff.h5"); F = f["formfactor"][()]; F32 = h5py.File("ff32.h5")["formfactor"][()]
qx, qy, qz = (f[k][()] for k in ("qx", "qy", "qz"))
assert F.shape == (9, 7, 5) and F.dtype == np.complex128
X, Y, Z = np.meshgrid(qx, qy, qz, indexing="ij")
sinc = lambda x: np.sinc(x / np.pi)
exact = 10 * 15 * 5 * sinc(X * 5) * sinc(Y * 7.5) * sinc(Z * 2.5) * np.exp(1j * Z * 2.5)
V = 750.0
assert np.max(np.abs(F - exact)) < 1e-9 * V, np.max(np.abs(F - exact))
assert np.max(np.abs(F32 - exact)) < 1e-6 * V, np.max(np.abs(F32 - exact))
PY

inputs=$(ls | sort)
expect_error() {
  local expected=$1
  shift
  expect_cli_error "$expected" "$bin" gisaxs "$@" --output out.h5
}
expect_error "open.stl: triangle 2: has the edge 5–6 that no other triangle shares: the surface has a hole (it must be closed)" open.toml
expect_error "flipped.stl: triangle *" flipped.toml
expect_error "--qy: the grid has 0 points along this axis (need ≥ 1)" mesh.toml --formfactor-only --qx=0,1,2 --qy=0,1,0 --qz=0,1,2
expect_error "--qx: required with --formfactor-only: give min,max,n (nm⁻¹, points)" mesh.toml --formfactor-only --qy=0,1,2 --qz=0,1,2
expect_error "--max-device-memory: unknown unit 'X' (K, M, G: powers of 1024)" mesh.toml --max-device-memory 3X
echo "ok: mesh samples, form-factor volumes and bad meshes"
