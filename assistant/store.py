"""The built index on disk: build, save atomically, verify, load; rebuild when stale or corrupt.

Layout of the index directory::

    CURRENT                 name of the live version directory (replaced atomically)
    .lock                   held while building (two processes never build at once)
    v-<hash>-<time>/        one complete, immutable version
        manifest.json       format version, model id, dimension, knowledge hash, hash of the
                            indexing code, entry and chunk order, size and sha256 of every file
        chunks.json         the dense chunks (entry, kind, lang, text, digest)
        vectors.npy         their embeddings (reused by incremental rebuilds, exact-search checks)
        dense.faiss         the FAISS index over those vectors
        lexical.json/.npz   the BM25 index (one document per entry)
        model.onnx          the embedding model exported to ONNX, for queries without torch
        model.onnx.data     (the graph, and its ~90 MB of weights beside it, which onnxruntime
                            maps into memory; derived, shared by hard link between versions made
                            from the same model; their sha256 and exporter are in the manifest)

A build writes a new version directory under a temporary name, renames it into place, then points
CURRENT at it; a reader therefore sees either the old complete index or the new complete one, and
a failed build leaves the old one live. Loading verifies every file against the manifest, so a
truncated or garbage file is detected and the index rebuilt, never served. `model.onnx` is the
exception that keeps one-shot answers fast: loading checks that it is there with its size (and
that it was made from the installed model by the current export recipe); its sha256s are checked
when the embedder first loads it, which only the dense channel needs — a mismatch then re-exports
it (a new version) or, failing that, falls back to sentence-transformers with a note.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .fsutil import fsync_dir
from .kb import KnowledgeBase
from .retrieval import dense, onnx_embed
from .retrieval.chunks import Chunk, entry_chunks, lexical_document
from .retrieval.lexical import BM25

# 2: the manifest has `model` (fingerprint of the embedding model) and `onnx` (its export).
FORMAT_VERSION = 2
Progress = Callable[[int, int], None]
# The code that decides what goes into the index: when it changes, an index built by the old code
# is stale even if the knowledge files are not.
_PIPELINE_SOURCES = (
    "retrieval/chunks.py",
    "retrieval/lexical.py",
    "text/tokens.py",
    "text/markdown.py",
)


class IndexEmbedder(Protocol):
    """What the store needs from an embedder; `dense.Embedder` adds `prepare_onnx` and
    `use_index` (detected with getattr), which stand-ins such as the tests' hashing embedder
    lack: their indexes have no ONNX model and no model fingerprint."""

    def encode(self, texts: list[str], batch_size: int = ..., progress: bool = ...) -> Any: ...


def pipeline_hash() -> str:
    h = hashlib.sha256(str(FORMAT_VERSION).encode())
    base = Path(__file__).resolve().parent
    for rel in _PIPELINE_SOURCES:
        h.update(rel.encode() + b"\0" + (base / rel).read_bytes())
    return h.hexdigest()


class IndexError_(RuntimeError):
    """The index on disk cannot be used (missing, stale, corrupt); the message says why."""


@dataclass
class BuildReport:
    path: Path
    chunks: int
    embedded: int  # chunks whose vectors were computed (the rest were reused)
    seconds: float


@dataclass
class Index:
    path: Path
    manifest: dict[str, Any]
    chunks: list[Chunk]
    chunk_entry: np.ndarray  # chunk -> position in entry_ids
    entry_ids: list[str]
    lexical: BM25
    _faiss: Any = None

    @property
    def kb_hash(self) -> str:
        return str(self.manifest["kb_hash"])

    @property
    def onnx(self) -> dict[str, Any] | None:
        """The manifest's entry for model.onnx (None: built without one)."""
        meta = self.manifest.get("onnx")
        return meta if isinstance(meta, dict) else None

    @property
    def faiss_index(self) -> Any:
        """Read on first use: a search answered by signatures alone never imports faiss. The file
        was already verified against the manifest's sha256 when the index was loaded."""
        if self._faiss is None:
            index = dense.load_faiss(self.path / "dense.faiss")
            if index.ntotal != len(self.chunks):
                raise IndexError_("dense.faiss disagrees with the manifest")
            self._faiss = index
        return self._faiss

    def vectors(self) -> np.ndarray:
        return np.asarray(np.load(self.path / "vectors.npy", allow_pickle=False))


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def current_version(root: Path) -> Path | None:
    try:
        name = (root / "CURRENT").read_text().strip()
    except OSError:
        return None
    if not name or "/" in name or name.startswith("."):
        return None
    return root / name


