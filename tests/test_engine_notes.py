"""The notes of an answer, word for word: they are part of `ask --json` and stay in English there,
whatever the answer's language (their wording lives in assistant/strings.py, `note.*`)."""

from __future__ import annotations

import dataclasses

import pytest

from assistant.answer import abstention_note, refusal_note, shown_notes
from assistant.engine import Retrieval
from assistant.strings import t
from assistant.text.normalize import normalize
from assistant.text.parse import parse

HBM = (
    "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Ran out of memory in "
    "memory space hbm; used: 9.82G; limit: 7.48G."
)
CUT = "input was cut to its key lines (see facts.key_lines)"
EMPTY = "empty input"
NO_MATCH = "nothing in the knowledge base matched"
SIGNATURES = "answered from error signatures alone (the embedding model was not needed)"


def _facts(text: str):
    return parse(normalize(text))


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_notes_without_evidence(fast_engine, lang):
    empty, some = _facts(""), _facts("o que é isso, afinal?")
    assert empty.line_count == 0 and some.line_count > 0
    assert fast_engine.decide(Retrieval(empty, {}, False), lang=lang).notes == [EMPTY]
    assert fast_engine.decide(Retrieval(some, {}, False), lang=lang).notes == [NO_MATCH]
    assert fast_engine.decide(Retrieval(empty, {}, True), lang=lang).notes == [CUT, EMPTY]
    assert fast_engine.decide(Retrieval(some, {}, True), lang=lang).notes == [CUT, NO_MATCH]


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_notes_with_evidence(fast_engine, lang):
    r = fast_engine.retrieve(HBM)
    assert r.evidence and r.used_dense and not r.truncated
    assert fast_engine.decide(r, lang=lang).notes == []
    alone = dataclasses.replace(r, used_dense=False)
    assert fast_engine.decide(alone, lang=lang).notes == [SIGNATURES]
    cut = dataclasses.replace(alone, truncated=True)
    assert fast_engine.decide(cut, lang=lang).notes == [CUT, SIGNATURES]


def test_empty_input_through_ask(fast_engine):
    assert fast_engine.ask("   \n\x1b[31m\n", lang="pt").to_dict()["notes"] == [EMPTY]


def test_input_in_an_unread_script_is_refused_and_says_why(fast_engine):
    """Chinese prose about a slow run on a v3: the model and the lexicon read none of it, so
    whatever its words' overlap, nothing is answered, and the note says why."""
    answer = fast_engine.ask("训练速度特别慢，一个多小时才两百步。设备是 tpu-v3。请问怎么办？")
    assert answer.abstained and answer.facts.other_script == "Chinese/Japanese"
    assert answer.notes[0].startswith("much of the input is in Chinese/Japanese script")


def test_a_specific_signature_still_answers_an_unread_script(fast_engine):
    answer = fast_engine.ask(
        f"训练时出错了，怎么办？日志如下，请帮忙看看：\n{HBM}\n谢谢大家！非常感谢帮助！"
    )
    assert answer.facts.other_script == "Chinese/Japanese"
    assert not answer.abstained and answer.results[0].id == "hbm-oom"


VAGUE = "the input names the setup but no problem (no error, no symptom): nothing to match it by"


@pytest.mark.parametrize("text", ["Using TPUs with PyTorch", "jax on tpu", "erro na TPU"])
def test_an_input_naming_no_problem_is_refused_and_says_why(fast_engine, text):
    """Every entry shares the few words of "jax on tpu": the ranking would be a guess, so the
    assistant asks for the error or the symptom instead of answering one entry with confidence."""
    answer = fast_engine.ask(text)
    assert answer.abstained and answer.facts.vague
    assert answer.to_dict()["notes"] == [VAGUE]


SLOW_ONLY = (
    "the input says only that a run is slow: several entries fit, and what tells them apart (the "
    "profile's figures, the batch, the model, the loop) is not in it"
)


@pytest.mark.parametrize("text", ["TPU slow", "jax tpu v4 slow", "treino lento na TPU"])
def test_an_input_saying_only_slow_is_refused_and_asks_for_the_profile(fast_engine, text):
    """Five entries are slow-run problems and "slow on TPU" fits them all: the assistant asks for
    the profile's figures or a detail instead of answering one of them with confidence."""
    answer = fast_engine.ask(text)
    assert answer.abstained and answer.facts.slow_only and not answer.facts.vague
    assert answer.to_dict()["notes"] == [SLOW_ONLY]
    assert "MXU" in abstention_note(answer.facts, "en")
    # the nearest entries it lists are slow-run ones, not those sharing "v4" or "jax" with it
    assert not {r.id for r in answer.results[:3]} & {"hbm-oom", "batch-or-model-too-large"}


