#!/usr/bin/python3
"""Independent reference implementations for the gisaxs engine's tests.

Run with Debian's /usr/bin/python3 (numpy; mpmath only for `special-values`).

  gisaxs_reference.py image SAMPLE.toml OUT.txt [--approximation dwba|born]
      The detector image of a sample file, written as text in the engine's
      layout (rows = phi_f bins, columns = alpha_f bins). Implemented from the
      formulas of the issue, independently of the C++ code:
        * angular detectors only (bins from {min, max, bins} or *_edges);
        * layers from the ambient to the substrate; fields from the full 2x2
          transfer-matrix product from the substrate upwards (Abeles), with
          Nevot-Croce factors -- not Parratt's ratio recursion;
        * particles: cylinder (J1 from the trapezoidal rule on Bessel's
          integral, vectorised), sphere, box, spheroid; any layer and depth;
        * interference: none, or radial_paracrystal with a gauss/cauchy pdf
          (infinite domain); several particles: decoupling approximation.
      I = rho |(pi/lambda^2)(n_p^2 - n_layer^2) F_DWBA|^2 dOmega / sin(alpha_i).

  gisaxs_reference.py special-values OUT.txt
      High-precision (mpmath, 40 digits) values of J1(z)/z for complex z, of
      the sphere amplitude, of the tetrahedron/box/icosahedron form factors at
      |q| from 1e-8 to 1e2 (exact face-by-face sums in 40-digit arithmetic),
      and of Fresnel coefficients, for tests/data/gisaxs/special_values.txt.

  gisaxs_reference.py bornagain SAMPLE.toml OUT.txt
      The same image from BornAgain 1.19 (python3-bornagain), for manual
      comparison only; never needed by the build or the tests.

  gisaxs_reference.py bornagain-suite NANOSCATTER_BINARY [WORKDIR]
      Runs a set of samples (every shape, rotations, interference functions,
      size distributions, mixtures, core-shell, phi_i, a rough multilayer with
      buried particles, a flat detector) through nanoscatter and through
      BornAgain 1.19 and prints the mean and max relative differences.
"""
import argparse
import math
import sys
import tomllib

import numpy as np

DEG = math.pi / 180.0
HC_KEV_NM = 1.2398419843320026  # CODATA 2018 (exact SI), as include/nanoscatter/constants.hpp


# ---------------------------------------------------------------- sample file
def axis_edges(table, key, scale):
    if key + "_edges" in table:
        return np.array(table[key + "_edges"], dtype=float) * scale
    a = table[key]
    return np.linspace(a["min"], a["max"], a["bins"] + 1) * scale


def material_of(value, named):
    if isinstance(value, str):
        if value == "vacuum" and value not in named:
            return 0.0, 0.0
        value = named[value]
    if "formula" in value:
        raise SystemExit("reference: formula materials need xraylib; give delta/beta")
    return float(value["delta"]), float(value.get("beta", 0.0))


def read_sample(path):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    beam = doc["beam"]
    wavelength = beam["wavelength"] if "wavelength" in beam else HC_KEV_NM / beam["energy"]
    if beam.get("phi_i", 0.0) != 0.0:
        raise SystemExit("reference: phi_i must be 0")
    det = doc["detector"]
    if det.get("type", "angular") != "angular":
        raise SystemExit("reference: angular detectors only")
    named = doc.get("material", {})
    layers = []
    for i, l in enumerate(doc["layer"]):
        if "material" in l:
            d, b = material_of(l["material"], named)
        else:
            d, b = 0.0, 0.0
        layers.append(dict(name=l.get("name", ""), delta=d, beta=b,
                           thickness=l.get("thickness", 0.0), roughness=l.get("roughness", 0.0)))
    particles = []
    for p in doc["particle"]:
        d, b = material_of(p["material"], named)
        layer = p.get("layer", 0)
        if isinstance(layer, str):
            layer = [l["name"] for l in layers].index(layer)
        if "rotation" in p or "distribution" in p:
            raise SystemExit("reference: no rotations or distributions")
        particles.append(dict(p, delta=d, beta=b, layer=layer, depth=p.get("depth", 0.0),
                              abundance=p.get("abundance", 1.0)))
    interference = doc.get("interference", {"type": "none"})
    return dict(wavelength=wavelength, alpha_i=beam["alpha_i"] * DEG, intensity=beam.get("intensity", 1.0),
                phi_edges=axis_edges(det, "phi_f", DEG), alpha_edges=axis_edges(det, "alpha_f", DEG),
                layers=layers, particles=particles, density=doc["density"], interference=interference)


# ------------------------------------------------------------ multilayer
def n2_minus_1(layer):
    """n^2 - 1 = (n - 1)(n + 1), without the cancellation of n*n - 1."""
    return (-layer["delta"] + 1j * layer["beta"]) * (2 - layer["delta"] + 1j * layer["beta"])


