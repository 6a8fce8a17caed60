"""The fitted parameters of ranking and confidence, as a typed, frozen value.

`assistant/calibration.json` is written by `scripts/calibrate.py` and read here, validated: an
unknown key, a missing model or a coefficient for a feature the code does not compute is an error
(a stale file), never silently a zero.

- `weights`, `dense_floor`, `rank_scale` — fusion (`retrieval/fusion.py`): an entry's fused score
  is Σ weights[f] · feature f; cosines are rescaled from `dense_floor`; `rank_scale` turns score
  gaps into odds for runner-ups.
- `confidence` / `confidence_nodense` — the logistic confidence of the top result and the
  threshold under which the assistant abstains; the second is used when decisive signatures spared
  the embedding model (no dense features).
- `training_figures`, `cross_validation`, `fitted_on`, `how` — the record of how it was fitted
  (see README, "Answer quality"); not used to answer.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")


class Confidence(BaseModel):
    """sigmoid(temperature · (bias + Σ coef[f] · f)); abstain below `threshold`.

    `temperature` scales the fitted log-odds into the confidence a person is shown. Fitted on
    reports the knowledge base was not written from (`scripts/calibrate.py`), it is under 1: the
    model's own probabilities are fitted on reports whose right entries were written to match them,
    and claim too much on reports nobody here has read. At the threshold of 0.5 it changes no
    decision (the sign of the log-odds decides), only the number shown."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    bias: float
    coef: dict[str, float]
    threshold: float = Field(ge=0.0, le=1.0)
    # the L2 strength the fit chose by inner cross-validation (a record; not used to answer)
    ridge: float | None = Field(default=None, gt=0.0)
    temperature: float = Field(default=1.0, gt=0.0)

    def probability(self, feats: dict[str, float]) -> float:
        z = self.temperature * (self.bias + sum(c * feats[name] for name, c in self.coef.items()))
        return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


class Calibration(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    weights: dict[str, float]
    dense_floor: float = Field(ge=0.0, lt=1.0)
    rank_scale: float = Field(gt=0.0)
    confidence: Confidence
    confidence_nodense: Confidence
    training_figures: dict[str, float] = Field(default_factory=dict)
    fitted_on: str = ""
    cross_validation: dict[str, Any] = Field(default_factory=dict)
    how: str = ""

    def check_features(self, rank: tuple[str, ...], decision: tuple[str, ...]) -> None:
        """Raise ValueError when the file names a feature the code does not compute."""
        stale = set(self.weights) - set(rank)
        for model in (self.confidence, self.confidence_nodense):
            stale |= set(model.coef) - set(decision)
        if stale:
            raise ValueError(
                f"{CALIBRATION_FILE.name} names unknown features {sorted(stale)}: "
                f"run `python scripts/calibrate.py --write`"
            )

    def to_json(self) -> str:
        return json.dumps(self.model_dump(), indent=2) + "\n"


def read(path: Path | str | None = None) -> Calibration:
    return Calibration.model_validate_json(Path(path or CALIBRATION_FILE).read_text())


@lru_cache(maxsize=1)
def shipped() -> Calibration:
    """The calibration shipped with the package (read once)."""
    return read()
