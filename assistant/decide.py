"""Decide: turn fused scores into a calibrated confidence, and abstain when nothing is convincing.

confidence(top entry) = sigmoid(bias + Σ coef_f · f) over the features of `features()`:

- `sig`, `lex`, `dense` — the entry's evidence from each channel (signature weight, normalized
  BM25, rescaled cosine), scaled down by a matching look-alike pattern;
- `margin` — its lead over the runner-up in fused score, and `score` — the fused score itself;
- `agree` — the share of channels and views (dense and BM25 on the whole input, its title and its
  error lines) that rank it first: the right answer to a long report tends to win several views,
  a look-alike one; `closeness` — how near it comes to winning each of them (its evidence as a
  share of the view's best, averaged): a report between two neighbouring entries has its answer a
  close second where it does not win, a look-alike trails far on the views it loses;
- `domain` — how much TPU/ML vocabulary the input uses; `tpu` — whether it shows TPU evidence at
  all (names a TPU, or carries a specific signature of the entry), its absence weighed by the
  input's length (`1 - (1 - evidence) * long`: a one-line question
  without the word TPU is not suspect, a long report without it is; the words of an XLA-first
  stack, JAX or bfloat16, count half: `tpu_evidence`) unless the context gate
  fired (then it counts in full: a one-liner about `gcloud compute ssh` or a GPU that names no
  TPU is about something else); `other_accel` / `other_service`
  — the context gate: another device (GPU, XLA_CPU, Edge TPU…) or a non-TPU Google service / plain
  VM named and no TPU (see text/domain.py);
- `long` — how long the input is (log10 of its lines, capped): real reports are long and their
  evidence is diluted, written ones short;
- `lookalike` — how much closer the input is to one of the entry's look-alikes described in words
  (`lookalikes` in its YAML: a GPU starved of data, a profiler broken by an upgrade…) than to the
  entry's own chunks: the dense counterpart of the `excludes` patterns.

The coefficients are a logistic regression fitted by `scripts/calibrate.py` on written fixtures and
real reports together: positives are top results that are right, negatives the top results of
out-of-scope inputs, of wrong answers and of near misses answered with their entry. The assistant
abstains when the top answer is more likely wrong than right (confidence below the model's
`threshold`, 0.5: see scripts/calibrate.py, step 3, and README, "Answer quality"); the
cross-validated figures are stored beside the coefficients. An answer a specific signature settled
with a clear lead over the runner-up is given whatever the model says (`settled_lead`: its
confidence is raised to the threshold). Runner-ups get the top result's
confidence scaled by their odds against it under the listwise ranking model
(`runner_up_confidence`).

An input mostly in a script nothing here reads is abstained on unless a specific signature
settled it (`unread`); so is a report whose decisive line names a problem the guide does not cover:
installing the software, TPU capacity or quota, a local path given to the TPU, a NaN loss
(`outside_guide`); so is a short input whose meaning is close to none of its answer's texts, with
no signature or profile figure to go on (`off_topic`: "how do I label a v4-8 TPU VM for my
team?").

Also here: the rule that lets decisive signatures answer without the embedding model
(`decisive`), and the assembly of a ranking's confidences (`rank`). The parameters are a typed
`calibration.Calibration`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from . import calibration
from .calibration import Calibration
from .retrieval.dense import dense_scaled
from .retrieval.fusion import FEATURES as RANK_FEATURES
from .retrieval.fusion import Evidence, Scored, channel_features, fuse
from .retrieval.profile_rules import ProfileHit
from .retrieval.signatures import SignatureHit
from .text.domain import stack_only, xla_elsewhere
from .text.parse import SHORT_INPUT_WORDS

if TYPE_CHECKING:
    from .engine import Retrieval

# The confidence model's features and the direction each one's meaning gives its coefficient,
# which the fit keeps (`scripts/calibrate.py`, step 2): +1 for evidence for the entry (its
# signatures, words and meaning, its lead over the runner-up, the TPU named), -1 for evidence
# against it (another device or service named, a closer look-alike), 0 where the meaning gives
# none (the input's length). Left
# free, the fit gave the lead over the runner-up a negative weight: on reports the knowledge base
# was written from, closeness already says it, and the two overlap. On the written blind sets the
# lead is what right answers have and answered look-alikes lack (0.5-0.7 against under 0.1).
FEATURE_SIGNS = {
    "sig": 1,
    "lex": 1,
    "dense": 1,
    "margin": 1,
    "domain": 1,
    "other_accel": -1,
    "other_service": -1,
    "score": 1,
    "long": 0,
    "agree": 1,
    "closeness": 1,
    "tpu": 1,
    "lookalike": -1,
}
FEATURES = tuple(FEATURE_SIGNS)  # in the order the fit and `features` use

# A signature this specific is TPU evidence (feature `tpu`) and settles an input in a script
# nothing here reads (`unread`) or one naming a problem outside the guide (`outside_guide`).
SPECIFIC_SIGNATURE = 0.8
# ... and at or under this weight a signature only supports the other channels: the knowledge base's
# signatures of 0.5 and less read code (`.item()`, `jax.profiler.start_trace`), a profile table's
# row or an info line ("Initializing the TPU system"), none of them an error
SUPPORT_ONLY = 0.5

# The channels whose agreement on the top entry is a feature (see `agreement`).
AGREE_CHANNELS = ("dense", "lex", "dense_head", "lex_head", "dense_err", "lex_err")


def load_params(path: str | None = None) -> Calibration:
    """The shipped calibration (or the file at `path`), checked against the features computed."""
    params = calibration.read(path) if path else calibration.shipped()
    params.check_features(RANK_FEATURES, FEATURES)
    return params


def decisive(evidence: dict[str, Evidence]) -> bool:
    """Signatures settle it: one entry has a full-weight signature and no look-alike match, and no
    other entry has a signature of weight 0.8 or more."""
    strong = [eid for eid, ev in evidence.items() if ev.sig >= 1.0 and ev.exclude == 0.0]
    rivals = [eid for eid, ev in evidence.items() if ev.sig >= 0.8]
    return len(strong) == 1 and rivals == strong


ViewScores = dict[str, dict[str, float]]  # entry id -> channel/view -> its ranking feature


def view_scores(retrieval: Retrieval, floor: float) -> ViewScores:
    """Every entry's evidence on each channel and view (`fusion.channel_features`)."""
    return {eid: channel_features(ev, floor) for eid, ev in retrieval.evidence.items()}