def load(root: Path, kb: KnowledgeBase | None = None) -> Index:
    """Load and verify the live index; raise IndexError_ saying why it cannot be used."""
    version = current_version(root)
    if version is None or not version.is_dir():
        raise IndexError_("no index has been built")
    try:
        manifest = json.loads((version / "manifest.json").read_text())
    except (OSError, ValueError) as exc:
        raise IndexError_(f"manifest unreadable: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format_version") != FORMAT_VERSION:
        raise IndexError_(
            f"index format {manifest.get('format_version') if isinstance(manifest, dict) else '?'}"
            f" is not {FORMAT_VERSION}"
        )
    if manifest.get("model_id") != dense.MODEL_ID or manifest.get("dim") != dense.DIM:
        raise IndexError_(f"index was built with {manifest.get('model_id')}, not {dense.MODEL_ID}")
    if kb is not None and manifest.get("kb_hash") != kb.content_hash():
        raise IndexError_("the knowledge files changed since the index was built")
    if manifest.get("pipeline") != pipeline_hash():
        raise IndexError_("the indexing code changed since the index was built")
    if manifest.get("model") is not None and manifest["model"] != dense.model_fingerprint():
        raise IndexError_("the embedding model changed since the index was built")
    _check_onnx(version, manifest.get("onnx"))
    for name, meta in manifest.get("files", {}).items():
        f = version / name
        if not f.is_file() or f.stat().st_size != meta["size"] or _sha256(f) != meta["sha256"]:
            raise IndexError_(f"{name} is missing or corrupt")
    try:
        rows = json.loads((version / "chunks.json").read_text())
        chunks = [Chunk(r["entry"], r["kind"], r["lang"], r["text"]) for r in rows]
        entry_ids = list(manifest["entry_ids"])
        pos = {e: i for i, e in enumerate(entry_ids)}
        chunk_entry = np.array([pos[c.entry_id] for c in chunks], dtype=np.int32)
        lexical = BM25.load(version)
    except Exception as exc:  # any decoding failure means the index is unusable
        raise IndexError_(f"index files unreadable: {exc}") from None
    if len(chunks) != manifest.get("chunk_count") or lexical.n_docs != len(entry_ids):
        raise IndexError_("index files disagree with the manifest")
    return Index(version, manifest, chunks, chunk_entry, entry_ids, lexical)


def _check_onnx(version: Path, meta: object) -> None:
    """Cheap checks of model.onnx (stat only; the sha256 is checked when it is first loaded)."""
    if meta is None:
        return
    if not isinstance(meta, dict):
        raise IndexError_("the manifest's onnx entry is malformed")
    if "sha256" not in meta:
        if not isinstance(meta.get("error"), str):
            raise IndexError_("the manifest's onnx entry is malformed")
        return  # built without one (the export failed): queries use sentence-transformers
    if meta.get("recipe") != onnx_embed.EXPORT_RECIPE:
        raise IndexError_("the ONNX export recipe changed since the index was built")
    data = meta.get("data")
    if data is not None and not isinstance(data, dict):
        raise IndexError_("the manifest's onnx entry is malformed")
    for entry in (meta, data) if data is not None else (meta,):
        f = version / str(entry.get("file", onnx_embed.ONNX_NAME))
        try:
            size = f.stat().st_size if f.is_file() else -1
        except OSError:
            size = -1
        if size != entry.get("size"):
            raise IndexError_(f"{f.name} is missing or truncated")


@dataclass
class _Previous:
    """What a new build can take from the live version: vectors by chunk digest, its ONNX file."""

    version: Path | None = None
    manifest: dict[str, Any] | None = None
    vectors: dict[str, np.ndarray] | None = None


