"""scripts/calibrate.py: the choice of the confidence model's L2 penalty by inner cross-validation."""

from __future__ import annotations

import numpy as np


def _data(signal: float, n: int = 300, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4))
    z = signal * (x @ np.array([1.0, -1.0, 0.5, 0.0]))
    y = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(float)
    return x, y, np.ones(n), [f"q{i}" for i in range(n)]


def test_labels_unrelated_to_the_features_get_the_strongest_penalty(calibrate_module):
    x, y, sw, ids = _data(signal=0.0)
    assert calibrate_module.choose_ridge(x, y, sw, ids) == max(calibrate_module.RIDGE_GRID)


def test_a_strong_signal_is_not_shrunk(calibrate_module):
    x, y, sw, ids = _data(signal=4.0)
    assert calibrate_module.choose_ridge(x, y, sw, ids) < 1.0


def test_the_choice_depends_on_the_rows_not_their_order(calibrate_module):
    x, y, sw, ids = _data(signal=1.0, seed=3)
    order = np.random.default_rng(1).permutation(len(y))
    shuffled = calibrate_module.choose_ridge(x[order], y[order], sw[order], [ids[i] for i in order])
    assert calibrate_module.choose_ridge(x, y, sw, ids) == shuffled


def test_the_shipped_calibration_records_its_penalty():
    from assistant.calibration import shipped

    cal = shipped()
    for model in (cal.confidence, cal.confidence_nodense):
        assert model.ridge is not None and model.ridge > 0
