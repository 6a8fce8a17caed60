"""Computed advice: the guide's numbers turned into advice for the number a person typed.

A `number` node in a decision tree names advisors in `advice:`. Each advisor takes the typed value
and the walk's variables and returns sentences in both languages (the `advice.*` strings of
:mod:`assistant.strings`, filled with the numbers computed here) plus derived variables that fix
templates can use (e.g. `{lower_batch}`). Everything here is plain arithmetic on the guide's rules,
carried over to every generation (:mod:`assistant.tpu_generations`):

* each TensorCore's share of the global batch a multiple of 8, ideally 128 — on a v2-8 / v3-8
  (8 cores) the guide's "a multiple of 64, ideally 1024"; per-device figures use the slice's real
  device count (4 megacore devices on a v4-8 or v5p-8, 8 chips on a v5e-8 or v6e-8);
* feature dimensions are stored in tiles of 128 (or 8 when the batch is an ideal one), so a
  dimension is padded *up*: rounding up fills the padding (speed, same memory), only rounding
  *down* frees memory; the matrix unit is 128 wide on v2–v5 and 256 wide on v6e;
* layers under the matrix-unit width run inefficiently; dense layers want at least 512;
* HBM per device: 8 GiB (v2 core), 16 GiB (v3 core, v5e chip), 32 GiB (v4, v6e chip), 95 GiB (v5p).

No advice offers the same number twice ("use 64 or 64").
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import tpu_generations
from .strings import t
from .tpu_generations import Slice

# The guide's figures, used only when the TPU is unknown: 8 cores, batch steps of 64, ideal 1024.
GUIDE_STEP = 64
GUIDE_IDEAL = 1024


@dataclass
class Advice:
    en: list[str] = field(default_factory=list)
    pt: list[str] = field(default_factory=list)
    values: dict[str, str] = field(default_factory=dict)

    def lines(self, lang: str) -> list[str]:
        return self.pt if lang == "pt" else self.en

    def extend(self, other: Advice) -> None:
        self.en += other.en
        self.pt += other.pt
        self.values.update(other.values)

    def say(self, key: str, **values: object) -> None:
        """Add the catalogue's sentence `key` in both languages. A value that depends on the
        language (a word such as `_unit`'s) is given as a function of the language."""
        for lang, lines in (("en", self.en), ("pt", self.pt)):
            said = {k: v(lang) if callable(v) else v for k, v in values.items()}
            lines.append(t(lang, key, **said))


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0").rstrip(".")


def _alternatives(first: int, second: int, lang: str) -> str:
    """'64 or 128' — or just '64' when both are the same number."""
    if first == second:
        return str(first)
    return t(lang, "advice.alternatives", first=first, second=second)


_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(i?B?)\s*$", re.IGNORECASE)


def parse_gib(text: str) -> float | None:
    """'9.82G' -> 9.82, '512M' -> 0.5, '15.48GiB' -> 15.48 (sizes as TPU runtimes print them)."""
    m = _SIZE.match(text or "")
    if not m:
        return None
    value = float(m.group(1))
    scale = {"": 1 / 1024**3, "K": 1 / 1024**2, "M": 1 / 1024, "G": 1.0, "T": 1024.0}
    return value * scale[m.group(2).upper()]


def _unit(s: Slice, lang: str, plural: bool = False) -> str:
    """What one device is: a core on v2/v3, a chip elsewhere."""
    core = s.device_kind == "core"
    if plural:
        return t(lang, "advice.unit.cores") if core else t(lang, "advice.unit.chips")
    return t(lang, "advice.unit.core") if core else t(lang, "advice.unit.chip")


def _where(s: Slice, lang: str) -> str:
    """'on the 8 cores of a v3-8' / 'on the 4 chips of a v4-8 (each one megacore device …)'."""
    n = s.devices
    return t(
        lang,
        "advice.where",
        n=n,
        units=_unit(s, lang, plural=n > 1),
        accelerator_type=s.accelerator_type,
        megacore=t(lang, "advice.where.megacore") if s.gen.megacore else "",
        assumed=t(lang, "advice.where.assumed") if s.assumed else "",
    )


def _device(s: Slice, lang: str) -> str:
    """What one device of the slice is made of: '32 GiB per chip, 2 cores a chip' on a v3."""
    if s.gen.devices_per_chip > 1:
        chip, n = _num(s.gen.hbm_gib_per_chip), s.gen.devices_per_chip
        return t(lang, "advice.hbm.device.core", chip_gib=chip, cores=n)
    if s.gen.megacore:
        return t(lang, "advice.hbm.device.megacore")
    return t(lang, "advice.hbm.device.tensorcore")


def batch_rule(s: Slice | None) -> tuple[int, int]:
    """(step, ideal) for the global batch: 8 and 128 rows per TensorCore over the slice."""
    if s is None:
        return GUIDE_STEP, GUIDE_IDEAL
    return 8 * s.cores, 128 * s.cores


def _multiples_around(b: int, n: int) -> tuple[int, int]:
    """The multiples of `n` just below and just above `b` (`n` at least)."""
    return max(n, b // n * n), max(n, math.ceil(b / n) * n)


def batch_size(value: float, variables: dict[str, str]) -> Advice:
    b = int(value)
    s = tpu_generations.slice_of(variables)
    step, ideal = batch_rule(s)
    lower, upper = _multiples_around(b, step)
    a = Advice()
    a.values.update(lower_batch=str(lower), upper_batch=str(upper), ideal_batch=str(ideal))
    a.values["batch_step"] = str(step)
    if s is not None:
        d = s.devices
        per = {
            "lower_per_device_batch": _num(lower / d),
            "upper_per_device_batch": _num(upper / d),
            "per_device_batch": _num(b / d),
            "ideal_per_device_batch": _num(ideal / d),
        }
        a.values.update(per)
        # The names used before there was more than one generation, kept for user entries.
        a.values.update(
            lower_per_core_batch=per["lower_per_device_batch"],
            upper_per_core_batch=per["upper_per_device_batch"],
            per_core_batch=per["per_device_batch"],
        )
        unit = functools.partial(_unit, s)
        where = functools.partial(_where, s)
        if b % step == 0:
            a.say(
                "advice.batch.multiple.slice",
                batch=b,
                step=step,
                per_device=_num(b / d),
                unit=unit,
                where=where,
            )
        else:
            a.say(
                "advice.batch.not_multiple.slice",
                batch=b,
                step=step,
                alternatives=functools.partial(_alternatives, lower, upper),
                per_device=" / ".join(dict.fromkeys([_num(lower / d), _num(upper / d)])),
                unit=unit,
                where=where,
            )
        if s.hosts > 1:
            a.values["host_count"] = str(s.hosts)
            a.values["per_host_batch"] = _num(b / s.hosts)
            a.say(
                "advice.batch.hosts",
                hosts=s.hosts,
                devices_per_host=s.devices_per_host,
                per_host=_num(b / s.hosts),
            )
        if b < step:
            a.say(
                "advice.batch.below_step.slice",
                step=step,
                ideal=ideal,
                ideal_per_device=_num(ideal / d),
                unit=unit,
            )
    else:
        if b % step == 0:
            a.say("advice.batch.multiple", batch=b, step=step)
        else:
            a.say(
                "advice.batch.not_multiple",
                batch=b,
                step=step,
                alternatives=functools.partial(_alternatives, lower, upper),
            )
        a.say("advice.batch.per_device_unknown")
        if b < step:
            a.say("advice.batch.below_step", step=step, ideal=ideal)
    used, limit = (
        parse_gib(variables.get("hbm_used", "")),
        parse_gib(variables.get("hbm_limit", "")),
    )
    if used and limit and used > limit:
        fit = max(step, int(b * limit / used) // step * step)
        a.values["fit_batch"] = str(fit)
        a.say("advice.batch.fit", used=_num(used), limit=_num(limit), fit=fit)
    else:
        a.values["fit_batch"] = str(lower if lower < b else max(step, lower - step))
    if s is not None:
        a.values["fit_per_device_batch"] = _num(int(a.values["fit_batch"]) / s.devices)
    _split(a, b, variables.get("split_devices", ""))
    return a


def _split(a: Advice, b: int, devices: str) -> None:
    """The nearest batches an error's device count divides ("should be divisible by 8, but it is
    equal to 60"): every device takes an equal slice of the batch."""
    try:
        n = int(devices)
    except ValueError:
        return
    if n <= 0 or b % n == 0:
        return
    lower, upper = _multiples_around(b, n)
    a.values.update(
        split_lower_batch=str(lower),
        split_upper_batch=str(upper),
        split_batches=" / ".join(dict.fromkeys([str(lower), str(upper)])),
    )
    a.say(
        "advice.batch.split",
        batch=b,
        devices=n,
        alternatives=functools.partial(_alternatives, lower, upper),
    )


def feature_size(value: float, variables: dict[str, str]) -> Advice:
    """Padding of one feature dimension: HBM stores it in tiles of 128 (8 with an ideal batch).

    `padded_dim` is what the TPU stores (rounding up to it costs no memory and only helps speed),
    `lower_dim` the multiple below (the only rounding that frees memory), `suggested_dim` the size
    that fills the matrix unit (a multiple of 256 on v6e)."""
    d = int(value)
    s = tpu_generations.slice_of(variables)
    batch = int(float(variables.get("batch_size", 0) or 0))
    _, ideal = batch_rule(s)
    multiple = 8 if batch and batch % ideal == 0 else 128
    padded = math.ceil(d / multiple) * multiple if d > 0 else multiple
    lower = (d // multiple) * multiple
    mxu = s.gen.mxu if s is not None else 128
    fill = max(mxu, multiple)
    suggested = math.ceil(d / fill) * fill if multiple == 128 else padded
    waste = (padded - d) / padded * 100
    a = Advice(
        values={
            "padded_dim": str(padded),
            "waste_pct": _num(round(waste, 1)),
            "suggested_dim": str(suggested),
            "tile_dim": str(multiple),
        }
    )
    if lower >= multiple and lower != d:
        a.values["lower_dim"] = str(lower)
        a.values["saved_pct"] = _num(round((padded - lower) / padded * 100, 1))
    if padded == d:
        a.say("advice.feature.no_padding", dim=d, multiple=multiple)
    else:
        a.say(
            "advice.feature.padded",
            dim=d,
            padded=padded,
            multiple=multiple,
            waste_pct=_num(round(waste, 1)),
        )
        if lower >= multiple:
            a.say("advice.feature.round_down", padded=padded, lower=lower)
        else:
            a.say("advice.feature.no_lower", padded=padded, multiple=multiple)
    if s is not None and s.gen.mxu > 128 and suggested != padded:
        a.say("advice.feature.mxu", generation=s.gen.name, mxu=mxu, suggested=suggested)
    return a


def layer_size(value: float, variables: dict[str, str]) -> Advice:
    w = int(value)
    s = tpu_generations.slice_of(variables)
    mxu = s.gen.mxu if s is not None else 128
    suggested = max(mxu, math.ceil(w / mxu) * mxu)
    a = Advice(values={"suggested_units": str(max(suggested, 512))})
    if w < mxu:
        a.say("advice.layer.below_mxu", units=w, mxu=mxu)
    elif w % mxu:
        a.say("advice.layer.not_multiple", units=w, mxu=mxu, suggested=suggested)
    if w < 512:
        a.say("advice.layer.dense_minimum")
    else:
        a.say("advice.layer.wide_enough", units=w)
    return a


def hbm(value: float, variables: dict[str, str]) -> Advice:
    """HBM per device for the slice the walk knows (accelerator type or generation)."""
    s = tpu_generations.slice_of(variables)
    a = Advice()
    if s is None:
        a.say("advice.hbm.unknown")
        return a
    gib = _num(s.hbm_gib_per_device)
    a.values["hbm_gib"] = gib
    a.say(
        "advice.hbm.slice",
        unit=functools.partial(_unit, s),
        accelerator_type=s.accelerator_type,
        generation=s.gen.name,
        gib=gib,
        device=functools.partial(_device, s),
    )
    return a


def _device_is(gen: tpu_generations.Generation, lang: str) -> str:
    """What one device of the generation is: a core (v2, v3), a megacore chip, or a chip."""
    if gen.devices_per_chip > 1:
        return t(lang, "advice.describe.device.core")
    if gen.megacore:
        return t(lang, "advice.describe.device.megacore")
    return t(lang, "advice.describe.device.chip")


def _slice_figures(s: Slice, lang: str) -> str:
    """'v5e-8 (v5e): chips: 8; TensorCores per chip: 1; …' — a slice's hardware, in words."""
    return t(
        lang,
        "advice.describe.slice",
        accelerator_type=s.accelerator_type,
        generation=s.gen.name,
        chips=s.chips,
        cores=s.gen.cores_per_chip,
        chip_gib=_num(s.gen.hbm_gib_per_chip),
        total_gib=_num(s.chips * s.gen.hbm_gib_per_chip),
        hosts=s.hosts,
        devices=s.devices,
        device_gib=_num(s.hbm_gib_per_device),
        device=_device_is(s.gen, lang),
    )


def _generation_figures(gen: tpu_generations.Generation, lang: str) -> str:
    """'v5p: TensorCores per chip: 2; HBM per chip: 95 GiB; …' — a generation's chip, in words."""
    example = tpu_generations.parse_type(gen.default_type)
    assert example is not None
    counts_chips = gen.suffix_counts_chips
    return t(
        lang,
        "advice.describe.generation",
        generation=gen.name,
        cores=gen.cores_per_chip,
        chip_gib=_num(gen.hbm_gib_per_chip),
        mxu=gen.mxu,
        device=_device_is(gen, lang),
        counts=t(lang, "advice.unit.chips") if counts_chips else t(lang, "advice.describe.cores"),
        example=example.accelerator_type,
        example_chips=example.chips,
        host_chips=gen.single_host_chips,
    )


def describe(types: list[str], lang: str) -> str:
    """What the TPU types or generations a person named have — chips, TensorCores, HBM, hosts,
    devices — from the public figures (`tpu_generations`), for a question about the hardware
    (`text.outside`, kind `hardware`). A type that does not parse counts as its generation; with
    none named, every generation's chip in short."""
    said: list[str] = []
    for name in types:
        s = tpu_generations.parse_type(name)
        if s is not None:
            said.append(_slice_figures(s, lang))
        elif (gen := tpu_generations.generation(name.split("-")[0])) is not None:
            said.append(_generation_figures(gen, lang))
    if not said:
        chips = [
            t(
                lang,
                "advice.describe.chip",
                generation=g.name,
                cores=g.cores_per_chip,
                chip_gib=_num(g.hbm_gib_per_chip),
            )
            for g in tpu_generations.GENERATIONS.values()
        ]
        return t(lang, "advice.describe.all", chips="; ".join(chips))
    return " · ".join(dict.fromkeys(said))


# The variables each advisor may set, so the linter can tell which placeholders a fix may use
# (tests/test_walk.py checks that every advisor sets only these).
ADVISOR_OUTPUTS = {
    "batch_size": {
        "lower_batch",
        "upper_batch",
        "ideal_batch",
        "batch_step",
        "lower_per_device_batch",
        "upper_per_device_batch",
        "per_device_batch",
        "ideal_per_device_batch",
        "lower_per_core_batch",
        "upper_per_core_batch",
        "per_core_batch",
        "fit_batch",
        "fit_per_device_batch",
        "host_count",
        "per_host_batch",
        "split_lower_batch",
        "split_upper_batch",
        "split_batches",
    },
    "feature_size": {
        "padded_dim",
        "waste_pct",
        "suggested_dim",
        "tile_dim",
        "lower_dim",
        "saved_pct",
    },
    "layer_size": {"suggested_units"},
    "hbm": {"hbm_gib"},
}

ADVISORS: dict[str, Callable[[float, dict[str, str]], Advice]] = {
    "batch_size": batch_size,
    "feature_size": feature_size,
    "layer_size": layer_size,
    "hbm": hbm,
}
