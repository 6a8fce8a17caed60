"""Issue 13: no keystroke is lost or reordered, the answer stays in view, shell habits in the
message box, and the loop is closed ("did this fix it?"). Driven with Pilot at 80×24.

A *burst* posts every key to the app at once, without waiting in between — what a terminal does
with `tmux send-keys`, a fast typist or a paste without bracketed paste mode — so the keys are in
flight while the screen changes under them.
"""

from __future__ import annotations

import html
import json
import re
import threading
import unicodedata

from textual import events

from assistant import history
from assistant.strings import pct
from assistant.tui.widgets.answer import AnswerView
from assistant.tui.widgets.message import UserMessage
from assistant.tui.widgets.walkview import ChoiceList, CommandBlock, WalkView

from .conftest import HBM_TRACE, GatedEngine, aio, settle

SIZE = (80, 24)
QUESTION = "after interrupting my jax job the tpu says it is busy, what can I do?"


def key_of(ch: str) -> events.Key:
    if ch == "\n":
        return events.Key("enter", "\r")
    if ch.isalnum():
        return events.Key(ch, ch)
    name = {" ": "space"}.get(ch) or unicodedata.name(ch).lower().replace(" ", "_")
    return events.Key(name, ch)


def burst(app, text: str) -> None:
    """Every key of `text` ("\\n" = Enter) posted at once, as a terminal delivers a burst."""
    for ch in text:
        app.post_message(key_of(ch))


def keys(app, *names: str) -> None:
    """Named keys (ctrl+u, up…) posted at once, like `burst`."""
    for name in names:
        app.post_message(events.Key(name, None))


