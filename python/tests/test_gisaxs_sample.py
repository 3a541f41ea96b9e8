"""The GISAXS sample as an editable object (nanoscatter.SampleDocument):
an edit from Python gives exactly the image of the same edit made in the
TOML file; a refused edit raises nanoscatter.Error naming the key and
changes nothing; the document written back reads as the same sample."""
import os
import unittest

import numpy as np

import nanoscatter as ns
from common import SOURCE_DIR, ScratchTestCase

EXAMPLE = os.path.join(SOURCE_DIR, "examples", "gisaxs", "cylinders_on_substrate.toml")


class SampleDocumentTest(ScratchTestCase):
    def test_edit_equals_the_edited_file(self):
        doc = ns.SampleDocument.read(EXAMPLE)
        self.assertEqual(doc["particle[0].radius"], 5.0)
        doc["particle[0].radius"] = 4.0
        doc["detector.phi_f.bins"] = 60
        doc["detector.alpha_f.bins"] = 50
        text = open(EXAMPLE, encoding="utf-8").read()
        text = text.replace("radius = 5.0", "radius = 4.0").replace("bins = 200 }     # degrees", "bins = 60 }", 1)
        text = text.replace("bins = 200 }    # degrees", "bins = 50 }", 1)
        with open(self.path("edited.toml"), "w", encoding="utf-8") as f:
            f.write(text)
        from_object = ns.gisaxs(doc, device="cpu").intensity
        from_file = ns.gisaxs(self.path("edited.toml"), device="cpu").intensity
        self.assertEqual(from_object.shape, (50, 60))
        np.testing.assert_array_equal(from_object, from_file)

    def test_refused_edit_changes_nothing(self):
        doc = ns.SampleDocument.read(EXAMPLE)
        before = doc.toml
        with self.assertRaises(ns.Error) as e:
            doc["particle[0].radius"] = -2.0
        self.assertIn("particle[0].radius", str(e.exception))
        with self.assertRaises(ns.Error):
            doc["particle[0].radiuss"] = 3.0
        with self.assertRaises(ns.Error):
            doc["particle[0].radius"] = [1, 2]
        self.assertEqual(doc.toml, before)

    def test_written_document_reads_back(self):
        doc = ns.SampleDocument.read(EXAMPLE)
        doc["particle[0].height"] = 7.5
        doc.write(self.path("out.toml"))
        again = ns.SampleDocument.read(self.path("out.toml"))
        self.assertEqual(again["particle[0].height"], 7.5)
        self.assertEqual(again.keys(), doc.keys())
        self.assertIn("beam.wavelength", doc.keys())


if __name__ == "__main__":
    unittest.main()
