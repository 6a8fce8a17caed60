"""What gets indexed: an entry becomes dense chunks (one idea each) and one lexical document."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from ..kb.schema import ChoiceNode, CodeStep, CommandStep, Entry, FixNode, NumberNode
from ..text.markdown import plain

__all__ = [
    "LOOKALIKE",
    "Chunk",
    "entry_chunks",
    "entry_full_text",
    "lexical_document",
    "signature_texts",
]


LOOKALIKE = "lookalike"  # a chunk that describes what the entry is NOT (see kb.schema.Entry)


@dataclass(frozen=True)
class Chunk:
    entry_id: str
    kind: str  # title | summary | symptom | signature | keywords | explanation | lookalike
    lang: str  # en | pt | any
    text: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()[:24]


def _paragraphs(markdown: str) -> list[str]:
    paras = [plain(p) for p in re.split(r"\n\s*\n", markdown)]
    return [p for p in paras if len(p) > 20]


def signature_texts(entry: Entry) -> list[str]:
    out: list[str] = []
    for sig in entry.signatures:
        if sig.example:
            out.append(sig.example)
        elif sig.kind == "literal":
            out.append(sig.pattern)
    return out


def entry_chunks(entry: Entry) -> list[Chunk]:
    chunks: list[Chunk] = []
    for lang in ("en", "pt"):
        chunks.append(Chunk(entry.id, "title", lang, entry.title.get(lang)))
        chunks.append(Chunk(entry.id, "summary", lang, plain(entry.summary.get(lang))))
        chunks.extend(Chunk(entry.id, "symptom", lang, s) for s in entry.symptoms.get(lang))
        chunks.extend(
            Chunk(entry.id, "explanation", lang, p)
            for p in _paragraphs(entry.explanation.get(lang))[:4]
        )
        if entry.lookalikes:
            chunks.extend(Chunk(entry.id, LOOKALIKE, lang, s) for s in entry.lookalikes.get(lang))
    chunks.extend(Chunk(entry.id, "signature", "any", s) for s in signature_texts(entry))
    if entry.keywords:
        chunks.append(Chunk(entry.id, "keywords", "any", ", ".join(entry.keywords)))
    seen: set[str] = set()
    unique = []
    for c in chunks:
        if c.text and c.text not in seen:
            seen.add(c.text)
            unique.append(c)
    return unique


def lexical_document(entry: Entry) -> str:
    """One BM25 document per entry. Titles and keywords count twice: they name the problem."""
    parts: list[str] = []
    for lang in ("en", "pt"):
        parts += [entry.title.get(lang)] * 2
        parts.append(plain(entry.summary.get(lang)))
        parts += entry.symptoms.get(lang)
        parts.append(plain(entry.explanation.get(lang)))
    parts += entry.keywords * 2
    parts += signature_texts(entry)
    return "\n".join(parts)


def entry_full_text(entry: Entry) -> str:
    """All searchable text of an entry, both languages, as plain text (for `kb list --json`)."""
    parts = [lexical_document(entry)]
    if entry.stack_notes:  # shown with the explanation, not searched (see kb.schema.Entry)
        parts += [plain(entry.stack_notes.get(lang)) for lang in ("en", "pt")]
    parts += [s.pattern for s in entry.signatures]
    for node in entry.tree.nodes.values():
        for lang in ("en", "pt"):
            if isinstance(node, (ChoiceNode, NumberNode)):
                parts.append(node.prompt.get(lang))
                if node.help:
                    parts.append(node.help.get(lang))
                if isinstance(node, ChoiceNode):
                    parts += [o.label.get(lang) for o in node.options]
            elif isinstance(node, FixNode):
                parts += [node.title.get(lang), node.check.get(lang)]
                for step in node.steps:
                    if step.text:  # a note's text is required, a command's or code's optional
                        parts.append(plain(step.text.get(lang)))
        if isinstance(node, FixNode):
            for step in node.steps:
                if isinstance(step, CommandStep):
                    parts.append(step.command)
                elif isinstance(step, CodeStep):
                    parts += [step.before, step.after]
    return "\n".join(p for p in parts if p)
