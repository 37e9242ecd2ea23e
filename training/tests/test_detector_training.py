"""python3 -m unittest discover -s tests (from training/): the plate detector trained with its
encoder frozen, real plates pasted, and its vehicle head put back (with_vehicle_head.py)."""

import random
import unittest
from pathlib import Path

import numpy as np

try:
    import torch
except ImportError:  # numpy and OpenCV without torch: CI runs the other tests
    torch = None

MODEL = Path(__file__).resolve().parents[2] / "models" / "plate-detector.onnx"


@unittest.skipUnless(torch, "needs Debian's python3-torch")
class FrozenEncoderTest(unittest.TestCase):
    def test_a_step_moves_the_decoder_and_leaves_the_encoder_and_its_statistics(self):
        from vigil_train.detector import ENCODER, PlateDetector

        torch.manual_seed(0)
        model = PlateDetector()
        model.freeze_encoder()
        model.train()
        before = {k: v.clone() for k, v in model.state_dict().items()}
        opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-2)
        heat, size, offset = model(torch.rand(2, 3, 64, 64))
        (heat.mean() + size.mean() + offset.mean()).backward()
        opt.step()
        after = model.state_dict()
        encoder = [k for k in before if k.split(".")[0] in ENCODER]
        decoder = [k for k in before if k.split(".")[0] not in ENCODER and k.endswith("weight")]
        self.assertTrue(encoder and decoder)
        for k in encoder:  # weights and batch-norm running statistics alike
            self.assertTrue(torch.equal(before[k], after[k]), k)
        self.assertTrue(any(not torch.equal(before[k], after[k]) for k in decoder))
        self.assertFalse(model.stem.training)
        self.assertTrue(model.up4.training)


@unittest.skipUnless(torch, "needs Debian's python3-torch")
class RealPlatesTest(unittest.TestCase):
    def test_a_real_crop_is_pasted_where_its_box_says(self):
        from vigil_train.detector_data import paste_plates
        from vigil_train.synth import PlateSynth

        frame = np.full((240, 320, 3), 128, np.uint8)
        red = np.zeros((30, 60, 3), np.uint8)
        red[..., 0] = 220
        img, boxes = paste_plates(frame, np.zeros((0, 4), np.float32), PlateSynth(1), random.Random(3), 3, [red], real_share=1.0)
        self.assertGreaterEqual(len(boxes), 1)
        for x0, y0, x1, y1 in boxes:
            r, g, _ = img[int((y0 + y1) / 2), int((x0 + x1) / 2)]
            # The crop's red at the paste's light (half to 1.1 times), not the frame's grey.
            self.assertGreater(int(r) - int(g), 80)


@unittest.skipUnless(torch and MODEL.exists(), "needs Debian's python3-torch and models/plate-detector.onnx")
class VehicleHeadTest(unittest.TestCase):
    def test_the_new_plate_maps_go_with_the_shipped_vehicle_head(self):
        from vigil_train.detector import DetectorExport, PlateDetector, PlateVehicleDetector, PlateVehicleExport
        from vigil_train.warm_start import load_onnx_weights
        from vigil_train.with_vehicle_head import combined

        torch.manual_seed(0)
        x = torch.rand(2, 3, 384, 640)
        shipped = PlateVehicleDetector()
        load_onnx_weights(shipped, MODEL, x, PlateVehicleExport, all_outputs=True)
        plates = PlateDetector()
        load_onnx_weights(plates, MODEL, x, DetectorExport)
        with torch.no_grad():
            plates.heatmap.bias.add_(0.5)  # what a run with a frozen encoder changes
        state = plates.state_dict()
        model = combined(state, MODEL, x)
        with torch.no_grad():
            shipped.eval()
            plates.eval()
            got, want = model(x[:1]), shipped(x[:1])
            for g, w in zip(got[3:], want[3:]):  # the vehicle maps
                self.assertLess(float((g - w).abs().max()), 1e-4)
            self.assertLess(float((got[0] - plates(x[:1])[0]).abs().max()), 1e-4)
            self.assertGreater(float((got[0] - want[0]).abs().max()), 0.4)
        # A run that moved the encoder no longer fits the head.
        with torch.no_grad():
            plates.s32[0].body[0][0].weight.mul_(1.5)
        with self.assertRaises(SystemExit):
            combined(plates.state_dict(), MODEL, x)


