"""The GISAXS sample as an editable object (nanoscatter.SampleDocument):
an edit from Python gives exactly the image of the same edit made in the
TOML file; a refused edit raises nanoscatter.Error naming the key and
changes nothing; the document written back reads as the same sample.
Re-evaluation (issue 21): GisaxsPlan.set_layouts and GisaxsModel take an
edited radius of one of two particle kinds, give the edited file's image
(1e-12) and recompute that kind alone (stats)."""
import os
import unittest

import numpy as np

import nanoscatter as ns
from common import SOURCE_DIR, ScratchTestCase

EXAMPLE = os.path.join(SOURCE_DIR, "examples", "gisaxs", "cylinders_on_substrate.toml")
# Cylinders (particle[0], radius 6) and spheroids (particle[1], radius 5): two kinds.
TWO_KINDS = os.path.join(SOURCE_DIR, "tests", "data", "gisaxs", "mixture_paracrystal.toml")


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



class ReEvaluationTest(ScratchTestCase):
    def edited_file_image(self, old, new):
        """The image of TWO_KINDS with one line of its text replaced."""
        with open(TWO_KINDS, encoding="utf-8") as f:
            text = f.read()
        self.assertEqual(text.count(old), 1)
        with open(self.path("edited.toml"), "w", encoding="utf-8") as f:
            f.write(text.replace(old, new))
        return ns.gisaxs(self.path("edited.toml"), device="cpu").intensity

    def assert_same_image(self, got, want):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12 * np.abs(want).max())

    def test_plan_set_layouts_recomputes_the_changed_kind(self):
        doc = ns.SampleDocument.read(TWO_KINDS)
        plan = ns.GisaxsPlan(doc, device="cpu")
        self.assertEqual(plan.particle_kinds, 2)
        plan.execute()
        plan.set_layouts(doc)  # re-evaluated from here: amplitudes are kept
        plan.execute()
        before = plan.stats
        doc["particle[1].radius"] = 6.5
        plan.set_layouts(doc)
        image = plan.execute().intensity
        after = plan.stats
        self.assertEqual(after["last_computed_kinds"], [1])
        self.assertEqual(after["kinds_reused"] - before["kinds_reused"], 1)
        self.assertEqual(after["amplitude_pixels"] - before["amplitude_pixels"], image.size)
        self.assert_same_image(image, self.edited_file_image("radius = 5.0", "radius = 6.5"))
        # An abundance weights the kinds: nothing computed.
        doc["particle[0].abundance"] = 0.4
        plan.set_layouts(doc)
        plan.execute()
        self.assertEqual(plan.stats["last_computed_kinds"], [])

    def test_set_layouts_refuses_a_beam_edit(self):
        doc = ns.SampleDocument.read(TWO_KINDS)
        plan = ns.GisaxsPlan(doc, device="cpu")
        doc["beam.alpha_i"] = 0.4
        with self.assertRaises(ns.Error) as e:
            plan.set_layouts(doc)
        self.assertIn("beam.alpha_i", str(e.exception))

    def test_model_device_keyword_and_stats(self):
        model = ns.GisaxsModel(TWO_KINDS, ["particle[0].radius"], device="cpu", threads=2)
        self.assertIsNone(model.stats)
        model(6.0)
        model(5.5)  # the first set_layouts: the model's plan is re-evaluated from here
        image = model(4.5)
        self.assertEqual(model.stats["last_computed_kinds"], [0])
        self.assertEqual(model.device_summary, "CPU")
        self.assert_same_image(image, self.edited_file_image("radius = 6.0", "radius = 4.5"))
        with self.assertRaises(ns.Error) as e:
            ns.GisaxsModel(TWO_KINDS, [], devise="cpu")
        self.assertIn("devise", str(e.exception))
        self.assertIn("device", str(e.exception))
        with self.assertRaises(ns.Error) as e:
            ns.GisaxsModel(TWO_KINDS, [], precision="quad")
        self.assertIn("precision", str(e.exception))


if __name__ == "__main__":
    unittest.main()
