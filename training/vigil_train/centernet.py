"""The losses both CenterNet-style heads learn by (plates in detector.py, vehicles beside them)."""

from __future__ import annotations

import torch
import torch.nn.functional as F


def focal_loss(logits: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor | float = 1.0) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per positive; `weight` scales the negatives (0 leaves
    a cell out: where an unsure teacher box lies)."""
    p = logits.sigmoid().clamp(1e-4, 1 - 1e-4)
    pos = heat.eq(1).float()
    neg = (1 - pos) * weight
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p ** 2 * (1 - heat) ** 4 * neg
    return -(pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def box_loss(p_wh: torch.Tensor, p_off: torch.Tensor, wh: torch.Tensor, off: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """L1 on the log size (a tenth) and the centre offset, at the centre cells (`mask`) only."""
    n = mask.sum().clamp(min=1)
    m = mask[:, None]
    return 0.1 * F.l1_loss(p_wh * m, wh * m, reduction="sum") / n + F.l1_loss(p_off * m, off * m, reduction="sum") / n


def validation_score(metrics: dict[str, float]) -> tuple[float, dict]:
    """Recall first; a wrong box per frame costs as much as a tenth of the objects."""
    return metrics["recall"] - 0.1 * metrics["wrong_per_frame"], {k: round(v, 3) for k, v in metrics.items()}