def layer_kz(layers, k, alpha):
    """k_z,j = k sqrt(n_j^2 - cos^2 alpha), principal branch, with the sign of
    alpha (below the horizon every k_z of the outgoing wave changes sign, which
    continues the DWBA formula there as BornAgain does); alpha may be an array."""
    s2 = np.sin(alpha) ** 2
    sign = np.where(np.asarray(alpha) < 0, -1.0, 1.0)
    return [sign * k * np.sqrt(n2_minus_1(l) + s2 + 0j) for l in layers]


def fields(layers, k, alpha):
    """(kz, T, R) per layer at its top (ambient: at z = 0), T_0 = 1, by multiplying
    2x2 interface and propagation matrices from the substrate upwards."""
    kz = layer_kz(layers, k, alpha)
    n = len(layers)
    shape = np.shape(alpha)
    D = [None] * n
    U = [None] * n
    D[n - 1] = np.ones(shape, complex)
    U[n - 1] = np.zeros(shape, complex)
    for j in range(n - 2, -1, -1):
        ka, kb = kz[j], kz[j + 1]
        sigma = layers[j + 1]["roughness"]
        same = np.exp(-(ka - kb) ** 2 * sigma ** 2 / 2)
        cross = np.exp(-(ka + kb) ** 2 * sigma ** 2 / 2)
        # amplitudes just above the interface (bottom of layer j)
        d_bottom = ((ka + kb) * same * D[j + 1] + (ka - kb) * cross * U[j + 1]) / (2 * ka)
        u_bottom = ((ka - kb) * cross * D[j + 1] + (ka + kb) * same * U[j + 1]) / (2 * ka)
        d = layers[j]["thickness"] if j > 0 else 0.0
        D[j] = d_bottom * np.exp(-1j * ka * d)
        U[j] = u_bottom * np.exp(1j * ka * d)
    t0 = D[0]
    return [(kz[j], D[j] / t0, U[j] / t0) for j in range(n)]


# ------------------------------------------------------------ form factors
def bessel_j1(x):
    """J1 for real x from Bessel's integral (1/pi) int_0^pi cos(t - x sin t) dt with
    the M-interval trapezoidal rule (exact to rounding for |x| << M)."""
    m = 256
    t = np.pi * np.arange(1, m) / m
    x = np.asarray(x, float)
    return np.cos(t[None, :] - x.reshape(-1, 1) * np.sin(t)[None, :]).sum(axis=1).reshape(x.shape) / m


def j1_over_x(x):
    x = np.asarray(x, float)
    small = np.abs(x) < 1e-3
    safe = np.where(small, 1.0, x)
    return np.where(small, 0.5 - x * x / 16, bessel_j1(safe) / safe)


def sinc(z):
    small = np.abs(z) < 1e-4
    safe = np.where(small, 1.0, z)
    return np.where(small, 1 - z * z / 6, np.sin(safe) / safe)


def sphere_amplitude(x):
    small = np.abs(x) < 0.1
    safe = np.where(small, 1.0, x)
    x2 = x * x
    series = 1 - x2 / 10 + x2 ** 2 / 280 - x2 ** 3 / 15120 + x2 ** 4 / 1330560
    return np.where(small, series, 3 * (np.sin(safe) - safe * np.cos(safe)) / safe ** 3)


def form_factor(p, qx, qy, qz):
    shape = p["shape"]
    if shape == "cylinder":
        r, h = p["radius"], p["height"]
        qpar = np.sqrt(qx * qx + qy * qy)
        return 2 * np.pi * r * r * h * j1_over_x(qpar * r) * sinc(qz * h / 2) * np.exp(0.5j * qz * h)
    if shape == "sphere":
        r = p["radius"]
        q = np.sqrt(qx * qx + qy * qy + qz * qz + 0j)
        return 4 / 3 * np.pi * r ** 3 * sphere_amplitude(q * r) * np.exp(1j * qz * r)
    if shape == "spheroid":
        r, c = p["radius"], p["height"] / 2
        x = np.sqrt(r * r * (qx * qx + qy * qy) + c * c * qz * qz + 0j)
        return 4 / 3 * np.pi * r * r * c * sphere_amplitude(x) * np.exp(1j * qz * c)
    if shape == "box":
        a, b, h = p["length"], p["width"], p["height"]
        return a * b * h * sinc(qx * a / 2) * sinc(qy * b / 2) * sinc(qz * h / 2) * np.exp(0.5j * qz * h)
    raise SystemExit("reference: unsupported shape " + shape)


# ------------------------------------------------------------ interference
def structure_factor(spec, qx, qy):
    kind = spec.get("type", "none")
    if kind == "none":
        return np.ones_like(qx)
    if kind == "radial_paracrystal":
        if spec.get("domain_size", 0) != 0:
            raise SystemExit("reference: infinite domains only")
        d = spec["peak_distance"]
        q = np.hypot(qx, qy)
        w = spec["pdf"]["omega"]
        phi = np.exp(-(q * w) ** 2 / 2) if spec["pdf"]["type"] == "gauss" else 1 / (1 + (q * w) ** 2)
        lam = spec.get("damping_length", 0.0)
        p = phi * np.exp(1j * q * d) * (np.exp(-d / lam) if lam > 0 else 1.0)
        return ((1 + p) / (1 - p)).real
    raise SystemExit("reference: unsupported interference " + kind)


