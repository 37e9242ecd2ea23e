import tempfile
import unittest
from pathlib import Path

import torch

from vigil_train.model import PlateReader, ctc_loss_of
from vigil_train.runs import Run, in_lower_precision, learning_rate


class LearningRateTest(unittest.TestCase):
    def test_by_steps_the_rate_comes_down_only_at_the_last_step(self):
        self.assertAlmostEqual(learning_rate(100, 1000, 1.0, 100), 1.0)
        self.assertGreater(learning_rate(550, 1000, 1.0, 100), 0.4)
        self.assertAlmostEqual(learning_rate(1000, 1000, 1.0, 100), 0.02)

    def test_by_time_the_rate_reaches_its_floor_when_the_minutes_run_out(self):
        # A machine slower than the steps assumed: a tenth of the steps, all of the time.
        self.assertAlmostEqual(learning_rate(200, 2000, 1.0, 100, time_done=1.0), 0.02)
        self.assertAlmostEqual(learning_rate(200, 2000, 1.0, 100, time_done=0.5), 0.51)

    def test_warm_up_is_by_steps_whatever_the_time(self):
        self.assertAlmostEqual(learning_rate(0, 2000, 1.0, 100, time_done=0.9), 0.05)


def reader_batch(seed: int, n: int = 4):
    g = torch.Generator().manual_seed(seed)
    images = torch.rand(n, 3, 48, 160, generator=g)
    lengths = torch.full((n,), 6, dtype=torch.long)
    return images, torch.randint(1, 35, (n * 6,), generator=g), lengths


class LowerPrecisionTest(unittest.TestCase):
    def test_a_bf16_loss_is_float32_and_close_to_the_float32_loss(self):
        torch.manual_seed(3)
        model = PlateReader().eval()
        batch = reader_batch(1)
        loss_of = ctc_loss_of(model, torch.device("cpu"))
        with torch.no_grad():
            full = loss_of(batch)
            in_lower_precision(model)
            with torch.autocast("cpu", dtype=torch.bfloat16):
                lower = loss_of(batch)
        self.assertEqual(lower.dtype, torch.float32)
        self.assertAlmostEqual(lower.item() / full.item(), 1.0, delta=0.02)

    def test_a_bf16_run_learns_and_checkpoints_float32_weights_that_load_as_they_were(self):
        torch.manual_seed(5)
        model = PlateReader()
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        batch = reader_batch(2)
        loss_of = ctc_loss_of(model, torch.device("cpu"))
        with torch.no_grad():
            before = loss_of(batch).item()
        with tempfile.TemporaryDirectory() as folder:
            run = Run(Path(folder), model, opt)
            run.train([batch] * 30, loss_of, lambda: (0.0, {}), steps=30, minutes=5, peak_lr=1e-3, warmup=1, clip=5.0,
                      precision="bf16")
            state = torch.load(Path(folder) / "last.pt")["model"]
        self.assertTrue(all(v.dtype in (torch.float32, torch.int64) for v in state.values()))
        fresh = PlateReader().eval()
        fresh.load_state_dict(state)
        model.eval()
        x = batch[0]
        with torch.no_grad():
            self.assertTrue(torch.allclose(fresh(x), model(x), atol=1e-4))
            self.assertLess(loss_of(batch).item(), before * 0.8)

    def test_a_step_with_a_non_finite_loss_is_skipped_and_the_run_goes_on(self):
        torch.manual_seed(7)
        model = torch.nn.Linear(3, 1)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        x, y = torch.rand(8, 3), torch.rand(8, 1)
        calls = []

        def loss_of(_batch):
            calls.append(1)
            loss = ((model(x) - y) ** 2).mean()
            # The third batch goes wrong: a NaN loss, and with it NaN gradients.
            return loss * float("nan") if len(calls) == 3 else loss

        with tempfile.TemporaryDirectory() as folder:
            run = Run(Path(folder), model, opt)
            run.train([None] * 6, loss_of, lambda: (0.0, {}), steps=6, minutes=5, peak_lr=0.1, warmup=1, clip=5.0)
            self.assertEqual(run.step, 6)
        self.assertEqual(len(calls), 6)
        self.assertTrue(all(torch.isfinite(p).all() for p in model.parameters()))
        with torch.no_grad():
            self.assertTrue(torch.isfinite(((model(x) - y) ** 2).mean()))


if __name__ == "__main__":
    unittest.main()
