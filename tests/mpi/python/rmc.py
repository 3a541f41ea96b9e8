"""RmcPlan(comm=world()) under mpirun: every rank gets all tiles, each
exactly as the single-process plan's (a tile's random numbers are keyed by
its global index: occupancies, χ² traces and statistics identical, limit 0),
with a multi-resolution stage; the directory written with output= is
rank 0's and holds the same numbers."""
import numpy as np
import nanoscatter as ns

world = ns.world()
n = 16
a = (np.random.default_rng(5).random((n, n)) < 0.3).astype(float)
target = np.fft.fftshift(np.abs(np.fft.fft2(a)) ** 2)
options = dict(loading=0.3, tiles=3, steps=1500, multires=1, seed=9, device="cpu", threads=1)
alone = ns.RmcPlan(target, **options).execute()
out = f"rmc_shared_{world.size}"
shared = ns.RmcPlan(target, comm=world, **options).execute(output=out)
assert len(shared.tiles) == len(alone.tiles) == 3
for t, (mine, one) in enumerate(zip(shared.tiles, alone.tiles)):
    np.testing.assert_array_equal(mine["occupancy"], one["occupancy"], err_msg=f"tile {t}")
    for key in ("chi2_initial", "chi2_final", "scale", "temperature", "tried", "accepted"):
        assert mine[key] == one[key], (t, key, mine[key], one[key])
np.testing.assert_array_equal(shared.trace_moves, alone.trace_moves)
np.testing.assert_array_equal(shared.trace, alone.trace)
if world.root:
    written = np.loadtxt(f"{out}/acceptance.dat", comments="#", ndmin=2)
    np.testing.assert_array_equal(written[:, 9], [t["chi2_final"] for t in alone.tiles])
print(f"ok {world.size} ranks (rank {world.rank}): rmc 3 tiles with a multi-resolution stage, identical")
