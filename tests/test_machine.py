"""The values the machine gives a walk (assistant/machine.py): a TPU VM's `tpu-env` metadata, read
from a server of the test's own, and GKE's TPU_ACCELERATOR_TYPE; nothing anywhere else."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest

from assistant import machine
from metadata_server import TPU_ENV, Metadata, metadata_server


@pytest.fixture
def metadata() -> Iterator[tuple[Metadata, str]]:
    with metadata_server() as state:
        yield state, state.url


def test_a_tpu_vms_metadata_names_the_tpu_its_type_zone_and_project():
    assert machine.parse_tpu_env(TPU_ENV) == {
        "accelerator_type": "v4-8",
        "project": "ml-lab-42",
        "tpu_name": "exp-3",
        "zone": "us-central2-b",
    }


def test_a_value_that_fails_validation_is_left_out():
    bad = TPU_ENV.replace("NODE_ID: 'exp-3'", "NODE_ID: 'Exp_3; rm -rf /'")
    assert "tpu_name" not in machine.parse_tpu_env(bad)
    assert machine.parse_tpu_env("") == {} and machine.parse_tpu_env("<html>404</html>") == {}


def test_the_metadata_server_is_asked_with_its_header(metadata):
    state, url = metadata
    found = machine.values_here({"TPU_ASSIST_METADATA_URL": url})
    assert found["tpu_name"] == "exp-3" and found["zone"] == "us-central2-b"
    assert state.requests == 1 and state.flavors == ["Google"]


def test_a_vm_that_is_no_tpus_gives_nothing(metadata):
    state, url = metadata
    state.status, state.body = 404, "attribute not found"
    assert machine.values_here({"TPU_ASSIST_METADATA_URL": url}) == {}


def test_off_compute_engine_nothing_is_asked(tmp_path, metadata):
    state, _ = metadata
    dmi = tmp_path / "product_name"
    dmi.write_text("Standard PC (Q35 + ICH9, 2009)\n")
    assert machine.values_here({}, dmi=dmi) == {}
    assert machine.values_here({}, dmi=tmp_path / "missing") == {}
    assert state.requests == 0


def test_gkes_accelerator_type_and_the_switch_to_turn_it_off(metadata, tmp_path):
    state, url = metadata
    dmi = tmp_path / "product_name"
    dmi.write_text("Standard PC\n")
    assert machine.values_here({"TPU_ACCELERATOR_TYPE": "v5litepod-16"}, dmi=dmi) == {
        "accelerator_type": "v5litepod-16"
    }
    for off in ("0", "off", "no"):
        env = {
            "TPU_ASSIST_MACHINE": off,
            "TPU_ASSIST_METADATA_URL": url,
            "TPU_ACCELERATOR_TYPE": "v4-8",
        }
        assert machine.values_here(env) == {}
    assert state.requests == 0


def test_nothing_listening_gives_nothing():
    # a port nobody listens on: refused at once
    assert machine.values_here({"TPU_ASSIST_METADATA_URL": "http://127.0.0.1:9/x"}) == {}
    assert machine.values_here({"TPU_ASSIST_METADATA_URL": "not a url"}) == {}


def test_walk_fills_the_tpu_vms_values_under_the_persons(run_cli, cli_env, metadata):
    _, url = metadata
    env = {**cli_env, "TPU_ASSIST_MACHINE": "1", "TPU_ASSIST_METADATA_URL": url}
    r = run_cli("walk", "tpu-connection", "--json", "--set", "zone=europe-west4-a", env=env)
    assert r.returncode == 0, r.stderr
    values = json.loads(r.stdout)["values"]
    assert values["tpu_name"] == "exp-3" and values["project"] == "ml-lab-42"
    assert values["zone"] == "europe-west4-a"  # --set wins
    assert values["accelerator_type"] == "v4-8" and values["device_count"] == "4"  # derived
    note = r.stderr.decode()
    assert "values from this TPU VM:" in note and "tpu_name=exp-3" in note
    assert "project=ml-lab-42" in note and "zone=" not in note  # what --set gave is not the VM's
    # turned off (as in every other test): no values, no note
    r = run_cli("walk", "tpu-connection", "--json", env={**env, "TPU_ASSIST_MACHINE": "0"})
    assert "tpu_name" not in json.loads(r.stdout)["values"] and not r.stderr


@pytest.mark.parametrize("reply", [b"garbage\r\n\r\n", b"HTTP/1.1 200 OK\r\nContent-Len", b""])
def test_a_reply_that_is_no_http_gives_nothing(reply):
    """A server that answers nonsense or hangs up mid-reply (http.client's BadStatusLine is no
    OSError): no values, and no exception for the TUI's worker to die of."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)

    def answer() -> None:
        conn, _ = server.accept()
        conn.recv(4096)
        conn.sendall(reply)
        conn.close()

    threading.Thread(target=answer, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.getsockname()[1]}/x"
        assert machine.values_here({"TPU_ASSIST_METADATA_URL": url}) == {}
    finally:
        server.close()
