"""Opens each file nexus_files.bash made with silx, headless (silx.io and
silx.io.nxdata need no Qt), as silx view would: the default NXdata is
valid, a curve or an image as expected, with the expected axes, their
units and labels that state them, and every NXdata group of the file is
valid. Run in the folder
that holds the files."""
import sys

import silx.io
import silx.io.utils
from silx.io import nxdata

from nexus_expected import FILES

problems = []
for name, (engine, kind, signal, axes, legacy) in FILES.items():
    try:
        with silx.io.open(name) as f:
            nx = nxdata.get_default(f)
            if nx is None:
                problems.append(f"{name}: silx finds no default NXdata")
                continue
            shown = "curve" if nx.is_curve else "image" if nx.is_image else "neither curve nor image"
            if shown != kind:
                problems.append(f"{name}: silx shows {shown}, expected {kind}")
            if nx.signal.name.split("/")[-1] != signal:
                problems.append(f"{name}: silx plots {nx.signal.name}, expected {signal}")
            expected_names = [a for a, _ in axes]
            if list(nx.axes_dataset_names) != expected_names:
                problems.append(f"{name}: silx axes {nx.axes_dataset_names}, expected {expected_names}")
            for axis, (axis_name, units) in zip(nx.axes, axes):
                got = None if axis is None else silx.io.utils.h5py_read_attribute(axis.attrs, "units")
                if got != units:
                    problems.append(f"{name}: axis {axis_name} units {got!r}, expected {units!r}")
            # The labels silx draws (@long_name): each axis's with its units.
            for label, (axis_name, units) in zip(nx.axes_names, axes):
                if units not in (label or ""):
                    problems.append(f"{name}: axis {axis_name} labelled {label!r}, without its units {units!r}")
            groups = []
            f["entry"].visititems(lambda p, o: groups.append(p) if silx.io.is_group(o) and
                                  nxdata.get_attr_as_unicode(o, "NX_class") == "NXdata" else None)
            for path in groups:
                if not nxdata.is_valid_nxdata(f["entry"][path]):
                    problems.append(f"{name}: silx rejects NXdata /entry/{path}: "
                                    f"{nxdata.NXdata(f['entry'][path], validate=False).issues}")
    except Exception as e:  # silx raises many kinds on a malformed file; each is a failure here
        problems.append(f"{name}: {type(e).__name__}: {e}")
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
