"""The assistant's core: text in, an `Answer` out. The CLI and the TUI are thin layers over this.

raw text -> normalize -> parse (facts, key lines) -> retrieve (signatures + lexical + dense)
-> fuse -> decide (confidence, abstention) -> Answer
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from pathlib import Path

from . import decide, paths, store
from .kb import KnowledgeBase, load_knowledge
from .retrieval import dense
from .retrieval.fusion import Evidence, Scored, fuse
from .retrieval.signatures import match_signatures
from .text.normalize import normalize
from .text.domain import domain_terms, other_accelerator
from .text.parse import Facts, parse
from .text.tokens import tokenize

DENSE_K = 200  # chunks fetched from FAISS per query
DENSE_PER_ENTRY = 2  # an entry's dense evidence: the mean of its closest chunks


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


@dataclass
class Retrieval:
    """What the channels found for one input, before fusion (reusable with other parameters)."""

    facts: Facts
    evidence: dict[str, Evidence]
    truncated: bool
    domain: float = 0.0  # share of the domain vocabulary the input uses (0, 1/3, 2/3, 1)
    other_accel: float = 0.0  # 1 when the input names a GPU (CUDA, NVIDIA…) and no TPU


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
        self._lock = threading.Lock()
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

    def retrieve(self, text: str | bytes) -> Retrieval:
        """Normalize, parse and run the three channels; no ranking decision yet."""
        norm = normalize(text)
        facts = parse(norm)
        if not norm.lines:
            return Retrieval(facts, {}, norm.truncated)
        index = self.index()
        entries = self.kb.entries
        query = "\n".join(k["text"] for k in facts.key_lines)
        evidence: dict[str, Evidence] = {eid: Evidence() for eid in index.entry_ids}

        # Signatures see every line (up to a bound), so a key line missed by the parser still counts.
        if len(norm.lines) <= 5000:
            sig_lines, sig_numbers = norm.lines, norm.line_numbers
        else:
            sig_lines = [k["text"] for k in facts.key_lines]
            sig_numbers = [k["line"] for k in facts.key_lines]
        for hit in match_signatures(entries, sig_lines):
            if (ev := evidence.get(hit.entry_id)) is not None:
                ev.signature_hits.append((hit, sig_numbers[hit.line_no]))
                ev.sig = max(ev.sig, hit.weight)
        for hit in match_signatures(entries, sig_lines, field="excludes"):
            if (ev := evidence.get(hit.entry_id)) is not None and hit.weight > ev.exclude:
                ev.exclude = hit.weight
                ev.exclude_hits.append((hit, sig_numbers[hit.line_no]))

        ref = index.lexical.max_score(query)
        for h in index.lexical.search(query, top_k=len(index.entry_ids)):
            ev = evidence[index.entry_ids[h.doc]]
            ev.lex_raw = h.score
            ev.lex = 1.0 - math.exp(-h.score / ref) if ref > 0 else 0.0
            ev.lex_terms = h.terms

        # Dense evidence of an entry: the mean of its two closest chunks (hits arrive best first),
        # steadier than one chunk that happens to share a phrase.
        qvec = self.embedder.encode([query[:2000]])
        scores, ids = dense.search(index.faiss_index, qvec, DENSE_K)
        top: dict[str, list[float]] = {}
        for s, i in zip(scores[0].tolist(), ids[0].tolist()):
            if i < 0:
                continue
            eid = index.entry_ids[index.chunk_entry[i]]
            best = top.setdefault(eid, [])
            if not best:
                evidence[eid].dense_chunk = index.chunks[i].text
            if len(best) < DENSE_PER_ENTRY:
                best.append(s)
        for eid, best in top.items():
            evidence[eid].dense = sum(best) / len(best)
        domain = min(3, len(domain_terms(query))) / 3
        return Retrieval(facts, evidence, norm.truncated, domain, float(other_accelerator(query)))

    def ask(self, text: str | bytes, lang: str | None = None, top_k: int = 5) -> Answer:
        return self.decide(self.retrieve(text), lang=lang, top_k=top_k)

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
            return Answer(True, [], facts, lang, notes=notes + ["empty input"])
        ranked = fuse(r.evidence, params)
        results = self._results(ranked[:max(top_k, 3)], facts, lang, params, r)[:top_k]
        abstained = not results or decide.should_abstain(results[0].confidence, params)
        values = facts.values()
        for res in results[:1]:
            for hit, _ in r.evidence[res.id].signature_hits:
                values.update({k: v for k, v in hit.captures.items() if k not in values})
        return Answer(abstained, results, facts, lang, values, notes)

    def _results(self, ranked: list[Scored], facts: Facts, lang: str, params: dict,
                 r: Retrieval) -> list[Result]:
        out: list[Result] = []
        for pos, s in enumerate(ranked):
            nxt = ranked[pos + 1].score if pos + 1 < len(ranked) else 0.0
            margin = max(0.0, s.score - nxt) if pos == 0 else 0.0
            conf = decide.confidence(decide.features(s, margin, r, params), params)
            le = self.kb.loaded(s.entry_id)
            title = le.entry.title.get(lang) if le else s.entry_id
            out.append(Result(s.entry_id, title, s.score, conf, explain(s.evidence, facts, lang),
                              le.source if le else "builtin",
                              {"sig": s.evidence.sig, "dense": round(s.evidence.dense, 4),
                               "lex": round(s.evidence.lex, 4)}))
        return out


def explain(ev: Evidence, facts: Facts, lang: str) -> list[str]:
    """Human-readable reasons, pointing at the input lines they came from."""
    pt = lang == "pt"
    why: list[str] = []
    for hit, line_no in ev.signature_hits[:3]:
        snippet = hit.matched if len(hit.matched) <= 120 else hit.matched[:117] + "..."
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

