"""End to end: the real program in tmux (120×40), a real trace pasted, walked to a fix."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
import time
import uuid

import pytest

from .conftest import HBM_TRACE

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=10).stdout


def wait_for(session: str, text: str, timeout: float = 90.0) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.25)
    raise AssertionError(f"{text!r} did not appear in {timeout}s; the screen:\n{screen}")


def test_real_program_in_tmux(cli_env, tmp_path):
    session = f"tpu-assist-{uuid.uuid4().hex[:8]}"
    env = {**cli_env, "TPU_ASSIST_DATA_DIR": str(tmp_path / "data"), "TERM": "xterm-256color"}
    exports = " ".join(
        f"{k}={shlex.quote(v)}" for k, v in env.items() if k.startswith(("TPU_ASSIST_", "HF_"))
    )
    # shutil (so Textual) trusts COLUMNS/LINES over the pty; drop any inherited values.
    command = f"cd {shlex.quote(str(ROOT))} && env -u COLUMNS -u LINES {exports} {shlex.quote(sys.executable)} -m assistant --lang en"
    trace = tmp_path / "trace.txt"
    trace.write_text(HBM_TRACE + "\n")
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40", command],
        check=True,
        timeout=10,
    )
    tmux("set-option", "-t", session, "window-size", "manual")
    tmux("resize-window", "-t", session, "-x", "120", "-y", "40")
    try:
        wait_for(session, "Cloud TPU troubleshooting assistant", 30)
        wait_for(session, "ready", 120)
        tmux("load-buffer", "-b", session, str(trace))
        tmux("paste-buffer", "-p", "-d", "-b", session, "-t", session)  # a bracketed paste
        wait_for(session, "Out of TPU memory (HBM)", 60)  # the right title
        wait_for(session, "Which TPU generation are you training on?", 30)
        tmux("send-keys", "-t", session, "2")
        wait_for(session, "What is your current global batch size", 30)
        tmux("send-keys", "-t", session, "-l", "100")
        tmux("send-keys", "-t", session, "Enter")
        # The advice ("use 64 or 128") may scroll off a busy screen; it is checked in the saved
        # session below, which holds exactly what was shown.
        wait_for(session, "multiples of 128?", 30)
        tmux("send-keys", "-t", session, "1")
        screen = wait_for(session, "Lower the batch size to a multiple of 64 that fits", 30)
        assert "read-only" in screen
        assert "gcloud compute tpus tpu-vm describe my-tpu --zone=us-central1-b" in screen
        tmux("send-keys", "-t", session, "C-q")
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and session in tmux("list-sessions"):
            time.sleep(0.2)
        saved = list((tmp_path / "data" / "sessions").glob("*.json"))
        assert saved and "use 64 or 128" in saved[0].read_text()
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True, timeout=10)
