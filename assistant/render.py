"""Fix steps with the person's values filled in: commands (shell-quoted), code changes (with a
unified diff), notes — and their one renderer. `render_steps` makes the `RenderedStep`s; every
output shows them from here: `steps_text` (the CLI), `steps_markdown` (the export), `fix_script`
(F7 in the TUI), and the TUI's fix view builds its widgets from the same `RenderedStep`s, headed by
`step_head`. A saved walk's steps come back with `RenderedStep.from_dict`."""

from __future__ import annotations

import contextlib
import difflib
import re
import textwrap
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any

from . import placeholders

if TYPE_CHECKING:
    from .kb.schema import CodeStep, CommandStep, NoteStep


@dataclass
class RenderedStep:
    kind: str  # command | code | note
    text: str = ""  # explanation (Markdown)
    command: str | None = None
    risk: str | None = None
    language: str | None = None
    before: str | None = None
    after: str | None = None
    diff: str | None = None
    file: str | None = None
    framework: str | None = None  # the stack a code change is written for, when it says
    missing: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in (None, "") or k == "kind"}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RenderedStep:
        """The inverse of `to_dict` (a walk saved with a session); unknown keys are ignored."""
        known = {f.name for f in fields(cls)}
        step = cls(**{k: v for k, v in d.items() if k in known})
        step.missing = [str(m) for m in step.missing or []]
        return step


def step_head(number: int, step: RenderedStep) -> str:
    """`3. Lower the batch size…`: the step's number and text (just the number without text)."""
    return f"{number}. {step.text}" if step.text else f"{number}."


def steps_text(steps: list[RenderedStep], lang: str) -> list[str]:
    """The steps as plain text (`tpu-assist walk`): commands and diffs indented by four spaces,
    each command with its risk."""
    from .strings import t

    out: list[str] = []
    for i, step in enumerate(steps, start=1):
        head = step_head(i, step)
        if step.kind == "command":
            risk = t(lang, "cli.risk")
            out += [f"{head}  [{risk}: {step.risk}]", "", "    " + (step.command or ""), ""]
        elif step.kind == "code":
            out += [head, ""] + ["    " + line for line in (step.diff or "").splitlines()] + [""]
        else:
            out += [head, ""]
    return out


def fence(text: str, lang: str = "") -> list[str]:
    """A fenced Markdown block that the content cannot close early."""
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    ticks = "`" * max(3, longest + 1)
    return [ticks + lang, text, ticks]


def steps_markdown(
    steps: list[RenderedStep], lang: str, redact: Callable[[str], str] = str
) -> list[str]:
    """The steps as Markdown (the export): commands in `sh` blocks with their risk, code changes in
    `diff` blocks; `redact` is applied to every text the person's values may appear in."""
    from .strings import t

    out: list[str] = []
    for i, step in enumerate(steps, start=1):
        head = f"{i}. {redact(step.text)}" if step.text else f"{i}."
        if step.kind == "command":
            out += [f"{head} _({t(lang, 'md.risk')}: {step.risk})_", ""]
            out += [*fence(redact(step.command or ""), "sh"), ""]
        elif step.kind == "code":
            out += [head, "", *fence(redact(step.diff or ""), "diff"), ""]
        else:
            out += [head, ""]
    return out


def render_text(template: str, values: dict[str, str]) -> str:
    """Fill placeholders in prose; a value that fails validation is left as `{name}`."""
    safe = {}
    for name in placeholders.placeholders_in(template):
        if name in values:
            with contextlib.suppress(placeholders.PlaceholderError):
                safe[name] = placeholders.validate_value(name, values[name])
    return placeholders.fill(template, safe, quote=False)[0]


def text_missing(text: str) -> list[str]:
    """Placeholders still visible in a rendered text."""
    return placeholders.placeholders_in(text)


# The file a code change is labelled with when its step names none: a language is not a file.
DEFAULT_FILES = {
    "python": "train.py",
    "py": "train.py",
    "bash": "run.sh",
    "sh": "run.sh",
    "shell": "run.sh",
    "yaml": "config.yaml",
    "toml": "pyproject.toml",
}


def diff_label(file: str | None, language: str) -> str | None:
    """`a/<label>` for the diff headers: the step's file, else a file typical of the language,
    else None (the diff then has no file headers)."""
    if file:
        return file
    return DEFAULT_FILES.get(language.lower())


