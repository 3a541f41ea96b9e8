#!/usr/bin/env bash
# Every picture the CLI writes is a figure (io_figure.hpp), not a bare
# pixel map: debye --output/--pdf .png, pattern2d --png (polar and flat
# detectors) and --output .png, gisaxs --png and --output .png, and rmc's
# target, model and occupancy pictures. Each must be a PNG of the figure's
# size (640×560 for images, 800×500 for line plots) with the run's record
# in tEXt, dark text (tick labels, axis labels) in its left and bottom
# margins and, for images, a colour bar right of the plot that runs from
# viridis' darkest colour at the bottom to its brightest at the top with
# numbers beside it. Needs Debian's python3 with numpy and matplotlib
# (reads the PNGs; skips otherwise).
set -u
bin=$1 work=$2 data=$3
py=/usr/bin/python3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
$py -c "import numpy, matplotlib.image" 2>/dev/null || { echo "skip: no numpy/matplotlib"; exit 77; }

printf '2\ntwo gold atoms\nAu 0 0 0\nAu 1.5 -2.0 0.7\n' > au2.xyz
"$bin" debye au2.xyz --qmin 0.1 --qmax 12 --qpoints 200 --partials --pdf g.png --output i.png -q || fail "debye"
polar=(--wavelength 1.2 --qmax 6 --nq 25 --nphi 36 --device cpu -q)
"$bin" pattern2d au2.xyz "${polar[@]}" -o polar.h5 --png polar.png || fail "pattern2d polar"
"$bin" pattern2d au2.xyz "${polar[@]}" -o polar_output.png || fail "pattern2d --output .png"
"$bin" pattern2d au2.xyz --wavelength 1.0 --flat --distance 100 --pixel-size 2 --nx 40 --ny 30 \
  --beam-center 19 12 --device cpu -q -o flat.h5 --png flat.png || fail "pattern2d flat"
"$bin" gisaxs "$data/gisaxs/benchmark_cylinders.toml" --device cpu -q -o gisaxs.h5 --png gisaxs.png || fail "gisaxs"
"$bin" gisaxs "$data/gisaxs/benchmark_cylinders.toml" --device cpu -q -o gisaxs_output.png || fail "gisaxs --output .png"
$py - <<'PY' || fail "could not write the RMC target"
import numpy as np
n = 32
a = np.zeros((n, n))
a[np.random.default_rng(2).integers(0, n, (60, 2)).T.tolist()] = 1
np.savetxt("target.txt", np.fft.fftshift(np.abs(np.fft.fft2(a)) ** 2))
PY
"$bin" rmc --target target.txt --loading 0.06 --steps 2000 --seed 1 --device cpu --output rmc -q || fail "rmc"

$py - <<'PY' || fail "a picture is not a figure with axes and a colour bar"
import struct, sys
import numpy as np
import matplotlib.image

images = ["polar.png", "polar_output.png", "flat.png", "gisaxs.png", "gisaxs_output.png",
          "rmc/target.png", "rmc/model_tile0.png", "rmc/occupancy_tile0.png"]
lines = ["i.png", "g.png"]
# figure.cpp's layout at quick_look_figure()'s 14-pixel font: margins left
# 5, bottom 3.6 fonts; the colour bar 0.8 fonts right of the plot, 1.2 wide,
# right of it 4.2 fonts of numbers, then 1.2 of margin.
font = 14
bad = []

def check(ok, what):
    if not ok:
        bad.append(what)

def text_chunks(path):
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: not a PNG")
    i, out, size = 8, {}, None
    while i < len(data):
        n, kind = struct.unpack(">I4s", data[i:i + 8])
        body = data[i + 8:i + 8 + n]
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
        if kind == b"tEXt":
            key, value = body.split(b"\0", 1)
            out[key] = value
        i += 12 + n
    return size, out

def dark(rgb):
    return (rgb.max(axis=-1) < 0.3)

for path in images + lines:
    size, text = text_chunks(path)
    expected = (640, 560) if path in images else (800, 500)
    check(size == expected, f"{path}: {size} pixels, expected the figure's {expected}")
    check(text.get(b"nanoscatter:header_1", b"").startswith(b"command: "), f"{path}: no run record in tEXt")
    if size != expected:
        continue
    rgb = matplotlib.image.imread(path)[..., :3]
    h, w = rgb.shape[:2]
    # Tick labels and the y label in the left margin, tick labels and the
    # x label in the bottom margin: dark text, dozens of pixels at least.
    check(dark(rgb[:, : 5 * font - 4]).sum() > 100, f"{path}: no text left of the plot")
    if path in lines:
        check(dark(rgb[h - int(3.6 * font) + 4:, 5 * font:]).sum() > 100, f"{path}: no text below the plot")
        check(dark(rgb[: 2 * font]).sum() > 50, f"{path}: no title")
        continue
    bar_x = int(w - (1.2 + 4.2 + 0.6) * font)  # the middle of the colour bar
    column = rgb[:, bar_x]
    # The bar: the longest run of non-white pixels down that column (the
    # colour label above it is short).
    rows = np.nonzero(np.abs(column - 1).sum(axis=1) > 0.05)[0]
    runs = np.split(rows, np.nonzero(np.diff(rows) > 1)[0] + 1) if len(rows) else [rows]
    coloured = max(runs, key=len)
    check(len(coloured) > 200, f"{path}: no colour bar at x = {bar_x}")
    if len(coloured) <= 200:
        continue
    top, bottom = column[coloured[0] + 2], column[coloured[-1] - 2]
    viridis_top, viridis_bottom = np.array([253, 231, 37]) / 255, np.array([68, 1, 84]) / 255
    check(np.abs(top - viridis_top).max() < 0.05, f"{path}: colour bar top {top * 255}")
    check(np.abs(bottom - viridis_bottom).max() < 0.05, f"{path}: colour bar bottom {bottom * 255}")
    numbers = rgb[coloured[0]:coloured[-1], bar_x + font:w]
    check(dark(numbers).sum() > 50, f"{path}: no numbers beside the colour bar")
    # The bar spans the plot's height (an equal aspect may shrink the plot
    # and move it down): the title above it, tick labels and the x label below.
    plot_top, plot_bottom, plot_right = coloured[0], coloured[-1], bar_x - font
    check(dark(rgb[:plot_top - 2, 5 * font:plot_right]).sum() > 50, f"{path}: no title")
    check(dark(rgb[plot_bottom + 2:, 5 * font:plot_right]).sum() > 100, f"{path}: no text below the plot")

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
echo "ok: every picture is a figure with labelled axes (and a colour bar)"
