#!/usr/bin/env python3
"""Fit the fusion weights, the confidence model and the abstention threshold on labelled data.

    python scripts/calibrate.py [--write]

Training data: tests/fixtures/kb/*.yaml (inputs that must match each entry, and near misses that
must not) plus tests/fixtures/kb/out_of_scope.yaml (inputs nothing should match). The dev queries in
../shared/eval are NOT used here, so `scripts/eval.py` on them measures generalization.

1. Fusion weights: for each candidate `dense_floor`, the channel weights that maximize the mean
   log-softmax of the right entry over all entries (a listwise ranking loss: smooth, rewards
   margins); w_sig is then raised to w_dense + w_lex if it is lower (signature matches weigh most:
   a decisive signature outweighs the other two channels together) and all are scaled so w_sig = 1;
   the scale factor is kept as `rank_scale` (the softmax temperature that gives runner-ups their
   odds against the top result). The floor kept is the one with the best hit@1
   plus near-miss avoidance on the training inputs (ties: MRR).
2. Confidence: logistic regression of "the top result is right" on the top result's features
   (signature, lexical and dense evidence, margin over the runner-up, domain vocabulary, a GPU
   named without a TPU). Positives: in-scope inputs whose top result is right;
   negatives: out-of-scope inputs, wrong top results, near misses whose top result is their entry.
3. Threshold: the confidence below which the assistant abstains, chosen to maximize
   (1 - false abstention) + out-of-scope abstention (Youden's J); where a range of thresholds
   ties, its middle.
The logistic fit is L2-regularized (ridge 1.0): the training inputs are nearly separable, and an
unregularized fit would be overconfident on new text.
Writes assistant/calibration.json with --write; always prints the fitted values and figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.decide import CALIBRATION, FEATURES, features  # noqa: E402
from assistant.engine import Engine  # noqa: E402
from assistant.evaluation import OOS, load_fixtures  # noqa: E402
from assistant.retrieval.fusion import EMPTY, fuse  # noqa: E402

GRID_FLOOR = [0.15, 0.2, 0.25, 0.3, 0.35]


def fit_listwise(x: np.ndarray, target: np.ndarray, ridge: float = 1e-3,
                 iters: int = 3000, lr: float = 0.5) -> np.ndarray:
    """Weights w >= 0 maximizing the mean log-softmax of each query's right entry, where an entry's
    score is x[query, entry] @ w (x: queries x entries x channels). A smooth stand-in for hit@1 that
    rewards wide margins, so it generalizes better than searching hit@1 directly."""
    w = np.ones(x.shape[-1])
    n = len(target)
    for _ in range(iters):
        s = x @ w
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
        onehot = np.zeros_like(p)
        onehot[np.arange(n), target] = 1
        grad = np.einsum("qe,qec->c", p - onehot, x) / n + ridge * w
        w = np.maximum(1e-3, w - lr * grad)
    return w


def fit_logistic(x: np.ndarray, y: np.ndarray, ridge: float = 1.0, iters: int = 100) -> np.ndarray:
    """Newton's method for L2-regularized logistic regression; returns [bias, w1, w2, ...]."""
    X = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(X.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(X @ w, -60, 60)))
        grad = X.T @ (p - y) + ridge * np.r_[0, w[1:]]
        H = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.diag(np.r_[0, np.ones(len(w) - 1)])
        step = np.linalg.solve(H + 1e-9 * np.eye(len(w)), grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def fit_confidence(rows, params: dict, names: list[str], verbose: bool = True):
    """Logistic confidence over `names` and its abstention threshold (see the module docstring)."""
    feats, labels, groups = [], [], []
    for q, r in rows:
        ranked = fuse(r.evidence, params)
        top = ranked[0]
        margin = top.score - (ranked[1].score if len(ranked) > 1 else 0.0)
        if q.not_topic is not None:
            if top.entry_id != q.not_topic:
                continue  # nothing known about the right answer of a near miss
            label = 0
        else:
            label = int(q.topic != OOS and top.entry_id == q.topic)
        f = features(top, margin, r, params)
        feats.append([f[name] for name in names])
        labels.append(label)
        groups.append("in" if q.not_topic is None and q.topic != OOS
                      else "oos" if q.not_topic is None else "near")
    x, y = np.array(feats), np.array(labels, dtype=float)
    w = fit_logistic(x, y)
    conf = 1 / (1 + np.exp(-(w[0] + x @ w[1:])))
    if verbose:
        print(f"confidence over {', '.join(names)}: bias={w[0]:.3f} "
              + " ".join(f"{n}={c:.3f}" for n, c in zip(names, w[1:]))
              + f"  (positives {int(y.sum())}, negatives {int(len(y) - y.sum())})")
    # Threshold on the inputs that should be answered (in-scope) vs refused (out-of-scope).
    in_conf = np.array([c for c, g in zip(conf, groups) if g == "in"])
    oos_conf = np.array([c for c, g in zip(conf, groups) if g == "oos"])
    cands = np.unique(np.r_[in_conf, oos_conf])
    mids = (cands[:-1] + cands[1:]) / 2
    j = np.array([(in_conf >= t).mean() + (oos_conf < t).mean() for t in mids])
    best = mids[np.isclose(j, j.max())]
    best_t = float((best.min() + best.max()) / 2)  # the middle of the best range: widest margins
    fa = float((in_conf < best_t).mean())
    oa = float((oos_conf < best_t).mean()) if len(oos_conf) else float("nan")
    if verbose:
        print(f"  threshold: {best_t:.4f}  false abstention={fa:.3f}  "
              f"out-of-scope abstention={oa:.3f}")
    coef = {"bias": round(float(w[0]), 4), **{n: round(float(c), 4) for n, c in zip(names, w[1:])}}
    return coef, round(best_t, 4), fa, oa


def fit(ins, oos, nms, ids: list[str], verbose: bool = True) -> dict:
    """Fusion weights, both confidence models and thresholds from retrieved labelled inputs."""
    col = {eid: j for j, eid in enumerate(ids)}

    def matrix(rows, attr):
        return np.array([[getattr(r.evidence.get(e, EMPTY), attr) for e in ids] for _, r in rows])

    def fused(rows, wd, wl, floor):
        dn = np.clip((matrix(rows, "dense") - floor) / (1 - floor), 0, 1)
        keep = 1 - matrix(rows, "exclude")
        return keep * (matrix(rows, "sig") + wd * dn + wl * matrix(rows, "lex"))

    in_target = np.array([col[q.topic] for q, _ in ins])
    nm_target = np.array([col[q.not_topic] for q, _ in nms])
    sig_in, lex_in, ex_in = (matrix(ins, a) for a in ("sig", "lex", "exclude"))
    best = None
    for floor in GRID_FLOOR:
        dn_in = np.clip((matrix(ins, "dense") - floor) / (1 - floor), 0, 1)
        w = fit_listwise(np.stack([sig_in, dn_in, lex_in], axis=-1) * (1 - ex_in)[..., None],
                         in_target)
        # Signatures weigh most: a decisive signature outweighs lexical and dense evidence together.
        w_sig = max(w[0], w[1] + w[2])
        wd, wl = float(w[1] / w_sig), float(w[2] / w_sig)  # scaled so that w_sig = 1
        f_in = fused(ins, wd, wl, floor)
        target = f_in[np.arange(len(ins)), in_target]
        rank = (f_in >= target[:, None]).sum(axis=1)  # ties count against the label
        hit, mrr = float((rank == 1).mean()), float((1 / rank).mean())
        nm_ok = float((fused(nms, wd, wl, floor).argmax(axis=1) != nm_target).mean()) if nms else 0.0
        key = (round(hit + nm_ok, 6), round(mrr, 6))
        if verbose:
            print(f"  floor={floor:.2f}: w_dense={wd:.3f} w_lex={wl:.3f} hit@1={hit:.3f} "
                  f"near-miss avoidance={nm_ok:.3f} MRR={mrr:.3f}")
        if best is None or key > best[0]:
            best = (key, {"weights": {"sig": 1.0, "dense": round(wd, 4), "lex": round(wl, 4)},
                          "dense_floor": floor, "rank_scale": round(float(w_sig), 4)})
    (objective, mrr), params = best
    if verbose:
        print(f"fusion: {params}  objective={objective:.3f} (hit@1 + near-miss avoidance)  "
              f"MRR={mrr:.3f}")
    rows = ins + oos + nms
    full, full_t, fa, oa = fit_confidence(rows, params, FEATURES, verbose)
    # Signatures + lexical only: what the engine uses when decisive signatures spare the model.
    no_dense = [(q, replace(r, evidence={e: replace(ev, dense=0.0) for e, ev in r.evidence.items()},
                            used_dense=False)) for q, r in rows]
    fast, fast_t, _, _ = fit_confidence(no_dense, params, [f for f in FEATURES if f != "dense"],
                                        verbose)
    return {**params, "confidence": full, "threshold": full_t,
            "confidence_nodense": fast, "threshold_nodense": fast_t,
            "training_figures": {"objective": round(objective, 4), "mrr": round(mrr, 4),
                                 "false_abstention": round(fa, 4), "oos_abstention": round(oa, 4)}}


def cross_validate(ins, oos, nms, ids: list[str], folds: int, kb) -> dict:
    """k-fold estimate of how the fitted model does on inputs it was not fitted on."""

    def fold_of(q) -> int:
        return zlib.crc32(q.id.encode()) % folds

    hits = answered_right = n_in = abst_in = n_oos = abst_oos = nm_ok = n_nm = 0
    decider = Engine(kb=kb)  # only `decide` is used: nothing is loaded
    for k in range(folds):
        train = [[row for row in part if fold_of(row[0]) != k] for part in (ins, oos, nms)]
        test = [[row for row in part if fold_of(row[0]) == k] for part in (ins, oos, nms)]
        params = fit(*train, ids, verbose=False)
        for q, r in test[0]:
            a = decider.decide(r, params=params)
            n_in += 1
            hits += a.results[0].id == q.topic
            abst_in += a.abstained
            answered_right += (not a.abstained) and a.results[0].id == q.topic
        for q, r in test[1]:
            n_oos += 1
            abst_oos += decider.decide(r, params=params).abstained
        for q, r in test[2]:
            a = decider.decide(r, params=params)
            n_nm += 1
            nm_ok += a.abstained or a.results[0].id != q.not_topic
    return {"folds": folds, "hit1": round(hits / n_in, 4),
            "false_abstention": round(abst_in / n_in, 4),
            "oos_abstention": round(abst_oos / n_oos, 4) if n_oos else None,
            "near_miss_avoided": round(nm_ok / n_nm, 4) if n_nm else None}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write assistant/calibration.json")
    ap.add_argument("--cv", type=int, default=5, metavar="K",
                    help="also report a K-fold cross-validated estimate (0: skip)")
    args = ap.parse_args()
    matches, near = load_fixtures(ROOT / "tests" / "fixtures" / "kb")
    engine = Engine(user_dirs=[])
    engine.warm_up()
    data = [(q, engine.retrieve(q.query)) for q in matches + near]
    ins = [(q, r) for q, r in data if q.topic != OOS and q.not_topic is None]
    oos = [(q, r) for q, r in data if q.topic == OOS and q.not_topic is None]
    nms = [(q, r) for q, r in data if q.not_topic is not None]
    print(f"training inputs: {len(ins)} in-scope, {len(oos)} out-of-scope, {len(nms)} near misses")
    ids = engine.index().entry_ids
    result = fit(ins, oos, nms, ids)
    result["fitted_on"] = (f"tests/fixtures/kb: {len(ins)} in-scope, {len(oos)} out-of-scope, "
                           f"{len(nms)} near misses")
    if args.cv:
        result["cross_validation"] = cross_validate(ins, oos, nms, ids, args.cv, engine.kb)
        print(f"{args.cv}-fold cross-validation: {result['cross_validation']}")
    result["how"] = "python scripts/calibrate.py --write"
    if args.write:
        CALIBRATION.write_text(json.dumps(result, indent=2) + "\n")
        print(f"wrote {CALIBRATION}")
    else:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