def unified_diff(before: str, after: str, name: str | None = "code") -> str:
    lines = list(
        difflib.unified_diff(
            before.splitlines(),
            after.splitlines(),
            fromfile=f"a/{name}",
            tofile=f"b/{name}",
            lineterm="",
            n=3,
        )
    )
    if name is None:  # a change without a file: hunks only
        lines = lines[2:]
    return "\n".join(lines)


def render_steps(
    steps: list[CommandStep | CodeStep | NoteStep], values: dict[str, str], lang: str
) -> list[RenderedStep]:
    """The steps whose `when` holds, filled with `values`. Where code steps (or commands) are
    variants of one change for several frameworks and the person's framework
    (`values["framework"]`) is one of them, only that variant is shown; otherwise all are, each
    saying which stack it is for.
    Raises placeholders.PlaceholderError when a value must not go into a command."""
    # Here, not at the top: showing saved steps (the export, `walk_text`) needs no schema.
    from .kb.schema import CodeStep, CommandStep, NoteStep

    shown = [s for s in steps if s.when is None or s.when.holds(values)]
    mine = values.get("framework")
    for kind in (CommandStep, CodeStep):  # commands and code changes have variants apart
        variants = {s.framework for s in shown if isinstance(s, kind) and s.framework}
        if mine in variants:  # written for the person's framework too: the others go
            shown = [s for s in shown if not isinstance(s, kind) or s.framework in (None, mine)]
    out: list[RenderedStep] = []
    for step in shown:
        text = render_text(step.text.get(lang), values) if step.text else ""
        in_text = text_missing(text)
        if isinstance(step, CommandStep):
            command, missing = placeholders.fill(step.command, values, quote=True)
            out.append(
                RenderedStep(
                    "command",
                    text,
                    command=command,
                    risk=step.risk,
                    framework=step.framework,
                    missing=list(dict.fromkeys(missing + in_text)),
                )
            )
        elif isinstance(step, CodeStep):
            before, m1 = placeholders.fill(step.before, values, quote=False)
            after, m2 = placeholders.fill(step.after, values, quote=False)
            out.append(
                RenderedStep(
                    "code",
                    text,
                    language=step.language,
                    before=before,
                    after=after,
                    file=step.file,
                    framework=step.framework,
                    diff=unified_diff(before, after, diff_label(step.file, step.language)),
                    missing=list(dict.fromkeys(m1 + m2 + in_text)),
                )
            )
        elif isinstance(step, NoteStep):
            out.append(RenderedStep("note", text, missing=in_text))
    return out


def _comment(text: str, prefix: str = "# ", width: int = 88) -> list[str]:
    """Text as shell comments; prose is wrapped, a diff (prefix "#   ") is kept line for line."""
    out: list[str] = []
    for line in text.splitlines() or [""]:
        if prefix == "# " and len(line) > width:
            out += [prefix + part for part in textwrap.wrap(line, width - len(prefix))]
        else:
            out.append((prefix + line).rstrip())
    return out


def fix_script(
    steps: list[RenderedStep],
    title: str,
    lang: str = "en",
    check: str = "",
    context: list[str] | None = None,
) -> str:
    """The whole fix as one commented shell script: every command in order, each under its step's
    text and its risk label; code changes and notes as comments; placeholders still unfilled are
    named at the top (they stay `{name}` in the commands). Nothing in it was run."""
    from .strings import t

    missing = sorted({m for s in steps for m in s.missing})
    out = ["#!/bin/sh", f"# tpu-assist — {title}"]
    out += [f"# {line}" for line in context or []]
    out.append("# " + t(lang, "script.not_run"))
    if missing:
        out.append("# " + t(lang, "script.missing", names=", ".join(missing)))
    for i, step in enumerate(steps, start=1):
        out.append("")
        head = step_head(i, step)
        if step.kind == "command":
            out += _comment(head)
            out.append("# " + t(lang, "script.risk", risk=t(lang, f"script.risk.{step.risk}")))
            out.append(step.command or "")
        elif step.kind == "code":
            out += _comment(head)
            out.append("# " + t(lang, "script.code", file=step.file or step.language or "code"))
            out += _comment(step.diff or "", "#   ")
        else:
            out += _comment(head)
    if check:
        out.append("")
        out += _comment(t(lang, "script.check", check=check))
    return "\n".join(out) + "\n"
