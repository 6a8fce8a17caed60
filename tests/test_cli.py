"""The CLI contract (scripts rely on it): `ask`, `ask --jsonl`, `walk`, `kb list`, exit codes."""

from __future__ import annotations

import json
import shlex

HBM = "ResourceExhaustedError: Ran out of memory in memory space hbm; used: 9.82G; limit: 7.48G."


def test_ask_json_shape(run_cli):
    r = run_cli("ask", "--json", HBM)
    assert r.returncode == 0, r.stderr.decode()
    data = json.loads(r.stdout)
    assert set(data) >= {"abstained", "results", "facts"}
    assert data["abstained"] is False
    assert 1 <= len(data["results"]) <= 5
    for res in data["results"]:
        assert set(res) >= {"id", "title", "score", "confidence", "why"}
        assert 0.0 <= res["confidence"] <= 1.0 and isinstance(res["why"], list)
    assert data["results"][0]["id"] == "hbm-oom"
    assert data["facts"]["exceptions"][0]["type"] == "ResourceExhaustedError"


def test_ask_reads_stdin_and_top(run_cli):
    r = run_cli("ask", "--json", "--top", "2", "-", input=HBM)
    data = json.loads(r.stdout)
    assert r.returncode == 0 and len(data["results"]) == 2


def test_ask_reads_a_log_file_named_as_its_argument(run_cli, tmp_path):
    log = tmp_path / "train.log"
    log.write_bytes(b"step 1\n" + HBM.encode() + b"\n")
    data = json.loads(run_cli("ask", "--json", str(log)).stdout)
    assert data["results"][0]["id"] == "hbm-oom" and not data["abstained"]
    # the file's own line numbers
    assert any(k["line"] == 2 and "hbm" in k["text"] for k in data["facts"]["key_lines"])


def test_ask_on_a_log_path_that_is_not_there_says_so(run_cli, tmp_path):
    # a typo in the path: an error and exit 2, not an answer to the words "train" and "log"
    missing = tmp_path / "runs" / "trian.log"
    r = run_cli("ask", "--json", str(missing))
    assert r.returncode == 2 and r.stdout == b""
    assert b"no such file" in r.stderr and b"Traceback" not in r.stderr


def test_ask_on_a_script_points_to_check(run_cli, tmp_path):
    script = tmp_path / "train.py"
    script.write_text("import jax\nprint(jax.devices())\n")
    r = run_cli("ask", "--json", str(script))
    assert r.returncode == 0 and "results" in json.loads(r.stdout)  # stdout stays one JSON
    assert f"tpu-assist check {script}".encode() in r.stderr


def test_ask_reads_the_errors_a_notebook_saved(run_cli, tmp_path):
    from notebooks import cell, failed_notebook, notebook_bytes

    failed = tmp_path / "failed.ipynb"
    failed.write_bytes(failed_notebook())
    data = json.loads(run_cli("ask", "--json", str(failed)).stdout)
    assert data["results"][0]["id"] == "hbm-oom" and not data["abstained"]
    clean = tmp_path / "clean.ipynb"
    clean.write_bytes(notebook_bytes(cell("import jax\n")))
    r = run_cli("ask", str(clean))
    assert r.returncode == 2 and b"no cell saved an error" in r.stderr
    assert b"tpu-assist check" in r.stderr and b"Traceback" not in r.stderr


def test_ask_plain_text_and_lang(run_cli):
    r = run_cli("ask", "--lang", "pt", HBM)
    out = r.stdout.decode()
    assert r.returncode == 0 and "Melhor correspondência" in out and "hbm-oom" in out
    # confidences read as the TUI shows them: a percentage, never "1.00" for a fitted probability
    assert "confiança >99%" in out and "1.00" not in out