@pytest.mark.parametrize(
    "text",
    [
        "TPU slow: step time 310 ms, TPU idle time 64%",
        "slow input pipeline on TPU",
        # no TPU, another device: the context gate's hint says more
        "my training with CUDA on an A100 is slower than on the T4",
    ],
)
def test_slowness_with_figures_or_a_detail_is_read(fast_engine, text):
    answer = fast_engine.ask(text)
    assert not answer.facts.slow_only and SLOW_ONLY not in answer.notes


def test_one_symptom_word_and_the_input_is_read(fast_engine):
    answer = fast_engine.ask("jax on tpu runs out of memory")
    assert not answer.facts.vague and VAGUE not in answer.notes


LOOKALIKE = (
    "the report's error is a known look-alike of an entry's error message (a pattern that entry "
    "lists as another problem), and no other entry's error message is in it"
)
# an on-chip scratch-memory overflow: the HBM entry's signature matches the line, and so does its
# look-alike pattern for vmem
# XLA's out-of-memory message (hbm-oom's signature) with the buffer dump XLA prints on a GPU, which
# hbm-oom lists as a look-alike: no other entry's error is in it
GPU_OOM = (
    "Fine-tuning a Flax model with a bigger batch and the first step now fails:\n"
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
    "allocate 17179869184 bytes.\nBufferAssignment OOM Debugging.\nSmaller batches run. Why?"
)
VMEM = (
    "Ran a Pallas attention kernel with a bigger block size on a v5e and compilation now fails:\n"
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. "
    "Ran out of memory in memory space vmem. Used 41.20M of 16.00M vmem. Exceeded vmem capacity "
    "by 25.20M.\nSmaller blocks compile. Why?"
)


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_an_error_caught_as_a_look_alike_is_refused_and_says_why(engine, lang):
    r = engine.retrieve(GPU_OOM)
    hbm = r.evidence["hbm-oom"]
    assert hbm.sig > 0 and hbm.exclude >= 0.8  # its message matched, and so did its look-alike
    a = engine.decide(r, lang=lang)
    assert a.abstained and a.notes == [LOOKALIKE]  # `ask --json` notes stay English
    shown = shown_notes(a.notes, a.facts, lang, None)
    assert shown == [LOOKALIKE] if lang == "en" else shown[0].startswith("o erro do relato")
    # the refusal says it at length, in the person's language, naming the entry the pattern set
    # aside, the line and the pattern; the short note is not repeated
    refusal = refusal_note(a, lang)
    assert a.set_aside and a.set_aside["id"] == "hbm-oom"
    assert refusal == t(lang, "answer.note_set_aside", **a.set_aside)
    assert "[hbm-oom]" in refusal and a.set_aside["pattern"] in refusal
    assert shown_notes(a.notes, a.facts, lang, refusal) == []


def test_a_full_on_chip_scratch_memory_gets_its_own_reason_not_the_look_alike_one(engine):
    # hbm-oom's message and its look-alike pattern both match, but the line says more than "a
    # look-alike": one kernel's VMEM, whose fix is its blocks (`text.outside`, scratch_memory)
    a = engine.ask(VMEM)
    assert a.abstained and a.facts.outside and a.facts.outside["kind"] == "scratch_memory"
    assert LOOKALIKE not in a.notes
    assert "on-chip scratch memory" in refusal_note(a, "en")


def test_the_cli_refusal_of_a_look_alike_error_says_why_without_confidences(engine, kb):
    from assistant.cli.output import answer_text

    a = engine.ask(GPU_OOM)
    out = answer_text(a, kb)
    assert t("en", "answer.note_set_aside", **a.set_aside) in out
    assert "%" not in out.split(t("en", "answer.none"), 1)[1]  # no confidences after refusing


def test_a_look_alike_pattern_beside_a_standing_signature_is_answered(engine):
    # the same look-alike line, but the report's real error is a missing TPU kernel
    text = GPU_OOM + (
        "\nNotFoundError: No registered 'RegexFullMatch' OpKernel for XLA_TPU_JIT devices "
        "compatible with node {{node pre/RegexFullMatch}}"
    )
    a = engine.decide(engine.retrieve(text))
    assert not a.abstained and a.results[0].id == "op-unavailable"
    assert LOOKALIKE not in a.notes


