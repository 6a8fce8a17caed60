"""Every message of the TUI, in one place. "Attributes down, messages up": a widget never reaches
sideways or into the screen; it posts one of these and the main screen (`screens/main.py`), which
owns the state, routes it (`@on(messages.X)`). Workers report back the same way."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from ..answer import Answer
    from ..check import Finding
    from .widgets.findings import FindingsView
    from .widgets.walkview import CommandBlock

# -- from the workers ------------------------------------------------------------------------------


class EngineReady(Message):
    """The engine is loaded and warm; `warnings` from loading the knowledge."""

    def __init__(self, warnings: list[str]) -> None:
        super().__init__()
        self.warnings = warnings


class EngineFailed(Message):
    def __init__(self, error: str) -> None:
        super().__init__()
        self.error = error


class SearchDone(Message):
    """The answer to the question of turn `seq` (or the error); `keep`: a re-search in another
    language, which keeps the person's place in the walk."""

    def __init__(
        self, seq: int, answer: Answer | None = None, error: str = "", keep: bool = False
    ) -> None:
        super().__init__()
        self.seq, self.answer, self.error, self.keep = seq, answer, error, keep


class CheckDone(Message):
    """The findings of the code (or `tpu-assist check` output) of turn `seq`."""

    def __init__(self, seq: int, findings: list[Finding]) -> None:
        super().__init__()
        self.seq, self.findings = seq, findings


class MachineValues(Message):
    """What the TPU VM the TUI runs on says of itself (`machine.values_here`); empty elsewhere."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__()
        self.values = values


class FileRead(Message):
    """The text of the file a message named (`named_file`), or why it could not be read."""

    def __init__(self, path: str, text: str | None, error: str = "") -> None:
        super().__init__()
        self.path, self.text, self.error = path, text, error


# -- from the message box (widgets/prompt.py) ------------------------------------------------------


class Submitted(Message):
    """Enter with text in the box, or a big paste (`pasted`) sent at once."""

    def __init__(self, text: str, pasted: bool = False) -> None:
        super().__init__()
        self.text = text
        self.pasted = pasted


class Pick(Message):
    """A digit typed into the empty box while options are shown: option `number` (1-based)."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number


class Candidate(Message):
    """alt+1…3 as most terminals send it (ESC 1, which Textual reads as "¡", macOS's Option+1)
    while nearest entries are shown: walk entry `number` (1-based), as the screen's alt+N does."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number


class ListKey(Message):
    """A key for the list above the box: "up", "down", "select", "copy", "enter", "leave"."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


class Scroll(Message):
    """PageUp / PageDown (and Ctrl+Home / Ctrl+End): scroll the conversation, not the box."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


# -- from the turn's views (widgets/answer.py, walkview.py, findings.py) ---------------------------


class CandidateChosen(Message):
    """A candidate of the answer was clicked: walk entry `entry_id`."""

    def __init__(self, entry_id: str) -> None:
        super().__init__()
        self.entry_id = entry_id


class OptionClicked(Message):
    """An option of a list was clicked. `purpose`: "answer" (the open question), "outcome"
    (did this fix it?) or "alternative" (what to try instead)."""

    def __init__(self, value: str, purpose: str = "answer") -> None:
        super().__init__()
        self.value = value
        self.purpose = purpose


class CommandClicked(Message):
    """A command block was clicked: select it (what F5 and `c` copy)."""

    def __init__(self, block: CommandBlock) -> None:
        super().__init__()
        self.block = block


class FindingChosen(Message):
    """A finding of a checked paste was chosen (Enter or a click): open its guided fix."""

    def __init__(self, view: FindingsView, finding: Finding) -> None:
        super().__init__()
        self.view, self.finding = view, finding
