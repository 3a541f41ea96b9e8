"""One plan class and one function per engine, mirroring the C++ plans
(include/nanoscatter/*.hpp) and the CLI subcommands (same option names).

Units: debye/pattern2d Å and Å⁻¹; gisaxs nm, nm⁻¹, degrees; dda any one
length unit (λ's); rmc lattice units. Results are small objects whose
attributes are NumPy arrays and numbers (``result.keys()`` lists them).
"""
import os
import warnings
from types import SimpleNamespace

import numpy as np

from . import _core
from .structures import as_structure


class Result(SimpleNamespace):
    """Attributes of one engine run; ``keys()`` lists them."""

    def keys(self):
        return list(vars(self))

    def __repr__(self):
        shown = []
        for k, v in vars(self).items():
            if isinstance(v, np.ndarray):
                shown.append(f"{k}=array{v.shape}")
            elif isinstance(v, (list, dict)) and len(v) > 4:
                shown.append(f"{k}=[{len(v)} items]")
            else:
                shown.append(f"{k}={v!r}")
        return f"{type(self).__name__}({', '.join(shown)})"


class DebyeResult(Result):
    """q (Å⁻¹), intensity, partial_names, partials [pair, q], atom_count, seconds;
    ``pdf`` (a PdfResult) when debye(..., pdf=True)."""

    def partial(self, name):
        return self.partials[self.partial_names.index(name)]


class PdfResult(Result):
    """r (Å), rdf R(r) (Å⁻¹), g G(r) (Å⁻²), number_density, sphere_radius,
    radius_of_gyration, atoms (docs/debye.md)."""


def _renamed(old, new):
    """Warns that keyword or attribute ``old`` is now ``new`` (kept for one
    release, docs/conventions.md)."""
    warnings.warn(f"{old} is deprecated, use {new}", DeprecationWarning, stacklevel=3)


def _renamed_keyword(options, old, new):
    """Moves keyword ``old`` to ``new`` in ``options``, with the warning."""
    if old in options:
        _renamed(old, new)
        options.setdefault(new, options.pop(old))


class Pattern2DResult(Result):
    """intensity [rows, cols], q [rows, cols, 3] (lab frame, Å⁻¹), row_axis,
    col_axis with row_name/col_name and row_unit/col_unit (polar: |q| and φ
    in degrees), amplitude when requested."""


class GisaxsResult(Result):
    """intensity [rows, cols] (row 0 = lowest α_f or q_z); the image axes
    as every image engine names them: row_axis, col_axis (centres),
    row_edges, col_edges, row_name, col_name, row_unit, col_unit; per-pixel
    alpha_f, phi_f (rad), qx, qy, qz (nm⁻¹), solid_angle. The old names
    horizontal*/vertical* (columns/rows) still work, with a warning."""

    _OLD_AXIS_NAMES = {"horizontal": "col_axis", "vertical": "row_axis", "horizontal_edges": "col_edges",
                       "vertical_edges": "row_edges", "horizontal_name": "col_name", "vertical_name": "row_name",
                       "horizontal_unit": "col_unit", "vertical_unit": "row_unit"}

    def __getattr__(self, name):  # only for names that are not attributes
        new = GisaxsResult._OLD_AXIS_NAMES.get(name)
        if new is None:
            raise AttributeError(name)
        _renamed(name, new)
        return getattr(self, new)


class DdaResult(Result):
    """runs (one dict per polarisation: qext, qabs, qsca, cext, ..., iterations),
    mueller [θ, 4, 4] with mueller_theta (degrees), box, dipoles, ..."""

    @property
    def qext(self):
        return self.runs[0]["qext"]

    @property
    def qabs(self):
        return self.runs[0]["qabs"]

    @property
    def qsca(self):
        return self.runs[0]["qsca"]


