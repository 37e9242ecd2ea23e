"""python3 -m unittest discover -s tests (from training/): the identifier and stack readers put in
8 bits (quantize.py --kind), calibrated on their trainers' own lines and columns, and an 8-bit
file loaded back, dequantized, to train on from (warm_start.py)."""

import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx

from vigil_train.idsynth import IDENTIFIER_FONTS
from vigil_train.synth import available

try:
    import torch
except ImportError:  # numpy and OpenCV without torch: CI runs the other tests
    torch = None

MODELS = Path(__file__).resolve().parents[2] / "models"


@unittest.skipUnless(available(IDENTIFIER_FONTS), "needs the identifier trainer's Debian fonts (training/README.md, Setup)")
class SyntheticCalibrationTest(unittest.TestCase):
    def test_lines_and_columns_come_at_their_readers_input_size(self):
        from vigil_train.quantize import synthetic_batches

        for kind, width in (("identifiers", 384), ("stacks", 256)):
            batches = synthetic_batches(kind, 3)
            self.assertEqual([b.shape for b in batches], [(1, 3, 48, width)] * 3, kind)
            self.assertTrue(all(b.dtype == np.float32 and 0 <= b.min() and b.max() <= 1 for b in batches), kind)

    def test_the_shipped_identifier_reader_quantizes_with_its_inputs_and_outputs_kept(self):
        from vigil_train.quantize import quantize, synthetic_batches

        source = MODELS / "identifier-reader.onnx"
        with tempfile.TemporaryDirectory() as folder:
            out = Path(folder) / "ids.int8.onnx"
            quantize(source, out, synthetic_batches("identifiers", 4))
            float_graph, graph = onnx.load(str(source)).graph, onnx.load(str(out)).graph
        self.assertEqual([i.name for i in graph.input], [i.name for i in float_graph.input])
        self.assertEqual([o.name for o in graph.output], [o.name for o in float_graph.output])
        int8 = {i.name for i in graph.initializer if i.data_type == onnx.TensorProto.INT8 and len(i.dims) == 4}
        convs = [n for n in graph.node if n.op_type == "Conv" and n.input[1].endswith("_dq")]
        self.assertEqual(len(convs), 7)  # every 2-D convolution; the 1-D context and classifier stay float
        self.assertEqual({n.input[1].removesuffix("_dq") + "_q" for n in convs}, int8)

    @unittest.skipUnless(torch, "needs Debian's python3-torch")
    def test_an_8_bit_reader_loads_back_dequantized_and_reads_as_its_float_graph(self):
        from vigil_train import train_ids
        from vigil_train.model import ExportWrapper, PlateReader
        from vigil_train.quantize import quantize, synthetic_batches
        from vigil_train.warm_start import load_onnx_weights

        source = MODELS / "identifier-reader.onnx"
        x, texts = train_ids.validation_set(n=24)
        readers = []
        with tempfile.TemporaryDirectory() as folder, torch.no_grad():
            out = Path(folder) / "ids.int8.onnx"
            quantize(source, out, synthetic_batches("identifiers", 8))
            for f in (source, out):
                reader = PlateReader(classes=train_ids.CLASSES)
                load_onnx_weights(reader, f, x, ExportWrapper)
                readers.append(reader.eval())
            full, dequantized = (r(x).exp() for r in readers)
        # 7-bit weights move the probabilities little and the frames' best classes hardly at all
        # (measured 2026-12-07: 8e-5 on average, 99.9% of the frames).
        self.assertLess((full - dequantized).abs().mean().item(), 1e-3)
        self.assertGreater((full.argmax(-1) == dequantized.argmax(-1)).float().mean().item(), 0.99)


if __name__ == "__main__":
    unittest.main()
