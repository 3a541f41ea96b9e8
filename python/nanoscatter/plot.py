"""matplotlib helpers for nanoscatter results. Each takes a result and an
optional ``ax`` (made when missing), draws with labelled axes and units, and
returns the axes so callers can add reference curves or save the figure.
"""
import numpy as np
import matplotlib.pyplot as plt
from matplotlib.colors import LogNorm

_INTENSITY_UNITS = {"xray": "e²", "neutron": "fm²", "electron": "Å²"}


def _axes(ax, **subplot):
    if ax is None:
        _, ax = plt.subplots(**subplot)
    return ax


def iq(result, ax=None, partials=True, logy=True, logx=False, label="total", unit="e²", **style):
    """I(Q) of a DebyeResult with its partials (dashed). On a log axis a
    cross partial that changes sign is drawn as |partial| and labelled so."""
    ax = _axes(ax)
    ax.plot(result.q, result.intensity, label=label, **style)
    if partials and len(result.partial_names) > 1:
        colours = ("C2", "C1", "C4", "C5", "C6", "C8")  # apart from the usual total colours C0, C3
        for k, (name, column) in enumerate(zip(result.partial_names, result.partials)):
            negative = np.any(column < 0)
            y = np.abs(column) if (logy and negative) else column
            ax.plot(result.q, y, "--", lw=1, color=colours[k % len(colours)],
                    label=(f"|{name}|" if (logy and negative) else name))
    if logy:
        ax.set_yscale("log")
    if logx:
        ax.set_xscale("log")
    ax.set_xlabel("Q (Å⁻¹)")
    ylabel = {"none": f"I(Q) ({unit})", "per-atom": f"I(Q)/N ({unit}/atom)", "sq": "S(Q)", "fq": "F(Q) (Å⁻¹)"}
    ax.set_ylabel(ylabel.get(getattr(result, "normalize", "none"), "I(Q)"))
    ax.legend(fontsize="small")
    return ax


def gr(result, ax=None, rdf=False, **style):
    """G(r) (or R(r) with rdf=True) of a PdfResult."""
    ax = _axes(ax)
    if rdf:
        ax.plot(result.r, result.rdf, **style)
        ax.set_ylabel("R(r) (Å⁻¹)")
    else:
        ax.plot(result.r, result.g, **style)
        ax.axhline(0, color="0.6", lw=0.5)
        ax.set_ylabel("G(r) (Å⁻²)")
    ax.set_xlabel("r (Å)")
    return ax


def _corners(centres):
    """Cell corners of a smooth 2D grid of cell centres: the centres padded
    by linear extrapolation, then averaged over each 2×2 block."""
    c = np.asarray(centres, dtype=float)
    if c.shape[0] < 2 or c.shape[1] < 2:
        raise ValueError("need at least 2 x 2 pixels")
    c = np.vstack((2 * c[:1] - c[1:2], c, 2 * c[-1:] - c[-2:-1]))
    c = np.hstack((2 * c[:, :1] - c[:, 1:2], c, 2 * c[:, -1:] - c[:, -2:-1]))
    return (c[:-1, :-1] + c[1:, :-1] + c[:-1, 1:] + c[1:, 1:]) / 4


def gisaxs(result, ax=None, axes="angle", log=True, decades=6, cmap="inferno", colorbar=True):
    """A GisaxsResult as an image: axes="angle" (φ_f, α_f in degrees, the
    detector's bins) or "q" (q_y, q_z in nm⁻¹ per pixel). Log colour scale
    over ``decades`` below the maximum."""
    ax = _axes(ax)
    image = np.asarray(result.intensity)
    positive = image[image > 0]
    top = positive.max() if positive.size else 1.0
    norm = LogNorm(vmin=top * 10.0**-decades, vmax=top) if log else None
    shown = np.where(image > 0, image, np.nan) if log else image
    if axes == "q":
        # The experimentalists' q_z = k (sin α_i + sin α_f) points up: it is
        # −(k_i − k_f)_z of the engine's q = k_i − k_f.
        mesh = ax.pcolormesh(_corners(result.qy), _corners(-result.qz), shown, norm=norm, cmap=cmap)
        ax.set_xlabel("q_y (nm⁻¹)")
        ax.set_ylabel("q_z (nm⁻¹)")
    elif axes == "angle":
        deg = 180 / np.pi
        if result.col_name == "phi_f" and result.col_edges.size:  # the angular detector's bins
            he, ve = result.col_edges, result.row_edges
            if result.col_unit.startswith("rad"):
                he, ve = he * deg, ve * deg
            mesh = ax.pcolormesh(he, ve, shown, norm=norm, cmap=cmap)
        else:
            mesh = ax.pcolormesh(_corners(result.phi_f * deg), _corners(result.alpha_f * deg), shown, norm=norm,
                                 cmap=cmap)
        ax.set_xlabel("φ_f (deg)")
        ax.set_ylabel("α_f (deg)")
    else:
        raise ValueError("axes must be 'angle' or 'q'")
    if colorbar:
        ax.figure.colorbar(mesh, ax=ax, label="intensity" + (" (log scale)" if log else ""))
    return ax


