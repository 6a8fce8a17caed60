"""scripts/calibrate.py: the choice of the confidence model's L2 penalty by inner cross-validation."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def calibrate():
    spec = importlib.util.spec_from_file_location("calibrate", ROOT / "scripts" / "calibrate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _data(signal: float, n: int = 300, seed: int = 0):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4))
    z = signal * (x @ np.array([1.0, -1.0, 0.5, 0.0]))
    y = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(float)
    return x, y, np.ones(n), [f"q{i}" for i in range(n)]


def test_labels_unrelated_to_the_features_get_the_strongest_penalty(calibrate):
    x, y, sw, ids = _data(signal=0.0)
    assert calibrate.choose_ridge(x, y, sw, ids) == max(calibrate.RIDGE_GRID)


def test_a_strong_signal_is_not_shrunk(calibrate):
    x, y, sw, ids = _data(signal=4.0)
    assert calibrate.choose_ridge(x, y, sw, ids) < 1.0


def test_the_choice_depends_on_the_rows_not_their_order(calibrate):
    x, y, sw, ids = _data(signal=1.0, seed=3)
    order = np.random.default_rng(1).permutation(len(y))
    shuffled = calibrate.choose_ridge(x[order], y[order], sw[order], [ids[i] for i in order])
    assert calibrate.choose_ridge(x, y, sw, ids) == shuffled


def test_the_shipped_calibration_records_its_penalty():
    from assistant.calibration import shipped

    cal = shipped()
    for model in (cal.confidence, cal.confidence_nodense):
        assert model.ridge is not None and model.ridge > 0
