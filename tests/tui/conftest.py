"""Shared helpers for the TUI tests: the session engine (loaded once), a trace, settling."""

from __future__ import annotations

import asyncio
import functools
import threading

import pytest

HBM_TRACE = "\n".join(
    [
        f"I0302 11:04:{i:02d}.118123 12345 tpu_driver.cc:{100 + i}] step {i} compiling..."
        for i in range(20)
    ]
    + [
        "Traceback (most recent call last):",
        '  File "/home/ana/train.py", line 88, in <module>',
        "    model.fit(ds, epochs=10)",
        "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Ran out of memory in "
        "memory space hbm; used: 9.82G; limit: 7.48G.",
        "(vm)$ gcloud compute tpus tpu-vm ssh my-tpu --zone=us-central1-b",
    ]
    + [f"  extra log line {i}" for i in range(6)]
)


def aio(fn):
    """Run an async test with asyncio (no async plugin needed); fixtures still apply."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return asyncio.run(fn(*args, **kwargs))

    return wrapper


async def settle(pilot, rounds: int = 50) -> None:
    """Wait until no worker runs and the messages they posted are handled."""
    app = pilot.app
    for _ in range(rounds):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in app.workers):
            await pilot.pause()
            return


class GatedEngine:
    """The session engine behind a gate: warm-up waits until the test opens it."""

    def __init__(self, inner, gate: threading.Event):
        self.inner, self.gate = inner, gate
        self.asked: list[str] = []

    @property
    def kb(self):
        return self.inner.kb

    def warm_up(self, progress=None):
        assert self.gate.wait(timeout=60), "gate never opened"
        self.inner.warm_up(progress)

    def ask(self, text, lang=None, top_k=5):
        self.asked.append(text)
        return self.inner.ask(text, lang=lang, top_k=top_k)


@pytest.fixture
def hist_dir(tmp_path):
    return tmp_path / "data"


@pytest.fixture
def make(engine, hist_dir):
    from assistant.tui.app import make_app

    def build(lang: str = "en", eng=None):
        return make_app(engine=eng or engine, lang=lang, history_dir=hist_dir)

    return build
