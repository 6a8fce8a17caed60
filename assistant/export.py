"""A session as Markdown: the question, the match, the answers given and the fix.

`redact=True` replaces project ids, IPs, emails, buckets and home paths by stable placeholders
(the same value gets the same placeholder across the whole document). Pure Python.
"""

from __future__ import annotations

import re
from pathlib import Path

from .history import Session, Turn, atomic_write_text
from .redact import placeholder_for, redact_text

QUERY_LINES = 200  # lines of a pasted log kept in the export

LABELS = {
    "en": {
        "title": "tpu-assist session",
        "question": "Question",
        "match": "Match",
        "confidence": "confidence",
        "why": "Why",
        "none": "No confident match.",
        "nearest": "Nearest entries",
        "answers": "Answers",
        "fix": "Fix",
        "check": "Check",
        "risk": "risk",
        "more": "more lines not shown",
        "unfilled": "Still to fill in",
        "advice": "Advice",
        "open": "Open question",
        "values": "Values",
        "outcome": "Outcome",
        "solved": "solved",
        "not_solved": "not solved",
        "tried": "Fixes tried",
        "script": "The fix as a shell script",
    },
    "pt": {
        "title": "Sessão do tpu-assist",
        "question": "Pergunta",
        "match": "Correspondência",
        "confidence": "confiança",
        "why": "Por quê",
        "none": "Nenhuma correspondência confiável.",
        "nearest": "Entradas mais próximas",
        "answers": "Respostas",
        "fix": "Correção",
        "check": "Verificação",
        "risk": "risco",
        "more": "linhas a mais não mostradas",
        "unfilled": "Ainda a preencher",
        "advice": "Recomendações",
        "open": "Pergunta em aberto",
        "values": "Valores",
        "outcome": "Resultado",
        "solved": "resolvido",
        "not_solved": "não resolvido",
        "tried": "Correções tentadas",
        "script": "A correção como script de shell",
    },
}


def _fence(text: str, lang: str = "") -> list[str]:
    """A fenced block that the content cannot close early."""
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    fence = "`" * max(3, longest + 1)
    return [fence + lang, text, fence]


def _query_block(query: str) -> str:
    lines = query.splitlines()
    if len(lines) <= QUERY_LINES:
        return query.rstrip("\n")
    return "\n".join(lines[:QUERY_LINES])


def _turn(turn: Turn, lang: str, t: dict, r) -> list[str]:
    return _turn_body(turn, lang, t, r) + _outcome(turn, t)


def _turn_body(turn: Turn, lang: str, t: dict, r) -> list[str]:
    out = [f"## {t['question']}", ""]
    lines = turn.query.splitlines()
    out += _fence(r(_query_block(turn.query)), "text")
    if len(lines) > QUERY_LINES:
        out.append(f"_… {len(lines) - QUERY_LINES} {t['more']}_")
    out.append("")
    answer = turn.answer or {}
    results = answer.get("results") or []
    out += [f"## {t['match']}", ""]
    if answer.get("abstained"):
        out.append(t["none"])
        if results:
            out += ["", f"{t['nearest']}:"]
            out += [
                f"- {r(res.get('title', ''))} (`{res.get('id')}`, {t['confidence']} "
                f"{float(res.get('confidence', 0)):.0%})"
                for res in results[:3]
            ]
        out.append("")
    elif results:
        best = results[0]
        out.append(
            f"**{r(best.get('title', ''))}** (`{best.get('id')}`) — {t['confidence']} "
            f"{float(best.get('confidence', 0)):.0%}"
        )
        if best.get("why"):
            out += ["", f"{t['why']}:"] + [f"- {r(w)}" for w in best["why"]]
        out.append("")
    walk = (
        (turn.walk or {}).get(lang)
        or (turn.walk or {}).get("en")
        or next(iter((turn.walk or {}).values()), None)
    )
    if turn.entry_id and (not results or results[0].get("id") != turn.entry_id):
        title = turn.titles.get(lang) or turn.titles.get("en") or turn.entry_id
        out += [f"→ **{r(title)}** (`{turn.entry_id}`)", ""]
    if turn.path:
        out += [f"## {t['answers']}", ""]
        out += [f"- {node}: {r(value)}" for node, value in turn.path]
        out.append("")
    if turn.overrides:
        out += [
            f"{t['values']}: " + ", ".join(f"`{k}={r(v)}`" for k, v in turn.overrides.items()),
            "",
        ]
    if not walk:
        return out
    if walk.get("advice"):
        out += [f"{t['advice']}:"] + [f"- {r(a)}" for a in walk["advice"]] + [""]
    if walk.get("kind") == "question":
        out += [f"**{t['open']}:** {r(walk.get('prompt', ''))}", ""]
        return out
    out += [f"## {t['fix']}: {r(walk.get('title', ''))}", ""]
    for i, step in enumerate(walk.get("steps") or [], start=1):
        head = f"{i}. {r(step['text'])}" if step.get("text") else f"{i}."
        if step.get("kind") == "command":
            out += [f"{head} _({t['risk']}: {step.get('risk')})_", ""]
            out += [*_fence(r(step.get("command", "")), "sh"), ""]
        elif step.get("kind") == "code":
            out += [head, "", *_fence(r(step.get("diff", "")), "diff"), ""]
        else:
            out += [head, ""]
    if walk.get("check"):
        out += [f"**{t['check']}:** {r(walk['check'])}", ""]
    if walk.get("missing"):
        out += [f"{t['unfilled']}: " + ", ".join(f"`{m}`" for m in walk["missing"]), ""]
    return out


def _outcome(turn: Turn, t: dict) -> list[str]:
    """The answer to "did this fix it?", and each fix tried when there was more than one."""
    out: list[str] = []
    if turn.outcome:
        out += [f"**{t['outcome']}:** {t[turn.outcome]}", ""]
    if len(turn.feedback) > 1:
        out += [f"{t['tried']}:"]
        out += [f"- `{key}`: {t[value]}" for key, value in turn.feedback.items()]
        out.append("")
    return out


def session_markdown(session: Session, lang: str = "en", redact: bool = False) -> str:
    t = LABELS["pt" if lang == "pt" else "en"]
    known: dict[str, str] = {}

    # Project ids the person typed or the input named are redacted wherever they appear, not only
    # after `--project=` or `projects/` (where redact_text recognizes them by shape).
    projects = sorted(
        {
            v
            for turn in session.turns
            for v in [
                turn.overrides.get("project"),
                (turn.answer.get("values") or {}).get("project"),
            ]
            if v
        },
        key=len,
        reverse=True,
    )

    def r(text: str) -> str:
        if not redact:
            return str(text)
        text = redact_text(str(text), known)
        for value in projects:
            if value in text:
                text = text.replace(value, placeholder_for(value, "PROJECT", known))
        return text

    out = [f"# {t['title']} — {session.created.replace('T', ' ')}", ""]
    for turn in session.turns:
        out += _turn(turn, lang, t, r)
    return "\n".join(out).rstrip() + "\n"


def export_session(session: Session, path: Path, lang: str = "en", redact: bool = False) -> Path:
    path = Path(path).expanduser()
    atomic_write_text(path, session_markdown(session, lang, redact))
    return path
