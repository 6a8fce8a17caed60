"""The terminal before the TUI takes it over.

Between `tpu-assist` starting and Textual putting the terminal in raw mode (~0.5 s of imports),
the terminal is still in the shell's cooked mode, whose ICRNL setting turns an Enter (CR) into a
line feed as it arrives. Textual then reads that line feed as Ctrl+J, "new line": a question
typed or pasted straight after launching gained a new line instead of being sent. With ICRNL off
for that moment, a typed-ahead Enter stays an Enter. The terminal's own settings are restored
exactly on the way out, whatever happens in between. Nothing else changes (input is neither
flushed nor lost: the change takes effect at once, TCSANOW).
"""

from __future__ import annotations

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
