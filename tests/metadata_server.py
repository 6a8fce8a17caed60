"""A stand-in for a Compute Engine VM's metadata server, for the tests of `assistant.machine`
(tests/test_machine.py, tests/tui/test_machine_values.py): it answers every GET with `body` and
`status`, and counts the requests and the Metadata-Flavor headers they carried."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# the shape of a TPU VM's `tpu-env` attribute: one `KEY: 'value'` a line, many keys we do not read
TPU_ENV = """ACCELERATOR_TYPE: 'v4-8'
AGENT_BOOTSTRAP_IMAGE: 'gcr.io/example/agent:stable'
CHIPS_PER_HOST_BOUNDS: '2,2,1'
CONSUMER_PROJECT_ID: 'ml-lab-42'
CONSUMER_PROJECT_NUMBER: '123456789012'
HOST_BOUNDS: '1,1,1'
NODE_ID: 'exp-3'
PREEMPTIBLE: 'false'
TYPE: 'V4'
WORKER_ID: '0'
ZONE: 'us-central2-b'
"""
PATH = "/computeMetadata/v1/instance/attributes/tpu-env"


@dataclass
class Metadata:
    body: str = TPU_ENV
    status: int = 200
    url: str = ""
    requests: int = 0
    flavors: list[str | None] = field(default_factory=list)


@contextmanager
def metadata_server() -> Iterator[Metadata]:
    state = Metadata()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            state.requests += 1
            state.flavors.append(self.headers.get("Metadata-Flavor"))
            self.send_response(state.status)
            self.end_headers()
            self.wfile.write(state.body.encode())

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    state.url = f"http://127.0.0.1:{server.server_address[1]}{PATH}"
    try:
        yield state
    finally:
        server.shutdown()
        server.server_close()
