#!/usr/bin/env python3
"""Fit the ranking weights, the confidence model and the abstention threshold on labelled data.

    python scripts/calibrate.py [--write] [--real PATH] [--cv K] [--repeats R]
    python scripts/calibrate.py --bm25 K1[:B],...   (compare BM25 parameters; writes nothing)

Training data:
- tests/fixtures/kb/*.yaml — written inputs that must match each entry, near misses that must not,
  and out_of_scope.yaml (inputs nothing should match);
- real user reports from public issue threads (`--real`, default ../shared/eval/real_queries.jsonl
  when present; `--real none` leaves them out). A report's `note` may name a second right entry
  (`also: <id>`); ranking either first counts as right.
The dev queries in ../shared/eval are NOT used here, so `scripts/eval.py` on them measures
generalization.

1. Ranking weights: one non-negative weight per feature (`fusion.FEATURES`: signature, and dense
   and BM25 evidence for each view of the input), fitted for each candidate `dense_floor` by a
   listwise ranking loss (mean log of the softmax mass on the right entries; smooth, rewards
   margins). w_sig is then raised to the sum of the other weights if it is lower (a decisive
   signature outweighs every other channel together) and all are scaled so w_sig = 1; the scale
   factor is kept as `rank_scale` (the softmax temperature that gives runner-ups their odds
   against the top result). The floor kept is the one with the best hit@1 plus near-miss
   avoidance (ties: MRR; floors still tied: the one whose confidence fit of step 2 has the
   smallest log-loss, `pick_floor`, not the grid's first).
2. Confidence: L2-regularized logistic regression of "the top result is right" on the top result's
   features (`decide.FEATURES`). Positives: in-scope inputs whose top result is right; negatives:
   out-of-scope inputs, wrong top results, near misses whose top result is their entry. The
   strength of the L2 penalty is `RIDGE` (0.1). It used to be fixed at 1.0; on the real reports
   that over-shrank the context features (`tpu`, `other_accel`, `lookalike`) and answered more
   out-of-scope look-alikes. It was then chosen from `RIDGE_GRID` in every fit by an inner 5-fold
   cross-validation (weighted log-loss; `--ridge auto` still does that, `choose_ridge`): over the
   25 fits of a 5×5 cross-validation that chose 0.1 in 22 or 23, and the odd choice (0.03 or 0.3)
   moved the pooled figures by a report either way — selection noise, not signal. Fixed at 0.1,
   the 5×5 figures on the real reports went from 0.933 / 0.968 / 0.032 / 0.882 (hit@1, hit@3,
   false and out-of-scope abstention) to 0.940 / 0.975 / 0.025 / 0.882, and over 12 partitions
   from 0.929 / 0.963 / 0.037 / 0.873 to 0.932 / 0.966 / 0.035 / 0.875. Like the threshold, this
   is a choice made on the real reports outside the folds (README, "Answer quality"). Breiman's
   one-standard-error rule (the strongest penalty within a standard error of the best inner loss)
   was tried too: 0.945 / 0.979 / 0.021 / 0.841 — it refuses fewer right answers and answers
   more look-alikes.
   Each coefficient is kept on the side its feature's meaning gives it (`decide.FEATURE_SIGNS`:
   evidence for the entry >= 0, evidence against it <= 0, the input's length free), a bounded fit
   (L-BFGS-B). Left free, the fit gave the top entry's lead over the runner-up a negative weight
   (-1.24) and the named other Google service a positive one: on the fixtures and the real
   reports, whose entries' texts were written after reading them, closeness says nearly
   everything and the lead only corrects it. Bounded, both are 0 and the real reports' 5x5
   cross-validation is unchanged (0.959 / 0.975 / 0.025 / 0.906), as are the fixtures'; three
   fresh written blind sets (84 in scope, 36 look-alikes) get the same figures. It is kept so
   that no evidence for an answer can lower its confidence on reports unlike the training data.
3. Threshold: abstain when the top answer is more likely wrong than right, i.e. below a
   confidence of 0.5 (`ABSTAIN_BELOW`). The logistic model is already fitted on the mix of right
   answers, wrong answers and look-alikes the assistant meets, so its 0.5 is the equal-cost
   decision. Choosing the threshold by Youden's J on the same data instead (in-sample, or on
   out-of-fold confidences) was tried and dropped: on ~120 real reports J's optimum moved from
   0.46 to 0.74 between folds, and the 5-fold figures were worse on every count (hit@1 0.83 against
   0.91, false abstention 0.13 against 0.02) for a small gain in out-of-scope abstention (0.71
   against 0.59). 0.5 was compared with 0.4 and 0.6 in the same cross-validation; that comparison
   is the only choice made on the real reports outside the folds.

4. BM25's own parameters (`k1`, `b`: constants in assistant/retrieval/lexical.py, part of the
   index) are not refitted by `--write`. `--bm25` cross-validates the whole fit once per pair given
   and reports the pair the written fixtures choose (`bm25_criterion`: their hit@1, out-of-scope
   abstention and near-miss avoidance, averaged); the real reports are scored too but do not
   choose, so their cross-validated figures stay an estimate made without the choice. k1 = 1.6
   was chosen so (README, lab notebook, "…BM25 tuned on the written fixtures").
5. Temperature of the confidence shown (`Confidence.temperature`): the fitted log-odds are scaled
   by the one factor under which the written reports (`WRITTEN`: long reports, hard reports and
   probes written by helpers who never saw the knowledge base; used for nothing else here) get
   the lowest log-loss. The fit above is made on reports whose right entries were written to match
   them, and its probabilities claim too much on reports nobody here has read (answers given at
   0.9–1.0 were right about half the time on the blind samples). The threshold stays at 0.5, where
   a positive factor changes no decision: only the number a person is shown.

Every figure printed for the training data is a training figure. The honest estimate is the
K-fold cross-validation (`--cv`, default 5), repeated over R partitions of the data (`--repeats`,
default 5) and pooled: each fold is fitted without the inputs it is scored on, and the scores are
reported separately for the real reports and the written fixtures. One partition alone is too
noisy to judge a change by (see `REPEATS`). It is stored in calibration.json next to the fitted
values.
Writes assistant/calibration.json with --write; always prints the fitted values and figures.
"""

