#!/usr/bin/env python3
"""GISAXS in the DWBA: cylinders (R = H = 5 nm) on a substrate, from
examples/gisaxs/cylinders_on_substrate.toml, shown on angle (φ_f, α_f) and
q (q_y, q_z) axes with a log colour scale, and a triangulated particle.

Closed-form checks drawn on the plots:
 * the substrate's critical angle α_c = √(2δ) (the Yoneda band);
 * a cut at fixed α_f: for a cylinder F(q) = 2πR²H·J1(q∥R)/(q∥R)·g(q_z), so
   every DWBA term shares the q∥ factor and I/ΔΩ ∝ [2 J1(q∥R)/(q∥R)]² along
   the row, exactly.
Triangulated shape: a sphere of radius 5 nm approximated by an icosphere
(the icosahedron with each triangle subdivided four ways, repeatedly, and
the vertices pushed onto the sphere; 1280 triangles), written as an STL file
and read through the sample format's `shape = "mesh"`. Its image is drawn
next to a cut compared with the closed-form sphere of the same volume. If
the sample format has no meshes (an older build), the example falls back
to the analytic `icosahedron` shape (a polyhedron of 20 triangular faces)
and says so in the title.

--quick: the cylinders as in full mode (under a second); the icosphere with
320 triangles on a 100 × 100 detector instead of 1280 on 200 × 200.

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

PARTICLE_SAMPLE = """
density = 0.01
[beam]
wavelength = 0.1
alpha_i = 0.2
[detector]
type = "angular"
phi_f = {{ min = -2.0, max = 2.0, bins = {bins} }}
alpha_f = {{ min = 0.0, max = 3.0, bins = {bins} }}
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


def icosphere(subdivisions, radius):
    """Vertices and outward triangles of a subdivided icosahedron on a sphere."""
    phi = (1 + 5**0.5) / 2
    v = [np.array(p, float) for p in ((-1, phi, 0), (1, phi, 0), (-1, -phi, 0), (1, -phi, 0), (0, -1, phi),
                                      (0, 1, phi), (0, -1, -phi), (0, 1, -phi), (phi, 0, -1), (phi, 0, 1),
                                      (-phi, 0, -1), (-phi, 0, 1))]
    faces = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2),
             (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11),
             (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    v = [p / np.linalg.norm(p) for p in v]
    for _ in range(subdivisions):
        midpoint = {}

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in midpoint:
                m = v[a] + v[b]
                v.append(m / np.linalg.norm(m))
                midpoint[key] = len(v) - 1
            return midpoint[key]

        faces = [t for a, b, c in faces
                 for t in ((a, mid(a, b), mid(c, a)), (b, mid(b, c), mid(a, b)), (c, mid(c, a), mid(b, c)),
                           (mid(a, b), mid(b, c), mid(c, a)))]
    return np.array(v) * radius, faces


def write_stl(path, vertices, faces):
    """ASCII STL with outward normals (triangles flipped where needed)."""
    with open(path, "w") as f:
        f.write("solid icosphere\n")
        for a, b, c in faces:
            n = np.cross(vertices[b] - vertices[a], vertices[c] - vertices[a])
            if np.dot(n, vertices[a] + vertices[b] + vertices[c]) < 0:
                b, c, n = c, b, -n
            n = n / np.linalg.norm(n)
            f.write(f"facet normal {n[0]:.9e} {n[1]:.9e} {n[2]:.9e}\n outer loop\n")
            for k in (a, b, c):
                f.write(f"  vertex {vertices[k, 0]:.12e} {vertices[k, 1]:.12e} {vertices[k, 2]:.12e}\n")
            f.write(" endloop\nendfacet\n")
        f.write("endsolid icosphere\n")


def mesh_volume(vertices, faces):
    return sum(abs(np.dot(vertices[a], np.cross(vertices[b], vertices[c]))) for a, b, c in faces) / 6


def triangulated_sample(output_dir, subdivisions, bins, radius=5.0):
    """(sample, description, equal-volume sphere radius or None) for the mesh
    sphere, or the analytic icosahedron where the format has no meshes."""
    vertices, faces = icosphere(subdivisions, radius)
    stl = os.path.abspath(os.path.join(output_dir, "icosphere.stl"))
    write_stl(stl, vertices, faces)
    r_equal = (3 * mesh_volume(vertices, faces) / (4 * np.pi)) ** (1 / 3)
    mesh_shape = f'shape = "mesh"\nfile = "{stl}"'
    try:
        sample = ns.parse_sample(PARTICLE_SAMPLE.format(shape=mesh_shape, bins=bins), "icosphere_mesh.toml")
        return sample, f"STL icosphere, {len(faces)} triangles", r_equal
    except ns.Error as e:
        print(f"no mesh support in this build ({e}); using the analytic icosahedron")
        shape = 'shape = "icosahedron"\nedge = 8.0'
        return ns.parse_sample(PARTICLE_SAMPLE.format(shape=shape, bins=bins), "icosahedron.toml"), \
            "analytic icosahedron, 20 triangular faces (no mesh support)", None


def sphere_sample(radius, bins):
    return ns.parse_sample(PARTICLE_SAMPLE.format(shape=f'shape = "sphere"\nradius = {radius}', bins=bins),
                           "sphere.toml")


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

    subdivisions, bins = (2, 100) if args.quick else (3, 200)
    sample, kind, r_equal = triangulated_sample(args.output_dir, subdivisions, bins)
    tri = ns.gisaxs(sample)
    print(f"triangulated particle: {kind}, {tri.seconds:.2f} s")
    ns.plot.gisaxs(tri, ax=axes[1, 1], axes="angle")
    axes[1, 1].axhline(alpha_c, color="c", ls="--", lw=0.8)
    axes[1, 1].set_title(f"DWBA: {kind}")
    if r_equal is not None:
        # The mesh sphere against the analytic sphere of equal volume, along α_f at φ_f ≈ 0.5°.
        sphere = ns.gisaxs(sphere_sample(r_equal, bins))
        col = int(np.argmin(np.abs(np.degrees(tri.phi_f[0]) - 0.5)))
        inset = axes[1, 1].inset_axes([0.58, 0.58, 0.4, 0.38])
        inset.semilogy(np.degrees(tri.alpha_f[:, col]), tri.intensity[:, col], lw=1, label="mesh")
        inset.semilogy(np.degrees(sphere.alpha_f[:, col]), sphere.intensity[:, col], "w:", lw=1,
                       label=f"sphere R = {r_equal:.3f} nm")
        inset.set_xlabel("α_f (deg) at φ_f = 0.5°", fontsize=7, color="w")
        inset.tick_params(labelsize=6, colors="w")
        inset.patch.set_alpha(0.3)
        inset.legend(fontsize=6, labelcolor="w", framealpha=0.2)
        low = np.abs(tri.qz[:, col]) * r_equal < 2  # where the facets do not matter yet
        dev = np.max(np.abs(tri.intensity[low, col] / sphere.intensity[low, col] - 1))
        print(f"mesh vs equal-volume sphere where |q_z| R < 2: max relative difference {dev:.2e}")
    fig.tight_layout()
    png = os.path.join(args.output_dir, "gisaxs_dwba.png")
    fig.savefig(png, dpi=100)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
