"""What the NeXus tests (nexus_h5py.sh, nexus_silx.sh) expect of each file
that nexus_files.bash makes: the default plot and the unit spellings of
docs/nexus.md."""

# The spellings docs/nexus.md allows (UDUNITS-2); a dimensionless dataset
# has no @units.
UNITS = {"1/angstrom", "1/nm", "deg", "angstrom", "nm", "mm", "sr", "electron^2", "fm^2", "angstrom^2",
         "electron^2/atom", "fm^2/atom", "angstrom^2/atom", "1/angstrom^2", "nm^3", "pixel"}

# file: (engine, kind of the default plot, signal, [(axis, units)] slowest first,
#        paths of the earlier layout that must still read)
FILES = {
    "debye.h5": ("debye", "curve", "intensity", [("q", "1/angstrom")],
                 ["q", "intensity", "two_theta", "partials/Au-Pd"]),
    "pdf.h5": ("debye", "curve", "G", [("r", "angstrom")], ["r", "R", "G"]),
    "pattern2d_polar.h5": ("pattern2d", "image", "intensity", [("q", "1/angstrom"), ("phi", "deg")],
                           ["intensity", "amplitude", "q", "axes/q", "axes/phi"]),
    "pattern2d_flat.h5": ("pattern2d", "image", "intensity", [("y", "mm"), ("x", "mm")],
                          ["intensity", "q", "axes/x", "axes/y"]),
    "gisaxs.h5": ("gisaxs", "image", "intensity", [("alpha_f", "deg"), ("phi_f", "deg")],
                  ["intensity", "axes/phi_f", "axes/alpha_f_edges", "pixels/qz", "pixels/solid_angle"]),
    "formfactor.h5": ("gisaxs", "image", "formfactor", [("qx", "1/nm"), ("qy", "1/nm"), ("qz", "1/nm")],
                      ["formfactor", "qx", "qy", "qz"]),
    "rmc/rmc.h5": ("rmc", "image", "target", [("row", "pixel"), ("column", "pixel")],
                   ["target", "model", "occupancy", "mask", "chi2_trace/chi2", "pair_correlation/g", "tiles/loading",
                    "loading_scan/chi2"]),
    "fit_pdf.h5": ("fit", "curve", "data", [("r", "angstrom")],
                   ["data", "model", "residual", "mask", "axes/r", "parameters/value", "history/chi2"]),
    "fit_gisaxs.h5": ("fit", "image", "data", [("alpha_f", "deg"), ("phi_f", "deg")],
                      ["data", "model", "axes/alpha_f", "axes/phi_f", "parameters/value", "correlation"]),
}
