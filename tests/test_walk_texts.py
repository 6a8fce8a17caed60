"""Every path of every tree, in both languages and for every TPU generation: nothing a person
reads keeps a `{placeholder}` that the fix does not report in `missing` (and a computed figure is
never left at all), and no advice offers the same number twice ("use 64 or 64")."""

from __future__ import annotations

import re

import pytest

from assistant.advice import ADVISOR_OUTPUTS
from assistant.kb import load_knowledge
from assistant.placeholders import placeholders_in
from assistant.tpu_generations import DERIVED
from assistant.walk import all_paths, walk

KB = load_knowledge(user_dirs=[])

BASE = {"tpu_name": "my-tpu", "zone": "us-central1-b", "project": "my-project"}
CONTEXTS = [
    {},
    *({"accelerator_type": t} for t in ("v2-8", "v3-8", "v4-8", "v5litepod-8", "v5p-8", "v6e-8")),
    {"accelerator_type": "v4-32"},
    {"hbm_used": "9.82G", "hbm_limit": "7.48G"},
]

# "64 or 64", "128 (or 128)", "8 / 8 per core", "64 ou 64"
# Figures the walk computes; a value the person or the input gives (`--set tpu_name=…`, a `pid`
# captured from the trace) may instead wait in `missing`.
COMPUTED = set(DERIVED).union(*ADVISOR_OUTPUTS.values())

REPEATED = re.compile(r"(?<![\d./-])(\d+)(?:\s+\(?(?:or|ou)\s+| / )\1(?![\d.])")


def _prefixes(answers: dict[str, str]):
    items = list(answers.items())
    for k in range(len(items) + 1):
        yield dict(items[:k])


def _problems(entry_id: str, values: dict[str, str], lang: str) -> list[str]:
    entry = KB.get(entry_id)
    found: list[str] = []
    for answers in all_paths(entry, values={**BASE, **values}):
        for partial in _prefixes(answers):
            w = walk(entry, partial, overrides={**BASE, **values})
            d = w.to_dict(lang)
            where = f"{entry_id} {lang} {values} {partial} at {d['node']}"
            for line in d["advice"]:
                if placeholders_in(line):
                    found.append(f"{where}: advice {line!r}")
                if REPEATED.search(line):
                    found.append(f"{where}: repeated alternative in {line!r}")
            if d["kind"] == "question":
                texts = [d["prompt"], d.get("help", "")] + [
                    o["label"] for o in d.get("options", [])
                ]
                for t in texts:
                    if placeholders_in(t):
                        found.append(f"{where}: unfilled {placeholders_in(t)} in {t!r}")
                continue
            missing = set(d["missing"])
            texts = [d["title"], d["check"]]
            for s in d["steps"]:
                texts += [s.get(k) or "" for k in ("text", "command", "before", "after")]
            for t in texts:
                left = set(placeholders_in(t)) - missing
                if left:
                    found.append(f"{where}: {sorted(left)} unfilled and not in missing: {t!r}")
                # A computed figure (`{hbm_gib}`) must be there, or its step must not be shown.
                computed = [n for n in placeholders_in(t) if n in COMPUTED]
                if computed:
                    found.append(f"{where}: computed {computed} never filled: {t!r}")
                if REPEATED.search(t):
                    found.append(f"{where}: repeated alternative in {t!r}")
    return found


@pytest.mark.parametrize("entry_id", KB.ids())
def test_no_unfilled_placeholder_and_no_repeated_alternative(entry_id):
    problems = [
        p for values in CONTEXTS for lang in ("en", "pt") for p in _problems(entry_id, values, lang)
    ]
    assert not problems, "\n".join(problems[:20])


def test_the_checker_sees_what_it_is_for():
    assert REPEATED.search("use 64 or 64 (8 / 8 per core)")
    assert REPEATED.search("Use 128 (or 128).")
    assert REPEATED.search("use 64 ou 64")
    assert not REPEATED.search("use 64 or 128 (8 / 16 per core)")
    assert not REPEATED.search("v3-8 or 8 cores")
    assert not REPEATED.search("--source-ranges=0.0.0.0/0")
