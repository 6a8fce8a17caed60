"""The terminal mode around the TUI's start-up: a typed-ahead Enter stays an Enter, lines typed
before Python ran are handed over whole, and the terminal's settings come back exactly."""

from __future__ import annotations

import io
import os
import time

import pytest

termios = pytest.importorskip("termios")
pty = pytest.importorskip("pty")

from assistant.cli.terminal import enter_stays_enter, typed_ahead  # noqa: E402


def test_icrnl_is_off_inside_and_restored_after():
    master, slave = pty.openpty()
    try:
        with os.fdopen(os.dup(slave), "rb", buffering=0) as tty:
            before = termios.tcgetattr(slave)
            assert before[0] & termios.ICRNL
            with enter_stays_enter(tty):
                inside = termios.tcgetattr(slave)
                assert not inside[0] & termios.ICRNL
                assert inside[1:] == before[1:]  # only that flag changes
                os.write(master, b"typed ahead\r")  # an Enter typed while Python imports
                time.sleep(0.3)  # the kernel hands pty input to the line discipline a moment later
            assert termios.tcgetattr(slave) == before
            termios.tcsetattr(
                slave, termios.TCSANOW, [*before[:3], before[3] & ~termios.ICANON, *before[4:]]
            )
            assert os.read(slave, 100) == b"typed ahead\r"  # still a CR, not a line feed
    finally:
        os.close(master)
        os.close(slave)


def test_not_a_terminal_is_left_alone():
    with enter_stays_enter(io.StringIO("x")):
        pass
    with enter_stays_enter(io.BytesIO()):
        pass


def test_lines_typed_before_the_program_ran_are_read_and_a_partial_one_is_left():
    master, slave = pty.openpty()
    try:
        with os.fdopen(os.dup(slave), "rb", buffering=0) as tty:
            before = termios.tcgetattr(slave)
            # A two-line paste and its Enter, then a word with no Enter yet, all before Python
            # runs: the cooked terminal has already turned each CR into a line feed.
            os.write(master, "first line\rsecond líne\rhalf".encode())
            time.sleep(0.3)
            assert typed_ahead(tty) == "first line\nsecond líne\n"
            assert typed_ahead(tty) == ""  # nothing complete is left
            assert termios.tcgetattr(slave) == before  # reading changed no setting
            termios.tcsetattr(
                slave, termios.TCSANOW, [*before[:3], before[3] & ~termios.ICANON, *before[4:]]
            )
            assert os.read(slave, 100) == b"half"  # the partial line is still there, for Textual
    finally:
        os.close(master)
        os.close(slave)


def test_typed_ahead_without_a_cooked_terminal_is_empty():
    assert typed_ahead(io.StringIO("question\n")) == ""
    master, slave = pty.openpty()
    try:
        raw = termios.tcgetattr(slave)
        termios.tcsetattr(slave, termios.TCSANOW, [*raw[:3], raw[3] & ~termios.ICANON, *raw[4:]])
        os.write(master, b"keys\r")
        time.sleep(0.2)
        with os.fdopen(os.dup(slave), "rb", buffering=0) as tty:
            assert typed_ahead(tty) == ""  # raw already: Textual reads these as keys
    finally:
        os.close(master)
        os.close(slave)