def agreement(entry_id: str, feats: ViewScores) -> float:
    """Share of the dense and lexical channels (each view) whose best entry is `entry_id`:
    the right answer to a report tends to win on several views at once, a look-alike on one."""
    wins = 0
    for ch in AGREE_CHANNELS:
        best = max(feats, key=lambda eid: (feats[eid][ch], eid == entry_id), default=None)
        wins += best == entry_id and feats[entry_id][ch] > 0
    return wins / len(AGREE_CHANNELS)


def closeness(entry_id: str, feats: ViewScores) -> float:
    """Mean over the same channels and views of `entry_id`'s evidence as a share of the best
    entry's there: 1 when it wins them all, near 1 when it is a close second where it loses (a
    report between two neighbouring entries), low when it trails far behind on some."""
    total = 0.0
    for ch in AGREE_CHANNELS:
        best = max((f[ch] for f in feats.values()), default=0.0)
        total += feats[entry_id][ch] / best if best > 0 else 0.0
    return total / len(AGREE_CHANNELS)


def features(
    scored: Scored, margin: float, retrieval: Retrieval, params: Calibration
) -> dict[str, float]:
    ev = scored.evidence
    keep = 1.0 - ev.exclude
    long = min(1.0, math.log10(1 + retrieval.facts.line_count) / 2)
    tpu_seen = tpu_evidence(scored, retrieval.facts.context)
    gated = bool(retrieval.other_accel or retrieval.other_service)
    views = view_scores(retrieval, params.dense_floor)
    return {
        "sig": keep * ev.sig,
        "lex": keep * ev.lex,
        "dense": keep * dense_scaled(ev.dense, params.dense_floor),
        "margin": margin,
        "domain": retrieval.domain,
        "other_accel": retrieval.other_accel,
        "other_service": retrieval.other_service,
        "score": scored.score,
        "long": long,
        "agree": agreement(scored.entry_id, views),
        "closeness": closeness(scored.entry_id, views),
        # Missing TPU evidence counts in proportion to length: a one-line question gives no context
        # either way, a 60-line report about a TPU names it. Where the input names another device
        # or service (the context gate), it gives context: the absence counts in full. A specific
        # signature of the entry is TPU evidence too: the knowledge base's signatures are messages
        # a TPU run prints, their GPU and CPU look-alikes being `excludes` (a JAX log can say
        # "memory space hbm" and never "TPU"); those any machine prints say so
        # (`tpu_evidence: false`, `tpu_evidence`).
        "tpu": 1.0 - (1.0 - tpu_seen) * (1.0 if gated else long),
        "lookalike": lookalike_lead(ev),
    }


