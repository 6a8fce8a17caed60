"""The query-time embedder: all-MiniLM-L6-v2 run by onnxruntime, with no torch in the process.

The model's transformer is exported to ONNX once, while the index is built (`export`, which needs
torch and the sentence-transformers model: build time only), and kept in the index directory with
its sha256 in the manifest. At query time `OnnxEmbedder` tokenizes with the model's own
`tokenizer.json` (the `tokenizers` package) and pools and normalizes exactly as the model's
sentence-transformers configuration says (`modules.json`, the pooling module's `config.json`,
`sentence_bert_config.json`: read, not assumed), so its vectors agree with sentence-transformers'
to cosine ≥ 0.999 (tests/test_onnx.py).

Nothing here imports torch, transformers or sentence-transformers at query time; `export` imports
torch inside the function.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import stat
import threading
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ONNX_NAME = "model.onnx"
# The weights, beside the graph (ONNX external data): onnxruntime maps this file into memory
# instead of parsing ~90 MB of protobuf and copying every tensor out of it, which made creating
# the session ~3x slower. Its name is written inside the graph, so it is the same for every export.
DATA_NAME = "model.onnx.data"
# Bump when `export` changes what it writes: an index holding an older export is then stale.
# 2: plain (eager) attention traced, then fused by onnxruntime's BERT optimizer.
# 3: the same graph and weights (the same vectors, to the bit), the weights in DATA_NAME.
EXPORT_RECIPE = 3
OPSET = 17
INPUTS = ("input_ids", "attention_mask", "token_type_ids")
# Sentence-transformers module types this embedder reproduces (anything else: not exportable).
_SUPPORTED_MODULES = {"Transformer", "Pooling", "Normalize"}
_POOLING_FLAGS = {
    "pooling_mode_cls_token": "cls",
    "pooling_mode_mean_tokens": "mean",
    "pooling_mode_max_tokens": "max",
    "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len",
}
_UNSUPPORTED_POOLING = ("pooling_mode_weightedmean_tokens", "pooling_mode_lasttoken")


class OnnxUnavailable(RuntimeError):
    """The ONNX model cannot be made or used; the message says why, in one line."""


@dataclass(frozen=True)
class ModelConfig:
    """What sentence-transformers does around the transformer, read from the model directory."""

    max_seq_length: int
    do_lower_case: bool
    pooling: str  # cls | mean | max | mean_sqrt_len
    normalize: bool
    dim: int


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise OnnxUnavailable(f"{path.name} unreadable: {exc}") from None


def read_model_config(model_dir: Path) -> ModelConfig:
    """The model's tokenization limit, pooling and normalization, from its own files."""
    modules = _read_json(model_dir / "modules.json")
    if not isinstance(modules, list) or not modules:
        raise OnnxUnavailable("modules.json lists no modules")
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    if kinds[0] != "Transformer" or not set(kinds) <= _SUPPORTED_MODULES:
        raise OnnxUnavailable(f"unsupported sentence-transformers modules: {kinds}")
    pooling_dirs = [
        str(m.get("path", "")) for m, k in zip(modules, kinds, strict=True) if k == "Pooling"
    ]
    if len(pooling_dirs) != 1:
        raise OnnxUnavailable("the model has no single pooling module")
    pool = _read_json(model_dir / pooling_dirs[0] / "config.json")
    modes = [name for flag, name in _POOLING_FLAGS.items() if pool.get(flag)]
    if len(modes) != 1 or any(pool.get(flag) for flag in _UNSUPPORTED_POOLING):
        raise OnnxUnavailable(f"unsupported pooling configuration: {pool}")
    sbc_path = model_dir / "sentence_bert_config.json"
    sbc = _read_json(sbc_path) if sbc_path.is_file() else {}
    max_len = sbc.get("max_seq_length")
    if max_len is None:  # sentence-transformers then takes the tokenizer's limit
        tok_cfg = model_dir / "tokenizer_config.json"
        max_len = _read_json(tok_cfg).get("model_max_length") if tok_cfg.is_file() else None
    if max_len is None or int(max_len) > 100_000:
        max_len = _read_json(model_dir / "config.json").get("max_position_embeddings", 512)
    return ModelConfig(
        max_seq_length=int(max_len),
        do_lower_case=bool(sbc.get("do_lower_case", False)),
        pooling=modes[0],
        normalize="Normalize" in kinds,
        dim=int(pool.get("word_embedding_dimension", 0)),
    )


