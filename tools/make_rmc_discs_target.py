#!/usr/bin/env python3
"""Writes examples/rmc/discs_64.h5, the small-angle image `nanoscatter rmc` fits in the
README and the guide: 30 discs of 13 lattice sites (|r|² ≤ 4) at random on
a periodic 64 × 64 lattice, centres at least 7 sites apart (390 occupied
sites, loading 390/4096 = 0.0952), and its image I = |FFT2(occupancy)|² with
q = 0 at the centre pixel (32, 32) (NumPy's fftshift, the rmc convention).

Datasets: /image (64 × 64 float64), /mask (1 = fit the pixel; 0 at q = 0,
which only counts the sites), /truth (the occupancy, uint8). The same
arrangement as `examples/rmc_fit/rmc_fit.py` (seed 5) draws for N = 64.

    /usr/bin/python3 tools/make_rmc_discs_target.py examples/rmc/discs_64.h5
"""
import sys

import h5py
import numpy as np


def disc_arrangement(n, discs, min_distance, seed, radius2=4):
    rng = np.random.default_rng(seed)
    occupancy = np.zeros((n, n), dtype=np.uint8)
    rows, cols = np.ogrid[:n, :n]
    centres = []
    for _ in range(1000 * discs):
        if len(centres) == discs:
            break
        c = rng.integers(0, n, 2)
        far = all(min(abs(c[0] - p[0]), n - abs(c[0] - p[0])) ** 2 +
                  min(abs(c[1] - p[1]), n - abs(c[1] - p[1])) ** 2 >= min_distance**2 for p in centres)
        if far:
            centres.append(c)
            dr, dc = (rows - c[0]) % n, (cols - c[1]) % n
            dr, dc = np.minimum(dr, n - dr), np.minimum(dc, n - dc)
            occupancy[dr**2 + dc**2 <= radius2] = 1
    if len(centres) < discs:
        raise RuntimeError("lattice too crowded for this distance")
    return occupancy


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "discs_64.h5"
    n = 64
    truth = disc_arrangement(n, 30, 7, seed=5)
    image = np.fft.fftshift(np.abs(np.fft.fft2(truth.astype(float))) ** 2)
    mask = np.ones((n, n), dtype=np.uint8)
    mask[n // 2, n // 2] = 0
    with h5py.File(path, "w", track_order=True) as f:
        for name, data in (("image", image), ("mask", mask), ("truth", truth)):
            f.create_dataset(name, data=data, track_times=False)
        f.attrs["description"] = "30 discs of 13 sites on a periodic 64x64 lattice; |FFT2|^2, q = 0 at (32, 32)"
        f.attrs["loading"] = truth.sum() / n**2
    print(f"{path}: {int(truth.sum())} occupied sites of {n * n}, loading {truth.sum() / n**2:.4f}")


if __name__ == "__main__":
    main()
