"""Checks a schema cannot express, run after the schema: graph shape, regexes, placeholders, ids."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from .. import placeholders
from ..advice import ADVISOR_OUTPUTS, ADVISORS
from ..tpu_generations import DERIVED
from .loader import LoadedEntry, LoadResult, load_paths
from .patterns import SignatureError, compile_signature
from .problems import Problem
from .schema import (
    ChoiceNode,
    CodeStep,
    CommandStep,
    Entry,
    FixNode,
    Node,
    NumberNode,
    Signature,
    StepWhen,
    Text,
)


def _edges(node: Node) -> list[tuple[str, str]]:
    """(field location relative to the node, target id) for every outgoing edge."""
    if isinstance(node, ChoiceNode):
        return [(f"options[{i}].next", o.next) for i, o in enumerate(node.options)]
    if isinstance(node, NumberNode):
        return [(f"branches[{i}].next", b.next) for i, b in enumerate(node.branches)]
    return []


# A value the person's own could fill, spelled in capitals where its placeholder belongs: the zone
# or project flag of a gcloud command (`--zone=ZONE`, `--project=ID_DO_PROJETO`), the TPU named
# after a `tpu-vm` verb (`tpu-vm stop TPU_NAME`). Written as `{zone}`, the walk fills it in from
# the paste or `--set`, and shows `{zone}` where it is not known.
_SPELLED_VALUE = re.compile(
    r"--(?P<flag>zone|project)[= ](?P<flag_value>[A-Z][A-Z0-9_]{2,})\b|"
    r"\btpu-vm (?:ssh|scp|describe|stop|start|delete) (?P<tpu_value>[A-Z][A-Z0-9_]{2,})\b"
)


def spelled_values(text: str) -> list[tuple[str, str]]:
    """(what the text spells, the placeholder that belongs there) for each `_SPELLED_VALUE`."""
    out = []
    for m in _SPELLED_VALUE.finditer(text):
        name = m.group("flag") or "tpu_name"
        out.append((m.group("flag_value") or m.group("tpu_value"), name))
    return out


def _tree_problems(path: str, entry: Entry) -> Iterator[Problem]:
    nodes = entry.tree.nodes
    if entry.tree.start not in nodes:
        yield Problem(path, "tree.start", "E020", f"start node '{entry.tree.start}' does not exist")
        return
    for nid, node in nodes.items():
        for where, target in _edges(node):
            if target not in nodes:
                yield Problem(
                    path,
                    f"tree.nodes.{nid}.{where}",
                    "E020",
                    f"'{target}' is not a node of this tree",
                )
    # Reachability (breadth-first from start).
    seen = {entry.tree.start}
    todo = [entry.tree.start]
    while todo:
        for _, target in _edges(nodes[todo.pop()]):
            if target in nodes and target not in seen:
                seen.add(target)
                todo.append(target)
    for nid in nodes:
        if nid not in seen:
            yield Problem(path, f"tree.nodes.{nid}", "E021", "node cannot be reached from start")
    # Cycles (depth-first, colours).
    colour: dict[str, int] = {}

    def visit(nid: str, trail: list[str]) -> Iterator[Problem]:
        colour[nid] = 1
        for _, target in _edges(nodes[nid]):
            if target not in nodes:
                continue
            if colour.get(target) == 1:
                loop = (
                    " -> ".join([*trail[trail.index(target) :], nid, target])
                    if target in trail
                    else f"{nid} -> {target}"
                )
                yield Problem(path, f"tree.nodes.{nid}", "E022", f"cycle: {loop}")
            elif target not in colour:
                yield from visit(target, [*trail, nid])
        colour[nid] = 2

    for nid in nodes:
        if nid not in colour:
            yield from visit(nid, [])
    # Every path must end in an actionable fix; numbers need a fallback.
    variables = _tree_variables(entry)

    def fillable(name: str) -> bool:
        return placeholders.is_known(name) or name in variables

    def unknown_in(where: str, templates: list[str]) -> Iterator[Problem]:
        for text in templates:
            for name in placeholders.placeholders_in(text):
                if not fillable(name):
                    yield Problem(
                        path,
                        where,
                        "E041",
                        f"placeholder '{{{name}}}' is neither a known value nor set by this tree",
                    )
            for spelled, name in spelled_values(text):
                yield Problem(
                    path,
                    where,
                    "E047",
                    f"'{spelled}' spells out a value: write '{{{name}}}' so the person's own is "
                    "filled in",
                )

    def texts(*items: Text | None) -> list[str]:
        return [t for item in items if item is not None for t in (item.en, item.pt)]

    def unset_in(where: str, names: list[str]) -> Iterator[Problem]:
        for name in names:
            if not fillable(name):
                yield Problem(
                    path,
                    where,
                    "E043",
                    f"'{name}' is neither a known value nor set by this tree, so the condition "
                    "can never change",
                )

    for nid, node in nodes.items():
        here = f"tree.nodes.{nid}"
        if isinstance(node, ChoiceNode):
            yield from unknown_in(f"{here}.prompt", texts(node.prompt, node.help))
            for i, o in enumerate(node.options):
                yield from unknown_in(f"{here}.options[{i}].label", texts(o.label))
            yield from unset_in(f"{here}.answer_from", node.answered_by)
        elif isinstance(node, NumberNode):
            yield from unknown_in(f"{here}.prompt", texts(node.prompt, node.help))
            for i, b in enumerate(node.branches):
                if b.when is not None:
                    yield from unset_in(f"{here}.branches[{i}].when", b.when.variables())
        if isinstance(node, FixNode):
            if not any(
                isinstance(s, (CommandStep, CodeStep)) and s.when is None for s in node.steps
            ):
                yield Problem(
                    path,
                    f"{here}.steps",
                    "E023",
                    "a fix needs at least one command or code change shown whatever the values "
                    "(without `when`)",
                )
            yield from unknown_in(f"{here}.title", texts(node.title, node.check))
            for i, step in enumerate(node.steps):
                templates = (
                    [step.command]
                    if isinstance(step, CommandStep)
                    else [step.before, step.after]
                    if isinstance(step, CodeStep)
                    else []
                )
                yield from unknown_in(f"{here}.steps[{i}]", templates + texts(step.text))
                if isinstance(step, (CodeStep, CommandStep)) and step.framework not in (
                    None,
                    *entry.frameworks,
                ):
                    yield Problem(
                        path,
                        f"{here}.steps[{i}].framework",
                        "E045",
                        f"a step written for {step.framework}, which the entry's `frameworks` "
                        "does not list",
                    )
                cond: StepWhen | None = step.when
                if cond is not None:
                    yield from unset_in(f"{here}.steps[{i}].when", [*cond.known, *cond.unknown])
        if isinstance(node, NumberNode):
            if not any(b.when is None for b in node.branches):
                yield Problem(
                    path,
                    f"tree.nodes.{nid}.branches",
                    "E024",
                    "add a branch without `when` so every number leads somewhere",
                )
            for i, name in enumerate(node.advice):
                if name not in ADVISORS:
                    known = ", ".join(sorted(ADVISORS))
                    yield Problem(
                        path,
                        f"tree.nodes.{nid}.advice[{i}]",
                        "E042",
                        f"unknown advisor '{name}' (known: {known})",
                    )


def _tree_variables(entry: Entry) -> set[str]:
    # Figures worked out from an accelerator type or generation can fill any tree.
    names: set[str] = set(DERIVED)
    for sig in entry.signatures:
        names.update(sig.captures)
        names.update(sig.sets)
    for node in entry.tree.nodes.values():
        if isinstance(node, NumberNode):
            names.add(node.variable)
            for adv in node.advice:
                names.update(ADVISOR_OUTPUTS.get(adv, ()))
        elif isinstance(node, ChoiceNode):
            for o in node.options:
                names.update(o.set)
    return names


def _signature_problems(path: str, entry: Entry) -> Iterator[Problem]:
    for field_name, sigs in (("signatures", entry.signatures), ("excludes", entry.excludes)):
        yield from _pattern_problems(path, field_name, sigs)
    yield from _situation_problems(path, entry)


def _situation_problems(path: str, entry: Entry) -> Iterator[Problem]:
    """A signature's `sets` answers the questions that take its values (`answer_from`): each value
    must be one of such a question's options, or the situation it states is never used."""
    takes: dict[str, set[str]] = {}
    for node in entry.tree.nodes.values():
        if isinstance(node, ChoiceNode):
            for name in node.answered_by:
                takes.setdefault(name, set()).update(o.value for o in node.options)
    for i, sig in enumerate(entry.signatures):
        for name, value in sig.sets.items():
            if name not in takes:
                detail = f"'{name}' answers no question (no `answer_from: {name}` in the tree)"
            elif value not in takes[name]:
                valid = ", ".join(sorted(takes[name]))
                detail = f"'{name}: {value}' is no option of the questions it answers ({valid})"
            else:
                continue
            yield Problem(path, f"signatures[{i}].sets.{name}", "E036", detail)


