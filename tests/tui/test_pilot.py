"""The TUI driven with Pilot at 80×24, against the real engine (loaded once per session)."""

from __future__ import annotations

import json
import threading

import pytest
from textual import events

from assistant.tui.screens.main import MainScreen
from assistant.tui.widgets.message import UserMessage
from assistant.tui.widgets.walkview import ChoiceList, CommandBlock, WalkView

from .conftest import HBM_TRACE, GatedEngine, aio, settle

SIZE = (80, 24)


def text_of(app) -> str:
    """Everything the active screen shows, as plain text."""
    out = []
    for w in app.screen.query("Static"):
        r = w.render()
        out.append(str(getattr(r, "plain", r)))
    return "\n".join(out)


async def paste(pilot, text: str) -> None:
    pilot.app.screen.query_one("#prompt").post_message(events.Paste(text))
    await pilot.pause()
    await settle(pilot)


async def edit_value(pilot, name: str, value: str) -> None:
    """In F6's dialog: type `value` into the field of `name` and press Enter there."""
    from textual.widgets import Input

    field = pilot.app.screen.query_one(f"#v-{name}", Input)
    field.value = value
    field.focus()
    await pilot.press("enter")


async def type_and_send(pilot, text: str) -> None:
    screen = pilot.app.screen
    screen.prompt.focus()
    screen.prompt.insert(text)
    await pilot.press("enter")
    await settle(pilot)


@aio
async def test_paste_match_walk_fix_copy(make, hist_dir):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: MainScreen = app.screen
        assert "ready" in text_of(app)
        await paste(pilot, HBM_TRACE)
        # one message, folded to its key lines
        assert len(screen.query(UserMessage)) == 1
        msg = screen.query_one(UserMessage)
        assert msg.foldable and msg.key_lines
        assert screen.turn.entry_id == "hbm-oom"
        shown = text_of(app)
        assert "Out of TPU memory (HBM)" in shown and "confident" in shown
        assert "hbm_used=9.82G" in shown and "tpu_name=my-tpu" in shown
        # generation: a choice; the box keeps the focus and a digit in the empty box picks v3
        assert app.focused is screen.prompt and screen.query(ChoiceList)
        await pilot.press("2")
        await settle(pilot)
        assert screen.turn.path == [("generation", "v3")]
        # batch: a number typed in the message box; a bad number is refused inline
        assert app.focused is screen.prompt
        await type_and_send(pilot, "0")
        assert "below the minimum" in text_of(app)
        await type_and_send(pilot, "100")
        shown = text_of(app)
        assert "use 64 or 128" in shown and "8 / 16 per core" in shown
        assert "generation = v3 › batch = 100" in shown
        # padding: Tab enters the options, Enter picks the highlighted one
        assert app.focused is screen.prompt
        await pilot.press("tab")
        await pilot.pause()
        assert screen.query(ChoiceList).last().has_class("-in-list")
        await pilot.press("enter")  # first option: yes
        await settle(pilot)
        assert screen.turn.path[-1] == ("padding", "yes")
        shown = text_of(app)
        assert "Lower the batch size to a multiple of 64" in shown
        assert "read-only" in shown and "GLOBAL_BATCH_SIZE = 64" in shown
        assert "gcloud compute tpus tpu-vm describe my-tpu --zone=us-central1-b" in shown
        # copy the selected command: Tab enters the commands, `c` copies the selected one
        assert app.focused is screen.prompt
        assert screen.query(CommandBlock).first().has_class("selected")
        await pilot.press("tab", "c")
        await pilot.pause()
        assert app.clipboard.startswith("gcloud compute tpus tpu-vm describe my-tpu")
        assert any("Copied" in str(n.message) for n in app.notices)
        # the session was saved
        files = list((hist_dir / "sessions").glob("*.json"))
        assert len(files) == 1
        data = json.loads(files[0].read_text())
        assert data["turns"][-1]["path"] == [
            ["generation", "v3"],
            ["batch", "100"],
            ["padding", "yes"],
        ]
        assert data["turns"][-1]["walk"]["en"]["kind"] == "fix"


