"""Fitting (docs/fitting.md): ``fit`` runs a fit description (a fit file's
path, or the same description as a dict) on data from its files or NumPy
arrays; ``GisaxsModel`` is the GISAXS model as a plain callable
``f(*values) -> image`` for scipy.optimize.least_squares or lmfit.
"""
import os

import numpy as np

from . import _core


def _toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float, np.integer, np.floating)):
        return repr(float(v)) if isinstance(v, (float, np.floating)) else str(int(v))
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise _core.Error(f"fit description: cannot write {type(v).__name__} as a TOML value")


def description_toml(description):
    """The fit-file text of a dict description ({"data": {...}, "parameter": [...], ...})."""
    lines = []
    for section, body in description.items():
        if section == "parameter":
            for p in body:
                lines.append("[[parameter]]")
                lines += [f"{k} = {_toml_value(v)}" for k, v in p.items()]
                lines.append("")
        else:
            lines.append(f"[{section}]")
            lines += [f"{k} = {_toml_value(v)}" for k, v in body.items()]
            lines.append("")
    return "\n".join(lines)


class FitResult:
    """Result of ``fit``: parameters (name -> value), sigma (name -> 1σ,
    √diag((JᵀWJ)⁻¹)·√χ²_red), correlation, chi2, chi2_red, dof, model,
    residual, normalised_residual, data, converged, message, history_chi2;
    for a PDF fit also rw (PDFgui's Rw) and r (the fitted r points, Å); for a
    powder fit rwp (R_wp) and two_theta (the fitted 2θ points, degrees)."""

    def __init__(self, d):
        self.names = list(d["names"])
        self.parameters = dict(zip(self.names, (float(v) for v in d["values"])))
        self.sigma = dict(zip(self.names, (float(s) for s in d["sigma"])))
        for key in ("correlation_names", "correlation", "chi2", "chi2_red", "dof", "iterations", "evaluations",
                    "seconds", "converged", "message", "model", "residual", "normalised_residual", "data",
                    "history_chi2", "summary"):
            setattr(self, key, d[key])
        for key in ("rw", "r", "rwp", "two_theta"):  # PDF fits: rw, r; powder fits: rwp, two_theta
            if key in d:
                setattr(self, key, d[key])

    def __repr__(self):
        return self.summary


def fit(description, data=None, sigma=None, mask=None, quiet=True, threads=0):
    """Runs a fit. ``description``: a fit file's path or a dict of its tables
    (relative paths are relative to the file's folder, or to the current
    folder for a dict). ``data``/``sigma``/``mask`` (2D arrays in the
    [data] orientation; mask nonzero = masked) replace the [data] files."""
    if isinstance(description, (str, os.PathLike)):
        path = os.fspath(description)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        source, base = path, os.path.dirname(path)
    else:
        description = dict(description)
        if data is not None and "file" not in description.get("data", {}):
            description["data"] = dict(description.get("data", {}), file="<array>")
        text, source, base = description_toml(description), "<dict>", ""
    return FitResult(_core._fit_text(text, source, base, data, sigma, mask, quiet, threads))


class GisaxsModel:
    """GISAXS image as a function of chosen sample paths:
    ``m = GisaxsModel("sample.toml", ["particle[0].radius"], region=(row0, rows, col0, cols))``,
    ``m(5.0)`` → NumPy image of the region (row 0 = the lowest α_f or q_z).
    Options are GisaxsPlan's keywords (``approximation="dwba", device="auto",
    precision="double", max_device_memory=0, threads=0``). Values of the
    particles, interference and densities change the plan's layouts only
    (kinds whose description did not change keep their amplitudes:
    ``stats``); others make a new plan."""

    def __init__(self, sample, parameters, region=None, **options):
        doc = sample if isinstance(sample, _core.SampleDocument) else _core.SampleDocument.read(os.fspath(sample))
        self._model = _core._GisaxsFitModel(doc, list(region) if region is not None else [], **options)
        self.parameters = list(parameters)
        known = set(self._model.paths())
        for p in self.parameters:
            if p not in known:
                raise _core.Error(f"{p}: unknown model path (the model has: {', '.join(self._model.paths())})")

    @property
    def shape(self):
        return self._model.shape

    @property
    def stats(self):
        """The plan's counts (GisaxsPlan.stats), or None before the first call."""
        return self._model.stats

    @property
    def device_summary(self):
        """Where the plan's pixel work runs ("CPU", "GPU (...)"), or None before the first call."""
        return self._model.device_summary

    def __call__(self, *values):
        if len(values) != len(self.parameters):
            raise _core.Error(f"expected {len(self.parameters)} values ({', '.join(self.parameters)}), got {len(values)}")
        for p, v in zip(self.parameters, values):
            self._model.set(p, float(v))
        return self._model.evaluate()
