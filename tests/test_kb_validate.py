"""Schema + lint: the real knowledge base is clean, and each code fires on its broken fixture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.kb import validate
from assistant.kb.problems import CODES

BROKEN = Path(__file__).parent / "fixtures" / "broken"
KNOWLEDGE = Path(__file__).resolve().parent.parent / "knowledge"


def test_builtin_knowledge_is_valid():
    result, problems = validate([KNOWLEDGE])
    assert [str(p) for p in problems] == []
    assert len(result.entries) >= 3


def test_valid_sample_passes():
    result, problems = validate([BROKEN / "valid"])
    assert problems == [] and len(result.entries) == 1


def test_every_code_has_a_failing_fixture():
    assert sorted(p.name for p in BROKEN.iterdir() if p.name != "valid") == sorted(CODES)


@pytest.mark.parametrize("code", sorted(CODES))
def test_code_fires_on_its_fixture(code):
    _, problems = validate([BROKEN / code])
    codes = {p.code for p in problems}
    assert code in codes, [str(p) for p in problems]
    for p in problems:
        assert p.path.endswith(".yaml") and p.location and p.message


def test_problem_format_names_file_and_field():
    _, problems = validate([BROKEN / "E004"])
    line = str(problems[0])
    assert line.startswith(str(BROKEN / "E004" / "sample-entry.yaml") + ":frameworks[0]: E004 ")


def test_yaml_error_reports_line():
    _, problems = validate([BROKEN / "E001"])
    assert problems[0].location.isdigit()


def test_cli_validate_exit_codes(run_cli):
    bad = run_cli("kb", "validate", str(BROKEN / "E020"))
    assert bad.returncode == 2
    assert b": E020 " in bad.stdout
    ok = run_cli("kb", "validate")
    assert ok.returncode == 0, ok.stdout.decode() + ok.stderr.decode()
    js = run_cli("kb", "validate", "--json", str(BROKEN / "E022"))
    data = json.loads(js.stdout)
    assert js.returncode == 2 and data["problems"][0]["code"] == "E022"
    missing = run_cli("kb", "validate", "/nonexistent/dir")
    assert missing.returncode == 2 and b"Traceback" not in missing.stderr


def test_every_code_is_in_the_readme_lint_table():
    """The README's table of lint codes ("Adding an entry") names every code the linter has."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    table = readme.split("### Adding an entry", 1)[1].split("\n## ", 1)[0]
    assert [code for code in CODES if f"| {code} |" not in table] == []
