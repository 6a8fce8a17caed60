"""Saved sessions: what was asked, what matched, the answers given and the fix reached.

One JSON file per session in `paths.data_dir()/sessions/`. Writes are atomic (a temporary file in
the same directory, fsync, `os.replace`), so a crash never leaves half a file. A file that cannot
be read back is renamed aside as `<name>.corrupt-<timestamp>` and reported, never silently dropped.
Pure Python: used by the TUI, testable without it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from . import paths
from .fsutil import fsync_dir

FORMAT = 1
OUTCOMES = ("solved", "not_solved")
NAME_MAX = 100  # characters of a key line in a session's name
_ERRORISH = re.compile(
    r"error|exception|fail|fatal|cannot|can't|unable|refused|timed? ?out|denied|killed|"
    r"oom|out of memory|not found|invalid|erro|falh|não",
    re.IGNORECASE,
)
QUERY_MAX = 200_000  # characters of a query kept in a session (a 10 MB paste keeps its head+tail)


class SessionError(ValueError):
    """A session file that is not a valid session."""


def _list(value: object) -> list:
    """`value` if it is a list, else an empty one (a field a hand-edited session got wrong)."""
    return value if isinstance(value, list) else []


@dataclass
class Turn:
    """One question and everything that followed it."""

    query: str
    answer: dict = field(default_factory=dict)  # Answer.to_dict()
    entry_id: str | None = None  # the entry being walked (best match or a chosen candidate)
    titles: dict[str, str] = field(default_factory=dict)  # {"en", "pt"} title of entry_id
    path: list[list[str]] = field(default_factory=list)  # [[node, value], ...] in order
    overrides: dict[str, str] = field(default_factory=dict)  # values the person set
    walk: dict[str, dict] = field(default_factory=dict)  # {"en": Walk.to_dict("en"), "pt": ...}
    query_truncated: bool = False
    outcome: str = ""  # the answer to "did this fix it?": "solved" | "not_solved" | "" (not asked)
    feedback: dict[str, str] = field(default_factory=dict)  # "entry/fix node" -> outcome
    asked: list[str] = field(default_factory=list)  # questions asked instead of answered by a value

    def to_dict(self) -> dict:
        return {
            "query": self.query,
            "query_truncated": self.query_truncated,
            "answer": self.answer,
            "entry_id": self.entry_id,
            "titles": self.titles,
            "path": [list(p) for p in self.path],
            "overrides": self.overrides,
            "walk": self.walk,
            "outcome": self.outcome,
            "feedback": self.feedback,
            "asked": list(self.asked),
        }

    @classmethod
    def from_dict(cls, d: object) -> Turn:
        if not isinstance(d, dict) or not isinstance(d.get("query"), str):
            raise SessionError("a turn must be an object with a string 'query'")
        path = d.get("path") or []
        if not isinstance(path, list) or not all(
            isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(x, str) for x in p)
            for p in path
        ):
            raise SessionError("'path' must be a list of [node, value] pairs")
        for name in ("answer", "titles", "overrides", "walk", "feedback"):
            if not isinstance(d.get(name) or {}, dict):
                raise SessionError(f"'{name}' must be an object")
        entry_id = d.get("entry_id")
        if entry_id is not None and not isinstance(entry_id, str):
            raise SessionError("'entry_id' must be a string")
        overrides = d.get("overrides") or {}
        return cls(
            query=d["query"],
            answer=d.get("answer") or {},
            entry_id=entry_id,
            titles={str(k): str(v) for k, v in (d.get("titles") or {}).items()},
            path=[list(p) for p in path],
            overrides={str(k): str(v) for k, v in overrides.items()},
            walk=d.get("walk") or {},
            query_truncated=bool(d.get("query_truncated")),
            outcome=str(d["outcome"]) if d.get("outcome") in OUTCOMES else "",
            feedback={
                str(k): str(v) for k, v in (d.get("feedback") or {}).items() if v in OUTCOMES
            },
            asked=[n for n in _list(d.get("asked")) if isinstance(n, str)],
        )

    def key_line(self) -> str:
        """The line of the question that matters: the last exception of a trace (its type and
        message), else the first line that reads like an error, else the first line — with log
        prefixes (timestamps, glog/absl headers, shell prompts) stripped."""
        facts = (self.answer or {}).get("facts") or {}
        excs = [e for e in facts.get("exceptions") or [] if isinstance(e, dict) and e.get("type")]
        if excs:
            e = excs[-1]
            kind = str(e["type"]).rsplit(".", 1)[-1]  # errors_impl.ResourceExhaustedError
            msg = str(e.get("message") or "").strip()
            return _clip(f"{kind}: {msg}" if msg else kind)
        lines = [
            str(k.get("text", "")) for k in facts.get("key_lines") or [] if isinstance(k, dict)
        ]
        if not lines:
            from .text.normalize import normalize

            try:
                lines = list(normalize(self.query[:20_000]).lines)
            except Exception:  # a name for a list must never fail
                lines = self.query[:20_000].splitlines()
        lines = [line.strip() for line in lines if line.strip()]
        for line in lines:
            if _ERRORISH.search(line):
                return _clip(line)
        # a notebook cell's `!pip install …` or `%env …` says nothing of what the code is
        code = [line for line in lines if not line.startswith(("!", "%"))]
        return _clip((code or lines)[0]) if lines else ""

    def entry_title(self, lang: str = "en") -> str:
        """The title of the entry walked (or of the best match)."""
        if self.titles:
            return self.titles.get(lang) or self.titles.get("en") or ""
        results = (self.answer or {}).get("results") or []
        if results and not (self.answer or {}).get("abstained"):
            return str(results[0].get("title") or "")
        return ""


@dataclass
class Session:
    id: str
    created: str  # ISO 8601, local time
    updated: str
    lang: str = "en"
    turns: list[Turn] = field(default_factory=list)

    @property
    def title(self) -> str:
        """The first meaningful line of the first question, as typed or pasted (kept for
        scripts reading `history list --json`; lists show `name`)."""
        for turn in self.turns:
            for line in turn.query.splitlines():
                if line.strip():
                    return line.strip()[:100]
        return ""

    def main_turn(self) -> Turn | None:
        """The turn a session is about: the last one that matched an entry, else the last one."""
        for turn in reversed(self.turns):
            if turn.entry_id or turn.entry_title():
                return turn
        return self.turns[-1] if self.turns else None

    def name(self, lang: str = "en") -> str:
        """What matters, not the first line of a paste: "<entry title> — <key line>"."""
        turn = self.main_turn()
        if turn is None:
            return ""
        title, line = turn.entry_title(lang), turn.key_line()
        return f"{title} — {line}" if title and line else title or line

    @property
    def outcome(self) -> str:
        """ "solved" / "not_solved" as the person said at the end of a fix ("" if never asked):
        that of the main turn, else the last one given."""
        turn = self.main_turn()
        if turn is not None and turn.outcome:
            return turn.outcome
        return next((t.outcome for t in reversed(self.turns) if t.outcome), "")

    def to_dict(self) -> dict:
        return {
            "format": FORMAT,
            "id": self.id,
            "created": self.created,
            "updated": self.updated,
            "lang": self.lang,
            "turns": [t.to_dict() for t in self.turns],
        }

    @classmethod
    def from_dict(cls, d: object) -> Session:
        if not isinstance(d, dict):
            raise SessionError("not a JSON object")
        if d.get("format") != FORMAT:
            raise SessionError(f"unknown format {d.get('format')!r}")
        for name in ("id", "created", "updated"):
            if not isinstance(d.get(name), str) or not d[name]:
                raise SessionError(f"missing '{name}'")
        turns = d.get("turns")
        if not isinstance(turns, list):
            raise SessionError("'turns' must be a list")
        lang = "pt" if d.get("lang") == "pt" else "en"
        return cls(d["id"], d["created"], d["updated"], lang, [Turn.from_dict(t) for t in turns])


def _clip(line: str) -> str:
    line = " ".join(line.split())
    return line if len(line) <= NAME_MAX else line[: NAME_MAX - 1] + "…"


def _now() -> str:
    return datetime.now().isoformat(timespec="seconds")


def new_session(lang: str = "en") -> Session:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    now = _now()
    return Session(f"{stamp}-{secrets.token_hex(3)}", now, now, lang)


def clip_query(text: str) -> tuple[str, bool]:
    """A query as stored: whole up to QUERY_MAX characters, else its head and tail."""
    if len(text) <= QUERY_MAX:
        return text, False
    head = QUERY_MAX // 4
    return text[:head] + "\n…\n" + text[-(QUERY_MAX - head) :], True


def sessions_dir(base: Path | None = None) -> Path:
    return Path(base if base is not None else paths.data_dir()) / "sessions"


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` so that readers see either the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)  # make the rename itself durable


def session_path(session_id: str, base: Path | None = None) -> Path:
    if not session_id or "/" in session_id or "\\" in session_id or session_id.startswith("."):
        raise SessionError(f"bad session id {session_id!r}")
    return sessions_dir(base) / f"{session_id}.json"


def save_session(session: Session, base: Path | None = None) -> Path:
    session.updated = _now()
    path = session_path(session.id, base)
    atomic_write_text(path, json.dumps(session.to_dict(), ensure_ascii=False, indent=1))
    return path


def load_session(path: Path) -> Session:
    """Read one session; raises SessionError (or OSError) when the file is not a valid session."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SessionError(f"not valid JSON: {exc}") from None
    return Session.from_dict(data)


def set_aside(path: Path) -> Path:
    """Rename a broken file out of the way (kept for inspection, no longer listed)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    os.replace(path, target)
    return target


def list_sessions(base: Path | None = None) -> tuple[list[Session], list[str]]:
    """Every readable session, newest first, and a warning for each file set aside."""
    folder = sessions_dir(base)
    sessions: list[Session] = []
    warnings: list[str] = []
    if not folder.is_dir():
        return sessions, warnings
    for path in sorted(folder.glob("*.json")):
        try:
            sessions.append(load_session(path))
        except (SessionError, OSError) as exc:
            try:
                moved = set_aside(path)
                warnings.append(f"{path.name}: {exc} — set aside as {moved.name}")
            except OSError as exc2:
                warnings.append(f"{path.name}: {exc} (could not set it aside: {exc2})")
    sessions.sort(key=lambda s: (s.updated, s.id), reverse=True)
    return sessions, warnings
