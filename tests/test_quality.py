"""Answer-quality floors on the labelled dev queries (a regression fails the suite).

The figures and how they are produced are in the README ("Answer quality"); the thresholds here are
the issue's targets, not the current values, so honest noise does not fail the build."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assistant.evaluation import Outcome, load_jsonl, metrics

DEV = Path(
    os.environ.get(
        "TPU_ASSIST_DEV_QUERIES",
        Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev_queries.jsonl",
    )
)


@pytest.fixture(scope="module")
def outcomes(engine):
    if not DEV.is_file():
        pytest.skip(f"no dev queries at {DEV}")
    out = {"tpu-assist": [], "bm25": [], "dense": []}
    for q in load_jsonl(DEV):
        r = engine.retrieve(q.query)
        a = engine.decide(r, top_k=len(engine.kb))
        out["tpu-assist"].append(
            Outcome(q, [x.id for x in a.results], a.abstained, a.best.confidence if a.best else 0.0)
        )
        for name, key in (("bm25", "lex_raw"), ("dense", "dense")):
            ranked = sorted(
                (e for e in r.evidence if getattr(r.evidence[e], key) > 0),
                key=lambda e: (-getattr(r.evidence[e], key), e),
            )
            out[name].append(Outcome(q, ranked, False, 0.0))
    return {k: metrics(v) for k, v in out.items()}


def test_dev_targets(outcomes):
    m = outcomes["tpu-assist"]
    assert m.hit1 >= 0.95, m.misses
    assert m.hit3 == 1.0, m.misses
    assert m.false_abstention <= 0.05, m.misses
    assert m.oos_abstention >= 0.9, m.misses


def test_not_worse_than_baselines(outcomes):
    m = outcomes["tpu-assist"]
    assert m.hit1 >= outcomes["bm25"].hit1
    assert m.hit1 >= outcomes["dense"].hit1
    assert m.mrr >= outcomes["dense"].mrr