def on_screen(app) -> str:
    """What the terminal shows, row by row (read from a screenshot of the real render)."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(m.group(2)), []).append(
            (float(m.group(1)), html.unescape(m.group(3)).replace("\xa0", " "))
        )
    out = []
    for y in sorted(rows):
        line = ""
        for x, text in sorted(rows[y]):
            line = line.ljust(round(x / 12.2)) + text
        out.append(line.rstrip())
    return "\n".join(out)


def saved(hist_dir) -> dict:
    files = list((hist_dir / "sessions").glob("*.json"))
    assert len(files) == 1
    return json.loads(files[0].read_text())


async def paste(pilot, text: str = HBM_TRACE) -> None:
    pilot.app.screen.prompt.post_message(events.Paste(text))
    await pilot.pause()
    await settle(pilot)


async def walk_to_fix(pilot) -> None:
    await paste(pilot)
    burst(pilot.app, "2100\n")  # v3, batch 100
    await settle(pilot)
    burst(pilot.app, "1")  # padding: yes
    await settle(pilot)


# -- keystrokes land, complete and in order --------------------------------------------------------


@aio
async def test_burst_while_options_are_shown_goes_to_the_box_and_enter_sends_it(make, hist_dir):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await paste(pilot)
        assert screen.query(ChoiceList) and screen.walk_kind == "question-choice"
        burst(app, QUESTION + "\n")
        await settle(pilot)
        assert [m.text for m in screen.query(UserMessage)][-1] == QUESTION
        assert screen.turn.query == QUESTION and screen.turn.path == []
        assert screen.prompt.text == ""
        assert saved(hist_dir)["turns"][-1]["query"] == QUESTION


@aio
async def test_in_the_option_list_arrows_pick_and_typing_goes_to_the_box(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await paste(pilot)
        keys(app, "tab", "down", "down", "up")  # into the options: the second is highlighted
        burst(app, QUESTION + "\n")  # typing leaves the list: spaces and all go to the box
        await settle(pilot)
        assert screen.turn.query == QUESTION and screen.prompt.text == ""
        await paste(pilot)
        keys(app, "tab", "down", "enter")  # Enter in the list (empty box) picks
        await settle(pilot)
        assert screen.turn.path == [("generation", "v3")]
        assert app.focused is screen.prompt


@aio
async def test_burst_at_launch_before_the_model_is_ready(engine, hist_dir):
    from assistant.tui.app import make_app

    gate = threading.Event()
    gated = GatedEngine(engine, gate)
    app = make_app(engine=gated, lang="en", history_dir=hist_dir)
    try:
        async with app.run_test(size=SIZE) as pilot:
            burst(app, QUESTION + "\n")  # before the first pause: the screen is still coming up
            await pilot.pause()
            await pilot.pause()
            screen = app.screen
            assert gated.asked == []  # still loading
            assert screen.turn is not None and screen.turn.query == QUESTION
            assert screen.prompt.text == ""
            burst(app, "and one more thing")  # typed while it waits: stays in the box, whole
            await pilot.pause()
            gate.set()
            await settle(pilot)
            assert gated.asked == [QUESTION]
            assert screen.prompt.text == "and one more thing"
            assert saved(hist_dir)["turns"][-1]["query"] == QUESTION
    finally:
        gate.set()


@aio
async def test_lines_typed_before_the_program_ran_are_the_first_question(engine, hist_dir):
    """A paste sent with the launch command reaches the app as complete lines (cli/terminal.py):
    sent as one question, its inner line break kept, the box left empty."""
    from assistant.tui.app import make_app

    pasted = "ResourceExhaustedError: Ran out of memory in memory space hbm\nfrom my v3-8 job"
    app = make_app(engine=engine, lang="en", history_dir=hist_dir, typed_ahead=pasted + "\n")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.turn is not None and app.screen.turn.query == pasted
        assert app.screen.turn.answer is not None
        assert app.screen.prompt.text == ""
    assert [turn["query"] for turn in saved(hist_dir)["turns"]] == [pasted]


@aio
async def test_a_question_sent_before_the_engine_even_exists_is_kept(engine, hist_dir):
    """As in the real program: no engine object at all until the loading worker builds it."""
    from assistant.tui.app import make_app

    gate = threading.Event()
    app = make_app(engine=None, lang="en", history_dir=hist_dir)

    def get_engine():
        assert gate.wait(timeout=60), "gate never opened"
        app.engine = engine
        return engine

    app.get_engine = get_engine  # type: ignore[method-assign]
    try:
        async with app.run_test(size=SIZE) as pilot:
            burst(app, QUESTION + "\n")
            await pilot.pause()
            await pilot.pause()
            assert app.engine is None and app.screen.turn.query == QUESTION
            assert saved(hist_dir)["turns"][0]["query"] == QUESTION  # saved at once, no crash
            gate.set()
            await settle(pilot)
            assert app.screen.turn.answer is not None
            turn = saved(hist_dir)["turns"][0]
            assert turn["query"] == QUESTION and turn["answer"]
    finally:
        gate.set()


@aio
async def test_choice_then_number_in_one_burst(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await paste(pilot)
        burst(app, "2100\n")
        await settle(pilot)
        assert screen.turn.path == [("generation", "v3"), ("batch", "100")]
        assert screen.prompt.text == ""


@aio
async def test_burst_right_after_answering_a_choice(make, hist_dir):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await paste(pilot)
        burst(app, "2" + QUESTION + "\n")  # the answer re-renders while the question is typed
        await settle(pilot)
        turns = saved(hist_dir)["turns"]
        assert turns[0]["path"] == [["generation", "v3"]]
        assert turns[-1]["query"] == QUESTION and screen.turn.query == QUESTION
        assert screen.prompt.text == ""


@aio
async def test_keys_typed_while_the_answer_arrives_stay_whole_and_in_order(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        burst(app, "ssh to my tpu vm times out\nthen it says permission denied")
        await settle(pilot)
        assert screen.turn.query == "ssh to my tpu vm times out"
        assert screen.turn.answer is not None
        assert screen.prompt.text == "then it says permission denied"
        # editing keys in a burst apply in order too
        keys(app, "backspace", "backspace", "backspace", "backspace", "backspace", "backspace")
        burst(app, "refused")
        await settle(pilot)
        assert screen.prompt.text == "then it says permission refused"


@aio
async def test_a_digit_picks_only_in_an_empty_box(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await paste(pilot)
        burst(app, "v2")  # not empty any more: the 2 is text
        await settle(pilot)
        assert screen.turn.path == [] and screen.prompt.text == "v2"
        burst(app, "\n")  # an option value typed in the box answers
        await settle(pilot)
        assert screen.turn.path == [("generation", "v2")]
        burst(app, "7")  # a number question: digits are the number, never an option
        await settle(pilot)
        assert screen.prompt.text == "7" and screen.turn.path == [("generation", "v2")]


@aio
async def test_only_the_box_can_take_the_focus(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await walk_to_fix(pilot)
        assert screen.walk_kind == "fix"
        assert screen.focus_chain == [screen.prompt]
        # a click on a command selects it; the box keeps the keyboard
        blocks = list(screen.query(CommandBlock))
        await pilot.click(blocks[0])
        await pilot.pause()
        assert app.focused is screen.prompt


# -- the answer stays in view ----------------------------------------------------------------------


@aio
async def test_title_confidence_and_reason_visible_with_the_first_question_at_80x24(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await paste(pilot)
        await pilot.pause()
        shown = on_screen(app)
        best = screen.turn.answer.results[0]
        assert "Out of TPU memory (HBM)" in shown
        assert f"{pct(best.confidence)} confident" in shown
        assert "Why: " + best.why[0][:30] in shown or best.why[0][:30] in shown
        assert "Which TPU generation are you training on?" in shown
        assert "1. TPU v2" in shown and "2. TPU v3" in shown
        # the whole question, down to its hint, once the sticky header has settled above it
        for _ in range(3):
            await pilot.pause()
        assert "7. Another one / not sure" in on_screen(app)
        assert "1–7 picks (in the empty box)" in on_screen(app)
        # scrolling up by hand is not undone when the header goes away
        await pilot.press("pageup")
        await settle(pilot)
        scrolled = app.screen.conversation.scroll_y
        for _ in range(3):
            await pilot.pause()
        assert app.screen.conversation.scroll_y == scrolled
        assert not app.screen.conversation.at_end


@aio
async def test_values_found_stay_on_screen_when_the_walk_question_pushes_them_up_at_80x24(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        burst(app, "my jax training on a v5e-8 is slow, profile says MXU utilization 9%")
        burst(app, " and TPU idle time 4%, batch 256\n")
        await settle(pilot)
        for _ in range(3):
            await pilot.pause()
        values = screen.turn.answer.values
        assert values.get("accelerator_type") == "v5e-8" and values.get("batch_size") == "256"
        shown = on_screen(app)
        # the answer's own values line is above the view; the header carries them, whole
        assert not screen.conversation.in_view(list(screen.active(AnswerView).query(".values")))
        assert "Found: accelerator_type=v5e-8" in shown  # one row, cut with … at 80 columns
        assert "4. I haven't profiled yet" in shown
        # scrolled up to the answer's own line (at the top of the view, the title above it), the
        # header drops its copy
        own = screen.active(AnswerView).query_one(".values")
        screen.conversation.scroll_to_widget(own, animate=False, top=True)
        await settle(pilot)
        for _ in range(8):
            await pilot.pause()
        header = screen.query_one("#context")
        assert not (header.display and header.query_one("#context-values").display)
        assert on_screen(app).count("Found") == 1


@aio
async def test_header_follows_the_walked_entry_and_hides_when_the_answer_is_in_view(make):
    app = make()
    async with app.run_test(size=(120, 60)) as pilot:
        await settle(pilot)
        screen = app.screen
        burst(app, "my ssh connection to the TPU VM keeps dropping\n")
        await settle(pilot)
        await pilot.pause()
        # a short question on a tall screen: the answer itself is in view, no duplicate header
        assert not screen.query_one("#context").display
        assert screen.query_one(AnswerView).answer is not None


# -- shell habits ----------------------------------------------------------------------------------


@aio
async def test_ctrl_u_clears_ctrl_w_deletes_a_word_up_down_recall(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        box = app.screen.prompt
        burst(app, "first question about hbm\n")
        await settle(pilot)
        burst(app, "second question about ssh\n")
        await settle(pilot)
        burst(app, "some words here")
        keys(app, "ctrl+w")
        await pilot.pause()
        assert box.text == "some words "
        keys(app, "ctrl+u")
        await pilot.pause()
        assert box.text == ""
        keys(app, "up")
        await pilot.pause()
        assert box.text == "second question about ssh"
        keys(app, "up")
        await pilot.pause()
        assert box.text == "first question about hbm"
        keys(app, "up")  # the oldest stays
        await pilot.pause()
        assert box.text == "first question about hbm"
        keys(app, "down")
        await pilot.pause()
        assert box.text == "second question about ssh"
        keys(app, "down")  # past the newest: empty again
        await pilot.pause()
        assert box.text == ""
        keys(app, "up")
        burst(app, " again\n")  # a recalled question, edited and sent
        await settle(pilot)
        assert app.screen.turn.query == "second question about ssh again"


# -- closing the loop ------------------------------------------------------------------------------


@aio
async def test_yes_marks_the_turn_solved_in_the_session_list_and_export(make, hist_dir, tmp_path):
    from assistant.export import session_markdown

    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await walk_to_fix(pilot)
        assert "Lower the batch size to a multiple of 64" in on_screen(app)  # the fix's top
        keys(app, "ctrl+end")  # the question closes the fix, further down
        await pilot.pause()
        assert "Did this fix it?" in on_screen(app) and "1. Yes — it works now" in on_screen(app)
        burst(app, "1")
        await settle(pilot)
        assert screen.turn.outcome == "solved"
        assert "Solved" in on_screen(app)
    data = saved(hist_dir)
    assert data["turns"][-1]["outcome"] == "solved"
    sessions, _ = history.list_sessions(hist_dir)
    assert sessions[0].outcome == "solved"
    name = sessions[0].name("en")
    assert name.startswith("Out of TPU memory (HBM)")
    assert "ResourceExhaustedError: Ran out of memory in memory space hbm" in name
    assert "I0302" not in name  # not the log's timestamp line
    md = session_markdown(sessions[0], "en")
    assert "**Outcome:** solved" in md


@aio
async def test_no_offers_other_branches_related_entries_and_candidates(make, hist_dir):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await walk_to_fix(pilot)
        first_fix = screen.turn.fix_key(screen.kb)
        burst(app, "no\n")
        await settle(pilot)
        assert screen.turn.outcome == "not_solved"
        alternatives = screen.turn.alternatives(screen.kb, "en")
        kinds = [a.kind for a in alternatives]
        assert "branch" in kinds and "candidate" in kinds
        assert all(a.entry_id != "hbm-oom" for a in alternatives if a.kind != "branch")
        view = screen.query_one(WalkView)
        labels = str(view.query(ChoiceList).last().get_option_at_index(0).prompt)
        assert "Same problem, other answers" in labels
        assert saved(hist_dir)["turns"][-1]["outcome"] == "not_solved"
        # picking another branch walks to that fix, which asks again
        burst(app, "1")
        await settle(pilot)
        assert screen.turn.fix_key(screen.kb) not in (None, first_fix)
        assert screen.turn.entry_id == "hbm-oom"
        assert screen.query_one(WalkView).feedback == ""  # asked again, for this fix
        assert screen.query(ChoiceList).last().purpose == "outcome"
        burst(app, "yes\n")
        await settle(pilot)
        assert screen.turn.outcome == "solved"
        turn = saved(hist_dir)["turns"][-1]
        assert turn["feedback"][first_fix] == "not_solved" and turn["outcome"] == "solved"


@aio
async def test_no_then_a_candidate_walks_that_entry(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await walk_to_fix(pilot)
        burst(app, "2")
        await settle(pilot)
        alternatives = screen.turn.alternatives(screen.kb, "en")
        n = next(i for i, a in enumerate(alternatives, 1) if a.kind == "candidate")
        burst(app, str(n))
        await settle(pilot)
        assert screen.turn.entry_id == alternatives[n - 1].entry_id != "hbm-oom"
        assert screen.turn.path == []


# -- the whole fix as a script ---------------------------------------------------------------------


@aio
async def test_f7_copies_the_whole_fix_as_a_commented_script(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await walk_to_fix(pilot)
        await pilot.press("f7")
        await pilot.pause()
        script = app.clipboard
        assert script.startswith("#!/bin/sh\n# tpu-assist — Lower the batch size")
        lines = script.splitlines()
        cmd = 'gcloud compute tpus tpu-vm describe my-tpu --zone=us-central1-b --format="value('
        assert any(line.startswith(cmd) for line in lines)  # values filled in, not commented
        assert "# risk: read-only" in lines
        assert "#   +GLOBAL_BATCH_SIZE = 64  # a multiple of 64: 8 rows per TensorCore" in lines
        assert all(line.startswith(("#", "gcloud")) or not line for line in lines)
        assert any("whole fix was copied" in str(n.message) for n in app.notices)
        # single commands are still copied one at a time
        await pilot.press("f5")
        await pilot.pause()
        assert app.clipboard.startswith("gcloud compute tpus tpu-vm describe my-tpu")
