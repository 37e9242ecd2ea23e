"""python3 -m unittest discover -s tests (from training/): the identifier generator's relief share."""

import unittest

import numpy as np

from vigil_train.idsynth import IdentifierSynth


class ReliefTest(unittest.TestCase):
    def test_no_relief_draws_exactly_what_the_generator_drew_before(self):
        # Validation sets and resumed runs are seeded: the default must not move them.
        plain, zero = IdentifierSynth(5), IdentifierSynth(5, relief=0.0)
        for _ in range(4):
            self.assertTrue(np.array_equal(plain.render(*plain.text()), zero.render(*zero.text())))

    def test_relief_lines_are_pale_plates(self):
        synth = IdentifierSynth(7, relief=1.0)
        synth._photograph = lambda img: img  # the line as drawn, before the camera's blur and light
        for _ in range(12):
            line = synth.render("1G14HDB73SE898121", "vin").astype(np.float32).mean(axis=2)
            self.assertGreater(float(np.median(line)), 180)  # white on white: the plate's own grey

    def test_relief_is_lit_from_any_side(self):
        mask = np.zeros((60, 60), np.float32)
        mask[20:40, 20:40] = 1
        pale = np.full((60, 60, 3), 220, np.float32)

        def shadow_sides(synth: IdentifierSynth) -> set[tuple[bool, bool]]:
            """Which side of the embossed square its shadow falls on, over a few draws."""
            sides = set()
            for _ in range(20):
                shade = synth._styled(mask, pale, (20, 20, 20), "embossed", 40).mean(axis=2) < 200
                ys, xs = np.nonzero(shade)
                sides.add((bool(xs.mean() > 30), bool(ys.mean() > 30)))
            return sides

        self.assertEqual(shadow_sides(IdentifierSynth(3)), {(True, True)})  # as before: from the top left
        self.assertGreater(len(shadow_sides(IdentifierSynth(3, relief=0.5))), 2)

if __name__ == "__main__":
    unittest.main()
