"""scripts/score_versions.py: earlier versions answer in a child process of their own; the answers
are scored here with today's definitions."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from assistant.evaluation import OOS, Query, metrics, run

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def score_versions():
    spec = importlib.util.spec_from_file_location(
        "score_versions", ROOT / "scripts" / "score_versions.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_answers_become_outcomes_by_id(score_versions):
    qs = [Query("a", "t", "hbm-oom", also=("batch-or-model-too-large",)), Query("b", "t", OOS)]
    answers = [
        {"id": "b", "ranked": ["ssh-disconnect"], "abstained": True, "confidence": 0.2},
        {"id": "a", "ranked": ["batch-or-model-too-large"], "abstained": False, "confidence": 0.9},
    ]
    m = metrics(score_versions.outcomes(qs, answers))
    assert (m.hit1, m.oos_abstention) == (1.0, 1.0)  # `also` counts, by today's definitions
    with pytest.raises(ValueError, match="no answer for 1 queries"):
        score_versions.outcomes(qs, answers[:1])


def test_an_unknown_revision_is_a_clear_error(score_versions, tmp_path, capsys, monkeypatch):
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"id": "a", "query": "x", "topic": OOS}) + "\n")
    monkeypatch.setattr(sys, "argv", ["score_versions", str(queries), "--rev", "no-such-rev"])
    assert score_versions.main() == 1
    assert "no-such-rev: failed" in capsys.readouterr().err


def test_the_child_answers_as_the_engine_does(score_versions, cli_env, engine, tmp_path):
    """The snippet run in a revision's worktree, run here on this checkout (and the session's
    index), gives the answers `evaluation.run` gets from the engine."""
    rows = [
        {"id": "e", "query": "Ran out of memory in memory space hbm", "topic": "hbm-oom"},
        {
            "id": "s",
            "query": "my ssh session to the TPU VM drops overnight",
            "topic": "ssh-disconnect",
        },
        {"id": "o", "query": "how do I bake bread", "topic": OOS},
    ]
    queries = tmp_path / "q.jsonl"
    queries.write_text("".join(json.dumps(r) + "\n" for r in rows))
    child = subprocess.run(
        [sys.executable, "-c", score_versions.CHILD, str(queries), "19"],
        env={**cli_env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    answers = [json.loads(line) for line in child.stdout.splitlines()]
    qs = [Query(r["id"], r["query"], r["topic"]) for r in rows]
    mine = score_versions.outcomes(qs, answers)
    theirs = run(engine, qs)["tpu-assist"]
    assert [(o.ranked[:3], o.abstained) for o in mine] == [
        (o.ranked[:3], o.abstained) for o in theirs
    ]
