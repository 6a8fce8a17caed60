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
    # the fix as a shell script (render.fix_script)
    "script.not_run": (
        "Nothing here was run by tpu-assist: read each step, then run it yourself.",
        "O tpu-assist não executou nada daqui: leia cada passo e execute você mesmo.",
    ),
    "script.missing": (
        "Still to fill in (left as {{name}} below): {names}",
        "Ainda a preencher (ficaram como {{nome}} abaixo): {names}",
    ),
    "script.risk": ("risk: {risk}", "risco: {risk}"),
    "script.code": (
        "code change ({file}) — edit your code as this diff shows:",
        "mudança de código ({file}) — edite o seu código como mostra este diff:",
    ),
    "script.check": ("Check: {check}", "Verificação: {check}"),
    "risk.read-only": ("read-only", "somente leitura"),
    "risk.changes-state": ("changes state", "altera o estado"),
    "risk.destructive": (
        "DESTRUCTIVE — deletes or recreates something",
        "DESTRUTIVO — apaga ou recria algo",
    ),
    # outcomes of a fix ("did this fix it?"), in history lists and exports
    "outcome.solved": ("solved", "resolvido"),
    "outcome.not_solved": ("not solved", "não resolvido"),
    "outcome.open": ("open", "em aberto"),
}


def t(lang: str, key: str, **values: object) -> str:
    """The string `key` in `lang` ("pt", else English), formatted with `values`."""
    en, pt = STRINGS[key]
    return (pt if lang == "pt" else en).format(**values)
