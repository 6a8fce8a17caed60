"""Answer quality on real user reports (../shared/eval/real_queries.jsonl), cross-validated.

The confidence model and the ranking weights are fitted on these reports too (scripts/calibrate.py),
so scoring the shipped calibration on them would be a training figure. This test re-runs the
k-fold cross-validation instead: each fold is fitted without the reports it is scored on. The
floors sit a little under the figures recorded in assistant/calibration.json ("cross_validation"),
so an honest regression fails the build while fold noise does not; the cross-validation is
repeated over several partitions because one partition's figures move by a report or two with the
partition alone."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assistant.evaluation import BASELINES, baseline_ranking

ROOT = Path(__file__).resolve().parents[1]
REAL = Path(
    os.environ.get(
        "TPU_ASSIST_REAL_QUERIES", ROOT.parent / "shared" / "eval" / "real_queries.jsonl"
    )
)

# Cross-validated floors (abstaining counts as a miss for hit@k), on the 5-fold cross-validation
# repeated over 5 partitions and pooled (calibrate.REPEATS). Recorded: hit@1 0.956, hit@3 0.972,
# ranking hit@1 0.961, out-of-scope abstention 0.918, false abstention 0.028; by kind, hit@1 on
# pasted errors 0.971 and on described symptoms 0.948; ahead of BM25 alone (0.851) by 0.105 and of
# dense alone (0.805) by 0.151 at hit@1. The floors sit about one report under those figures or
# under an earlier version's (hit@3 and false abstention sit on theirs since the fixture pair for
# fairseq's recompilation warning moved two borderline reports in one partition each: q035 refused
# at 0.50, the look-alike q076 answered at 0.52; now q063, a tf.py_function on a TPU Node, refused
# in one partition, and the lead over BM25 one report-partition above its floor); a refit moves the borderline reports of a fold
# by a report or two either way (one report moves hit@1 by 0.011, a described symptom's share by
# 0.037, a look-alike's 0.029), and hit@3 sits on its floor (q024, the sequence-padding
# question, and q045, in Chinese, are refused in every partition). Out-of-scope abstention's floor
# is at the 0.880 that 12 partitions give (0.870 until a report that says its problem began with a
# new release was read as outside the guide). Until the estimate was pooled the floors sat under one partition's
# figures, which other partitions of the same data and code put 0.01-0.03 lower: such a floor
# failed on which reports shared a fold, not on the change under test. The lead over each channel
# alone is the issue's target, 0.10 (0.08 until BM25's k1 was chosen on the written fixtures).
FLOORS = {"hit1": 0.94, "hit3": 0.97, "oos_abstention": 0.88, "hit1_ranking": 0.95}
KIND_FLOORS = {"error": 0.94, "symptom": 0.89}
CEILINGS = {"false_abstention": 0.03}
BASELINE_LEAD = 0.10  # cross-validated hit@1 over each single channel's (0.103 over BM25 now)


@pytest.fixture(scope="module")
def data(engine, calibrate_module):
    if not REAL.is_file():
        pytest.skip(f"no real queries at {REAL}")
    return calibrate_module.load_data(engine, REAL)


@pytest.fixture(scope="module")
def cv_outcomes(engine, data, calibrate_module):
    """The pooled figures and every input's outcome in each partition, from one run."""
    outcomes: dict = {}
    figures = calibrate_module.cross_validate(
        data, engine.index().entry_ids, 5, engine.kb, outcomes=outcomes
    )
    return figures, outcomes


@pytest.fixture(scope="module")
def cv(cv_outcomes):
    return cv_outcomes[0]


def test_real_reports_cross_validated_floors(cv):
    real = cv["real"]
    assert real["n_in"] >= 80 and real["n_oos"] >= 30
    for name, floor in FLOORS.items():
        assert real[name] >= floor, (name, real)
    for name, ceiling in CEILINGS.items():
        assert real[name] <= ceiling, (name, real)
    for kind, floor in KIND_FLOORS.items():
        assert real["hit1_by_kind"][kind] >= floor, (kind, real)


def test_written_fixtures_stay_right_when_fitted_with_real_reports(cv):
    fixture = cv["fixture"]
    assert fixture["hit1"] >= 0.95, fixture
    assert fixture["oos_abstention"] >= 0.9, fixture
    assert fixture["near_miss_avoided"] >= 0.95, fixture


def test_ahead_of_each_channel_alone_on_real_reports(cv, data):
    """The fused, calibrated answer (cross-validated, abstaining counted as a miss) against BM25
    alone and dense retrieval alone over the same knowledge base (nothing fitted in those)."""
    real = [(q, r) for q, r in data.ins if data.source.get(q.id) == "real"]
    for name, channel in BASELINES.items():
        hits = 0
        for q, r in real:
            ranked = baseline_ranking(r.evidence, channel)
            hits += bool(ranked) and ranked[0] in q.right
        baseline = hits / len(real)
        assert cv["real"]["hit1"] >= baseline + BASELINE_LEAD, (name, baseline, cv["real"])


def test_per_report_outcomes_add_up_to_the_pooled_figures(cv_outcomes, data, calibrate_module):
    """`--misses` lists reports from the same outcomes the pooled figures count."""
    figures, outcomes = cv_outcomes
    repeats = figures["repeats"]
    real_in = [q.id for q, _ in data.ins if data.source.get(q.id) == "real"]
    real_oos = [q.id for q, _ in data.oos if data.source.get(q.id) == "real"]
    assert all(len(outcomes[qid]) == repeats for qid in real_in + real_oos)
    assert {o.partition for o in outcomes[real_in[0]]} == set(range(repeats))
    right = sum(o.right for qid in real_in for o in outcomes[qid])
    refused = sum(o.right for qid in real_oos for o in outcomes[qid])
    assert round(right / (len(real_in) * repeats), 4) == figures["real"]["hit1"]
    assert round(refused / (len(real_oos) * repeats), 4) == figures["real"]["oos_abstention"]
