#!/usr/bin/env python3
"""Writes the binary seed inputs of the fuzzers (scripts/fuzz.sh): tiny
detector images in each format the readers take, and a binary STL. Tiny on
purpose: libFuzzer mutates small inputs faster and the headers are what is
fuzzed. Usage: make_seeds.py OUT_DIR (one folder per fuzzer is made)."""
import struct
import sys
from pathlib import Path

import fabio.cbfimage
import fabio.edfimage
import fabio.tifimage
import h5py
import numpy as np

ROWS, COLS = 3, 4


def image(dtype):
    return (np.arange(ROWS * COLS).reshape(ROWS, COLS) * 7 + 1).astype(dtype)


def write_tiled_tiff(path: Path):
    """A little-endian TIFF of one 16 × 16 uint8 tile holding the 3 × 4
    image (fabio writes strips only; the reader's tile path is fuzzed
    from this)."""
    tile = np.zeros((16, 16), np.uint8)
    tile[:ROWS, :COLS] = image(np.uint8)
    # (tag, type, count, value): type 3 SHORT, 4 LONG; the tile follows the IFD.
    entries = [(256, 3, 1, COLS), (257, 3, 1, ROWS), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
               (277, 3, 1, 1), (322, 3, 1, 16), (323, 3, 1, 16), (324, 4, 1, None), (325, 4, 1, tile.size),
               (339, 3, 1, 1)]
    ifd_offset = 8
    tile_offset = ifd_offset + 2 + 12 * len(entries) + 4
    ifd = struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        value = tile_offset if value is None else value
        packed = struct.pack("<HI", value, 0)[:4] if kind == 3 else struct.pack("<I", value)
        ifd += struct.pack("<HHI", tag, kind, count) + packed
    ifd += struct.pack("<I", 0)
    path.write_bytes(b"II*\x00" + struct.pack("<I", ifd_offset) + ifd + tile.tobytes())


def main(out: Path):
    folders = {name: out / name for name in
               ("detector_tiff", "detector_cbf", "detector_edf", "detector_hdf5", "mesh_stl")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    fabio.tifimage.TifImage(data=image(np.uint16)).write(str(folders["detector_tiff"] / "u16.tif"))
    fabio.tifimage.TifImage(data=image(np.float32)).write(str(folders["detector_tiff"] / "f32.tif"))
    write_tiled_tiff(folders["detector_tiff"] / "tiled.tif")
    fabio.cbfimage.CbfImage(data=image(np.int32)).write(str(folders["detector_cbf"] / "i32.cbf"))
    fabio.edfimage.EdfImage(data=image(np.float32)).write(str(folders["detector_edf"] / "f32.edf"))
    fabio.edfimage.EdfImage(data=image(np.uint16)).write(str(folders["detector_edf"] / "u16.edf"))
    with h5py.File(folders["detector_hdf5"] / "plain.h5", "w") as f:
        f["/entry/data/data"] = image(np.int32)[None]
    with h5py.File(folders["detector_hdf5"] / "nexus.h5", "w") as f:
        f.attrs["default"] = "entry"
        entry = f.create_group("entry")
        entry.attrs["NX_class"] = "NXentry"
        entry.attrs["default"] = "plot"
        plot = entry.create_group("plot")
        plot.attrs["NX_class"] = "NXdata"
        plot.attrs["signal"] = "counts"
        plot["counts"] = image(np.float64)
    # Binary STL: 80-byte header, triangle count, then per triangle a normal,
    # three vertices and a 2-byte attribute.
    tetrahedron = [((0, 0, 0), (0, 1, 0), (1, 0, 0)), ((0, 0, 0), (1, 0, 0), (0, 0, 1)),
                   ((0, 0, 0), (0, 0, 1), (0, 1, 0)), ((1, 0, 0), (0, 1, 0), (0, 0, 1))]
    with open(folders["mesh_stl"] / "binary.stl", "wb") as f:
        f.write(b"binary tetrahedron".ljust(80, b" "))
        f.write(struct.pack("<I", len(tetrahedron)))
        for triangle in tetrahedron:
            f.write(struct.pack("<3f", 0, 0, 0))
            for vertex in triangle:
                f.write(struct.pack("<3f", *vertex))
            f.write(struct.pack("<H", 0))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