# ------------------------------------------------------------ the image
def image(sample, approximation):
    lam = sample["wavelength"]
    k = 2 * np.pi / lam
    ai = sample["alpha_i"]
    pe, ae = sample["phi_edges"], sample["alpha_edges"]
    phi = 0.5 * (pe[1:] + pe[:-1])
    alpha = 0.5 * (ae[1:] + ae[:-1])
    A, P = np.meshgrid(alpha, phi, indexing="ij")  # rows alpha, columns phi
    omega = np.abs(np.outer(np.sin(ae[1:]) - np.sin(ae[:-1]), pe[1:] - pe[:-1]))
    # q = k_i - k_f, k_i = k(cos ai, 0, -sin ai), k_f = k(cos af cos pf, -cos af sin pf, sin af)
    qx = k * (np.cos(ai) - np.cos(A) * np.cos(P))
    qy = k * (np.cos(A) * np.sin(P))
    qz_vac = k * (-np.sin(ai) - np.sin(A))
    layers = sample["layers"]
    f_in = fields(layers, k, np.array(ai))
    f_out = fields(layers, k, A)
    weights = np.array([p["abundance"] for p in sample["particles"]], float)
    weights /= weights.sum()
    incoherent = np.zeros(A.shape)
    coherent = np.zeros(A.shape, complex)
    for p, w in zip(sample["particles"], weights):
        j = p["layer"]
        n_p2m1 = n2_minus_1(p)
        contrast = np.pi / lam ** 2 * (n_p2m1 - n2_minus_1(layers[j]))
        if approximation == "born":
            paths = [(1.0, qz_vac)]
        else:
            ki, ti, ri = f_in[j]
            kf, tf, rf = f_out[j]
            paths = [(ti * tf, -ki - kf), (ri * tf, ki - kf), (ti * rf, -ki + kf), (ri * rf, ki + kf)]
        amp = 0
        for coef, qz in paths:
            amp = amp + coef * np.exp(-1j * qz * p["depth"]) * form_factor(p, qx, qy, qz)
        amp = contrast * amp
        incoherent += w * np.abs(amp) ** 2
        coherent += w * amp
    s = structure_factor(sample["interference"], qx, qy)
    intensity = sample["density"] * (incoherent + np.abs(coherent) ** 2 * (s - 1))
    return intensity * omega * sample["intensity"] / np.sin(ai)


def write_image(path, img, header):
    with open(path, "w") as f:
        for line in header:
            f.write("# " + line + "\n")
        for row in img.T:  # rows = phi_f bins, columns = alpha_f bins
            f.write("  ".join("%.17e" % v for v in row) + "\n")


