"""The reader's alphabet. O and I are folded into 0 and 1 in training targets, as the benchmark
scores them and as many plate fonts draw them: the network never has to guess which of two
identical glyphs a label chose, and the region grammars pick O or I where a format wants a letter
(src/vision/plates/plate-scoring.ts treats the pairs as one glyph)."""

CHARS = "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ"
# Class 0 is the CTC blank; character k is class k + 1.
CLASSES = len(CHARS) + 1
INDEX = {c: i + 1 for i, c in enumerate(CHARS)}
FOLD = str.maketrans({"O": "0", "I": "1"})


def normalize(text: str) -> str:
    """Upper case alphanumerics with O/I folded; everything else dropped."""
    return "".join(c for c in text.upper().translate(FOLD) if c in INDEX)


def encode(text: str) -> list[int]:
    return [INDEX[c] for c in normalize(text)]


def greedy_decode(frame_classes, chars: str = CHARS) -> str:
    """Best class per frame -> text (repeats collapse unless a blank separates them); class k is
    chars[k - 1]."""
    out, prev = [], 0
    for k in frame_classes:
        k = int(k)
        if k != prev and k != 0:
            out.append(chars[k - 1])
        prev = k
    return "".join(out)
