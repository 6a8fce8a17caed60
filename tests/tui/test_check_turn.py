"""The findings turn (issue 14), driven with Pilot at 80×24: pasted Python code is checked, its
findings listed, and choosing one opens its entry's guided fix with the found values filled in.
Runs on the fast engine (hashing vectors): the check itself needs no model."""

from __future__ import annotations

from textual import events

from assistant.tui.app import make_app
from assistant.tui.screens.main import MainScreen
from assistant.tui.widgets.answer import AnswerView
from assistant.tui.widgets.findings import CheckAnswerView, FindingList, FindingsView
from assistant.tui.widgets.message import UserMessage
from assistant.tui.widgets.walkview import WalkView

from .conftest import HBM_TRACE, aio, settle

SIZE = (80, 24)

SCRIPT = """import tensorflow as tf
from tensorflow.keras import layers

GLOBAL_BATCH_SIZE = 1024
resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="my-tpu")
strategy = tf.distribute.TPUStrategy(resolver)

with strategy.scope():
    model = tf.keras.Sequential(
        [
            layers.Dense(512, input_shape=(784,)),
            layers.Dense(200),
            layers.Dense(10),
        ]
    )
    model.compile(optimizer="adam", loss="mse", steps_per_execution=32)
"""

CHECK_OUTPUT = """train.py:12:26: TPU301 `Dense` width 200 is not a multiple of 128 [tensor-padding]
train.py:27:15: TPU101 `.batch()` without `drop_remainder=True` [dynamic-shape]
Found 2 problem(s) in 1 file(s).
"""


def text_of(app) -> str:
    out = []
    for w in app.screen.query("Static"):
        r = w.render()
        out.append(str(getattr(r, "plain", r)))
    for w in app.screen.query(FindingList):
        out += [str(o.prompt.plain) for o in w.options]
    return "\n".join(out)


async def paste(pilot, text: str) -> None:
    pilot.app.screen.query_one("#prompt").post_message(events.Paste(text))
    await pilot.pause()
    await settle(pilot)


def app_for(fast_engine, tmp_path, lang="en"):
    return make_app(engine=fast_engine, lang=lang, history_dir=tmp_path / "data")


@aio
async def test_pasted_code_becomes_findings_and_opens_a_prefilled_walk(fast_engine, tmp_path):
    asked = []
    original = fast_engine.ask
    app = app_for(fast_engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        fast_engine.ask = lambda *a, **k: asked.append(a) or original(*a, **k)
        try:
            await paste(pilot, SCRIPT)
        finally:
            fast_engine.ask = original
        screen: MainScreen = app.screen
        assert not asked  # code is checked, not searched
        view = screen.query_one(FindingsView)
        assert [(f.line, f.code) for f in view.findings] == [(12, "TPU301")]
        shown = text_of(app)
        assert "Checked your code: 1 finding(s)" in shown
        assert "12:26 TPU301 `Dense` width 200 is not a multiple of 128" in shown
        assert "[tensor-padding]" in shown
        # the message shows the flagged line as its key line
        assert screen.query_one(UserMessage).key_lines[0]["line"] == 12
        # the list has the focus: Enter opens the finding's guided fix
        assert isinstance(app.focused, FindingList)
        await pilot.press("enter")
        await settle(pilot)
        turn = screen.turn
        assert turn is not None and turn.entry_id == "tensor-padding"
        assert turn.answer.values == {"feature_dim": "200", "batch_size": "1024"}
        # the code does not say which TPU: the generation is asked, then batch 1024 and feature
        # 200 are answered from the code, straight to the fix
        assert turn.path == [] and screen.query_one(WalkView).walk.node_id == "generation"
        await pilot.press("2")  # TPU v3
        await settle(pilot)
        assert turn.path == [("generation", "v3"), ("batch", "1024"), ("feature-big-batch", "200")]
        walk = screen.query_one(WalkView).walk
        assert walk.kind == "fix" and walk.node_id == "fix-locate"
        shown = text_of(app)
        assert "batch = 1024 › feature-big-batch = 200" in shown
        assert screen.query_one(CheckAnswerView).display
        assert "TPU301 12:26" in shown and "feature_dim=200" in shown
        assert "laid out in 128-wide tiles" in shown  # the rule's rationale
        # F3 goes back through the prefilled answers like any walk
        await pilot.press("f3")
        await settle(pilot)
        assert screen.turn.path == [("generation", "v3"), ("batch", "1024")]
        assert app.session.turns and app.session.turns[-1].entry_id == "tensor-padding"


@aio
async def test_pasted_check_output_opens_its_entries(fast_engine, tmp_path):
    app = app_for(fast_engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, CHECK_OUTPUT * 3)
        screen: MainScreen = app.screen
        view = screen.query_one(FindingsView)
        assert view.source == "output" and len(view.findings) == 6
        assert "Findings from `tpu-assist check`: 6" in text_of(app)
        await pilot.press("down", "enter")  # the second: TPU101
        await settle(pilot)
        assert screen.turn.entry_id == "dynamic-shape"
        assert screen.query_one(WalkView).walk.kind == "question"


@aio
async def test_clean_code_says_so_and_a_trace_is_still_searched(fast_engine, tmp_path):
    app = app_for(fast_engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, SCRIPT.replace("200", "256"))
        assert "none of the guide's problems found" in text_of(app)
        await paste(pilot, HBM_TRACE)
        screen: MainScreen = app.screen
        assert len(screen.query(".turn")) == 2
        last = screen.query(".turn").last()
        assert not last.query(FindingsView) and last.query(AnswerView)
        assert screen.turn is not None and screen.turn.answer is not None


@aio
async def test_findings_in_portuguese_and_relabelled_on_f2(fast_engine, tmp_path):
    app = app_for(fast_engine, tmp_path, lang="pt")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, SCRIPT)
        assert "Seu código verificado: 1 achado(s)" in text_of(app)
        assert "não é múltiplo de 128" in text_of(app)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)
        shown = text_of(app)
        assert "Checked your code: 1 finding(s)" in shown and "not a multiple of 128" in shown
