"""The pieces: constants, noqa, selection, detection of pasted code, reading output back, and
never raising on arbitrary text."""

from __future__ import annotations

import ast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.check import (
    REDIRECTS,
    RULES,
    Selection,
    SelectionError,
    check_source,
    consts,
    detect,
    noqa,
    report,
)
from assistant.check.facts import collect, mentions_tpu


def _value(src: str, name: str = "X"):
    facts = collect(ast.parse(src))
    return consts.value(ast.Name(id=name), facts.module)


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("X = 100", 100),
        ("PER = 12\nX = PER * 8", 96),
        ("G = 1024\nX = G // 8", 128),
        ("X = int(2 ** 7)", 128),
        ("X = -(-64)", 64),
        ("D = True\nX = D", True),
        ("X = 1\nX = 2", None),  # assigned twice: unknown
        ("X = 1\nX = 1", 1),  # twice, the same
        ("X, Y = 3, 4", 3),
        ("X = f()", None),
        ("X = Y", None),
        ("X = 10 ** 100", None),  # absurd: refused
        ("X = 1 / 0", None),
        ("A = B\nB = A\nX = A", None),  # a cycle ends
    ],
)
def test_constants(src, want):
    assert _value(src) == want


def test_function_scope_shadows_module_and_parameters_are_unknown():
    src = "B = 64\ndef f(n):\n    B = 100\n    return n\n"
    facts = collect(ast.parse(src))
    (f,) = facts.functions["f"]
    assert consts.value(ast.Name(id="B"), f) == 100
    assert consts.value(ast.Name(id="n"), f) is None
    assert consts.value(ast.Name(id="B"), facts.module) == 64


@pytest.mark.parametrize(
    ("name", "want"),
    [
        ("TPUStrategy", True),
        ("use_tpu", True),
        ("tpu", True),
        ("--tpu", True),
        ("output", False),
        ("inputs", False),
        ("compute", False),
        ("GPU", False),
    ],
)
def test_tpu_words(name, want):
    assert mentions_tpu(name) is want


def test_noqa_directives():
    text = "a = 1  # noqa\nb = 2  # noqa: TPU101, TPU2\nc = 3  # NOQA:tpu301\nd = 4 # no qa\n"
    d = noqa.directives(text)
    assert d[1] is noqa.ALL and d[2] == {"TPU101", "TPU2"} and d[3] == {"TPU301"} and 4 not in d
    assert noqa.silenced(d[2], "TPU202") and noqa.silenced(d[2], "TPU101")
    assert not noqa.silenced(d[2], "TPU301") and not noqa.silenced(None, "TPU101")


def test_selection_like_ruff():
    known = list(RULES)
    s = Selection.parse(["TPU1,TPU401"], ["TPU10"], known)
    assert s.allows("TPU401") and not s.allows("TPU101") and not s.allows("TPU202")
    assert Selection.parse(None, None, known).allows("TPU702")
    assert Selection.parse(["ALL"], ["TPU6"], known).allows("TPU501")
    assert not Selection.parse(["ALL"], ["TPU6"], known).allows("TPU601")
    with pytest.raises(SelectionError):
        Selection.parse(["TPX"], None, known)


def test_moved_codes_are_read_as_their_new_code_in_options_and_noqa():
    """As ruff's redirects: a `.item()` read was TPU104 (dynamic-shape) and is TPU403
    (steps-per-execution); what people wrote with the old code keeps working."""
    known = list(RULES)
    assert "TPU104" not in RULES and RULES["TPU403"].entry == "steps-per-execution"
    s = Selection.parse(["TPU104"], ["tpu105"], known, REDIRECTS)
    assert s.allows("TPU403") and not s.allows("TPU404") and not s.allows("TPU101")
    assert s.remapped == (("TPU104", "TPU403"), ("TPU105", "TPU404"))
    assert Selection.parse(["TPU10"], None, known, REDIRECTS).remapped == ()  # prefixes stay
    d = noqa.directives("x = loss.item()  # noqa: TPU104\n", REDIRECTS)
    assert noqa.silenced(d[1], "TPU403") and not noqa.silenced(d[1], "TPU404")


def test_syntax_errors_are_findings_never_exceptions():
    (f,) = check_source("def f(:\n", "x.py")
    assert (f.line, f.code, f.entry) == (1, "TPU001", None) and "does not parse" in f.message()
    (g,) = check_source(b"\x00", "nul.py")
    assert g.code == "TPU001"
    (h,) = check_source("x = " + "(" * 3000 + ")" * 3000, "deep.py")
    assert h.code == "TPU001"


