"""Redaction placeholders, and one definition of a project id shared by the parser, the redactor
and the placeholder rules."""

from __future__ import annotations

import pytest

from assistant import placeholders
from assistant.redact import placeholder_for, redact_text
from assistant.text.parse import parse


def test_placeholders_are_numbered_per_label_and_stable():
    known: dict[str, str] = {}
    assert placeholder_for("a@x.io", "EMAIL", known) == "EMAIL_1"
    assert placeholder_for("10.0.0.1", "IP", known) == "IP_1"
    assert placeholder_for("b@x.io", "EMAIL", known) == "EMAIL_2"
    assert placeholder_for("a@x.io", "EMAIL", known) == "EMAIL_1"


def test_project_ids_are_redacted_the_same_everywhere_in_a_session():
    known: dict[str, str] = {}
    first = redact_text("gcloud config set project x --project=acme-prod-42", known)
    second = redact_text(
        "error in projects/acme-prod-42/zones/us-central1-b; also --project other-proj-7", known
    )
    assert first.endswith("--project=PROJECT_1")
    assert "projects/PROJECT_1/" in second and "--project PROJECT_2" in second


@pytest.mark.parametrize(
    ("project", "valid"),
    [
        ("acme-prod-42", True),
        ("my-proj-123", True),
        ("short", False),
        ("Upper-case-1", False),
        ("ends-with-hyphen-", False),
    ],
)
def test_parser_redactor_and_placeholders_agree_on_project_ids(project, valid):
    facts = parse(f"gcloud compute tpus tpu-vm list --project={project} --zone=us-central1-b")
    assert (facts.project == project) is valid
    if valid:  # (redaction may also hide the valid-looking part of an invalid id: no harm)
        assert redact_text(f"--project={project} ") == "--project=PROJECT_1 "
    try:
        placeholders.validate_value("project", project)
        accepted = True
    except placeholders.PlaceholderError:
        accepted = False
    assert accepted is valid
