"""Issue 15: the TUI's seams, checked. Messages go up to the screen, which routes every one of them;
the screen's state is reactive (the status bar, the message box and the footer follow it without
being refreshed by hand); no private Textual API is used, so a Textual upgrade cannot break the
app silently. Runs on the fast engine (hashing vectors)."""

from __future__ import annotations

import ast
import functools
import inspect
import re
from pathlib import Path

import textual
from textual import events
from textual.message import Message

from assistant.strings import STRINGS
from assistant.tui import messages
from assistant.tui.app import make_app
from assistant.tui.screens.main import MainScreen
from assistant.tui.widgets.prompt import PromptInput
from assistant.tui.widgets.statusbar import StatusBar

from .conftest import HBM_TRACE, aio, settle

SIZE = (80, 24)
TUI = Path(__file__).resolve().parents[2] / "assistant" / "tui"


def _sources() -> dict[Path, ast.Module]:
    return {p: ast.parse(p.read_text(), str(p)) for p in sorted(TUI.rglob("*.py"))}


# -- messages up, routed by the screen -------------------------------------------------------------


def test_every_message_is_defined_in_one_module_and_routed_by_the_screen():
    defined = {
        name
        for name, obj in vars(messages).items()
        if inspect.isclass(obj) and issubclass(obj, Message) and obj.__module__ == messages.__name__
    }
    assert {"Submitted", "SearchDone", "FindingChosen"} <= defined
    # No widget or screen defines a message of its own.
    elsewhere = [
        f"{path.name}:{node.lineno} {node.name}"
        for path, tree in _sources().items()
        if path.name != "messages.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(ast.unparse(base).endswith("Message") for base in node.bases)
    ]
    assert not elsewhere, f"messages belong in assistant/tui/messages.py: {elsewhere}"
    # The screen handles each one with `@on(messages.X)`.
    main = ast.parse((TUI / "screens" / "main.py").read_text())
    routed = {
        ast.unparse(d.args[0]).removeprefix("messages.")
        for node in ast.walk(main)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for d in node.decorator_list
        if isinstance(d, ast.Call) and ast.unparse(d.func) == "on" and d.args
    }
    assert defined == routed, f"not routed: {defined - routed}; unknown: {routed - defined}"


def test_widgets_know_nothing_of_the_screens():
    """Attributes down, messages up: a widget imports no screen (and no app) — what it needs is
    set on it, and what it has to say is a message. The messages module imports widgets for type
    hints only."""
    offenders = []
    for path, tree in _sources().items():
        if path.parent.name != "widgets" and path.name != "messages.py":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level and node.module:
                target = "." * node.level + node.module  # within the package
                if "screens" in target or target.endswith(".app"):
                    offenders.append(f"{path.name}:{node.lineno} {target}")
    assert not offenders, offenders
    messages_tree = _sources()[TUI / "messages.py"]
    runtime = [
        ast.unparse(st)
        for st in messages_tree.body
        if isinstance(st, ast.ImportFrom) and st.module and "widgets" in st.module
    ]
    assert not runtime, runtime


# -- no private Textual API ------------------------------------------------------------------------


@functools.cache
def _defined_by(klass: type) -> frozenset[str]:
    """The `_names` one Textual class defines or sets (`self._name = …`)."""
    names = {n for n in vars(klass) if n.startswith("_") and not n.startswith("__")}
    names |= set(re.findall(r"self\.(_[a-z][a-z0-9_]*)", inspect.getsource(klass)))
    return frozenset(names)


