"""Fusion of the three channels into one score per entry.

For every entry these evidence values are computed, each in 0..1:

* `sig`   — the weight of the strongest error signature that matched (0 when none did);
* `dense` — the mean cosine similarity between the query and the entry's closest chunks
            (see `engine.DENSE_PER_ENTRY`), rescaled from [`dense_floor`, 1] to [0, 1] (MiniLM
            gives unrelated text ~0.1–0.3);
* `lex`   — 1 - exp(-r), where r is the entry's BM25 score divided by the query's reference score
            (the score of a document holding each query term once; unseen terms count at the
            highest idf): "how much of what the query says, weighted by rarity, this entry also
            says", saturating smoothly instead of tying at a cap.

`dense` and `lex` are computed for three views of the input (`text.parse.query_views`): `all` (its
key lines), `head` (a long report's title) and `err` (its error lines), so the one line that
decides a long report is weighed on its own and not drowned by the prose around it. The feature
names are `dense`, `lex` (the `all` view), `dense_head`, `lex_head`, `dense_err`, `lex_err`.

The fused score is the weighted sum of the features, scaled by `(1 - exclude)` when one of the
entry's look-alike patterns (`excludes`) matched the input. The weights and `dense_floor` live in
`assistant/calibration.json`, fitted by `scripts/calibrate.py` (a listwise ranking loss, then a
logistic fit for confidence — see `assistant/decide.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .dense import dense_scaled

if TYPE_CHECKING:
    from ..calibration import Calibration
    from .profile_rules import ProfileHit
    from .signatures import SignatureHit


@dataclass
class Evidence:
    sig: float = 0.0
    dense: float = 0.0  # raw cosine
    lex: float = 0.0  # normalized, saturated BM25 (0..1)
    lex_raw: float = 0.0
    # (hit, line number in the input); a profile rule hit is shaped like a signature hit
    signature_hits: list[tuple[SignatureHit | ProfileHit, int]] = field(default_factory=list)
    lex_terms: list[str] = field(default_factory=list)
    dense_chunk: str | None = None
    exclude: float = 0.0  # weight of the strongest look-alike pattern that matched
    exclude_hits: list[tuple[SignatureHit | ProfileHit, int]] = field(default_factory=list)
    views: dict[str, float] = field(default_factory=dict)  # "dense_head": raw cosine, "lex_err"…
    # the closest of the entry's described look-alikes (raw cosine, `all` view) and its text
    lookalike: float = 0.0
    lookalike_chunk: str | None = None


VIEWS = ("head", "err")  # besides `all`, whose features are plain `dense` and `lex`
FEATURES = ("sig", "dense", "lex", *(f"{c}_{v}" for v in VIEWS for c in ("dense", "lex")))


def channel_features(ev: Evidence, floor: float) -> dict[str, float]:
    """An entry's ranking features, each in 0..1 (dense cosines rescaled from the floor)."""
    out = {"sig": ev.sig, "dense": dense_scaled(ev.dense, floor), "lex": ev.lex}
    for v in VIEWS:
        out[f"dense_{v}"] = dense_scaled(ev.views.get(f"dense_{v}", 0.0), floor)
        out[f"lex_{v}"] = ev.views.get(f"lex_{v}", 0.0)
    return out


EMPTY = Evidence()  # what an entry no channel found has (read-only by convention)


@dataclass
class Scored:
    entry_id: str
    score: float
    evidence: Evidence


def fused_score(ev: Evidence, params: Calibration) -> float:
    w = params.weights
    feats = channel_features(ev, params.dense_floor)
    return (1.0 - ev.exclude) * sum(w.get(name, 0.0) * feats[name] for name in FEATURES)


def fuse(evidence: dict[str, Evidence], params: Calibration) -> list[Scored]:
    out = [Scored(eid, fused_score(ev, params), ev) for eid, ev in evidence.items()]
    out.sort(key=lambda s: (-s.score, s.entry_id))
    return out
