"""Sessions: atomic save/load, corrupt files set aside with a warning, Markdown export, redaction."""

from __future__ import annotations

import json
import os

import pytest

from assistant import history
from assistant.export import export_session, session_markdown
from assistant.history import Session, Turn


def sample(lang: str = "en") -> Session:
    s = history.new_session(lang)
    fix = {
        "kind": "fix",
        "title": "Lower the batch size",
        "advice": ["Batch 100 is not a multiple of 64"],
        "steps": [
            {
                "kind": "command",
                "risk": "read-only",
                "command": "gcloud compute tpus tpu-vm describe my-tpu --zone=us-central1-b "
                "--project=acme-prod-42",
                "text": "Confirm the accelerator type.",
            },
            {
                "kind": "code",
                "diff": "-GLOBAL_BATCH_SIZE = 100\n+GLOBAL_BATCH_SIZE = 64",
                "text": "Lower the batch.",
            },
            {"kind": "note", "text": "Logs in gs://acme-logs/run1 from 10.1.2.3"},
        ],
        "check": "Training starts.",
        "missing": [],
    }
    s.turns.append(
        Turn(
            query="ResourceExhaustedError: Ran out of memory in memory space hbm\n"
            '  File "/home/ana/train.py", line 3\nreport to ana@example.com, ip 10.1.2.3',
            answer={
                "abstained": False,
                "results": [
                    {
                        "id": "hbm-oom",
                        "title": "Out of TPU memory (HBM)",
                        "score": 0.9,
                        "confidence": 0.93,
                        "why": ["signature 'hbm-used-limit' matched line 1"],
                        "source": "builtin",
                    }
                ],
                "facts": {"key_lines": [{"line": 1, "text": "ResourceExhaustedError"}]},
                "lang": "en",
                "values": {"zone": "us-central1-b"},
                "notes": [],
            },
            entry_id="hbm-oom",
            titles={"en": "Out of TPU memory (HBM)", "pt": "Falta de memória na TPU"},
            path=[["generation", "v3"], ["batch", "100"], ["padding", "yes"]],
            overrides={"project": "acme-prod-42"},
            walk={"en": fix, "pt": {**fix, "title": "Reduza o lote"}},
        )
    )
    return s


def test_save_load_roundtrip(tmp_path):
    s = sample()
    path = history.save_session(s, tmp_path)
    assert path.parent == tmp_path / "sessions" and path.suffix == ".json"
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]  # temp file replaced
    back = history.load_session(path)
    assert back.to_dict() == s.to_dict()
    sessions, warnings = history.list_sessions(tmp_path)
    assert [x.id for x in sessions] == [s.id] and warnings == []
    assert sessions[0].title.startswith("ResourceExhaustedError")


def test_the_questions_asked_instead_of_answered_by_the_text_are_kept():
    """`asked` (questions the person stepped back over) survives a round trip; a session written
    before it existed, or with junk in it, loads with none."""
    turn = Turn(query="TPU is already in use", entry_id="hang-on-error", asked=["in-use"])
    assert Turn.from_dict(json.loads(json.dumps(turn.to_dict()))).asked == ["in-use"]
    old = {k: v for k, v in turn.to_dict().items() if k != "asked"}
    assert Turn.from_dict(old).asked == []
    assert Turn.from_dict({**old, "asked": ["in-use", 3, None]}).asked == ["in-use"]
    assert Turn.from_dict({**old, "asked": "in-use"}).asked == []


def test_atomic_write_keeps_old_file_when_writing_fails(tmp_path, monkeypatch):
    s = sample()
    path = history.save_session(s, tmp_path)
    before = path.read_text()

    def boom(*a, **k):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", boom)
    s.turns[0].path.append(["extra", "1"])
    with pytest.raises(OSError):
        history.save_session(s, tmp_path)
    monkeypatch.undo()
    assert path.read_text() == before
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temp file left behind


@pytest.mark.parametrize(
    "content",
    [
        "{not json",
        '{"format": 1, "id": "x"}',
        "[]",
        '{"format": 99, "id": "a", "created": "c", "updated": "u", "turns": []}',
    ],
)
def test_corrupt_file_is_set_aside_with_a_warning(tmp_path, content):
    good = history.save_session(sample(), tmp_path)
    bad = tmp_path / "sessions" / "broken.json"
    bad.write_text(content)
    sessions, warnings = history.list_sessions(tmp_path)
    assert len(sessions) == 1 and len(warnings) == 1
    assert "broken.json" in warnings[0] and "set aside" in warnings[0]
    assert not bad.exists()
    aside = [p for p in bad.parent.iterdir() if p.name.startswith("broken.json.corrupt-")]
    assert len(aside) == 1 and aside[0].read_text() == content  # kept, not dropped
    assert good.exists()
    assert history.list_sessions(tmp_path)[1] == []  # not reported twice


def test_clip_query_keeps_head_and_tail():
    text = "first line\n" + "x" * (history.QUERY_MAX * 2) + "\nlast error line"
    clipped, cut = history.clip_query(text)
    assert cut and len(clipped) <= history.QUERY_MAX + 5
    assert clipped.startswith("first line") and clipped.endswith("last error line")


def test_export_markdown_content(tmp_path):
    md = session_markdown(sample(), "en")
    assert md.startswith("# tpu-assist session")
    assert "## Question" in md and "Ran out of memory in memory space hbm" in md
    assert "**Out of TPU memory (HBM)** (`hbm-oom`) — confidence 93%" in md
    assert "- generation: v3" in md and "- batch: 100" in md and "- padding: yes" in md
    assert "## Fix: Lower the batch size" in md
    assert "```sh\ngcloud compute tpus tpu-vm describe my-tpu" in md and "_(risk: read-only)_" in md
    assert "```diff\n-GLOBAL_BATCH_SIZE = 100\n+GLOBAL_BATCH_SIZE = 64" in md
    assert "**Check:** Training starts." in md
    pt = session_markdown(sample(), "pt")
    assert "## Pergunta" in pt and "## Correção: Reduza o lote" in pt
    out = export_session(sample(), tmp_path / "s.md", "en")
    assert out.read_text() == md


def test_export_redacts_consistently():
    md = session_markdown(sample(), "en", redact=True)
    for secret in ("acme-prod-42", "10.1.2.3", "ana@example.com", "gs://acme-logs", "/home/ana"):
        assert secret not in md, secret
    assert "--project=PROJECT_1" in md and "IP_1" in md and "EMAIL_1" in md
    assert md.count("IP_1") >= 2  # the same IP gets the same placeholder everywhere
    assert "gcloud compute tpus tpu-vm describe my-tpu" in md  # the rest stays


def test_export_redacts_a_project_only_the_walk_knew():
    """A project the TPU VM gave the walk (`assistant.machine`), in neither the question nor the
    person's values, is redacted where a fix names it in words too."""
    s = sample()
    walk = s.turns[0].walk["en"]
    walk["values"] = {"project": "vm-lab-77"}
    walk["steps"][2]["text"] = "Logs of project vm-lab-77 in gs://acme-logs/run1"
    md = session_markdown(s, "en", redact=True)
    assert "vm-lab-77" not in md and "Logs of project PROJECT_" in md


def test_export_fence_cannot_be_broken():
    s = sample()
    s.turns[0].query = "```\n# injected heading\n```"
    md = session_markdown(s, "en")
    assert "````text\n```\n# injected heading\n```\n````" in md


def test_session_json_is_plain(tmp_path):
    path = history.save_session(sample(), tmp_path)
    data = json.loads(path.read_text())
    assert data["format"] == history.FORMAT and data["turns"][0]["entry_id"] == "hbm-oom"
