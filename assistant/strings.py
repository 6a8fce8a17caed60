"""User-facing strings of the core, in English and Brazilian Portuguese: one catalogue, looked up
by key (`t(lang, key, **values)`). No textual import: the CLI, the TUI and the engine's
explanations all read it."""

from __future__ import annotations

LANGS = ("en", "pt")

STRINGS: dict[str, tuple[str, str]] = {
    # why an entry was ranked (explain.py)
    "why.profile": (
        "profile figures (line {line}): {text}",
        "números do perfil (linha {line}): {text}",
    ),
    "why.signature": (
        "signature '{id}' matched line {line}: {text}",
        "assinatura '{id}' na linha {line}: {text}",
    ),
    "why.exclude": (
        "but line {line} points elsewhere: {text}",
        "mas a linha {line} indica outro problema: {text}",
    ),
    "why.lines": (" (lines {lines})", " (linhas {lines})"),
    "why.words": ("shared words: {words}{where}", "palavras em comum: {words}{where}"),
    "why.similar": (
        'similar to "{text}" (similarity {cos:.2f})',
        'semelhante a "{text}" (similaridade {cos:.2f})',
    ),
    "why.context.device": (
        "context: the input is about another device ({what}) and shows no TPU — confidence lowered",
        "contexto: a entrada fala de outro dispositivo ({what}) e de nenhuma TPU — "
        "confiança reduzida",
    ),
    "why.context.service": (
        "context: the input is about another service or a plain VM ({what}) and shows no TPU — "
        "confidence lowered",
        "contexto: a entrada fala de outro serviço ou de uma VM comum ({what}) e de nenhuma "
        "TPU — confiança reduzida",
    ),
    "why.context.tpu": (
        "context: TPU evidence ({what}) keeps the TPU entries in play",
        "contexto: há evidência de TPU ({what}), então as entradas de TPU continuam valendo",
    ),
}


def t(lang: str, key: str, **values: object) -> str:
    """The string `key` in `lang` ("pt", else English), formatted with `values`."""
    en, pt = STRINGS[key]
    return (pt if lang == "pt" else en).format(**values)
