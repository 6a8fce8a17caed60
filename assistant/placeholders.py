"""Placeholders in fix commands (`{tpu_name}`, `{zone}` …): what each may hold, and safe filling.

Values can come from pasted text, so every value is validated against what gcloud accepts for that
kind of name and is always shell-quoted when it is put into a command. A value that fails
validation is refused (never "cleaned up" into something else).
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from .errors import CatalogueError
from .text.ids import PROJECT_ID, RELEASE


@dataclass(frozen=True)
class Placeholder:
    name: str
    pattern: str  # a full-match regex for acceptable values


def described(name: str) -> str:
    """The catalogue key of what a value of `name` is, for the person ("Compute zone, e.g. …")."""
    return f"value.{name}"


# GCE/TPU resource names: lower-case letter first, then letters, digits and hyphens, at most 63.
_RESOURCE = r"[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?"
_NUMBER = r"[0-9]+(?:\.[0-9]+)?"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_EMAIL = rf"[A-Za-z0-9][A-Za-z0-9._%+-]{{0,63}}@{_LABEL}(?:\.{_LABEL})+"

# Each name's description is the catalogue's `value.<name>` (`described`).
KNOWN: dict[str, Placeholder] = {
    p.name: p
    for p in [
        Placeholder("tpu_name", _RESOURCE),
        Placeholder("zone", r"[a-z]+(?:-[a-z]+)*[0-9]+-[a-z]"),
        Placeholder("project", rf"{PROJECT_ID}|[a-z][-a-z0-9.:]{{4,60}}[a-z0-9]"),
        Placeholder("accelerator_type", r"v[0-9]+[a-z]*-[0-9]+"),
        Placeholder("tpu_generation", r"v[0-9]+[a-z]*"),
        Placeholder("ip", r"[0-9]{1,3}(?:\.[0-9]{1,3}){3}"),
        Placeholder("op_name", r"[A-Za-z_][A-Za-z0-9_]{0,127}(?:::[A-Za-z_][A-Za-z0-9_.]{0,127})?"),
        Placeholder("framework", r"tensorflow|jax|pytorch"),
        Placeholder("log_dir", r"[A-Za-z0-9_./-]{1,255}"),
        Placeholder("session", r"[A-Za-z0-9_.-]{1,64}"),
        Placeholder("script", r"[A-Za-z0-9_./-]{1,255}"),
        Placeholder("user_email", _EMAIL),
        Placeholder("service_account", _EMAIL),
        Placeholder("vm_name", _RESOURCE),
        Placeholder("framework_version", RELEASE),
        Placeholder(
            "image",
            # registry host[:port]/path[:tag][@sha256:digest], as `docker run` takes it
            r"[a-z0-9][a-z0-9._-]*(?::[0-9]+)?(?:/[a-z0-9][a-z0-9._-]*)*"
            r"(?::[A-Za-z0-9_][A-Za-z0-9._-]{0,127})?(?:@sha256:[0-9a-f]{64})?",
        ),
        Placeholder("runtime_version", r"[a-z0-9][a-z0-9._-]{0,62}"),
    ]
}

# Numeric placeholders: computed by advice or typed at a number question.
NUMERIC_SUFFIXES = ("_size", "_batch", "_dim", "_gib", "_pct", "_steps", "_count", "_units")


class PlaceholderError(CatalogueError):
    """A value that must not go into a command."""


# Only `{lower_snake_case}` is a placeholder, so code such as `{}` or `{"a": 1}` stays literal.
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


def placeholders_in(template: str) -> list[str]:
    """Names used as `{name}` in a template, in order, without duplicates."""
    return list(dict.fromkeys(PLACEHOLDER.findall(template)))


def is_known(name: str) -> bool:
    return name in KNOWN


def validate_value(name: str, value: str) -> str:
    """Return `value` if it is acceptable for placeholder `name`, else raise PlaceholderError."""
    value = str(value)
    if not value or any(ch in value for ch in "\x00\n\r"):
        raise PlaceholderError("error.value.empty", name=name)
    spec = KNOWN.get(name)
    if spec is not None and value.startswith("~"):
        # Quoted for the shell (or written into Python code) a leading `~` is not expanded: it
        # would name a directory literally called `~`. Say so instead of refusing it vaguely.
        raise PlaceholderError(
            "error.value.tilde",
            name=name,
            value=repr(value),
            example=value.replace("~", "/home/USER", 1),
            rest=value[1:],
        )
    if spec is not None:
        if not re.fullmatch(spec.pattern, value):
            raise PlaceholderError(
                "error.value.invalid",
                phrases={"what": described(name)},
                name=name,
                value=repr(value),
            )
    elif name.endswith(NUMERIC_SUFFIXES) and not re.fullmatch(_NUMBER, value):
        raise PlaceholderError("error.value.not_number", name=name, value=repr(value))
    elif len(value) > 256:
        raise PlaceholderError("error.value.too_long", name=name)
    return value


def fill(template: str, values: dict[str, str], *, quote: bool = True) -> tuple[str, list[str]]:
    """Fill `{name}` placeholders; return the text and the names left unfilled.

    Filled values are validated, then shell-quoted when `quote` (`shlex.quote` leaves safe words
    as they are). Unfilled placeholders stay visible as `{name}`.
    """
    missing: list[str] = []

    def sub(m: re.Match) -> str:
        name = m.group(1)
        value = values.get(name)
        if value in (None, ""):
            if name not in missing:
                missing.append(name)
            return m.group(0)
        v = validate_value(name, str(value))
        return shlex.quote(v) if quote else v

    return PLACEHOLDER.sub(sub, template), missing