class ConvergenceError(_core.Error):
    """A DDA polarisation did not converge (the CLI's exit status 1); the
    message has one part per polarisation (solver, iterations, residual,
    cause) and ``result`` holds the partial DdaResult."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


class ConvergenceWarning(UserWarning):
    """A DDA polarisation did not converge and ``accept_unconverged=True``
    asked for its partial result."""


class MieResult(Result):
    """x, qext, qsca, qabs, qback, g, a, b, and theta (degrees) with s11, s12,
    s33, s34 (Bohren & Huffman eq. 4.77)."""


class RmcResult(Result):
    """size N, tiles (dicts: occupancy [N, N], chi2_initial, chi2_final,
    scale, accepted, ...), trace_moves, trace [tile, point] (χ²_rel)."""


# ---- debye ---------------------------------------------------------------------


class DebyePlan:
    """Orientation-averaged I(Q) (DebyePlan in debye.hpp).

    ``DebyePlan(structure, radiation="xray", method="exact", bin_width=1e-3,
    histogram_mode="precise", anomalous=False, energy=None, wavelength=None, no_debye_waller=False, partials=False,
    precision="auto", device="auto", threads=0, quiet=True)``;
    ``execute(q, normalize="none")`` with normalize none|per-atom|sq|fq.
    ``anomalous=True, energy=E`` adds f', f'' at E keV, or at hc/λ of
    ``wavelength`` (Å) (``energy`` alone, the old spelling, warns).
    """

    def __init__(self, structure, **options):
        self._plan = _core.DebyePlan(as_structure(structure), **options)

    @property
    def device(self):
        return self._plan.device

    @property
    def precision(self):
        """The precision the plan runs in, "single" or "double" (``precision="auto"``
        resolved: single on the GPU, double on the CPU)."""
        return self._plan.precision

    def set_structure(self, structure):
        """New atoms (species, histograms and pair sums are made again)."""
        self._plan.set_structure(as_structure(structure))

    def set_factors(self, **factors):
        """``anomalous=False, energy=None, wavelength=None, no_debye_waller=False``: re-executing on the last
        Q grid then reuses its pair sums (costs only the factors)."""
        self._plan.set_factors(**factors)

    def set_radiation(self, radiation):
        """xray|neutron|electron, keeping the pair sums like set_factors."""
        self._plan.set_radiation(radiation)

    @property
    def stats(self):
        """Costly steps done so far: pair_sum_runs, histogram_builds."""
        return self._plan.stats

    def execute(self, q, normalize="none", output=""):
        """I(Q) at the given Q; ``output`` also writes the file the CLI's
        ``--output`` would (text, HDF5 or PNG by extension; rank 0 under MPI)."""
        return DebyeResult(**self._plan.execute(np.asarray(q, dtype=float), normalize=normalize, output=output))


def debye(structure, *, q=None, qmin=None, qmax=None, qpoints=None, two_theta_min=None, two_theta_max=None,
          wavelength=None, normalize="none", pdf=False, pdf_dr=0.01, pdf_rmax=0.0, **options):
    """``nanoscatter debye``: I(Q) on ``q`` (array, Å⁻¹) or on the CLI's grid
    (qmin/qmax/qpoints, or two_theta_min/two_theta_max/wavelength/qpoints).
    Plan options as DebyePlan. ``pdf=True`` adds ``result.pdf`` (R(r), G(r))."""
    # The CLI's grid rules and messages (make_q_grid in the library).
    grid = np.asarray(q, dtype=float) if q is not None else _core.q_grid(
        qmin=qmin, qmax=qmax, qpoints=qpoints, two_theta_min=two_theta_min, two_theta_max=two_theta_max,
        wavelength=wavelength)
    s = as_structure(structure)
    if wavelength is not None:
        options["wavelength"] = wavelength  # also the anomalous terms' energy, as the CLI's --wavelength
    result = DebyePlan(s, **options).execute(grid, normalize=normalize)
    if pdf:
        keep = {k: options[k] for k in ("radiation", "bin_width", "histogram_mode", "anomalous", "energy", "wavelength",
                                        "device", "threads", "quiet") if k in options}
        result.pdf = globals()["pdf"](s, pdf_dr=pdf_dr, pdf_rmax=pdf_rmax, **keep)
    return result


def pdf(structure, *, pdf_dr=0.01, pdf_rmax=0.0, **options):
    """R(r) and G(r) of a finite particle (debye_pdf.hpp) from float64 pair
    histograms: options radiation, bin_width, histogram_mode, energy, device,
    threads."""
    return PdfResult(**_core.pair_distribution(as_structure(structure), pdf_dr=pdf_dr, pdf_rmax=pdf_rmax, **options))


def sphere_form_factor(q, radius):
    """Φ(qR) = 3 (sin qR − qR cos qR)/(qR)³ of a uniform sphere (Φ(0) = 1),
    with the series 1 − (qR)²/10 below qR = 1e-3 to avoid cancellation."""
    x = np.asarray(q, dtype=float) * radius
    out = np.empty_like(x)
    small = np.abs(x) < 1e-3
    xs = x[small]
    out[small] = 1 - xs**2 / 10 + xs**4 / 280
    xl = x[~small]
    out[~small] = 3 * (np.sin(xl) - xl * np.cos(xl)) / xl**3
    return out


# ---- pattern2d -----------------------------------------------------------------


class Pattern2DPlan:
    """Single-crystal 2D pattern (Pattern2DPlan in pattern2d.hpp).

    ``Pattern2DPlan(structure, radiation="xray", anomalous=False,
    no_debye_waller=False, amplitude=False, precision="auto",
    device="auto", threads=0, max_device_memory=0, quiet=True, comm=None)``;
    ``execute(wavelength=, qmax=, nq=, nphi=)`` for the polar detector or
    ``execute(wavelength=, flat=True, distance=, pixel_size=, nx=, ny=,
    direct_beam=None)`` (x, y in pixels from the lower-left corner; default
    the middle); plus ``euler_zyz`` (ZYZ degrees) or ``rotation`` (9 values
    or a 3×3 array), ``beam``, ``no_curvature``. The old keywords ``euler``
    and ``beam_center`` (pixels from pixel (0, 0)'s centre) still work, with
    a warning. ``output`` (and
    ``png``) also write the files the CLI's ``--output`` (and ``--png``)
    would. ``comm=nanoscatter.world()`` shares the pixels over the MPI ranks
    (rank 0 writes); every rank gets the whole image. An unknown keyword
    raises ``nanoscatter.Error`` listing the valid ones.
    """

    def __init__(self, structure, **options):
        self._plan = _core.Pattern2DPlan(as_structure(structure), **options)

    @property
    def device(self):
        return self._plan.device

    def execute(self, **geometry):
        if "euler" in geometry:
            _renamed("euler", "euler_zyz")
            geometry["euler_zyz"] = geometry.pop("euler")
        if "beam_center" in geometry:
            _renamed("beam_center", "direct_beam (pixels from the corner: add 0.5)")
            centre = geometry.pop("beam_center")
            # The old keyword counted from pixel (0, 0)'s centre, half a pixel in.
            geometry["direct_beam"] = None if centre is None else np.ravel(centre) + 0.5
        for key in ("euler_zyz", "rotation", "beam", "direct_beam"):
            if geometry.get(key) is not None:
                # Euler angles may be strings with their unit ("0.5 rad"), read by the library.
                geometry[key] = [v if isinstance(v, str) else float(v) for v in np.ravel(np.asarray(geometry[key], dtype=object))]
        for key in ("output", "png"):
            if isinstance(geometry.get(key), os.PathLike):
                geometry[key] = os.fspath(geometry[key])
        return Pattern2DResult(**self._plan.execute(**geometry))


_PATTERN2D_EXECUTE = ("wavelength", "qmax", "nq", "nphi", "euler_zyz", "euler", "rotation", "beam", "flat",
                      "distance", "pixel_size", "nx", "ny", "direct_beam", "beam_center", "no_curvature", "output",
                      "png")


def pattern2d(structure, **options):
    """``nanoscatter pattern2d``: plan options and geometry (and ``output``,
    ``png``) in one call, keywords as Pattern2DPlan and its execute."""
    geometry = {k: options.pop(k) for k in _PATTERN2D_EXECUTE if k in options}
    return Pattern2DPlan(structure, **options).execute(**geometry)


# ---- gisaxs --------------------------------------------------------------------


class GisaxsPlan:
    """GISAXS image (GisaxsPlan in gisaxs.hpp) of a sample file, a Sample
    from parse_sample(toml_text) or a SampleDocument: ``GisaxsPlan(sample,
    approximation="dwba", device="auto", precision="auto",
    max_device_memory=0, threads=0, quiet=True, comm=None)``;
    ``execute(output="")``. The GPU and ``precision`` concern mesh form
    factors only (``shape = "mesh"``); ``max_device_memory`` is in bytes (0:
    half of the free GPU memory). ``comm=nanoscatter.world()`` shares the
    pixels over the MPI ranks (under mpirun) and gives every rank the whole
    image."""

    def __init__(self, sample, **options):
        if isinstance(sample, _core.SampleDocument):  # an edited sample object
            sample = sample.sample
        if isinstance(sample, os.PathLike):
            sample = os.fspath(sample)
        self._plan = _core.GisaxsPlan(sample, **options)

    def execute(self, output=""):
        """The image; ``output`` also writes the file the CLI's ``--output``
        would (HDF5, text or PNG by extension; rank 0 under MPI)."""
        return GisaxsResult(**self._plan.execute(output=os.fspath(output)))

    def set_layouts(self, sample):
        """The particles, interference and densities of an edited sample (a
        SampleDocument, Sample or file), for a cheap re-evaluation: the pixel
        grid and the layers' fields stay, and on the CPU the amplitudes of
        every particle kind whose description did not change are kept. Its
        beam, detector and layers must be the plan's (an Error names the
        field that differs)."""
        if isinstance(sample, os.PathLike):
            sample = os.fspath(sample)
        self._plan.set_layouts(sample)

    @property
    def stats(self):
        """What the plan computed so far (GisaxsPlan::Stats): amplitude_pixels,
        kinds_computed, kinds_reused, last_computed_kinds (the last execute's,
        plan order), mesh_table_kinds, batched_images, batch_launches."""
        return self._plan.stats

    @property
    def particle_kinds(self):
        """Particle kinds after sampling size distributions (plan order)."""
        return self._plan.particle_kinds


def gisaxs(sample, output="", **options):
    """``nanoscatter gisaxs SAMPLE.toml``: the image with axes and q maps;
    ``output`` as in ``GisaxsPlan.execute``."""
    return GisaxsPlan(sample, **options).execute(output=output)


# ---- dda and mie ---------------------------------------------------------------


class DdaPlan:
    """DDA (DdaPlan in dda.hpp), ADDA's options: ``shape`` ("sphere" or a
    sequence such as ("ellipsoid", 1, 2) or ("read", FILE)), ``shape_file``,
    ``grid`` (int or 3 ints), ``size``, ``eq_rad``, ``dpl``, ``wavelength``,
    ``m`` (complex, (re, im), or a list per domain), ``pol``, ``iter``,
    ``eps``, ``maxiter``, ``sym``, ``mueller``, ``ntheta``, ``grid_phi``,
    ``csca``, ``asym``, ``store_int_field``, ``store_dip_pol``,
    ``no_vol_cor``, ``accept_unconverged``, ``precision``, ``device``, ``threads``,
    ``max_device_memory``, ``quiet``; ``comm=nanoscatter.world()`` solves
    the polarisations on different MPI ranks and gives every rank the whole
    result. An unknown keyword raises :class:`Error` listing the valid ones.
    ``execute(output=..., save_geom=...)`` also writes the CLI's files
    (rank 0 under MPI); ``write_adda_outputs(dir)`` writes them after
    execute()."""

    def __init__(self, **options):
        _renamed_keyword(options, "lambda_", "wavelength")
        if isinstance(options.get("shape_file"), os.PathLike):
            options["shape_file"] = os.fspath(options["shape_file"])
        self._plan = _core.DdaPlan(**options)

    @property
    def box(self):
        return self._plan.box

    @property
    def dipoles(self):
        return self._plan.dipoles

    @property
    def device(self):
        return self._plan.device

    def execute(self, output="", save_geom="", output_dir=None):
        """Solves and computes the observables; ``output`` (a folder) and
        ``save_geom`` also write the files of the CLI's ``--output`` and
        ``--save-geom``. ``output_dir`` is the old name of ``output``. A
        polarisation that does not converge raises :class:`ConvergenceError`
        (its ``result`` holds the partial result), or with
        ``accept_unconverged=True`` warns (:class:`ConvergenceWarning`) and
        returns it."""
        output = _output_folder(output, output_dir)
        result = DdaResult(**self._plan.execute(output=os.fspath(output), save_geom=os.fspath(save_geom)))
        failures = [run["failure"] for run in result.runs if not run["converged"] and not run["from_symmetry"]]
        if failures and not self._plan.accept_unconverged:
            raise ConvergenceError("; ".join(failures), result)
        for failure in failures:
            warnings.warn(failure, ConvergenceWarning, stacklevel=2)
        return result

    def write_adda_outputs(self, output, command_line=None, save_geom=""):
        self._plan.write_adda_outputs(os.fspath(output), command_line, os.fspath(save_geom))


def _output_folder(output, output_dir):
    """``output``, or the deprecated ``output_dir`` (warned) when given."""
    if output_dir is None:
        return output
    _renamed("output_dir", "output")
    return output_dir


def dda(output="", save_geom="", output_dir=None, **options):
    """``nanoscatter dda``: options as DdaPlan, ``output`` (a folder) and
    ``save_geom`` as DdaPlan.execute; returns a DdaResult."""
    return DdaPlan(**options).execute(output=_output_folder(output, output_dir), save_geom=save_geom)


def mie(**options):
    """``nanoscatter mie``: ``x`` or ``radius`` (with ``wavelength``), ``m``,
    ``core_ratio`` and ``m_core`` for a coated sphere, and Mueller
    elements at ``theta`` (degrees, array) or on ``ntheta`` points over
    0..180°; ``output`` also writes them as the CLI's ``--output`` table.
    An unknown keyword raises :class:`Error` listing the valid ones."""
    _renamed_keyword(options, "lambda_", "wavelength")
    if options.get("theta") is not None:
        options["theta"] = np.asarray(options["theta"], dtype=float)
    if isinstance(options.get("output"), os.PathLike):
        options["output"] = os.fspath(options["output"])
    return MieResult(**_core.mie(**options))


# ---- rmc -----------------------------------------------------------------------


class RmcPlan:
    """Reverse Monte Carlo fit (RmcPlan in rmc.hpp): ``RmcPlan(target,
    mask=None, loading=..., tile=0, crop=False, layout="centred",
    resample="crop", tiles=1, steps=100000, seed=1, max_distance=0,
    schedule="exponential", temperature="auto", final_ratio=1e-3,
    target_acceptance=0.8, probe_moves=256, multires=0, multires_steps=0,
    refresh_interval=20000, trace_interval=0, device="auto", threads=0,
    cluster=0, max_device_memory=0, quiet=True, comm=None)``: every
    ``nanoscatter rmc`` option by its flag's name; an unknown keyword is a
    ``nanoscatter.Error`` listing the valid ones. ``target`` and ``mask``
    are 2D arrays (q = 0 at [N/2, N/2]) or image files; ``loading`` is one
    value or one per tile. ``comm=nanoscatter.world()`` shares the tiles
    over the MPI ranks (every rank gets all tiles). ``execute(output=None)``;
    ``write_outputs(dir)`` writes the CLI's output directory for the last
    run (rank 0 under MPI)."""

    def __init__(self, target, mask=None, **options):
        loading = options.get("loading")
        if loading is not None and np.ndim(loading) == 0:
            options["loading"] = [float(loading)]
        if isinstance(target, os.PathLike):
            target = os.fspath(target)
        if isinstance(mask, os.PathLike):
            mask = os.fspath(mask)
        self._plan = _core.RmcPlan(target, mask, **options)

    @property
    def target(self):
        return self._plan.target

    def set_initial_occupancy(self, occupancy):
        self._plan.set_initial_occupancy([np.asarray(o, dtype=np.uint8) for o in occupancy])

    def execute(self, output=None, output_dir=None):
        """Runs the fit; ``output`` also writes the folder the CLI's
        ``--output`` would (rank 0 under MPI); ``output_dir`` is its old name."""
        output = _output_folder(output, output_dir)
        out = "" if output is None else os.fspath(output)
        result = RmcResult(**self._plan.execute(output=out))
        result.target = self._plan.target
        return result

    def write_outputs(self, output, command_line=None):
        """The CLI's output folder for the last execute(); the files'
        "command:" line is ``command_line`` (default: the Python command)."""
        self._plan.write_outputs(os.fspath(output), command_line)


def rmc(target, mask=None, output=None, output_dir=None, **options):
    """``nanoscatter rmc``: options as RmcPlan; returns an RmcResult (with
    ``target``, the N×N image the model was fitted to); ``output`` also
    writes the CLI's output folder (``output_dir``: its old name)."""
    return RmcPlan(target, mask, **options).execute(output=_output_folder(output, output_dir))
