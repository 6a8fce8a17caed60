"""Snapshots of the main states at 80×24 and 120×40 (pytest-textual-snapshot).

Regenerate with `pytest tests/tui/test_snapshots.py --snapshot-update` and look at the report.
Every shot waits for the workers, so no spinner or half-loaded state is captured.
"""

from __future__ import annotations

from textual import events

from .conftest import HBM_TRACE, settle

SMALL, LARGE = (80, 24), (120, 40)


def steps(*actions):
    """run_before: wait until ready, then paste / type / press, settling after each."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        for action in actions:
            if action == "paste":
                pilot.app.screen.query_one("#prompt").post_message(events.Paste(HBM_TRACE))
            elif action.startswith("type:"):
                pilot.app.screen.prompt.insert(action[5:])
                await pilot.press("enter")
            else:
                await pilot.press(action)
            await pilot.pause()
            await settle(pilot)
        pilot.app.clear_notifications()
        await pilot.pause()

    return run_before


def test_ready(snap_compare, make):
    assert snap_compare(make(), terminal_size=SMALL, run_before=steps())


def test_answer_with_question(snap_compare, make):
    assert snap_compare(make(), terminal_size=SMALL, run_before=steps("paste"))


def test_fix_small(snap_compare, make):
    assert snap_compare(
        make(), terminal_size=SMALL, run_before=steps("paste", "2", "type:100", "1")
    )


def test_fix_large(snap_compare, make):
    assert snap_compare(
        make(), terminal_size=LARGE, run_before=steps("paste", "2", "type:100", "1")
    )


def test_abstention_large(snap_compare, make):
    assert snap_compare(
        make(), terminal_size=LARGE, run_before=steps("type:what is a good recipe for banana bread")
    )


def test_portuguese_question_large(snap_compare, make):
    assert snap_compare(make("pt"), terminal_size=LARGE, run_before=steps("paste", "2"))


def test_fix_not_solved_offers_alternatives_large(snap_compare, make):
    assert snap_compare(
        make(), terminal_size=LARGE, run_before=steps("paste", "2", "type:100", "1", "2")
    )
