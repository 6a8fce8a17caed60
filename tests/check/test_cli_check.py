"""`tpu-assist check` from the command line (in process: it needs no model)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from assistant.check import RULES
from assistant.cli.main import main

from .markers import FIXTURES

TPU_SCRIPT = """import tensorflow as tf

BATCH = 100
resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="my-tpu")
strategy = tf.distribute.TPUStrategy(resolver)
ds = tf.data.TFRecordDataset("gs://b/train-*").batch(BATCH)
"""


def run(capsys, *args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    try:
        code = main(list(args))
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def script(tmp_path: Path) -> Path:
    p = tmp_path / "train.py"
    p.write_text(TPU_SCRIPT)
    return p


def test_findings_print_like_ruff_and_exit_1(capsys, script):
    code, out, _ = run(capsys, "check", str(script))
    assert code == 1
    lines = out.splitlines()
    assert f"{script}:3:9: TPU202 global batch size 100 (BATCH) is not a multiple of 64" in out
    assert any(
        line.startswith(f"{script}:6:") and " TPU101 " in line and line.endswith("[dynamic-shape]")
        for line in lines
    )
    assert [line.split(" ")[1] for line in lines[:-1]] == ["TPU202", "TPU101", "TPU601"]
    assert lines[-1] == "Found 3 problem(s) in 1 file(s)."


def test_github_format_annotates_the_lines_of_a_pull_request(capsys, tmp_path):
    """One workflow command per finding, as ruff's `--output-format github`: a finding is a
    warning on its line, a file that does not parse an error; the path's commas and colons and
    the message's newlines are escaped as the runner reads them."""
    odd = tmp_path / "a,b:c"
    odd.mkdir()
    path = odd / "train.py"
    path.write_text(TPU_SCRIPT)
    bad = tmp_path / "bad.py"
    bad.write_text("def broken(:\n")
    code, out, _ = run(capsys, "check", "--format", "github", str(path), str(bad))
    lines = out.splitlines()
    escaped = str(path).replace(",", "%2C").replace(":", "%3A")
    assert code == 1 and lines[-1] == "Found 4 problem(s) in 2 file(s)."
    assert lines[0] == (
        f"::warning file={escaped},line=3,col=9,title=tpu-assist TPU202 [tensor-padding]::"
        "global batch size 100 (BATCH) is not a multiple of 64 (8 per core): the TPU pads every step"
    )
    assert [line.split(" ", 1)[0] for line in lines[:-1]] == ["::warning"] * 3 + ["::error"]
    assert "title=tpu-assist TPU001::" in lines[3] and "\n" not in lines[3]


def test_json_and_another_format_is_a_usage_error(capsys, script):
    code, _, err = run(capsys, "check", "--json", "--format", "github", str(script))
    assert code == 2 and "choose one" in err


def test_clean_exits_0(capsys, tmp_path):
    p = tmp_path / "ok.py"
    p.write_text("import os\nprint(os.getcwd())\n")
    code, out, _ = run(capsys, "check", str(p))
    assert code == 0 and out.strip() == "All checks passed (1 file(s))."


def test_json_shape(capsys, script):
    code, out, _ = run(capsys, "check", "--json", str(script))
    assert code == 1
    data = json.loads(out)
    assert {tuple(sorted(d)) for d in data} == {
        ("answers", "cell", "code", "col", "entry", "line", "message", "path", "values")
    }
    first = next(d for d in data if d["code"] == "TPU202")
    assert first == {
        "path": str(script),
        "cell": None,  # a notebook's code cell (tests/check/test_notebook.py)
        "line": 3,
        "col": 9,
        "code": "TPU202",
        "entry": "tensor-padding",
        "message": first["message"],
        "values": {"batch_size": "100"},
        "answers": {},
    }
    drop = next(d for d in data if d["code"] == "TPU101")
    assert drop["values"] == {} and drop["answers"] == {"source": "batch"}


def test_select_and_ignore_take_prefixes(capsys, script):
    _, out, _ = run(capsys, "check", "--json", "--select", "TPU1", str(script))
    assert {d["code"] for d in json.loads(out)} == {"TPU101"}
    _, out, _ = run(capsys, "check", "--json", "--ignore", "TPU1,TPU60", str(script))
    assert {d["code"] for d in json.loads(out)} == {"TPU202"}
    code, out, _ = run(
        capsys, "check", "--json", "--select", "TPU6", "--ignore", "TPU601", str(script)
    )
    assert code == 0 and json.loads(out) == []
    code, out, _ = run(capsys, "check", "--select", "TPU202", "--ignore", "TPU2", str(script))
    assert code == 1 and " TPU202 " in out  # the more specific --select wins, as in ruff
    code, out, _ = run(capsys, "check", "--select", "TPU2", "--ignore", "TPU202", str(script))
    assert code == 0