def _previous(root: Path) -> _Previous:
    """The live version, read leniently (another format version is fine: only the vectors and the
    ONNX file are taken, each verified against that version's own manifest)."""
    version = current_version(root)
    if version is None or not version.is_dir():
        return _Previous()
    try:
        manifest = json.loads((version / "manifest.json").read_text())
        files = manifest["files"]
        for name in ("chunks.json", "vectors.npy"):
            f = version / name
            if f.stat().st_size != files[name]["size"] or _sha256(f) != files[name]["sha256"]:
                return _Previous(version, manifest)
        if manifest.get("model_id") != dense.MODEL_ID or manifest.get("dim") != dense.DIM:
            return _Previous(version, manifest)
        rows = json.loads((version / "chunks.json").read_text())
        vecs = np.load(version / "vectors.npy", allow_pickle=False)
    except Exception:
        return _Previous()
    if not isinstance(manifest, dict) or vecs.shape != (len(rows), dense.DIM):
        return _Previous(version, manifest if isinstance(manifest, dict) else None)
    return _Previous(version, manifest, {r["digest"]: vecs[i] for i, r in enumerate(rows)})


def _same_model(old: Mapping[str, Any] | None, model: dict[str, Any] | None) -> bool:
    """Whether vectors of the old manifest came from the model (or stand-in) now embedding. A
    format-1 index predates the fingerprint and was always built with the packaged model."""
    if old is None:
        return False
    if "model" not in old:
        return old.get("format_version") == 1 and model is not None
    return bool(old["model"] == model)


def _bind(
    embedder: object, index_version: Path, onnx_meta: object, repair: Callable[[], object]
) -> None:
    use = getattr(embedder, "use_index", None)
    if use is not None:
        use(index_version, onnx_meta if isinstance(onnx_meta, dict) else None, repair)


def build(
    root: Path, kb: KnowledgeBase, embedder: IndexEmbedder, progress: Progress | None = None
) -> BuildReport:
    """Build a new version and make it live. Only chunks whose text changed are embedded."""
    from filelock import FileLock

    t0 = time.perf_counter()
    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / ".lock"), timeout=600):
        return _build_locked(root, kb, embedder, progress, t0)