def test_a_file_that_cannot_be_read_is_a_finding(tmp_path):
    from assistant.check import check_file

    d = tmp_path / "dir.py"
    d.mkdir()
    (f,) = check_file(d).findings
    assert f.code == "TPU002" and "cannot be read" in f.message()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("import tensorflow as tf\nds = tf.data.Dataset.range(8).batch(3)\n", "code"),
        ("def f(x):\n    return x\n", "code"),
        ("  import jax\n  x = 1\n", "code"),  # pasted with its indentation
        ("import torch\nimport torch_xla\ndef broken(:\n", "code"),  # reported as TPU001
        ("```python\nimport jax\nfrom jax import jit\ndef f(:\n```", "code"),  # one fence
        # an issue quoting its code in a fence, then its error: a report to search, not a file
        (
            "take_along_axis needs a lot of TPU memory\n\nRunning\n\n```python\n"
            "from jax import numpy as jnp, jit\n\n@jit\ndef t(x):\n    return x\n```\n\n"
            "on TPU results in\n\n```\nRuntimeError: Resource exhausted: Ran out of memory in "
            "memory space hbm.\n```",
            "query",
        ),
        ("ResourceExhaustedError: Ran out of memory in memory space hbm", "query"),
        ("model.fit(ds, epochs=10)", "query"),
        ("my training is slow on the TPU, why?", "query"),
        ('Traceback (most recent call last):\n  File "t.py", line 3\nimport x\n', "query"),
        ("a.py:3:9: TPU202 batch 100 [tensor-padding]\nFound 1 problem(s) in 1 file(s).", "output"),
        (
            '[{"path": "a.py", "line": 1, "col": 1, "code": "TPU101", "entry": "dynamic-shape"}]',
            "output",
        ),
        ("", "query"),
        # a notebook cell: IPython's own lines do not make it prose
        (
            "!pip install -q torch_xla\n%env PJRT_DEVICE=TPU\nimport torch\nx = torch.ones(3)\n",
            "code",
        ),
        # a question above code: its "?" is the person's, not IPython's help
        ("Why is this slow?\nimport torch\nx = torch.ones(3)\n", "query"),
        # an issue whose title begins with the word "import", then a log quoting imports
        (
            "import torch_xla error\n\n**Describe the current behavior**\nimport error\n"
            "Collecting torch-xla==1.9\nimport torch_xla\nimport torch_xla.core.xla_model as xm\n",
            "query",
        ),
        ("from x import (a,\n    b)\nimport os\ndef broken(:\n", "code"),
    ],
)
def test_detect_what_was_pasted(text, kind):
    assert detect.kind(text) == kind


def test_output_reads_back():
    src = "import tensorflow as tf\nstrategy = tf.distribute.TPUStrategy(r)\nB = 100\n"
    found = check_source(src, "t.py")
    text = "\n".join(report.text_line(f) for f in found) + "\n" + report.summary(found, 1)
    back = report.parse_output(text)
    assert [(f.path, f.line, f.col, f.code, f.entry) for f in back] == [
        (f.path, f.line, f.col, f.code, f.entry) for f in found
    ]
    again = report.parse_output(report.as_json(found))
    assert [(f.values, f.answers) for f in again] == [(f.values, f.answers) for f in found]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_arbitrary_text_never_raises(text):
    for f in check_source(text, "fuzz.py"):
        assert f.line >= 1 and f.col >= 1 and f.message()


PY_ATOMS = st.sampled_from(
    "import tensorflow as tf\n|import torch_xla\n|import jax\n|B = 100\n|ds = ds.batch(B)\n|"
    "for x in loader:\n    loss.backward()\n    print(x.item())\n|@jax.jit\ndef f(x):\n    "
    "return x[x > 0]\n|strategy = tf.distribute.TPUStrategy(r)\n|model.compile(loss='x')\n|"
    "layers.Dense(200)\n|def g(:\n|x = (\n|tf.strings.split(s)\n|strategy.run(g)\n".split("|")
)


@settings(max_examples=150, deadline=None)
@given(st.lists(PY_ATOMS, max_size=12))
def test_arbitrary_scripts_never_raise(parts):
    for f in check_source("".join(parts), "fuzz.py"):
        assert f.code in RULES and f.message()


def test_loop_findings_say_what_they_found_in_both_languages():
    from assistant.check import RULES, Selection, check_source

    jax_loop = (
        "import jax\n"
        "step = jax.jit(lambda s, b: (s, s * b))\n"
        "def fit(s, batches):\n"
        "    for b in batches:\n"
        "        s, out = step(s, b)\n"
        "        print(out.mean().item())\n"
        "    for b in batches:\n"
        "        s, metrics = step(s, b)\n"
        "        print(f'{metrics[0]} and a long explanation of what this step does', flush=True)\n"
    )
    first, second = check_source(jax_loop, "fit.py", Selection(select=("TPU402",)))
    assert first.message("en").startswith("`print(out.mean().item())` reads the jitted step")
    assert first.message("pt").startswith("`print(out.mean().item())` traz o resultado")
    assert second.message("en").startswith("`print()` reads")  # too long to show as written
    assert first.walk_command() == "tpu-assist walk steps-per-execution --answer loop=jax"
    xla_loop = (
        "import torch_xla.core.xla_model as xm\n"
        "from torch.utils.data import DataLoader\n"
        "def fit(model, opt, data):\n"
        "    for x, y in DataLoader(data, batch_size=8, drop_last=True):\n"
        "        model(x).sum().backward()\n"
        "        xm.optimizer_step(opt)\n"
    )
    (cut,) = check_source(xla_loop, "fit.py", Selection(select=("TPU109",)))
    assert (cut.line, cut.col) == (4, 5) and "never cuts the graph" in cut.message("en")
    assert "nunca corta o grafo" in cut.message("pt")
    assert RULES["TPU109"].entry == "dynamic-shape"


def test_a_paste_past_the_parse_limit_is_judged_by_its_head():
    """The TUI routes a paste on its UI thread: a long one is not parsed whole there."""
    script = "import torch\nimport torch_xla\n" + "x = torch.ones(3)\n" * 20_000
    assert len(script) > detect.PARSE_LIMIT
    assert detect.kind(script) == "code"
    assert detect.kind("step 1 loss 0.5\n" * 20_000 + "import torch\n") == "query"
    report = "My TPU run fails\n\nimport torch\nimport torch_xla\n" + "x = 1\n" * 40_000
    assert detect.kind(report) == "query"  # a title first: a report, however long
