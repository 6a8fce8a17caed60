"""The knowledge-entry schema (pydantic v2).

One YAML file per entry. Everything a person reads exists in English (`en`) and Brazilian
Portuguese (`pt`). The decision tree is a map of nodes keyed by id; a node is a `choice` question,
a `number` question, or a `fix`, told apart by `kind` (a discriminated union). Fix steps are
likewise a union on `kind`: `command`, `code` or `note`.

What a schema cannot say (dangling `next`, cycles, unreachable nodes, regexes that do not compile,
unknown placeholders) is checked by :mod:`assistant.kb.lint`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

LANGS = ("en", "pt")
Lang = Literal["en", "pt"]

ID_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
NODE_ID_PATTERN = r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$"
VAR_PATTERN = r"^[a-z][a-z0-9_]*$"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(Strict):
    """A user-visible text in both languages (Markdown where the field says so)."""

    en: str = Field(min_length=1)
    pt: str = Field(min_length=1)

    def get(self, lang: str) -> str:
        return self.pt if lang == "pt" else self.en


class Phrases(Strict):
    """Several phrasings per language (symptoms as people write them)."""

    en: list[Annotated[str, Field(min_length=1)]] = Field(min_length=1)
    pt: list[Annotated[str, Field(min_length=1)]] = Field(min_length=1)

    def get(self, lang: str) -> list[str]:
        return self.pt if lang == "pt" else self.en


Framework = Literal["tensorflow", "jax", "pytorch"]
Risk = Literal["read-only", "changes-state", "destructive"]


class Signature(Strict):
    """An error signature: a literal substring or an RE2 regular expression.

    `captures` names each named group of a regex and says what it holds; captured values become
    facts (and placeholders) for the walk, as the fixed values in `sets` do. `weight` says how
    specific the signature is: 1.0 means "this line alone identifies the entry", lower values only
    support the other channels.
    """

    id: str = Field(pattern=NODE_ID_PATTERN)
    kind: Literal["literal", "regex"]
    pattern: str = Field(min_length=3)
    ignore_case: bool = True
    weight: float = Field(default=1.0, gt=0.0, le=1.0)
    frameworks: list[Framework] = Field(default_factory=list)
    captures: dict[str, str] = Field(default_factory=dict)
    example: str | None = None
    # Excludes only: the pattern names XLA's CPU device, which the host side of a TPU job compiles
    # for too ("No registered 'X' OpKernel for XLA_CPU_JIT" on a Cloud TPU). It does not count
    # where the input names a TPU and no other hardware (`text.domain.tpu_host_only`).
    tpu_host_device: bool = False
    # Signatures only: the message comes from a TPU setup (the default), so a report that matches
    # it shows a TPU whatever its words say (`decide.tpu_evidence`). False for a message any
    # machine prints (ssh's `client_loop: send disconnect: Broken pipe`): the report must then
    # show the TPU in its other words, as a described symptom must.
    tpu_evidence: bool = True
    # Signatures only: the situation the message itself shows, as values that answer the walk's
    # questions taking them (`answer_from`): "TPU is already in use by process …" is a new error
    # after a run, saying the TPU is in use, so those two questions are not asked again.
    sets: dict[Annotated[str, Field(pattern=VAR_PATTERN)], str] = Field(default_factory=dict)
    # Signatures only: the match tells what followed an error (a program left hanging, a run
    # interrupted that will not stop), so an error the report names beside it, even one the guide
    # does not cover (a data loader that crashed), is how the entry's problem began, not a reason
    # to refuse the answer (`decide.outside_guide`).
    aftermath: bool = False


class Option(Strict):
    value: str = Field(pattern=NODE_ID_PATTERN)
    label: Text
    next: str
    set: dict[str, str] = Field(default_factory=dict)


VarName = Annotated[str, Field(pattern=VAR_PATTERN)]


class Condition(Strict):
    """A declared condition on a number. Every given bound must hold; none given means 'always'.

    A bound is a number or the name of a variable the walk has computed by then (`batch_step`,
    `ideal_batch`, `tile_dim` …): the same rule then holds on every TPU generation. A bound naming
    a variable without a number does not hold."""

    multiple_of: Annotated[int, Field(gt=0)] | VarName | None = None
    not_multiple_of: Annotated[int, Field(gt=0)] | VarName | None = None
    lt: float | VarName | None = None
    le: float | VarName | None = None
    gt: float | VarName | None = None
    ge: float | VarName | None = None

    def variables(self) -> list[str]:
        bounds = (self.multiple_of, self.not_multiple_of, self.lt, self.le, self.gt, self.ge)
        return [b for b in bounds if isinstance(b, str)]

    def holds(self, x: float, values: dict[str, str] | None = None) -> bool:
        def bound(b: float | str | None) -> float | None:
            if not isinstance(b, str):
                return b
            try:
                v = float((values or {}).get(b, ""))
            except ValueError:
                return float("nan")
            return v if v == v else float("nan")

        bs = [
            bound(b)
            for b in (self.multiple_of, self.not_multiple_of, self.lt, self.le, self.gt, self.ge)
        ]
        if any(b is not None and b != b for b in bs):  # a variable that has no number
            return False
        mult, not_mult, lt, le, gt, ge = bs
        if mult is not None and (mult <= 0 or (x % mult) != 0):
            return False
        if not_mult is not None and (not_mult <= 0 or (x % not_mult) == 0):
            return False
        if lt is not None and not x < lt:
            return False
        if le is not None and not x <= le:
            return False
        if gt is not None and not x > gt:
            return False
        if ge is not None and not x >= ge:
            return False
        return True


class Branch(Strict):
    when: Condition | None = None  # None: the fallback ("otherwise")
    next: str
    label: Text | None = None


class ChoiceNode(Strict):
    """A question with options. `answer_from` names a variable, or several in order: when the
    walk already knows one (e.g. `tpu_generation`, derived from an accelerator type in the input)
    and its value is one of the options, the question is answered with it (the first that names
    one wins); an explicit answer still wins."""

    kind: Literal["choice"]
    prompt: Text
    help: Text | None = None
    answer_from: VarName | list[VarName] | None = None
    options: list[Option] = Field(min_length=1)

    @property
    def answered_by(self) -> list[str]:
        """The variables `answer_from` names, in order (none, one or several)."""
        if self.answer_from is None:
            return []
        return [self.answer_from] if isinstance(self.answer_from, str) else list(self.answer_from)


class NumberNode(Strict):
    kind: Literal["number"]
    prompt: Text
    help: Text | None = None
    variable: str = Field(pattern=VAR_PATTERN)
    integer: bool = True
    min: float | None = None
    max: float | None = None
    advice: list[str] = Field(default_factory=list)
    branches: list[Branch] = Field(min_length=1)


class StepWhen(Strict):
    """Show a step only when every variable in `known` has a value and none in `unknown` has:
    a text that needs a figure (`{hbm_gib}`) and its stand-in for when nothing gave one."""

    known: list[Annotated[str, Field(pattern=VAR_PATTERN)]] = Field(default_factory=list)
    unknown: list[Annotated[str, Field(pattern=VAR_PATTERN)]] = Field(default_factory=list)

    def holds(self, values: dict[str, str]) -> bool:
        return all(values.get(n) for n in self.known) and not any(
            values.get(n) for n in self.unknown
        )


class CommandStep(Strict):
    """A shell command. `framework`, as on `CodeStep`: one stack's variant of a command (a
    device check in TensorFlow, JAX or PyTorch/XLA)."""

    kind: Literal["command"]
    command: str = Field(min_length=1)
    risk: Risk
    framework: Framework | None = None
    text: Text | None = None
    when: StepWhen | None = None


class CodeStep(Strict):
    """A code change shown as a diff. `framework` names the stack the code is written for: where
    a fix holds variants of one change (Keras, PyTorch/XLA, Flax), a person whose framework is
    known sees only theirs (`render.render_steps`)."""

    kind: Literal["code"]
    language: str = Field(min_length=1)
    before: str
    after: str
    file: str | None = None
    framework: Framework | None = None
    text: Text | None = None
    when: StepWhen | None = None

    @model_validator(mode="after")
    def _changes_something(self) -> CodeStep:
        if self.before == self.after:
            raise ValueError("a code change must differ between `before` and `after`")
        return self


class NoteStep(Strict):
    kind: Literal["note"]
    text: Text
    when: StepWhen | None = None


Step = Annotated[CommandStep | CodeStep | NoteStep, Field(discriminator="kind")]


class FixNode(Strict):
    kind: Literal["fix"]
    title: Text
    steps: list[Step] = Field(min_length=1)
    check: Text
    related: list[str] = Field(default_factory=list)


Node = Annotated[ChoiceNode | NumberNode | FixNode, Field(discriminator="kind")]


class Tree(Strict):
    start: str
    nodes: dict[str, Node] = Field(min_length=1)


class Entry(Strict):
    id: str = Field(pattern=ID_PATTERN)
    title: Text
    summary: Text
    frameworks: list[Framework] = Field(min_length=1)
    signatures: list[Signature] = Field(default_factory=list)
    # Look-alikes that are NOT this entry (a CUDA OOM is not an HBM OOM): a match scales the
    # entry's fused score by (1 - weight).
    excludes: list[Signature] = Field(default_factory=list)
    symptoms: Phrases
    # Look-alikes described in words: situations that read like this entry and are something else
    # (a GPU starved of data is not a TPU input bottleneck). Embedded beside the entry's chunks but
    # never counted as its evidence: an input closer to one of them than to the entry itself
    # lowers the answer's confidence (decide.py, `lookalike`).
    lookalikes: Phrases | None = None
    keywords: list[str] = Field(default_factory=list)
    explanation: Text
    # What the problem looks like, and what to do, on the stacks the guide does not cover (JAX,
    # PyTorch/XLA), for an entry whose explanation is the guide's TensorFlow text. Shown after the
    # explanation, never searched: the entry is found by what the problem is, and these notes'
    # stack words (`jax.jit`, `DataLoader`, `loss.item()`) would pull every report on that stack
    # toward whichever entry explains the most stacks (lint E046 asks for them).
    stack_notes: Text | None = None
    related: list[str] = Field(default_factory=list)
    tree: Tree

    def reading(self, lang: str) -> str:
        """The explanation as a person reads it (Markdown): the text, then the stack notes."""
        text = self.explanation.get(lang)
        if self.stack_notes is None:
            return text
        return text.rstrip() + "\n\n" + self.stack_notes.get(lang)
