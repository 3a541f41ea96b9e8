"""Detector images and masks from Python: CBF and EDF written by an
independent writer (fabio) read back exactly, bitshuffle/LZ4 and LZF chunks
written by h5py decode through the HDF5 plugins, and the mask functions take
NumPy arrays."""
import gzip
import os
import shutil
import tempfile
import unittest

import numpy as np

import nanoscatter

try:
    import fabio.cbfimage
    import fabio.edfimage
except ImportError:  # python3-fabio (scripts/deps.sh)
    fabio = None
try:
    import h5py
    import bitshuffle.h5
except ImportError:  # python3-h5py, python3-bitshuffle
    bitshuffle = None


class DetectorImages(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="ns-detector-")
        self.rng = np.random.default_rng()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    @unittest.skipIf(fabio is None, "needs fabio")
    def test_cbf_from_fabio(self):
        data = self.rng.integers(-2, 1 << 20, size=(37, 23)).astype(np.int32)
        data[0, 0] = 123456  # top-left marker: row 0, col 0
        fabio.cbfimage.CbfImage(data=data).write(self.path("a.cbf"))
        image, meta = nanoscatter.read_image(self.path("a.cbf"))
        self.assertEqual(meta["format"], "cbf")
        np.testing.assert_array_equal(image, data)
        self.assertEqual(image[0, 0], 123456)
        with open(self.path("a.cbf"), "rb") as f, gzip.open(self.path("a.cbf.gz"), "wb") as g:
            g.write(f.read())
        np.testing.assert_array_equal(nanoscatter.read_image(self.path("a.cbf.gz"))[0], data)

    @unittest.skipIf(fabio is None, "needs fabio")
    def test_cbf_minicbf_header(self):
        header = {"_array_data.header_convention": "PILATUS_1.2",
                  "_array_data.header_contents": "# Pixel_size 172e-6 m x 172e-6 m\r\n# Wavelength 1.0332 A\r\n"
                                                 "# Detector_distance 0.5 m\r\n# Exposure_time 0.1 s\r\n"}
        data = np.arange(12, dtype=np.int32).reshape(3, 4)
        fabio.cbfimage.CbfImage(data=data, header=header).write(self.path("p.cbf"))
        _, meta = nanoscatter.read_image(self.path("p.cbf"))
        self.assertAlmostEqual(meta["pixel_size_x_m"], 172e-6)
        self.assertAlmostEqual(meta["pixel_size_y_m"], 172e-6)
        self.assertAlmostEqual(meta["wavelength_a"], 1.0332)
        self.assertAlmostEqual(meta["distance_m"], 0.5)
        self.assertAlmostEqual(meta["exposure_s"], 0.1)

    @unittest.skipIf(fabio is None, "needs fabio")
    def test_edf_from_fabio(self):
        for dtype in (np.uint16, np.int32, np.uint32, np.float32, np.float64):
            with self.subTest(dtype=dtype):
                shape = tuple(self.rng.integers(1, 50, size=2))
                data = (self.rng.normal(size=shape) * 1000).astype(dtype)
                fabio.edfimage.EdfImage(data=data).write(self.path("a.edf"))
                image, meta = nanoscatter.read_image(self.path("a.edf"))
                self.assertEqual(meta["format"], "edf")
                np.testing.assert_array_equal(image, data.astype(np.float64))

    @unittest.skipIf(bitshuffle is None, "needs h5py and bitshuffle")
    def test_hdf5_plugin_filters(self):
        frames = self.rng.integers(0, 1000, size=(3, 40, 30)).astype(np.uint32)
        with h5py.File(self.path("eiger_data.h5"), "w") as f:
            f.create_dataset("entry/data/data", data=frames, chunks=(1, 40, 30),
                             compression=bitshuffle.h5.H5FILTER,
                             compression_opts=(0, bitshuffle.h5.H5_COMPRESS_LZ4))
            f.create_dataset("lzf", data=frames[0], chunks=(8, 8), compression="lzf")
        for frame in range(3):
            image, meta = nanoscatter.read_image(self.path("eiger_data.h5"), frame=frame)
            np.testing.assert_array_equal(image, frames[frame])
        np.testing.assert_array_equal(nanoscatter.read_image(self.path("eiger_data.h5") + ":/lzf")[0], frames[0])
        with self.assertRaisesRegex(nanoscatter.Error, "frame: frame 3 requested"):
            nanoscatter.read_image(self.path("eiger_data.h5"), frame=3)

    def test_masks_take_arrays(self):
        image = np.array([[-1.0, 0.0, 5.0], [np.nan, 100.0, 99.0]])
        mask = nanoscatter.mask_from_values(image, saturation=100)
        np.testing.assert_array_equal(mask, [[0, 1, 1], [0, 0, 1]])
        self.assertEqual(mask.dtype, np.uint8)
        full = np.ones((20, 30), dtype=np.uint8)
        beamstop = nanoscatter.apply_mask_shapes(full, [{"type": "circle", "centre": [10, 5], "radius": 2}])
        rr, cc = np.mgrid[0:20, 0:30]
        np.testing.assert_array_equal(beamstop == 0, (cc - 10) ** 2 + (rr - 5) ** 2 <= 4)
        roi = nanoscatter.apply_mask_shapes(full, [{"type": "rectangle", "unit": "mm", "x": [0, 1.0],
                                                    "y": [0, 0.5], "keep_inside": True}],
                                            pixel_size_mm=(0.1, 0.1))
        np.testing.assert_array_equal(roi == 1, (cc <= 10) & (rr <= 5))
        with self.assertRaisesRegex(nanoscatter.Error, "unknown mask shape 'star'"):
            nanoscatter.apply_mask_shapes(full, [{"type": "star"}])

    def test_mask_file_meaning(self):
        with h5py.File(self.path("mask.h5"), "w") as f:
            f["mask"] = np.array([[0, 1], [2, 0]], dtype=np.int8)
        np.testing.assert_array_equal(nanoscatter.read_mask(self.path("mask.h5")), [[1, 0], [0, 1]])
        np.testing.assert_array_equal(nanoscatter.read_mask(self.path("mask.h5"), nonzero="used"), [[0, 1], [1, 0]])


if __name__ == "__main__":
    unittest.main()
