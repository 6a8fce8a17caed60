"""Tokenizer for the lexical channel: English and Portuguese, accents folded, identifiers whole.

`XLA_TPU_JIT` stays one token (`xla_tpu_jit`) and also yields its parts; `ResourceExhaustedError`
yields `resourceexhaustederror` plus `resource`, `exhausted`, `error`; an accelerator type
(`v4-32`) reads as its generation (`v4`). Stop words of both languages
are dropped, and a light suffix folding maps simple plurals to one form (`lotes` -> `lote`,
`layers` -> `layer`), which is all a bilingual keyword channel needs.
"""

from __future__ import annotations

import re
import unicodedata

from .ids import TPU_GENERATION

STOP_EN = frozenset(
    """
a about above after again against all also am an and any are aren't as at be because been before
being below between both but by can can't cannot could did do does doing don't down during each
even ever every few for from further get gets got had has have having he her here hers him his how
i if in into is isn't it its itself just let like me more most much must my myself no nor not now
of off on once only or other our ours out over own same she should so some still such than that
the their them then there these they this those through to too under until up upon us use used
using very via was we were what when where which while who whom why will with would you your
yours yourself yet one two get getting trying tried try want need please help anyone thanks
thank hi hello ok okay really seems seem says said
""".split()
)

STOP_PT = frozenset(
    """
a ao aos aquela aquelas aquele aqueles aquilo as ate com como da das de dela delas dele deles
depois do dos e ela elas ele eles em entre era eram essa essas esse esses esta estas este estes
eu foi fomos for foram ha isso isto ja la lhe lhes mais mas me mesmo meu meus minha minhas muito
na nas nem no nos nossa nossas nosso nossos num numa o os ou para pela pelas pelo pelos por qual
quando que quem se sem ser seu seus sao so sua suas tambem te tem tinha tu tua tuas um uma umas
uns voce voces vos esta estao estou fica ficar fiz faz fazer faco pra pro tenho temos ter
alguem algum alguma ajuda obrigado oi ola sobre ainda cada quanto quanta quantos quantas onde
aqui ali qualquer todo toda todos todas outro outra outros outras mesma lo la ne nao sim
""".split()
)

STOP = STOP_EN | STOP_PT

_WORD = re.compile(r"[A-Za-z0-9_]+")
# Parts of a mixed-case word: `ResourceExhaustedError` -> Resource, Exhausted, Error. An acronym
# keeps its plural (`TPUs`, `GPUs`, not TP + Us) and comes apart from a version (`TPUv3`, `TPUv5e`
# -> TPU + v3, v5e), as people write them.
_CAMEL = re.compile(
    r"[A-Z]{2,}s(?![a-z])|[A-Z]{2,}(?=v[0-9])|v[0-9]+[a-z]?(?![a-z])"
    r"|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+"
)


# A TPU slice's accelerator type (`v4-32`, `v5litepod-16`, `TPUv3-8`) reads as its generation: the
# chip count says how big the slice is, not what went wrong, and as a bare number it matched
# memory sizes ("32 GiB per v4 chip") and shapes, so "stuck at initialization on a v4-32" read as
# out of memory. `facts.accelerator_type` keeps the whole type for the walk.
_ACCELERATOR_TYPE = re.compile(
    rf"(?:(?<![0-9a-z])|(?<=tpu))({TPU_GENERATION})-[0-9]{{1,4}}\b", re.I
)


def fold(text: str) -> str:
    """Lower-case and strip accents (memória -> memoria)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _stem(tok: str) -> str:
    if len(tok) > 4 and tok.isalpha():
        if tok.endswith(("oes", "aes")):
            return tok[:-3] + "ao"
        if tok.endswith("ies"):
            return tok[:-3] + "y"
        if tok.endswith("s") and not tok.endswith(("ss", "us")):
            return tok[:-1]
    return tok


def _keep(tok: str) -> bool:
    if tok in STOP or len(tok) < 2:
        return False
    if tok.isdigit():
        return len(tok) <= 5  # sizes like 64, 128, 1024 matter; timestamps and ids don't
    if re.fullmatch(r"[0-9a-f]{8,}", tok):
        return False  # hex addresses and hashes
    return True


def tokenize(text: str) -> list[str]:
    out: list[str] = []
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = _ACCELERATOR_TYPE.sub(r"\1", plain)
    for m in _WORD.finditer(plain):
        word = m.group(0)
        low = word.lower()
        parts = [p.lower() for p in (low.split("_") if "_" in word else _CAMEL.findall(word))]
        if _keep(low):
            out.append(_stem(low))
        if len(parts) > 1:
            out.extend(_stem(p) for p in parts if _keep(p))
    return out


_SURFACE_WORD = re.compile(r"\w+")


def surface_forms(text: str) -> dict[str, str]:
    """How each token of `text` reads to a person: the first whole word of `text` (lower-cased,
    accents kept) that `tokenize` turns into that token. A token that only comes from a part of an
    identifier (`callback` of `io_callback`) has none."""
    out: dict[str, str] = {}
    for m in _SURFACE_WORD.finditer(text):
        word = m.group(0)
        toks = tokenize(word)
        if toks:
            out.setdefault(toks[0], word.lower())
    return out
