"""Checks with h5py that each file nexus_files.bash made is NeXus as
docs/nexus.md says: NXroot → @default NXentry → @default NXdata with
@signal, @axes and @<axis>_indices; NXprocess with program, version,
engine and command; @units from the allowed spellings on every dataset;
@long_name on signals and axes; @orientation on images; the earlier paths
still readable. Run in the folder that holds the files."""
import sys

import h5py
import numpy as np

from nexus_expected import FILES, UNITS

problems = []


def check(ok, where, what):
    if not ok:
        problems.append(f"{where}: {what}")
    return ok


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def check_nxdata(name, group):
    where = f"{name}:{group.name}"
    signal = text(group.attrs.get("signal", ""))
    if not check(signal in group, where, f"@signal '{signal}' is not a dataset of the group"):
        return
    data = group[signal]
    check("long_name" in data.attrs, where, f"signal {signal} has no @long_name")
    axes = [text(a) for a in np.atleast_1d(group.attrs.get("axes", []))]
    check(len(axes) == data.ndim, where, f"@axes {axes} does not name one axis per dimension of {data.shape}")
    for dim, axis in enumerate(axes):
        if axis == ".":
            continue
        if not check(axis in group, where, f"axis '{axis}' is not a dataset of the group"):
            continue
        check(group[axis].ndim == 1 and len(group[axis]) in (data.shape[dim], data.shape[dim] + 1), where,
              f"axis {axis} of shape {group[axis].shape} does not fit dimension {dim} of {data.shape}")
        check(group.attrs.get(f"{axis}_indices") == dim, where, f"@{axis}_indices is not {dim}")
        check("long_name" in group[axis].attrs, where, f"axis {axis} has no @long_name")
    image = data.ndim >= 2 and text(data.attrs.get("interpretation", "")) != "spectrum"
    if image:
        check("orientation" in group.attrs, where, "an image without @orientation")
    for aux in np.atleast_1d(group.attrs.get("auxiliary_signals", [])):
        check(text(aux) in group and group[text(aux)].shape == data.shape, where, f"auxiliary signal {aux}")


def check_file(name, engine, kind, signal, axes, legacy):
    with h5py.File(name, "r") as f:
        if not check(f.attrs.get("NX_class") == "NXroot", name, "/@NX_class is not NXroot"):
            return
        entry = f.get(text(f.attrs.get("default", "")))
        if not check(entry is not None and entry.attrs.get("NX_class") == "NXentry", name,
                     "/@default names no NXentry"):
            return
        process = entry.get("process")
        if check(process is not None and process.attrs.get("NX_class") == "NXprocess", name, "no NXprocess"):
            check(text(process["program"][()]) == "nanoscatter", name, "process/program")
            check(text(process["version"][()]).count(".") == 2, name, "process/version")
            check(text(process["engine"][()]) == engine, name, f"process/engine is not {engine}")
            check(text(process["command"][()]).split()[1:2] == [engine], name,
                  f"process/command '{text(process['command'][()])}' does not run {engine}")
            check(len(text(process["parameters/data"][()])) > 0, name, "no process/parameters")
        default = entry.get(text(entry.attrs.get("default", "")))
        if not check(default is not None and default.attrs.get("NX_class") == "NXdata", name,
                     "/entry/@default names no NXdata"):
            return
        check(text(default.attrs["signal"]) == signal, name, f"default signal is not {signal}")
        names = [text(a) for a in np.atleast_1d(default.attrs.get("axes", []))]
        check(names == [a for a, _ in axes], name, f"default axes {names}, expected {[a for a, _ in axes]}")
        for axis, units in axes:
            if axis in default:
                check(text(default[axis].attrs.get("units")) == units, name, f"axis {axis} not in {units}")
        check(len(default[signal].shape) == (1 if kind == "curve" else len(axes)), name, f"not a {kind}")

        def visit(path, obj):
            if isinstance(obj, h5py.Dataset) and "units" in obj.attrs:
                check(text(obj.attrs["units"]) in UNITS, name, f"/{path}@units '{text(obj.attrs['units'])}'")
            if isinstance(obj, h5py.Group) and obj.attrs.get("NX_class") == "NXdata":
                check_nxdata(name, obj)

        f.visititems(visit)
        for path in legacy:
            check(path in f, name, f"earlier path /{path} no longer reads")


for name, expected in FILES.items():
    try:
        check_file(name, *expected)
    except (KeyError, OSError) as e:
        problems.append(f"{name}: {e}")
for p in problems:
    print("FAIL:", p)
sys.exit(1 if problems else 0)