# ------------------------------------------------------------ mpmath values
def special_values(path):
    import mpmath as mp
    mp.mp.dps = 40
    out = []

    def fmt(z):
        # Arguments are doubles (printed to round-trip exactly); values get 20 digits.
        z = mp.mpc(z)
        return "%s %s" % (mp.nstr(z.real, 20, min_fixed=-1, max_fixed=-1), mp.nstr(z.imag, 20, min_fixed=-1, max_fixed=-1))

    def arg(z):
        z = complex(z)
        return "%r %r" % (z.real, z.imag)

    # J1(z)/z: real and complex arguments across the three regimes of the C++ code.
    for zr, zi in [(1e-8, 0), (0.3, 0), (2.5, 0), (7.9, 0), (8.1, 0), (15, 0), (24.9, 0), (25.1, 0), (60, 0),
                   (400, 0), (3000, 0), (0.5, 0.3), (5, -2), (7.5, 1.5), (9, 0.5), (-12, 3), (20, -4),
                   (26, 2), (80, 5), (300, -0.7), (1e-6, 1e-6)] + [
                   # both sides of the C++ branch boundaries |z| = 8 and 25
                   (r * math.cos(a), r * math.sin(a)) for r in (8 - 1e-9, 8 + 1e-9, 25 - 1e-9, 25 + 1e-9)
                   for a in (0.1, 0.7, 1.3)] + [
                   # the real axis densely: the C++ Chebyshev table on [1, 25]
                   (0.37 + 0.6113 * i, 0) for i in range(41)]:
        z = mp.mpc(float(zr), float(zi))
        out.append("j1c %s %s" % (arg(z), fmt(mp.besselj(1, z) / z)))
    # sphere amplitude 3 (sin x - x cos x)/x^3
    for xr, xi in [(1e-7, 0), (1e-3, 0), (0.2, 0.01), (0.99, 0), (1.01, 0.2), (5, 0), (40, -1), (500, 0)]:
        x = mp.mpc(float(xr), float(xi))
        out.append("sphere_amp %s %s" % (arg(x), fmt(3 * (mp.sin(x) - x * mp.cos(x)) / x ** 3)))
    # Polyhedra: exact transform from the face/edge formula in 40 digits, where
    # no cancellation matters: F = -i/(q.q) sum_f (q.n_f) Phi_f, Phi_f from the
    # 2D divergence theorem with w = q_par (bilinear; fine for the real and
    # mildly complex q below).
    shapes = {
        "box": box_vertices(mp, 4, 6, 3),
        "tetrahedron": [(mp.mpf(0), mp.mpf(0), mp.mpf(0)), (mp.mpf(6), mp.mpf(0), mp.mpf(0)),
                        (mp.mpf(1), mp.mpf(5), mp.mpf(0)), (mp.mpf(2), mp.mpf(1), mp.mpf(4))],
    }
    directions = [(0.3, 0.5, 0.81), (1, 0, 0), (0, 0, 1), (0.6, -0.7, 0.2), (0.01, 0.02, 1)]
    for name, verts in shapes.items():
        faces = convex_faces(mp, verts)
        for mag in ["1e-8", "1e-5", "1e-3", "0.03", "0.2", "1", "7", "30", "100"]:
            for d in directions:
                for imag in [0, 0.01]:
                    # q as doubles (exactly what the C++ test reads back), then exact in mp.
                    norm = math.sqrt(sum(c * c for c in d))
                    q = [mp.mpc(float(mag) * c / norm, imag * float(mag) * c / norm) for c in d]
                    out.append("poly_%s %s %s %s %s" % (name, arg(q[0]), arg(q[1]), arg(q[2]),
                                                        fmt(polyhedron_ff(mp, faces, q))))
    # Fresnel r at and around the critical angle, substrate delta 6e-6, beta 2e-8 (and 0).
    for beta in ["0", "2e-8"]:
        n = 1 - mp.mpf("6e-6") + 1j * mp.mpf(beta)
        ac = mp.acos(1 - mp.mpf("6e-6"))
        for a in [ac, ac * mp.mpf("0.5"), ac * 2, mp.mpf("0.2") * mp.pi / 180]:
            a = mp.mpf(float(a))
            kz0 = mp.sin(a)
            kz1 = mp.sqrt(n * n - mp.cos(a) ** 2)
            out.append("fresnel %s %r %s" % (beta, float(a), fmt((kz0 - kz1) / (kz0 + kz1))))
    with open(path, "w") as f:
        f.write("# generated by tools/gisaxs_reference.py special-values (mpmath %s, 40 digits)\n" % mp.__version__)
        f.write("# j1c z_re z_im value_re value_im | sphere_amp x_re x_im v_re v_im |\n")
        f.write("# poly_<shape> qx_re qx_im qy_re qy_im qz_re qz_im F_re F_im | fresnel beta alpha r_re r_im\n")
        f.write("# box: 4 x 6 x 3 nm from the origin; tetrahedron: (0,0,0) (6,0,0) (1,5,0) (2,1,4) nm\n")
        for line in out:
            f.write(line + "\n")


def box_vertices(mp, a, b, c):
    return [(mp.mpf(x), mp.mpf(y), mp.mpf(z)) for x in (0, a) for y in (0, b) for z in (0, c)]


