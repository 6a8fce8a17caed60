"""Redaction for exported sessions: project ids, IPs, emails, bucket names and home paths are
replaced by stable placeholders (the same value always gets the same placeholder in one text)."""

from __future__ import annotations

import re

# Order matters: emails before bare hosts, buckets and home paths before generic words.
_RULES: list[tuple[str, re.Pattern]] = [
    ("email", re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")),
    ("bucket", re.compile(r"\bgs://[a-z0-9][-_.a-z0-9]{1,220}")),
    ("home", re.compile(r"(?:/home/|/Users/)[^/\s'\"]+|~[A-Za-z0-9_.-]+")),
    ("ip", re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")),
    ("project", re.compile(r"(?<=projects/)[a-z][-a-z0-9]{4,28}[a-z0-9]\b"
                           r"|(?<=--project=)[a-z][-a-z0-9]{4,28}[a-z0-9]\b"
                           r"|(?<=--project )[a-z][-a-z0-9]{4,28}[a-z0-9]\b")),
]
_LABEL = {"email": "EMAIL", "bucket": "gs://BUCKET", "home": "/home/USER", "ip": "IP",
          "project": "PROJECT"}


def redact_text(text: str, known: dict[str, str] | None = None) -> str:
    """Replace sensitive values; `known` maps values already seen to their placeholder so several
    texts of one session stay consistent."""
    seen = known if known is not None else {}
    def sub_for(kind: str):
        label = _LABEL[kind]

        def sub(m: re.Match) -> str:
            value = m.group(0)
            if value not in seen:
                n = 1 + sum(1 for v in seen.values() if v.rsplit("_", 1)[0] == label)
                seen[value] = f"{label}_{n}"
            return seen[value]
        return sub

    for kind, rx in _RULES:
        text = rx.sub(sub_for(kind), text)
    return text
