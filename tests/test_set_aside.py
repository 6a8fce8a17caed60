"""An entry one of its look-alike patterns (`excludes`) pushed down: after a refusal the answer
names it, the pattern and the line (`decide.set_aside`, `Answer.set_aside`), in every output."""

from __future__ import annotations

from assistant.answer import Answer, refusal_note
from assistant.cli.output import answer_text
from assistant.decide import DISPLACES, SET_ASIDE, displaced, set_aside
from assistant.retrieval.fusion import Evidence
from assistant.retrieval.signatures import SignatureHit


def _hit(entry: str, pattern: str, weight: float, matched: str) -> SignatureHit:
    return SignatureHit(entry, pattern, weight, 0, matched, matched, {})


def _excluded(entry: str, weight: float, lex: float) -> Evidence:
    hit = _hit(entry, "a-look-alike", weight, "first line of the match\nsecond line")
    return Evidence(lex=lex, dense=0.6, exclude=weight, exclude_hits=[(hit, 4)])


def test_the_entry_that_would_have_come_first_without_its_pattern_is_named(engine):
    params = engine.params
    evidence = {"a-entry": _excluded("a-entry", 0.7, 0.9), "b-entry": Evidence(lex=0.3, dense=0.4)}
    assert set_aside(evidence, params) == "a-entry"
    # a light pattern, or one that changed nothing at the top, is not named
    light = {**evidence, "a-entry": _excluded("a-entry", SET_ASIDE - 0.1, 0.9)}
    assert set_aside(light, params) is None
    behind = {"a-entry": _excluded("a-entry", 0.7, 0.1), "b-entry": Evidence(lex=0.9, dense=0.7)}
    assert set_aside(behind, params) is None
    assert set_aside({"b-entry": Evidence(lex=0.3)}, params) is None


def test_the_answer_left_after_a_pattern_of_another_world_matched_is_refused():
    evidence = {
        "a-entry": _excluded("a-entry", DISPLACES, 0.9),
        "b-entry": Evidence(lex=0.3, dense=0.4),
    }
    assert displaced(evidence)
    # the excluded entry need not be the one that would come first: the other world is named
    behind = {
        "a-entry": _excluded("a-entry", DISPLACES, 0.1),
        "b-entry": Evidence(lex=0.9, dense=0.7),
    }
    assert displaced(behind)
    # a lighter pattern (one pointing to a neighbour entry) leaves the answer to the confidence
    lighter = {**evidence, "a-entry": _excluded("a-entry", DISPLACES - 0.1, 0.9)}
    assert not displaced(lighter)
    # ... and so does a signature of another entry that stands
    hit = _hit("b-entry", "b-signature", 1.0, "the error line")
    standing = {
        **evidence,
        "b-entry": Evidence(lex=0.3, dense=0.4, sig=1.0, signature_hits=[(hit, 2)]),
    }
    assert not displaced(standing)


def test_inputs_and_labels_shuffled_apart_are_not_an_accuracy_drop(engine):
    report = (
        "TPU v3-8 CNN stuck at 10% accuracy, GPU tutorial gets 90%. bfloat16?\n"
        "xs = tf.data.Dataset.from_tensor_slices(x_train).shuffle(50000)\n"
        "ys = tf.data.Dataset.from_tensor_slices(y_train).shuffle(50000)\n"
        "ds = tf.data.Dataset.zip((xs, ys)).batch(1024)\n"
    )
    answer = engine.ask(report)
    assert answer.abstained and answer.set_aside and answer.set_aside["id"] == "accuracy-drop"
    assert answer.set_aside["pattern"] == "shuffled-apart"


# Written for this test: a Keras generator on a Colab TPU whose worker cannot call back into the
# notebook (tpu-connection's look-alike pattern `generator-input-refused`).
GENERATOR_REPORT = """Colab TPU: fit stops at the first batch with connection refused

Same notebook trains on the GPU runtime. On the TPU runtime:
train_gen = ImageDataGenerator(rescale=1 / 255).flow_from_directory("data/train", batch_size=64)
model.fit(train_gen, epochs=12)
InternalError: Failed to connect to remote host: Connection refused
"""


def test_a_refusal_says_which_entry_a_look_alike_pattern_set_aside(engine, kb):
    answer = engine.ask(GENERATOR_REPORT)
    assert answer.abstained
    aside = answer.set_aside
    assert aside is not None and aside["id"] == "tpu-connection"
    assert aside["pattern"] == "generator-input-refused" and aside["line"] >= 1
    assert "\n" not in aside["text"] and len(aside["text"]) <= 80
    for lang in ("en", "pt"):
        note = refusal_note(answer, lang)
        assert note is not None and "[tpu-connection]" in note and "generator-input-refused" in note
    text = answer_text(answer, kb)
    assert "[tpu-connection]" in text.splitlines()[-1]
    # what the JSON gives, and what history and export read back
    assert answer.to_dict()["set_aside"] == aside
    assert Answer.from_dict(answer.to_dict()).set_aside == aside


def test_an_answer_and_an_older_record_have_none(engine):
    answered = engine.ask(
        "ResourceExhaustedError: Ran out of memory in memory space hbm. Used 17.2G of 15.48G hbm."
    )
    assert not answered.abstained and answered.set_aside is None
    old = answered.to_dict()
    del old["set_aside"]
    assert Answer.from_dict(old).set_aside is None
    assert Answer.from_dict({**old, "set_aside": {"id": "x"}}).set_aside is None
