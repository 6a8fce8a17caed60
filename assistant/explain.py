"""Why an entry was ranked, in words: each reason points at the input line it came from (the
`why` of a result). Strings come from the one catalogue (`strings.py`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from .retrieval.fusion import Evidence
from .retrieval.profile_rules import ProfileHit, describe
from .retrieval.signatures import SignatureHit
from .strings import t
from .text.domain import stack_only
from .text.parse import Facts
from .text.tokens import surface_forms, tokenize

SHOWN_SIGNATURES = 3
SHOWN_WORDS = 8
SHOWN_LINES = 5
SIMILAR_MIN = 0.3  # a cosine below this is not worth quoting as "similar"
STRONG_SIGNATURE = 0.8  # a signature this specific settles more than a described look-alike


def clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def clip_left(text: str, n: int) -> str:
    """`clip` from the other end: the last `n` characters, where a line's point is its end."""
    return text if len(text) <= n else "..." + text[len(text) - n + 3 :]


def _matched(hit: SignatureHit, n: int = 120) -> str:
    """What a signature's match shows. A match on one line shows as it is. A pattern that joins
    two lines (a KeyboardInterrupt and the TPU it happened on, a refused key and gcloud's exit
    code) shows its two ends, where what it read is, with the lines between left out."""
    if not hit.tail:
        return clip(hit.matched, n)
    head = " ".join(hit.matched.split("\n", 1)[0].split())
    half = (n - 3) // 2
    return f"{clip(head, half)} … {clip_left(' '.join(hit.tail.split()), half)}"


@lru_cache(maxsize=8)
def _key_line_words(
    texts: tuple[str, ...],
) -> tuple[tuple[frozenset[str], ...], frozenset[str], Mapping[str, str]]:
    """Each key line's tokens, all of them together (the words the person wrote), and how each
    token reads (`surface_forms`): worked out once per input, not once for every ranked entry
    explained."""
    tokens = tuple(frozenset(tokenize(text)) for text in texts)
    typed = frozenset().union(*tokens)
    return tokens, typed, MappingProxyType(surface_forms("\n".join(texts)))


def explain(ev: Evidence, facts: Facts, lang: str) -> list[str]:
    """Reasons for one entry: its signatures (and a look-alike that matched), the words it shares
    with the input and the lines they are on, the closest passage of the entry, and a described
    look-alike closer to the input than the entry itself."""
    why: list[str] = []
    for hit, line_no in ev.signature_hits[:SHOWN_SIGNATURES]:
        if isinstance(hit, ProfileHit):
            text = describe(hit.figures, lang) if hit.figures else clip(hit.matched, 120)
            why.append(t(lang, "why.profile", line=line_no, text=text))
            continue
        snippet = _matched(hit)
        if hit.tail and hit.last_line_no > line_no:
            why.append(
                t(
                    lang,
                    "why.signature_span",
                    id=hit.signature_id,
                    first=line_no,
                    last=hit.last_line_no,
                    text=snippet,
                )
            )
        else:
            why.append(t(lang, "why.signature", id=hit.signature_id, line=line_no, text=snippet))
    for hit, line_no in ev.exclude_hits[:1]:
        if isinstance(hit, ProfileHit):
            text = describe(hit.figures, lang)
            why.append(t(lang, "why.profile_against", line=line_no, text=text))
        else:
            why.append(t(lang, "why.exclude", line=line_no, text=hit.matched[:100]))
    if ev.lex_terms:
        terms = set(ev.lex_terms)
        line_tokens, typed, surface = _key_line_words(tuple(k["text"] for k in facts.key_lines))
        lines = [
            k["line"] for k, toks in zip(facts.key_lines, line_tokens, strict=True) if terms & toks
        ]
        where = ""
        if lines and facts.line_count > 1:
            where = t(lang, "why.lines", lines=", ".join(str(n) for n in lines[:SHOWN_LINES]))
        # only words the person wrote: not "memory", which the search added after "OOM"
        words = list(dict.fromkeys(surface.get(w, w) for w in ev.lex_terms if w in typed))
        if words:
            why.append(t(lang, "why.words", words=", ".join(words[:SHOWN_WORDS]), where=where))
    if ev.dense_chunk and ev.dense >= SIMILAR_MIN:
        why.append(t(lang, "why.similar", text=clip(ev.dense_chunk, 100), cos=ev.dense))
    # A described look-alike is worth naming when no strong signature has already quoted the
    # entry's own message from the input (that outweighs any description).
    if ev.lookalike_chunk and ev.lookalike > ev.dense and ev.sig < STRONG_SIGNATURE:
        why.append(t(lang, "why.lookalike", text=clip(ev.lookalike_chunk, 100), cos=ev.lookalike))
    return why


def explain_set_aside(entry_id: str, title: str, ev: Evidence) -> dict[str, Any]:
    """What a refusal says of an entry one of its look-alike patterns set aside
    (`decide.set_aside`): its id and title, the pattern, the input line where its match begins
    and the matched words on that line (a pattern may span lines)."""
    hit, line_no = ev.exclude_hits[-1]  # the heaviest pattern comes last
    first_line = hit.matched.strip().split("\n", 1)[0]
    return {
        "id": entry_id,
        "title": title,
        "pattern": hit.signature_id,
        "line": line_no,
        "text": clip(" ".join(first_line.split()), 80),
    }


def explain_context(context: dict, lang: str) -> list[str]:
    """Which context weighed on the confidence: another device or service and no TPU evidence, or
    only the words of an XLA-first stack (JAX, bfloat16…)."""
    gate = context.get("gate")
    if context.get("subject"):
        return [t(lang, "why.context.subject", what=", ".join(context["subject"][:3]))]
    if gate == "device":
        return [t(lang, "why.context.device", what=", ".join(context.get("device", [])[:3]))]
    if gate == "service":
        return [t(lang, "why.context.service", what=", ".join(context.get("service", [])[:3]))]
    if context.get("tpu") and (context.get("device") or context.get("service")):
        return [t(lang, "why.context.tpu", what=", ".join(context["tpu"][:2]))]
    if stack_only(context):  # half a TPU's evidence (decide.tpu_evidence)
        return [t(lang, "why.context.stack", what=", ".join(context["stack"][:3]))]
    return []
