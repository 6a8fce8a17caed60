"""Plain-text and JSON output for the CLI (no terminal styling: pipes and logs stay clean)."""

from __future__ import annotations

import json
import shlex
from typing import Any, BinaryIO, TextIO

from ..answer import context_hint, refusal_note, shown_notes
from ..engine import Answer, Engine
from ..kb import KnowledgeBase
from ..render import RenderedStep, steps_text
from ..retrieval.chunks import entry_full_text
from ..strings import pairs, pct, t
from ..text.markdown import plain
from ..tpu_generations import DERIVED


def answer_text(answer: Answer, kb: KnowledgeBase) -> str:
    lang = answer.lang
    conf = t(lang, "cli.conf")
    out: list[str] = []
    # Refused for a reason of its own (a problem outside the guide, an unread script, a look-alike
    # error): the model's confidences would contradict "no confident match", so the entries come
    # without.
    refusal = refusal_note(answer, lang)
    for note in shown_notes(answer.notes, answer.facts, lang, refusal):
        out.append(f"{t(lang, 'cli.cut')}: {note}")
    if answer.abstained:
        out.append(t(lang, "answer.none"))
        if answer.results:
            out.append(f"{t(lang, 'cli.nearest')}:")
            for r in answer.results[:3]:
                shown = "" if refusal else f" ({conf} {pct(r.confidence)})"
                out.append(f"  - {r.title} [{r.id}]{shown}")
        out.append(refusal or context_hint(answer.facts, lang) or t(lang, "cli.hint"))
        return "\n".join(out)
    best = answer.results[0]
    entry = kb.get(best.id)
    mine = t(lang, "cli.yours") if best.source == "user" else ""
    out.append(
        f"{t(lang, 'cli.best')}: {best.title} [{best.id}]{mine} — {conf} {pct(best.confidence)}"
    )
    for w in best.why:
        out.append(f"  {t(lang, 'cli.why')}: {w}")
    if entry is not None:
        out += ["", plain(entry.summary.get(lang))]
    if answer.values:
        out += ["", pairs(answer.values)]
    if len(answer.results) > 1:
        out += ["", f"{t(lang, 'cli.others')}:"]
        out += [f"  - {r.title} [{r.id}] ({conf} {pct(r.confidence)})" for r in answer.results[1:4]]
    out += ["", f"{t(lang, 'cli.next')}: {walk_command(best.id, answer.values)}"]
    return "\n".join(out)


def walk_command(entry_id: str, values: dict[str, str]) -> str:
    """The `tpu-assist walk` command that goes on with every value the input showed, as the
    interactive assistant's walk does: the accelerator type answers the generation question, the
    HBM figures size the batch, an op name or a log directory fills its step. What the walk works
    out from the accelerator type again (`tpu_generations.DERIVED`) is left out; each `NAME=VALUE`
    is shell-quoted."""
    derived = DERIVED if "accelerator_type" in values else frozenset()
    sets = [f" --set {shlex.quote(f'{k}={v}')}" for k, v in values.items() if k not in derived]
    return f"tpu-assist walk {entry_id}{''.join(sets)}"


def walk_text(data: dict[str, Any], lang: str) -> str:
    """A walk (`Walk.to_dict`, as `--json` prints it) as plain text; the fix's steps through
    `render.steps_text`, the renderer every output shares."""
    out: list[str] = []
    auto = set(data.get("auto_answered", []))
    for node, value in data["path"]:
        out.append(f"  {node} = {value}" + (f"  ({t(lang, 'cli.auto')})" if node in auto else ""))
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
        out.append(f"{t(lang, 'cli.answer')}: --answer {data['node']}={example}")
        return "\n".join(out)
    out += [f"## {data['title']}", ""]
    out += steps_text([RenderedStep.from_dict(s) for s in data["steps"]], lang)
    out.append(f"{t(lang, 'cli.check')}: {data['check']}")
    if data.get("missing"):
        fill = " ".join(f"--set {m}=…" for m in data["missing"])
        out.append(f"{t(lang, 'cli.unfilled')}: {fill}")
    return "\n".join(out)


def kb_list(kb: KnowledgeBase) -> list[dict]:
    return [
        {
            "id": le.entry.id,
            "title": {"en": le.entry.title.en, "pt": le.entry.title.pt},
            "frameworks": list(le.entry.frameworks),
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