@aio
async def test_a_number_the_report_states_is_shown_at_its_question_not_taken(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen: MainScreen = app.screen
        await paste(pilot, HBM_TRACE + "\nI train with batch size 256 on the v3-8")
        assert screen.turn.entry_id == "hbm-oom"
        # the generation is answered from the accelerator type; the batch is asked, with the
        # report's number named (a pasted batch may be per process, the question asks global)
        shown = text_of(app)
        assert "generation = v3" in shown
        assert "What is your current global batch size" in shown
        assert "Your text says 256" in shown
        await type_and_send(pilot, "256")
        assert screen.turn.path[-1] == ("batch", "256")


@aio
async def test_back_and_restart(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await paste(pilot, HBM_TRACE)
        await pilot.press("1")  # v2
        await settle(pilot)
        await type_and_send(pilot, "256")
        assert [n for n, _ in screen.turn.path] == ["generation", "batch"]
        await pilot.press("f3")
        await settle(pilot)
        assert screen.turn.path == [("generation", "v2")]
        assert "What is your current global batch size" in text_of(app)
        await type_and_send(pilot, "128")
        await pilot.press("f4")
        await settle(pilot)
        assert screen.turn.path == []
        assert "Which TPU generation" in text_of(app)
        assert screen.check_action("back", ()) is False


TPU_IN_USE = (
    "RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in use by "
    "process with pid 5151. Not attempting to load libtpu.so in this process."
)


@aio
async def test_back_steps_over_the_answers_the_text_gave(make, hist_dir):
    """The text answered both questions (the TPU is still held): F3 asks them instead, one at a
    time; the person's own answer then leads elsewhere, and the session keeps what was asked."""
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await type_and_send(pilot, TPU_IN_USE)
        assert screen.walk_kind == "fix" and screen.turn.path == []
        assert screen.check_action("back", ()) is True
        await pilot.press("f3")
        await settle(pilot)
        assert screen.walk_kind == "question-choice" and screen.turn.asked == ["in-use"]
        assert "Does the new error say the TPU is busy" in text_of(app)
        await pilot.press("f3")
        await settle(pilot)
        assert screen.turn.asked == ["in-use", "situation"]
        assert "What is happening?" in text_of(app)
        (saved,) = (hist_dir / "sessions").glob("*.json")  # the session keeps what was asked
        assert json.loads(saved.read_text())["turns"][-1]["asked"] == ["in-use", "situation"]
        await pilot.press("1")  # it hangs after an error: another fix
        await settle(pilot)
        assert screen.turn.path == [("situation", "hung")] and screen.walk_kind == "fix"
        await pilot.press("f4")  # restart: the text's answers apply again
        await settle(pilot)
        assert screen.turn.path == [] and screen.turn.asked == [] and screen.walk_kind == "fix"


@aio
async def test_back_over_a_generation_the_text_named_asks_it(make):
    """hbm-oom: the generation comes from the accelerator type in the text; after the batch is
    typed, F3 twice takes back the batch, then asks the generation instead of answering it again."""
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await type_and_send(pilot, "Ran out of memory in memory space hbm on my v3-8")
        assert "What is your current global batch size" in text_of(app)
        await type_and_send(pilot, "1000")
        await pilot.press("f3")
        await settle(pilot)
        assert "What is your current global batch size" in text_of(app)
        await pilot.press("f3")
        await settle(pilot)
        assert "Which TPU generation" in text_of(app) and screen.turn.asked == ["generation"]


@aio
async def test_free_text_answers_a_choice_or_starts_a_query(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await paste(pilot, HBM_TRACE)
        await type_and_send(pilot, "v3")  # an option value typed in the box
        assert screen.turn.path == [("generation", "v3")]
        await type_and_send(pilot, "lots")  # not a number at a number question: a new query
        assert len(screen.query(UserMessage)) == 2
        await type_and_send(pilot, "my ssh connection to the TPU VM keeps dropping")
        assert len(screen.query(UserMessage)) == 3
        assert screen.turn.entry_id != "hbm-oom"


@aio
async def test_abstention(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(pilot, "what is a good recipe for banana bread")
        screen = app.screen
        assert screen.turn.answer.abstained
        shown = text_of(app)
        assert "No confident match" in shown and "Add the full error line" in shown
        assert screen.turn.entry_id is None and not screen.query(ChoiceList)
        # a nearest candidate is one keypress away
        await pilot.press("alt+1")
        await settle(pilot)
        assert screen.turn.entry_id == screen.turn.answer.results[0].id
        assert screen.query_one(WalkView).walk is not None


def terminal_keys(sequence: str) -> list[events.Key]:
    """The key events Textual makes of bytes a terminal sends (its own parser)."""
    from textual._xterm_parser import XTermParser

    return [e for e in XTermParser().feed(sequence) if isinstance(e, events.Key)]


@aio
async def test_alt_digit_from_a_real_terminal_picks_a_nearest_entry(make):
    """xterm, GNOME's terminal and tmux send alt+1 as ESC 1, which Textual reads as "¡" (macOS's
    Option+1): it picks the first nearest entry, as alt+1 does; with none shown it is typed."""
    (pound,) = terminal_keys("\x1b3")
    assert pound.character == "£"
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        screen.prompt.focus()
        app.post_message(pound)  # no answer yet: just a character
        await settle(pilot)
        assert screen.prompt.text == "£"
        screen.prompt.clear()
        await type_and_send(pilot, "what is a good recipe for banana bread")
        assert screen.turn.answer.abstained and screen.turn.entry_id is None
        for key in terminal_keys("\x1b2"):
            app.post_message(key)
        await settle(pilot)

        assert screen.turn.entry_id == screen.turn.answer.results[1].id
        assert "™" not in screen.prompt.text


# Refusals for a reason of the assistant's own, each with the hint it must show.
OWN_REASONS = {
    "unread script": (
        "训练速度特别慢，一个多小时才两百步，我用的设备是 TPU v3，请问怎么办？",
        "Chinese/Japanese script, which I do not read",
    ),
    "no problem named": (
        "Using TPUs with PyTorch",
        "That tells me the setup, not what goes wrong",
    ),
    "only slow": (
        "my TPU training is slower than on GPU",
        "“slow” alone does not tell them apart",
    ),
}


@aio
@pytest.mark.parametrize("reason", sorted(OWN_REASONS))
async def test_a_refusal_of_its_own_says_why(make, reason):
    text, hint = OWN_REASONS[reason]
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(pilot, text)
        assert app.screen.turn.answer.abstained
        shown = " ".join(text_of(app).split())
        assert "No confident match" in shown
        assert hint in shown


OUTSIDE_REPORTS = {
    # an installation failure pasted in a burst: the guide does not cover installing frameworks
    "install": (
        "torch_xla does not import on my v4-8 TPU VM\n"
        "ImportError: /usr/local/lib/python3.10/dist-packages/_XLAC.cpython-310-x86_64-linux"
        "-gnu.so: undefined symbol: _ZN3c1010Dispatcher17runRecordFunctionE",
        "reads like an installation or version problem (“ImportError”)",
    ),
    # the note quotes the report's brackets: shown as text, never read as markup
    "storage": (
        "TPUEstimator on Colab cannot write its checkpoint\n"
        "ERROR:tensorflow:Error recorded from training_loop: File system scheme '[local]' not "
        "implemented (file: '/content/model/model.ckpt-0_temp/part-00000-of-00001')",
        "(“File system scheme '[local]' not implemented”)",
    ),
}


@aio
@pytest.mark.parametrize("kind", sorted(OUTSIDE_REPORTS))
async def test_a_problem_outside_the_guide_is_refused_with_the_reason(make, kind):
    """A problem the guide does not cover is refused, and the hint says what the line reads like,
    quoting it as it is."""
    report, reason = OUTSIDE_REPORTS[kind]
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(pilot, report)
        assert app.screen.turn.answer.abstained
        shown = " ".join(text_of(app).split())
        assert "No confident match" in shown
        assert reason in shown
        # the nearest entries are listed without confidences that would contradict the refusal
        assert "alt+1" in shown and "%" not in shown.split("No confident match")[1]


@aio
async def test_a_refusal_for_another_device_names_it(make):
    """The confidence model refused a GPU report: the hint says what device was read and that
    the entries are about Cloud TPU; the confidences stay (the model's own refusal)."""
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(pilot, "my training with CUDA on an A100 is slower than on the T4")
        assert app.screen.turn.answer.abstained
        shown = " ".join(text_of(app).split())
        assert "another device (cuda, a100, t4)" in shown
        assert "%" in shown.split("No confident match")[1]


@aio
async def test_language_switch(make):
    app = make("en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, HBM_TRACE)
        assert "Which TPU generation" in text_of(app)
        await pilot.press("f2")
        await settle(pilot)
        shown = text_of(app)
        assert app.lang == "pt"
        assert "Falta de memória na TPU" in shown and "Em qual geração de TPU" in shown
        assert "pronto" in shown and "confiança" in shown
        assert "assinatura" in shown  # the reasons were recomputed in Portuguese
        await pilot.press("f2")
        await settle(pilot)
        assert "Which TPU generation" in text_of(app)


@aio
async def test_a_question_in_portuguese_is_answered_in_portuguese(engine, hist_dir):
    """With no language chosen (no --lang, the locale's English), a question written in
    Portuguese switches the answers to Portuguese; an English log pasted next does not switch
    them back, and F2 still rules."""
    from assistant.tui.app import make_app

    app = make_app(engine=engine, lang=None, history_dir=hist_dir)
    app.lang = "en"  # the locale's language, whatever this machine's is
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(pilot, "o treino estoura a memória da TPU logo no primeiro passo")
        assert app.lang == "pt" and app.screen.lang == "pt"
        shown = text_of(app)
        assert "Falta de memória na TPU" in shown
        assert any("português" in n.message for n in app.notices)
        await paste(pilot, HBM_TRACE)
        assert app.lang == "pt"
        await pilot.press("f2")
        await settle(pilot)
        await type_and_send(pilot, "o treino estoura a memória da TPU de novo")
        assert app.lang == "en"  # chosen with F2: it stays


@aio
async def test_an_english_log_cut_mid_word_does_not_switch_to_portuguese(engine, hist_dir):
    """A long log is sampled for its language at a word boundary: the "lo" of a "loss" cut in
    half is no Portuguese word."""
    from assistant.tui.app import make_app

    app = make_app(engine=engine, lang=None, history_dir=hist_dir)
    app.lang = "en"
    from assistant.text.parse import detect_lang

    log = "".join(
        f"I1206 03:00:00.000 1 x.cc:1] step {i} loss 0.1234 lr 0.001\n" for i in range(400)
    )
    at = log.index("loss", 19_000)
    log = "#" * (20_000 - at - 2) + log  # the first 20,000 characters end in "lo"
    assert log[:20_000].endswith(" lo") and detect_lang(log[:20_000]) == "pt"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, log + "RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm")
        assert app.lang == "en"


@aio
async def test_a_language_given_on_the_command_line_is_kept(make):
    app = make("en")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(pilot, "o treino estoura a memória da TPU logo no primeiro passo")
        assert app.lang == "en"
        assert "Out of TPU memory" in text_of(app)


@aio
async def test_history_reopen(make, engine, hist_dir):
    from assistant.tui.app import make_app

    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, HBM_TRACE)
        await pilot.press("2")
        await settle(pilot)
        first_id = app.session.id
    app2 = make_app(engine=engine, lang="en", history_dir=hist_dir)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+o")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        screen = app2.screen
        assert isinstance(screen, MainScreen)
        assert app2.session.id == first_id
        assert screen.turn.path == [("generation", "v3")]
        assert "What is your current global batch size" in text_of(app2)
        await type_and_send(pilot, "100")
        assert screen.turn.path[-1] == ("batch", "100")


@aio
async def test_export_file(make, tmp_path):
    app = make()
    out = tmp_path / "out.md"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, HBM_TRACE)
        for key in ("2",):
            await pilot.press(key)
            await settle(pilot)
        await type_and_send(pilot, "100")
        await pilot.press("1")  # padding: yes (a digit in the empty box picks)
        await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        field = app.screen.query_one("#path")
        field.value = str(out)
        await pilot.press("enter")
        await pilot.pause()
    md = out.read_text()
    assert "hbm-oom" in md and "- batch: 100" in md and "```sh" in md
    assert "gcloud compute tpus tpu-vm describe my-tpu" in md and "GLOBAL_BATCH_SIZE = 64" in md


@aio
async def test_markup_and_ansi_shown_literally(make):
    app = make()
    nasty = (
        "\x1b[31m[bold]ResourceExhaustedError[/bold]\x1b[0m: [link=http://x]hbm[/link] "
        "Ran out of memory in memory space hbm [red]x\n"
    ) * 15
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, nasty)
        msg = app.screen.query_one(UserMessage)
        body = msg.query_one(".body").render()
        plain = str(getattr(body, "plain", body))
        assert "[bold]ResourceExhaustedError[/bold]" in plain and "[link=http://x]" in plain
        assert "\x1b" not in plain
        msg.action_toggle()
        await pilot.pause()
        body = msg.query_one(".body").render()
        assert "\x1b" not in str(getattr(body, "plain", body))
        assert app.screen.turn.entry_id == "hbm-oom"
        # markup typed into the box is literal too
        await type_and_send(pilot, "[b]ssh[/b] [link=x]fails[/link] \x1b[2J")
        assert len(app.screen.query(UserMessage)) == 2


@aio
async def test_query_before_ready_waits_then_answers(engine, hist_dir):
    from assistant.tui.app import make_app

    gate = threading.Event()
    gated = GatedEngine(engine, gate)
    app = make_app(engine=gated, lang="en", history_dir=hist_dir)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert "loading model" in text_of(app)
            screen.prompt.post_message(events.Paste(HBM_TRACE))
            await pilot.pause()
            await pilot.pause()
            # sent, visibly waiting, not answered, UI responsive
            assert len(screen.query(UserMessage)) == 1
            assert "your question will be answered" in text_of(app)
            assert "Waiting for the model" in text_of(app)
            assert gated.asked == []
            await pilot.press("f1")
            await pilot.pause()
            assert app.screen is not screen  # the help opens while loading
            await pilot.press("escape")
            await pilot.pause()
            gate.set()
            await settle(pilot)
            assert gated.asked == [HBM_TRACE]
            assert screen.turn.entry_id == "hbm-oom"
            assert "ready" in text_of(app)
    finally:
        gate.set()


@aio
async def test_huge_paste_does_not_freeze(make):
    import time

    app = make()
    big = ("INFO:root:step ok loss=0.1 " * 4 + "\n") * 100_000  # ~10 MB
    big += "ResourceExhaustedError: Ran out of memory in memory space hbm; "
    big += "used: 9.82G; limit: 7.48G.\n"
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        t0 = time.monotonic()
        app.screen.prompt.post_message(events.Paste(big))
        await pilot.pause()
        assert time.monotonic() - t0 < 2.0  # shown at once; the search runs in a worker
        await settle(pilot, rounds=200)
        assert app.screen.turn.entry_id == "hbm-oom"
        msg = app.screen.query_one(UserMessage)
        msg.action_toggle()
        await pilot.pause()
        assert "more lines not shown" in str(msg.query_one(".body").render())


@aio
async def test_edit_values_updates_every_command_and_refuses_bad_ones(make):
    from textual.widgets import Input

    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, HBM_TRACE)
        await pilot.press("2")
        await settle(pilot)
        await type_and_send(pilot, "100")
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("f6")
        await pilot.pause()
        await edit_value(pilot, "tpu_name", "My TPU; rm -rf /")
        await pilot.pause()
        assert "(expected: TPU node or TPU VM name)" in text_of(app)  # refused, modal stays
        app.screen.query_one("#v-tpu_name", Input).value = "other-tpu"
        app.screen.query_one("#v-zone", Input).focus()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)
        assert "tpu-vm describe other-tpu --zone=us-central1-b" in text_of(app)
        assert app.screen.turn.overrides == {"tpu_name": "other-tpu"}


