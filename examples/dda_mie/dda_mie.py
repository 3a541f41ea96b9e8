#!/usr/bin/env python3
"""DDA sphere against Mie theory: a sphere of size parameter x = ka = 3 and
refractive index m = 1.5 + 0.02i (λ = 2π, so a = 3) as dipoles on cubic
grids of increasing resolution. Left: Qext against the grid with the exact
Mie value; middle and right: the Mueller elements S11(θ) (log scale) and
−S12/S11(θ) in the scattering plane next to Mie (Bohren & Huffman eq. 4.77).

Full: grids 8 … 64 (Mueller from 64, 137 376 dipoles), a few seconds on 2 cores.
--quick: grids 8, 12, 16 (Mueller from 16), under a second.

    PYTHONPATH=build/python /usr/bin/python3 examples/dda_mie/dda_mie.py [--quick] [--output-dir DIR]
"""
import argparse
import os
import sys
import time
from pathlib import Path

try:
    import nanoscatter as ns
except ImportError:  # run from a checkout with the default build directory
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "build" / "python"))
    import nanoscatter as ns
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

X = 3.0
M = complex(1.5, 0.02)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output-dir", default="out/examples/dda_mie")
    args = parser.parse_args()
    os.makedirs(args.output_dir, exist_ok=True)
    grids = (8, 12, 16) if args.quick else (8, 12, 16, 24, 32, 48, 64)

    theta = np.linspace(0, 180, 361)
    exact = ns.mie(x=X, m=M, theta=theta)
    print(f"Mie: Qext = {exact.qext:.6f}, Qsca = {exact.qsca:.6f}")
    qext = []
    for grid in grids:
        start = time.time()
        last = grid == grids[-1]
        r = ns.dda(shape="sphere", grid=grid, eq_rad=X, m=M, mueller=last, ntheta=91 if last else 0)
        qext.append(r.qext)
        print(f"grid {grid:3d}: {r.dipoles:6d} dipoles, Qext = {r.qext:.6f} "
              f"(error {r.qext / exact.qext - 1:+.2e}), {r.runs[0]['iterations']} iterations, {time.time() - start:.1f} s")
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6))
    axes[0].plot(grids, qext, "o-", label="DDA (LDR, volume-corrected)")
    axes[0].axhline(exact.qext, color="k", ls=":", label=f"Mie Qext = {exact.qext:.5f}")
    axes[0].set_xlabel("dipoles along the diameter")
    axes[0].set_ylabel("Qext")
    axes[0].set_title(f"sphere x = {X:g}, m = {M.real:g}{M.imag:+g}i")
    axes[0].legend(fontsize="small")
    ns.plot.mueller(r, elements=("s11", "-s12/s11"), reference=exact, axes=axes[1:], label=f"DDA grid {grids[-1]}")
    axes[1].set_title("S11(θ), yz scattering plane")
    axes[2].set_title("degree of linear polarisation −S12/S11")
    fig.tight_layout()
    png = os.path.join(args.output_dir, "dda_mie.png")
    fig.savefig(png, dpi=100)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
