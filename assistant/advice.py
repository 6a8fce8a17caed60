"""Computed advice: the guide's numbers turned into advice for the number a person typed.

A `number` node in a decision tree names advisors in `advice:`. Each advisor takes the typed value
and the walk's variables and returns sentences in both languages plus derived variables that fix
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

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from . import tpu_generations
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

    def say(self, en: str, pt: str) -> None:
        self.en.append(en)
        self.pt.append(pt)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0").rstrip(".")


def _alternatives(first: int, second: int, lang: str) -> str:
    """'64 or 128' — or just '64' when both are the same number."""
    if first == second:
        return str(first)
    return f"{first} {'ou' if lang == 'pt' else 'or'} {second}"


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
    en, pt = s.device_word
    if plural:
        en, pt = en + "s", ("núcleos" if pt == "núcleo" else pt + "s")
    return pt if lang == "pt" else en


def _where(s: Slice, lang: str) -> str:
    """'on the 8 cores of a v3-8' / 'on the 4 chips of a v4-8 (each one megacore device …)'."""
    n = s.devices
    many = _unit(s, lang, plural=n > 1)
    if lang == "pt":
        mega = ", cada chip um dispositivo megacore de 2 TensorCores" if s.gen.megacore else ""
        guess = ", suposta — informe o tipo de acelerador se a sua for outra" if s.assumed else ""
        return f"nos {n} {many} de uma {s.accelerator_type}{mega}{guess}"
    mega = ", each chip one megacore device of 2 TensorCores" if s.gen.megacore else ""
    guess = ", assumed — give the accelerator type if yours is another slice" if s.assumed else ""
    return f"on the {n} {many} of a {s.accelerator_type}{mega}{guess}"


def batch_rule(s: Slice | None) -> tuple[int, int]:
    """(step, ideal) for the global batch: 8 and 128 rows per TensorCore over the slice."""
    if s is None:
        return GUIDE_STEP, GUIDE_IDEAL
    return 8 * s.cores, 128 * s.cores


def batch_size(value: float, variables: dict[str, str]) -> Advice:
    b = int(value)
    s = tpu_generations.slice_of(variables)
    step, ideal = batch_rule(s)
    lower = max(step, (b // step) * step)
    upper = max(step, math.ceil(b / step) * step)
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
        we, wp = _where(s, "en"), _where(s, "pt")
        ue, up = _unit(s, "en"), _unit(s, "pt")
        if b % step == 0:
            a.say(
                f"Batch {b} is a multiple of {step}: {_num(b / d)} per {ue} {we}.",
                f"O lote {b} é múltiplo de {step}: {_num(b / d)} por {up} {wp}.",
            )
        else:
            per_en = " / ".join(dict.fromkeys([_num(lower / d), _num(upper / d)]))
            a.say(
                f"Batch {b} is not a multiple of {step}: use {_alternatives(lower, upper, 'en')} "
                f"({per_en} per {ue} {we}).",
                f"O lote {b} não é múltiplo de {step}: use {_alternatives(lower, upper, 'pt')} "
                f"({per_en} por {up} {wp}).",
            )
        if s.hosts > 1:
            a.values["host_count"] = str(s.hosts)
            a.values["per_host_batch"] = _num(b / s.hosts)
            a.say(
                f"The slice has {s.hosts} hosts of {s.devices_per_host} devices: with one "
                "process per host (PyTorch/XLA, jax.pmap) each process loads "
                f"{_num(b / s.hosts)} examples a step.",
                f"A fatia tem {s.hosts} hosts de {s.devices_per_host} dispositivos: com um "
                "processo por host (PyTorch/XLA, jax.pmap) cada processo carrega "
                f"{_num(b / s.hosts)} exemplos por etapa.",
            )
        if b < step:
            a.say(
                f"Below {step} each TensorCore gets fewer than 8 rows and the TPU pads them up to "
                f"8 anyway; {ideal} ({_num(ideal / d)} per {ue}) is the ideal starting point.",
                f"Abaixo de {step} cada TensorCore recebe menos de 8 linhas e a TPU as preenche "
                f"até 8 de qualquer forma; {ideal} ({_num(ideal / d)} por {up}) é o ponto de "
                "partida ideal.",
            )
    else:
        if b % step == 0:
            a.say(
                f"Batch {b} is a multiple of {step}.",
                f"O lote {b} é múltiplo de {step}.",
            )
        else:
            a.say(
                f"Batch {b} is not a multiple of {step}: use {_alternatives(lower, upper, 'en')}.",
                f"O lote {b} não é múltiplo de {step}: use {_alternatives(lower, upper, 'pt')}.",
            )
        a.say(
            "Per-device figures depend on the TPU (8 devices on a v2-8, v3-8, v5e-8 or v6e-8; "
            "4 megacore devices on a v4-8 or v5p-8): give the accelerator type to get them.",
            "Os números por dispositivo dependem da TPU (8 dispositivos numa v2-8, v3-8, v5e-8 ou "
            "v6e-8; 4 dispositivos megacore numa v4-8 ou v5p-8): informe o tipo de acelerador.",
        )
        if b < step:
            a.say(
                f"Below {step} the TPU pads every batch up to {step} anyway; {ideal} is ideal.",
                f"Abaixo de {step} a TPU preenche o lote até {step} de qualquer forma; {ideal} é o "
                "ideal.",
            )
    used, limit = (
        parse_gib(variables.get("hbm_used", "")),
        parse_gib(variables.get("hbm_limit", "")),
    )
    if used and limit and used > limit:
        fit = max(step, int(b * limit / used) // step * step)
        a.values["fit_batch"] = str(fit)
        a.say(
            f"The run needed {_num(used)} GiB of {_num(limit)} GiB: scaling the batch by the same "
            f"ratio gives at most {fit} (weights do not shrink with the batch, so try it, then go "
            "lower).",
            f"A execução precisou de {_num(used)} GiB de {_num(limit)} GiB: reduzir o lote na "
            f"mesma proporção dá no máximo {fit} (os pesos não diminuem com o lote; teste e "
            "reduza mais se preciso).",
        )
    else:
        a.values["fit_batch"] = str(lower if lower < b else max(step, lower - step))
    if s is not None:
        a.values["fit_per_device_batch"] = _num(int(a.values["fit_batch"]) / s.devices)
    return a


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
        a.say(
            f"{d} is a multiple of {multiple}: no padding on this dimension.",
            f"{d} é múltiplo de {multiple}: nenhum preenchimento nesta dimensão.",
        )
    else:
        a.say(
            f"{d} is stored padded to {padded} (a multiple of {multiple}): "
            f"{_num(round(waste, 1))}% of that dimension is padding.",
            f"{d} é guardado preenchido até {padded} (múltiplo de {multiple}): "
            f"{_num(round(waste, 1))}% dessa dimensão é preenchimento.",
        )
        if lower >= multiple:
            a.say(
                f"For speed, {padded} costs the same memory and uses the padding for real work; "
                f"to save memory, only {lower} (rounding down) helps — a smaller layer, which may "
                "cost accuracy.",
                f"Para velocidade, {padded} custa a mesma memória e usa o preenchimento com "
                f"trabalho real; para economizar memória, só {lower} (arredondar para baixo) "
                "ajuda — uma camada menor, que pode custar acurácia.",
            )
        else:
            a.say(
                f"For speed, {padded} costs the same memory; there is no multiple of {multiple} "
                "below it, so for memory lower the batch instead.",
                f"Para velocidade, {padded} custa a mesma memória; não há múltiplo de {multiple} "
                "abaixo, então para memória reduza o lote.",
            )
    if s is not None and s.gen.mxu > 128 and suggested != padded:
        a.say(
            f"The matrix unit of a {s.gen.name} is {mxu}×{mxu}: for speed {suggested} fills it "
            f"(the guide's multiples of 128 are for v2–v5).",
            f"A unidade de matrizes da {s.gen.name} é {mxu}×{mxu}: para velocidade {suggested} a "
            "preenche (os múltiplos de 128 do guia valem para v2–v5).",
        )
    return a


def layer_size(value: float, variables: dict[str, str]) -> Advice:
    w = int(value)
    s = tpu_generations.slice_of(variables)
    mxu = s.gen.mxu if s is not None else 128
    suggested = max(mxu, math.ceil(w / mxu) * mxu)
    a = Advice(values={"suggested_units": str(max(suggested, 512))})
    if w < mxu:
        a.say(
            f"{w} is below {mxu}, the width of the TPU matrix unit: the layer runs inefficiently.",
            f"{w} é menor que {mxu}, a largura da unidade de matrizes da TPU: a camada roda com "
            "baixa eficiência.",
        )
    elif w % mxu:
        a.say(
            f"{w} is not a multiple of {mxu}: {suggested} wastes no MXU lanes.",
            f"{w} não é múltiplo de {mxu}: {suggested} não desperdiça a MXU.",
        )
    if w < 512:
        a.say(
            "For dense (fully connected) layers at least 512 units is recommended; "
            "doubling 256 → 512 costs only about 20% more step time.",
            "Para camadas densas (totalmente conectadas), recomenda-se ao menos 512 unidades; "
            "dobrar de 256 para 512 custa só cerca de 20% a mais de tempo por etapa.",
        )
    else:
        a.say(
            f"{w} units is wide enough for the TPU.",
            f"{w} unidades já é largo o bastante para a TPU.",
        )
    return a


def hbm(value: float, variables: dict[str, str]) -> Advice:
    """HBM per device for the slice the walk knows (accelerator type or generation)."""
    s = tpu_generations.slice_of(variables)
    a = Advice()
    if s is None:
        a.say(
            "HBM per device: 8 GiB (v2 core), 16 GiB (v3 core, v5e chip), 32 GiB (v4 or v6e "
            "chip), 95 GiB (v5p chip) — give the accelerator type for your figure.",
            "HBM por dispositivo: 8 GiB (núcleo v2), 16 GiB (núcleo v3, chip v5e), 32 GiB (chip "
            "v4 ou v6e), 95 GiB (chip v5p) — informe o tipo de acelerador para o seu número.",
        )
        return a
    gib = _num(s.hbm_gib_per_device)
    a.values["hbm_gib"] = gib
    if s.gen.devices_per_chip > 1:
        chip, n = _num(s.gen.hbm_gib_per_chip), s.gen.devices_per_chip
        en = f"{chip} GiB per chip, {n} cores a chip"
        pt = f"{chip} GiB por chip, {n} núcleos por chip"
    elif s.gen.megacore:
        en, pt = "one megacore device of 2 TensorCores", "um dispositivo megacore de 2 TensorCores"
    else:
        en, pt = "one TensorCore", "um TensorCore"
    a.say(
        f"Each {_unit(s, 'en')} of a {s.accelerator_type} ({s.gen.name}) has {gib} GiB of HBM for "
        f"weights and activations ({en}).",
        f"Cada {_unit(s, 'pt')} de uma {s.accelerator_type} ({s.gen.name}) tem {gib} GiB de HBM "
        f"para pesos e ativações ({pt}).",
    )
    return a


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
