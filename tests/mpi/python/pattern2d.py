"""Pattern2DPlan(comm=world()) under mpirun: every rank gets the whole image
(intensity and amplitude) equal to the single-process plan's exactly (each
pixel is computed by one rank with the same code and the others add 0, as
the CLI's tests/mpi/pattern2d.sh checks); the file written with output= is
rank 0's and holds the same numbers."""
import numpy as np
import nanoscatter as ns

world = ns.world()
s = ns.build(lattice="fcc", a=4.078, elements="Au", shape="sphere", radius=9)
detectors = {
    "polar": dict(wavelength=1.0, qmax=4, nq=33, nphi=45, euler_zyz=(10, 20, 30)),
    "flat": dict(wavelength=1.0, flat=True, distance=100, pixel_size=2, nx=21, ny=17),
}
for name, geometry in detectors.items():
    alone = ns.Pattern2DPlan(s, amplitude=True, device="cpu").execute(**geometry)
    out = f"shared_{name}_{world.size}.dat"
    shared = ns.Pattern2DPlan(s, amplitude=True, device="cpu", comm=world).execute(output=out, **geometry)
    np.testing.assert_array_equal(shared.intensity, alone.intensity)
    np.testing.assert_array_equal(shared.amplitude, alone.amplitude)
    if world.root:
        written = np.loadtxt(out, comments="#")
        np.testing.assert_array_equal(written[:, 5], alone.intensity.ravel())
print(f"ok {world.size} ranks (rank {world.rank}): pattern2d polar and flat, exact")
