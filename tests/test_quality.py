"""Answer-quality floors on written queries (a regression fails the suite): the labelled dev
queries, the written probes of today's stacks (`tests/fixtures/written_probes.jsonl`: 96 short
inputs in JAX, PyTorch/XLA and Keras 3 words on v4–v6e, 19 of them look-alikes, written by a helper
who never saw the knowledge base) and written long reports (`tests/fixtures/written_reports.jsonl`:
144 issue- and forum-style reports, 36 of them look-alikes, written the same way;
`written_reports_hard.jsonl`: 240 more, 60 look-alikes, from a brief that asked for hard cases;
`written_rounds.jsonl`: 800 more, 240 of them look-alikes, in five rounds, each scored held-out
before it was read).

The figures and how they are produced are in the README ("Answer quality"); the dev thresholds are
the issue's targets, the probes' sit below the figures of the version that added them, so honest
noise does not fail the build."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assistant.evaluation import load_jsonl, metrics, run

DEV = Path(
    os.environ.get(
        "TPU_ASSIST_DEV_QUERIES",
        Path(__file__).resolve().parents[2] / "shared" / "eval" / "dev_queries.jsonl",
    )
)


PROBES = Path(__file__).resolve().parent / "fixtures" / "written_probes.jsonl"
REPORTS = Path(__file__).resolve().parent / "fixtures" / "written_reports.jsonl"
HARD_REPORTS = Path(__file__).resolve().parent / "fixtures" / "written_reports_hard.jsonl"
ROUNDS = Path(__file__).resolve().parent / "fixtures" / "written_rounds.jsonl"


def score(engine, path: Path) -> dict:
    """tpu-assist and the two baselines (BM25 alone, dense alone) on the queries at `path`."""
    return {name: metrics(o) for name, o in run(engine, load_jsonl(path)).items()}


def assert_floors(
    scored: dict,
    sizes: tuple[int, int],
    hit1: float,
    hit3: float,
    false_abstention: float,
    oos: float,
) -> None:
    """A written set's floors: its (in-scope, look-alike) sizes, hit@1 and hit@3 (abstaining counts
    as a miss), false abstention at most, look-alikes refused at least, and ahead of both
    baselines at hit@1."""
    m = scored["tpu-assist"]
    assert (m.n_in, m.n_oos) == sizes
    assert m.hit1 >= hit1, m.misses
    assert m.hit3 >= hit3, m.misses
    assert m.false_abstention <= false_abstention, m.misses
    assert m.oos_abstention >= oos, m.misses
    assert m.hit1 >= scored["bm25"].hit1 and m.hit1 >= scored["dense"].hit1


@pytest.fixture(scope="module")
def outcomes(engine):
    if not DEV.is_file():
        pytest.skip(f"no dev queries at {DEV}")
    return score(engine, DEV)


@pytest.fixture(scope="module")
def probes(engine):
    return score(engine, PROBES)


@pytest.fixture(scope="module")
def reports(engine):
    return score(engine, REPORTS)


@pytest.fixture(scope="module")
def hard_reports(engine):
    return score(engine, HARD_REPORTS)


@pytest.fixture(scope="module")
def rounds(engine):
    return score(engine, ROUNDS)


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


def test_written_probes(probes):
    """Written by someone else, in today's words: the version that added them answers 0.935 first
    and 0.987 in the top 3, refuses 0.013 of the in-scope ones and 0.842 of the look-alikes."""
    assert_floors(probes, (77, 19), hit1=0.90, hit3=0.96, false_abstention=0.04, oos=0.78)


def test_written_long_reports(reports):
    """Long reports as people file them (a title, prose, an environment block, often a log with
    the decisive line among the noise), 144 of them, 36 look-alikes, written in four sets by
    helpers who never saw the knowledge base (README, lab notebook, "An earlier version: long
    written reports"). Held-out, the first two sets were answered 0.852 first by the version
    before them and the last two 0.815 by the version they were scored on; four changes came from
    their misses. The version that read the model's own figures (layer widths, memory in use)
    answers 0.907 first, 0.935 in the top 3, and refuses 0.065 of the in-scope ones and 0.889 of
    the look-alikes."""
    assert_floors(reports, (108, 36), hit1=0.88, hit3=0.91, false_abstention=0.08, oos=0.83)


def test_written_hard_reports(hard_reports):
    """A second batch of long reports, 240 of them, 60 look-alikes, in six sets (L5–L10) written
    from a brief that asked for hard cases: a third or more of them slowdowns described with
    figures, where the slow-training entries compete (README, lab notebook, "An earlier version:
    the model's own figures"). Each pair of sets was scored held-out once before its misses were
    read; the version before this batch answers all of it 0.650 first (dense alone 0.667); that
    version 0.806 first, 0.883 in the top 3, and refuses 0.072 of the in-scope ones and 0.983 of
    the look-alikes."""
    assert_floors(hard_reports, (180, 60), hit1=0.77, hit3=0.86, false_abstention=0.09, oos=0.90)


def test_written_rounds(rounds):
    """Twenty sets of 40 (L164–L183: 560 in scope, 240 look-alikes), written in five rounds by
    helpers who saw only their brief (README, lab notebook, "This version"). Each round was scored
    held-out on the code of its day before it was read (0.88–0.95 first, 0.96–0.99 in the top 3,
    0.73–0.85 of the look-alikes refused), then learned from; nine reports whose brief put a TPU
    held by an earlier process under tpu-connection count hang-on-error too (`also:`), as the
    real reports label it. The version that wrote them answers 0.959 first, 0.986 in the top 3,
    refuses 0.011 of the in-scope ones and 0.938 of the look-alikes."""
    assert_floors(rounds, (560, 240), hit1=0.94, hit3=0.97, false_abstention=0.03, oos=0.91)
