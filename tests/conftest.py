"""Shared fixtures. The default run uses the real model and real FAISS (the model ships in a
package, so this works offline); one index is built per session into a temporary directory.

Tiers: a test that uses the real model, directly or through a fixture (`real_embedder`, `engine`,
`cli_env`, `run_cli`, and so every TUI test), is marked `slow` here at collection, so the marker
cannot be forgotten. `pytest -m "not slow"` (`make test-fast`) is the fast tier: there the real
model refuses to load, and `fake_embedder` / `fast_engine` (a hashing embedder, tests/fakes.py)
serve the tests that only need vectors to flow.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
# Tests never read or write the real user's directories.
os.environ["TPU_ASSIST_USER_KB"] = str(ROOT / "tests" / "fixtures" / "no-user-kb")
os.environ.setdefault("TPU_ASSIST_DATA_DIR", "/tmp/tpu-assist-test-data")
# ...nor the machine's own TPU metadata: on a TPU VM it would fill the walks' values
# (tests/test_machine.py turns it on against a server of its own).
os.environ["TPU_ASSIST_MACHINE"] = "0"


# Fixtures that load the real model or build an index with it: every test using one is `slow`.
REAL_MODEL_FIXTURES = frozenset({"real_embedder", "engine", "cli_env", "run_cli"})


def pytest_configure(config: pytest.Config) -> None:
    if "not slow" in (config.option.markexpr or ""):
        from assistant.retrieval import dense, onnx_embed

        def refuse(self):
            raise RuntimeError(
                "the fast tier must not load the real model: use the "
                "fake_embedder or fast_engine fixture, or let the test be slow"
            )

        # Every class that loads the real model: the engine's embedder, the reference
        # (sentence-transformers, also the exporter) and the ONNX runtime one.
        dense.Embedder.load = refuse
        dense.SentenceTransformerEmbedder.load = refuse
        onnx_embed.OnnxEmbedder.load = refuse


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if REAL_MODEL_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
        parts = Path(str(item.path)).parts
        if "tui" in parts:
            item.add_marker(pytest.mark.tui)
        if item.path.name == "test_tmux.py":
            item.add_marker(pytest.mark.tmux)


@pytest.fixture(scope="session")
def real_embedder():
    from assistant.retrieval.dense import Embedder

    return Embedder()


@pytest.fixture(scope="session")
def embedder(real_embedder):
    return real_embedder


@pytest.fixture(scope="session")
def fake_embedder():
    from fakes import HashingEmbedder

    return HashingEmbedder()


@pytest.fixture(scope="session")
def kb():
    from assistant.kb import load_knowledge

    return load_knowledge(user_dirs=[])


@pytest.fixture(scope="session")
def index_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("index")


@pytest.fixture(scope="session")
def engine(kb, index_root, real_embedder):
    from assistant.engine import Engine

    e = Engine(kb=kb, index_root=index_root, embedder=real_embedder)
    e.warm_up()
    return e


@pytest.fixture(scope="session")
def fast_index_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("fast-index")


@pytest.fixture(scope="session")
def fast_engine(kb, fast_index_root, fake_embedder):
    """The real engine and knowledge base over an index of hashing vectors: for plumbing tests."""
    from assistant.engine import Engine

    e = Engine(kb=kb, index_root=fast_index_root, embedder=fake_embedder)
    e.warm_up()
    return e


@pytest.fixture(scope="session")
def cli_env(index_root, engine) -> dict[str, str]:
    """Environment for running the real `tpu-assist` in a subprocess against the session index."""
    env = dict(os.environ)
    env["TPU_ASSIST_INDEX_DIR"] = str(index_root)
    env.pop("TPU_ASSIST_LANG", None)
    return env


@pytest.fixture(scope="session")
def run_cli(cli_env):
    import subprocess

    def run(*args: str, input: bytes | str | None = None, env: dict | None = None):
        data = input.encode() if isinstance(input, str) else input
        return subprocess.run(
            [sys.executable, "-m", "assistant", *args],
            input=data,
            capture_output=True,
            env=env or cli_env,
            cwd=ROOT,
            timeout=300,
        )

    return run


@pytest.fixture(scope="session")
def calibrate_module():
    """scripts/calibrate.py as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("calibrate", ROOT / "scripts" / "calibrate.py")
    module = importlib.util.module_from_spec(spec)
    # dataclasses resolve string annotations through sys.modules: register before executing.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
