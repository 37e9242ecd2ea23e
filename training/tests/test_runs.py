import unittest

from vigil_train.runs import learning_rate


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


if __name__ == "__main__":
    unittest.main()