def test_a_moved_code_still_selects_and_says_where_it_went(capsys, tmp_path: Path):
    loop = tmp_path / "loop.py"
    loop.write_text(
        "import torch_xla.core.xla_model as xm\n\n\n"
        "def train(model, loader, opt):\n"
        "    for x, y in loader:\n"
        "        loss = model(x, y)\n"
        "        loss.backward()\n"
        "        xm.optimizer_step(opt)\n"
        "        print(loss.item())\n"
    )
    code, out, err = run(capsys, "check", "--json", "--select", "TPU104", str(loop))
    assert code == 1 and [(d["code"], d["entry"]) for d in json.loads(out)] == [
        ("TPU403", "steps-per-execution")
    ]
    assert "TPU104 has moved to TPU403" in err


def test_unknown_code_is_a_usage_error(capsys, script):
    code, _, err = run(capsys, "check", "--select", "E501", str(script))
    assert code == 2 and err.startswith("tpu-assist: error: --select/--ignore: 'E501'")


def test_missing_path_is_a_usage_error(capsys, tmp_path):
    code, out, err = run(capsys, "check", str(tmp_path / "nope.py"))
    assert code == 2 and "no such file or directory" in err and not out
    code, _, err = run(capsys, "check")
    assert code == 2 and "give files or directories" in err


def test_stdin(capsys):
    code, out, _ = run(capsys, "check", "-", stdin=TPU_SCRIPT.encode())
    assert code == 1 and out.startswith("-:3:9: TPU202 ")


def test_syntax_error_is_a_finding_with_its_line(capsys, tmp_path):
    p = tmp_path / "broken.py"
    p.write_text("import tensorflow as tf\n\ndef f(:\n    pass\n")
    code, out, err = run(capsys, "check", str(p))
    assert code == 1 and "Traceback" not in out + err
    assert out.splitlines()[0].startswith(f"{p}:3:7: TPU001 file does not parse: ")


@pytest.mark.parametrize(
    "data",
    [b"\x00\x01\x02 binary", b"\xff\xfe\xfa not utf-8", b"x = " + b"(" * 5000, b"\n" * 3],
    ids=["nul", "bad-utf8", "deep-nesting", "blank"],
)
def test_garbage_never_raises(capsys, tmp_path, data):
    p = tmp_path / "g.py"
    p.write_bytes(data)
    code, out, err = run(capsys, "check", str(p))
    assert code in (0, 1) and "Traceback" not in out + err and not err


def test_noqa_silences_its_line(capsys, tmp_path):
    p = tmp_path / "n.py"
    p.write_text(
        TPU_SCRIPT.replace("BATCH = 100", "BATCH = 100  # noqa: TPU202").replace(
            ".batch(BATCH)", ".batch(BATCH)  # noqa"
        )
    )
    code, out, _ = run(capsys, "check", str(p))
    assert code == 0, out


def test_directories_are_walked_and_excluded_dirs_skipped(capsys, tmp_path, script):
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "lib.py").write_text(TPU_SCRIPT)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "more.py").write_text(TPU_SCRIPT)
    (tmp_path / "notes.txt").write_text("BATCH = 100")
    code, out, _ = run(capsys, "check", "--json", str(tmp_path))
    paths = {d["path"] for d in json.loads(out)}
    assert code == 1 and paths == {str(script), str(tmp_path / "pkg" / "more.py")}


def test_fixture_tree_in_parallel_matches_in_process(tmp_path):
    """Worker processes (used for many files) report exactly what one process does."""
    from assistant.check import check_paths

    one = check_paths([FIXTURES], jobs=1).findings
    many = check_paths([FIXTURES], jobs=2).findings
    assert [f.to_dict() for f in one] == [f.to_dict() for f in many] and one


def test_walk_hint_and_rules_list(capsys, script):
    _, out, _ = run(capsys, "check", "--walk", "--select", "TPU101", str(script))
    assert "\n    tpu-assist walk dynamic-shape --answer source=batch\n" in out
    code, out, _ = run(capsys, "check", "--rules")
    assert code == 0 and "TPU101  dynamic-shape" in out
    assert len(out.splitlines()) == 2 * len(RULES)  # a summary line and a rationale per rule
    assert "XLA compiles for fixed shapes" in out  # each rule's rationale under it


def test_portuguese_messages(capsys, script):
    _, out, _ = run(capsys, "--lang", "pt", "check", "--select", "TPU202", str(script))
    assert "não é múltiplo de 64" in out and "problema(s) encontrado(s)" in out
