"""Issue 15: one renderer of fix steps. The CLI (`walk_text`), the Markdown export and the F7 script
show the same `RenderedStep`s, through assistant/render.py; a walk saved as JSON comes back as the
same steps (`RenderedStep.from_dict`)."""

from __future__ import annotations

from assistant import history
from assistant.cli.output import walk_text
from assistant.export import session_markdown
from assistant.render import (
    RenderedStep,
    fix_script,
    step_head,
    steps_markdown,
    steps_text,
)

STEPS = [
    RenderedStep(
        "command",
        "Look at the TPU.",
        command="gcloud compute tpus tpu-vm describe my-tpu --zone=us-central1-b",
        risk="read-only",
    ),
    RenderedStep(
        "code",
        "Lower the batch.",
        language="python",
        before="B = 100",
        after="B = 64",
        file="train.py",
        diff="--- a/train.py\n+++ b/train.py\n@@ -1 +1 @@\n-B = 100\n+B = 64",
    ),
    RenderedStep("note", "Restart the job.", missing=["zone"]),
    RenderedStep("note"),
]


def test_a_saved_step_reads_back_as_the_same_step():
    for step in STEPS:
        assert RenderedStep.from_dict(step.to_dict()) == step
    assert RenderedStep.from_dict({"kind": "note", "text": "x", "later_field": 1}).text == "x"


def test_heads_and_text():
    assert [step_head(i, s) for i, s in enumerate(STEPS, 1)] == [
        "1. Look at the TPU.",
        "2. Lower the batch.",
        "3. Restart the job.",
        "4.",
    ]
    assert steps_text(STEPS, "en") == [
        "1. Look at the TPU.  [risk: read-only]",
        "",
        "    gcloud compute tpus tpu-vm describe my-tpu --zone=us-central1-b",
        "",
        "2. Lower the batch.",
        "",
        "    --- a/train.py",
        "    +++ b/train.py",
        "    @@ -1 +1 @@",
        "    -B = 100",
        "    +B = 64",
        "",
        "3. Restart the job.",
        "",
        "4.",
        "",
    ]
    assert steps_text(STEPS[:1], "pt")[0] == "1. Look at the TPU.  [risco: read-only]"


def test_markdown_fences_and_redaction():
    md = steps_markdown(STEPS, "en", redact=lambda s: s.replace("my-tpu", "TPU_1"))
    assert md[:5] == [
        "1. Look at the TPU. _(risk: read-only)_",
        "",
        "```sh",
        "gcloud compute tpus tpu-vm describe TPU_1 --zone=us-central1-b",
        "```",
    ]
    assert "```diff" in md and "3. Restart the job." in md
    tricky = [RenderedStep("command", command="echo '```'", risk="read-only")]
    assert "````sh" in steps_markdown(tricky, "en")  # the content cannot close the fence


def test_every_output_shows_the_same_steps():
    data = {
        "kind": "fix",
        "path": [["generation", "v3"]],
        "title": "Lower the batch size",
        "steps": [s.to_dict() for s in STEPS],
        "check": "It trains.",
        "missing": ["zone"],
    }
    text = walk_text(data, "en")
    assert "\n".join(steps_text(STEPS, "en")) in text
    session = history.new_session("en")
    session.turns.append(
        history.Turn(query="q", entry_id="hbm-oom", walk={"en": data}, path=[["generation", "v3"]])
    )
    md = session_markdown(session, "en")
    assert "\n".join(steps_markdown(STEPS, "en")) in md
    script = fix_script(STEPS, "Lower the batch size", "en", check="It trains.")
    assert "# 1. Look at the TPU.\n# risk: read-only\ngcloud compute tpus" in script
