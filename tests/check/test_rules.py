"""Every rule against its fixtures (tests/check/fixtures/<CODE>/): real-looking scripts it must
flag — line, column and found values asserted — and near misses it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.check import RULES, Selection, check_source

from .markers import FIXTURES, expected, fixture_files

CHECKED = [code for code in RULES if code not in ("TPU001", "TPU002")]


def _id(p: Path) -> str:
    return f"{p.parent.name}/{p.name}"


@pytest.mark.parametrize("path", fixture_files(), ids=_id)
def test_fixture_findings_are_exactly_the_marked_ones(path: Path):
    code = path.parent.name
    wanted = expected(path)
    assert all(e.code == code for e in wanted), f"{path}: markers of another rule"
    found = check_source(path.read_text(), str(path), Selection(select=(code,)))
    got = [(f.line, f.col, f.code) for f in found]
    assert got == [(e.line, e.col, e.code) for e in wanted]
    for f, e in zip(found, wanted, strict=True):
        carried = {**f.values, **f.answers}
        for k, v in e.values.items():
            assert carried.get(k) == v, f"{path.name}:{f.line}: {k}={carried.get(k)!r}, want {v}"
        assert f.entry == RULES[code].entry


@pytest.mark.parametrize("code", CHECKED)
def test_every_rule_has_flagged_and_near_miss_fixtures(code: str):
    files = sorted((FIXTURES / code).glob("*.py"))
    assert files, f"no fixtures for {code}"
    assert any(expected(f) for f in files), f"{code}: no fixture it must flag"
    near = [f for f in files if not expected(f)] + [
        f for f in files if "near miss" in f.read_text()
    ]
    assert near, f"{code}: no near miss"


@pytest.mark.parametrize("code", [c for c in CHECKED if RULES[c].tpu_only])
def test_tpu_rules_have_a_script_without_tpu_that_they_leave_alone(code: str):
    import ast

    from assistant.check.facts import collect

    quiet = []
    for f in sorted((FIXTURES / code).glob("*.py")):
        facts = collect(ast.parse(f.read_text()))
        if not facts.tpu:
            quiet.append(f)
            assert not expected(f)
    assert quiet, f"{code} is TPU-only: add a fixture with no TPU (a GPU script) it must not flag"


def test_every_fixture_dir_is_a_rule():
    dirs = {d.name for d in FIXTURES.iterdir() if d.is_dir() and not d.name.startswith("_")}
    assert dirs <= set(RULES), dirs - set(RULES)
    assert set(CHECKED) <= dirs


def test_readme_table_lists_every_rule_with_its_entry():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Checking your code", 1)[1].split("\n## ", 1)[0]
    for rule in RULES.values():
        row = f"| {rule.code} | {rule.entry or '–'} | {rule.summary('en')} | "
        assert row in section, f"README rule table: {rule.code} missing or stale"
