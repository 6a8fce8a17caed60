"""On a TPU VM the TUI fills a walk's values from the VM's own metadata (`assistant.machine`),
under the answer's and the person's: Pilot at 80×24 on the fast engine, against a stand-in for
the metadata server."""

from __future__ import annotations

import pytest

from assistant import machine
from assistant.tui.app import make_app
from metadata_server import metadata_server

from .conftest import aio, settle

SIZE = (80, 24)


@pytest.fixture
def on_a_tpu_vm(monkeypatch):
    with metadata_server() as state:
        monkeypatch.setenv("TPU_ASSIST_MACHINE", "1")
        monkeypatch.setenv("TPU_ASSIST_METADATA_URL", state.url)
        machine._once.cache_clear()
        yield state
    machine._once.cache_clear()


@aio
async def test_a_walk_names_the_tpu_vm_it_runs_on(fast_engine, tmp_path, on_a_tpu_vm):
    app = make_app(engine=fast_engine, lang="en", history_dir=tmp_path / "data")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert screen.machine["tpu_name"] == "exp-3"
        screen.prompt.insert("my script hangs after Initializing the TPU system in us-east1-d")
        await pilot.press("enter")
        await settle(pilot)
        turn = screen.turn
        assert turn.answer is not None and turn.answer.results[0].id == "tpu-connection"
        values = turn.current_walk(fast_engine.kb).values
        assert values["tpu_name"] == "exp-3" and values["project"] == "ml-lab-42"
        assert values["zone"] == "us-east1-d"  # the report's own zone wins over the VM's
        assert on_a_tpu_vm.requests == 1
