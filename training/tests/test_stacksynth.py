import unittest

import numpy as np

from vigil_train.stacksynth import HEIGHT, WIDTH, fit_column


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


if __name__ == "__main__":
    unittest.main()
