import random
import unittest

import numpy as np

from vigil_train.stacksynth import HEIGHT, WIDTH, StackSynth, fit_column


class FitColumnTest(unittest.TestCase):
    """The trainer turns a column as src/vision/ocr/stack-reader.ts does (its tests check the
    same picture): top at the left, height 48 at its aspect, grey past its end."""

    def column(self, w: int, h: int, mark: int) -> np.ndarray:
        img = np.full((h, w, 3), 200, np.uint8)
        img[:mark] = 0
        return img

    def test_top_reads_first_at_the_left(self):
        out = fit_column(self.column(20, 100, 20))
        self.assertEqual(out.shape, (HEIGHT, WIDTH, 3))
        self.assertEqual(out[24, 10, 0], 0)
        self.assertEqual(out[24, 100, 0], 200)
        self.assertEqual(out[24, 250, 0], 128)

    def test_a_long_column_is_squeezed_into_the_slot(self):
        out = fit_column(self.column(10, 400, 0))
        self.assertEqual(out[24, WIDTH - 1, 0], 200)


class StencilTest(unittest.TestCase):
    """A stencilled column has bridges in every character, as one stencil cut them all (the
    second generator's stencilled stacks were misread a character at a time: 8097 as 8C97)."""

    GLYPHS = [(0, 30), (55, 30), (110, 8), (165, 30), (220, 30)]  # top and width; the third a narrow 1

    def column(self) -> np.ndarray:
        mask = np.zeros((270, 40), np.float32)
        for top, w in self.GLYPHS:
            mask[top:top + 40, 20 - w // 2:20 - w // 2 + w] = 1
        return mask

    def test_every_wide_character_gets_a_bridge_and_keeps_its_shape(self):
        mask = self.column()
        for seed in range(20):
            synth = StackSynth.__new__(StackSynth)  # no fonts needed: only the random source
            synth.rng = random.Random(seed)
            out = synth._stencil_glyphs(mask, 40)
            self.assertTrue((out <= mask).all(), seed)
            for top, w in self.GLYPHS:
                before, after = mask[top:top + 40].sum(), out[top:top + 40].sum()
                self.assertGreater(after, 0.7 * before, (seed, top))
                if w > 10:
                    self.assertLess(after, before, (seed, top))


if __name__ == "__main__":
    unittest.main()
