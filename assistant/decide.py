"""Decide: turn fused scores into a calibrated confidence, and abstain when nothing is convincing.

confidence(entry) = sigmoid(bias + Σ coef_f · f) over the features `f` of `features()`: the entry's
evidence from each channel (signature weight, normalized BM25, rescaled cosine), its `margin` over
the runner-up (the lead that makes a match trustworthy), and
`domain`, how much TPU/ML vocabulary the input uses, and `other_accel`, whether it names a GPU
and no TPU (see text/domain.py). The coefficients are a
logistic regression fitted by `scripts/calibrate.py`. Runner-ups get the top result's confidence
scaled by their odds against it under the listwise ranking model (`runner_up_confidence`). The
logistic is fitted by `scripts/calibrate.py`:
positives are the top result of in-scope labelled inputs when it is right, negatives are the top
result of out-of-scope inputs and of wrong answers. The abstention threshold is then chosen on the
same data to keep false abstention low while refusing out-of-scope input (see README, "Answer
quality").
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
            "long")


def features(scored, margin: float, retrieval, params: dict) -> dict[str, float]:
    from .retrieval.fusion import dense_scaled

    ev = scored.evidence
    keep = 1.0 - ev.exclude
    return {"sig": keep * ev.sig, "lex": keep * ev.lex,
            "dense": keep * dense_scaled(ev.dense, params["dense_floor"]),
            "margin": margin, "domain": retrieval.domain, "other_accel": retrieval.other_accel,
            "other_service": retrieval.other_service, "score": scored.score,
            "long": min(1.0, math.log10(1 + retrieval.facts.line_count) / 2)}


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
