#!/usr/bin/env bash
# `nanoscatter gisaxs` under mpirun: pixel blocks dealt round-robin, merged
# on rank 0. Each pixel is computed as alone: the images must agree exactly
# (analytic shapes under a paracrystal, and a triangulated mesh).
set -u
source "$(dirname "$0")/lib.bash"

sample=$data/gisaxs/mixture_paracrystal.toml
[ -f "$sample" ] || fail "missing $sample"
"$bin" gisaxs "$sample" --output one.h5 --text one.txt --quiet || fail "alone failed"
for np in 2 4; do
  mpi $np gisaxs "$sample" --output np$np.h5 --text np$np.txt 2> log$np.txt || fail "np $np: $(cat log$np.txt)"
  load_report log$np.txt $np
  same_h5 np$np.h5 one.h5 0
  same_numbers np$np.txt one.txt 0
done
# A triangulated mesh (a box as binary STL) on a smaller copy of the
# benchmark detector: mesh form factors are computed per pixel block too.
$py - <<'PY' || fail "could not write the mesh"
import struct
a, b, c = 0.25, 0.375, 0.25
v = [(-a,-b,0),(a,-b,0),(a,b,0),(-a,b,0),(-a,-b,c),(a,-b,c),(a,b,c),(-a,b,c)]
quads = [(0,3,2,1),(4,5,6,7),(0,1,5,4),(1,2,6,5),(2,3,7,6),(3,0,4,7)]
tris = [t for q in quads for t in ((q[0],q[1],q[2]),(q[0],q[2],q[3]))]
with open("box.stl", "wb") as f:
    f.write(b"\0" * 80 + struct.pack("<I", len(tris)))
    for t in tris:
        f.write(struct.pack("<3f", 0, 0, 0))
        for i in t: f.write(struct.pack("<3f", *v[i]))
        f.write(b"\0\0")
PY
sed -e '/^\[\[particle\]\]/,$d' -e 's/bins = 200/bins = 40/' "$data/gisaxs/benchmark_cylinders.toml" > mesh.toml
printf '[[particle]]\nshape = "mesh"\nfile = "box.stl"\nscale = 20\nmaterial = "particle"\nlayer = "vacuum"\n' >> mesh.toml
"$bin" gisaxs mesh.toml --device cpu --output mesh_one.h5 --quiet || fail "mesh alone failed"
for np in 2 4; do
  mpi $np gisaxs mesh.toml --device cpu --output mesh_np$np.h5 --quiet || fail "mesh np $np"
  same_h5 mesh_np$np.h5 mesh_one.h5 0
done
# --formfactor-only: slabs of qx planes per rank, gathered on rank 0 (the
# second grid has fewer planes than ranks: one rank computes nothing).
for qx in -1,1,7 -1,1,3; do
  ff=(gisaxs mesh.toml --formfactor-only --qx "$qx" --qy -1,1,5 --qz 0,2,4 --device cpu)
  "$bin" "${ff[@]}" --output ff_one.h5 --quiet || fail "formfactor alone failed"
  for np in 2 4; do
    rm -f ff_np$np.h5
    mpi $np "${ff[@]}" --output ff_np$np.h5 2> fflog$np.txt || fail "formfactor np $np: $(cat fflog$np.txt)"
    load_report fflog$np.txt $np
    same_h5 ff_np$np.h5 ff_one.h5 0
  done
done
echo "ok: gisaxs under mpirun -np 2 and 4 equals the single process"
