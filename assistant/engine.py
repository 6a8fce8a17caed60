"""The assistant's core: text in, an `Answer` out. The CLI and the TUI are thin layers over this.

raw text -> normalize -> parse (facts, key lines) -> retrieve (signatures + lexical + dense)
-> fuse -> decide (confidence, abstention) -> Answer
"""

from __future__ import annotations

import math
from collections import defaultdict
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import decide, paths, store
from .kb import KnowledgeBase, load_knowledge
from .retrieval import dense
from .retrieval.fusion import VIEWS, Evidence, Scored, fuse
from .retrieval.signatures import SignatureMatcher
from .text.normalize import normalize
from .retrieval.profile_rules import route as route_profile
from .text.domain import domain_terms
from .text.parse import FULL_SCAN_LINES, Facts, parse, query_views
from .text.profile import read_profile
from .text.tokens import tokenize

DENSE_K = 200  # chunks fetched from FAISS per query
LEX_K = 100  # entries scored by BM25 per query
DENSE_PER_ENTRY = 3  # an entry's dense evidence: the mean of its closest chunks


@dataclass
class Result:
    id: str
    title: str
    score: float
    confidence: float
    why: list[str]
    source: str = "builtin"
    evidence: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"id": self.id, "title": self.title, "score": round(self.score, 4),
                "confidence": round(self.confidence, 4), "why": self.why, "source": self.source}


@dataclass
class Answer:
    abstained: bool
    results: list[Result]
    facts: Facts
    lang: str
    values: dict[str, str] = field(default_factory=dict)  # placeholder values found in the input
    notes: list[str] = field(default_factory=list)

    @property
    def best(self) -> Result | None:
        return self.results[0] if self.results else None

    def to_dict(self) -> dict:
        return {"abstained": self.abstained, "results": [r.to_dict() for r in self.results],
                "facts": self.facts.to_dict(), "lang": self.lang, "values": self.values,
                "notes": self.notes}


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


def decisive(evidence: dict[str, Evidence]) -> bool:
    """Signatures settle it: one entry has a full-weight signature and no look-alike match, and no
    other entry has a signature of weight 0.8 or more."""
    strong = [eid for eid, ev in evidence.items() if ev.sig >= 1.0 and ev.exclude == 0.0]
    rivals = [eid for eid, ev in evidence.items() if ev.sig >= 0.8]
    return len(strong) == 1 and rivals == strong


@dataclass
class Retrieval:
    """What the channels found for one input, before fusion (reusable with other parameters)."""

    facts: Facts
    evidence: dict[str, Evidence]
    truncated: bool
    domain: float = 0.0  # share of the domain vocabulary the input uses (0, 1/3, 2/3, 1)
    other_accel: float = 0.0  # 1 when the input names another device (GPU, XLA_CPU…) and no TPU
    used_dense: bool = True  # False when decisive signatures made the model unnecessary
    other_service: float = 0.0  # 1 when it names a non-TPU Google service or a plain VM, no TPU