def _pattern_problems(path: str, field_name: str, sigs: Sequence[Signature]) -> Iterator[Problem]:
    for i, sig in enumerate(sigs):
        where = f"{field_name}[{i}].pattern"
        try:
            rx = compile_signature(sig)
        except SignatureError as exc:
            yield Problem(path, where, "E030", f"regex does not compile: {exc}")
            continue
        groups = set(rx.groupindex) if sig.kind == "regex" else set()
        declared = set(sig.captures)
        if groups != declared:
            extra = sorted(declared - groups)
            undeclared = sorted(groups - declared)
            detail = "; ".join(
                filter(
                    None,
                    [
                        f"declared but not in the regex: {', '.join(extra)}" if extra else "",
                        f"named groups not declared: {', '.join(undeclared)}" if undeclared else "",
                    ],
                )
            )
            yield Problem(path, f"{field_name}[{i}].captures", "E031", detail)
        if sig.tpu_host_device and field_name == "signatures":
            # an exclude lifted on a TPU's host; a signature has nothing to lift
            where = f"{field_name}[{i}].tpu_host_device"
            yield Problem(path, where, "E033", "applies to excludes only")
        if not sig.tpu_evidence and field_name == "excludes":
            # a look-alike pattern never shows a TPU; only a signature's match does
            where = f"{field_name}[{i}].tpu_evidence"
            yield Problem(path, where, "E034", "applies to signatures only")
        if sig.sets and field_name == "excludes":
            # a look-alike's match is no situation of the entry's own
            yield Problem(path, f"{field_name}[{i}].sets", "E035", "applies to signatures only")
        if sig.aftermath and field_name == "excludes":
            where = f"{field_name}[{i}].aftermath"
            yield Problem(path, where, "E037", "applies to signatures only")
        if sig.example is not None and rx.search(sig.example) is None:
            # the example is what the dense index embeds for the signature and what a reader
            # takes as the message it catches: one the pattern misses misleads both
            where = f"{field_name}[{i}].example"
            yield Problem(path, where, "E032", "is not matched by the signature's pattern")