def _textual_private(cls: type) -> set[str]:
    """Every `_name` the Textual classes `cls` is built on define or set."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass.__module__.startswith("textual"):
            names |= _defined_by(klass)
    return names


def test_no_private_textual_api():
    """The TUI neither reads another object's private attribute (`node._bindings`,
    `app._notifications`) nor overrides or touches a private name of the Textual classes it
    builds on (`_on_paste`, `self._bindings`): our own private helpers have names Textual does
    not use. An upgrade of Textual that adds such a name makes this fail, not the app."""
    import importlib

    from textual.widgets import TextArea

    assert {"_bindings", "_on_paste", "_on_key"} <= _textual_private(TextArea)  # the scan works
    offenders = []
    for path, tree in _sources().items():
        module_name = ".".join(path.relative_to(TUI.parents[1]).with_suffix("").parts)
        module = importlib.import_module(module_name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
                owner = ast.unparse(node.value)
                if owner not in ("self", "cls") and not node.attr.startswith("__"):
                    offenders.append(f"{path.name}:{node.lineno} {owner}.{node.attr}")
            if not isinstance(node, ast.ClassDef):
                continue
            cls = getattr(module, node.name)
            private = _textual_private(cls)
            for inner in ast.walk(node):
                name = (
                    inner.name
                    if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef))
                    else inner.attr
                    if isinstance(inner, ast.Attribute) and ast.unparse(inner.value) == "self"
                    else ""
                )
                if name in private:
                    offenders.append(f"{path.name}:{inner.lineno} {node.name}.{name}")
    assert not offenders, f"private Textual API: {sorted(set(offenders))}"


def test_textual_is_the_tested_version():
    """The SVG snapshots and the private-API scan above were made with this Textual: upgrade it
    deliberately (pyproject.toml pins the range; `make snapshots-update`, then read the diff)."""
    major, minor = (int(x) for x in textual.__version__.split(".")[:2])
    assert (major, minor) == (8, 2), textual.__version__


# -- reactive state --------------------------------------------------------------------------------


def _footer(screen) -> dict[str, str]:
    """Key -> description of the bindings the footer shows (public: `Screen.active_bindings`)."""
    return {
        key: active.binding.description
        for key, active in screen.active_bindings.items()
        if active.binding.show
    }


@aio
async def test_state_flows_to_the_widgets_through_reactives(fast_engine, tmp_path):
    app = make_app(engine=fast_engine, lang="en", history_dir=tmp_path / "data")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        bar, prompt = screen.query_one(StatusBar), screen.query_one(PromptInput)
        assert screen.ready and bar.status_key == "status.ready"
        assert "ready" in str(bar.query_one("#status").render())
        # set on the screen, shown by the widgets (no refresh by hand)
        screen.status_key = "status.searching"
        await pilot.pause()
        assert "searching" in str(bar.query_one("#status").render())
        screen.failed = "boom"
        await pilot.pause()
        assert "could not load: boom" in str(bar.query_one("#status").render())
        screen.failed = ""
        screen.prompt_mode = "number"
        await pilot.pause()
        assert prompt.placeholder == STRINGS["prompt.number"][0]
        # the language: the status bar's tag, the box's placeholder, the footer's descriptions
        assert _footer(screen)["f1"] == "Help" and _footer(screen)["ctrl+q"] == "Quit"
        await pilot.press("f2")
        await settle(pilot)
        assert app.lang == "pt" and screen.lang == "pt" and bar.lang == prompt.lang == "pt"
        assert str(bar.query_one("#lang-tag").render()) == "PT"
        assert prompt.placeholder == STRINGS["prompt.number"][1]
        footer = _footer(screen)
        assert footer["f1"] == "Ajuda" and footer["f2"] == "English" and footer["ctrl+q"] == "Sair"
        assert footer["ctrl+j"] == "Nova linha"
        assert screen.active_bindings["ctrl+p"].binding.description == "comandos"
        # the keys themselves work in either language
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen is not screen
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f2")
        await settle(pilot)
        assert _footer(screen)["f1"] == "Help" and _footer(screen)["f2"] == "Português"


@aio
async def test_bindings_follow_the_turn(fast_engine, tmp_path):
    """`turn`, `walk_kind` and `ready` are reactives that refresh the bindings: F3 appears once a
    question is answered, F5/F7 at a fix, Ctrl+S once something was asked."""
    app = make_app(engine=fast_engine, lang="en", history_dir=tmp_path / "data")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert "ctrl+s" not in _footer(screen) and "f3" not in _footer(screen)
        screen.prompt.post_message(events.Paste(HBM_TRACE))
        await settle(pilot)
        assert screen.turn is not None and screen.turn.answer is not None
        assert "ctrl+s" in _footer(screen) and "f6" in _footer(screen)
        if screen.walk_kind.startswith("question"):
            assert "f5" not in _footer(screen)


@aio
async def test_notifications_are_recorded_publicly(fast_engine, tmp_path, monkeypatch):
    app = make_app(engine=fast_engine, lang="en", history_dir=tmp_path / "data")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        monkeypatch.setenv("TERM", "dumb")
        app.copy_command("echo hi")
        await pilot.pause()
        assert app.notices[-1].severity == "warning" and "TERM=dumb" in app.notices[-1].message


@aio
async def test_a_small_paste_goes_into_the_box_once_and_a_big_one_is_sent(fast_engine, tmp_path):
    """The box's paste handler (a public `on_paste`) runs before TextArea's, which it skips for a
    big paste; a small paste is inserted exactly once — it used to bubble on to the screen's
    handler (meant for a paste that found no focus), which inserted it again."""
    app = make_app(engine=fast_engine, lang="en", history_dir=tmp_path / "data")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        app.post_message(events.Paste("tpu"))  # as the terminal driver delivers it
        await pilot.pause()
        assert screen.prompt.text == "tpu"
        screen.prompt.post_message(events.Paste(" busy"))
        await pilot.pause()
        assert screen.prompt.text == "tpu busy"
        screen.prompt.post_message(events.Paste(HBM_TRACE))
        await settle(pilot)
        assert screen.prompt.text == ""
        assert screen.turn is not None and screen.turn.query.startswith("tpu busy\n")