def mueller(result, elements=("s11", "s12"), reference=None, axes=None, label="DDA"):
    """Mueller elements of a DdaResult against θ (yz plane), one panel per
    element: "s11" on a log axis, others as given or normalised ("-s12/s11").
    ``reference``: a MieResult (from mie(..., theta=...)) drawn as a line."""
    if axes is None:
        _, axes = plt.subplots(1, len(elements), figsize=(5 * len(elements), 4))
    axes = np.atleast_1d(axes)
    index = {f"s{i + 1}{j + 1}": (i, j) for i in range(4) for j in range(4)}

    def element(name, matrix_rows):
        sign = -1.0 if name.startswith("-") else 1.0
        name = name.lstrip("-")
        num, _, den = name.partition("/")
        value = matrix_rows[:, index[num][0], index[num][1]]
        if den:
            value = value / matrix_rows[:, index[den][0], index[den][1]]
        return sign * value

    def element_mie(name, m):
        sign = -1.0 if name.startswith("-") else 1.0
        num, _, den = name.lstrip("-").partition("/")
        value = getattr(m, num)
        if den:
            value = value / getattr(m, den)
        return sign * value

    for ax, name in zip(axes, elements):
        ax.plot(result.mueller_theta, element(name, result.mueller), "o", ms=3, label=label)
        if reference is not None:
            ax.plot(reference.theta, element_mie(name, reference), "-", lw=1, label="Mie (exact)")
        if name == "s11":
            ax.set_yscale("log")
        ax.set_xlabel("θ (deg)")
        ax.set_ylabel(name.replace("s", "S").replace("-", "−"))
        ax.set_xlim(0, 180)
        ax.legend(fontsize="small")
    return axes


def rmc_trace(result, ax=None):
    """χ²_rel against trial moves, one line per tile, log scale."""
    ax = _axes(ax)
    for k, row in enumerate(np.atleast_2d(result.trace)):
        ax.plot(result.trace_moves, row, label=f"tile {k}")
    ax.set_yscale("log")
    ax.set_xlabel("trial moves")
    ax.set_ylabel("χ²_rel")
    if len(result.trace) > 1:
        ax.legend(fontsize="small")
    return ax


def rmc_structure(result, tile=0, axes=None, truth=None):
    """Fitted occupancy of one tile, its model intensity next to the target
    (log scale), and, with ``truth`` (an N×N occupancy), the true arrangement."""
    from . import rmc_model_intensity

    panels = 3 + (truth is not None)
    if axes is None:
        _, axes = plt.subplots(1, panels, figsize=(4 * panels, 4))
    t = result.tiles[tile]
    k = 0
    if truth is not None:
        axes[k].imshow(truth, cmap="gray_r", interpolation="nearest")
        axes[k].set_title("true arrangement")
        k += 1
    axes[k].imshow(t["occupancy"], cmap="gray_r", interpolation="nearest")
    axes[k].set_title(f"fitted occupancy (tile {tile})")
    model = rmc_model_intensity(t["occupancy"], t["scale"])
    target = np.asarray(result.target)
    top = np.nanmax(target)
    norm = LogNorm(vmin=top * 1e-6, vmax=top)
    axes[k + 1].imshow(np.where(target > 0, target, np.nan), norm=norm, cmap="viridis")
    axes[k + 1].set_title("target |F|²")
    axes[k + 2].imshow(np.where(model > 0, model, np.nan), norm=norm, cmap="viridis")
    axes[k + 2].set_title(f"model s|F|², χ²_rel = {t['chi2_final']:.3g}")
    for ax in axes:
        ax.set_xticks([])
        ax.set_yticks([])
    return axes


def pattern2d(result, ax=None, log=True, decades=6, cmap="magma"):
    """A Pattern2DResult on the detector plane: polar grids at (q_x, q_y) of
    every pixel (Å⁻¹), flat detectors by pixel position."""
    ax = _axes(ax)
    image = np.asarray(result.intensity)
    top = image.max() if image.size else 1.0
    norm = LogNorm(vmin=max(top * 10.0**-decades, np.finfo(float).tiny), vmax=top) if log else None
    shown = np.where(image > 0, image, np.nan) if log else image
    if result.polar:
        # Cell edges in (projected radius, φ): rows are rings of one |q|, whose
        # projection onto the detector plane is |q| cos θ with the curvature.
        rho = np.hypot(result.q[:, 0, 0], result.q[:, 0, 1])
        rho_edges = np.concatenate(([rho[0]], (rho[1:] + rho[:-1]) / 2, [rho[-1]]))
        phi = np.radians(result.col_axis)
        step = 2 * np.pi / max(len(phi), 1)
        phi_edges = np.concatenate((phi - step / 2, [phi[-1] + step / 2]))
        r_grid, p_grid = np.meshgrid(rho_edges, phi_edges, indexing="ij")
        mesh = ax.pcolormesh(r_grid * np.cos(p_grid), r_grid * np.sin(p_grid), shown, norm=norm, cmap=cmap)
        ax.set_xlabel("q_x (Å⁻¹)")
        ax.set_ylabel("q_y (Å⁻¹)")
    else:
        x, y = result.col_axis, result.row_axis
        mesh = ax.pcolormesh(x, y, shown, norm=norm, cmap=cmap, shading="nearest")
        ax.set_xlabel(f"{result.col_name} ({result.col_unit})")
        ax.set_ylabel(f"{result.row_name} ({result.row_unit})")
    ax.set_aspect("equal")
    ax.figure.colorbar(mesh, ax=ax, label="intensity" + (" (log scale)" if log else ""))
    return ax
