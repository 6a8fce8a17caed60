"""What the machine tpu-assist runs on says about itself: the walk's values it needs not ask.

On a Cloud TPU VM the VM's metadata carries a `tpu-env` attribute, lines of `KEY: 'value'` that
name the TPU (`NODE_ID`), its accelerator type, zone and project (`CONSUMER_PROJECT_ID`); a TPU
pod on GKE is given its accelerator type in `TPU_ACCELERATOR_TYPE`. Run on the TPU it is asked
about, tpu-assist fills a fix's `{tpu_name}`, `{zone}`, `{project}` and `{accelerator_type}` (and
what derives from the type: HBM per device, device count…) from them, under anything the person
typed, pasted or set.

Cheap everywhere else: the metadata server is asked only where the machine says it is a Compute
Engine VM (its DMI product name), once per process, with a short timeout, and a VM that is not a
TPU's answers 404. Every value is validated like a pasted one (`placeholders.validate_value`);
one that fails is left out. `TPU_ASSIST_MACHINE=0` turns it off; `TPU_ASSIST_METADATA_URL` reads
another address (a test's server) and skips the Compute Engine check.
"""

from __future__ import annotations

import functools
import http.client
import os
import re
import urllib.request
from pathlib import Path

from .placeholders import PlaceholderError, validate_value

METADATA_URL = "http://169.254.169.254/computeMetadata/v1/instance/attributes/tpu-env"
DMI_PRODUCT = Path("/sys/class/dmi/id/product_name")
TIMEOUT_S = 0.5

# tpu-env's keys -> the walk's values
_TPU_ENV = {
    "NODE_ID": "tpu_name",
    "ACCELERATOR_TYPE": "accelerator_type",
    "ZONE": "zone",
    "CONSUMER_PROJECT_ID": "project",
}
# the process environment's (GKE's TPU pods) -> the walk's values
_ENVIRON = {"TPU_ACCELERATOR_TYPE": "accelerator_type"}
_LINE = re.compile(r"^([A-Z][A-Z0-9_]*):\s*'([^'\n]*)'\s*$", re.M)


def parse_tpu_env(text: str) -> dict[str, str]:
    """The walk's values in a `tpu-env` attribute ("ACCELERATOR_TYPE: 'v4-8'" …), validated."""
    raw = {_TPU_ENV[k]: v for k, v in _LINE.findall(text) if k in _TPU_ENV}
    return _valid(raw)


def _valid(raw: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in raw.items():
        try:
            out[name] = validate_value(name, value.strip())
        except PlaceholderError:
            continue
    return out


def _on_compute_engine(dmi: Path) -> bool:
    try:
        return "Google Compute Engine" in dmi.read_text(errors="replace")
    except OSError:
        return False


def _read_metadata(url: str, timeout: float) -> str:
    # straight to the VM's own metadata server, never through an http_proxy of the environment
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        request = urllib.request.Request(url, headers={"Metadata-Flavor": "Google"})
        with opener.open(request, timeout=timeout) as response:
            if response.status != 200:
                return ""
            return response.read(64 * 1024).decode("utf-8", errors="replace")
    except (OSError, ValueError, http.client.HTTPException):  # URLError is an OSError
        # not reachable, refused, timed out, 404 (a VM that is no TPU's), a malformed address, a
        # reply cut short
        return ""


def values_here(
    environ: dict[str, str] | None = None,
    dmi: Path = DMI_PRODUCT,
    timeout: float = TIMEOUT_S,
) -> dict[str, str]:
    """The walk's values this machine gives: the TPU VM's `tpu-env` over the environment's
    `TPU_ACCELERATOR_TYPE`; empty off a TPU, or when `TPU_ASSIST_MACHINE=0`."""
    env = os.environ if environ is None else environ
    if env.get("TPU_ASSIST_MACHINE", "").strip().lower() in {"0", "no", "off", "false"}:
        return {}
    found = _valid({name: env[key] for key, name in _ENVIRON.items() if env.get(key)})
    url = env.get("TPU_ASSIST_METADATA_URL", "").strip()
    if url or _on_compute_engine(dmi):
        found.update(parse_tpu_env(_read_metadata(url or METADATA_URL, timeout)))
    return found


@functools.cache
def _once() -> tuple[tuple[str, str], ...]:
    return tuple(values_here().items())


def cached_values_here() -> dict[str, str]:
    """`values_here()`, asked once per process."""
    return dict(_once())
