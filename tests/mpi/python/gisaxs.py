"""GisaxsPlan(comm=world()) under mpirun: every rank gets the whole image,
equal to the single-process plan's exactly (each pixel is computed by one
rank and merged without arithmetic), for analytic shapes under a
paracrystal and for a triangulated mesh (its form factors computed on each
rank's pixels only); the file written with output= is rank 0's and holds
the same numbers."""
import struct
import sys
from pathlib import Path

import numpy as np
import nanoscatter as ns

world = ns.world()

# Cylinders (70 %) and spheroids under a radial paracrystal, 14 x 40 pixels.
MIXTURE = Path(__file__).resolve().parents[2] / "data" / "gisaxs" / "mixture_paracrystal.toml"


def box_stl(name):
    """A box 10 x 15 x 5 nm (file units x 20) as binary STL."""
    a, b, c = 0.25, 0.375, 0.25
    v = [(-a, -b, 0), (a, -b, 0), (a, b, 0), (-a, b, 0), (-a, -b, c), (a, -b, c), (a, b, c), (-a, b, c)]
    quads = [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)]
    tris = [t for q in quads for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3]))]
    with open(name, "wb") as f:
        f.write(b"\0" * 80 + struct.pack("<I", len(tris)))
        for t in tris:
            f.write(struct.pack("<3f", 0, 0, 0))
            for i in t:
                f.write(struct.pack("<3f", *v[i]))
            f.write(b"\0\0")


stl = f"box_{world.size}_{world.rank}.stl"  # one file per rank: no two ranks write one file
box_stl(stl)
text = MIXTURE.read_text()
MESH = text[:text.index("[[particle]]")] + f"""
[[particle]]
shape = "mesh"
file = "{stl}"
scale = 20
material = {{ delta = 6e-4, beta = 2e-8 }}
"""

for name, sample in (("analytic", ns.read_sample(str(MIXTURE))), ("mesh", ns.parse_sample(MESH, "mesh.toml"))):
    for approximation in ("dwba", "born"):
        alone = ns.GisaxsPlan(sample, approximation=approximation, device="cpu").execute()
        out = f"shared_{name}_{approximation}_{world.size}.txt"
        shared = ns.GisaxsPlan(sample, approximation=approximation, device="cpu", comm=world).execute(output=out)
        np.testing.assert_array_equal(shared.intensity, alone.intensity)
        if world.root:
            written = np.loadtxt(out, comments="#")
            np.testing.assert_array_equal(written.T, alone.intensity)  # %.16e: 17 digits round-trip
# One write per rank, flushed: the ranks' lines reach mpirun whole.
sys.stdout.write(f"ok {world.size} ranks (rank {world.rank}): gisaxs analytic and mesh, dwba and born, exact\n")
sys.stdout.flush()
