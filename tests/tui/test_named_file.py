"""A message that is only a file's path (typed, or pasted by the terminal when a file is dragged
onto it): the assistant reads the file — a log is searched, a script or a notebook checked —
instead of searching for the words of its name. Pilot at 80×24 on the fast engine."""

from __future__ import annotations

import json

from textual import events

from assistant.named_file import missing_file, named_file
from assistant.tui.app import make_app
from assistant.tui.widgets.answer import AnswerView
from assistant.tui.widgets.findings import FindingsView
from assistant.tui.widgets.message import UserMessage

from .conftest import HBM_TRACE, aio, settle
from .test_check_turn import SCRIPT

SIZE = (80, 24)


def app_for(fast_engine, tmp_path):
    return make_app(engine=fast_engine, lang="en", history_dir=tmp_path / "data")


async def send(pilot, text: str, pasted: bool = False) -> None:
    """Type `text` and press Enter; `pasted`: the terminal pastes it (a dropped file's path, short:
    it goes into the box, and Enter sends it)."""
    screen = pilot.app.screen
    screen.prompt.focus()
    if pasted:
        screen.query_one("#prompt").post_message(events.Paste(text))
        await pilot.pause()
    else:
        screen.prompt.insert(text)
    await pilot.press("enter")
    await settle(pilot)


@aio
async def test_a_typed_log_path_is_read_and_searched(fast_engine, tmp_path):
    log = tmp_path / "train.log"
    log.write_text(HBM_TRACE)
    app = app_for(fast_engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, str(log))
        screen = app.screen
        assert screen.query_one(UserMessage).text == HBM_TRACE  # the log, not its name
        answer = screen.turn.answer
        assert answer is not None and answer.results[0].id == "hbm-oom"
        assert screen.query(AnswerView)


@aio
async def test_a_dragged_script_with_spaces_in_its_path_is_checked(fast_engine, tmp_path):
    folder = tmp_path / "my runs"
    folder.mkdir()
    script = folder / "train.py"
    script.write_text(SCRIPT)
    app = app_for(fast_engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, f"'{script}' ", pasted=True)  # as terminals paste a dropped file
        view = app.screen.query_one(FindingsView)
        assert [(f.line, f.code) for f in view.findings] == [(12, "TPU301")]


@aio
async def test_a_notebook_path_checks_its_code_cells(fast_engine, tmp_path):
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Train\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["!pip install -q jax\n"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "source": SCRIPT},
    ]
    book = tmp_path / "colab.ipynb"
    book.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4}))
    app = app_for(fast_engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, str(book))
        shown = app.screen.query_one(UserMessage).text
        assert shown.startswith("!pip install -q jax\n") and '"cell_type"' not in shown
        view = app.screen.query_one(FindingsView)
        assert [(f.line, f.code) for f in view.findings] == [(13, "TPU301")]


@aio
async def test_a_failed_notebook_is_answered_from_its_saved_error(fast_engine, tmp_path):
    from notebooks import failed_notebook

    book = tmp_path / "failed.ipynb"
    book.write_bytes(failed_notebook())
    app = app_for(fast_engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, str(book))
        screen = app.screen
        assert "Ran out of memory in memory space hbm" in screen.query_one(UserMessage).text
        assert not screen.query(FindingsView)  # searched, not checked
        assert screen.turn.answer is not None and screen.turn.answer.results[0].id == "hbm-oom"


@aio
async def test_a_path_to_nothing_or_an_empty_file_keeps_the_session(fast_engine, tmp_path):
    empty = tmp_path / "empty.log"
    empty.write_text("  \n")
    app = app_for(fast_engine, tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await send(pilot, str(empty))
        assert not app.screen.query(UserMessage)  # nothing to ask: a notice says so
        await send(pilot, "/no/such/dir/tpu_logs")  # not a file: a question like any other
        assert app.screen.query_one(UserMessage).text == "/no/such/dir/tpu_logs"


def test_what_names_a_file(tmp_path, monkeypatch):
    log = tmp_path / "a run.log"
    log.write_text("x")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert named_file(str(log)) == log
    assert named_file(f"  '{log}'  ") == log
    assert named_file(str(log).replace(" ", "\\ ")) == log
    assert named_file(f"file://{str(log).replace(' ', '%20')}") == log
    assert named_file("~/a run.log") == log
    for text in [
        str(tmp_path),  # a directory
        f"{log}\nTraceback (most recent call last):",  # a log that mentions it
        "what is in /tmp/tpu_logs?",
        "",
        "'unbalanced",
        "x" * 5000,
    ]:
        assert named_file(text) is None, text


def test_what_names_a_file_that_is_not_there(tmp_path):
    log = tmp_path / "run.log"
    assert missing_file(str(tmp_path / "trian.log")) == str(tmp_path / "trian.log")
    assert missing_file("~/no/such/run.ipynb") == "~/no/such/run.ipynb"
    log.write_text("x")
    for text in [
        str(log),  # there: named_file reads it
        "/tmp/tpu_logs",  # no file's ending: may be a question about the folder
        "train.log",  # no folder: may be words
        "where is /tmp/x.log?",  # a sentence
        "https://example.com/a.log",
        "",
    ]:
        assert missing_file(text) is None, text