def sha256_file(path: Path) -> str:
    """One C call over a memory map: hashlib releases the GIL for all of it, so it can run in a
    thread beside the session being created (`OnnxEmbedder._open`)."""
    with open(path, "rb") as fh:
        if os.fstat(fh.fileno()).st_size == 0:
            return hashlib.sha256(b"").hexdigest()
        with mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as view:
            return hashlib.sha256(view).hexdigest()


class _Hashing(threading.Thread):
    """The sha256 of each file, in a thread: `digests[i]` is None if file i could not be read."""

    def __init__(self, paths: list[Path]):
        super().__init__(name="onnx-sha256", daemon=True)
        self.paths = paths
        self.digests: list[str | None] = [None] * len(paths)
        self.error: OSError | None = None
        self.start()

    def run(self) -> None:
        for i, path in enumerate(self.paths):
            try:
                self.digests[i] = sha256_file(path)
            except OSError as exc:
                self.error = exc


def pool(hidden: np.ndarray, mask: np.ndarray, mode: str) -> np.ndarray:
    """sentence-transformers' Pooling, in NumPy: hidden (n, seq, dim), mask (n, seq)."""
    m = mask[..., None].astype(np.float32)
    if mode == "cls":
        return np.asarray(hidden[:, 0], dtype=np.float32)
    if mode == "max":
        return np.asarray(np.where(m > 0, hidden, -1e9).max(axis=1), dtype=np.float32)
    summed = (hidden * m).sum(axis=1)
    counts = np.clip(m.sum(axis=1), 1e-9, None)
    if mode == "mean_sqrt_len":
        return np.asarray(summed / np.sqrt(counts), dtype=np.float32)
    return np.asarray(summed / counts, dtype=np.float32)


