"""The assistant's core: text in, an `Answer` out. The CLI and the TUI are thin layers over this.

raw text -> normalize -> parse (facts, key lines) -> retrieve (signatures + lexical + dense)
-> fuse -> decide (confidence, abstention) -> Answer
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from . import decide, paths, store
from .answer import Answer, Result, context_hint, own_refusal
from .calibration import Calibration
from .decide import decisive
from .explain import clip, explain, explain_context, explain_set_aside
from .kb import KnowledgeBase, load_knowledge
from .retrieval import dense
from .retrieval.chunks import LOOKALIKE
from .retrieval.fusion import VIEWS, Evidence, Scored
from .retrieval.profile_rules import route as route_profile
from .retrieval.signatures import SignatureHit, SignatureMatcher
from .strings import t
from .text.domain import domain_terms, names_a_tpu_run, tpu_host_only, without_tpu
from .text.normalize import normalize
from .text.parse import FULL_SCAN_LINES, Facts, parse, query_views, sentence_says_resolved
from .text.profile import ProfileFigures, names_a_figure

__all__ = ["Answer", "Engine", "Result", "Retrieval"]

DENSE_K = 200  # chunks fetched from FAISS per query
LEX_K = 100  # entries scored by BM25 per query
DENSE_PER_ENTRY = 3  # an entry's dense evidence: the mean of its closest chunks


class _Clock:
    """Adds the seconds since the last lap to `timings[stage]` (no-op without a dict)."""

    def __init__(self, timings: dict[str, float] | None):
        self.timings = timings
        self.t = time.perf_counter()

    def lap(self, stage: str) -> None:
        if self.timings is not None:
            now = time.perf_counter()
            self.timings[stage] = self.timings.get(stage, 0.0) + now - self.t
            self.t = now


@dataclass
class Retrieval:
    """What the channels found for one input, before fusion (reusable with other parameters)."""

    facts: Facts
    evidence: dict[str, Evidence]
    truncated: bool
    domain: float = 0.0  # share of the domain vocabulary the input uses (0, 1/3, 2/3, 1)
    other_accel: float = 0.0  # 1: another device (GPU, XLA_CPU…) and no TPU, or a title about one
    used_dense: bool = True  # False when decisive signatures made the model unnecessary
    other_service: float = 0.0  # 1 when it names a non-TPU Google service or a plain VM, no TPU


class Engine:
    """Holds the knowledge base, the index and the model; safe to share between threads."""

    def __init__(
        self,
        kb: KnowledgeBase | None = None,
        index_root: Path | None = None,
        user_dirs: list[Path] | None = None,
        embedder: dense.Embedder | None = None,
        params: Calibration | None = None,
    ):
        self._kb = kb
        self._user_dirs = user_dirs
        self.index_root = index_root or paths.index_dir()
        self.embedder = embedder or dense.Embedder()
        self.params = params or decide.load_params()
        self._index: store.Index | None = None
        self._matchers: dict[str, SignatureMatcher] = {}
        self._lock = threading.RLock()
        self.last_build: store.BuildReport | None = None
        self.rebuild_reason: str | None = None

    @property
    def kb(self) -> KnowledgeBase:
        if self._kb is None:
            dirs = self._user_dirs if self._user_dirs is not None else [paths.user_knowledge_dir()]
            self._kb = load_knowledge(user_dirs=dirs)
        return self._kb

    def index(self, progress: store.Progress | None = None) -> store.Index:
        with self._lock:
            if self._index is None:
                self._index, self.last_build, self.rebuild_reason = store.ensure(
                    self.index_root, self.kb, self.embedder, progress
                )
            return self._index

    def warm_up(self, progress: store.Progress | None = None) -> None:
        """Load (or build) the index, the model and the signature Sets, so the first query is
        fast whatever it is (a one-shot `ask` skips this and compiles only what it needs)."""
        self.index(progress)
        self.embedder.load()
        for field in ("signatures", "excludes"):
            self._matcher(field).groups()

    # -- the pipeline -----------------------------------------------------------------------------

    def retrieve(
        self, text: str | bytes, dense_mode: str = "always", timings: dict[str, float] | None = None
    ) -> Retrieval:
        """Normalize, parse and run the channels; no ranking decision yet.

        `dense_mode="auto"` skips the dense channel (and so never loads the model) when the
        signatures alone are decisive (see `decisive`) and the model is not loaded yet: a one-shot
        `ask` on an exact error line then costs no torch import. `timings`, if given, receives the
        seconds spent per stage.
        """
        clock = _Clock(timings)
        norm = normalize(text)
        facts = parse(norm)
        clock.lap("parse")
        if not norm.lines:
            return Retrieval(facts, {}, norm.truncated)
        index = self.index()
        views = query_views(norm, facts)
        query = views["all"]
        # Sparse: an entry gets evidence only when a channel finds something for it, so a knowledge
        # base of thousands of entries costs nothing for the entries a query does not touch.
        evidence: dict[str, Evidence] = defaultdict(Evidence)
        clock.lap("index")
        self._signatures(norm, facts, evidence)
        self._profile(norm, facts, evidence)
        clock.lap("signatures")
        self._lexical(index, views, evidence)
        clock.lap("lexical")
        used_dense = not (dense_mode == "auto" and not self.embedder.loaded and decisive(evidence))
        if used_dense:
            self._dense(index, views, evidence, clock, names_a_tpu_run(facts.context))
        domain = min(3, len(domain_terms(query))) / 3
        gate = facts.context.get("gate")
        return Retrieval(
            facts,
            dict(evidence),
            norm.truncated,
            domain,
            float(gate == "device"),
            used_dense,
            float(gate == "service"),
        )

    def _signatures(self, norm, facts: Facts, evidence: dict[str, Evidence]) -> None:
        # Signatures see every line (up to a bound): a key line the parser missed still counts.
        if len(norm.lines) <= FULL_SCAN_LINES:
            lines, numbers = norm.lines, norm.line_numbers
        else:
            lines = [k["text"] for k in facts.key_lines]
            numbers = [k["line"] for k in facts.key_lines]

        def as_pasted(hit: SignatureHit) -> tuple[SignatureHit, int]:
            """The hit with the input's line numbers (where its match starts, and ends)."""
            return replace(hit, last_line_no=numbers[hit.last_line_no]), numbers[hit.line_no]

        resolved = set(facts.resolved_lines)

        def told_as_fixed(hit: SignatureHit) -> bool:
            """Every line the hit spans says its problem is already fixed: the report's story,
            not what it asks about (`parse.says_resolved`). A hit on one line, by the sentence
            it is in (`parse.sentence_says_resolved`)."""
            span = range(hit.line_no, hit.last_line_no + 1)
            if not resolved or not all(numbers[i] in resolved for i in span):
                return False
            if hit.line_no != hit.last_line_no:
                return True
            return sentence_says_resolved(lines[hit.line_no], hit.matched)

        for hit in self._matcher("signatures").match(lines):
            if told_as_fixed(hit):
                continue
            ev = evidence[hit.entry_id]
            ev.signature_hits.append(as_pasted(hit))
            ev.sig = max(ev.sig, hit.weight)
        host_side = tpu_host_only(facts.context)
        for hit in self._matcher("excludes").match(lines):
            if told_as_fixed(hit):
                continue
            if hit.tpu_host_device and host_side:
                continue  # XLA's CPU device named by a TPU job's host: not a look-alike here
            if hit.weight > evidence[hit.entry_id].exclude:
                ev = evidence[hit.entry_id]
                ev.exclude = hit.weight
                ev.exclude_hits.append(as_pasted(hit))

    @staticmethod
    def _profile(norm, facts: Facts, evidence: dict[str, Evidence]) -> None:
        """Supporting evidence from pasted profile figures (see retrieval/profile_rules.py)."""
        if not facts.profile:
            return
        shows_error = bool(facts.exceptions or facts.status_codes)
        # the figures the parser read (and `facts` shows), not read a second time
        hits = route_profile(ProfileFigures.from_dict(facts.profile), shows_error)
        if not hits:
            return  # figures that route nowhere (an OOM report's unpadded sizes): no line to find
        line = next(
            (
                norm.line_numbers[i]
                for i, text in enumerate(norm.lines[:FULL_SCAN_LINES])
                if names_a_figure(text)
            ),
            norm.line_numbers[0],
        )
        for hit in hits:
            ev = evidence[hit.entry_id]
            if hit.rules_out:
                if hit.weight > ev.exclude:
                    ev.exclude = hit.weight
                    ev.exclude_hits.append((hit, line))
                continue
            if hit.measures:
                ev.exclude, ev.exclude_hits = 0.0, []
            ev.signature_hits.append((hit, line))
            ev.sig = max(ev.sig, hit.weight)

    def _matcher(self, field: str) -> SignatureMatcher:
        with self._lock:
            if field not in self._matchers:
                self._matchers[field] = SignatureMatcher(self.kb.entries, field)
            return self._matchers[field]

    @staticmethod
    def _lexical(index: store.Index, views: dict[str, str], evidence: dict[str, Evidence]) -> None:
        """BM25 evidence for each distinct view of the input (see `text.parse.query_views`)."""
        by_text: dict[str, dict[str, tuple[float, float, list[str]]]] = {}
        for text in dict.fromkeys(views.values()):
            by_text[text] = {
                index.entry_ids[h.doc]: (h.score, h.scaled, h.terms)
                for h in index.lexical.search(text, top_k=LEX_K)
            }
        for eid, (raw, lex, terms) in by_text[views["all"]].items():
            ev = evidence[eid]
            ev.lex_raw, ev.lex, ev.lex_terms = raw, lex, terms
        for view in VIEWS:
            for eid, (_, lex, terms) in by_text[views[view]].items():
                ev = evidence[eid]
                ev.views[f"lex_{view}"] = lex
                if not ev.lex_terms:
                    ev.lex_terms = terms

    def _dense(
        self,
        index: store.Index,
        views: dict[str, str],
        evidence: dict[str, Evidence],
        clock: _Clock,
        tpu_alone: bool,
    ) -> None:
        # Dense evidence of an entry, per view: the mean of its DENSE_PER_ENTRY closest chunks
        # (hits arrive best first), steadier than one chunk that happens to share a phrase. The
        # entry's described look-alikes are not its evidence: the closest one is kept apart
        # (`all` view), for the confidence model to weigh against the entry's own similarity.
        # A look-alike set on another device with no TPU at all is no such case for an input that
        # ran on a TPU (`tpu_alone`, `names_a_tpu_run`): "xm.xla_device() never returns on the
        # v3-8" is not "a GPU machine with torch_xla merely installed", nor is "84% on the P100,
        # 71% with TPUStrategy" "different accuracy on a GPU than on a CPU, no TPU involved".
        texts = list(dict.fromkeys(views.values()))
        qvecs = self.embedder.encode([t[:2000] for t in texts])
        clock.lap("embed")
        scores, ids = dense.search(index.faiss_index, qvecs, DENSE_K)
        clock.lap("faiss")
        per_text: list[dict[str, float]] = []
        for row, text in enumerate(texts):
            top: dict[str, list[float]] = {}
            for s, i in zip(scores[row].tolist(), ids[row].tolist(), strict=True):
                if i < 0:
                    continue
                eid = index.entry_ids[index.chunk_entry[i]]
                chunk = index.chunks[i]
                if chunk.kind == LOOKALIKE:
                    ev = evidence[eid]
                    kept = not (tpu_alone and without_tpu(chunk.text))
                    if text == views["all"] and s > ev.lookalike and kept:
                        ev.lookalike, ev.lookalike_chunk = s, chunk.text
                    continue
                best = top.setdefault(eid, [])
                if not best and text == views["all"]:
                    evidence[eid].dense_chunk = chunk.text
                if len(best) < DENSE_PER_ENTRY:
                    best.append(s)
            per_text.append({eid: sum(b) / len(b) for eid, b in top.items()})
        at = {text: per_text[n] for n, text in enumerate(texts)}
        for eid, cos in at[views["all"]].items():
            evidence[eid].dense = cos
        for view in VIEWS:
            for eid, cos in at[views[view]].items():
                evidence[eid].views[f"dense_{view}"] = cos

    def ask(
        self,
        text: str | bytes,
        lang: str | None = None,
        top_k: int = 5,
        dense_mode: str = "always",
        timings: dict[str, float] | None = None,
    ) -> Answer:
        r = self.retrieve(text, dense_mode=dense_mode, timings=timings)
        clock = _Clock(timings)
        answer = self.decide(r, lang=lang, top_k=top_k)
        clock.lap("fuse")
        return answer

    def decide(
        self,
        r: Retrieval,
        lang: str | None = None,
        top_k: int = 5,
        params: Calibration | None = None,
    ) -> Answer:
        """Fuse the evidence, attach confidence and reasons, and abstain when nothing convinces."""
        params = params or self.params
        facts = r.facts
        lang = lang or facts.lang
        notes: list[str] = []
        if r.truncated:
            notes.append(t("en", "note.truncated"))  # notes stay English (`ask --json`)
        if facts.other_script:
            notes.append(t("en", "note.other_script", script=facts.other_script))
        if not r.evidence:
            note = t("en", "note.empty") if facts.line_count == 0 else t("en", "note.no_match")
            return Answer(True, [], facts, lang, notes=[*notes, note])
        ranked = decide.rank(r, params, top_k, related=self._related)
        own = own_refusal(facts, lang) if ranked.abstained else None
        if own:
            notes.append(own[0])
        elif ranked.lookalike:
            notes.append(t("en", "note.lookalike_error"))
        elif ranked.off_topic:
            notes.append(t("en", "note.off_topic"))
        results: list[Result] = []
        for s, conf in ranked.entries:
            neighbour_of = results[0].title if s.entry_id in ranked.neighbours else None
            results.append(self._result(s, conf, facts, lang, not results, neighbour_of))
        if not r.used_dense:
            notes.append(t("en", "note.signatures_only"))
        elif getattr(self.embedder, "notes", None):  # e.g. fell back to sentence-transformers
            notes.extend(self.embedder.notes)
        aside = self._set_aside(r, ranked.set_aside, lang) if not own else None
        # the other reasons a refusal gives come first: the facts' own, an error caught as a
        # look-alike, an input about nothing the entries cover, a pattern that set an entry aside,
        # and the context (another device or service) that the context hint names
        explained = own or ranked.lookalike or ranked.off_topic or aside
        resembles = (
            self._resembles(ranked.entries[0][0], lang)
            if ranked.abstained and not explained and context_hint(facts, lang) is None
            else None
        )
        values = facts.values()
        for res in results[:1]:
            for hit, _ in r.evidence[res.id].signature_hits:
                found = {**hit.sets, **hit.captures}  # what the message shows, and holds
                values.update({k: v for k, v in found.items() if k not in values})
        return Answer(ranked.abstained, results, facts, lang, values, notes, aside, resembles)

    def _set_aside(self, r: Retrieval, entry_id: str | None, lang: str) -> dict[str, Any] | None:
        """What the refusal says of the entry a look-alike pattern set aside
        (`decide.set_aside`)."""
        if entry_id is None:
            return None
        return explain_set_aside(entry_id, self._title(entry_id, lang), r.evidence[entry_id])

    def _resembles(self, top: Scored, lang: str) -> dict[str, Any] | None:
        """What the refusal says of the described look-alike the report reads most like
        (`decide.resembled_lookalike`)."""
        text = decide.resembled_lookalike(top)
        if text is None:
            return None
        return {
            "id": top.entry_id,
            "title": self._title(top.entry_id, lang),
            "text": clip(text, 400),
        }

    def _title(self, entry_id: str, lang: str) -> str:
        """The entry's title in `lang` (its id if the knowledge base no longer has it)."""
        le = self.kb.loaded(entry_id)
        return le.entry.title.get(lang) if le else entry_id

    def _related(self, entry_id: str) -> list[str]:
        """The entries the knowledge base names as `entry_id`'s neighbours (`related`)."""
        le = self.kb.loaded(entry_id)
        return list(le.entry.related) if le else []

    def _result(
        self, s, conf: float, facts: Facts, lang: str, top: bool, neighbour_of: str | None = None
    ) -> Result:
        """One ranked entry with its title and reasons; `neighbour_of`: the title of the answer
        whose knowledge-base neighbour placed this runner-up (see `decide.runner_ups`)."""
        le = self.kb.loaded(s.entry_id)
        title = le.entry.title.get(lang) if le else s.entry_id
        why = explain(s.evidence, facts, lang)
        if neighbour_of:
            why.insert(0, t(lang, "why.related", title=neighbour_of))
        if top:
            why += explain_context(facts.context, lang)
        return Result(
            s.entry_id,
            title,
            s.score,
            conf,
            why,
            le.source if le else "builtin",
            {
                "sig": s.evidence.sig,
                "dense": round(s.evidence.dense, 4),
                "lex": round(s.evidence.lex, 4),
            },
        )