def convex_faces(mp, verts):
    """Faces of the convex hull as vertex lists, counter-clockwise from outside."""
    faces = []
    n = len(verts)
    sub = lambda a, b: [a[i] - b[i] for i in range(3)]
    crs = lambda a, b: [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    dot = lambda a, b: sum(a[i] * b[i] for i in range(3))
    seen = []
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                nrm = crs(sub(verts[j], verts[i]), sub(verts[k], verts[i]))
                if dot(nrm, nrm) == 0:
                    continue
                off = dot(nrm, verts[i])
                s = [dot(nrm, v) - off for v in verts]
                if all(x <= 0 for x in s):
                    pass
                elif all(x >= 0 for x in s):
                    nrm = [-x for x in nrm]
                    off = -off
                else:
                    continue
                ln = mp.sqrt(dot(nrm, nrm))
                unit = [x / ln for x in nrm]
                key = tuple(mp.nstr(x, 12) for x in unit)
                if key in seen:
                    continue
                seen.append(key)
                on = [v for v in verts if abs(dot(unit, v) - off / ln) < mp.mpf("1e-30")]
                c = [sum(v[m] for v in on) / len(on) for m in range(3)]
                e1 = sub(on[0], c)
                e2 = crs(unit, e1)
                on.sort(key=lambda v: mp.atan2(dot(sub(v, c), e2), dot(sub(v, c), e1)))
                faces.append((unit, on))
    return faces


def polyhedron_ff(mp, faces, q):
    dot = lambda a, b: sum(a[i] * b[i] for i in range(3))
    qq = dot(q, q)
    if abs(qq) == 0:
        raise ValueError("q = 0")
    total = mp.mpc(0)
    for unit, on in faces:
        qn = dot(q, unit)
        qpar = [q[i] - qn * unit[i] for i in range(3)]
        qp2 = dot(qpar, qpar)
        m = len(on)
        if abs(qp2) < mp.mpf("1e-60"):
            # q along the normal: Phi = A exp(i q.r) on the face plane
            area = 0
            for e in range(m):
                a, b = on[e], on[(e + 1) % m]
                cr = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
                area += dot(cr, unit) / 2
            phi = area * mp.exp(1j * dot(q, on[0]))
        else:
            s = mp.mpc(0)
            for e in range(m):
                a, b = on[e], on[(e + 1) % m]
                half = [(b[i] - a[i]) / 2 for i in range(3)]
                mid = [(b[i] + a[i]) / 2 for i in range(3)]
                nxw = [unit[1] * qpar[2] - unit[2] * qpar[1], unit[2] * qpar[0] - unit[0] * qpar[2],
                       unit[0] * qpar[1] - unit[1] * qpar[0]]
                u = dot(q, half)
                sincu = mp.sin(u) / u if u != 0 else mp.mpf(1)
                s += 2 * dot(nxw, half) * sincu * mp.exp(1j * dot(q, mid))
            phi = -1j * s / qp2
        total += qn * phi
    return -1j * total / qq


# ------------------------------------------------------------ BornAgain (manual)
def bornagain_image(sample, approximation):
    import bornagain as ba
    mats = {}
    mlayers = []
    ml = ba.MultiLayer()
    for i, l in enumerate(sample["layers"]):
        m = ba.HomogeneousMaterial("layer%d" % i, l["delta"], l["beta"])
        layer = ba.Layer(m, l["thickness"]) if 0 < i < len(sample["layers"]) - 1 else ba.Layer(m)
        mlayers.append(layer)
    layout = ba.ParticleLayout()
    for p in sample["particles"]:
        m = ba.HomogeneousMaterial("p", p["delta"], p["beta"])
        s = p["shape"]
        ff = {"cylinder": lambda: ba.FormFactorCylinder(p["radius"], p["height"]),
              "sphere": lambda: ba.FormFactorFullSphere(p["radius"]),
              "spheroid": lambda: ba.FormFactorFullSpheroid(p["radius"], p["height"]),
              "box": lambda: ba.FormFactorBox(p["length"], p["width"], p["height"])}[s]()
        particle = ba.Particle(m, ff)
        if p["depth"]:
            particle.setPosition(0, 0, -p["depth"])
        layout.addParticle(particle, p["abundance"])
    layout.setTotalParticleSurfaceDensity(sample["density"])
    j = sample["particles"][0]["layer"]
    mlayers[j].addLayout(layout)
    for i, layer in enumerate(mlayers):
        if i == 0:
            ml.addLayer(layer)
        else:
            rough = sample["layers"][i]["roughness"]
            if rough:
                ml.addLayerWithTopRoughness(layer, ba.LayerRoughness(rough, 0, 0))
            else:
                ml.addLayer(layer)
    sim = ba.GISASSimulation()
    pe, ae = sample["phi_edges"], sample["alpha_edges"]
    sim.setDetectorParameters(len(pe) - 1, pe[0], pe[-1], len(ae) - 1, ae[0], ae[-1])
    sim.setBeamParameters(sample["wavelength"], sample["alpha_i"], 0.0)
    sim.beam().setIntensity(sample["intensity"])
    sim.setSample(ml)
    sim.runSimulation()
    return sim.result().array()[::-1]  # BornAgain's array has the highest alpha_f first


# ------------------------------------------------------------ BornAgain suite
def bornagain_suite(binary, workdir):
    import os
    import subprocess
    import tempfile
    import bornagain as ba
    import h5py
    workdir = workdir or tempfile.mkdtemp(prefix="gisaxs-ba-")
    os.makedirs(workdir, exist_ok=True)
    deg = DEG
    head = ("density = {density}\n[beam]\nwavelength = 0.1\nalpha_i = 0.2\nphi_i = {phii}\n[detector]\n"
            "phi_f = {{ min = -2, max = 2, bins = 60 }}\nalpha_f = {{ min = -0.3, max = 2.5, bins = 56 }}\n"
            "[[layer]]\n[[layer]]\nmaterial = {{ delta = 6e-6, beta = 2e-8 }}\n")
    mat = "material = { delta = 6e-4, beta = 2e-8 }\n"

    def mine(text, name):
        path = os.path.join(workdir, name)
        with open(path + ".toml", "w") as f:
            f.write(text)
        subprocess.run([binary, "gisaxs", path + ".toml", "--output", path + ".h5", "--quiet"], check=True)
        with h5py.File(path + ".h5") as f:
            return f["intensity"][...]

    def theirs(layout, phii=0.0, detector=None, multilayer=None, grid=(60, -2, 2, 56, -0.3, 2.5), wl=0.1, ai=0.2):
        if multilayer is None:
            l0 = ba.Layer(ba.HomogeneousMaterial("vac", 0, 0))
            l0.addLayout(layout)
            multilayer = ba.MultiLayer()
            multilayer.addLayer(l0)
            multilayer.addLayer(ba.Layer(ba.HomogeneousMaterial("sub", 6e-6, 2e-8)))
        sim = ba.GISASSimulation()
        if detector is None:
            sim.setDetectorParameters(grid[0], grid[1] * deg, grid[2] * deg, grid[3], grid[4] * deg, grid[5] * deg)
        else:
            sim.setDetector(detector)
        sim.setBeamParameters(wl, ai * deg, phii * deg)
        sim.setSample(multilayer)
        sim.runSimulation()
        return sim.result().array()[::-1]

    def layout(particles, density=0.01, iff=None):
        lay = ba.ParticleLayout()
        for p, w in particles:
            lay.addParticle(p, w)
        if iff is not None:
            lay.setInterferenceFunction(iff)
        lay.setTotalParticleSurfaceDensity(density)
        return lay

    pm = lambda: ba.HomogeneousMaterial("p", 6e-4, 2e-8)

    def particle(ff, rotation=None, z=0.0, material=None):
        p = ba.Particle(material or pm(), ff)
        if rotation is not None:
            p.setRotation(rotation)
        if z:
            p.setPosition(0, 0, z)
        return p

    cases = []
    shapes = [
        ("sphere", 'shape = "sphere"\nradius = 5\n', lambda: ba.FormFactorFullSphere(5)),
        ("cylinder", 'shape = "cylinder"\nradius = 5\nheight = 5\n', lambda: ba.FormFactorCylinder(5, 5)),
        ("box", 'shape = "box"\nlength = 12\nwidth = 5\nheight = 4\n', lambda: ba.FormFactorBox(12, 5, 4)),
        ("spheroid", 'shape = "spheroid"\nradius = 4\nheight = 10\n', lambda: ba.FormFactorFullSpheroid(4, 10)),
        ("truncated_sphere", 'shape = "truncated_sphere"\nradius = 5\nheight = 7\nremoved_top = 1\n',
         lambda: ba.FormFactorTruncatedSphere(5, 7, 1)),
        ("cone", 'shape = "cone"\nradius = 5\nheight = 5\nalpha = 70\n', lambda: ba.FormFactorCone(5, 5, 70 * deg)),
        ("prism3", 'shape = "prism3"\nbase_edge = 10\nheight = 5\n', lambda: ba.FormFactorPrism3(10, 5)),
        ("prism6", 'shape = "prism6"\nbase_edge = 5\nheight = 5\n', lambda: ba.FormFactorPrism6(5, 5)),
        ("pyramid", 'shape = "pyramid"\nbase_edge = 10\nheight = 4\nalpha = 60\n',
         lambda: ba.FormFactorPyramid(10, 4, 60 * deg)),
        ("tetrahedron", 'shape = "tetrahedron"\nbase_edge = 12\nheight = 4\nalpha = 60\n',
         lambda: ba.FormFactorTetrahedron(12, 4, 60 * deg)),
        ("icosahedron", 'shape = "icosahedron"\nedge = 6\n', lambda: ba.FormFactorIcosahedron(6)),
    ]
    for name, toml, ff in shapes:
        cases.append((name, head.format(density=0.01, phii=0) + "[[particle]]\n" + toml + mat,
                      lambda ff=ff: theirs(layout([(particle(ff()), 1.0)]))))
    rotations = [
        ("box rotation z 30", 'shape = "box"\nlength = 12\nwidth = 5\nheight = 4\nrotation = { axis = "z", angle = 30 }\n',
         lambda: particle(ba.FormFactorBox(12, 5, 4), ba.RotationZ(30 * deg))),
        ("prism3 euler (20, 30, 40), lifted", 'shape = "prism3"\nbase_edge = 10\nheight = 5\n'
         'rotation = { euler = [20, 30, 40] }\ndepth = -10\n',
         lambda: particle(ba.FormFactorPrism3(10, 5), ba.RotationEuler(20 * deg, 30 * deg, 40 * deg), 10)),
        ("cylinder rotation y 45, lifted", 'shape = "cylinder"\nradius = 3\nheight = 10\n'
         'rotation = { axis = "y", angle = 45 }\ndepth = -10\n',
         lambda: particle(ba.FormFactorCylinder(3, 10), ba.RotationY(45 * deg), 10)),
    ]
    for name, toml, p in rotations:
        cases.append((name, head.format(density=0.01, phii=0) + "[[particle]]\n" + toml + mat,
                      lambda p=p: theirs(layout([(p(), 1.0)]))))
    cyl = '[[particle]]\nshape = "cylinder"\nradius = 5\nheight = 5\n' + mat
    cylp = lambda: particle(ba.FormFactorCylinder(5, 5))

    def radial():
        i = ba.InterferenceFunctionRadialParaCrystal(20.0, 1000.0)
        i.setProbabilityDistribution(ba.FTDistribution1DGauss(7.0))
        return i

    def lattice2d():
        i = ba.InterferenceFunction2DLattice(ba.BasicLattice2D(15.0, 18.0, 100 * deg, 10 * deg))
        i.setDecayFunction(ba.FTDecayFunction2DCauchy(300, 200, 5 * deg))
        return i

    def para2d():
        i = ba.InterferenceFunction2DParaCrystal(ba.SquareLattice2D(20.0, 0.0), 0.0, 1000.0, 1000.0)
        i.setProbabilityDistributions(ba.FTDistribution2DCauchy(1.5, 1.5, 0), ba.FTDistribution2DCauchy(1.5, 1.5, 0))
        return i

    def lattice1d():
        i = ba.InterferenceFunction1DLattice(12.0, 30 * deg)
        i.setDecayFunction(ba.FTDecayFunction1DCauchy(500))
        return i

    no_density = head.format(density=0, phii=0).replace("density = 0\n", "")
    cases += [
        ("radial paracrystal", head.format(density=0.01, phii=0) + cyl + '[interference]\ntype = "radial_paracrystal"\n'
         'peak_distance = 20\ndamping_length = 1000\npdf = { type = "gauss", omega = 7 }\n',
         lambda: theirs(layout([(cylp(), 1.0)], iff=radial()))),
        ("2D lattice, Cauchy decay", no_density + cyl + '[interference]\ntype = "lattice_2d"\n'
         'lattice = { length_1 = 15, length_2 = 18, angle = 100, xi = 10 }\n'
         'decay = { type = "cauchy", length_x = 300, length_y = 200, gamma = 5 }\n',
         lambda: theirs(layout([(cylp(), 1.0)], iff=lattice2d()))),
        ("2D paracrystal with domains", no_density + cyl + '[interference]\ntype = "paracrystal_2d"\n'
         'lattice = { type = "square", length = 20 }\ndomain_sizes = [1000, 1000]\n'
         'pdf_1 = { type = "cauchy", omega_x = 1.5, omega_y = 1.5 }\npdf_2 = { type = "cauchy", omega_x = 1.5, omega_y = 1.5 }\n',
         lambda: theirs(layout([(cylp(), 1.0)], iff=para2d()))),
        ("1D lattice, Cauchy decay", head.format(density=0.01, phii=0) + cyl + '[interference]\ntype = "lattice_1d"\n'
         'length = 12\nxi = 30\ndecay = { type = "cauchy", length = 500 }\n',
         lambda: theirs(layout([(cylp(), 1.0)], iff=lattice1d()))),
    ]

    def distributed(ff, path, dist, n, factor):
        d = ba.ParameterDistribution(path, dist, n, factor)
        return ba.ParticleDistribution(particle(ff), d)

    cases += [
        ("Gaussian radius distribution", head.format(density=0.01, phii=0) + cyl +
         'distribution = { parameter = "radius", type = "gaussian", sigma = 0.6, samples = 15, sigma_factor = 2.5 }\n',
         lambda: theirs(layout([(distributed(ba.FormFactorCylinder(5, 5), "/Particle/Cylinder/Radius",
                                             ba.DistributionGaussian(5.0, 0.6), 15, 2.5), 1.0)]))),
        ("log-normal radius distribution", head.format(density=0.01, phii=0) +
         '[[particle]]\nshape = "sphere"\nradius = 5\n' + mat +
         'distribution = { parameter = "radius", type = "lognormal", scale = 0.2, samples = 21, sigma_factor = 3 }\n',
         lambda: theirs(layout([(distributed(ba.FormFactorFullSphere(5), "/Particle/FullSphere/Radius",
                                             ba.DistributionLogNormal(5.0, 0.2), 21, 3.0), 1.0)]))),
        ("mixture + radial paracrystal", head.format(density=0.01, phii=0) + cyl + 'abundance = 0.6\n'
         '[[particle]]\nshape = "prism3"\nbase_edge = 10\nheight = 5\nmaterial = { delta = 3e-4, beta = 1e-8 }\n'
         'abundance = 0.4\n[interference]\ntype = "radial_paracrystal"\npeak_distance = 20\ndamping_length = 1000\n'
         'pdf = { type = "gauss", omega = 7 }\n',
         lambda: theirs(layout([(cylp(), 0.6), (particle(ba.FormFactorPrism3(10, 5), material=ba.HomogeneousMaterial("q", 3e-4, 1e-8)), 0.4)],
                               iff=radial()))),
        ("core-shell sphere", head.format(density=0.01, phii=0) + '[[particle]]\nshape = "core_shell_sphere"\n'
         'core_radius = 4\nshell_thickness = 1.5\ncore_material = { delta = 4.6e-5, beta = 4.8e-6 }\n'
         'material = { delta = 7e-6, beta = 1e-8 }\n',
         lambda: theirs(layout([(ba.ParticleCoreShell(particle(ba.FormFactorFullSphere(5.5), material=ba.HomogeneousMaterial("s", 7e-6, 1e-8)),
                                                      particle(ba.FormFactorFullSphere(4), material=ba.HomogeneousMaterial("c", 4.6e-5, 4.8e-6)),
                                                      ba.kvector_t(0, 0, 1.5)), 1.0)]))),
        ("box, phi_i = 0.7 deg", head.format(density=0.01, phii=0.7) + '[[particle]]\nshape = "box"\nlength = 12\n'
         'width = 5\nheight = 4\n' + mat,
         lambda: theirs(layout([(particle(ba.FormFactorBox(12, 5, 4)), 1.0)]), phii=0.7)),
    ]

    def flat_detector():
        d = ba.RectangularDetector(80, 40.0, 60, 30.0)
        d.setPerpendicularToDirectBeam(1000.0, 20.3, 4.1)
        return d

    cases.append(("flat detector", head.format(density=0.01, phii=0).split("[detector]")[0] +
                  '[detector]\ntype = "flat"\ndistance = 1000\npixel_size = 0.5\npixels = [80, 60]\n'
                  'direct_beam = [40.6, 8.2]\n[[layer]]\n[[layer]]\nmaterial = { delta = 6e-6, beta = 2e-8 }\n' + cyl,
                  lambda: theirs(layout([(cylp(), 1.0)]), detector=flat_detector())))

    def rough_multilayer():
        film = ba.HomogeneousMaterial("film", 4.5e-6, 2.5e-7)
        lay = layout([(particle(ba.FormFactorFullSphere(4), z=-15, material=ba.HomogeneousMaterial("au", 4.6e-5, 4.8e-6)), 1.0)],
                     density=0.004)
        l1 = ba.Layer(film, 30.0)
        l1.addLayout(lay)
        ml = ba.MultiLayer()
        ml.addLayer(ba.Layer(ba.HomogeneousMaterial("air", 0, 0)))
        ml.addLayerWithTopRoughness(l1, ba.LayerRoughness(0.6, 0, 0))
        ml.addLayerWithTopRoughness(ba.Layer(ba.HomogeneousMaterial("si", 7.6e-6, 1.75e-7)), ba.LayerRoughness(0.4, 0, 0))
        ml.setRoughnessModel(ba.RoughnessModel.NEVOT_CROCE)
        return ml

    cases.append(("buried spheres, rough film (Nevot-Croce)",
                  'density = 0.004\n[beam]\nwavelength = 0.154\nalpha_i = 0.25\n[detector]\n'
                  'phi_f = { min = -1.5, max = 1.5, bins = 60 }\nalpha_f = { min = -0.3, max = 2.0, bins = 50 }\n'
                  '[[layer]]\n[[layer]]\nmaterial = { delta = 4.5e-6, beta = 2.5e-7 }\nthickness = 30\nroughness = 0.6\n'
                  '[[layer]]\nmaterial = { delta = 7.6e-6, beta = 1.75e-7 }\nroughness = 0.4\n[[particle]]\nshape = "sphere"\n'
                  'radius = 4\nmaterial = { delta = 4.6e-5, beta = 4.8e-6 }\nlayer = 1\ndepth = 15\n',
                  lambda: theirs(None, multilayer=rough_multilayer(), grid=(60, -1.5, 1.5, 50, -0.3, 2.0), wl=0.154, ai=0.25)))

    print("%-42s %12s %12s" % ("sample", "mean rel", "max rel"))
    for i, (name, text, ref) in enumerate(cases):
        a = mine(text, "case%02d" % i)
        b = ref()
        mask = b > 0
        rel = np.abs(a - b)[mask] / b[mask]
        print("%-42s %12.2e %12.2e" % (name, rel.mean(), rel.max()))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("image")
    p.add_argument("sample")
    p.add_argument("output")
    p.add_argument("--approximation", default="dwba", choices=["dwba", "born"])
    p = sub.add_parser("special-values")
    p.add_argument("output")
    p = sub.add_parser("bornagain")
    p.add_argument("sample")
    p.add_argument("output")
    p = sub.add_parser("bornagain-suite")
    p.add_argument("binary")
    p.add_argument("workdir", nargs="?")
    args = parser.parse_args()
    if args.command == "image":
        img = image(read_sample(args.sample), args.approximation)
        write_image(args.output, img, ["gisaxs_reference.py image %s (%s)" % (args.sample, args.approximation),
                                       "rows: phi_f bins, columns: alpha_f bins"])
    elif args.command == "special-values":
        special_values(args.output)
    elif args.command == "bornagain-suite":
        bornagain_suite(args.binary, args.workdir)
    else:
        img = bornagain_image(read_sample(args.sample), "dwba")
        write_image(args.output, img, ["BornAgain image of %s" % args.sample, "rows: phi_f bins, columns: alpha_f bins"])


if __name__ == "__main__":
    sys.exit(main())
