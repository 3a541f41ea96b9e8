#!/usr/bin/env python3
"""GISAXS in the DWBA: cylinders (R = H = 5 nm) on a substrate, from
examples/gisaxs/cylinders_on_substrate.toml, shown on angle (φ_f, α_f) and
q (q_y, q_z) axes with a log colour scale, and a triangulated particle.

Closed-form checks drawn on the plots:
 * the substrate's critical angle α_c = √(2δ) (the Yoneda band);
 * a cut at fixed α_f: for a cylinder F(q) = 2πR²H·J1(q∥R)/(q∥R)·g(q_z), so
   every DWBA term shares the q∥ factor and I/ΔΩ ∝ [2 J1(q∥R)/(q∥R)]² along
   the row, exactly.
Triangulated shape: a regular icosahedron. When the gisaxs sample format
takes triangle meshes (shape = "mesh"), the example writes the icosahedron as
an STL file and uses it; until then it uses the analytic `icosahedron` shape,
whose form factor is the same face/edge sum over its 20 triangles
(docs/gisaxs.md). The figure title says which one ran.

--quick: the same images (each takes well under a second); kept for the
test suite's uniform interface.

    PYTHONPATH=build/python /usr/bin/python3 examples/gisaxs_dwba/gisaxs_dwba.py [--quick] [--output-dir DIR]
"""
import argparse
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

HERE = Path(__file__).resolve().parent
CYLINDERS = HERE.parent / "gisaxs" / "cylinders_on_substrate.toml"

ICOSAHEDRON_SAMPLE = """
density = 0.01
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
type = "angular"
phi_f = {{ min = -2.0, max = 2.0, bins = 200 }}
alpha_f = {{ min = 0.0, max = 3.0, bins = 200 }}
[material.substrate]
delta = 6e-6
beta = 2e-8
[material.particle]
delta = 6e-4
beta = 2e-8
[[layer]]
name = "vacuum"
[[layer]]
name = "substrate"
material = "substrate"
[[particle]]
{shape}
material = "particle"
layer = "vacuum"
"""


def icosahedron_stl(path, edge):
    """A regular icosahedron of the given edge (nm) as an ASCII STL, outward normals."""
    phi = (1 + 5**0.5) / 2
    v = np.array([(-1, phi, 0), (1, phi, 0), (-1, -phi, 0), (1, -phi, 0), (0, -1, phi), (0, 1, phi),
                  (0, -1, -phi), (0, 1, -phi), (phi, 0, -1), (phi, 0, 1), (-phi, 0, -1), (-phi, 0, 1)], float)
    v *= edge / 2
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
             (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
             (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    with open(path, "w") as f:
        f.write("solid icosahedron\n")
        for a, b, c in faces:
            n = np.cross(v[b] - v[a], v[c] - v[a])
            if np.dot(n, v[a] + v[b] + v[c]) < 0:  # keep the normal outward
                b, c = c, b
                n = -n
            n /= np.linalg.norm(n)
            f.write(f"facet normal {n[0]:.9e} {n[1]:.9e} {n[2]:.9e}\n outer loop\n")
            for k in (a, b, c):
                f.write(f"  vertex {v[k, 0]:.9e} {v[k, 1]:.9e} {v[k, 2]:.9e}\n")
            f.write(" endloop\nendfacet\n")
        f.write("endsolid icosahedron\n")


def triangulated_sample(output_dir, edge=8.0):
    """The mesh sample when the format takes meshes, else the analytic icosahedron."""
    stl = os.path.join(output_dir, "icosahedron.stl")
    icosahedron_stl(stl, edge)
    mesh_shape = f'shape = "mesh"\nfile = "{stl}"'
    try:
        return ns.parse_sample(ICOSAHEDRON_SAMPLE.format(shape=mesh_shape), "icosahedron_mesh.toml"), "STL mesh (20 triangles)"
    except ns.Error:
        shape = f'shape = "icosahedron"\nedge = {edge}'
        return ns.parse_sample(ICOSAHEDRON_SAMPLE.format(shape=shape), "icosahedron.toml"), "analytic icosahedron (20 triangular faces)"


def bessel_j1(x):
    # J1(x) = (1/π) ∫_0^π cos(τ − x sin τ) dτ (trapezoidal rule, exact for this periodic integrand)
    tau = np.linspace(0, np.pi, 401)
    return np.trapz(np.cos(tau[None, :] - np.ravel(x)[:, None] * np.sin(tau)[None, :]), tau, axis=1) / np.pi


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--output-dir", default="out/examples/gisaxs_dwba")
    args = parser.parse_args()
    os.makedirs(args.output_dir, exist_ok=True)

    result = ns.gisaxs(CYLINDERS)
    print(f"cylinders: {result.intensity.shape[1]} x {result.intensity.shape[0]} pixels, {result.seconds:.3f} s")
    alpha_c = np.degrees(np.sqrt(2 * 6e-6))  # substrate δ = 6e-6

    fig, axes = plt.subplots(2, 2, figsize=(13, 10))
    ns.plot.gisaxs(result, ax=axes[0, 0], axes="angle")
    axes[0, 0].axhline(alpha_c, color="c", ls="--", lw=0.8, label=f"α_c = √(2δ) = {alpha_c:.3f}°")
    axes[0, 0].legend(loc="upper right", fontsize="small")
    axes[0, 0].set_title("cylinders R = H = 5 nm on a substrate, DWBA")
    ns.plot.gisaxs(result, ax=axes[0, 1], axes="q")
    axes[0, 1].set_title("the same image on q axes")

    row = int(np.argmin(np.abs(np.degrees(result.alpha_f[:, 0]) - 0.6)))
    q_par = np.hypot(result.qx[row], result.qy[row])
    measured = result.intensity[row] / result.solid_angle[row]
    x = q_par * 5.0
    closed = (2 * bessel_j1(x) / x) ** 2
    scale = measured[np.argmin(q_par)] / closed[np.argmin(q_par)]
    axes[1, 0].semilogy(np.degrees(result.phi_f[row]), measured, label="nanoscatter DWBA, I/ΔΩ")
    axes[1, 0].semilogy(np.degrees(result.phi_f[row]), scale * closed, "k:", label="[2J₁(q∥R)/(q∥R)]² (closed form)")
    deviation = np.max(np.abs(measured / (scale * closed) - 1))
    axes[1, 0].set_xlabel("φ_f (deg)")
    axes[1, 0].set_ylabel("I/ΔΩ (arb. units)")
    axes[1, 0].set_title(f"cut at α_f = {np.degrees(result.alpha_f[row, 0]):.3f}°; max rel. deviation {deviation:.1e}")
    axes[1, 0].legend(fontsize="small")
    print(f"cut at alpha_f = {np.degrees(result.alpha_f[row, 0]):.3f} deg: max |I/closed - 1| = {deviation:.2e}")

    sample, kind = triangulated_sample(args.output_dir)
    tri = ns.gisaxs(sample)
    print(f"triangulated particle: {kind}, {tri.seconds:.3f} s")
    ns.plot.gisaxs(tri, ax=axes[1, 1], axes="angle")
    axes[1, 1].axhline(alpha_c, color="c", ls="--", lw=0.8)
    axes[1, 1].set_title(f"icosahedron, edge 8 nm, DWBA: {kind}")
    fig.tight_layout()
    png = os.path.join(args.output_dir, "gisaxs_dwba.png")
    fig.savefig(png, dpi=100)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
