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
import importlib.util
import sys
from pathlib import Path

import h5py
import numpy as np


def _rmc_fit_example():
    """examples/rmc_fit/rmc_fit.py as a module: its disc_arrangement draws the target."""
    path = Path(__file__).resolve().parents[1] / "examples" / "rmc_fit" / "rmc_fit.py"
    spec = importlib.util.spec_from_file_location("rmc_fit_example", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "discs_64.h5"
    n = 64
    truth = _rmc_fit_example().disc_arrangement(n, 30, 7, seed=5)
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