def test_the_guided_fix_command_goes_on_with_every_value_found(run_cli):
    """The hint carries what the input showed, as the TUI's walk does: run as printed, it answers
    the generation from the accelerator type and sizes the batch from the HBM figures."""
    oom = (
        "RuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in "
        "memory space hbm. Used 17.5G of 15.75G hbm. on my v5e-8 in us-west4-a"
    )
    out = run_cli("ask", oom).stdout.decode()
    hint = out.strip().splitlines()[-1]
    command = shlex.split(hint.split(": ", 1)[1])
    assert command[:3] == ["tpu-assist", "walk", "hbm-oom"]
    sets = dict(
        v.split("=", 1)
        for flag, v in zip(command[3::2], command[4::2], strict=True)
        if flag == "--set"
    )
    assert sets["accelerator_type"] == "v5e-8" and sets["zone"] == "us-west4-a"
    assert sets["hbm_used"] == "17.5G" and "tpu_generation" not in sets  # derived again
    walked = run_cli(*command[1:], "--answer", "batch=256").stdout.decode()
    assert "generation = v5e" in walked and "The run needed 17.5 GiB of 15.75 GiB" in walked


def test_ask_abstains_plainly(run_cli):
    r = run_cli("ask", "--json", "ModuleNotFoundError: No module named 'pandas'")
    assert r.returncode == 0 and json.loads(r.stdout)["abstained"] is True
    r = run_cli("ask", "ModuleNotFoundError: No module named 'pandas'")
    assert b"No confident match" in r.stdout


def test_plain_text_notes_are_in_the_asked_language_and_said_once(run_cli):
    """`ask --json` keeps its notes in English; the plain text shows them in the person's language,
    and a refusal that explains itself at length is not preceded by its short English form."""
    r = run_cli(
        "ask", "--lang", "pt", "treino na TPU morre\nOSError: [Errno 12] Cannot allocate memory"
    )
    out = r.stdout.decode()
    assert r.returncode == 0 and "acabou a RAM da própria máquina" in out
    assert out.count("Cannot allocate memory") == 1 and "Nota:" not in out
    assert "says the machine's own RAM" not in out
    data = json.loads(
        run_cli("ask", "--json", "--lang", "pt", "OSError: Cannot allocate memory").stdout
    )
    assert data["abstained"] and "says the machine's own RAM ran out" in data["notes"][0]
    out = run_cli("ask", "--lang", "pt", "--top", "1", "x\n" * 30_000).stdout.decode()
    assert "Nota: a entrada foi reduzida" in out


def test_a_refusal_for_another_device_or_service_says_so(run_cli):
    """Refused because the report is about a GPU, or another Google API, and shows no TPU: the
    hint names what was read, keeps the model's confidences, and asks which TPU if there is one."""
    gpu = "PJRT_DEVICE=CUDA python train.py with torch_xla is 20% slower than plain PyTorch"
    out = run_cli("ask", gpu).stdout.decode()
    assert "No confident match" in out and "another device (cuda, pjrt_device=cuda)" in out
    assert "confidence" in out and "say which one" in out
    api = "403 insufficient authentication scopes when my notebook calls the BigQuery API"
    out = run_cli("ask", "--lang", "pt", api).stdout.decode()
    assert "outro serviço do Google ou uma VM comum (bigquery)" in out


def test_ask_jsonl(run_cli):
    lines = [
        json.dumps({"id": "q1", "query": HBM}),
        json.dumps({"query": "how do I center a div?"}),
    ]
    r = run_cli("ask", "--jsonl", input="\n".join(lines) + "\n")
    assert r.returncode == 0, r.stderr.decode()
    out = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert out[0]["id"] == "q1" and out[0]["results"][0]["id"] == "hbm-oom"
    assert "id" not in out[1] and out[1]["abstained"] is True


def test_ask_jsonl_bad_line_is_reported(run_cli):
    r = run_cli("ask", "--jsonl", input="not json\n" + json.dumps({"query": HBM}) + "\n")
    out = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert r.returncode == 2 and "error" in out[0] and out[1]["results"]


def test_kb_list_json(run_cli, kb):
    r = run_cli("kb", "list", "--json")
    data = json.loads(r.stdout)
    assert [d["id"] for d in data] == kb.ids()
    for d in data:
        assert d["title"]["en"] and d["title"]["pt"] and len(d["text"]) > 200
    hbm = next(d for d in data if d["id"] == "hbm-oom")
    assert "gcloud compute tpus tpu-vm describe" in hbm["text"] and "HBM" in hbm["text"]
    assert set(hbm["frameworks"]) == {"tensorflow", "jax", "pytorch"}


