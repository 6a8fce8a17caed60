#!/usr/bin/env python3
"""Benchmark what a person feels, with the project's own code, the real model and real FAISS.

    python scripts/bench.py [--json OUT] [--sizes 1000,10000,100000] [--runs 3] [--quick]

Prints a table and writes JSON (default: bench.json). Every figure is the median of `--runs`
runs; figures that compare two things are taken in the same run and reported as ratios.

Two embedding engines are measured side by side in the same run: the query path's ONNX model
(onnxruntime + tokenizers, no torch; the default) and the torch path it replaced
(sentence-transformers, selected with TPU_ASSIST_EMBEDDER=sentence-transformers).

Sections
  startup   fresh processes: time until the TUI is usable (with Pilot, which waits for the process
            to be idle, and until a typed key shows), until the model is ready, one-shot
            `tpu-assist ask` (signatures decisive: no model; and a symptom: model needed) and its
            peak memory, and `import torch` for comparison — each with both engines
  query     warm latency p50/p95 over the labelled queries, whole pipeline and per stage
  build     index build of the real knowledge base (everything embedded; with the ONNX engine that
            includes exporting the model), an incremental rebuild after one entry changed, and
            peak memory of a process that has answered a query
  check     (`--check`, run alone) `tpu-assist check DIR` over 1,000 synthetic scripts of 300
            lines: a fresh process and in process
  scale     synthetic knowledge bases of N chunks made from the real entries (see `synthetic_kb`):
            build time, size on disk, whole-pipeline query p50/p95, memory, and recall@10 of the
            index in use against exact search, for the flat (exact) and the HNSW index
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from assistant import paths, store  # noqa: E402
from assistant.engine import Engine  # noqa: E402
from assistant.evaluation import load_fixtures, load_jsonl  # noqa: E402
from assistant.kb import KnowledgeBase, load_knowledge  # noqa: E402
from assistant.kb.loader import LoadedEntry  # noqa: E402
from assistant.retrieval import dense  # noqa: E402
from assistant.retrieval.chunks import Chunk, entry_chunks, lexical_document  # noqa: E402
from assistant.retrieval.lexical import BM25  # noqa: E402

# shared/ sits beside the checkout (or beside the worktrees' directory).
DEV = next(
    (
        d / "shared" / "eval" / "dev_queries.jsonl"
        for d in (ROOT.parent, ROOT.parent.parent)
        if (d / "shared" / "eval" / "dev_queries.jsonl").is_file()
    ),
    ROOT.parent / "shared" / "eval" / "dev_queries.jsonl",
)
EXACT_OP = (
    "NotFoundError: No registered 'StringSplitV2' OpKernel for XLA_TPU_JIT devices "
    "compatible with node"
)
SYMPTOM = "my training on the TPU got slow and the profiler shows low MXU utilization"


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(np.array(values), q)) if values else float("nan")


def median(values: list[float]) -> float:
    return float(statistics.median(values))


TORCH = (
    dense.SentenceTransformerEmbedder.name
)  # the value of TPU_ASSIST_EMBEDDER for the torch path


def child_env(index_dir: Path | None = None, engine: str | None = None) -> dict[str, str]:
    env = dict(os.environ)
    if index_dir is not None:
        env["TPU_ASSIST_INDEX_DIR"] = str(index_dir)
    env["TPU_ASSIST_USER_KB"] = str(ROOT / "tests" / "fixtures" / "no-user-kb")
    env.pop("TPU_ASSIST_EMBEDDER", None)
    if engine:
        env["TPU_ASSIST_EMBEDDER"] = engine
    return env


# Peak resident memory of one fresh child process (RUSAGE_CHILDREN of a wrapper that ran only it).
PEAK_RSS = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
"""