def l2_normalize(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return np.asarray(vecs / np.maximum(norms, 1e-12), dtype=np.float32)


def default_threads() -> int:
    """Intra-op threads: 2 (or one per core, if fewer), or TPU_ASSIST_ONNX_THREADS (1 or 2). A
    query is a few hundred MFLOP, so two threads halve it; they sleep between queries (no
    spinning), so the interface keeps its core between them."""
    try:
        wanted = int(os.environ.get("TPU_ASSIST_ONNX_THREADS", "2"))
    except ValueError:
        wanted = 2
    return max(1, min(2, wanted, os.cpu_count() or 1))


class OnnxEmbedder:
    """`load()`, `loaded`, `encode(texts) -> float32 (n, dim)`, rows L2-normalized.

    `sha256` (and `data_sha256` for the weights file beside it, DATA_NAME), when given, is checked
    before the file is used: a file that does not match raises `OnnxUnavailable` (the caller
    re-exports it or falls back), never a wrong vector.
    """

    name = "onnx"

    def __init__(
        self,
        onnx_path: Path,
        model_dir: Path,
        sha256: str | None = None,
        threads: int | None = None,
        fused: bool = True,
        data_sha256: str | None = None,
    ):
        self.path = onnx_path
        self.fused = fused
        self.model_dir = model_dir
        self.sha256 = sha256
        self.data_sha256 = data_sha256
        self.threads = threads or default_threads()
        self._session: Any = None
        self._tokenizer: Any = None
        self._config: ModelConfig | None = None
        self._pad = 0
        self._lock = threading.Lock()
        self.load_seconds = 0.0

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def load(self) -> OnnxEmbedder:
        with self._lock:
            if self._session is None:
                t0 = time.perf_counter()
                self._session, self._tokenizer, self._config = self._open()
                self.load_seconds = time.perf_counter() - t0
        return self

    def _open(self) -> tuple[Any, Any, ModelConfig]:
        config = read_model_config(self.model_dir)
        if not self.path.is_file():
            raise OnnxUnavailable(f"{self.path.name} is missing")
        # The files are checked against the manifest while the session is created (both release
        # the GIL, and there are two cores); the session is used only if the check passes.
        expected = [(self.path, self.sha256)]
        if self.data_sha256 is not None:
            expected.append((self.path.with_name(DATA_NAME), self.data_sha256))
        hashing = _Hashing([p for p, _ in expected]) if self.sha256 is not None else None
        failed: OnnxUnavailable | None = None
        try:
            session, tokenizer = self._session_and_tokenizer(config)
        except OnnxUnavailable as exc:
            failed = exc  # a damaged file often fails to load: its checksum says why, if it can
        finally:
            if hashing is not None:
                hashing.join()
        if hashing is not None:
            for (path, want), got in zip(expected, hashing.digests, strict=True):
                if got is None:
                    raise OnnxUnavailable(f"{path.name} unreadable: {hashing.error}")
                if got != want:
                    raise OnnxUnavailable(f"{path.name} does not match its sha256 in the manifest")
        if failed is not None:
            raise failed
        return session, tokenizer, config

    def _session_and_tokenizer(self, config: ModelConfig) -> tuple[Any, Any]:
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise OnnxUnavailable(f"{exc.name or exc} is not installed") from None
        try:
            tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        except Exception as exc:
            raise OnnxUnavailable(f"tokenizer.json unusable: {exc}") from None
        # The file's own truncation and padding (a fixed 128 for MiniLM) are not what
        # sentence-transformers does: it truncates at max_seq_length and pads to the longest.
        tokenizer.enable_truncation(config.max_seq_length)
        padding = tokenizer.padding or {}
        pad_id = padding.get("pad_id", tokenizer.token_to_id("[PAD]"))
        tokenizer.no_padding()  # encode() pads each batch to its own longest row
        self._pad = int(pad_id or 0)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = self.threads
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        # A fused file (see `export`) needs only the basic passes, and skipping the others
        # shortens the load; an unfused one gets them all.
        opts.graph_optimization_level = (
            ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
            if self.fused
            else ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        )
        # Idle worker threads sleep instead of spinning, so a query leaves no core busy behind it.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3
        try:
            session = ort.InferenceSession(
                str(self.path), sess_options=opts, providers=["CPUExecutionProvider"]
            )
        except Exception as exc:
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise OnnxUnavailable(f"{self.path.name} cannot be loaded: {first[:200]}") from None
        names = {i.name for i in session.get_inputs()}
        if not names <= set(INPUTS) or "input_ids" not in names:
            raise OnnxUnavailable(f"{self.path.name} has unexpected inputs {sorted(names)}")
        return session, tokenizer

    def encode(
        self, texts: Sequence[str], batch_size: int = 64, progress: bool = False
    ) -> np.ndarray:
        self.load()
        assert self._config is not None
        config = self._config
        if not texts:
            return np.zeros((0, config.dim), dtype=np.float32)
        prepared = [t.lower() if config.do_lower_case else t for t in texts]
        encodings = self._tokenizer.encode_batch(prepared, add_special_tokens=True)
        # Batches of similar lengths (as sentence-transformers does): little padding to compute.
        order = sorted(range(len(texts)), key=lambda i: -len(encodings[i].ids))
        out = np.zeros((len(texts), config.dim), dtype=np.float32)
        wanted = {i.name for i in self._session.get_inputs()}
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            width = max(len(encodings[i].ids) for i in rows)
            feed = {
                name: np.zeros((len(rows), width), dtype=np.int64)
                for name in INPUTS
                if name in wanted
            }
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                enc = encodings[i]
                n = len(enc.ids)
                feed["input_ids"][r, :n] = enc.ids
                mask[r, :n] = 1
                if "token_type_ids" in feed:
                    feed["token_type_ids"][r, :n] = enc.type_ids
                if n < width:
                    feed["input_ids"][r, n:] = self._pad
            if "attention_mask" in feed:
                feed["attention_mask"] = mask
            hidden = self._session.run(None, feed)[0]
            out[rows] = pool(hidden, mask, config.pooling)
        return l2_normalize(out) if config.normalize else out


# -- export (index build only: needs torch and the sentence-transformers model) -----------------


def exporter_version() -> str:
    """Identifies what produced the file: torch's and onnxruntime's versions and the recipe."""
    from importlib.metadata import version

    return (
        f"torch {version('torch')} legacy exporter, opset {OPSET}, onnxruntime "
        f"{version('onnxruntime')} BERT fusion, recipe {EXPORT_RECIPE}"
    )


def export(st_model: Any, out: Path) -> str:
    """Write the transformer of a loaded SentenceTransformer as ONNX (inputs `INPUTS`, output the
    last hidden state; pooling and normalization stay in NumPy, as configured): the graph in
    `out`, its weights in DATA_NAME beside it.

    torch's TorchScript-based exporter traces the model with plain (eager) attention — the graph
    onnxruntime's BERT optimizer recognizes — and the optimizer fuses it (attention, layer norms,
    GELU: 46 nodes instead of ~500, quicker to load). Both run offline and deterministically
    (the same bytes each time). Returns how the graph was made ("fused", or "unfused" when the
    optimizer is unavailable: as exact, only slower to load)."""
    import onnx

    raw = out.with_name(out.name + ".traced")
    fused = out.with_name(out.name + ".fused")
    try:
        _trace(st_model, raw)
        try:
            _fuse(raw, fused, st_model[0].auto_model.config)
            proto, graph = onnx.load(str(fused)), "fused"
        except Exception:
            proto, graph = onnx.load(str(raw)), "unfused"
        data = out.with_name(DATA_NAME)
        data.unlink(missing_ok=True)  # onnx appends to an existing data file
        onnx.save_model(
            proto,
            str(out),
            save_as_external_data=True,
            all_tensors_to_one_file=True,
            location=DATA_NAME,
            size_threshold=1024,
        )
        os.chmod(data, stat.S_IMODE(out.stat().st_mode))  # onnx creates it private (0600)
        return graph
    finally:
        raw.unlink(missing_ok=True)
        fused.unlink(missing_ok=True)


def _fuse(raw: Path, out: Path, config: Any) -> None:
    import logging

    from onnxruntime.transformers.optimizer import optimize_model

    quiet = logging.getLogger("onnxruntime.transformers")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        model = optimize_model(
            str(raw),
            model_type="bert",
            num_heads=int(config.num_attention_heads),
            hidden_size=int(config.hidden_size),
            opt_level=0,  # graph fusions only: no hardware-specific onnxruntime passes
        )
        model.save_model_to_file(str(out))
    finally:
        quiet.setLevel(level)


def _trace(st_model: Any, out: Path) -> None:
    import torch

    transformer = st_model[0].auto_model
    transformer.eval()
    before = getattr(transformer.config, "_attn_implementation", None)
    switch = before not in (None, "eager") and hasattr(transformer, "set_attn_implementation")
    if switch:
        transformer.set_attn_implementation("eager")
    try:
        _torch_export(torch, transformer, out)
    finally:
        if switch:
            transformer.set_attn_implementation(before)


def _torch_export(torch: Any, transformer: Any, out: Path) -> None:
    class Hidden(torch.nn.Module):  # type: ignore[misc]  # torch is untyped here (skipped)
        def __init__(self, model: Any):
            super().__init__()
            self.model = model

        def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
            return self.model(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    # A padded batch as the example, so nothing traced assumes an all-ones mask.
    ids = torch.tensor([[101, 7099, 3793, 2005, 1996, 9167, 102], [101, 2460, 102, 0, 0, 0, 0]])
    mask = (ids != 0).long()
    axes = {0: "batch", 1: "sequence"}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            Hidden(transformer).eval(),
            (ids, mask, torch.zeros_like(ids)),
            str(out),
            input_names=list(INPUTS),
            output_names=["last_hidden_state"],
            dynamic_axes=dict.fromkeys([*INPUTS, "last_hidden_state"], axes),
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )
