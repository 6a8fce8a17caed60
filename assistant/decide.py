"""Decide: turn fused scores into a calibrated confidence, and abstain when nothing is convincing.

confidence(entry) = sigmoid(bias + Σ coef_f · f) over the features `f` of `features()`: the entry's
evidence from each channel (signature weight, normalized BM25, rescaled cosine), its `margin` over
the runner-up (0 for all but the top result, whose lead is what makes a match trustworthy), and
`domain`, how much TPU/ML vocabulary the input uses, and `other_accel`, whether it names a GPU
and no TPU (see text/domain.py). The coefficients are a
logistic regression fitted by `scripts/calibrate.py`:
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


FEATURES = ("sig", "lex", "dense", "margin", "domain", "other_accel")


def features(scored, margin: float, retrieval, params: dict) -> dict[str, float]:
    from .retrieval.fusion import dense_scaled

    ev = scored.evidence
    keep = 1.0 - ev.exclude
    return {"sig": keep * ev.sig, "lex": keep * ev.lex,
            "dense": keep * dense_scaled(ev.dense, params["dense_floor"]),
            "margin": margin, "domain": retrieval.domain, "other_accel": retrieval.other_accel}


def confidence(feats: dict[str, float], params: dict) -> float:
    c = params["confidence"]
    z = c["bias"] + sum(c[name] * feats[name] for name in FEATURES)
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def should_abstain(top_confidence: float, params: dict) -> bool:
    return top_confidence < params["threshold"]