def _lookalike_problems(path: str, entry: Entry) -> Iterator[Problem]:
    """A look-alike is what the entry is NOT: one that is also a symptom contradicts itself."""
    if entry.lookalikes is None:
        return
    for lang in ("en", "pt"):
        symptoms = {s.strip().lower() for s in entry.symptoms.get(lang)}
        for i, text in enumerate(entry.lookalikes.get(lang)):
            if text.strip().lower() in symptoms:
                yield Problem(
                    path, f"lookalikes.{lang}[{i}]", "E044", "is also one of the entry's symptoms"
                )


# How a text names each stack, lower-cased (`_stack_problems`).
_STACK_NAMES = {
    "tensorflow": ("tensorflow", "keras", "tf."),
    "jax": ("jax", "flax"),
    "pytorch": ("pytorch", "torch_xla", "torch."),
}


def _stack_problems(path: str, entry: Entry) -> Iterator[Problem]:
    """An explanation that names TensorFlow and not another stack the entry lists leaves that
    stack's users reading about someone else's framework: the stack notes must name it."""
    for lang in ("en", "pt"):
        text = entry.explanation.get(lang).lower()
        if not any(n in text for n in _STACK_NAMES["tensorflow"]):
            continue  # stack-neutral (gcloud, ssh, memory): every stack reads it the same way
        notes = entry.stack_notes.get(lang).lower() if entry.stack_notes else ""
        for stack in entry.frameworks:
            names = _STACK_NAMES[stack]
            if stack != "tensorflow" and not any(n in text or n in notes for n in names):
                yield Problem(
                    path,
                    f"explanation.{lang}",
                    "E046",
                    f"names TensorFlow but not {stack}, which the entry lists: add stack_notes",
                )


def lint_entry(loaded: LoadedEntry) -> list[Problem]:
    path = str(loaded.path)
    return [
        *_signature_problems(path, loaded.entry),
        *_tree_problems(path, loaded.entry),
        *_lookalike_problems(path, loaded.entry),
        *_stack_problems(path, loaded.entry),
    ]


def lint_collection(entries: list[LoadedEntry], known_ids: set[str] | None = None) -> list[Problem]:
    """Cross-file checks: duplicate ids, related ids that do not exist."""
    problems: list[Problem] = []
    first: dict[str, LoadedEntry] = {}
    for le in entries:
        if le.entry.id in first:
            where = first[le.entry.id].path
            problems.append(
                Problem(
                    str(le.path), "id", "E011", f"id '{le.entry.id}' is already defined in {where}"
                )
            )
        else:
            first[le.entry.id] = le
    ids = set(first) | (known_ids or set())
    for le in entries:
        for i, rid in enumerate(le.entry.related):
            if rid not in ids:
                problems.append(
                    Problem(str(le.path), f"related[{i}]", "E012", f"no entry has id '{rid}'")
                )
        for nid, node in le.entry.tree.nodes.items():
            if isinstance(node, FixNode):
                for i, rid in enumerate(node.related):
                    if rid not in ids:
                        problems.append(
                            Problem(
                                str(le.path),
                                f"tree.nodes.{nid}.related[{i}]",
                                "E012",
                                f"no entry has id '{rid}'",
                            )
                        )
    return problems


def validate(
    paths: list[Path], known_ids: set[str] | None = None
) -> tuple[LoadResult, list[Problem]]:
    """Schema, then lint, over files and directories. Returns the loaded entries and all
    problems."""
    result = load_paths(paths)
    problems = list(result.problems)
    for le in result.entries:
        problems.extend(lint_entry(le))
    problems.extend(lint_collection(result.entries, known_ids))
    return result, sorted(problems)