# The words of the XLA-first stacks (JAX, Flax, pjit, bfloat16…) with no other device named: half
# of a TPU's evidence. A JAX report on a TPU often never says "TPU" (a question about
# `lax.scan` substeps, bf16 weights), while GPU users of the same stack name their GPU.
STACK_EVIDENCE = 0.5


def tpu_evidence(scored: Scored, context: dict[str, Any]) -> float:
    """1 when the input names a TPU (`text.domain.Context.tpu`) and its title is not about another
    device (`Context.subject`), or a specific signature of the entry matched (`settled`) whose
    message only a TPU setup prints; `STACK_EVIDENCE` when it only speaks an XLA-first stack and
    names no other device; else 0. An ssh session's "client_loop: send disconnect" settles
    ssh-disconnect but shows no TPU: any machine prints it (`tpu_evidence: false` in the YAML).
    Nor does any signature where the input names no TPU and names a device that runs the same
    XLA or PyTorch/XLA stack (`xla_elsewhere`: a Trainium's aten:: counters are a TPU's words)."""
    if context.get("tpu") and not context.get("subject"):
        return 1.0
    if (
        settled(scored)
        and not xla_elsewhere(context)
        and any(
            hit.tpu_evidence and hit.weight >= SPECIFIC_SIGNATURE
            for hit, _ in scored.evidence.signature_hits
        )
    ):
        return 1.0
    return STACK_EVIDENCE if stack_only(context) else 0.0


LOOKALIKE_FULL = 0.2  # a look-alike this much closer (in cosine) than the entry counts in full


def lookalike_lead(ev: Evidence) -> float:
    """How much closer the input is to one of the entry's described look-alikes than to the entry
    itself (cosines, `all` view), in 0..1 (reaching 1 at LOOKALIKE_FULL); 0 when it is closer to
    the entry, or the entry describes none. The closest look-alike is weighed against the entry's
    dense evidence, the mean of its closest chunks (`Evidence.dense`). Against its closest chunk
    alone, a fairer-looking match of one text against one text, the refit answered right three
    blind in-scope reports it had refused and lost one, but answered six look-alikes it had
    refused: the mean stays."""
    if not ev.lookalike_chunk:
        return 0.0
    return min(1.0, max(0.0, ev.lookalike - ev.dense) / LOOKALIKE_FULL)


# How far a look-alike must lead for a refusal to name it (`resembled_lookalike`): half of
# LOOKALIKE_FULL, a look-alike 0.1 closer in cosine than the entry's own dense evidence
LOOKALIKE_SHOWN = 0.5


def resembled_lookalike(top: Scored) -> str | None:
    """After a refusal, the look-alike the knowledge base describes for the top entry (the text of
    one of its `lookalikes`) when the input reads clearly more like it than like the entry: the
    refusal then says which known case with another cause the report resembles. None otherwise,
    or where a signature of the entry settled it."""
    ev = top.evidence
    if settled(top) or lookalike_lead(ev) < LOOKALIKE_SHOWN:
        return None
    return ev.lookalike_chunk


def _model(params: Calibration, used_dense: bool) -> calibration.Confidence:
    """The fitted model for the channels that ran: all three, or (when decisive signatures made
    the embedding model unnecessary) signatures and lexical only."""
    return params.confidence if used_dense else params.confidence_nodense


def confidence(feats: dict[str, float], params: Calibration, used_dense: bool = True) -> float:
    return _model(params, used_dense).probability(feats)


def runner_up_confidence(
    top_conf: float, top_score: float, score: float, params: Calibration
) -> float:
    """A runner-up's confidence: the top result's, times the odds of the runner-up against the top
    under the fitted listwise ranking model (softmax over `rank_scale * fused score`)."""
    return top_conf * math.exp(-params.rank_scale * max(0.0, top_score - score))


def should_abstain(top_confidence: float, params: Calibration, used_dense: bool = True) -> bool:
    return top_confidence < _model(params, used_dense).threshold


@dataclass
class Ranked:
    """A fused ranking with a confidence per entry, and whether to abstain."""

    entries: list[tuple[Scored, float]]  # best first: (fused score and evidence, confidence)
    abstained: bool
    # runner-ups placed as the settled answer's neighbours in the knowledge base (`runner_ups`)
    neighbours: frozenset[str] = frozenset()
    # refused because the report's error is a known look-alike (`lookalike_error`)
    lookalike: bool = False
    # after a refusal: the entry a look-alike pattern set aside, which would have come first
    # without it (`set_aside`)
    set_aside: str | None = None
    # refused because a short input is close in meaning to no entry (`off_topic`)
    off_topic: bool = False


def settled(scored: Scored) -> bool:
    """A specific signature of the entry matched, and no look-alike pattern of it did."""
    return _specific(scored.evidence, scored.evidence.sig)


def _specific(ev: Evidence, sig: float) -> bool:
    """A signature of weight `sig` is specific once the entry's look-alike patterns scale it."""
    return (1.0 - ev.exclude) * sig >= SPECIFIC_SIGNATURE


# The fused-score lead over the runner-up of an answer a specific signature settled, from which the
# answer stands whatever the confidence model makes of the rest of the report (`settled_lead`)
SETTLED_LEAD = 0.6


def settled_lead(top: Scored, margin: float, retrieval: Retrieval) -> bool:
    """A specific signature of the top entry settled the answer (`settled`) and it leads the
    runner-up by SETTLED_LEAD or more in fused score: its confidence is then at least the
    threshold, so it is answered. The confidence model leans on closeness, how near the entry
    comes to winning every dense and lexical view, because on the reports the knowledge base was
    written from that says nearly everything; a long report around a decisive line (a CTC loss
    counted among the ops PyTorch/XLA ran on the CPU, a global batch of 100 that does not divide
    among 8 devices) wins few views and was refused at 0.16-0.48. Over every labelled and written
    set, 13 refused inputs met this: 11 right (8 of them from the written blind sets) and 2
    look-alikes; the real reports had none (their settled answers were all given). Not where
    the input is about another device or service (the context gate) and the signature is one any
    machine prints (an ssh "client_loop: send disconnect" from a GPU VM): it shows no TPU."""
    if not settled(top) or margin < SETTLED_LEAD:
        return False
    gated = retrieval.other_accel > 0 or retrieval.other_service > 0
    return not gated or tpu_evidence(top, retrieval.facts.context) == 1.0


def runner_ups(ranked: list[Scored], related: Sequence[str]) -> list[Scored]:
    """The runner-ups, in order. After an answer a specific signature settled (`settled`), the
    fused scores of the other entries are shared words with the rest of the report (a title that
    says "Colab"…), and the entries the knowledge base names as the answer's neighbours
    (`related` in its YAML: an HBM OOM's neighbours are a batch or model too large, padding…)
    are the likelier second causes: entries with signature or profile evidence of their own come
    first, then those neighbours, then the rest, each group in fused order. Otherwise the fused
    order."""
    rest = ranked[1:]
    if not rest or not related or not settled(ranked[0]):
        return rest
    return sorted(rest, key=lambda s: _group(s, related))


def _group(s: Scored, related: Sequence[str]) -> int:
    """A runner-up's group after a settled answer: 0 own signature or profile evidence, 1 a
    neighbour of the answer, 2 the rest."""
    return 0 if s.evidence.sig > 0 else 1 if s.entry_id in related else 2