def test_walk_question_then_fix(run_cli):
    q = json.loads(run_cli("walk", "hbm-oom", "--json").stdout)
    assert q["entry"] == "hbm-oom" and q["kind"] == "question" and q["input"] == "choice"
    assert q["path"] == [] and q["options"][0]["value"] and q["prompt"]
    n = json.loads(run_cli("walk", "hbm-oom", "--json", "--answer", "generation=v3").stdout)
    assert n["input"] == "number" and n["path"] == [["generation", "v3"]]
    fix = json.loads(
        run_cli(
            "walk",
            "hbm-oom",
            "--json",
            "-a",
            "generation=v3",
            "-a",
            "batch=100",
            "-a",
            "padding=yes",
            "--set",
            "tpu_name=my-tpu",
            "--set",
            "zone=us-central1-b",
        ).stdout
    )
    assert fix["kind"] == "fix" and fix["node"] == "lower-batch"
    cmd = next(s for s in fix["steps"] if s["kind"] == "command")
    assert cmd["risk"] == "read-only"
    assert "describe my-tpu --zone=us-central1-b" in cmd["command"]
    code = next(s for s in fix["steps"] if s["kind"] == "code")
    assert "-GLOBAL_BATCH_SIZE = 100" in code["diff"] and "+GLOBAL_BATCH_SIZE = 64" in code["diff"]
    assert any("64 or 128" in a for a in fix["advice"])


def test_walk_leaves_placeholders_visible(run_cli):
    fix = json.loads(
        run_cli(
            "walk",
            "hbm-oom",
            "--json",
            "-a",
            "generation=v3",
            "-a",
            "batch=100",
            "-a",
            "padding=yes",
        ).stdout
    )
    cmd = next(s for s in fix["steps"] if s["kind"] == "command")
    assert "{tpu_name}" in cmd["command"] and "tpu_name" in fix["missing"]


def test_walk_errors_exit_2(run_cli):
    for args in (
        ["no-such-entry"],
        ["hbm-oom", "-a", "nope=1"],
        ["hbm-oom", "-a", "generation=v9"],
        ["hbm-oom", "-a", "generation=v3", "-a", "batch=lots"],
        ["hbm-oom", "-a", "generation"],
        [
            "hbm-oom",
            "-a",
            "generation=v3",
            "-a",
            "batch=100",
            "-a",
            "padding=yes",
            "--set",
            "tpu_name=x; rm -rf ~",
        ],
    ):
        r = run_cli("walk", *args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert r.stderr.startswith(b"tpu-assist: error:") and b"Traceback" not in r.stderr


def test_walk_errors_in_the_persons_language(run_cli):
    """An answer or a value refused says why in the language asked for, as the rest of the walk."""
    for args, pt, en in (
        (["-a", "generation=v3", "-a", "batch=lots"], "'lots' não é um número", "is not a number"),
        (["-a", "generation=v9"], "não é uma opção aqui (escolha uma de: v2, v3", "not an option"),
        (["-a", "nope=1"], "hbm-oom não tem o nó 'nope' (nós: generation", "has no node"),
        (
            ["--set", "zone=Mars"],
            "zone: 'Mars' não é válido aqui (esperado: zona do Compute",
            "is not valid here",
        ),
    ):
        r = run_cli("walk", "hbm-oom", *args, "--lang", "pt")
        err = r.stderr.decode()
        assert r.returncode == 2 and pt in err and en not in err, (args, err)
        r = run_cli("walk", "hbm-oom", *args, "--lang", "en")
        assert r.returncode == 2 and en in r.stderr.decode(), args


def test_usage_errors_exit_2(run_cli):
    assert run_cli("ask", "--top", "0", "x").returncode == 2
    assert run_cli("frobnicate").returncode == 2
    assert run_cli("ask", "--kb", "/no/such/dir", "x").returncode == 2


def test_version(run_cli):
    from importlib.metadata import version

    r = run_cli("--version")
    assert r.returncode == 0 and r.stdout.decode().strip() == f"tpu-assist {version('tpu-assist')}"


def test_bare_command_without_a_terminal_explains(run_cli):
    r = run_cli(input="some text")
    assert r.returncode == 2 and b"needs a terminal" in r.stderr and b"Traceback" not in r.stderr
