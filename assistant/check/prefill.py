"""Start an entry's walk pre-answered from found values: a number question whose variable has
a value (`--set feature_dim=200`, a finding's `values`) is answered with it, a choice named in
`answers` takes that option. Explicit answers always win, and only they are reported unused."""

from __future__ import annotations

from ..errors import WalkError
from ..kb.schema import Entry, NumberNode
from ..walk import Walk, parse_number, walk


def number_answers(entry: Entry, values: dict[str, str]) -> dict[str, str]:
    """node id -> value for every number question whose variable `values` holds (and accepts:
    a value outside the question's bounds is left for the person to type)."""
    out: dict[str, str] = {}
    for node_id, node in entry.tree.nodes.items():
        if isinstance(node, NumberNode) and node.variable in values:
            raw = values[node.variable]
            try:
                parse_number(node, raw)
            except WalkError:
                continue
            out[node_id] = raw
    return out


def start_walk(
    entry: Entry,
    answers: dict[str, str] | None = None,
    values: dict[str, str] | None = None,
    overrides: dict[str, str] | None = None,
    found: dict[str, str] | None = None,
    found_answers: dict[str, str] | None = None,
) -> Walk:
    """`walk()` with number questions answered from `overrides` and `found` (values a check
    found, or `--set`) and choices from `found_answers` (a finding's), all under the explicit
    `answers` (which win). Only explicit answers off the path are reported unused."""
    explicit = dict(answers or {})
    known = {**(found or {}), **(overrides or {})}
    merged = {**prefill_answers(entry, known, found_answers), **explicit}
    w = walk(entry, merged, values={**(values or {}), **(found or {})}, overrides=overrides)
    w.unused = [u for u in w.unused if u in explicit]
    return w


def prefill_answers(
    entry: Entry, values: dict[str, str], found_answers: dict[str, str] | None = None
) -> dict[str, str]:
    """node id -> answer for every question the found values and answers settle."""
    return {**number_answers(entry, values), **choice_answers(entry, found_answers or {})}


def choice_answers(entry: Entry, answers: dict[str, str]) -> dict[str, str]:
    """The subset of `answers` that names nodes of this entry's tree."""
    return {k: v for k, v in answers.items() if k in entry.tree.nodes}
