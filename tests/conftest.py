"""Shared fixtures. The default run uses the real model and real FAISS (the model ships in a
package, so this works offline); one index is built per session into a temporary directory."""

from __future__ import annotations

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


@pytest.fixture(scope="session")
def embedder():
    from assistant.retrieval.dense import Embedder

    return Embedder()


@pytest.fixture(scope="session")
def kb():
    from assistant.kb import load_knowledge

    return load_knowledge(user_dirs=[])


@pytest.fixture(scope="session")
def index_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("index")


@pytest.fixture(scope="session")
def engine(kb, index_root, embedder):
    from assistant.engine import Engine

    e = Engine(kb=kb, index_root=index_root, embedder=embedder)
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
        return subprocess.run([sys.executable, "-m", "assistant", *args], input=data,
                              capture_output=True, env=env or cli_env, cwd=ROOT, timeout=300)

    return run