from __future__ import annotations

import argparse
import sys
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant.answer import Answer  # noqa: E402
from assistant.calibration import CALIBRATION_FILE, Calibration, Confidence  # noqa: E402
from assistant.decide import FEATURE_SIGNS, FEATURES, features  # noqa: E402
from assistant.engine import Engine, Retrieval  # noqa: E402
from assistant.evaluation import OOS, Query, load_fixtures, load_jsonl  # noqa: E402
from assistant.retrieval import lexical  # noqa: E402
from assistant.retrieval.fusion import EMPTY, channel_features, fuse  # noqa: E402
from assistant.retrieval.fusion import FEATURES as RANK_FEATURES  # noqa: E402

GRID_FLOOR = [0.15, 0.2, 0.25, 0.3]
DEFAULT_REAL = ROOT.parent / "shared" / "eval" / "real_queries.jsonl"
# Reports written by helpers who never saw the knowledge base (README, "Written queries"): what the
# shown confidence's temperature is fitted on (step 5 of the module docstring), nothing else.
WRITTEN = tuple(
    ROOT / "tests" / "fixtures" / name
    for name in ("written_reports.jsonl", "written_reports_hard.jsonl", "written_probes.jsonl")
)

Row = tuple[Query, Retrieval]


@dataclass
class Data:
    """Retrieved labelled inputs, by role; `source` of a query: "fixture" or "real"."""

    ins: list[Row]
    oos: list[Row]
    nms: list[Row]
    source: dict[str, str]

    def subset(self, keep) -> Data:
        return Data(
            *[[row for row in part if keep(row[0])] for part in (self.ins, self.oos, self.nms)],
            self.source,
        )


def fit_listwise(
    x: np.ndarray, right: np.ndarray, ridge: float = 1e-3, iters: int = 3000, lr: float = 0.5
) -> np.ndarray:
    """Weights w >= 0 maximizing the mean log of the softmax mass on each query's right entries,
    where an entry's score is x[query, entry] @ w (x: queries x entries x features; right: a 0/1
    mask, queries x entries). A smooth stand-in for hit@1 that rewards wide margins."""
    w = np.ones(x.shape[-1])
    n = len(right)
    for _ in range(iters):
        s = x @ w
        s -= s.max(axis=1, keepdims=True)
        p = np.exp(s) / np.exp(s).sum(axis=1, keepdims=True)
        q = p * right
        q /= np.maximum(q.sum(axis=1, keepdims=True), 1e-12)
        grad = np.einsum("qe,qec->c", p - q, x) / n + ridge * w
        w = np.maximum(1e-3, w - lr * grad)
    return w