@aio
async def test_a_refused_answer_or_value_is_said_in_the_sessions_language(make):
    """In Portuguese the walk's refusals and F6's descriptions are Portuguese too."""
    app = make("pt")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await paste(pilot, HBM_TRACE)
        await pilot.press("2")
        await settle(pilot)
        await type_and_send(pilot, "0")
        shown = text_of(app)
        assert "'0' está abaixo do mínimo 1" in shown and "below the minimum" not in shown
        await type_and_send(pilot, "100")
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("f6")
        await pilot.pause()
        assert "zona do Compute, p. ex. us-central1-b" in text_of(app)
        await edit_value(pilot, "zone", "Marte")
        await pilot.pause()
        assert "zone: 'Marte' não é válido aqui (esperado: zona do Compute" in text_of(app)


@aio
async def test_the_framework_set_with_f6_picks_its_variant_of_a_code_change(make):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(pilot, "Ran out of memory in memory space hbm on my v3-8")
        await type_and_send(pilot, "1000")
        await pilot.press("2")
        await settle(pilot)
        await type_and_send(pilot, "200")
        assert "torch.nn.Linear" in text_of(app) and "flax.linen.Dense" in text_of(app)
        await pilot.press("f6")
        await pilot.pause()
        await edit_value(pilot, "framework", "jax")
        await settle(pilot)
        shown = text_of(app)
        assert "flax.linen.Dense(features=128)" in shown
        assert "torch.nn.Linear" not in shown and "keras.layers.Dense(200)" not in shown