def _build_locked(
    root: Path, kb: KnowledgeBase, embedder: IndexEmbedder, progress: Progress | None, t0: float
) -> BuildReport:
    entries = [le.entry for le in kb.entries]
    chunks = [c for e in entries for c in entry_chunks(e)]
    prev = _previous(root)
    tmp = root / f".tmp-{uuid.uuid4().hex}"
    tmp.mkdir()
    try:
        # The real embedder puts the ONNX model in the new version first (reused or exported), so
        # the chunks below are embedded with it; a stand-in embedder has no model to export.
        prepare = getattr(embedder, "prepare_onnx", None)
        model = dense.model_fingerprint() if prepare is not None else None
        onnx_meta = None
        if prepare is not None:
            before = [(prev.version, (prev.manifest or {}).get("onnx"))] if prev.version else []
            onnx_meta = prepare(tmp, before)
        reuse = prev.vectors if prev.vectors and _same_model(prev.manifest, model) else {}
        # Longest first, so each batch of `step` holds chunks of similar lengths: a batch is padded
        # to its longest chunk, and in knowledge order a 20-token symptom shared a batch with a
        # 256-token paragraph (4.4x the tokens to compute; sorted, 1.6x). The vectors are the same
        # bits either way (tests/test_onnx.py), only the work differs.
        todo = sorted(
            (i for i, c in enumerate(chunks) if c.digest not in reuse),
            key=lambda i: -len(chunks[i].text),
        )
        vectors = np.zeros((len(chunks), dense.DIM), dtype=np.float32)
        for i, c in enumerate(chunks):
            if c.digest in reuse:
                vectors[i] = reuse[c.digest]
        step = 64
        if progress:
            progress(0, len(todo))
        for start in range(0, len(todo), step):
            batch = todo[start : start + step]
            vectors[batch] = embedder.encode([chunks[i].text for i in batch])
            if progress:
                progress(min(start + step, len(todo)), len(todo))

        with open(tmp / "vectors.npy", "wb") as fh:
            np.save(fh, vectors, allow_pickle=False)
        dense.save_faiss(dense.build_faiss(vectors), tmp / "dense.faiss")
        (tmp / "chunks.json").write_text(
            json.dumps(
                [
                    {
                        "entry": c.entry_id,
                        "kind": c.kind,
                        "lang": c.lang,
                        "text": c.text,
                        "digest": c.digest,
                    }
                    for c in chunks
                ],
                ensure_ascii=False,
            )
        )
        BM25.build([lexical_document(e) for e in entries]).save(tmp)
        onnx_files = (
            {onnx_meta.get("file"), (onnx_meta.get("data") or {}).get("file")}
            if isinstance(onnx_meta, dict)
            else set()
        )
        files = {
            f.name: {"size": f.stat().st_size, "sha256": _sha256(f)}
            for f in sorted(tmp.iterdir())
            if f.name not in onnx_files  # hashed by prepare_onnx, verified when loaded (see top)
        }
        manifest: dict[str, Any] = {
            "format_version": FORMAT_VERSION,
            "model_id": dense.MODEL_ID,
            "dim": dense.DIM,
            "kb_hash": kb.content_hash(),
            "pipeline": pipeline_hash(),
            "entry_ids": [e.id for e in entries],
            "chunk_count": len(chunks),
            "faiss": "hnsw" if len(chunks) > dense.HNSW_THRESHOLD else "flat",
            "model": model,
            "onnx": onnx_meta,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "files": files,
        }
        (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2))
        for f in tmp.iterdir():
            with open(f, "rb") as fh:
                os.fsync(fh.fileno())
        version = root / f"v-{manifest['kb_hash'][:12]}-{uuid.uuid4().hex[:8]}"
        os.rename(tmp, version)
        fsync_dir(root)
        pointer = root / f".CURRENT-{uuid.uuid4().hex}"
        pointer.write_text(version.name + "\n")
        os.replace(pointer, root / "CURRENT")
        fsync_dir(root)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    _remove_old_versions(root, keep=(version.name, _previous_name(root, version.name)))
    _bind(embedder, version, onnx_meta, lambda: build(root, kb, embedder))
    return BuildReport(version, len(chunks), len(todo), time.perf_counter() - t0)


def _previous_name(root: Path, current: str) -> str:
    """The newest other version: kept one generation, so a process that loaded it just before the
    switch can still read its files (e.g. the vectors, read lazily)."""
    others = [d for d in root.glob("v-*") if d.is_dir() and d.name != current]
    return max(others, key=lambda d: d.stat().st_mtime).name if others else ""


def _remove_old_versions(root: Path, keep: tuple[str, ...]) -> None:
    for d in root.iterdir():
        if (
            d.is_dir()
            and d.name not in keep
            and (d.name.startswith("v-") or d.name.startswith(".tmp-"))
        ):
            shutil.rmtree(d, ignore_errors=True)
    for f in root.glob(".CURRENT-*"):
        f.unlink(missing_ok=True)


def ensure(
    root: Path, kb: KnowledgeBase, embedder: IndexEmbedder, progress: Progress | None = None
) -> tuple[Index, BuildReport | None, str | None]:
    """The live index if it is valid and fresh; else rebuild it. Returns (index, build report,
    reason for the rebuild). The embedder is bound to the index's ONNX model (`use_index`)."""
    index, report, reason = _ensure(root, kb, embedder, progress)
    _bind(embedder, index.path, index.onnx, lambda: build(root, kb, embedder))
    return index, report, reason


def _ensure(
    root: Path, kb: KnowledgeBase, embedder: IndexEmbedder, progress: Progress | None
) -> tuple[Index, BuildReport | None, str | None]:
    try:
        return load(root, kb), None, None
    except IndexError_ as exc:
        reason = str(exc)
    from filelock import FileLock

    root.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    with FileLock(str(root / ".lock"), timeout=600):
        try:  # another process may have built it while we waited for the lock
            return load(root, kb), None, None
        except IndexError_:
            pass
        report = _build_locked(root, kb, embedder, progress, t0)
    return load(root, kb), report, reason
