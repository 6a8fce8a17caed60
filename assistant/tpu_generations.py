"""Cloud TPU generations: HBM, TensorCores and devices, and what an accelerator type means.

Public figures, per chip:

| generation | HBM / chip | TensorCores / chip | devices / chip | accelerator-type suffix counts |
|---|---|---|---|---|
| v2  | 16 GiB | 2 | 2 (each core is a device, 8 GiB) | TensorCores (`v2-8` = 4 chips) |
| v3  | 32 GiB | 2 | 2 (each core is a device, 16 GiB) | TensorCores (`v3-8` = 4 chips) |
| v4  | 32 GiB | 2 | 1 (megacore: both cores fused) | TensorCores (`v4-8` = 4 chips) |
| v5e | 16 GiB | 1 | 1 | chips (`v5litepod-8` = 8 chips) |
| v5p | 95 GiB | 2 | 1 (megacore) | TensorCores (`v5p-8` = 4 chips) |
| v6e | 32 GiB | 1 | 1 | chips (`v6e-8` = 8 chips) |

The matrix unit (MXU) is 128×128 on v2–v5 and 256×256 on v6e, which is why the guide's "multiples
of 128" become multiples of 256 on v6e. A host (TPU VM) drives 4 chips, except single-host v5e
and v6e slices of up to 8 chips.

Pure data and arithmetic; no I/O.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Generation:
    name: str  # canonical: v2, v3, v4, v5e, v5p, v6e
    hbm_gib_per_chip: float
    cores_per_chip: int  # TensorCores
    megacore: bool  # the chip's TensorCores are fused into one device
    suffix_counts_chips: bool  # `-N` counts chips (v5e, v6e) rather than TensorCores
    mxu: int  # matrix unit width
    prefixes: tuple[str, ...]  # accelerator-type prefixes (`v5litepod`)
    single_host_chips: int  # the largest slice one host drives alone
    default_type: str  # the usual single-host slice, assumed when only the generation is known

    @property
    def devices_per_chip(self) -> int:
        return 1 if self.megacore else self.cores_per_chip

    @property
    def cores_per_device(self) -> int:
        return self.cores_per_chip // self.devices_per_chip

    @property
    def hbm_gib_per_device(self) -> float:
        return self.hbm_gib_per_chip / self.devices_per_chip


GENERATIONS: dict[str, Generation] = {
    g.name: g
    for g in [
        Generation("v2", 16, 2, False, False, 128, ("v2",), 4, "v2-8"),
        Generation("v3", 32, 2, False, False, 128, ("v3",), 4, "v3-8"),
        Generation("v4", 32, 2, True, False, 128, ("v4",), 4, "v4-8"),
        Generation(
            "v5e", 16, 1, False, True, 128, ("v5litepod", "v5lite", "v5e"), 8, "v5litepod-8"
        ),
        Generation("v5p", 95, 2, True, False, 128, ("v5p",), 4, "v5p-8"),
        Generation("v6e", 32, 1, False, True, 256, ("v6e",), 8, "v6e-8"),
    ]
}

_ALIASES = {p: g.name for g in GENERATIONS.values() for p in g.prefixes}
_TYPE = re.compile(r"^(v[0-9]+[a-z]*)-([0-9]+)$")


def generation(name: str | None) -> Generation | None:
    """'v3' -> v3; 'v5litepod' / 'v5lite' -> v5e; anything else -> None."""
    return GENERATIONS.get(_ALIASES.get((name or "").strip().lower(), ""))


@dataclass(frozen=True)
class Slice:
    """A TPU slice: an accelerator type worked out into chips, devices, hosts and HBM."""

    accelerator_type: str
    gen: Generation
    chips: int
    assumed: bool = False  # only the generation was known: its usual single-host slice

    @property
    def cores(self) -> int:
        return self.chips * self.gen.cores_per_chip

    @property
    def devices(self) -> int:
        return self.chips * self.gen.devices_per_chip

    @property
    def hosts(self) -> int:
        if self.chips <= self.gen.single_host_chips:
            return 1
        return math.ceil(self.chips / 4)

    @property
    def devices_per_host(self) -> int:
        return self.devices // self.hosts

    @property
    def hbm_gib_per_device(self) -> float:
        return self.gen.hbm_gib_per_device

    @property
    def device_kind(self) -> str:
        """What one device is: "core" on v2/v3 (each TensorCore a device), "chip" elsewhere (the
        words are in assistant/strings.py, `advice.unit.*`)."""
        return "core" if self.gen.devices_per_chip > 1 else "chip"


def parse_type(accelerator_type: str | None) -> Slice | None:
    """'v5litepod-8' -> 8 v5e chips; 'v4-32' -> 16 v4 chips; unknown or malformed -> None."""
    m = _TYPE.match((accelerator_type or "").strip().lower())
    if not m:
        return None
    gen = generation(m.group(1))
    count = int(m.group(2))
    if gen is None or count <= 0:
        return None
    if gen.suffix_counts_chips:
        chips = count
    elif count % gen.cores_per_chip:
        return None
    else:
        chips = count // gen.cores_per_chip
    return Slice(f"{m.group(1)}-{count}", gen, chips)


def slice_of(values: dict[str, str]) -> Slice | None:
    """The slice the walk's values describe.

    `accelerator_type` wins when it parses and agrees with `tpu_generation` (or no generation is
    given); a generation alone means its usual single-host slice, marked `assumed`."""
    typed = parse_type(values.get("accelerator_type"))
    gen = generation(values.get("tpu_generation"))
    if typed and (gen is None or gen.name == typed.gen.name):
        return typed
    if gen is not None:
        default = parse_type(gen.default_type)
        assert default is not None
        return Slice(default.accelerator_type, gen, default.chips, assumed=True)
    return None


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


# The variables `derive` may set (the linter counts them as fillable in every tree).
DERIVED = frozenset(
    {"tpu_generation", "hbm_gib", "chip_hbm_gib", "device_count", "chip_count", "mxu_dim"}
)


def derive(values: dict[str, str]) -> dict[str, str]:
    """Figures for the walk's values: the canonical generation, HBM per device and per chip,
    devices and chips in the slice, and the matrix-unit width. Empty when nothing is known."""
    s = slice_of(values)
    if s is None:
        return {}
    return {
        "tpu_generation": s.gen.name,
        "hbm_gib": _num(s.hbm_gib_per_device),
        "chip_hbm_gib": _num(s.gen.hbm_gib_per_chip),
        "device_count": str(s.devices),
        "chip_count": str(s.chips),
        "mxu_dim": str(s.gen.mxu),
    }
