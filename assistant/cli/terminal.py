"""The terminal before the TUI takes it over.

Between `tpu-assist` starting and Textual putting the terminal in raw mode (~0.5 s of imports),
the terminal is still in the shell's cooked mode, whose ICRNL setting turns an Enter (CR) into a
line feed as it arrives. Textual then reads that line feed as Ctrl+J, "new line": a question
typed or pasted straight after launching gained a new line instead of being sent. With ICRNL off
for that moment, a typed-ahead Enter stays an Enter. The terminal's own settings are restored
exactly on the way out, whatever happens in between. Nothing else changes (input is neither
flushed nor lost: the change takes effect at once, TCSANOW).

Keys that arrive even earlier — a paste sent with the launch command, before Python runs — were
already turned into complete lines by the cooked terminal. `typed_ahead` reads those lines out of
the terminal's queue just before Textual takes over, so the TUI can send them as the first
question (Textual would read their line feeds as Ctrl+J and keep them unsent in the box).
"""

from __future__ import annotations

import os
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress


@contextmanager
def enter_stays_enter(stream=None) -> Iterator[None]:
    stream = stream if stream is not None else sys.stdin
    try:
        import termios
    except ImportError:  # not POSIX: nothing to do
        yield
        return
    try:
        fd = stream.fileno()
        saved = termios.tcgetattr(fd)
    except (AttributeError, OSError, ValueError, termios.error):  # not a terminal
        yield
        return
    changed = list(saved)
    changed[0] = saved[0] & ~termios.ICRNL  # iflag
    try:
        termios.tcsetattr(fd, termios.TCSANOW, changed)
    except (termios.error, OSError):
        yield
        return
    try:
        yield
    finally:
        with suppress(termios.error, OSError):
            termios.tcsetattr(fd, termios.TCSANOW, saved)


def typed_ahead(stream=None, limit: int = 1 << 20) -> str:
    """The complete lines already waiting in a cooked (canonical) terminal's input queue, read
    without blocking; "" when there are none or `stream` is not such a terminal. A partial line
    (no Enter yet) stays queued for the TUI to read as keys."""
    stream = stream if stream is not None else sys.stdin
    try:
        import termios
    except ImportError:  # not POSIX: nothing was typed ahead into a cooked terminal
        return ""
    try:
        fd = stream.fileno()
        if not termios.tcgetattr(fd)[3] & termios.ICANON:
            return ""
    except (AttributeError, OSError, ValueError, termios.error):  # not a terminal
        return ""
    data = b""
    with suppress(OSError, ValueError):
        # In canonical mode the descriptor is readable only when a whole line is queued, and one
        # read returns at most one line: no read below can block.
        while len(data) < limit and select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            data += chunk
    return data.decode("utf-8", errors="replace")
