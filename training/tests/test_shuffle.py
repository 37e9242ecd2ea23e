"""python3 -m unittest discover -s tests (from training/): the character shuffle's geometry."""

import random
import unittest

import numpy as np

from vigil_train.shuffle import FRAMES, character_segments, cut_points, reorder


class CharacterShuffleTest(unittest.TestCase):
    def test_segments_follow_the_greedy_path(self):
        # blank, A A, blank, B, B after a blank is a second B, then C
        classes = [0, 11, 11, 0, 12, 0, 12, 13, 0]
        self.assertEqual(character_segments(classes), [(1, 2), (4, 4), (6, 6), (7, 7)])

    def test_cuts_fall_halfway_between_characters(self):
        # Frames are 4 px wide on a 160 px crop: characters at frames 10, 20 and 30.
        cuts = cut_points([(10, 10), (20, 20), (30, 30)], 160)
        self.assertEqual(cuts, [22, 62, 102, 142])
        self.assertEqual(FRAMES * 4, 160)

    def test_cuts_refuse_characters_too_close_to_cut_apart(self):
        self.assertIsNone(cut_points([(10, 10), (10, 10)], 160))
        self.assertIsNone(cut_points([(10, 12)], 160))

    def test_reordering_moves_pieces_with_their_labels(self):
        # Three 10 px pieces, each filled with its own value, between 5 px margins.
        img = np.zeros((4, 40, 3), np.uint8)
        img[:, :5] = 9
        for k in range(3):
            img[:, 5 + 10 * k:15 + 10 * k] = k + 1
        img[:, 35:] = 8
        out, text = reorder(img, "ABC", [5, 15, 25, 35], [2, 0, 1])
        self.assertEqual(text, "CAB")
        self.assertEqual(out.shape, img.shape)
        self.assertEqual([int(out[0, x, 0]) for x in (0, 5, 15, 25, 35)], [9, 3, 1, 2, 8])

    def test_shuffled_order_is_never_the_original(self):
        from vigil_train.shuffle import CharacterShuffler
        shuffler = CharacterShuffler.__new__(CharacterShuffler)  # no model: alignment given below
        shuffler.align = lambda img, text: [0, 50, 100, 150]
        img = np.arange(160, dtype=np.uint8)[None, :, None].repeat(3, 2).repeat(48, 0)
        for seed in range(20):
            out, text = shuffler.shuffle(img, "AB1", random.Random(seed))
            self.assertNotEqual(text, "AB1")
            self.assertEqual(sorted(text), sorted("AB1"))


if __name__ == "__main__":
    unittest.main()
