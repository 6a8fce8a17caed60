"""Stand-ins for the fast tier (`make test-fast`): same interfaces, no model, deterministic.

`HashingEmbedder` has the interface of `assistant.retrieval.dense.Embedder` (`load()`, `loaded`,
`encode(texts) -> float32 (n, DIM)`, rows L2-normalized) and embeds a text as a hashed bag of its
words and character trigrams. Texts that share words get a high cosine, unrelated texts a cosine
near 0 — enough for tests of plumbing (index store, engine wiring), never for answer quality:
tests of quality use the real model (marked `slow`).
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata

import numpy as np

from assistant.retrieval.dense import DIM

_WORD = re.compile(r"\w+")


def _features(text: str) -> list[str]:
    folded = unicodedata.normalize("NFKD", text.lower())
    words = _WORD.findall("".join(ch for ch in folded if not unicodedata.combining(ch)))
    feats = [f"w:{w}" for w in words]
    for w in words:
        padded = f"#{w}#"
        feats.extend(f"c:{padded[i : i + 3]}" for i in range(max(1, len(padded) - 2)))
    return feats


def _slot(feature: str, dim: int) -> tuple[int, float]:
    """A stable (across processes and runs) dimension and sign for a feature."""
    digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
    value = int.from_bytes(digest, "little")
    return value % dim, 1.0 if (value >> 63) & 1 else -1.0


class HashingEmbedder:
    """A deterministic, dependency-free embedder with the `Embedder` interface."""

    model_id = "tests/hashing-embedder"

    def __init__(self, dim: int = DIM):
        self.dim = dim
        self._loaded = False
        self._lock = threading.Lock()
        self.encoded = 0  # texts encoded so far (lets a test see whether the channel ran)

    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self) -> HashingEmbedder:
        with self._lock:
            self._loaded = True
        return self

    def encode(self, texts: list[str], batch_size: int = 64, progress: bool = False) -> np.ndarray:
        self.load()
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in _features(text):
                col, sign = _slot(feature, self.dim)
                out[row, col] += sign
            norm = float(np.linalg.norm(out[row]))
            if norm > 0:
                out[row] /= norm
            else:  # no word at all: a fixed unit vector, so every row stays L2-normalized
                out[row, 0] = 1.0
        with self._lock:
            self.encoded += len(texts)
        return out
