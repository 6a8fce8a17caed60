"""Lexical channel: Okapi BM25 over one document per entry (all its text, both languages).

Stored as plain named files, no pickle: `lexical.json` (parameters, vocabulary, document ids) and
`lexical.npz` (postings in CSR form: `indptr`, `docs`, `tfs`, and `doc_len`), loaded with
`allow_pickle=False`.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..text.tokens import tokenize

# Term-frequency saturation and length normalization. k1 = 1.6 (the textbook 1.2 before) was
# chosen by `scripts/calibrate.py --bm25` on the written fixtures' cross-validation alone, among
# 0.8-3.0 and b 0.6-0.9: an entry is one long document in two languages, and a word its symptoms
# and signatures repeat is worth a little more than one it mentions once. b stays at the default
# (0.6 tied with it). README, lab notebook, "…BM25 tuned on the written fixtures".
K1 = 1.6
B = 0.75


@dataclass
class LexicalHit:
    doc: int
    score: float  # raw BM25
    terms: list[str]
    scaled: float = 0.0  # 1 - exp(-score / max_score(query)): comparable across queries, 0..1


class BM25:
    def __init__(
        self,
        vocab: dict[str, int],
        indptr: np.ndarray,
        docs: np.ndarray,
        tfs: np.ndarray,
        doc_len: np.ndarray,
        k1: float = K1,
        b: float = B,
    ):
        self.vocab = vocab
        self.indptr, self.docs, self.tfs, self.doc_len = indptr, docs, tfs, doc_len
        self.k1, self.b = k1, b
        self.n_docs = len(doc_len)
        self.avgdl = float(doc_len.mean()) if self.n_docs else 1.0
        df = np.diff(indptr).astype(np.float64)
        self.idf = np.log(1.0 + (self.n_docs - df + 0.5) / (df + 0.5))
        # Per-query constants, computed once (the same expressions `search` used to evaluate on
        # every call, so the same values to the bit).
        with np.errstate(divide="ignore", invalid="ignore"):  # an index of empty documents
            self._norm = self.k1 * (1 - self.b + self.b * self.doc_len / self.avgdl)
        self._unseen = float(np.log(1.0 + (self.n_docs + 0.5) / 0.5))

    def with_params(self, k1: float, b: float) -> BM25:
        """The same postings scored with another k1 and b (they do not depend on either)."""
        return BM25(self.vocab, self.indptr, self.docs, self.tfs, self.doc_len, k1=k1, b=b)

    @classmethod
    def build(cls, texts: list[str]) -> BM25:
        counts = [Counter(tokenize(t)) for t in texts]
        vocab: dict[str, int] = {}
        for c in counts:
            for term in c:
                vocab.setdefault(term, len(vocab))
        postings: list[list[tuple[int, int]]] = [[] for _ in vocab]
        for d, c in enumerate(counts):
            for term, tf in c.items():
                postings[vocab[term]].append((d, tf))
        indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
        indptr[1:] = np.cumsum([len(p) for p in postings])
        docs = np.fromiter(
            (d for p in postings for d, _ in p), dtype=np.int32, count=int(indptr[-1])
        )
        tfs = np.fromiter(
            (tf for p in postings for _, tf in p), dtype=np.float32, count=int(indptr[-1])
        )
        doc_len = np.array([sum(c.values()) for c in counts], dtype=np.float32)
        return cls(vocab, indptr, docs, tfs, doc_len)

    def search(self, query: str, top_k: int = 20) -> list[LexicalHit]:
        unique = list(dict.fromkeys(tokenize(query)))
        terms = [t for t in unique if t in self.vocab]
        if not terms or not self.n_docs:
            return []
        # Every posting of every query term in one pass (term by term, as laid out in the CSR
        # arrays), instead of a handful of NumPy calls per term.
        ids = np.fromiter((self.vocab[t] for t in terms), dtype=np.int64, count=len(terms))
        lo, counts = self.indptr[ids], self.indptr[ids + 1] - self.indptr[ids]
        total = int(counts.sum())
        starts = np.cumsum(counts) - counts
        at = np.arange(total, dtype=np.int64) + np.repeat(lo - starts, counts)
        d, tf = self.docs[at], self.tfs[at]
        contrib = np.repeat(self.idf[ids], counts) * tf * (self.k1 + 1) / (tf + self._norm[d])
        # bincount adds each document's contributions in posting order, i.e. term by term from
        # 0.0: the same sums, to the bit, as adding one term's scores after another.
        scores = np.bincount(d, weights=contrib, minlength=self.n_docs)
        k = min(top_k, self.n_docs)
        top = np.argpartition(-scores, k - 1)[:k] if k < self.n_docs else np.arange(self.n_docs)
        top = top[np.argsort(-scores[top], kind="stable")]
        top = top[scores[top] > 0]
        # Evidence: which query terms each returned document contains, the heaviest first (its
        # share of that document's score; ties in query order), so an answer's "shared words"
        # lead with the rare words of the input, not with "make" or "run".
        matched: dict[int, list[str]] = {int(i): [] for i in top}
        hit = np.isin(d, top)
        which = np.repeat(np.arange(len(terms)), counts)[hit]
        order = np.lexsort((which, -contrib[hit]))
        for doc, term in zip(d[hit][order].tolist(), which[order].tolist(), strict=True):
            matched[doc].append(terms[term])
        ref = self._max_score(unique)
        return [
            LexicalHit(
                int(i),
                float(scores[i]),
                matched[int(i)],
                1.0 - float(np.exp(-scores[i] / ref)) if ref > 0 else 0.0,
            )
            for i in top
        ]

    def max_score(self, query: str) -> float:
        """The scale of `LexicalHit.scaled` ("how much of what the query says, weighted by rarity,
        this document also says", saturating smoothly instead of tying at a cap). Reference score:
        a document holding every query term once. Terms the index has never seen count with the
        highest idf, so a query about something else scores low."""
        return self._max_score(list(dict.fromkeys(tokenize(query))))

    def _max_score(self, unique_terms: list[str]) -> float:
        return float(
            sum(self.idf[self.vocab[t]] if t in self.vocab else self._unseen for t in unique_terms)
        )

    def save(self, directory: Path) -> list[str]:
        (directory / "lexical.json").write_text(
            json.dumps({"k1": self.k1, "b": self.b, "vocab": self.vocab}, ensure_ascii=False)
        )
        with open(directory / "lexical.npz", "wb") as fh:
            np.savez(fh, indptr=self.indptr, docs=self.docs, tfs=self.tfs, doc_len=self.doc_len)
        return ["lexical.json", "lexical.npz"]

    @classmethod
    def load(cls, directory: Path) -> BM25:
        params = json.loads((directory / "lexical.json").read_text())
        with np.load(directory / "lexical.npz", allow_pickle=False) as z:
            arrays = {k: z[k] for k in ("indptr", "docs", "tfs", "doc_len")}
        if len(arrays["indptr"]) != len(params["vocab"]) + 1:
            raise ValueError("lexical index: vocabulary and postings disagree")
        return cls(params["vocab"], **arrays, k1=params["k1"], b=params["b"])
