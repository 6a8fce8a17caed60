"""Issue 15: one catalogue of user-facing strings (assistant/strings.py), in both languages, read by
the CLI, the export, the engine's explanations and the TUI — and no second catalogue anywhere."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from assistant.answer import OUTSIDE_NOTES
from assistant.placeholders import KNOWN, PlaceholderError, described, validate_value
from assistant.strings import LANGS, STRINGS, locale_lang, pct, t
from assistant.text.outside import KINDS

PACKAGE = Path(__file__).resolve().parent.parent / "assistant"
# errors whose message is a catalogue key (assistant/errors.py's CatalogueError and its kind)
ERRORS = {"CatalogueError", "WalkError", "PlaceholderError"}


def _key_of(node: ast.AST) -> ast.expr | None:
    """The key argument of a lookup: `t(lang, "key", …)`, or `advice.Advice.say("key", …)`
    (which looks the key up in both languages)."""
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Name) and node.func.id == "t" and len(node.args) >= 2:
        return node.args[1]
    if isinstance(node.func, ast.Attribute) and node.func.attr == "say" and node.args:
        return node.args[0]
    if isinstance(node.func, ast.Name) and node.func.id in ERRORS and node.args:
        return node.args[0]
    return None


def _keys_used() -> dict[str, list[tuple[str, bool]]]:
    """Literal keys of every lookup in the package -> (where, with values)."""
    used: dict[str, list[tuple[str, bool]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            key = _key_of(node)
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                assert isinstance(node, ast.Call)
                where = f"{path.relative_to(PACKAGE)}:{node.lineno}"
                used.setdefault(key.value, []).append((where, bool(node.keywords)))
    return used


def test_every_key_used_exists():
    used = _keys_used()
    assert len(used) > 100  # the scan found the calls
    missing = {k: v for k, v in used.items() if k not in STRINGS}
    assert not missing, f"keys missing from assistant/strings.py: {missing}"
    # A string is always formatted: one looked up without values must name none.
    fields = string.Formatter()
    unfilled = [
        f"{where}: {key}"
        for key, calls in used.items()
        for where, with_values in calls
        if not with_values and any(f for _, f, _, _ in fields.parse(STRINGS[key][0]))
    ]
    assert not unfilled, unfilled


def test_advice_and_notes_are_looked_up():
    """advice.py says its sentences, and the engine its notes, through the catalogue: every
    `advice.*` and `note.*` key is used, and advice.py keeps no words of its own (a string literal,
    not a docstring, with two words in a row)."""
    used = _keys_used()
    # the notes of the problems outside the guide are looked up through a table of their keys
    used.update({key: [] for keys in OUTSIDE_NOTES.values() for key in keys})
    for prefix in ("advice.", "note."):
        keys = {k for k in STRINGS if k.startswith(prefix)}
        assert keys and keys <= set(used), sorted(keys - set(used))
    words = re.compile(r"[^\W\d_]{2,} [^\W\d_]{2,}")
    tree = ast.parse((PACKAGE / "advice.py").read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    sentences = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and words.search(node.value)
        and id(node) not in docstrings
    ]
    assert not sentences, sentences


def test_errors_and_value_descriptions_are_looked_up():
    """Every `error.*` key is raised somewhere, and every value a command may hold is described in
    both languages (the F6 dialog, and the message refusing it)."""
    used = _keys_used()
    errors = {k for k in STRINGS if k.startswith("error.")}
    assert errors and errors <= set(used), sorted(errors - set(used))
    values = {k for k in STRINGS if k.startswith("value.")}
    assert values == {described(name) for name in KNOWN}
    with pytest.raises(PlaceholderError) as caught:
        validate_value("accelerator_type", "v5 lite")
    assert caught.value.message("pt") == (
        "accelerator_type: 'v5 lite' não é válido aqui (esperado: tipo de acelerador, p. ex. v3-8)"
    )
    assert str(caught.value).endswith("(expected: Accelerator type, e.g. v3-8)")


def test_every_problem_outside_the_guide_has_its_notes():
    assert set(OUTSIDE_NOTES) == set(KINDS)
    missing = [key for keys in OUTSIDE_NOTES.values() for key in keys if key not in STRINGS]
    assert not missing, missing


def test_both_languages_and_the_same_placeholders():
    fields = string.Formatter()
    for key, pair in STRINGS.items():
        assert len(pair) == len(LANGS) and all(pair), key
        names = [{f for _, f, _, _ in fields.parse(text) if f} for text in pair]
        assert names[0] == names[1], f"{key}: {names}"


def test_no_second_catalogue():
    """No other module keeps its own table of texts per language (`LABELS = {"en": …}`,
    `STRINGS = {…}`) — they all read assistant/strings.py."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "strings.py" and path.parent == PACKAGE:
            continue
        text = path.read_text()
        if re.search(r'^\w+\s*(:[^=]*)?=\s*\{\s*\n\s*"(en|pt)":\s*\{', text, re.M) or re.search(
            r"^STRINGS\b", text, re.M
        ):
            offenders.append(str(path.relative_to(PACKAGE)))
    assert not offenders, offenders


def test_lookup_helpers():
    assert t("pt", "status.ready") == "pronto" and t("xx", "status.ready") == "ready"
    assert t("en", "walk.missing", names="zone").startswith("Still to fill in: zone")
    assert pct(0.004) == "<1%" and pct(0.876) == "88%"
    assert pct(0.994) == "99%" and pct(0.995) == ">99%" and pct(1.0) == ">99%"
    assert locale_lang({"LANG": "pt_BR.UTF-8"}) == "pt"
    assert locale_lang({"LC_ALL": "C", "LANG": "pt_BR"}) == "en" and locale_lang({}) == "en"
