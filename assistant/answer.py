"""What the engine answers: an `Answer` and its ranked `Result`s — plain values with a JSON form
that reads back (`to_dict` / `from_dict`), so a saved session or an `ask --json` output rebuilds
the same value the engine returned."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from .advice import describe
from .strings import t
from .text.domain import tpu_host_only
from .text.outside import KINDS
from .text.parse import Facts


@dataclass
class Result:
    id: str
    title: str
    score: float
    confidence: float
    why: list[str]
    source: str = "builtin"
    evidence: dict[str, float] = field(default_factory=dict)  # per channel; not serialized

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "score": round(self.score, 4),
            "confidence": round(self.confidence, 4),
            "why": self.why,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Result:
        return cls(
            id=str(d.get("id")),
            title=str(d.get("title", "")),
            score=float(d.get("score", 0)),
            confidence=float(d.get("confidence", 0)),
            why=[str(w) for w in d.get("why") or []],
            source=str(d.get("source", "builtin")),
        )


@dataclass
class Answer:
    abstained: bool
    results: list[Result]
    facts: Facts
    lang: str
    values: dict[str, str] = field(default_factory=dict)  # placeholder values found in the input
    notes: list[str] = field(default_factory=list)
    # after a refusal, the entry a look-alike pattern set aside (`decide.set_aside`):
    # {"id", "title", "pattern", "line", "text"}
    set_aside: dict[str, Any] | None = None
    # after a refusal, the look-alike described in the knowledge base that the report reads most
    # like (`decide.resembled_lookalike`): {"id", "title", "text"}
    resembles: dict[str, Any] | None = None

    @property
    def best(self) -> Result | None:
        return self.results[0] if self.results else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "abstained": self.abstained,
            "results": [r.to_dict() for r in self.results],
            "facts": self.facts.to_dict(),
            "lang": self.lang,
            "values": self.values,
            "notes": self.notes,
            "set_aside": self.set_aside,
            "resembles": self.resembles,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Answer:
        """The inverse of `to_dict`, tolerant of what an older version wrote: unknown fact fields
        are dropped and missing ones take their defaults."""
        known = {f.name for f in fields(Facts)}
        facts = Facts(**{k: v for k, v in (d.get("facts") or {}).items() if k in known})
        results = [Result.from_dict(r) for r in d.get("results") or [] if isinstance(r, dict)]
        return cls(
            bool(d.get("abstained")),
            results,
            facts,
            str(d.get("lang") or "en"),
            {str(k): str(v) for k, v in (d.get("values") or {}).items()},
            [str(n) for n in d.get("notes") or []],
            _stored(d.get("set_aside"), ("id", "title", "pattern", "line", "text")),
            _stored(d.get("resembles"), ("id", "title", "text")),
        )


def _stored(d: Any, keys: tuple[str, ...]) -> dict[str, Any] | None:
    """A stored refusal detail (`set_aside`, `resembles`) with the keys its note needs, or None
    (older versions wrote none)."""
    if not isinstance(d, dict) or not all(k in d for k in keys):
        return None
    return {k: d[k] for k in keys}


# Each kind of problem outside the guide (`text.outside.KINDS`) has its short note and what to
# tell the person, under these keys of the catalogue (test_strings checks that they are there).
OUTSIDE_NOTES: dict[str, tuple[str, str]] = {
    kind: (f"note.outside.{kind}", f"answer.note_outside.{kind}") for kind in KINDS
}


def outside_notes(outside: dict[str, Any], lang: str, note_lang: str = "en") -> tuple[str, str]:
    """For a problem outside the guide (`Facts.outside`): the short note (in English, as all of
    `ask --json`'s notes, unless `note_lang` says otherwise) and what to tell the person in `lang`,
    with what to check instead. A kind this version does not know (a history written by a later
    one) is told as an installation problem."""
    note, say = OUTSIDE_NOTES.get(outside.get("kind", ""), OUTSIDE_NOTES["install"])
    values = dict(outside)
    if outside.get("kind") == "hardware":  # the figures of the types it asks about
        values["figures"] = describe(list(outside.get("types") or []), lang)
    return t(note_lang, note, **values), t(lang, say, **values)


def own_refusal(facts: Facts, lang: str, note_lang: str = "en") -> tuple[str, str] | None:
    """When the facts give the assistant a reason of its own to refuse — a problem the guide does
    not cover (`text.outside`), an input that names no problem or says only that a run is slow
    (`text.vague`) — the short note (in `note_lang`; `ask --json`'s notes are English) and what to
    tell the person in `lang`. None when there is none (an unread script has `script_note`)."""
    if facts.outside:
        return outside_notes(facts.outside, lang, note_lang)
    if facts.vague:
        return t(note_lang, "note.vague"), t(lang, "answer.note_vague")
    if facts.slow_only:
        return t(note_lang, "note.slow_only"), t(lang, "answer.note_slow_only")
    return None


# Notes the engine makes from the catalogue with no values (see `Engine.decide`).
_PLAIN_NOTES = (
    "note.truncated",
    "note.empty",
    "note.no_match",
    "note.signatures_only",
    "note.lookalike_error",
    "note.off_topic",
)


def shown_notes(notes: list[str], facts: Facts, lang: str, refusal: str | None) -> list[str]:
    """An answer's notes — in English, as `ask --json` gives them — as a person reading `lang` is
    shown them: each note the catalogue made in `lang`, any other (the embedder's) as it is, and
    none that `refusal` (`abstention_note`) goes on to say at length."""
    shown = {t("en", key): t(lang, key) for key in _PLAIN_NOTES}
    restated: list[str] = []  # the reasons of its own, said short
    if facts.other_script:
        script = facts.other_script
        en = t("en", "note.other_script", script=script)
        shown[en] = t(lang, "note.other_script", script=script)
        restated.append(en)
    own, own_shown = own_refusal(facts, lang), own_refusal(facts, lang, lang)
    if own and own_shown:
        shown[own[0]] = own_shown[0]
        restated.append(own[0])
    for key in ("note.lookalike_error", "note.off_topic"):
        if t("en", key) in notes:
            restated.append(t("en", key))
    said = set(restated) if refusal else set()
    return [shown.get(note, note) for note in notes if note not in said]


def script_note(facts: Facts, lang: str) -> str | None:
    """Why the input was only partly read, when much of it is in a script tpu-assist does not
    read; None otherwise."""
    if facts.other_script:
        return t(lang, "answer.note_script", script=facts.other_script)
    return None


def context_hint(facts: Facts, lang: str) -> str | None:
    """After a refusal the confidence model made: what to tell the person when the context gate
    read another device, or another Google service or a plain VM, and no TPU, or a heading about
    another device (`text.domain`) — the entries are about Cloud TPU, and naming the TPU would
    change the reading; or when the input names both a TPU and another device — which run the
    problem is on decides. None otherwise."""
    context = facts.context
    gate = context.get("gate")
    if context.get("subject"):
        return t(lang, "answer.hint_subject", what=", ".join(context["subject"]))
    if gate == "device":
        return t(lang, "answer.hint_device", what=", ".join(context.get("device", [])))
    if gate == "service":
        return t(lang, "answer.hint_service", what=", ".join(context.get("service", [])))
    if context.get("tpu") and context.get("device") and not tpu_host_only(context):
        # a TPU and another device both named ("fine on the A100, fails on the v4-8"): which run
        # the problem is on decides whether these entries apply
        return t(
            lang,
            "answer.hint_mixed",
            tpu=", ".join(context["tpu"][:2]),
            what=", ".join(context["device"][:3]),
        )
    return None


def refusal_note(answer: Answer, lang: str) -> str | None:
    """What to tell the person when the assistant abstained for a reason of its own: those of the
    facts (`abstention_note`), or an entry one of its look-alike patterns set aside
    (`Answer.set_aside`), or an error the engine caught as a known look-alike of an entry
    (`decide.lookalike_error`, said by the answer's notes), or a short input close in meaning to
    no entry (`decide.off_topic`, the same), or a look-alike the knowledge base describes that the
    report reads most like (`Answer.resembles`). None when none applies."""
    if not answer.abstained:
        return None
    note = abstention_note(answer.facts, lang)
    # an entry a look-alike pattern set aside names the entry, the line and the pattern: more than
    # the general word that the error is a known look-alike, which stays for a pattern whose entry
    # would not have come first anyway
    if note is None and answer.set_aside:
        note = t(lang, "answer.note_set_aside", **answer.set_aside)
    if note is None and t("en", "note.lookalike_error") in answer.notes:
        note = t(lang, "answer.note_lookalike")
    if note is None and t("en", "note.off_topic") in answer.notes:
        note = t(lang, "answer.note_off_topic")
    if note is None and answer.resembles:
        note = t(lang, "answer.note_resembles", **answer.resembles)
    return note


def abstention_note(facts: Facts, lang: str) -> str | None:
    """What to tell the person when the assistant abstained for a reason of its own, rather than
    the general hint: a problem the guide does not cover (`text.outside`), or much of the input in
    a script it does not read, or an input that names no problem or says only "slow"
    (`text.vague`). None when none applies."""
    own = own_refusal(facts, lang)
    return own[1] if own else script_note(facts, lang)
