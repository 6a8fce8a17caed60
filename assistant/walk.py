"""Walk an entry's decision tree with a person's answers, to the next question or to the fix.

Pure functions over the schema: no I/O. Values for placeholders come, in increasing priority, from
the input's facts, the answers (option `set:`, number variables, computed advice) and explicit
`--set NAME=VALUE`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from . import tpu_generations
from .advice import ADVISORS, Advice
from .errors import WalkError
from .kb.schema import ChoiceNode, Entry, FixNode, Node, NumberNode
from .render import RenderedStep, render_steps, render_text, text_missing


@dataclass
class Walk:
    entry: Entry
    path: list[tuple[str, str]]  # (node id, answer value) in order
    node_id: str
    values: dict[str, str]
    advice: Advice
    unused: list[str] = field(default_factory=list)  # answered nodes not on the path
    auto: list[str] = field(default_factory=list)  # questions answered from known values

    @property
    def node(self) -> Node:
        return self.entry.tree.nodes[self.node_id]

    @property
    def kind(self) -> str:
        return "fix" if isinstance(self.node, FixNode) else "question"

    def steps(self, lang: str) -> list[RenderedStep]:
        node = self.node
        return render_steps(node.steps, self.values, lang) if isinstance(node, FixNode) else []

    def to_dict(self, lang: str) -> dict[str, Any]:
        node = self.node
        out: dict[str, Any] = {
            "entry": self.entry.id,
            "path": [list(p) for p in self.path],
            "node": self.node_id,
            "kind": self.kind,
            "advice": self.advice.lines(lang),
            "values": dict(self.values),
        }
        if self.unused:
            out["unused_answers"] = self.unused
        if self.auto:
            out["auto_answered"] = list(self.auto)
        if isinstance(node, ChoiceNode):
            out.update(
                prompt=render_text(node.prompt.get(lang), self.values),
                input="choice",
                options=[
                    {"value": o.value, "label": render_text(o.label.get(lang), self.values)}
                    for o in node.options
                ],
            )
        elif isinstance(node, NumberNode):
            out.update(
                prompt=render_text(node.prompt.get(lang), self.values),
                input="number",
                variable=node.variable,
                min=node.min,
                max=node.max,
                integer=node.integer,
            )
        else:
            steps = self.steps(lang)
            title = render_text(node.title.get(lang), self.values)
            check = render_text(node.check.get(lang), self.values)
            out.update(
                title=title,
                steps=[s.to_dict() for s in steps],
                check=check,
                related=list(node.related),
                missing=sorted(
                    {m for s in steps for m in s.missing}
                    | set(text_missing(title))
                    | set(text_missing(check))
                ),
            )
        if node_help := getattr(node, "help", None):
            out["help"] = render_text(node_help.get(lang), self.values)
        return out


def parse_number(node: NumberNode, raw: str) -> float:
    text = str(raw).strip().replace("_", "").replace(",", "")
    try:
        value = float(text)
    except ValueError:
        raise WalkError("error.walk.not_number", raw=raw) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise WalkError("error.walk.not_finite", raw=raw)
    if node.integer and not value.is_integer():
        raise WalkError("error.walk.not_whole", raw=raw)
    if node.min is not None and value < node.min:
        raise WalkError("error.walk.below", raw=raw, limit=f"{node.min:g}")
    if node.max is not None and value > node.max:
        raise WalkError("error.walk.above", raw=raw, limit=f"{node.max:g}")
    return value


def answer_node(node: Node, raw: str, values: dict[str, str]) -> tuple[str, str, Advice]:
    """Apply one answer: return (next node id, normalized answer value, advice)."""
    advice = Advice()
    if isinstance(node, ChoiceNode):
        raw_s = str(raw).strip().lower()
        by_value = [o for o in node.options if o.value.lower() == raw_s]
        by_number = (
            [node.options[int(raw_s) - 1]]
            if raw_s.isdigit() and 0 < int(raw_s) <= len(node.options)
            else []
        )
        for o in by_value or by_number:
            values.update(o.set)
            return o.next, o.value, advice
        valid = ", ".join(o.value for o in node.options)
        raise WalkError("error.walk.no_option", raw=raw, valid=valid)
    if isinstance(node, NumberNode):
        value = parse_number(node, raw)
        shown = str(int(value)) if value.is_integer() else str(value)
        values[node.variable] = shown
        for name in node.advice:
            adv = ADVISORS[name](value, values)
            values.update(adv.values)
            advice.extend(adv)
        for branch in node.branches:
            if branch.when is None or branch.when.holds(value, values):
                return branch.next, shown, advice
        raise WalkError("error.walk.no_branch")  # prevented by lint E024
    raise WalkError("error.walk.fix_takes_no_answer")


def walk(
    entry: Entry,
    answers: dict[str, str] | None = None,
    values: dict[str, str] | None = None,
    overrides: dict[str, str] | None = None,
    ask: Collection[str] = (),
) -> Walk:
    """Follow `answers` (node id -> value) from the start until a question without an answer or
    a fix. `values` are facts from the input; `overrides` (from `--set`) win over everything.
    A question whose `answer_from` a value names is answered with it, unless it is in `ask` (the
    person stepped back over that automatic answer)."""
    answers = dict(answers or {})
    nodes = entry.tree.nodes
    unknown = [n for n in answers if n not in nodes]
    if unknown:
        raise WalkError(
            "error.walk.no_node",
            entry=entry.id,
            unknown=", ".join(repr(n) for n in unknown),
            nodes=", ".join(nodes),
        )
    vals = dict(values or {})
    vals.update(overrides or {})
    _derive(vals, overrides)
    path: list[tuple[str, str]] = []
    auto: list[str] = []
    total = Advice()
    current = entry.tree.start
    for _ in range(len(nodes) + 1):
        node = nodes[current]
        if isinstance(node, FixNode):
            break
        if current in answers:
            raw = answers.pop(current)
        elif current not in ask and (known := _known_answer(node, vals)) is not None:
            raw = known
            auto.append(current)
        else:
            break
        nxt, shown, adv = answer_node(node, raw, vals)
        vals.update(overrides or {})
        _derive(vals, overrides)
        total.extend(adv)
        path.append((current, shown))
        current = nxt
    return Walk(entry, path, current, vals, total, unused=sorted(answers), auto=auto)


def _derive(vals: dict[str, str], overrides: dict[str, str] | None) -> None:
    """Add what the accelerator type or generation tells (HBM per device, device count …);
    an explicit `--set` of the same name still wins."""
    for name, value in tpu_generations.derive(vals).items():
        if name not in (overrides or {}):
            vals[name] = value


def _known_answer(node: Node, vals: dict[str, str]) -> str | None:
    """The option the first of a question's `answer_from` variables to name one names, if any."""
    if not isinstance(node, ChoiceNode):
        return None
    for name in node.answered_by:
        known = str(vals.get(name) or "").strip().lower()
        found = next((o.value for o in node.options if o.value.lower() == known), None)
        if found is not None:
            return found
    return None