def rank(
    retrieval: Retrieval,
    params: Calibration,
    top_k: int,
    related: Callable[[str], Sequence[str]] | None = None,
) -> Ranked:
    """Fuse the evidence, give the top entry its calibrated confidence and the runner-ups theirs
    (see `runner_up_confidence`; their order: `runner_ups`, with `related` giving an entry's
    neighbours in the knowledge base), and decide whether to abstain."""
    ranked = fuse(retrieval.evidence, params)
    if not ranked:
        return Ranked([], True)
    top = ranked[0]
    margin = top.score - ranked[1].score if len(ranked) > 1 else top.score
    top_conf = confidence(features(top, margin, retrieval, params), params, retrieval.used_dense)
    if settled_lead(top, margin, retrieval):
        top_conf = max(top_conf, _model(params, retrieval.used_dense).threshold)
    near = related(top.entry_id) if related else ()
    others = runner_ups(ranked, near)[: max(top_k, 1) - 1]
    entries = [(top, top_conf)] + [
        (s, runner_up_confidence(top_conf, top.score, s.score, params)) for s in others
    ]
    placed = settled(top)
    neighbours = frozenset(s.entry_id for s in others if placed and _group(s, near) == 1)
    lookalike = lookalike_error(retrieval.evidence)
    abstain = (
        lookalike
        or displaced(retrieval.evidence)
        or should_abstain(top_conf, params, retrieval.used_dense)
        or unread(retrieval, top)
        or outside_guide(retrieval, top)
        or vague_input(retrieval, top)
    )
    off = not abstain and off_topic(retrieval, top)
    aside = set_aside(retrieval.evidence, params) if abstain else None
    return Ranked(entries, abstain or off, neighbours, lookalike, aside, off)


def lookalike_error(evidence: dict[str, Evidence]) -> bool:
    """An entry's own error signature matched, and so did one of its look-alike patterns
    (`excludes`) of weight SPECIFIC_SIGNATURE or more — the report's error is that entry's known
    look-alike (a vmem overflow beside the HBM one, a GPU's OOM) — and no signature or profile
    rule of any entry stands unexcluded. The top result is then only the entry that shares the
    most words with the rest of the report: the assistant abstains and says why (the answer's
    notes). Over every labelled set (real, written, blind samples to EE, the fixtures' near
    misses) all 25 such inputs are look-alikes."""
    caught = any(ev.sig > 0 and ev.exclude >= SPECIFIC_SIGNATURE for ev in evidence.values())
    return caught and not _signature_stands(evidence)


def _signature_stands(evidence: dict[str, Evidence]) -> bool:
    """A signature or profile rule of some entry matched and no look-alike pattern of that entry
    of weight SPECIFIC_SIGNATURE or more contests it."""
    return any(ev.sig > 0 and ev.exclude < SPECIFIC_SIGNATURE for ev in evidence.values())


# The weight from which a look-alike pattern refuses the answer (`displaced`). The patterns of 0.9
# and more name another world: a GPU's or CPU's XLA device, Windows or a Mac, a plain VM, inputs
# and labels shuffled apart. Those of 0.8 often point to a neighbour instead (a torch.profiler
# table is op-profiling's, not an op that fell back), and there the runner-up is right: at 0.8,
# one right answer over every labelled and written set (a question on profiling with PyTorch/XLA)
# was refused.
DISPLACES = 0.9


def displaced(evidence: dict[str, Evidence]) -> bool:
    """One of the look-alike patterns (`excludes`) of weight DISPLACES or more matched (inputs and
    labels shuffled apart, a Mac finding no TPU), whichever entry it belongs to, and no signature
    or profile rule of any entry stands unexcluded: the report is about that other world, and the
    entry on top only shares the most words with it, so the assistant abstains (and names the
    entry set aside where the pattern pushed it off the top: `set_aside`). `lookalike_error` is
    the case where the excluded entry's own error signature had matched too.

    The entry need not be the one that would come first: labels shuffled apart in a report that
    reads more like dynamic shapes (it shows `batch(…, drop_remainder=True)`) are still the
    person's pipeline. Over the real reports and the fixtures, the inputs where such a pattern
    matched with no signature standing are all look-alikes and near misses."""
    if _signature_stands(evidence):
        return False
    return any(ev.exclude >= DISPLACES and ev.exclude_hits for ev in evidence.values())


