"""`tpu-assist history list|export [--redact]` over sessions saved by the interactive assistant."""

from __future__ import annotations

import json

from assistant import history


def _saved(tmp_path):
    s = history.new_session("en")
    s.turns.append(
        history.Turn(
            query="gcloud compute tpus tpu-vm ssh my-tpu --zone=us-central1-b --project=acme-ml-prod\n"
            "ssh: connect to host 34.91.136.59 port 22: Connection timed out (me@corp.example.com)",
            answer={
                "abstained": False,
                "results": [
                    {"id": "ssh-key-propagation", "title": "SSH key", "confidence": 0.9, "why": []}
                ],
                "values": {"project": "acme-ml-prod"},
            },
            entry_id="ssh-key-propagation",
            titles={"en": "SSH key", "pt": "Chave SSH"},
        )
    )
    history.save_session(s, tmp_path)
    return s


def test_history_list_and_export_redacted(tmp_path, run_cli, cli_env):
    s = _saved(tmp_path)
    env = dict(cli_env, TPU_ASSIST_DATA_DIR=str(tmp_path))
    listed = json.loads(run_cli("history", "list", "--json", env=env).stdout)
    assert [x["id"] for x in listed] == [s.id]
    plain = run_cli("history", "export", "1", env=env)
    assert plain.returncode == 0 and b"acme-ml-prod" in plain.stdout
    out = tmp_path / "session.md"
    red = run_cli("history", "export", s.id[:6], "--redact", "-o", str(out), env=env)
    assert red.returncode == 0, red.stderr
    text = out.read_text()
    for secret in ("acme-ml-prod", "34.91.136.59", "me@corp.example.com"):
        assert secret not in text
    assert "PROJECT_1" in text and "IP_1" in text and "EMAIL_1" in text
    missing = run_cli("history", "export", "nope", env=env)
    assert missing.returncode == 2 and b"no session matches" in missing.stderr