@aio
async def test_help_palette_and_copy_outside_a_fix(make, monkeypatch):
    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert "Ctrl+J" in text_of(app) or app.screen.query("Markdown")
        await pilot.press("escape")
        await pilot.pause()
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert "Help" in commands and "Português" in commands and "Back" not in commands
        await paste(pilot, HBM_TRACE)
        await pilot.press("2")
        await settle(pilot)
        commands = [c.title for c in app.get_system_commands(app.screen)]
        assert "Back" in commands and any(c.startswith("Walk candidate 2") for c in commands)
        monkeypatch.setenv("TERM", "dumb")
        app.copy_command("echo hi")
        await pilot.pause()
        assert any("TERM=dumb" in str(n.message) for n in app.notices)


@aio
async def test_user_entry_is_marked_as_yours(make, engine, tmp_path):
    import shutil
    from pathlib import Path

    from assistant.engine import Engine
    from assistant.kb import load_knowledge

    sample = (
        Path(__file__).resolve().parents[1] / "fixtures" / "broken" / "valid" / "sample-entry.yaml"
    )
    d = tmp_path / "userkb"
    d.mkdir()
    (d / "team-runbook.yaml").write_text(
        sample.read_text().replace("id: sample-entry", "id: team-runbook")
    )
    shutil.copytree(engine.index_root, tmp_path / "idx")  # only the new entry gets embedded
    mine = Engine(
        kb=load_knowledge(user_dirs=[d]),
        index_root=tmp_path / "idx",
        embedder=engine.embedder,
        params=engine.params,
    )
    app = make(eng=mine)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(pilot, "SampleError: Conv2D failed while training on the TPU")
        assert app.screen.turn.answer.results[0].id == "team-runbook"
        assert "your own entry" in text_of(app)


@aio
async def test_the_explanation_ends_with_what_it_means_on_other_stacks(make):
    """A PyTorch/XLA report answered by a TensorFlow-worded entry: its explanation goes on to
    say what the problem looks like on PyTorch/XLA and JAX (the entry's stack notes)."""
    from textual.widgets import Collapsible, Markdown

    app = make()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await type_and_send(
            pilot,
            "NotImplementedError: Could not run 'torchvision::nms' with arguments from the "
            "'XLA' backend.",
        )
        assert app.screen.turn.answer.results[0].id == "op-unavailable"
        box = app.screen.query_one(".explanation", Collapsible)
        assert box.collapsed
        shown = box.query_one(Markdown).source
        assert "XLA_TPU_JIT" in shown and "PyTorch/XLA" in shown and "jax.pure_callback" in shown
