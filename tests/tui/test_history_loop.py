"""Issue 13, outside the screen: sessions named by what matters, outcomes saved, listed by the CLI
(`history list`) and exported; the whole fix as one commented shell script (render.fix_script)."""

from __future__ import annotations

import json

from assistant import history
from assistant.export import session_markdown
from assistant.render import fix_script

from .conftest import HBM_TRACE


def _session(tmp_path, outcome: str = "solved") -> history.Session:
    s = history.new_session("en")
    s.turns.append(
        history.Turn(
            query=HBM_TRACE,
            answer={
                "abstained": False,
                "results": [{"id": "hbm-oom", "title": "HBM", "confidence": 0.9, "why": []}],
                "facts": {
                    "exceptions": [
                        {
                            "type": "tensorflow.python.framework.errors_impl."
                            "ResourceExhaustedError",
                            "message": "Ran out of memory in memory space hbm; used: 9.82G.",
                        }
                    ]
                },
            },
            entry_id="hbm-oom",
            titles={"en": "Out of TPU memory (HBM)", "pt": "Falta de memória na TPU (HBM)"},
            outcome=outcome,
            feedback={"hbm-oom/lower-batch": "not_solved", "hbm-oom/remove-padding": outcome},
        )
    )
    history.save_session(s, tmp_path)
    return s


def test_a_session_is_named_by_its_entry_and_key_line_not_a_timestamp(tmp_path):
    s = _session(tmp_path)
    name = s.name("en")
    assert name == (
        "Out of TPU memory (HBM) — ResourceExhaustedError: Ran out of memory in memory space hbm; "
        "used: 9.82G."
    )
    assert s.name("pt").startswith("Falta de memória na TPU (HBM) — ResourceExhaustedError")
    back = history.load_session(history.session_path(s.id, tmp_path))
    assert back.outcome == "solved" and back.turns[0].feedback == s.turns[0].feedback


def test_key_line_without_facts_skips_log_prefixes():
    turn = history.Turn(
        query="I0302 11:04:01.118123 12345 tpu_driver.cc:101] step 1 compiling...\n"
        "2024-03-02 11:04:02 WARNING connection to the TPU failed: deadline exceeded\n"
    )
    assert turn.key_line() == "WARNING connection to the TPU failed: deadline exceeded"
    assert history.Turn(query="my ssh session keeps dropping").key_line() == (
        "my ssh session keeps dropping"
    )
    cell = (
        "!pip install -q torch_xla\n%env PJRT_DEVICE=TPU\nimport torch_xla\nloader = DataLoader(ds)"
    )
    assert history.Turn(query=cell).key_line() == "import torch_xla"


def test_old_or_odd_outcomes_read_back_safely():
    turn = history.Turn.from_dict({"query": "q", "outcome": "maybe", "feedback": {"a/b": "x"}})
    assert turn.outcome == "" and turn.feedback == {}
    assert history.Turn.from_dict({"query": "q"}).outcome == ""  # sessions saved before


def test_history_list_shows_the_name_and_the_outcome(tmp_path, run_cli, cli_env):
    solved = _session(tmp_path, "solved")
    env = dict(cli_env, TPU_ASSIST_DATA_DIR=str(tmp_path))
    out = run_cli("history", "list", env=env).stdout.decode()
    assert solved.id in out and "solved" in out and "not solved" not in out
    assert "Out of TPU memory (HBM) — ResourceExhaustedError: Ran out of memory" in out
    assert "I0302" not in out
    rows = json.loads(run_cli("history", "list", "--json", env=env).stdout)
    assert rows[0]["outcome"] == "solved" and rows[0]["entry"] == "hbm-oom"
    assert rows[0]["name"].startswith("Out of TPU memory (HBM) — ResourceExhaustedError")
    assert rows[0]["key_line"].startswith("ResourceExhaustedError: Ran out of memory")
    pt = run_cli("--lang", "pt", "history", "list", env=env).stdout.decode()
    assert "resolvido" in pt and "Falta de memória na TPU (HBM)" in pt


def test_history_list_not_solved(tmp_path, run_cli, cli_env):
    _session(tmp_path, "not_solved")
    env = dict(cli_env, TPU_ASSIST_DATA_DIR=str(tmp_path))
    assert "not solved" in run_cli("history", "list", env=env).stdout.decode()


def test_export_writes_the_outcome_and_the_fixes_tried(tmp_path):
    md = session_markdown(_session(tmp_path), "en")
    assert "**Outcome:** solved" in md
    assert "- `hbm-oom/lower-batch`: not solved" in md
    assert "**Resultado:** resolvido" in session_markdown(_session(tmp_path), "pt")


def test_fix_script_lists_every_command_in_order_with_risk_comments(kb):
    from assistant.walk import walk

    w = walk(
        kb.get("hbm-oom"),
        {"generation": "v3", "batch": "100", "padding": "yes"},
        values={"tpu_name": "my-tpu", "zone": "us-central1-b"},
    )
    steps = w.steps("pt")
    script = fix_script(steps, "Título", "pt", check="Verifique", context=["hbm-oom"])
    lines = script.splitlines()
    assert lines[0] == "#!/bin/sh" and lines[1] == "# tpu-assist — Título"
    commands = [s.command for s in steps if s.kind == "command"]
    assert [line for line in lines if not line.startswith("#") and line] == commands
    assert "# risco: somente leitura" in lines
    assert lines[-1] == "# Verificação: Verifique"
    assert all(len(line) <= 100 for line in lines if line.startswith("# "))


def test_fix_script_names_what_is_still_to_fill_in(kb):
    from assistant.walk import walk

    w = walk(kb.get("hbm-oom"), {"generation": "v3", "batch": "100", "padding": "yes"})
    script = fix_script(w.steps("en"), "t", "en")
    assert "# Still to fill in (left as {name} below): tpu_name, zone" in script
    assert "{tpu_name}" in script
