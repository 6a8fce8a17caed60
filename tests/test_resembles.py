"""A refusal whose report reads clearly more like a look-alike the knowledge base describes for its
top entry (`lookalikes`) than like the entry itself names that case (`decide.resembled_lookalike`,
`Answer.resembles`), in every output."""

from __future__ import annotations

from dataclasses import replace

from assistant.answer import Answer, refusal_note
from assistant.cli.output import answer_text
from assistant.decide import LOOKALIKE_SHOWN, resembled_lookalike
from assistant.retrieval.fusion import Evidence, Scored
from assistant.retrieval.signatures import SignatureHit

CASE = "a known case with another cause"


def _top(dense: float, lookalike: float, sig: float = 0.0) -> Scored:
    ev = Evidence(dense=dense, lookalike=lookalike, lookalike_chunk=CASE, sig=sig)
    return Scored("a-entry", 1.0, ev)


def test_only_a_clear_lead_of_the_look_alike_is_named():
    # LOOKALIKE_SHOWN of the way to a full lead (0.2 in cosine) and more
    assert resembled_lookalike(_top(0.40, 0.52)) == CASE
    assert resembled_lookalike(_top(0.40, 0.40 + 0.2 * LOOKALIKE_SHOWN - 0.01)) is None
    assert resembled_lookalike(_top(0.50, 0.45)) is None
    none = _top(0.4, 0.6)
    assert (
        resembled_lookalike(Scored("a-entry", 1.0, replace(none.evidence, lookalike_chunk=None)))
        is None
    )
    # a specific signature of the entry settles it: no described case outweighs that
    hit = SignatureHit("a-entry", "sig", 0.9, 0, "line", "line", {})
    settled = _top(0.4, 0.6, sig=0.9)
    settled.evidence.signature_hits.append((hit, 1))
    assert resembled_lookalike(settled) is None


# Written for this test: PyTorch Lightning's own TPU check failing on the workers of a pod
# (tpu-connection's described look-alike), while torch_xla reaches the TPU there.
LIGHTNING_POD = """Lightning on a v3-32 pod: every worker fails in Trainer(tpu_cores=8)
pytorch_lightning.utilities.exceptions.MisconfigurationException: No TPU devices were found.
The torch_xla ImageNet example started with xla_dist on the same pod trains on all 32 cores.
"""


def test_a_refusal_names_the_look_alike_the_report_reads_like(engine, kb):
    answer = engine.ask(LIGHTNING_POD)
    assert answer.abstained and answer.set_aside is None
    resembles = answer.resembles
    assert resembles is not None and resembles["id"] == "tpu-connection"
    assert "Lightning" in resembles["text"]
    for lang in ("en", "pt"):
        note = refusal_note(answer, lang)
        assert note is not None and "[tpu-connection]" in note and "Lightning" in note
    assert "[tpu-connection]" in answer_text(answer, kb).splitlines()[-1]
    # what the JSON gives, and what history and export read back
    assert answer.to_dict()["resembles"] == resembles
    assert Answer.from_dict(answer.to_dict()).resembles == resembles
    assert Answer.from_dict({**answer.to_dict(), "resembles": {"id": "x"}}).resembles is None


def test_an_answer_names_no_look_alike(engine):
    answer = engine.ask("RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm on the v4-8")
    assert not answer.abstained and answer.resembles is None
