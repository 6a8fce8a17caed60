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


def test_bm25_pairs_are_read_with_the_shipped_b_by_default(calibrate_module):
    from assistant.retrieval import lexical

    assert calibrate_module._bm25_arg("1.2, 1.6:0.6") == [(1.2, lexical.B), (1.6, 0.6)]


def test_a_bad_bm25_pair_is_a_usage_error_not_a_traceback(calibrate_module):
    import argparse

    import pytest

    for bad in ("x", "0", "1.2:2", "1.2:b", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            calibrate_module._bm25_arg(bad)


def test_the_bm25_sweep_rescores_the_same_postings_and_puts_the_shipped_channel_back(
    calibrate_module, monkeypatch
):
    from types import SimpleNamespace

    from assistant.retrieval.lexical import BM25

    shipped = BM25.build(["tpu connection refused", "ran out of memory in hbm on the tpu"])
    index = SimpleNamespace(lexical=shipped, entry_ids=["a", "b"])
    engine = SimpleNamespace(index=lambda: index, kb=None)
    seen = []

    def load_data(_engine, _real):
        lex = index.lexical
        seen.append((lex.k1, lex.b))
        assert lex.vocab == shipped.vocab and (lex.tfs == shipped.tfs).all()
        return "data"

    # the fixtures' figures each pair would get: 1.6 is best on hit@1, 2.0 ties it overall
    by_k1 = {1.2: (0.98, 0.97, 1.0), 1.6: (0.99, 0.975, 1.0), 2.0: (0.995, 0.97, 1.0)}

    def cross_validate(_data, _ids, _folds, _kb, _repeats, _ridge):
        hit1, oos, near = by_k1[index.lexical.k1]
        return {"fixture": {"hit1": hit1, "oos_abstention": oos, "near_miss_avoided": near}}

    monkeypatch.setattr(calibrate_module, "load_data", load_data)
    monkeypatch.setattr(calibrate_module, "cross_validate", cross_validate)
    grid = [(1.2, 0.75), (1.6, 0.75), (2.0, 0.75)]
    best = calibrate_module.bm25_sweep(engine, None, grid, folds=5, repeats=1, ridge=0.1)
    assert best == (1.6, 0.75)  # ties go to the pair tried first
    assert seen == grid
    assert index.lexical is shipped


def test_the_bm25_sweep_puts_the_shipped_channel_back_when_a_fit_fails(
    calibrate_module, monkeypatch
):
    from types import SimpleNamespace

    import pytest

    from assistant.retrieval.lexical import BM25

    shipped = BM25.build(["tpu connection refused"])
    index = SimpleNamespace(lexical=shipped, entry_ids=["a"])
    engine = SimpleNamespace(index=lambda: index, kb=None)

    def load_data(_engine, _real):
        raise RuntimeError("interrupted")

    monkeypatch.setattr(calibrate_module, "load_data", load_data)
    with pytest.raises(RuntimeError):
        calibrate_module.bm25_sweep(engine, None, [(2.0, 0.75)], folds=5, repeats=1, ridge=0.1)
    assert index.lexical is shipped


def test_the_temperature_is_fitted_to_how_often_the_top_answer_is_right(calibrate_module):
    """Labels drawn with probability sigmoid(0.5 · z): the fitted temperature is about 0.5."""
    rng = np.random.default_rng(7)
    z = rng.normal(scale=6.0, size=4000)
    y = (rng.random(len(z)) < 1 / (1 + np.exp(-0.5 * z))).astype(float)
    assert abs(calibrate_module.fit_scale(z, y) - 0.5) < 0.08


def test_the_temperature_changes_the_number_shown_not_the_decision():
    """At the threshold of 0.5 a positive temperature keeps every answer and every refusal."""
    from assistant.calibration import Confidence

    plain = Confidence(bias=-1.0, coef={"a": 2.0}, threshold=0.5)
    tempered = plain.model_copy(update={"temperature": 0.4})
    for a in np.linspace(-3, 3, 61):
        feats = {"a": float(a)}
        p, q = plain.probability(feats), tempered.probability(feats)
        assert (p < 0.5) == (q < 0.5)
        assert abs(q - 0.5) <= abs(p - 0.5) + 1e-12  # nearer even odds, never past them


def test_floors_that_rank_alike_are_told_apart_by_the_confidence_fit(calibrate_module):
    from assistant.calibration import shipped

    floors = [shipped().model_copy(update={"dense_floor": f}) for f in (0.15, 0.2, 0.25)]
    loss = {0.15: 0.30, 0.2: 0.10, 0.25: 0.20}
    pick = calibrate_module.pick_floor
    tied = [((1.8, 0.99), p) for p in floors]
    assert pick(tied, lambda p: loss[p.dense_floor])[1].dense_floor == 0.2
    # the ranking's own key comes first; the loss is only asked where it ties
    ranked = [((1.8, 0.99), floors[0]), ((1.7, 0.99), floors[1]), ((1.8, 0.98), floors[2])]
    asked = []
    key, params = pick(ranked, lambda p: asked.append(p) or 0.0)
    assert (key, params.dense_floor, asked) == ((1.8, 0.99), 0.15, [])


def test_the_unbounded_fit_reaches_the_optimum(calibrate_module):
    # the penalized log-loss's gradient vanishes at the solution (the bias is not penalized)
    x, y, sw, _ = _data(signal=2.0, seed=5)
    ridge = 0.1
    w = calibrate_module.fit_logistic(x, y, ridge, sw)
    X = np.hstack([np.ones((len(x), 1)), x])
    p = 1 / (1 + np.exp(-(X @ w)))
    grad = X.T @ (sw * (p - y)) + ridge * np.r_[0.0, w[1:]]
    assert np.abs(grad).max() < 1e-4
    assert w[1] > 0 > w[2]  # the generating model's signs


def test_signs_keep_each_coefficient_on_the_side_its_meaning_gives(calibrate_module):
    x, y, sw, _ = _data(signal=2.0, seed=5)
    # the second feature truly lowers the odds; told it can only raise them, it is left out (0),
    # and the features whose side agrees with the data keep their sign
    w = calibrate_module.fit_logistic(x, y, 0.1, sw, signs=[1, 1, 0, -1])
    assert w[1] > 0 and w[2] == 0.0 and w[4] <= 0.0
    free = calibrate_module.fit_logistic(x, y, 0.1, sw, signs=[0, 0, 0, 0])
    assert np.allclose(free, calibrate_module.fit_logistic(x, y, 0.1, sw), atol=1e-6)


def test_every_confidence_feature_has_a_direction():
    from assistant.decide import FEATURE_SIGNS, FEATURES

    assert set(FEATURE_SIGNS) == set(FEATURES)
    assert set(FEATURE_SIGNS.values()) <= {-1, 0, 1}


def test_the_shipped_confidence_keeps_every_coefficient_on_its_side():
    from assistant.calibration import shipped
    from assistant.decide import FEATURE_SIGNS

    cal = shipped()
    for model in (cal.confidence, cal.confidence_nodense):
        for name, coef in model.coef.items():
            assert FEATURE_SIGNS[name] * coef >= 0, (name, coef)
