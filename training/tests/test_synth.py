"""python3 -m unittest discover -s tests (from training/): the plate generator's frames."""

import unittest

import numpy as np
from PIL import Image

from vigil_train.synth import PlateSynth


class PlateFrameTest(unittest.TestCase):
    # A 240 x 120 plate whose number fills x 40-200, y 36-96 (60 px tall): the screw heads,
    # at most 0.26 of the plate's height down, stay above it.
    BOX = (40, 36, 200, 96)

    def framed(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        plate = Image.new("RGB", (240, 120), (250, 250, 250))
        plate.paste((10, 10, 10), self.BOX)
        before = np.asarray(plate).copy()
        PlateSynth(seed).frame(plate, self.BOX)
        return before, np.asarray(plate)

    def test_the_frame_covers_the_plate_edges(self):
        for seed in range(20):
            before, after = self.framed(seed)
            self.assertFalse(np.array_equal(before[-1], after[-1]), seed)
            self.assertFalse(np.array_equal(before[:, 0], after[:, 0]), seed)

    def test_the_number_stays_readable(self):
        x0, y0, x1, y1 = self.BOX
        gh = y1 - y0
        reached = set()
        for seed in range(300):
            before, after = self.framed(seed)
            # Rows the frame may never reach: 5% of the number's height from its top, 7% from
            # its bottom; columns: a tenth of its height from either end.
            core = (slice(int(y0 + 0.05 * gh) + 1, int(y1 - 0.07 * gh) - 1), slice(int(x0 + 0.1 * gh) + 1, int(x1 - 0.1 * gh) - 1))
            np.testing.assert_array_equal(before[core], after[core], err_msg=f"seed {seed}")
            changed = np.any(before[y0:y1, x0:x1] != after[y0:y1, x0:x1], axis=2)
            if changed[-1].any():
                reached.add("bottom")
            if changed[0].any():
                reached.add("top")
        # ... yet it does cut into numbers, from both sides, across the seeds.
        self.assertEqual(reached, {"bottom", "top"})


if __name__ == "__main__":
    unittest.main()
