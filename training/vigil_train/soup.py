"""Average two exported readers of one network, weight by weight (a "model soup").

    /usr/bin/python3 -m vigil_train.soup ../models/plate-reader.onnx runs/reader-soup/plate-reader.onnx \
        --weight 0.5 --out runs/reader-soup/soup.onnx

A run continued from a shipped model (`--init`) stays near it in weight space: the average of the
two often reads better than either (Wortsman et al., "Model soups", 2022; "Robust fine-tuning of
zero-shot models", 2022), at no cost when reading. Both files hold every BatchNorm folded into
its convolution (export.py), so each convolution's weight and bias are averaged as they are; the
graphs must match node for node. `--weight` is the second model's share.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper


def conv_parameters(graph: onnx.GraphProto) -> list[str]:
    """Initializer names of every convolution's weight and bias, in graph order."""
    return [name for node in graph.node if node.op_type == "Conv" for name in node.input[1:]]


def soup(first: Path, second: Path, weight: float, out: Path) -> dict[str, object]:
    a, b = onnx.load(str(first)), onnx.load(str(second))
    if [n.op_type for n in a.graph.node] != [n.op_type for n in b.graph.node]:
        raise SystemExit(f"{first} and {second} are not the same network")
    a_names, b_names = conv_parameters(a.graph), conv_parameters(b.graph)
    b_inits = {i.name: numpy_helper.to_array(i) for i in b.graph.initializer}
    by_name = {i.name: i for i in a.graph.initializer}
    largest = 0.0
    for name_a, name_b in zip(a_names, b_names):
        wa, wb = numpy_helper.to_array(by_name[name_a]), b_inits[name_b]
        if wa.shape != wb.shape:
            raise SystemExit(f"{name_a} {wa.shape} does not fit {name_b} {wb.shape}")
        largest = max(largest, float(np.abs(wa - wb).max()))
        mixed = ((1 - weight) * wa + weight * wb).astype(wa.dtype)
        by_name[name_a].CopyFrom(numpy_helper.from_array(mixed, name_a))
    onnx.checker.check_model(a)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(a, str(out))
    return {"out": str(out), "parameters_mixed": len(a_names), "largest_weight_difference": largest, "weight": weight}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("first", type=Path)
    ap.add_argument("second", type=Path)
    ap.add_argument("--weight", type=float, default=0.5, help="the second model's share")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    print(json.dumps(soup(args.first, args.second, args.weight, args.out)))


if __name__ == "__main__":
    main()
