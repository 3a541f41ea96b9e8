#!/usr/bin/env python3
"""Single-crystal 2D diffraction pattern of a small crystal: a gold cube
(fcc, a = 4.078 Å, edge 24 Å) seen along [001] and along [111], X-rays of
λ = 0.2 Å on a polar detector out to |q| = 6 Å⁻¹ (Ewald sphere included).
The allowed fcc reflections perpendicular to the beam (h, k, l all even or
all odd, G ⟂ beam) are marked at their closed-form positions
q = (2π/a)(h, k, l); the third panel compares a line through the [001]
pattern with a NumPy amplitude sum f(|q|)² |Σ_j exp(i q·r_j)|² on the same q.

--quick: edge 16 Å, 128 × 180 detector points (instead of 256 × 360).

    PYTHONPATH=build/python /usr/bin/python3 examples/pattern2d_crystal/pattern2d_crystal.py [--quick] [--output-dir DIR]
"""
import argparse
import itertools
import os
import sys
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

A_AU = 4.078
WAVELENGTH = 0.2
QMAX = 6.0


def rotation_taking(u, v):
    """Proper rotation taking unit vector u onto v (Rodrigues)."""
    u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
    axis, c = np.cross(u, v), np.dot(u, v)
    s = np.linalg.norm(axis)
    if s < 1e-12:
        return np.eye(3)
    k = axis / s
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


def reflections(rotation):
    """fcc reciprocal-lattice points in the detector plane (after rotation), |G| ≤ QMAX."""
    points = []
    for h, k, l in itertools.product(range(-8, 9), repeat=3):
        if len({h % 2, k % 2, l % 2}) != 1 or (h, k, l) == (0, 0, 0):
            continue
        g = rotation @ (2 * np.pi / A_AU * np.array([h, k, l], float))
        if abs(g[2]) < 1e-9 and np.linalg.norm(g) <= QMAX:
            points.append(g[:2])
    return np.array(points)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output-dir", default="out/examples/pattern2d_crystal")
    args = parser.parse_args()
    os.makedirs(args.output_dir, exist_ok=True)
    edge, nq, nphi = (16.0, 128, 180) if args.quick else (24.0, 256, 360)
    crystal = ns.build(lattice="fcc", a=A_AU, elements="Au", shape="cube", edge=edge)
    print(f"Au cube, edge {edge:g} Å: {len(crystal)} atoms")

    fig, axes = plt.subplots(1, 3, figsize=(17, 5))
    zone_111 = rotation_taking(np.array([1.0, 1.0, 1.0]), np.array([0.0, 0.0, 1.0]))
    plan = ns.Pattern2DPlan(crystal)
    for ax, rotation, title in ((axes[0], np.eye(3), "[001]"), (axes[1], zone_111, "[111]")):
        result = plan.execute(wavelength=WAVELENGTH, qmax=QMAX, nq=nq, nphi=nphi, rotation=rotation)
        ns.plot.pattern2d(result, ax=ax, decades=5)
        g = reflections(rotation)
        ax.plot(g[:, 0], g[:, 1], "o", mfc="none", mec="c", ms=9, mew=0.8, label="fcc reflections G·beam = 0 (closed form)")
        ax.set_title(f"Au cube along {title}, λ = {WAVELENGTH} Å ({result.seconds:.2f} s)")
        ax.legend(loc="lower left", fontsize="small", framealpha=0.9)
        if title == "[001]":
            line = result

    # A line through the [001] pattern (φ = 0) against a NumPy amplitude sum.
    q = line.q[:, 0, :]
    f2 = ns.debye(ns.Structure(["Au"], np.zeros((1, 3))), q=np.linalg.norm(q, axis=1), device="cpu").intensity
    amplitude = np.exp(1j * q @ crystal.positions.T).sum(axis=1)
    numpy_sum = f2 * np.abs(amplitude) ** 2
    axes[2].semilogy(line.row_axis, line.intensity[:, 0], label="pattern2d, φ = 0")
    axes[2].semilogy(line.row_axis, numpy_sum, "k:", label="NumPy Σ f e^{iq·r} (float64)")
    axes[2].set_xlabel("|q| (Å⁻¹)")
    axes[2].set_ylabel("I (e²)")
    axes[2].set_title(f"line cut; max rel. difference {np.max(np.abs(line.intensity[:, 0] / numpy_sum - 1)):.1e}")
    for h in (2, 4):
        axes[2].axvline(2 * np.pi / A_AU * h, color="c", lw=0.8, ls="--")
    axes[2].legend(fontsize="small")
    fig.tight_layout()
    png = os.path.join(args.output_dir, "pattern2d_crystal.png")
    fig.savefig(png, dpi=100)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
