"""Decide: turn fused scores into a calibrated confidence, and abstain when nothing is convincing.

confidence(top entry) = sigmoid(bias + Σ coef_f · f) over the features of `features()`:

- `sig`, `lex`, `dense` — the entry's evidence from each channel (signature weight, normalized
  BM25, rescaled cosine), scaled down by a matching look-alike pattern;
- `margin` — its lead over the runner-up in fused score, and `score` — the fused score itself;
- `agree` — the share of channels and views (dense and BM25 on the whole input, its title and its
  error lines) that rank it first: the right answer to a long report tends to win several views,
  a look-alike one;
- `domain` — how much TPU/ML vocabulary the input uses; `tpu` — whether it shows TPU evidence at
  all; `other_accel` / `other_service` — the context gate: another device (GPU, XLA_CPU, Edge
  TPU…) or a non-TPU Google service / plain VM named and no TPU (see text/domain.py);
- `long` — how long the input is (log10 of its lines, capped): real reports are long and their
  evidence is diluted, written ones short.

The coefficients are a logistic regression fitted by `scripts/calibrate.py` on written fixtures
and real reports together: positives are top results that are right, negatives the top results
of out-of-scope inputs, of wrong answers and of near misses answered with their entry. The
abstention threshold is chosen on the same data (see README, "Answer quality"); the cross-validated
figures are stored beside the coefficients. Runner-ups get the top result's confidence scaled by
their odds against it under the listwise ranking model (`runner_up_confidence`).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

CALIBRATION = Path(__file__).with_name("calibration.json")


@lru_cache(maxsize=1)
def load_params(path: str | None = None) -> dict:
    return json.loads(Path(path or CALIBRATION).read_text())


FEATURES = ("sig", "lex", "dense", "margin", "domain", "other_accel", "other_service", "score",
            "long", "agree", "tpu")

# The channels whose agreement on the top entry is a feature (see `agreement`).
AGREE_CHANNELS = ("dense", "lex", "dense_head", "lex_head", "dense_err", "lex_err")


def agreement(entry_id: str, retrieval, floor: float) -> float:
    """Share of the dense and lexical channels (each view) whose best entry is `entry_id`:
    the right answer to a report tends to win on several views at once, a look-alike on one."""
    from .retrieval.fusion import channel_features

    feats = {eid: channel_features(ev, floor) for eid, ev in retrieval.evidence.items()}
    wins = 0
    for ch in AGREE_CHANNELS:
        best = max(feats, key=lambda eid: (feats[eid][ch], eid == entry_id), default=None)
        wins += best == entry_id and feats[entry_id][ch] > 0
    return wins / len(AGREE_CHANNELS)


def features(scored, margin: float, retrieval, params: dict) -> dict[str, float]:
    from .retrieval.fusion import dense_scaled

    ev = scored.evidence
    keep = 1.0 - ev.exclude
    return {"sig": keep * ev.sig, "lex": keep * ev.lex,
            "dense": keep * dense_scaled(ev.dense, params["dense_floor"]),
            "margin": margin, "domain": retrieval.domain, "other_accel": retrieval.other_accel,
            "other_service": retrieval.other_service, "score": scored.score,
            "long": min(1.0, math.log10(1 + retrieval.facts.line_count) / 2),
            "agree": agreement(scored.entry_id, retrieval, params["dense_floor"]),
            "tpu": float(bool(retrieval.facts.context.get("tpu")))}


def _model(params: dict, used_dense: bool) -> tuple[dict, float]:
    """The fitted model for the channels that ran: all three, or (when decisive signatures made
    the embedding model unnecessary) signatures and lexical only."""
    if used_dense:
        return params["confidence"], params["threshold"]
    return params["confidence_nodense"], params["threshold_nodense"]


def confidence(feats: dict[str, float], params: dict, used_dense: bool = True) -> float:
    c, _ = _model(params, used_dense)
    z = c["bias"] + sum(c.get(name, 0.0) * feats[name] for name in FEATURES)
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def runner_up_confidence(top_conf: float, top_score: float, score: float, params: dict) -> float:
    """A runner-up's confidence: the top result's, times the odds of the runner-up against the top
    under the fitted listwise ranking model (softmax over `rank_scale * fused score`)."""
    return top_conf * math.exp(-params["rank_scale"] * max(0.0, top_score - score))


def should_abstain(top_confidence: float, params: dict, used_dense: bool = True) -> bool:
    return top_confidence < _model(params, used_dense)[1]