# The lightest look-alike pattern (`excludes`) named after a refusal. The knowledge base's
# patterns weigh 0.5 to 0.95, most 0.7 to 0.9; from 0.6 up, the 37 refusals that name one over
# every labelled set (real, dev, blind, written) are all look-alikes.
SET_ASIDE = 0.6


def set_aside(evidence: dict[str, Evidence], params: Calibration) -> str | None:
    """The entry one of its look-alike patterns (`excludes`, weight SET_ASIDE or more) pushed down,
    and that would come first with the pattern lifted: after a refusal, the answer says which
    entry the report resembles and which of its lines says it is something else (a Python
    generator behind a "Connection refused" that reads like the TPU connection). None when no
    pattern changed the top."""
    return _pushed_down(evidence, params, SET_ASIDE)


def _pushed_down(evidence: dict[str, Evidence], params: Calibration, weight: float) -> str | None:
    """The first entry (by id) that one of its look-alike patterns of `weight` or more pushed off
    the top: with the pattern lifted, it would come first."""
    for eid, ev in sorted(evidence.items()):
        if ev.exclude < weight or not ev.exclude_hits:
            continue
        ranked = fuse({**evidence, eid: replace(ev, exclude=0.0)}, params)
        if ranked and ranked[0].entry_id == eid:
            return eid
    return None


def unread(retrieval: Retrieval, top: Scored) -> bool:
    """Much of the input is in a script neither the model nor the lexicon reads (Chinese,
    Cyrillic…; `text.parse.unread_script`) and no specific signature settled the answer: its
    similarities are then noise, whatever the confidence model makes of them (it has one such
    report to learn from), so the assistant abstains and says why (the answer's notes)."""
    return bool(retrieval.facts.other_script) and not settled(top)


def outside_guide(retrieval: Retrieval, top: Scored) -> bool:
    """A key line names a problem the guide behind the knowledge base does not cover — the software
    could not be installed or loaded, there was no capacity or quota for the TPU, the TPU's host was
    given a local path, the loss became NaN (`text.outside`) — and no specific signature of the
    answer explains that line, nor did one of its signatures read an earlier line (`_came_first`),
    nor does one tell what followed it (`_follows`): the assistant abstains and says why (the
    answer's notes). The confidence model has next to nothing to learn this from: none of the real
    reports it is fitted on has such a line."""
    outside = retrieval.facts.outside
    if outside is None:
        return False
    line = outside["line"]
    return not (_settled_by_a_message(top) or _came_first(top, line) or _follows(top))


def _asks(hit: SignatureHit | ProfileHit) -> bool:
    """The hit sits in a sentence that asks ("Is RESOURCE_EXHAUSTED the same as the HBM error, or
    should I shrink the model?"): the person's guess at a cause, not a message the run printed.
    A profile figure is no sentence."""
    if isinstance(hit, ProfileHit):
        return False
    first = hit.matched.split("\n", 1)[0]
    at = hit.line.find(first)
    end = _SENTENCE_END.search(hit.line, at + len(first) if at >= 0 else 0)
    return (end.group(0) if end else hit.line.rstrip()[-1:]) == "?"


# "?" before a space; "." or "!" before a space and no lower-case word (not "i.e. should"), or
# after a word of three letters or more even where the next word starts in lower case, as informal
# writing goes on ("e o terminal continua 'rodando'. tive q matar na mão")
_SENTENCE_END = re.compile(
    r"\?(?=\s|$)|[.!](?=\s*$|\s+[^a-z\s])|(?<=[a-z'\"”)]{3})[.!](?=\s+[a-z])"
)


def _settled_by_a_message(top: Scored) -> bool:
    """`settled`, by a signature hit that is not a question (`_asks`) and not a profile figure:
    a figure measures a slowdown, it does not explain an error line outside the guide (a
    profile's input wait told of an earlier run, above a bucket path that does not exist)."""
    ev = top.evidence
    weights = (
        h.weight for h, _ in ev.signature_hits if not _asks(h) and not isinstance(h, ProfileHit)
    )
    return _specific(ev, max(weights, default=0.0))