def peak_rss_mb(args: list[str], env: dict, runs: int) -> float:
    values = []
    for _ in range(runs):
        r = subprocess.run(
            [sys.executable, "-c", PEAK_RSS, *args],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        values.append(float(r.stdout.strip().splitlines()[-1]))
    return median(values)


def timed_process(args: list[str], env: dict, runs: int, until: str | None = None) -> float:
    """Median wall time of a fresh process; with `until`, the time until it prints that line."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.Popen(
            args,
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
        )
        if until:
            for line in p.stdout:
                if line.strip() == until:
                    times.append(time.perf_counter() - t0)
                    break
            p.kill()
            p.wait()
        else:
            p.communicate()
            times.append(time.perf_counter() - t0)
    return median(times)


# Each probe starts as `tpu-assist` does (cli.main: one OpenBLAS thread) before importing anything.
START = "from assistant.cli.main import one_blas_thread; one_blas_thread()\n"

MODEL_PROBE = (
    START
    + """
from assistant.engine import Engine
Engine().warm_up()
print("READY", flush=True)
"""
)


def tui_probe(body: str, done: str) -> str:
    """A fresh process that starts the TUI headless at 80x24, runs `body` (indented lines that
    wait for the moment measured) once the first screen is up, then prints `done`."""
    return (
        START
        + "import asyncio\n"
        + "from textual import events\n"
        + "from assistant.tui.app import make_app\n"
        + "async def main():\n"
        + "    app = make_app()\n"
        + "    async with app.run_test(size=(80, 24)) as pilot:\n"
        + body
        + f"        print({done!r}, flush=True)\n"
        + "asyncio.run(main())\n"
    )


# Usable = the first frame is drawn and a typed key shows up in the input box.
TUI_PROBE = tui_probe(
    "        await pilot.press('x')\n"
    "        while 'x' not in app.screen.query_one('#prompt').text:\n"
    "            await asyncio.sleep(0.005)\n",
    "USABLE",
)

# The same moment, timed without Pilot's wait: `pilot.press` returns only once the process is idle
# (textual's wait_for_idle compares CPU with wall time), and the engine's load worker keeps a core
# busy from the first frame until the model is ready, so TUI_PROBE's figure is in fact the later
# of "a typed key shows" and "the background load is over". Here the key is posted as the driver
# posts a key (the app's queue) once the first screen is up, and the clock stops when it shows.
TUI_ECHO_PROBE = tui_probe(
    "        app.post_message(events.Key('x', 'x'))\n"
    "        while 'x' not in app.screen.query_one('#prompt').text:\n"
    "            await asyncio.sleep(0.005)\n",
    "USABLE",
)

# The model ready inside the interactive assistant: its load worker has finished.
TUI_READY_PROBE = tui_probe(
    "        while not (app.engine is not None and app.engine.embedder.loaded\n"
    "                   and app.screen.status_key == 'status.ready'):\n"
    "            await asyncio.sleep(0.005)\n",
    "READY",
)

MEMORY_PROBE = """
import json, resource, sys
from assistant.engine import Engine
e = Engine(); e.warm_up(); e.ask(sys.argv[1])
print(json.dumps({"maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def torch_key(name: str) -> str:
    """ask_symptom_s -> ask_symptom_torch_s"""
    return name[: -len("_s")] + "_torch_s"


def compile_bytecode() -> None:
    """Write the package's bytecode first, as `pip install` does: a fresh process would otherwise
    compile every module it imports from source (~0.1 s) whenever PYTHONDONTWRITEBYTECODE is set,
    as it is on this project's machine."""
    import compileall

    compileall.compile_dir(ROOT / "assistant", quiet=1)


def bench_startup(runs: int) -> dict:
    """Each figure with the ONNX engine and, as `<name>_torch`, the torch path; the runs of the
    two alternate, so both see the same machine."""
    compile_bytecode()
    py = sys.executable
    ask_sig = [py, "-m", "assistant", "ask", "--json", EXACT_OP]
    ask_sym = [py, "-m", "assistant", "ask", "--json", SYMPTOM]
    try:
        import assistant.tui.app  # noqa: F401

        tui = True
    except ImportError:
        tui = False
    out: dict[str, float | None] = {}
    for name, args, until in [
        ("ask_signature_s", ask_sig, None),
        ("ask_symptom_s", ask_sym, None),
        ("model_ready_s", [py, "-c", MODEL_PROBE], "READY"),
        ("tui_usable_s", [py, "-c", TUI_PROBE], "USABLE"),
        ("tui_key_shown_s", [py, "-c", TUI_ECHO_PROBE], "USABLE"),
        ("tui_model_ready_s", [py, "-c", TUI_READY_PROBE], "READY"),
    ]:
        if name.startswith("tui") and not tui:
            out[name] = out[torch_key(name)] = None
            continue
        fast, slow = [], []
        for _ in range(runs):
            fast.append(timed_process(args, child_env(), 1, until=until))
            slow.append(timed_process(args, child_env(engine=TORCH), 1, until=until))
        out[name] = median(fast)
        out[torch_key(name)] = median(slow)
    out["ask_symptom_peak_rss_mb"] = peak_rss_mb(ask_sym, child_env(), runs)
    out["ask_symptom_peak_rss_torch_mb"] = peak_rss_mb(ask_sym, child_env(engine=TORCH), runs)
    out["import_torch_s"] = timed_process([py, "-c", "import torch"], child_env(), runs)
    out["ask_signature_vs_import_torch"] = out["ask_signature_s"] / out["import_torch_s"]
    return out


def queries() -> list[str]:
    if DEV.is_file():
        return [q.query for q in load_jsonl(DEV)]
    matches, _ = load_fixtures(ROOT / "tests" / "fixtures" / "kb")
    return [q.query for q in matches]


def latency(engine: Engine, texts: list[str], runs: int) -> dict:
    """p50/p95 per stage and for the whole pipeline; medians over `runs` rounds."""
    rounds: list[dict[str, tuple[float, float]]] = []
    for _ in range(runs):
        per_stage: dict[str, list[float]] = {}
        for text in texts:
            t: dict[str, float] = {}
            t0 = time.perf_counter()
            engine.ask(text, timings=t)
            t["total"] = time.perf_counter() - t0
            for k, v in t.items():
                per_stage.setdefault(k, []).append(v * 1000)
        rounds.append({k: (pct(v, 50), pct(v, 95)) for k, v in per_stage.items()})
    stages = rounds[0].keys()
    return {
        k: {
            "p50_ms": median([r[k][0] for r in rounds]),
            "p95_ms": median([r[k][1] for r in rounds]),
        }
        for k in stages
    }


def bench_query(runs: int, embedder=None) -> dict:
    engine = Engine(user_dirs=[], embedder=embedder)
    engine.warm_up()
    texts = queries()
    for text in texts[:5]:
        engine.ask(text)  # warm caches
    return {"n_queries": len(texts), **latency(engine, texts, runs)}


def worst_inputs() -> dict[str, str]:
    """Pastes built to be slow, at the sizes the normalizer keeps (`MAX_LINE`): long error lines of
    dotted names (every regex that scans a module path), one huge line, many short error lines."""
    dotted = "RuntimeError: " + "a." * 990
    return {
        "dotted_error_lines": "\n".join([dotted] * 300),
        "one_huge_line": "x" * 1_000_000,
        "many_error_lines": "\n".join(f"E0101 ValueError: step {i} failed" for i in range(20_000)),
        "numbers_and_units": " ".join(f"{i}.5 GiB {i}ms {i}%" for i in range(20_000)),
    }


def bench_worst(engine: Engine) -> dict:
    """Seconds `ask` takes on each pathological paste (one run: these are guards, not medians)."""
    out = {}
    for name, text in worst_inputs().items():
        t0 = time.perf_counter()
        engine.ask(text)
        out[name] = round(time.perf_counter() - t0, 3)
    return out


def bench_build(runs: int) -> dict:
    """Full builds from an empty directory with a loaded model, as a person's first `kb build`
    pays them after the model load: the ONNX engine's includes exporting the model (and embeds
    the chunks with it), the torch path's embeds them with sentence-transformers."""
    kb = load_knowledge(user_dirs=[])
    reference = dense.SentenceTransformerEmbedder()
    reference.load()
    full, full_torch, incremental, embedded = [], [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            full_torch.append(store.build(Path(tmp) / "torch", kb, reference).seconds)
            embedder = dense.Embedder()
            embedder.reference = reference
            root = Path(tmp) / "index"
            full.append(store.build(root, kb, embedder).seconds)
            kdir = Path(tmp) / "kb"
            shutil.copytree(paths.builtin_knowledge_dir(), kdir)
            f = kdir / "hbm-oom.yaml"
            f.write_text(
                f.read_text().replace(
                    "my batch does not fit in TPU memory",
                    "my batch no longer fits in the TPU memory",
                )
            )
            report = store.build(root, load_knowledge(builtin=kdir, user_dirs=[]), embedder)
            incremental.append(report.seconds)
            embedded.append(report.embedded)
    # Through the PEAK_RSS wrapper: a child forked from this (large) process would inherit its
    # high-water mark in ru_maxrss. The median of `runs` processes: one process's peak varies by
    # about a tenth from run to run (183-207 MB for the same query on this machine).
    maxrss = {
        name: peak_rss_mb(
            [sys.executable, "-c", MEMORY_PROBE, SYMPTOM], child_env(engine=e), max(runs, 3)
        )
        for name, e in (("onnx", None), ("torch", TORCH))
    }
    chunks = sum(len(entry_chunks(le.entry)) for le in kb.entries)
    return {
        "entries": len(kb),
        "chunks": chunks,
        "full_build_s": median(full),
        "full_build_torch_s": median(full_torch),
        "incremental_build_s": median(incremental),
        "incremental_embedded": max(embedded),
        "incremental_vs_full": median(incremental) / median(full),
        "peak_memory_after_query_mb": maxrss["onnx"],
        "peak_memory_after_query_torch_mb": maxrss["torch"],
    }


# -- scale ----------------------------------------------------------------------------------------


def synthetic_kb(kb: KnowledgeBase, n_chunks: int, seed: int = 0) -> KnowledgeBase:
    """Copies of the real entries with variations, until the KB holds about `n_chunks` chunks.

    Each copy gets a new id, its symptoms reordered and thinned, a distinct team word in its title,
    and signatures that carry the same suffix, so they behave like a team's own runbooks: similar
    in vocabulary, never identical. Deterministic for a given seed.
    """
    rng = random.Random(seed)
    base = [le.entry for le in kb.entries]
    per_entry = sum(len(entry_chunks(e)) for e in base) / len(base)
    copies = max(1, round(n_chunks / per_entry))
    out: list[LoadedEntry] = []
    for k in range(copies):
        src = base[k % len(base)]
        team = f"team{k}"
        sym = {
            lang: rng.sample(
                src.symptoms.get(lang), max(1, len(src.symptoms.get(lang)) - rng.randint(0, 2))
            )
            for lang in ("en", "pt")
        }
        entry = src.model_copy(
            update={
                "id": f"{src.id}-{team}",
                "title": src.title.model_copy(
                    update={"en": f"{src.title.en} ({team})", "pt": f"{src.title.pt} ({team})"}
                ),
                "symptoms": src.symptoms.model_copy(update=sym),
                "signatures": [
                    s.model_copy(
                        update={
                            "id": f"{s.id}-{team}",
                            "kind": "literal",
                            "pattern": f"{team}-runbook-{s.id}",
                            "captures": {},
                        }
                    )
                    for s in src.signatures
                ],
                "related": [],
            }
        )
        out.append(LoadedEntry(entry, Path(f"/synthetic/{entry.id}.yaml"), "user", f"syn{k}"))
    return KnowledgeBase(out)


def synthetic_vectors(
    chunks: list[Chunk], real: dict[str, np.ndarray], rng: np.random.Generator
) -> np.ndarray:
    """Vectors for the synthetic chunks: the real embedding of the chunk they were made from (or of
    its title for edited texts), moved by a small random direction and re-normalized. Embedding
    100k texts with MiniLM on 2 CPU cores would take the better part of an hour; the index does
    not care where its vectors came from, only how they are spread, and these keep the real ones'
    clusters."""
    vecs = np.zeros((len(chunks), dense.DIM), dtype=np.float32)
    fallback = np.stack(list(real.values()))
    for i, c in enumerate(chunks):
        v = real.get(c.text)
        if v is None:
            v = fallback[zlib.crc32(c.text.encode()) % len(fallback)]
        noise = rng.normal(0, 0.35 / np.sqrt(dense.DIM), dense.DIM).astype(np.float32)
        w = v + noise
        vecs[i] = w / np.linalg.norm(w)
    return vecs


def dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.iterdir() if f.is_file())


def bench_scale(
    sizes: list[int], runs: int, base_engine: Engine, torch_embedder=None
) -> list[dict]:
    kb = base_engine.kb
    real_index = base_engine.index()
    real = {c.text: v for c, v in zip(real_index.chunks, real_index.vectors(), strict=True)}
    texts = queries()
    qvecs = base_engine.embedder.encode([t[:2000] for t in texts])
    rows = []
    for n in sizes:
        rng = np.random.default_rng(n)
        skb = synthetic_kb(kb, n)
        entries = [le.entry for le in skb.entries]
        chunks = [c for e in entries for c in entry_chunks(e)]
        vecs = synthetic_vectors(chunks, real, rng)
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        lexical = BM25.build([lexical_document(e) for e in entries])
        t_lex = time.perf_counter() - t0
        exact = dense.build_faiss(vecs, "flat")
        _, truth = dense.search(exact, qvecs, 10)
        for kind in ("flat", "hnsw"):
            t0 = time.perf_counter()
            index = dense.build_faiss(vecs, kind)
            t_build = time.perf_counter() - t0
            with tempfile.TemporaryDirectory() as tmp:
                d = Path(tmp)
                dense.save_faiss(index, d / "dense.faiss")
                lexical.save(d)
                np.save(d / "vectors.npy", vecs)
                size = dir_size(d)
            _, got = dense.search(index, qvecs, 10)
            recall = float(
                np.mean([len(set(g) & set(t)) / 10 for g, t in zip(got, truth, strict=True)])
            )
            ids = [e.id for e in entries]
            pos = {e: i for i, e in enumerate(ids)}
            idx = store.Index(
                Path("/synthetic"),
                {"kb_hash": "", "entry_ids": ids},
                chunks,
                np.array([pos[c.entry_id] for c in chunks], dtype=np.int32),
                ids,
                lexical,
                index,
            )
            eng = Engine(kb=skb, embedder=base_engine.embedder, params=base_engine.params)
            eng._index = idx
            eng.warm_up()  # warm, as the query section and the TUI are: the signature Sets built
            lat = latency(eng, texts, runs)
            lat_torch = None
            if torch_embedder is not None and n == max(sizes):  # the target's row (time)
                slow = Engine(kb=skb, embedder=torch_embedder, params=base_engine.params)
                slow._index = idx
                slow.warm_up()
                lat_torch = latency(slow, texts, runs)["total"]
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            rows.append(
                {
                    "chunks": len(chunks),
                    "entries": len(entries),
                    "index": kind,
                    "build_s": t_build + t_lex,
                    "disk_mb": size / 2**20,
                    "query_p50_ms": lat["total"]["p50_ms"],
                    "query_p95_ms": lat["total"]["p95_ms"],
                    "query_p50_torch_ms": lat_torch["p50_ms"] if lat_torch else None,
                    "faiss_p50_ms": lat.get("faiss", {}).get("p50_ms"),
                    "signatures_p50_ms": lat.get("signatures", {}).get("p50_ms"),
                    "lexical_p50_ms": lat.get("lexical", {}).get("p50_ms"),
                    "recall_at_10": recall,
                    "peak_rss_mb": max(rss, rss0) / 1024,
                }
            )
            del index, eng
    return rows


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:6.2f}x" if a is not None and b else "     -"


def print_table(res: dict) -> None:
    s, q, qt, b = res["startup"], res["query"], res["query_torch"], res["build"]
    print(f"\nmachine: {res['machine']}")
    loads = res.get("load_average", {})
    if loads:
        print(
            "load average (1 min) before/after each section: "
            + ", ".join(f"{k} {a:.1f}/{z:.1f}" for k, (a, z) in loads.items())
        )
    print("\nstartup (fresh process, median)       onnx     torch   onnx/torch")
    for k in (
        "ask_signature_s",
        "ask_symptom_s",
        "model_ready_s",
        "tui_usable_s",
        "tui_key_shown_s",
        "tui_model_ready_s",
    ):
        a, t = s.get(k), s.get(torch_key(k))
        fa = "n/a" if a is None else f"{a:.2f} s"
        ft = "n/a" if t is None else f"{t:.2f} s"
        print(f"  {k:32} {fa:>8}  {ft:>8}  {_ratio(a, t)}")
    a, t = s["ask_symptom_peak_rss_mb"], s["ask_symptom_peak_rss_torch_mb"]
    print(f"  {'ask_symptom_peak_rss':32} {a:6.0f} MB {t:6.0f} MB  {_ratio(a, t)}")
    print(f"  {'import_torch_s':32} {s['import_torch_s']:6.2f} s")
    print(f"\nwarm query latency over {q['n_queries']} queries (ms)")
    print(f"  {'stage':12} {'p50':>8} {'p95':>8}   torch p50  torch p95")
    for k, v in q.items():
        if isinstance(v, dict):
            w = qt.get(k, {})
            nan = float("nan")
            print(
                f"  {k:12} {v['p50_ms']:8.2f} {v['p95_ms']:8.2f}   "
                f"{w.get('p50_ms', nan):9.2f} {w.get('p95_ms', nan):10.2f}"
            )
    worst = res.get("worst")
    if worst:
        print(
            "\nworst-case pastes, seconds for one ask: "
            + ", ".join(f"{k} {v:.2f}" for k, v in worst.items())
        )
    nan = float("nan")
    print(
        f"\nindex build: {b['entries']} entries, {b['chunks']} chunks: "
        f"full {b['full_build_s']:.1f} s with the ONNX export "
        f"(torch path: {b['full_build_torch_s']:.1f} s), "
        f"incremental {b['incremental_build_s']:.2f} s "
        f"({b['incremental_embedded']} chunk re-embedded, "
        f"{b['incremental_vs_full']:.2f}x of full); peak memory after a query "
        f"{b['peak_memory_after_query_mb'] or nan:.0f} MB "
        f"(torch path: {b['peak_memory_after_query_torch_mb'] or nan:.0f} MB)"
    )
    print("\nscale (synthetic knowledge bases)")
    print(
        f"  {'chunks':>7} {'entries':>7} {'index':>5} {'build s':>8} {'disk MB':>8} "
        f"{'p50 ms':>7} {'p95 ms':>7} {'torch50':>7} {'faiss':>6} {'sigs':>6} {'lex':>6} "
        f"{'rec@10':>6} {'RSS MB':>7}"
    )
    for r in res["scale"]:
        print(
            f"  {r['chunks']:7d} {r['entries']:7d} {r['index']:>5} {r['build_s']:8.2f} "
            f"{r['disk_mb']:8.1f} {r['query_p50_ms']:7.1f} {r['query_p95_ms']:7.1f} "
            f"{r['query_p50_torch_ms'] or 0:7.1f} {r['faiss_p50_ms'] or 0:6.2f} "
            f"{r['signatures_p50_ms'] or 0:6.2f} {r['lexical_p50_ms'] or 0:6.2f} "
            f"{r['recall_at_10']:6.3f} {r['peak_rss_mb']:7.0f}"
        )


# -- check (issue 14): `tpu-assist check` over a directory of training scripts ----------------
# Run alone with `python scripts/bench.py --check` (no model, seconds). Target: 1,000 files of 300
# lines in under 5 s, measured as a fresh `tpu-assist check DIR` process (what a person waits for).

_CHECK_HEADS = {
    "tf": """import os
import tensorflow as tf
from tensorflow.keras import layers

BATCH_SIZE = {batch}
EPOCHS = 10
HIDDEN = {hidden}
resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=os.environ.get("TPU_NAME"))
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)


def parse(record):
    spec = {{
        "x": tf.io.FixedLenFeature([784], tf.float32),
        "y": tf.io.FixedLenFeature([], tf.int64),
    }}
    ex = tf.io.parse_single_example(record, spec)
    return ex["x"], ex["y"]


def make_dataset(pattern):
    files = tf.io.gfile.glob(pattern)
    ds = tf.data.TFRecordDataset(files, num_parallel_reads=tf.data.AUTOTUNE)
    ds = ds.map(parse{parallel})
    ds = ds.shuffle(10_000).batch(BATCH_SIZE{drop})
    return ds{prefetch}


with strategy.scope():
    model = tf.keras.Sequential(
        [
            layers.Dense(1024, activation="relu", input_shape=(784,)),
            layers.Dense(HIDDEN, activation="relu"),
            layers.BatchNormalization(),
            layers.Dense(512, activation="relu"),
            layers.Dense(10),
        ]
    )
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy"{spe})
""",
    "jax": """import functools

import jax
import jax.numpy as jnp
import optax

LEARNING_RATE = 1e-3
GLOBAL_BATCH = {batch}


def init(key, sizes):
    keys = jax.random.split(key, len(sizes))
    return [jax.random.normal(k, (m, n)) * 0.01 for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def forward(params, x):
    for w in params[:-1]:
        x = jax.nn.relu(x @ w)
    return x @ params[-1]


@jax.jit
def loss_fn(params, x, y):
    logits = forward(params, x)
    valid = y >= 0
    picked = logits[valid]{mask_tail}
    return optax.softmax_cross_entropy_with_integer_labels(logits, jnp.maximum(y, 0)).mean()


@functools.partial(jax.jit, static_argnums=2)
def count(x, y, n):
    idx = jnp.nonzero(x > 0{size})
    return idx, jnp.where(x > 0, x, 0.0)


@jax.jit
def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return [p - LEARNING_RATE * g for p, g in zip(params, grads)], loss


def fit(params, batches):
    for step, (x, y) in enumerate(batches):
        params, loss = train_step(params, x, y)
        {jax_log}
    return params
""",
    "torch": """import torch
import torch.nn as nn
import torch_xla.core.xla_model as xm
import torch_xla.distributed.parallel_loader as pl
from torch.utils.data import DataLoader

BATCH_SIZE = {batch}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 1024)
        self.fc2 = nn.Linear(1024, {hidden})
        self.fc3 = nn.Linear({hidden}, 10)

    def forward(self, x):
        return self.fc3(torch.relu(self.fc2(torch.relu(self.fc1(x)))))


def train(dataset, model, optimizer):
    device = xm.xla_device()
    loss_fn = nn.CrossEntropyLoss()
    loader = DataLoader(dataset, batch_size=BATCH_SIZE, shuffle=True, drop_last=True)
    para = pl.MpDeviceLoader(loader, device)
    for step, (data, target) in enumerate({iterate}):
        optimizer.zero_grad()
        output = model(data)
        loss = loss_fn(output, target)
        loss.backward()
        xm.optimizer_step(optimizer)
        if step % 100 == 0:
            {log}
""",
}

_CHECK_FILLERS = [
    '''
def summarize_{n}(values, scale=1.0, offset=0):
    """Normalise a list of numbers and report simple statistics."""
    total = 0.0
    count = 0
    for v in values:
        if v is None:
            continue
        total += float(v) * scale + offset
        count += 1
    mean = total / count if count else 0.0
    spread = max(values) - min(values) if values else 0
    result = {{"mean": mean, "count": count, "spread": spread}}
    if count > {n} % 7 + 1:
        result["note"] = f"summary {n} saw {{count}} values"
    return result

''',
    '''
def log_metrics_{n}(step, metrics, every=100):
    """Print the metrics of a step every `every` steps."""
    if step % every:
        return None
    parts = [f"{{k}}={{v:.4f}}" for k, v in sorted(metrics.items())]
    line = f"step {{step}}: " + " ".join(parts)
    print(line)
    return line

''',
    '''
def learning_rate_{n}(step, base=1e-3, warmup=1000, total=100_000):
    """Linear warm-up, then cosine decay."""
    import math

    if step < warmup:
        return base * (step + 1) / warmup
    progress = min(1.0, (step - warmup) / max(1, total - warmup))
    return base * 0.5 * (1.0 + math.cos(math.pi * progress))

''',
]


def check_corpus(root: Path, n_files: int = 1000, lines: int = 300, seed: int = 0) -> int:
    """Write `n_files` training scripts of `lines` lines each (TensorFlow/Keras on a TPU, JAX,
    PyTorch/XLA in turn; about half with the guide's problems, the others clean) and return the
    total number of lines."""
    rng = random.Random(seed)
    total = 0
    kinds = list(_CHECK_HEADS)
    for i in range(n_files):
        kind = kinds[i % len(kinds)]
        bad = rng.random() < 0.5
        head = _CHECK_HEADS[kind].format(
            batch=rng.choice([100, 96, 48]) if bad else rng.choice([128, 1024, 256]),
            hidden=rng.choice([200, 64, 300]) if bad else rng.choice([256, 512, 1024]),
            parallel="" if bad else ", num_parallel_calls=tf.data.AUTOTUNE",
            drop="" if bad else ", drop_remainder=True",
            prefetch="" if bad else ".prefetch(tf.data.AUTOTUNE)",
            spe="" if bad else ", steps_per_execution=64",
            mask_tail="" if bad else "  # noqa: TPU103",
            size="" if bad else ", size=16",
            log="print(loss)" if bad else "xm.add_step_closure(lambda: print(loss.item()))",
            iterate="loader" if bad else "para",
            jax_log=(
                "print(step, float(loss))"
                if bad
                else "if step % 100 == 0:\n            print(step, float(loss))"
            ),
        )
        out = head.splitlines()
        n = 0
        while True:
            block = _CHECK_FILLERS[n % len(_CHECK_FILLERS)].format(n=n).splitlines()
            if len(out) + len(block) > lines:
                break
            out += block
            n += 1
        out += [f"RUN_{k} = {k}" for k in range(lines - len(out))]  # exactly `lines` lines
        text = "\n".join(out) + "\n"
        total += text.count("\n")
        sub = root / f"pkg{i // 100:02d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"train_{i:04d}.py").write_text(text)
    return total


def bench_check(n_files: int = 1000, lines: int = 300, runs: int = 3) -> dict:
    """`tpu-assist check DIR` over a synthetic corpus: a fresh process (median of `runs`), and
    the same in process (parse + rules only, no interpreter start-up)."""
    from assistant.check import check_paths

    with tempfile.TemporaryDirectory(prefix="tpu-check-bench-") as tmp:
        root = Path(tmp)
        total_lines = check_corpus(root, n_files, lines)
        process: list[float] = []
        cpu: list[float] = []
        findings = 0
        for _ in range(runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            r = subprocess.run(
                [sys.executable, "-m", "assistant", "check", str(root), "--json"],
                capture_output=True,
                text=True,
                cwd=ROOT,
                env=child_env(),
            )
            process.append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            if r.returncode not in (0, 1):
                raise RuntimeError(f"check failed: {r.stderr.strip()[:300]}")
            findings = len(json.loads(r.stdout))
        inproc: list[float] = []
        for _ in range(runs):
            t0 = time.perf_counter()
            report = check_paths([root])
            inproc.append(time.perf_counter() - t0)
    return {
        "files": n_files,
        "lines": total_lines,
        "findings": findings,
        "in_process_findings": len(report.findings),
        "process_s": round(median(process), 3),
        "process_cpu_s": round(median(cpu), 3),  # all its processes: what the load cannot hide
        "load_average": round(os.getloadavg()[0], 2),
        "in_process_s": round(median(inproc), 3),
        "target_s": 5.0,
    }


def main_check(args: argparse.Namespace) -> int:
    res = bench_check(runs=1 if args.quick else args.runs)
    print(
        f"check: {res['files']} files, {res['lines']} lines, {res['findings']} findings: "
        f"{res['process_s']:.2f} s as a fresh `tpu-assist check DIR` process "
        f"({res['process_cpu_s']:.2f} s of CPU; {res['in_process_s']:.2f} s in process); "
        f"target under {res['target_s']:.0f} s; load average {res['load_average']}"
    )
    # kept under "check" in the same JSON as the other sections (the others are left as they are)
    try:
        data = json.loads(args.json.read_text()) if args.json.exists() else {}
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) else {}
    data["check"] = res
    args.json.write_text(json.dumps(data, indent=2))
    return 0 if res["process_s"] < res["target_s"] else 1


# -- end of check (issue 14) ----------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", type=Path, default=ROOT / "bench.json")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one run, sizes 1000 and 10000")
    ap.add_argument("--check", action="store_true", help="only `tpu-assist check` (issue 14)")
    ap.add_argument(
        "--only",
        default="",
        help="comma-separated sections to (re)measure, the others kept from --json if it exists",
    )
    args = ap.parse_args()
    if args.check:
        return main_check(args)
    runs = 1 if args.quick else args.runs
    sizes = [1000, 10000] if args.quick else [int(x) for x in args.sizes.split(",")]
    t0 = time.perf_counter()
    base = Engine(user_dirs=[])
    base.warm_up()
    if base.embedder.backend != "onnx":
        print(f"note: the engine embeds with {base.embedder.backend}", file=sys.stderr)
    torch_embedder = dense.SentenceTransformerEmbedder()
    torch_embedder.load()
    import onnxruntime

    only = {x for x in args.only.split(",") if x}
    kept = json.loads(args.json.read_text()) if only and args.json.is_file() else {}
    res = {
        **kept,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, faiss {__import__('faiss').__version__}, "
        f"onnxruntime {onnxruntime.__version__}",
        "runs": runs,
        "load_average_at_start": os.getloadavg()[0],
    }
    sections = [
        ("startup", lambda: bench_startup(runs)),
        ("query", lambda: bench_query(runs)),
        ("query_torch", lambda: bench_query(runs, torch_embedder)),
        ("worst", lambda: bench_worst(base)),
        ("build", lambda: bench_build(min(runs, 2))),
        ("scale", lambda: bench_scale(sizes, min(runs, 2), base, torch_embedder)),
    ]
    for name, run in sections:
        if only and name not in only:
            continue
        before = os.getloadavg()[0]
        res[name] = run()
        # The machine is shared: every section keeps the load average it was measured under.
        res.setdefault("load_average", {})[name] = [round(before, 2), round(os.getloadavg()[0], 2)]
        args.json.write_text(json.dumps(res, indent=2))  # what is measured so far survives
        print(f"{name} done after {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    res["load_average_at_end"] = os.getloadavg()[0]
    res["seconds"] = time.perf_counter() - t0
    if all(k in res for k in ("startup", "query", "query_torch", "build", "scale")):
        print_table(res)
    print(f"\nbench took {res['seconds']:.0f} s; JSON in {args.json}")
    args.json.write_text(json.dumps(res, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
