"""GisaxsPlan(comm=world()) under mpirun: every rank gets the whole image,
equal to the single-process plan's exactly (each pixel is computed by one
rank and merged without arithmetic), for analytic shapes under a
paracrystal and for a triangulated mesh (its form factors computed on each
rank's pixels only); the file written with output= is rank 0's and holds
the same numbers."""
import struct
import sys

import numpy as np
import nanoscatter as ns

world = ns.world()

HEAD = """
density = 0.002
[beam]
wavelength = 0.1
alpha_i = 0.3
[detector]
phi_f = { min = -1.0, max = 1.0, bins = 23 }
alpha_f = { min = 0.05, max = 1.5, bins = 19 }
[[layer]]
name = "vacuum"
[[layer]]
name = "substrate"
material = { delta = 6e-6, beta = 2e-8 }
"""
ANALYTIC = HEAD + """
[[particle]]
shape = "cylinder"
radius = 6.0
height = 4.0
material = { delta = 6e-4, beta = 2e-8 }
abundance = 0.7
distribution = { parameter = "radius", type = "gaussian", sigma = 0.5, samples = 3 }
[[particle]]
shape = "spheroid"
radius = 5.0
height = 8.0
material = { delta = 3e-4, beta = 1e-8 }
abundance = 0.3
[interference]
type = "radial_paracrystal"
peak_distance = 25.0
damping_length = 500.0
pdf = { type = "gauss", omega = 4.0 }
"""


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
MESH = HEAD + f"""
[[particle]]
shape = "mesh"
file = "{stl}"
scale = 20
material = {{ delta = 6e-4, beta = 2e-8 }}
layer = "vacuum"
"""

for name, text in (("analytic", ANALYTIC), ("mesh", MESH)):
    sample = ns.parse_sample(text, "gisaxs.toml")
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
