#!/usr/bin/env python3
"""Answer quality on a file of labelled queries, against two baselines on the same knowledge base.

    python scripts/eval.py QUERIES.jsonl [--json OUT] [--fixtures]

QUERIES.jsonl has one object per line: id, query, topic (an entry id or "out-of-scope"), and
optionally kind, lang and note (an `also: <id>` in the note names a second entry that is also right;
ranking either first counts as a hit). Prints hit@1, hit@3 and MRR on the in-scope queries (an
abstention counts as a miss; `ranked@1` is the ranking alone, abstention aside),
abstention on the out-of-scope ones and false abstention on the in-scope ones, broken down by lang
and kind, for tpu-assist (all channels, fused and calibrated), BM25 alone and dense (MiniLM + FAISS)
alone; then how far tpu-assist's confidence can be trusted (its AUC between right first answers
and the rest, and the share right among the answers given in each band of confidence), which
entry took which entry's inputs (the confusion) and tpu-assist's misses with their top 3.
`--fixtures` evaluates tests/fixtures/kb instead.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.engine import Engine  # noqa: E402
from assistant.evaluation import Outcome, load_fixtures, load_jsonl, metrics, run  # noqa: E402


def fmt(x) -> str:
    return "  n/a" if x is None else f"{x:5.3f}"


def report(systems: dict[str, list[Outcome]]) -> dict:
    out = {name: metrics(o).to_dict() for name, o in systems.items()}
    print(
        f"{'system':12} {'hit@1':>6} {'hit@3':>6} {'MRR':>6} {'ranked@1':>8} "
        f"{'false-abst':>10} {'oos-abst':>9}"
    )
    for name, m in out.items():
        abst = name == "tpu-assist"
        print(
            f"{name:12} {fmt(m.get('hit1')):>6} {fmt(m.get('hit3')):>6} {fmt(m.get('mrr')):>6} "
            f"{fmt(m.get('hit1_ranking')):>8} "
            f"{fmt(m.get('false_abstention') if abst else None):>10} "
            f"{fmt(m.get('oos_abstention') if abst else None):>9}"
        )
    print(
        "(hit@k and MRR count an abstention as a miss; ranked@1: the right entry first, "
        "abstention aside)"
    )
    m = out["tpu-assist"]
    print(f"\nin-scope: {m['n_in']}  out-of-scope: {m['n_oos']}\n\nbreakdown (tpu-assist):")
    for group, g in m["breakdown"].items():
        print(
            f"  {group:16} n_in={g['n_in']:3} hit@1={fmt(g.get('hit1'))} "
            f"hit@3={fmt(g.get('hit3'))} "
            f"MRR={fmt(g.get('mrr'))} false-abst={fmt(g.get('false_abstention'))} "
            f"n_oos={g['n_oos']:2} oos-abst={fmt(g.get('oos_abstention'))}"
        )
    conf = m["confidence"]
    if conf:
        auc = "n/a" if conf["auc"] is None else f"{conf['auc']:.3f}"
        print(
            f"\nconfidence (tpu-assist): AUC {auc} (a right first answer above a wrong one or a "
            "look-alike's);\n  answers given, by confidence, and the share right:"
        )
        for band in conf["bands"]:
            print(
                f"    {band['from']:.1f}-{band['to']:.1f}  n={band['n']:3}  "
                f"right={fmt(band['right'])}"
            )
    print("\nconfusion (tpu-assist's first answer when wrong: right entry -> what it answered):")
    for pair, n in m["confusion"].items():
        print(f"  {n:3}  {pair}")
    print(f"\nmisses ({len(m['misses'])}), with the top 3:")
    for miss in m["misses"]:
        print(
            f"  {miss['id']:>10} [{miss['kind']}] want={miss['topic']:26} "
            f"top3={','.join(miss['got'])} abstained={miss['abstained']} "
            f"conf={miss['confidence']}  {miss['query']!r}"
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("queries", nargs="?", type=Path)
    ap.add_argument("--fixtures", action="store_true", help="evaluate tests/fixtures/kb")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    args = ap.parse_args()
    if args.fixtures:
        matches, _ = load_fixtures(ROOT / "tests" / "fixtures" / "kb")
        queries = matches
    elif args.queries:
        queries = load_jsonl(args.queries)
    else:
        ap.error("give a QUERIES.jsonl file or --fixtures")
    engine = Engine(user_dirs=[])
    engine.warm_up()
    out = report(run(engine, queries))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except BrokenPipeError:  # `| head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise SystemExit(0) from None