class Engine:
    """Holds the knowledge base, the index and the model; safe to share between threads."""

    def __init__(self, kb: KnowledgeBase | None = None, index_root: Path | None = None,
                 user_dirs: list[Path] | None = None, embedder: dense.Embedder | None = None,
                 params: dict | None = None):
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
                    self.index_root, self.kb, self.embedder, progress)
            return self._index

    def warm_up(self, progress: store.Progress | None = None) -> None:
        """Load (or build) the index and the model, so the first query is fast."""
        self.index(progress)
        self.embedder.load()

    # -- the pipeline -----------------------------------------------------------------------------

    def retrieve(self, text: str | bytes, dense_mode: str = "always",
                 timings: dict[str, float] | None = None) -> Retrieval:
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
            self._dense(index, views, evidence, clock)
        domain = min(3, len(domain_terms(query))) / 3
        gate = facts.context.get("gate")
        return Retrieval(facts, dict(evidence), norm.truncated, domain,
                         float(gate == "device"), used_dense, float(gate == "service"))

    def _signatures(self, norm, facts: Facts, evidence: dict[str, Evidence]) -> None:
        # Signatures see every line (up to a bound), so a key line missed by the parser still counts.
        if len(norm.lines) <= FULL_SCAN_LINES:
            lines, numbers = norm.lines, norm.line_numbers
        else:
            lines = [k["text"] for k in facts.key_lines]
            numbers = [k["line"] for k in facts.key_lines]
        for hit in self._matcher("signatures").match(lines):
            ev = evidence[hit.entry_id]
            ev.signature_hits.append((hit, numbers[hit.line_no]))
            ev.sig = max(ev.sig, hit.weight)
        for hit in self._matcher("excludes").match(lines):
            if hit.weight > evidence[hit.entry_id].exclude:
                ev = evidence[hit.entry_id]
                ev.exclude = hit.weight
                ev.exclude_hits.append((hit, numbers[hit.line_no]))

    @staticmethod
    def _profile(norm, facts: Facts, evidence: dict[str, Evidence]) -> None:
        """Supporting evidence from pasted profile figures (see retrieval/profile_rules.py)."""
        if not facts.profile:
            return
        line = next((norm.line_numbers[i] for i, text in enumerate(norm.lines[:FULL_SCAN_LINES])
                     if read_profile(text)), norm.line_numbers[0])
        for hit in route_profile(read_profile(norm.text[:200_000])):
            ev = evidence[hit.entry_id]
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
            ref = index.lexical.max_score(text)
            by_text[text] = {
                index.entry_ids[h.doc]: (h.score,
                                         1.0 - math.exp(-h.score / ref) if ref > 0 else 0.0,
                                         h.terms)
                for h in index.lexical.search(text, top_k=LEX_K)}
        for eid, (raw, lex, terms) in by_text[views["all"]].items():
            ev = evidence[eid]
            ev.lex_raw, ev.lex, ev.lex_terms = raw, lex, terms
        for view in VIEWS:
            for eid, (_, lex, terms) in by_text[views[view]].items():
                ev = evidence[eid]
                ev.views[f"lex_{view}"] = lex
                if not ev.lex_terms:
                    ev.lex_terms = terms

    def _dense(self, index: store.Index, views: dict[str, str], evidence: dict[str, Evidence],
               clock: "_Clock") -> None:
        # Dense evidence of an entry, per view: the mean of its DENSE_PER_ENTRY closest chunks
        # (hits arrive best first), steadier than one chunk that happens to share a phrase.
        texts = list(dict.fromkeys(views.values()))
        qvecs = self.embedder.encode([t[:2000] for t in texts])
        clock.lap("embed")
        scores, ids = dense.search(index.faiss_index, qvecs, DENSE_K)
        clock.lap("faiss")
        per_text: list[dict[str, float]] = []
        for row, text in enumerate(texts):
            top: dict[str, list[float]] = {}
            for s, i in zip(scores[row].tolist(), ids[row].tolist()):
                if i < 0:
                    continue
                eid = index.entry_ids[index.chunk_entry[i]]
                best = top.setdefault(eid, [])
                if not best and text == views["all"]:
                    evidence[eid].dense_chunk = index.chunks[i].text
                if len(best) < DENSE_PER_ENTRY:
                    best.append(s)
            per_text.append({eid: sum(b) / len(b) for eid, b in top.items()})
        at = {text: per_text[n] for n, text in enumerate(texts)}
        for eid, cos in at[views["all"]].items():
            evidence[eid].dense = cos
        for view in VIEWS:
            for eid, cos in at[views[view]].items():
                evidence[eid].views[f"dense_{view}"] = cos

    def ask(self, text: str | bytes, lang: str | None = None, top_k: int = 5,
            dense_mode: str = "always", timings: dict[str, float] | None = None) -> Answer:
        r = self.retrieve(text, dense_mode=dense_mode, timings=timings)
        clock = _Clock(timings)
        answer = self.decide(r, lang=lang, top_k=top_k)
        clock.lap("fuse")
        return answer

    def decide(self, r: Retrieval, lang: str | None = None, top_k: int = 5,
               params: dict | None = None) -> Answer:
        """Fuse the evidence, attach confidence and reasons, and abstain when nothing convinces."""
        params = params or self.params
        facts = r.facts
        lang = lang or facts.lang
        notes: list[str] = []
        if r.truncated:
            notes.append("input was cut to its key lines (see facts.key_lines)")
        if not r.evidence:
            note = "empty input" if facts.line_count == 0 else "nothing in the knowledge base matched"
            return Answer(True, [], facts, lang, notes=notes + [note])
        ranked = fuse(r.evidence, params)
        results = self._results(ranked[:max(top_k, 3)], facts, lang, params, r)[:top_k]
        abstained = not results or decide.should_abstain(results[0].confidence, params, r.used_dense)
        if not r.used_dense:
            notes.append("answered from error signatures alone (the embedding model was not needed)")
        values = facts.values()
        for res in results[:1]:
            for hit, _ in r.evidence[res.id].signature_hits:
                values.update({k: v for k, v in hit.captures.items() if k not in values})
        return Answer(abstained, results, facts, lang, values, notes)

    def _results(self, ranked: list[Scored], facts: Facts, lang: str, params: dict,
                 r: Retrieval) -> list[Result]:
        out: list[Result] = []
        top_conf = 0.0
        for pos, s in enumerate(ranked):
            if pos == 0:
                margin = s.score - ranked[1].score if len(ranked) > 1 else s.score
                conf = top_conf = decide.confidence(decide.features(s, margin, r, params), params,
                                                    r.used_dense)
            else:
                conf = decide.runner_up_confidence(top_conf, ranked[0].score, s.score, params)
            le = self.kb.loaded(s.entry_id)
            title = le.entry.title.get(lang) if le else s.entry_id
            why = explain(s.evidence, facts, lang)
            if pos == 0:
                why += explain_context(facts.context, lang)
            out.append(Result(s.entry_id, title, s.score, conf, why,
                              le.source if le else "builtin",
                              {"sig": s.evidence.sig, "dense": round(s.evidence.dense, 4),
                               "lex": round(s.evidence.lex, 4)}))
        return out


