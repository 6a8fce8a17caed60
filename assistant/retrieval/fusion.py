"""Fusion of the three channels into one score per entry.

For every entry three evidence values are computed, each in 0..1:

* `sig`   — the weight of the strongest error signature that matched (0 when none did);
* `dense` — the best cosine similarity between the query and any of the entry's chunks, rescaled
            from [`dense_floor`, 1] to [0, 1] (MiniLM gives unrelated text ~0.1–0.3);
* `lex`   — 1 - exp(-r), where r is the entry's BM25 score divided by the query's reference score
            (the score of a document holding each query term once; unseen terms count at the
            highest idf): "how much of what the query says, weighted by rarity, this entry also
            says", saturating smoothly instead of tying at a cap.

The fused score is the weighted sum `w_sig*sig + w_dense*dense + w_lex*lex`, scaled by
`(1 - exclude)` when one of the entry's look-alike patterns (`excludes`) matched the input. The weights and
`dense_floor` live in `assistant/calibration.json`, fitted by `scripts/calibrate.py` on the labelled
fixtures (grid search for hit@1, then a logistic fit for confidence — see `assistant/decide.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Evidence:
    sig: float = 0.0
    dense: float = 0.0  # raw cosine
    lex: float = 0.0  # normalized, saturated BM25 (0..1)
    lex_raw: float = 0.0
    signature_hits: list = field(default_factory=list)
    lex_terms: list[str] = field(default_factory=list)
    dense_chunk: str | None = None
    exclude: float = 0.0  # weight of the strongest look-alike pattern that matched
    exclude_hits: list = field(default_factory=list)


EMPTY = Evidence()  # what an entry no channel found has (read-only by convention)


@dataclass
class Scored:
    entry_id: str
    score: float
    evidence: Evidence


def dense_scaled(cosine: float, floor: float) -> float:
    return max(0.0, min(1.0, (cosine - floor) / (1.0 - floor)))


def fuse(evidence: dict[str, Evidence], params: dict) -> list[Scored]:
    w = params["weights"]
    floor = params["dense_floor"]
    out = [
        Scored(eid, (1.0 - ev.exclude) * (w["sig"] * ev.sig + w["dense"] * dense_scaled(ev.dense, floor)
                                          + w["lex"] * ev.lex), ev)
        for eid, ev in evidence.items()
    ]
    out.sort(key=lambda s: (-s.score, s.entry_id))
    return out
