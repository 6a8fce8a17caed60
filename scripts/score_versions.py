#!/usr/bin/env python3
"""Score earlier versions of tpu-assist on labelled queries, with today's definitions.

    python scripts/score_versions.py QUERIES.jsonl [QUERIES.jsonl ...] --rev REV [--rev REV ...]

For each git revision: a detached worktree of it in a temporary directory, its own index built by
its own code, and every query answered by its own engine (in a child process whose PYTHONPATH is
that worktree, so nothing of today's code answers). The answers come back as JSON and are scored
here by today's `assistant.evaluation.metrics`: hit@1 and hit@3 count a refusal as a miss, an
`also: <id>` in a query's note is right too, `ranked@1` is the ranking alone. Older versions'
own eval scripts counted differently (some did not count a refusal as a hit@3 miss), so their
printed figures are not comparable; these are.

What it is for: a sample collected after a version was written is held-out for that version, so
scoring it on the versions before shows how much of the work reached reports nobody had read
(README, "Lab notebook"). Needs only the revisions' own code; every version since the first index
answers through `Engine().ask(text, top_k=…)` with `.abstained` and `.results[i].id`.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.evaluation import Outcome, Query, load_jsonl, metrics  # noqa: E402

# Run in the child, with the revision's code first on the path: every query of a file, answered.
CHILD = """
import json, sys
from assistant.engine import Engine
engine = Engine()
for line in open(sys.argv[1], encoding="utf-8"):
    q = json.loads(line)
    a = engine.ask(q["query"], top_k=int(sys.argv[2]))
    print(json.dumps({
        "id": q["id"],
        "ranked": [r.id for r in a.results],
        "abstained": bool(a.abstained),
        "confidence": float(getattr(a.results[0], "confidence", 0.0)) if a.results else 0.0,
    }), flush=True)
"""

TOP_K = 50  # every entry of any version's knowledge base


def outcomes(queries: list[Query], answers: list[dict]) -> list[Outcome]:
    """The child's answers (one dict per query, matched by id) as today's `Outcome`s."""
    by_id = {a["id"]: a for a in answers}
    missing = [q.id for q in queries if q.id not in by_id]
    if missing:
        raise ValueError(f"no answer for {len(missing)} queries (first: {missing[0]})")
    return [
        Outcome(
            q,
            list(by_id[q.id]["ranked"]),
            bool(by_id[q.id]["abstained"]),
            float(by_id[q.id]["confidence"]),
        )
        for q in queries
    ]


def answer_with(rev: str, files: list[Path], python: str) -> dict[Path, list[dict]]:
    """Every query of `files` answered by revision `rev` (worktree, index, engine of its own)."""
    with tempfile.TemporaryDirectory(prefix="tpu-assist-rev-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), rev],
            check=True,
            capture_output=True,
            text=True,
        )
        try:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            for var in ("TPU_ASSIST_INDEX_DIR", "TPU_ASSIST_KNOWLEDGE_DIR"):
                env.pop(var, None)
            env["TPU_ASSIST_USER_KB"] = str(Path(tmp) / "no-user-knowledge")  # built-in only
            subprocess.run(
                [python, "-m", "assistant", "kb", "build"],
                cwd=tree,
                env=env,
                check=True,
                capture_output=True,
                text=True,
            )
            out: dict[Path, list[dict]] = {}
            for f in files:
                run = subprocess.run(
                    [python, "-c", CHILD, str(f.resolve()), str(TOP_K)],
                    cwd=tree,
                    env=env,
                    check=True,
                    capture_output=True,
                    text=True,
                )
                out[f] = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
            return out
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                capture_output=True,
                text=True,
            )


def row(rev: str, name: str, outs: list[Outcome]) -> str:
    m = metrics(outs)
    return (
        f"{rev:12} {name:24} hit@1 {m.hit1:.3f}  hit@3 {m.hit3:.3f}  ranked@1 "
        f"{m.hit1_ranking:.3f}  false-abst {m.false_abstention:.3f}  "
        f"oos-abst {m.oos_abstention:.3f}  ({m.n_in} in scope / {m.n_oos} out)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("queries", nargs="+", type=Path)
    ap.add_argument("--rev", action="append", required=True, help="a git revision (repeatable)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter to run them with")
    args = ap.parse_args()
    queries = {f: load_jsonl(f) for f in args.queries}
    for rev in args.rev:
        try:
            answers = answer_with(rev, args.queries, args.python)
        except subprocess.CalledProcessError as e:
            tail = (e.stderr or "").strip().splitlines()[-1:] or ["(no output)"]
            print(f"{rev}: failed: {' '.join(map(str, e.cmd[:4]))}…: {tail[0]}", file=sys.stderr)
            return 1
        for f, qs in queries.items():
            print(row(rev, f.name, outcomes(qs, answers[f])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