@unittest.skipUnless(torch and MODEL.exists(), "needs Debian's python3-torch and models/plate-detector.onnx")
class WideVehicleHeadTest(unittest.TestCase):
    def test_a_wide_head_starts_as_the_narrow_one_learns_and_exports_wide(self):
        import tempfile

        from vigil_train.detector import PlateVehicleDetector, has_wide_head
        from vigil_train.export import export
        from vigil_train.train_vehicles import load_head_graph
        from vigil_train.warm_start import load_vehicle_detector

        torch.manual_seed(0)
        x = torch.rand(2, 3, 384, 640)
        narrow = load_vehicle_detector(MODEL, x)
        wide = PlateVehicleDetector(wide_head=True)
        load_head_graph(wide, MODEL, x)
        self.assertFalse(narrow.vehicle.wide)
        narrow.eval()
        wide.eval()
        with torch.no_grad():
            for a, b in zip(narrow(x[:1]), wide(x[:1])):
                self.assertLess(float((a - b).abs().max()), 1e-5)
        # The new blocks start at zero but get gradients: a step moves them.
        wide.freeze_plate()
        wide.train()
        opt = torch.optim.SGD([p for p in wide.vehicle.parameters()], lr=0.1)
        heat = wide(x)[3]
        heat.sigmoid().mean().backward()
        far = wide.vehicle.far[1].body[3].weight.clone()
        opt.step()
        self.assertGreater(float((wide.vehicle.far[1].body[3].weight - far).abs().max()), 0)
        self.assertTrue(has_wide_head(wide.state_dict()))
        self.assertFalse(has_wide_head(narrow.state_dict()))
        # Exported, it reads back as a wide head computing what the run computes.
        with tempfile.TemporaryDirectory() as tmp:
            checkpoint, out = Path(tmp) / "last.pt", Path(tmp) / "wide.onnx"
            torch.save({"model": wide.state_dict()}, checkpoint)
            export(checkpoint, out, kind="detector-vehicles")
            back = load_vehicle_detector(out, x)
        self.assertTrue(back.vehicle.wide)
        wide.eval()
        back.eval()
        with torch.no_grad():
            for a, b in zip(wide(x[:1])[3:], back(x[:1])[3:]):
                self.assertLess(float((a - b).abs().max()), 1e-3)


@unittest.skipUnless(torch, "needs Debian's python3-torch")
class TiltedFramesTest(unittest.TestCase):
    def test_a_turned_frame_boxes_its_plate_around_the_turned_corners(self):
        from vigil_train.detector_data import rotated

        frame = np.full((240, 320, 3), 128, np.uint8)
        frame[100:130, 100:220] = (220, 0, 0)
        box = np.array([[100, 100, 220, 130]], np.float32)
        for degrees in (15.0, -12.0):
            img, boxes = rotated(frame, box, degrees)
            ys, xs = np.nonzero(img[..., 0].astype(int) - img[..., 1].astype(int) > 80)
            x0, y0, x1, y1 = boxes[0]
            # The red plate's pixels fill the returned box to within a pixel or two.
            self.assertAlmostEqual(xs.min(), x0, delta=2)
            self.assertAlmostEqual(xs.max(), x1, delta=2)
            self.assertAlmostEqual(ys.min(), y0, delta=2)
            self.assertAlmostEqual(ys.max(), y1, delta=2)
            # Clockwise on screen for a positive angle: the plate's right end lower than its left.
            right = ys[xs > x1 - 5].mean()
            left = ys[xs < x0 + 5].mean()
            self.assertEqual(right > left, degrees > 0)


if __name__ == "__main__":
    unittest.main()