def explain_context(context: dict, lang: str) -> list[str]:
    """Which context weighed on the confidence: another device or service and no TPU evidence."""
    pt = lang == "pt"
    gate = context.get("gate")
    if gate == "device":
        what = ", ".join(context.get("device", [])[:3])
        return [f"contexto: a entrada fala de outro dispositivo ({what}) e de nenhuma TPU — "
                f"confiança reduzida" if pt else
                f"context: the input is about another device ({what}) and shows no TPU — "
                f"confidence lowered"]
    if gate == "service":
        what = ", ".join(context.get("service", [])[:3])
        return [f"contexto: a entrada fala de outro serviço ou de uma VM comum ({what}) e de "
                f"nenhuma TPU — confiança reduzida" if pt else
                f"context: the input is about another service or a plain VM ({what}) and shows "
                f"no TPU — confidence lowered"]
    if context.get("tpu") and (context.get("device") or context.get("service")):
        tpu = ", ".join(context["tpu"][:2])
        return [f"contexto: há evidência de TPU ({tpu}), então as entradas de TPU continuam "
                f"valendo" if pt else
                f"context: TPU evidence ({tpu}) keeps the TPU entries in play"]
    return []


def explain(ev: Evidence, facts: Facts, lang: str) -> list[str]:
    """Human-readable reasons, pointing at the input lines they came from."""
    pt = lang == "pt"
    why: list[str] = []
    for hit, line_no in ev.signature_hits[:3]:
        snippet = hit.matched if len(hit.matched) <= 120 else hit.matched[:117] + "..."
        if hit.signature_id.startswith("profile:"):
            why.append((f"números do perfil (linha {line_no}): {snippet}" if pt else
                        f"profile figures (line {line_no}): {snippet}"))
            continue
        why.append((f"assinatura '{hit.signature_id}' na linha {line_no}: {snippet}" if pt else
                    f"signature '{hit.signature_id}' matched line {line_no}: {snippet}"))
    for hit, line_no in ev.exclude_hits[:1]:
        why.append((f"mas a linha {line_no} indica outro problema: {hit.matched[:100]}" if pt else
                    f"but line {line_no} points elsewhere: {hit.matched[:100]}"))
    if ev.lex_terms:
        terms = set(ev.lex_terms)
        lines = [k["line"] for k in facts.key_lines if terms & set(tokenize(k["text"]))]
        where = ""
        if lines and facts.line_count > 1:
            shown = ", ".join(str(n) for n in lines[:5])
            where = f" (linhas {shown})" if pt else f" (lines {shown})"
        words = ", ".join(ev.lex_terms[:8])
        why.append(f"palavras em comum: {words}{where}" if pt else f"shared words: {words}{where}")
    if ev.dense_chunk and ev.dense >= 0.3:
        chunk = ev.dense_chunk if len(ev.dense_chunk) <= 100 else ev.dense_chunk[:97] + "..."
        why.append((f"semelhante a \"{chunk}\" (similaridade {ev.dense:.2f})" if pt else
                    f"similar to \"{chunk}\" (similarity {ev.dense:.2f})"))
    return why

