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

K1 = 1.2
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
        terms = [t for t in dict.fromkeys(tokenize(query)) if t in self.vocab]
        if not terms or not self.n_docs:
            return []
        scores = np.zeros(self.n_docs, dtype=np.float64)
        norm = self.k1 * (1 - self.b + self.b * self.doc_len / self.avgdl)
        spans = []
        for term in terms:
            t = self.vocab[term]
            lo, hi = self.indptr[t], self.indptr[t + 1]
            d, tf = self.docs[lo:hi], self.tfs[lo:hi]
            scores[d] += self.idf[t] * tf * (self.k1 + 1) / (tf + norm[d])
            spans.append((term, d))
        k = min(top_k, self.n_docs)
        top = np.argpartition(-scores, k - 1)[:k] if k < self.n_docs else np.arange(self.n_docs)
        top = top[np.argsort(-scores[top], kind="stable")]
        top = top[scores[top] > 0]
        # Evidence: which query terms each returned document contains (postings are sorted).
        matched: dict[int, list[str]] = {int(i): [] for i in top}
        for term, d in spans:
            for i in top[np.isin(top, d, assume_unique=True)].tolist():
                matched[i].append(term)
        ref = self.max_score(query)
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
        unseen = float(np.log(1.0 + (self.n_docs + 0.5) / 0.5))
        terms = list(dict.fromkeys(tokenize(query)))
        return float(sum(self.idf[self.vocab[t]] if t in self.vocab else unseen for t in terms))

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