def test_the_export_of_a_look_alike_refusal_gives_the_reason_not_confidences(engine):
    from assistant import history
    from assistant.export import session_markdown
    from assistant.history import Turn

    for lang in ("en", "pt"):
        s = history.new_session(lang)
        a = engine.ask(GPU_OOM, lang=lang)
        s.turns.append(Turn(query=GPU_OOM, answer=a.to_dict()))
        md = session_markdown(s, lang)
        match = md.split(t(lang, "answer.none"), 1)[1]
        assert t(lang, "answer.note_set_aside", **a.set_aside) in match
        assert "%" not in match.split("\n\n", 2)[1]  # the nearest entries, without confidences


OFF_TOPIC = t("en", "note.off_topic")


@pytest.mark.parametrize(
    "text",
    [
        # ("what is the difference between v5e and v5p?" was one: it is a question about the
        # hardware now, refused with the figures of both: tests/test_outside.py)
        "how do I label a v4-8 TPU VM for my team?",
        # (Docker was one until tpu-connection gained its container fix; it is answered now)
        "can I attach a persistent disk to a TPU v4 VM?",
        "Checkpointing with orbax on a v5p-128 takes 20 minutes per save",
        "how to mount a GCS bucket with gcsfuse on a TPU VM",
    ],
)
def test_a_short_question_close_in_meaning_to_no_entry_is_refused_and_says_why(engine, text):
    """It shares a TPU type, a number or "per" with an entry, which the confidence model (whose
    out-of-scope training inputs name no TPU) took for a match: "v5e and v5p" was hbm-oom at 83%."""
    a = engine.ask(text)
    assert a.abstained and a.notes == [OFF_TOPIC], (a.results[0].id, a.results[0].confidence)
    for lang in ("en", "pt"):
        refusal = refusal_note(a, lang)
        assert refusal == t(lang, "answer.note_off_topic")
        assert shown_notes(a.notes, a.facts, lang, refusal) == []


@pytest.mark.parametrize(
    ("text", "entry"),
    [
        ("how do I see libtpu logs?", "debug-logs"),
        ("my jax jit keeps recompiling every step", "dynamic-shape"),
        ("how do I profile my TPU program?", "op-profiling"),
        ("torch_xla op not lowered falls back to cpu", "op-unavailable"),
        ("is bfloat16 why my TPU loss is worse?", "accuracy-drop"),
        ("o lote de 16 por núcleo deixa a TPU ociosa?", "small-batch"),
    ],
)
def test_a_short_question_about_an_entrys_problem_is_answered(engine, text, entry):
    a = engine.ask(text)
    assert not a.abstained and a.results[0].id == entry and OFF_TOPIC not in a.notes


# -- a signature whose pattern joins two lines shows both ends --------------------------------


SPANNING = """$ gcloud compute tpus tpu-vm ssh pod-v4 --zone=us-central2-b --worker=all --command="hostname"

t1v-n-5e2d91aa-w-0
ana@t1v-n-5e2d91aa-w-3: Permission denied (publickey).

ERROR: (gcloud.compute.tpus.tpu-vm.ssh) [/usr/bin/ssh] exited with return code [255].
"""


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "matched lines 4–6: "), ("pt", "nas linhas 4–6: ")],
)
def test_a_signature_spanning_lines_names_its_first_and_last_line_as_pasted(
    fast_engine, lang, said
):
    """The refused key (line 4) and gcloud's exit code (line 6, after a blank line the search
    does not count) are what the pattern read: the reason quotes both ends, numbered as pasted."""
    answer = fast_engine.ask(SPANNING, lang=lang)
    why = answer.results[0].why[0]
    assert answer.results[0].id == "ssh-key-propagation"
    assert said in why
    assert "Permission denied (publickey). … ERROR: (gcloud.compute.tpus.tpu-vm.ssh)" in why


def test_a_signature_on_one_line_quotes_that_line(fast_engine):
    answer = fast_engine.ask(
        "RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm. Used 20G of 16G hbm"
    )
    why = answer.results[0].why[0]
    assert "matched line 1: Ran out of memory in memory space hbm" in why
    assert "…" not in why
