"""Redaction for exported sessions: project ids, IPs, emails, bucket names and home paths are
replaced by stable placeholders (the same value always gets the same placeholder in one text)."""

from __future__ import annotations

import re
from collections.abc import Callable

from .text.ids import PROJECT_ID

# Order matters: emails before bare hosts, buckets and home paths before generic words.
_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("email", re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")),
    ("bucket", re.compile(r"\bgs://[a-z0-9][-_.a-z0-9]{1,220}")),
    ("home", re.compile(r"(?:/home/|/Users/)[^/\s'\"]+|~[A-Za-z0-9_.-]+")),
    ("ip", re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}\b")),
    ("project", re.compile(rf"(?:(?<=projects/)|(?<=--project=)|(?<=--project )){PROJECT_ID}\b")),
]
_LABEL = {
    "email": "EMAIL",
    "bucket": "gs://BUCKET",
    "home": "/home/USER",
    "ip": "IP",
    "project": "PROJECT",
}


def placeholder_for(value: str, label: str, known: dict[str, str]) -> str:
    """The stable placeholder of `value`: `LABEL_n`, numbered per label in order of first sight.
    `known` (value -> placeholder) is updated, so later texts reuse the same placeholder."""
    if value not in known:
        n = 1 + sum(1 for v in known.values() if v.rsplit("_", 1)[0] == label)
        known[value] = f"{label}_{n}"
    return known[value]


def redact_text(text: str, known: dict[str, str] | None = None) -> str:
    """Replace sensitive values; `known` maps values already seen to their placeholder so several
    texts of one session stay consistent."""
    seen = known if known is not None else {}

    def sub_for(kind: str) -> Callable[[re.Match[str]], str]:
        label = _LABEL[kind]

        def sub(m: re.Match[str]) -> str:
            return placeholder_for(m.group(0), label, seen)

        return sub

    for kind, rx in _RULES:
        text = rx.sub(sub_for(kind), text)
    return text
