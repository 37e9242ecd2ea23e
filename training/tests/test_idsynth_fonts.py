import re
import unittest
from pathlib import Path

from vigil_train.idsynth import FURTHER_FONTS, IDENTIFIER_FONTS, UNSEEN_FONTS, WIDER_FONTS
from vigil_train.synth import PLATE_WIDER_FONTS

SECOND_GENERATOR = Path(__file__).resolve().parents[2] / "bench" / "lib" / "ocr-synthetic-second.ts"


def face(path: str) -> str:
    """A font file's face, lower case without spaces or separators: 'Anonymous Pro B.ttf' -> 'anonymousprob'."""
    return re.sub(r"[^a-z0-9]", "", Path(path).stem.lower())


def family(path: str) -> str:
    """A font file's family: its name up to the first separator ('Manrope-ExtraBold' -> 'manrope')."""
    return re.split(r"[-_ ]", Path(path).stem)[0].lower()


class FontSplitTest(unittest.TestCase):
    """The unseen-font validation only means something while no run trains on those faces, and
    the wider faces are only new to the readers where no bench generator draws them."""

    def test_unseen_faces_are_in_no_training_list(self):
        trained = IDENTIFIER_FONTS + WIDER_FONTS + FURTHER_FONTS + PLATE_WIDER_FONTS
        for f in UNSEEN_FONTS:
            self.assertNotIn(face(f), {face(t) for t in trained}, f)
        # Nor another weight of the same family.
        families = {family(f) for f in UNSEEN_FONTS}
        self.assertFalse(families & {family(t) for t in trained}, families)

    def test_wider_faces_are_not_the_second_generators(self):
        # The bench's second generator names fontconfig families ('Liberation Sans Narrow', 'Jura', ...).
        listed = re.search(r"const FONTS = \[([^\]]*)\]", SECOND_GENERATOR.read_text()).group(1)
        second = {re.sub(r"[^a-z0-9]", "", name.lower()) for name in re.findall(r"'([^']+)'", listed)}
        self.assertGreater(len(second), 5)
        for f in WIDER_FONTS + FURTHER_FONTS + UNSEEN_FONTS:
            self.assertFalse(any(face(f).startswith(name) for name in second), f)


if __name__ == "__main__":
    unittest.main()
