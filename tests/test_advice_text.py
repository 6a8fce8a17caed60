"""The computed advice says exactly what it said before its sentences moved into the catalogue
(issue 15: assistant/strings.py holds every user-facing string).

Two records of `assistant.advice`'s output, both languages and the derived values, for every
advisor in `ADVISORS`:

* `fixtures/advice_golden.json`, readable: a grid that takes every branch of every advisor (known
  and unknown TPU, every generation, an assumed slice, multi-host slices, HBM over and under the
  limit, ideal and other batches for the padding rule);
* `BROAD_SHA256`, a digest of a much broader grid (every accelerator type and generation the
  module knows, malformed ones, edge values), so a change anywhere in it is seen too.

Both were recorded before the move. A wording change that is meant must update them:
`PYTHONPATH=. python tests/test_advice_text.py --write` rewrites the fixture and prints the digest.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from assistant import advice

GOLDEN = Path(__file__).resolve().parent / "fixtures" / "advice_golden.json"
BROAD_SHA256 = "f922bb3ba3283002b0097e000ebc4c16ecaa949b7b9443ca90d64b13ab2a5dbc"

# -- the readable grid -------------------------------------------------------------------------

SLICES: list[dict[str, str]] = [
    {},  # unknown TPU: the guide's figures
    *({"accelerator_type": a} for a in ("v2-8", "v3-32", "v4-8", "v4-32", "v5litepod-16")),
    *({"accelerator_type": a} for a in ("v5p-8", "v6e-8")),
    {"tpu_generation": "v6e"},  # a generation alone: its usual slice, assumed
    {"accelerator_type": "v4-8", "tpu_generation": "v3"},  # they disagree: the generation wins
]
EXTRAS: dict[str, list[dict[str, str]]] = {
    "batch_size": [
        {},
        {"hbm_used": "9.82G", "hbm_limit": "7.48G"},
        {"hbm_used": "10G", "hbm_limit": "16G"},  # under the limit
    ],
    "feature_size": [{}, {"batch_size": "1024"}, {"batch_size": "100"}],
    "layer_size": [{}],
    "hbm": [{}],
}
VALUES: dict[str, list[float]] = {
    "batch_size": [0, 7, 64, 100, 1024],
    "feature_size": [0, 100, 128, 129, 300],
    "layer_size": [0, 100, 200, 256, 512],
    "hbm": [0],
}

# -- the broad grid (digest only) ----------------------------------------------------------------

BROAD_TYPES = [
    None,
    *("v2-8", "v2-32", "v3-8", "v3-2048", "v4-8", "v4-16", "v4-4096", "v5litepod-1"),
    *("v5litepod-8", "v5litepod-16", "v5e-256", "v5lite-4", "v5p-8", "v5p-128", "v6e-1"),
    *("v6e-8", "v6e-16", "v9-8", "v3-7", ""),
]
BROAD_GENERATIONS = [None, "v2", "v4", "v5litepod", "v6e", "v7x"]
BROAD_EXTRAS: dict[str, list[dict[str, str]]] = {
    "batch_size": [
        {},
        {"hbm_used": "20G", "hbm_limit": "16G"},
        {"hbm_used": "10G", "hbm_limit": "16G"},
        {"hbm_used": "512M", "hbm_limit": "15.48GiB"},
        {"hbm_used": "x", "hbm_limit": "16G"},
    ],
    "feature_size": [{}, *({"batch_size": b} for b in ("0", "100", "1024", "4096", "32768"))],
    "layer_size": [{}],
    "hbm": [{}],
}
BROAD_VALUES: dict[str, list[float]] = {
    "batch_size": [0, 1, 2.5, 8, 15, 63, 64, 65, 127, 128, 256, 1000, 1024, 10000],
    "feature_size": [0, 1, 8, 9, 127, 128, 129, 255, 256, 257, 384, 513, 50000],
    "layer_size": [0, 1, 64, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1024],
    "hbm": [0, 16],
}


def _said(name: str, value: float, variables: dict[str, str]) -> dict:
    try:
        a = advice.ADVISORS[name](float(value), dict(variables))
    except ValueError as e:  # recorded too: failing differently is a change
        return {"error": type(e).__name__}
    return {"en": a.lines("en"), "pt": a.lines("pt"), "values": a.values}


def golden_records() -> list[dict]:
    return [
        {
            "advisor": name,
            "value": value,
            "vars": {**s, **extra},
            **_said(name, value, {**s, **extra}),
        }
        for name in sorted(advice.ADVISORS)
        for s in SLICES
        for extra in EXTRAS[name]
        for value in VALUES[name]
    ]


def _broad() -> Iterator[str]:
    for name in sorted(advice.ADVISORS):
        for acc, gen in itertools.product(BROAD_TYPES, BROAD_GENERATIONS):
            base = {"accelerator_type": acc, "tpu_generation": gen}
            base = {k: v for k, v in base.items() if v is not None}
            for extra in BROAD_EXTRAS[name]:
                for value in BROAD_VALUES[name]:
                    said = _said(name, value, {**base, **extra})
                    yield json.dumps([name, value, base, extra, said], sort_keys=True)


def broad_digest() -> tuple[int, str]:
    h = hashlib.sha256()
    n = 0
    for line in _broad():
        h.update(line.encode() + b"\n")
        n += 1
    return n, h.hexdigest()


def test_every_advisor_is_in_both_grids():
    assert set(VALUES) == set(EXTRAS) == set(BROAD_VALUES) == set(advice.ADVISORS)


def test_advice_says_what_the_golden_record_says():
    expected = json.loads(GOLDEN.read_text())
    got = golden_records()
    assert len(got) == len(expected)
    for want, have in zip(expected, got, strict=True):
        assert have == want, (want["advisor"], want["value"], want["vars"])


def test_advice_over_the_broad_grid_is_unchanged():
    n, digest = broad_digest()
    assert n > 10_000
    assert digest == BROAD_SHA256, "advice output changed (see this module's docstring)"


if __name__ == "__main__" and "--write" in sys.argv:
    records = golden_records()
    lines = [json.dumps(r, ensure_ascii=False, sort_keys=True) for r in records]
    GOLDEN.write_text("[\n" + ",\n".join(lines) + "\n]\n")
    print(f"{len(records)} records -> {GOLDEN}")
    n, digest = broad_digest()
    print(f'BROAD_SHA256 = "{digest}"  ({n} records)')