def fit_logistic(
    x: np.ndarray,
    y: np.ndarray,
    ridge: float = 1.0,
    sample_weight: np.ndarray | None = None,
    signs: Sequence[int] | None = None,
) -> np.ndarray:
    """L2-regularized (weighted) logistic regression; returns [bias, w...]. `signs` (one per column
    of x: +1, -1 or 0) keeps each coefficient on the side its feature's meaning gives it
    (`decide.FEATURE_SIGNS`; 0 or None: free). Solved by L-BFGS-B, which takes such bounds."""
    X = np.hstack([np.ones((len(x), 1)), x])
    sw = np.ones(len(y)) if sample_weight is None else sample_weight
    penalty = np.r_[0.0, np.ones(X.shape[1] - 1)]

    def loss_and_grad(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = np.clip(X @ w, -60, 60)
        p = 1 / (1 + np.exp(-z))
        loss = np.sum(sw * (np.logaddexp(0.0, z) - y * z)) + 0.5 * ridge * np.sum(penalty * w * w)
        return float(loss), X.T @ (sw * (p - y)) + ridge * penalty * w

    side = {1: (0.0, None), -1: (None, 0.0), 0: (None, None)}
    bounds = [(None, None)] + [side[s] for s in (signs or [0] * x.shape[1])]
    fitted = minimize(
        loss_and_grad,
        np.zeros(X.shape[1]),
        jac=True,
        method="L-BFGS-B",
        bounds=bounds,
        options={"maxiter": 10_000, "ftol": 1e-13, "gtol": 1e-9},
    )
    return np.asarray(fitted.x)


def _right(q: Query) -> tuple[str, ...]:
    return q.right


def ranking_only(weights: dict[str, float], dense_floor: float, rank_scale: float) -> Calibration:
    """A calibration with the ranking fitted and no confidence model yet (enough to fuse)."""
    blank = Confidence(bias=0.0, coef={}, threshold=0.5)
    return Calibration(
        weights=weights,
        dense_floor=dense_floor,
        rank_scale=rank_scale,
        confidence=blank,
        confidence_nodense=blank,
    )


ABSTAIN_BELOW = 0.5  # see step 3 of the module docstring


def _confidence_rows(
    rows: list[Row], params: Calibration, names: list[str], source: dict[str, str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Features of each input's top result, its label, its group (in / oos / near), its sample
    weight (each source weighs the same in total, so 150 written inputs do not drown 120 real
    ones), and the input's id. Near misses only count when their entry came first."""
    feats, labels, groups, weights, ids = [], [], [], [], []
    counts: dict[str, int] = {}
    for q, _ in rows:
        counts[source.get(q.id, "fixture")] = counts.get(source.get(q.id, "fixture"), 0) + 1
    for q, r in rows:
        if not r.evidence:
            continue
        ranked = fuse(r.evidence, params)
        top = ranked[0]
        margin = top.score - (ranked[1].score if len(ranked) > 1 else 0.0)
        if q.not_topic is not None:
            if top.entry_id != q.not_topic:
                continue  # nothing known about the right answer of a near miss
            label = 0
        else:
            label = int(q.topic != OOS and top.entry_id in _right(q))
        f = features(top, margin, r, params)
        feats.append([f[name] for name in names])
        labels.append(label)
        groups.append(("in" if q.topic != OOS else "oos") if q.not_topic is None else "near")
        weights.append(len(rows) / (len(counts) * counts[source.get(q.id, "fixture")]))
        ids.append(q.id)
    return (
        np.array(feats),
        np.array(labels, dtype=float),
        np.array(groups),
        np.array(weights),
        ids,
    )


def _log_odds(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    """bias + x · coef for weights `w` = [bias, *coef]: `Confidence.probability`'s exponent, on
    arrays."""
    return w[0] + x @ w[1:]


def _probability(w: np.ndarray, x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-_log_odds(w, x)))


# The confidence model's L2 penalty, and the candidates of `--ridge auto` (see step 2 of the
# module docstring).
RIDGE = 0.1
RIDGE_GRID = (0.01, 0.03, 0.1, 0.3, 1.0, 3.0)
INNER_FOLDS = 5
INNER_REPEATS = 3


def choose_ridge(
    x: np.ndarray,
    y: np.ndarray,
    sw: np.ndarray,
    ids: list[str],
    grid: tuple[float, ...] = RIDGE_GRID,
    folds: int = INNER_FOLDS,
    repeats: int = INNER_REPEATS,
    signs: Sequence[int] | None = None,
) -> float:
    """The L2 strength from `grid` with the lowest weighted log-loss on held-out inputs, by an
    inner `folds`-fold cross-validation over these rows only, repeated with `repeats` different
    splits and summed (one split of ~400 inputs is noisy enough to move the choice a step).
    Folds go by input id, salted so they do not line up with the outer folds of
    `cross_validate`. Ties go to the stronger penalty."""
    splits = [
        np.array([zlib.crc32(f"inner{rep}:{i}".encode()) % folds for i in ids])
        for rep in range(repeats)
    ]
    best: tuple[float, float] | None = None
    for ridge in sorted(grid, reverse=True):
        loss = 0.0
        for fold in splits:
            for k in range(folds):
                train, test = fold != k, fold == k
                if not test.any() or len(set(y[train])) < 2:
                    continue
                w = fit_logistic(x[train], y[train], ridge, sw[train], signs)
                loss += weighted_log_loss(y[test], _probability(w, x[test]), sw[test])
        if best is None or loss < best[0] - 1e-9:
            best = (loss, ridge)
    assert best is not None
    return best[1]


def abstention_rates(
    conf: np.ndarray, groups: np.ndarray, sw: np.ndarray, threshold: float
) -> tuple[float, float]:
    """Weighted false abstention (in-scope inputs refused) and out-of-scope abstention."""

    def share(mask: np.ndarray, wts: np.ndarray) -> float:
        return float((mask * wts).sum() / wts.sum()) if len(wts) else 0.0

    inside, outside = groups == "in", groups == "oos"
    return (
        share(conf[inside] < threshold, sw[inside]),
        share(conf[outside] < threshold, sw[outside]),
    )


def fit_confidence(
    rows: list[Row],
    params: Calibration,
    names: list[str],
    source: dict[str, str],
    verbose: bool = True,
    ridge: float | None = RIDGE,
) -> tuple[Confidence, float, float]:
    """Logistic confidence over `names` and its abstention threshold (see the module docstring);
    `ridge` None chooses the penalty by inner cross-validation (`choose_ridge`)."""
    x, y, g, sw, ids = _confidence_rows(rows, params, names, source)
    signs = [FEATURE_SIGNS[name] for name in names]
    ridge = choose_ridge(x, y, sw, ids, signs=signs) if ridge is None else ridge
    w = fit_logistic(x, y, ridge, sw, signs)
    if verbose:
        print(
            f"confidence over {', '.join(names)} (ridge {ridge}): bias={w[0]:.3f} "
            + " ".join(f"{n}={c:.3f}" for n, c in zip(names, w[1:], strict=True))
            + f"  (positives {int(y.sum())}, negatives {int(len(y) - y.sum())})"
        )
    fa, oa = abstention_rates(_probability(w, x), g, sw, ABSTAIN_BELOW)
    if verbose:
        print(
            f"  threshold: {ABSTAIN_BELOW}  false abstention={fa:.3f}  "
            f"out-of-scope abstention={oa:.3f}  (training figures)"
        )
    coef = {n: round(float(c), 4) for n, c in zip(names, w[1:], strict=True)}
    model = Confidence(bias=round(float(w[0]), 4), coef=coef, threshold=ABSTAIN_BELOW, ridge=ridge)
    return model, fa, oa


def pick_floor(
    candidates: list[tuple[tuple[float, float], Calibration]],
    loss: Callable[[Calibration], float],
    verbose: bool = False,
) -> tuple[tuple[float, float], Calibration]:
    """The candidate ranking (one per dense floor) with the best key (hit@1 + near-miss avoidance,
    then MRR). Floors that tie on it (common: the floor barely moves the ranking) differ in what
    they do to the confidence model's dense feature, so the tie goes to the smallest `loss` (the
    confidence fit's log-loss) rather than to the grid's order, which one labelled input more
    used to flip."""
    best_key = max(key for key, _ in candidates)
    tied = [p for key, p in candidates if key == best_key]
    if len(tied) == 1:
        return best_key, tied[0]
    losses = [loss(p) for p in tied]
    if verbose:
        print(
            "  tied floors, confidence log-loss: "
            + " ".join(f"{p.dense_floor:.2f}={v:.4f}" for p, v in zip(tied, losses, strict=True))
        )
    return best_key, tied[losses.index(min(losses))]


def confidence_loss(
    rows: list[Row], params: Calibration, source: dict[str, str], ridge: float | None
) -> float:
    """The weighted log-loss, on its own training rows, of the confidence model (all channels)
    fitted with these ranking parameters."""
    x, y, _, sw, ids = _confidence_rows(rows, params, list(FEATURES), source)
    signs = [FEATURE_SIGNS[name] for name in FEATURES]
    ridge = choose_ridge(x, y, sw, ids, signs=signs) if ridge is None else ridge
    w = fit_logistic(x, y, ridge, sw, signs)
    return weighted_log_loss(y, _probability(w, x), sw) / float(sw.sum())


def weighted_log_loss(y: np.ndarray, p: np.ndarray, sw: np.ndarray) -> float:
    """The summed log-loss of probabilities `p` for 0/1 labels `y`, each input weighing `sw`."""
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-(sw * (y * np.log(p) + (1 - y) * np.log(1 - p))).sum())


def feature_tensor(rows: list[Row], ids: list[str], floor: float) -> np.ndarray:
    """queries x entries x RANK_FEATURES, each entry's features scaled by (1 - exclude)."""
    out = np.zeros((len(rows), len(ids), len(RANK_FEATURES)))
    for i, (_, r) in enumerate(rows):
        for j, eid in enumerate(ids):
            ev = r.evidence.get(eid, EMPTY)
            f = channel_features(ev, floor)
            out[i, j] = [(1.0 - ev.exclude) * f[name] for name in RANK_FEATURES]
    return out


def fit(
    data: Data, ids: list[str], verbose: bool = True, ridge: float | None = RIDGE
) -> Calibration:
    """Ranking weights, both confidence models and thresholds from retrieved labelled inputs
    (`ridge`: the confidence models' L2 penalty, None to choose it by inner cross-validation)."""
    col = {eid: j for j, eid in enumerate(ids)}
    ins, oos, nms = data.ins, data.oos, data.nms
    right = np.zeros((len(ins), len(ids)))
    for i, (q, _) in enumerate(ins):
        for eid in _right(q):
            if eid in col:
                right[i, col[eid]] = 1
    nm_target = np.array([col[q.not_topic] for q, _ in nms])
    candidates: list[tuple[tuple[float, float], Calibration]] = []
    for floor in GRID_FLOOR:
        x_in = feature_tensor(ins, ids, floor)
        w = fit_listwise(x_in, right)
        # Signatures weigh most: a decisive signature outweighs every other channel together.
        w_sig = max(w[0], w[1:].sum())
        wn = w / w_sig
        wn[0] = 1.0
        f_in = x_in @ wn
        target = np.where(right > 0, f_in, -np.inf).max(axis=1)
        rank = (np.where(right > 0, -np.inf, f_in) >= target[:, None]).sum(axis=1) + 1
        hit, mrr = float((rank == 1).mean()), float((1 / rank).mean())
        nm_ok = (
            float(((feature_tensor(nms, ids, floor) @ wn).argmax(axis=1) != nm_target).mean())
            if nms
            else 0.0
        )
        key = (round(hit + nm_ok, 6), round(mrr, 6))
        if verbose:
            print(
                f"  floor={floor:.2f}: "
                + " ".join(f"{n}={v:.3f}" for n, v in zip(RANK_FEATURES[1:], wn[1:], strict=False))
                + f"  hit@1={hit:.3f} near-miss avoidance={nm_ok:.3f} MRR={mrr:.3f}"
            )
        candidates.append(
            (
                key,
                ranking_only(
                    {n: round(float(v), 4) for n, v in zip(RANK_FEATURES, wn, strict=False)},
                    floor,
                    round(float(w_sig), 4),
                ),
            )
        )
    (objective, mrr), params = pick_floor(
        candidates, lambda p: confidence_loss(ins + oos + nms, p, data.source, ridge), verbose
    )
    if verbose:
        print(
            f"ranking: {params.weights} dense_floor={params.dense_floor} "
            f"rank_scale={params.rank_scale}  "
            f"objective={objective:.3f} (hit@1 + near-miss avoidance)  "
            f"MRR={mrr:.3f}  (training figures)"
        )
    rows = ins + oos + nms
    full, fa, oa = fit_confidence(rows, params, list(FEATURES), data.source, verbose, ridge)
    # Signatures + lexical only: what the engine uses when decisive signatures spare the model.
    fast, _, _ = fit_confidence(
        without_dense(rows),
        params,
        [f for f in FEATURES if f not in ("dense", "lookalike")],
        data.source,
        verbose,
        ridge,
    )
    return params.model_copy(
        update={
            "confidence": full,
            "confidence_nodense": fast,
            "training_figures": {
                "objective": round(objective, 4),
                "mrr": round(mrr, 4),
                "false_abstention": round(fa, 4),
                "oos_abstention": round(oa, 4),
            },
        }
    )


def without_dense(rows: list[Row]) -> list[Row]:
    """The rows as the engine sees them when decisive signatures spared the embedding model."""
    return [
        (
            q,
            replace(
                r,
                evidence={
                    e: replace(
                        ev,
                        dense=0.0,
                        lookalike=0.0,
                        lookalike_chunk=None,
                        views={k: v for k, v in ev.views.items() if not k.startswith("dense")},
                    )
                    for e, ev in r.evidence.items()
                },
                used_dense=False,
            ),
        )
        for q, r in rows
    ]


TEMPERATURES = np.round(np.arange(0.05, 2.0001, 0.01), 2)


def load_written(engine: Engine) -> list[Row]:
    """The written reports (`WRITTEN`), retrieved: what `temper` fits on."""
    return [(q, engine.retrieve(q.query)) for path in WRITTEN for q in load_jsonl(path)]


def temper(params: Calibration, written: list[Row], verbose: bool = True) -> Calibration:
    """`params` with each confidence model's temperature fitted on the written reports (step 5 of
    the module docstring). Done once, for the calibration written: a temperature changes no
    decision, so the cross-validation has no use for it."""
    full = params.confidence.model_copy(
        update={"temperature": fit_temperature(written, params, params.confidence)}
    )
    fast = params.confidence_nodense.model_copy(
        update={
            "temperature": fit_temperature(
                without_dense(written), params, params.confidence_nodense
            )
        }
    )
    if verbose:
        print(
            f"temperature of the confidence shown (on {len(written)} written reports): "
            f"{full.temperature} (signatures and words only: {fast.temperature})"
        )
    return params.model_copy(update={"confidence": full, "confidence_nodense": fast})


def fit_temperature(rows: list[Row], params: Calibration, model: Confidence) -> float:
    """The temperature under which `model`'s confidence in each row's top result has the lowest
    log-loss against whether that result was right (in scope and a right entry), over a grid from
    0.05 to 2; 1.0 when the rows have only one kind."""
    names = list(model.coef)
    x, y, _, _, _ = _confidence_rows(rows, params, names, {})
    if len(set(y.tolist())) < 2:
        return 1.0
    return fit_scale(_log_odds(np.array([model.bias, *(model.coef[n] for n in names)]), x), y)


def fit_scale(z: np.ndarray, y: np.ndarray) -> float:
    """The t of TEMPERATURES with the lowest log-loss of sigmoid(t · z) against labels y."""
    p = 1 / (1 + np.exp(-np.clip(np.outer(TEMPERATURES, z), -60, 60)))
    p = np.clip(p, 1e-9, 1 - 1e-9)
    loss = -(y * np.log(p) + (1 - y) * np.log(1 - p)).sum(axis=1)
    return float(TEMPERATURES[int(loss.argmin())])


# Partitions of the repeated cross-validation. One 5-fold partition of ~120 real reports is a
# noisy estimate: over five partitions of the same data, hit@1 ranged 0.908-0.954 and false
# abstention 0.023-0.069 (one borderline report moves a figure by 0.011). The figures reported
# and asserted are pooled over REPEATS partitions, each input scored once per partition.
REPEATS = 5


@dataclass(frozen=True)
class Outcome:
    """One input scored in one partition of the cross-validation (`cross_validate`)."""

    partition: int
    right: bool  # in scope: answered, with a right entry first; out of scope: refused
    abstained: bool
    confidence: float  # the first entry's
    top: str  # the first entry ("" when nothing was ranked)


def _outcome(partition: int, right: bool, answer: Answer) -> Outcome:
    first = answer.results[0] if answer.results else None
    return Outcome(
        partition,
        right,
        answer.abstained,
        first.confidence if first else 0.0,
        first.id if first else "",
    )


def fold_of(q: Query, folds: int, repeat: int = 0) -> int:
    """The fold of `q` in partition `repeat` (partition 0 is the historical, unsalted one)."""
    key = q.id if repeat == 0 else f"cv{repeat}:{q.id}"
    return zlib.crc32(key.encode()) % folds


def cross_validate(
    data: Data,
    ids: list[str],
    folds: int,
    kb,
    repeats: int = REPEATS,
    ridge: float | None = RIDGE,
    outcomes: dict[str, list[Outcome]] | None = None,
) -> dict:
    """Repeated k-fold estimate of how the fitted model does on inputs it was not fitted on, per
    source: `repeats` partitions into `folds` folds, each fold fitted without the inputs it is
    scored on; the counts are pooled over the partitions (the mean of the partitions' figures).
    `outcomes`, if given, receives every in-scope and out-of-scope input's outcome in each
    partition (by query id): which reports flip between partitions (`--misses`)."""
    decider = Engine(kb=kb)  # only `decide` is used: nothing is loaded
    tallies: dict[str, dict[str, float]] = {}

    def tally(src: str, key: str, value: float) -> None:
        t = tallies.setdefault(src, {})
        t[key] = t.get(key, 0) + value

    splits = [(rep, k) for rep in range(repeats) for k in range(folds)]
    for rep, k in splits:
        train = data.subset(lambda q, k=k, rep=rep: fold_of(q, folds, rep) != k)
        test = data.subset(lambda q, k=k, rep=rep: fold_of(q, folds, rep) == k)
        params = fit(train, ids, verbose=False, ridge=ridge)
        for q, r in test.ins:
            src = data.source.get(q.id, "fixture")
            a = decider.decide(r, top_k=3, params=params)
            ranked = [x.id for x in a.results]
            tally(src, "n_in", 1)
            tally(src, "hit1", bool(ranked) and ranked[0] in q.right)
            tally(src, "hit3", any(e in q.right for e in ranked[:3]))
            right = not a.abstained and bool(ranked) and ranked[0] in q.right
            if outcomes is not None:
                outcomes.setdefault(q.id, []).append(_outcome(rep, right, a))
            tally(src, "answered_right", right)
            tally(src, f"n_in:{q.kind}", 1)
            tally(src, f"answered_right:{q.kind}", right)
            tally(src, "answered_right3", not a.abstained and any(e in q.right for e in ranked[:3]))
            tally(src, "abst_in", a.abstained)
        for q, r in test.oos:
            src = data.source.get(q.id, "fixture")
            a = decider.decide(r, params=params)
            if outcomes is not None:
                outcomes.setdefault(q.id, []).append(_outcome(rep, a.abstained, a))
            tally(src, "n_oos", 1)
            tally(src, "abst_oos", a.abstained)
        for q, r in test.nms:
            src = data.source.get(q.id, "fixture")
            a = decider.decide(r, params=params)
            tally(src, "n_nm", 1)
            tally(src, "nm_ok", a.abstained or not a.results or a.results[0].id != q.not_topic)
    out: dict = {"folds": folds, "repeats": repeats}
    for src, t in sorted(tallies.items()):
        n_in, n_oos, n_nm = t.get("n_in", 0), t.get("n_oos", 0), t.get("n_nm", 0)
        out[src] = {
            # inputs, not scorings: each input is scored once per partition
            "n_in": int(n_in) // repeats,
            "n_oos": int(n_oos) // repeats,
            # hit@k among answers: abstaining counts as a miss
            "hit1": round(t["answered_right"] / n_in, 4) if n_in else None,
            "hit3": round(t["answered_right3"] / n_in, 4) if n_in else None,
            "hit1_ranking": round(t["hit1"] / n_in, 4) if n_in else None,
            "false_abstention": round(t["abst_in"] / n_in, 4) if n_in else None,
            "oos_abstention": round(t["abst_oos"] / n_oos, 4) if n_oos else None,
            "near_miss_avoided": round(t["nm_ok"] / n_nm, 4) if n_nm else None,
            # hit@1 (abstaining counts as a miss) by the kind of input: error, symptom, question
            "hit1_by_kind": {
                key.split(":", 1)[1]: round(t[f"answered_right:{key.split(':', 1)[1]}"] / n, 4)
                for key, n in sorted(t.items())
                if key.startswith("n_in:") and n
            },
        }
    return out


def load_data(engine: Engine, real: Path | None) -> Data:
    matches, near = load_fixtures(ROOT / "tests" / "fixtures" / "kb")
    queries = [(q, "fixture") for q in matches + near]
    if real is not None and real.is_file():
        queries += [(q, "real") for q in load_jsonl(real)]
    source = {q.id: src for q, src in queries}
    data = [(q, engine.retrieve(q.query)) for q, _ in queries]
    return Data(
        [(q, r) for q, r in data if q.topic != OOS and q.not_topic is None],
        [(q, r) for q, r in data if q.topic == OOS and q.not_topic is None],
        [(q, r) for q, r in data if q.not_topic is not None],
        source,
    )


def print_misses(data: Data, outcomes: dict[str, list[Outcome]]) -> None:
    """The real reports not right in every partition, one line each: its label, how many
    partitions got it right, and each partition's first entry with its confidence (upper-case
    `A`: refused). A report right in some partitions only sits near the threshold or between two
    entries; one never right is a knowledge or a label question."""
    labels = {q.id: q.topic for q, _ in data.ins + data.oos}
    for qid in sorted(outcomes):
        got = outcomes[qid]
        if data.source.get(qid) != "real" or all(o.right for o in got):
            continue
        each = " ".join(f"{'A' if o.abstained else 'a'}{o.confidence:.2f}:{o.top}" for o in got)
        print(f"  {qid:8} {labels[qid]:26} right {sum(o.right for o in got)}/{len(got)}  {each}")


def bm25_criterion(fixture: dict) -> float:
    """What `--bm25` chooses by: the written fixtures' cross-validated hit@1, out-of-scope
    abstention and near misses kept off their entry, averaged. Written data only, so the real
    reports' cross-validation stays an estimate made without this choice."""
    return (fixture["hit1"] + fixture["oos_abstention"] + fixture["near_miss_avoided"]) / 3


def bm25_sweep(
    engine: Engine,
    real: Path | None,
    grid: list[tuple[float, float]],
    folds: int,
    repeats: int,
    ridge: float | None,
) -> tuple[float, float]:
    """Cross-validate the whole fit once per BM25 (k1, b) of `grid` and print the figures; returns
    the pair with the best `bm25_criterion`. BM25's postings do not depend on k1 and b, so each
    pair is the shipped index's lexical channel rescored, not a rebuilt index. Writes nothing."""
    index = engine.index()
    shipped = index.lexical
    best: tuple[float, tuple[float, float]] | None = None
    try:
        for k1, b in grid:
            index.lexical = shipped.with_params(k1, b)
            data = load_data(engine, real)
            cv = cross_validate(data, index.entry_ids, folds, engine.kb, repeats, ridge)
            fixture, real_cv = cv["fixture"], cv.get("real")
            score = bm25_criterion(fixture)
            print(
                f"k1={k1:g} b={b:g}  fixtures: hit@1 {fixture['hit1']:.4f} out-of-scope "
                f"{fixture['oos_abstention']:.4f} near misses {fixture['near_miss_avoided']:.4f}"
                f" -> {score:.4f}"
                + (
                    f"  | real reports: hit@1 {real_cv['hit1']:.4f} hit@3 {real_cv['hit3']:.4f} "
                    f"false abstention {real_cv['false_abstention']:.4f} out-of-scope "
                    f"{real_cv['oos_abstention']:.4f}"
                    if real_cv
                    else ""
                ),
                flush=True,
            )
            if best is None or score > best[0] + 1e-9:
                best = (score, (k1, b))
    finally:
        index.lexical = shipped
    assert best is not None
    return best[1]


def _bm25_arg(value: str) -> list[tuple[float, float]]:
    """`--bm25`: comma-separated K1 or K1:B (B defaults to the shipped one)."""
    grid = []
    for item in value.split(","):
        k1_text, _, b_text = item.strip().partition(":")
        try:
            k1, b = float(k1_text), float(b_text) if b_text else lexical.B
        except ValueError:
            raise argparse.ArgumentTypeError(f"K1 or K1:B, not {item!r}") from None
        if k1 <= 0 or not 0 <= b <= 1:
            raise argparse.ArgumentTypeError(f"k1 above 0 and b in 0..1, not {item!r}")
        grid.append((k1, b))
    return grid


def _ridge_arg(value: str) -> float | None:
    """`--ridge`: a penalty above 0, or "auto" (None: chosen by inner cross-validation)."""
    if value == "auto":
        return None
    try:
        ridge = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number or 'auto', not {value!r}") from None
    if ridge <= 0:
        raise argparse.ArgumentTypeError("must be above 0")
    return ridge


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write assistant/calibration.json")
    ap.add_argument(
        "--real",
        default=str(DEFAULT_REAL),
        help="real labelled reports (JSONL) to fit on too; 'none' to leave them out",
    )
    ap.add_argument(
        "--cv",
        type=int,
        default=5,
        metavar="K",
        help="also report a K-fold cross-validated estimate (0: skip)",
    )
    ap.add_argument(
        "--repeats",
        type=int,
        default=REPEATS,
        metavar="R",
        help=f"partitions of the cross-validation, pooled (default {REPEATS})",
    )
    ap.add_argument(
        "--ridge",
        type=_ridge_arg,
        default=RIDGE,
        metavar="L2|auto",
        help=f"the confidence models' L2 penalty (default {RIDGE}); 'auto' chooses it in every fit "
        "by inner cross-validation",
    )
    ap.add_argument(
        "--bm25",
        type=_bm25_arg,
        metavar="K1[:B],...",
        help="cross-validate the fit for each BM25 k1 (and b) given, print the figures and the "
        "pair the written fixtures choose, and stop (writes nothing; ~1 min a pair)",
    )
    ap.add_argument(
        "--misses",
        action="store_true",
        help="after the cross-validation, list the real reports not right in every partition",
    )
    args = ap.parse_args()
    real = None if args.real == "none" else Path(args.real)
    engine = Engine(user_dirs=[])
    engine.warm_up()
    if args.bm25:
        k1, b = bm25_sweep(engine, real, args.bm25, args.cv or 5, max(1, args.repeats), args.ridge)
        print(
            f"the written fixtures choose k1={k1:g} b={b:g} (shipped: "
            f"k1={lexical.K1:g} b={lexical.B:g}, set in assistant/retrieval/lexical.py)"
        )
        return 0
    data = load_data(engine, real)
    n_real = sum(1 for s in data.source.values() if s == "real")
    print(
        f"training inputs: {len(data.ins)} in-scope, {len(data.oos)} out-of-scope, "
        f"{len(data.nms)} near misses ({n_real} of them real reports)"
    )
    ids = engine.index().entry_ids
    result = temper(fit(data, ids, ridge=args.ridge), load_written(engine))
    n_fix = len(data.source) - n_real
    record: dict = {
        "fitted_on": (
            f"tests/fixtures/kb ({n_fix} inputs)"
            + (f" + {real.name} ({n_real} real reports)" if n_real else "")
        ),
        "how": "python scripts/calibrate.py --write",
    }
    outcomes: dict[str, list[Outcome]] = {}
    if args.cv:
        record["cross_validation"] = cross_validate(
            data, ids, args.cv, engine.kb, max(1, args.repeats), args.ridge, outcomes
        )
        print(
            f"{args.cv}-fold cross-validation over {max(1, args.repeats)} partitions, pooled "
            "(not training figures):"
        )
        for src, figures in record["cross_validation"].items():
            if isinstance(figures, dict):
                print(f"  {src:8} {figures}")
        if args.misses:
            print("real reports not right in every partition (A: refused):")
            print_misses(data, outcomes)
    result = result.model_copy(update=record)
    if args.write:
        CALIBRATION_FILE.write_text(result.to_json())
        print(f"wrote {CALIBRATION_FILE}")
    else:
        print(result.to_json())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
