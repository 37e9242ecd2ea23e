"""python3 -m unittest discover -s tests (from training/): a wider identifier reader (train_ids.py
`--width`) exports, loads back from its ONNX file at the width it was trained at, and starts from
a narrower trained reader computing what that reader computes (widen.py); so does a wider plate
reader from the shipped one (train_reader.py `--init --width`)."""

import tempfile
import unittest
from pathlib import Path

try:
    import torch
except ImportError:  # numpy and OpenCV without torch: CI runs the other tests
    torch = None


def trained_looking(model):
    """`model` in evaluation mode with batch norms as training leaves them (a fresh one's equal
    tensors would also export as one shared tensor)."""
    with torch.no_grad():
        for name, tensor in model.state_dict().items():
            if tensor.dtype == torch.float32 and tensor.dim() == 1 and not name.startswith("classifier"):
                tensor.copy_(torch.rand_like(tensor) * 0.5 + 0.75)
    return model.eval()


@unittest.skipUnless(torch, "needs Debian's python3-torch")
class WiderReaderTest(unittest.TestCase):
    def test_a_wider_reader_exports_and_loads_back_at_its_width(self):
        from vigil_train import idsynth, train_ids
        from vigil_train.export import export
        from vigil_train.model import ExportWrapper, PlateReader, parameter_count
        from vigil_train.warm_start import load_onnx_weights, onnx_reader_width

        torch.manual_seed(7)
        model = trained_looking(PlateReader(1.5, classes=train_ids.CLASSES))
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

    def test_a_widened_reader_reads_as_the_narrow_one_and_its_copies_learn_apart(self):
        from vigil_train import idsynth, train_ids
        from vigil_train.model import PlateReader
        from vigil_train.widen import widen

        torch.manual_seed(11)
        narrow = trained_looking(PlateReader(classes=train_ids.CLASSES))
        wide = widen(narrow, PlateReader(1.5, classes=train_ids.CLASSES), seed=2).eval()
        x = torch.rand(3, 3, idsynth.HEIGHT, idsynth.WIDTH)
        with torch.no_grad():
            self.assertLess((wide(x) - narrow(x)).abs().max().item(), 1e-4)
        # A copied channel and its original take different gradients: the next layer splits
        # their weight unequally, so training does not keep them twins.
        wide.train()
        wide(x).sum().backward()
        first = wide.features[0][0]
        twin = 32  # the first added channel, and the channel it copies
        original = next(k for k in range(32) if torch.equal(first.weight[k], first.weight[twin]))
        self.assertFalse(torch.allclose(first.weight.grad[original], first.weight.grad[twin]))

    def test_a_wider_plate_reader_starts_from_the_shipped_one_reading_as_it_does(self):
        import argparse

        from vigil_train.model import HEIGHT, WIDTH, ExportWrapper, PlateReader, width_argument
        from vigil_train.warm_start import load_onnx_weights
        from vigil_train.widen import start_from_export

        shipped = Path(__file__).resolve().parents[2] / "models" / "plate-reader.onnx"
        torch.manual_seed(13)
        x = torch.rand(4, 3, HEIGHT, WIDTH)
        narrow, wide = PlateReader(), PlateReader(width_argument("1.5"))
        with torch.no_grad():
            load_onnx_weights(narrow, shipped, x, ExportWrapper)
            start_from_export(wide, shipped, x, ExportWrapper, seed=5)
            narrow.eval(), wide.eval()
            self.assertEqual(wide.features[0][0].out_channels, 48)
            self.assertLess((wide(x) - narrow(x)).abs().max().item(), 1e-4)
        with self.assertRaises(argparse.ArgumentTypeError):
            width_argument("1.3")  # not a multiple of a quarter: its stages would not name its width


if __name__ == "__main__":
    unittest.main()
