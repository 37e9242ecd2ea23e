"""Train/held-out splits that cannot leak.

Dev-set files are split by a hash of their *contents*: their names all hash to one side. Brazilian
training crops are split by plate text, since several video frames show one plate."""

import hashlib
from pathlib import Path


def content_side(path: Path) -> str:
    """'fit' (may be trained on) or 'held' (quoted figures only), half each."""
    digest = hashlib.sha1(path.read_bytes()).digest()
    return "fit" if digest[0] % 2 == 0 else "held"


def validation_part(path: Path, share: float = 0.2) -> bool:
    """Whether a 'fit' dev file is kept back for the reader's validation: a second byte of the same
    hash, so the 'held' half is untouched and the choice is as stable as the split."""
    digest = hashlib.sha1(path.read_bytes()).digest()
    return digest[0] % 2 == 0 and digest[1] < share * 256


def text_side(text: str, held_share: float = 0.15) -> str:
    digest = hashlib.sha1(text.encode()).digest()
    return "held" if digest[0] < held_share * 256 else "fit"
