"""python3 -m unittest discover -s tests (from training/): a wider identifier reader (train_ids.py
`--width`) exports, and loads back from its ONNX file at the width it was trained at."""

import tempfile
import unittest
from pathlib import Path

try:
    import torch
except ImportError:  # numpy and OpenCV without torch: CI runs the other tests
    torch = None


@unittest.skipUnless(torch, "needs Debian's python3-torch")
class WiderReaderTest(unittest.TestCase):
    def test_a_wider_reader_exports_and_loads_back_at_its_width(self):
        from vigil_train import idsynth, train_ids
        from vigil_train.export import export
        from vigil_train.model import ExportWrapper, PlateReader, parameter_count
        from vigil_train.warm_start import load_onnx_weights, onnx_reader_width

        torch.manual_seed(7)
        model = PlateReader(1.5, classes=train_ids.CLASSES).eval()
        with torch.no_grad():  # trained-looking batch norms (a fresh one's equal tensors export as shared)
            for name, tensor in model.state_dict().items():
                if tensor.dtype == torch.float32 and "conv" not in name and tensor.dim() == 1:
                    tensor.copy_(torch.rand_like(tensor) * 0.5 + 0.75)
        self.assertGreater(parameter_count(model), 2 * parameter_count(PlateReader(classes=train_ids.CLASSES)))
        x = torch.rand(2, 3, idsynth.HEIGHT, idsynth.WIDTH)
        with tempfile.TemporaryDirectory() as folder:
            checkpoint, onnx_file = Path(folder) / "last.pt", Path(folder) / "wide.onnx"
            torch.save({"model": model.state_dict()}, checkpoint)
            export(checkpoint, onnx_file, kind="identifiers")
            self.assertEqual(onnx_reader_width(onnx_file), 1.5)
            again = PlateReader(onnx_reader_width(onnx_file), classes=train_ids.CLASSES)
            with torch.no_grad():
                load_onnx_weights(again, onnx_file, x, ExportWrapper)
                again.eval()
                self.assertTrue(torch.allclose(again(x), model(x), atol=1e-4))


if __name__ == "__main__":
    unittest.main()