def _came_first(top: Scored, line: int) -> bool:
    """A signature of the answer matched a line before the one outside the guide, and not that
    line itself: the report's first error is the entry's, and what follows is the aftermath (a
    TensorFlow upgraded to get past a version skew now fails to load an op library). The reverse
    order, a library that does not load and then a TPU that cannot be reached, stays refused:
    there the first error is the cause. So does a line both read (libtpu.so that cannot be
    opened, so the TPU backend cannot start), even where a title said it first, and an answer a
    look-alike pattern of its own contests (the same libtpu line on a GPU machine). Only messages
    count: a profile figure (`ProfileHit`, placed on the first line naming one) is no error, and a
    per-device batch stated above a vmem overflow does not make the overflow the entry's. Nor does
    a signature that only supports its entry (SUPPORT_ONLY): those read a call in the person's code
    (`tf.profiler.experimental.start(…)` above the bucket's 403 it raised), a table's header or an
    info line, not an error. Nor is a
    line that asks ("process just says Killed on v4-8, HBM OOM?"): it is the person's guess at the
    cause, which the message below it answers."""
    lines = {line_no for _, line_no in _messages(top)}
    return line not in lines and any(n < line for n in lines)


def _follows(top: Scored) -> bool:
    """A signature of the answer tells what followed an error (`Signature.aftermath`: the other
    processes left hanging, a Ctrl+C that does not stop the run), in a sentence that states it:
    the error outside the guide (a data loader's crash in one worker) is how the entry's problem
    began, and the person asks about what came after it. Held to the same bar as `_came_first`
    (`_messages`)."""
    return any(hit.aftermath for hit, _ in _messages(top))


def _messages(top: Scored) -> list[tuple[SignatureHit, int]]:
    """The answer's signature hits that state a message, with their lines: none where a look-alike
    pattern of the entry's own contests the answer; no profile figure, no signature that only
    supports its entry (SUPPORT_ONLY: code, a table's header, an info line) and no sentence that
    asks (`_asks`: the person's guess at a cause)."""
    if top.evidence.exclude > 0:
        return []
    return [
        (hit, line_no)
        for hit, line_no in top.evidence.signature_hits
        if isinstance(hit, SignatureHit) and not _asks(hit) and hit.weight > SUPPORT_ONLY
    ]


# MiniLM's cosine between two texts about different things is about 0.1-0.3, and a question and
# the symptom it describes in other words reach 0.5 and more; under this the answer's entry is at
# most loosely related in meaning to the input.
RELATED_COSINE = 0.43


def off_topic(retrieval: Retrieval, top: Scored) -> bool:
    """A short input (one question or remark: SHORT_INPUT_WORDS words at most), with no
    specific signature and no profile figures, whose meaning is close to none of the answer's
    entry's texts (best cosine under RELATED_COSINE): the few words it shares with the entry (a TPU
    type, a number, "per") are not what it asks about. "How do I label a v4-8 TPU VM for my
    team?" shares the TPU type with the HBM table of hbm-oom (as "what is the difference between
    v5e and v5p?" did, a question about the hardware now: `text.outside`), "can I use a TPU v4
    with Docker?" a word with gcloud's component manager; the confidence model, whose
    out-of-scope training inputs name no TPU, answered them with confidence. Short questions
    about an entry's own problem reach 0.5 and more ("how do I see libtpu logs?", "my jax jit
    keeps recompiling"). The assistant abstains and says what it covers (the answer's notes)."""
    facts = retrieval.facts
    return (
        retrieval.used_dense
        and facts.words <= SHORT_INPUT_WORDS
        and not facts.profile
        and not settled(top)
        and top.evidence.dense < RELATED_COSINE
    )


def vague_input(retrieval: Retrieval, top: Scored) -> bool:
    """The input names the setup but no problem ("jax on tpu", "TPU error"), or says only that a
    run is slow ("TPU slow"; both `text.vague`), and no signature settled it: the entries (every
    one, or the five slow-run ones) share its few words, so the ranking is a guess the confidence
    model cannot see through (its training inputs all say something). The assistant abstains and
    asks for the error or the symptom, or for the profile's figures (the answer's notes)."""
    facts = retrieval.facts
    return (facts.vague or facts.slow_only) and not settled(top)
