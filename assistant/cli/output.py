"""Plain-text and JSON output for the CLI (no terminal styling: pipes and logs stay clean)."""

from __future__ import annotations

import json
from typing import BinaryIO, TextIO

from ..engine import Answer, Engine
from ..kb import KnowledgeBase
from ..retrieval.chunks import entry_full_text, plain

LABELS = {
    "en": {
        "best": "Best match",
        "conf": "confidence",
        "why": "why",
        "others": "Other candidates",
        "none": "No confident match.",
        "nearest": "Nearest entries",
        "hint": "Add the full error line (the exception and its message) or describe what "
        "you see, and ask again.",
        "next": "Guided fix",
        "check": "Check",
        "unfilled": "Fill in",
        "risk": "risk",
        "answer": "answer with",
        "cut": "Note",
        "auto": "from the accelerator type or generation you gave",
    },
    "pt": {
        "best": "Melhor correspondência",
        "conf": "confiança",
        "why": "por quê",
        "others": "Outros candidatos",
        "none": "Nenhuma correspondência confiável.",
        "nearest": "Entradas mais próximas",
        "hint": "Inclua a linha completa do erro (a exceção e a mensagem) ou descreva o que "
        "acontece, e pergunte de novo.",
        "next": "Correção guiada",
        "check": "Verificação",
        "unfilled": "Preencha",
        "risk": "risco",
        "answer": "responda com",
        "cut": "Nota",
        "auto": "do tipo de acelerador ou da geração informados",
    },
}


def answer_text(answer: Answer, kb: KnowledgeBase) -> str:
    t = LABELS[answer.lang if answer.lang in LABELS else "en"]
    out: list[str] = []
    for note in answer.notes:
        out.append(f"{t['cut']}: {note}")
    if answer.abstained:
        out.append(t["none"])
        if answer.results:
            out.append(f"{t['nearest']}:")
            for r in answer.results[:3]:
                out.append(f"  - {r.title} [{r.id}] ({t['conf']} {r.confidence:.2f})")
        out.append(t["hint"])
        return "\n".join(out)
    best = answer.results[0]
    entry = kb.get(best.id)
    mine = " (your entry)" if best.source == "user" else ""
    out.append(f"{t['best']}: {best.title} [{best.id}]{mine} — {t['conf']} {best.confidence:.2f}")
    for w in best.why:
        out.append(f"  {t['why']}: {w}")
    if entry is not None:
        out += ["", plain(entry.summary.get(answer.lang))]
    if answer.values:
        out += ["", ", ".join(f"{k}={v}" for k, v in answer.values.items())]
    if len(answer.results) > 1:
        out += ["", f"{t['others']}:"]
        out += [
            f"  - {r.title} [{r.id}] ({t['conf']} {r.confidence:.2f})" for r in answer.results[1:4]
        ]
    sets = "".join(
        f" --set {k}={v}" for k, v in answer.values.items() if k in ("tpu_name", "zone", "project")
    )
    out += ["", f"{t['next']}: tpu-assist walk {best.id}{sets}"]
    return "\n".join(out)


def walk_text(data: dict, lang: str) -> str:
    t = LABELS[lang]
    out: list[str] = []
    auto = set(data.get("auto_answered", []))
    for node, value in data["path"]:
        out.append(f"  {node} = {value}" + (f"  ({t['auto']})" if node in auto else ""))
    for line in data.get("advice", []):
        out.append(f"» {line}")
    if out:
        out.append("")
    if data["kind"] == "question":
        out.append(f"? {data['prompt']}")
        if data.get("help"):
            out.append(f"  ({data['help']})")
        if data["input"] == "choice":
            for i, o in enumerate(data["options"], start=1):
                out.append(f"  {i}. {o['label']}  [{o['value']}]")
            example = data["options"][0]["value"]
        else:
            example = "128"
        out.append("")
        out.append(f"{t['answer']}: --answer {data['node']}={example}")
        return "\n".join(out)
    out += [f"## {data['title']}", ""]
    for i, s in enumerate(data["steps"], start=1):
        head = f"{i}. {s['text']}" if s.get("text") else f"{i}."
        if s["kind"] == "command":
            out += [f"{head}  [{t['risk']}: {s['risk']}]", "", "    " + s["command"], ""]
        elif s["kind"] == "code":
            out += [head, ""] + ["    " + line for line in s["diff"].splitlines()] + [""]
        else:
            out += [head, ""]
    out.append(f"{t['check']}: {data['check']}")
    if data.get("missing"):
        out.append(f"{t['unfilled']}: " + " ".join(f"--set {m}=…" for m in data["missing"]))
    return "\n".join(out)


def kb_list(kb: KnowledgeBase) -> list[dict]:
    return [
        {
            "id": le.entry.id,
            "title": {"en": le.entry.title.en, "pt": le.entry.title.pt},
            "text": entry_full_text(le.entry),
            "source": le.source,
        }
        for le in kb.entries
    ]


def ask_jsonl(engine: Engine, stdin: BinaryIO, stdout: TextIO, lang: str | None, top: int) -> int:
    """One result object per input line; a bad line gets an `error` object. Exit 2 if any is bad."""
    bad = 0
    for n, raw in enumerate(stdin, start=1):
        if not raw.strip():
            continue
        try:
            item = json.loads(raw.decode("utf-8", errors="replace"))
            if not isinstance(item, dict) or not isinstance(item.get("query"), str):
                raise ValueError("each line must be an object with a string 'query'")
        except ValueError as exc:
            bad += 1
            stdout.write(json.dumps({"line": n, "error": str(exc)}) + "\n")
            continue
        answer = engine.ask(item["query"], lang=lang, top_k=top)
        obj = answer.to_dict()
        if "id" in item:
            obj = {"id": item["id"], **obj}
        stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
        stdout.flush()
    return 2 if bad else 0
