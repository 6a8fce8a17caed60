"""Expected findings written into the fixtures, next to the code that must be flagged:

    ds = ds.batch(BATCH)  # expect: TPU101@15 batch_size=1024 source=batch

`CODE@COL` is a finding on that line at that (1-based) column; the `name=value` words after it
are values (or answers) it must carry. A line may expect several findings. Lines without a
marker must not be flagged by the rule the fixture's directory is named after."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"
_MARKER = re.compile(r"#\s*expect:\s*(.+)$")
_EXPECT = re.compile(r"^(TPU[0-9]{3})@([0-9]+)$")


@dataclass
class Expected:
    line: int
    col: int
    code: str
    values: dict[str, str] = field(default_factory=dict)


def expected(path: Path) -> list[Expected]:
    out: list[Expected] = []
    for n, line in enumerate(path.read_text().splitlines(), start=1):
        m = _MARKER.search(line)
        if not m:
            continue
        for word in m.group(1).split():
            e = _EXPECT.match(word)
            if e:
                out.append(Expected(n, int(e.group(2)), e.group(1)))
            elif "=" in word and out and out[-1].line == n:
                k, _, v = word.partition("=")
                out[-1].values[k] = v
            else:
                raise AssertionError(f"{path.name}:{n}: bad marker word {word!r}")
    return out


def fixture_files() -> list[Path]:
    return sorted(FIXTURES.glob("TPU*/*.py"))