def all_paths(
    entry: Entry,
    sample_numbers: tuple[float, ...] = (
        1,
        8,
        48,
        64,
        100,
        127,
        128,
        200,
        300,
        500,
        512,
        1000,
        1024,
        2048,
        4096,
    ),
    values: dict[str, str] | None = None,
) -> list[dict[str, str]]:
    """Every distinct path through the tree, as answers (numbers probed with sample values).

    Branches may compare with computed variables, so each probe is routed by a real walk with
    `values` (the input's facts or `--set` values)."""
    nodes = entry.tree.nodes
    out: list[dict[str, str]] = []

    def go(nid: str, answers: dict[str, str], depth: int) -> None:
        node = nodes[nid]
        if isinstance(node, FixNode) or depth > len(nodes):
            out.append(dict(answers))
            return
        if isinstance(node, ChoiceNode):
            for o in node.options:
                go(o.next, {**answers, nid: o.value}, depth + 1)
        else:
            taken: set[str] = set()
            for x in sample_numbers:
                try:
                    parse_number(node, str(x))
                except WalkError:
                    continue
                tried = {**answers, nid: str(int(x))}
                w = walk(entry, tried, overrides=values)
                if nid not in dict(w.path):  # an auto-answered question took another road
                    continue
                following = [n for n, _ in w.path]
                after = following.index(nid) + 1
                target = following[after] if after < len(following) else w.node_id
                if target not in taken:
                    taken.add(target)
                    go(target, tried, depth + 1)

    go(entry.tree.start, {}, 0)
    return out
