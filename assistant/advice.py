"""Computed advice: the guide's numbers turned into advice for the number a person typed.

A `number` node in a decision tree names advisors in `advice:`. Each advisor takes the typed value
and the walk's variables and returns sentences in both languages plus derived variables that fix
templates can use (e.g. `{lower_batch}`). Everything here is plain arithmetic on the guide's rules:

* global batch a multiple of 64 (8 per core on an 8-core TPU), ideally 1024 (128 per core);
* feature dimensions a multiple of 128 (or of 8 when the batch is a multiple of 1024);
* layers under 128 wide run inefficiently; dense layers want at least 512;
* HBM: 8 GiB per core on v2, 16 GiB per core on v3.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

CORES = 8
HBM_GIB_PER_CORE = {"v2": 8, "v3": 16}


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


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0").rstrip(".")


_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([KMGT]?)(i?B?)\s*$", re.IGNORECASE)


def parse_gib(text: str) -> float | None:
    """'9.82G' -> 9.82, '512M' -> 0.5, '15.48GiB' -> 15.48 (sizes as TPU runtimes print them)."""
    m = _SIZE.match(text or "")
    if not m:
        return None
    value = float(m.group(1))
    scale = {"": 1 / 1024**3, "K": 1 / 1024**2, "M": 1 / 1024, "G": 1.0, "T": 1024.0}
    return value * scale[m.group(2).upper()]


def batch_size(value: float, variables: dict[str, str]) -> Advice:
    b = int(value)
    cores = int(variables.get("cores_count", CORES))
    step = 8 * cores  # a multiple of 8 per core
    lower = max(step, (b // step) * step)
    upper = max(step, math.ceil(b / step) * step)
    a = Advice()
    a.values.update(
        lower_batch=str(lower),
        upper_batch=str(upper),
        lower_per_core_batch=_num(lower / cores),
        upper_per_core_batch=_num(upper / cores),
        per_core_batch=_num(b / cores),
    )
    if b % step == 0:
        a.en.append(f"Batch {b} is a multiple of {step}: {b // cores} per core on {cores} cores.")
        a.pt.append(f"O lote {b} é múltiplo de {step}: {b // cores} por núcleo em {cores} núcleos.")
    else:
        a.en.append(
            f"Batch {b} is not a multiple of {step}: use {lower} or {upper} "
            f"({lower // cores} / {upper // cores} per core on {cores} cores)."
        )
        a.pt.append(
            f"O lote {b} não é múltiplo de {step}: use {lower} ou {upper} "
            f"({lower // cores} / {upper // cores} por núcleo em {cores} núcleos)."
        )
    if b < 64:
        a.en.append(
            "Below 64 the TPU pads every batch up to 64 anyway; 1024 (128 per core) is ideal."
        )
        a.pt.append(
            "Abaixo de 64 a TPU preenche o lote até 64 de qualquer forma; 1024 (128 por núcleo) é o ideal."
        )
    used, limit = (
        parse_gib(variables.get("hbm_used", "")),
        parse_gib(variables.get("hbm_limit", "")),
    )
    if used and limit and used > limit:
        fit = max(step, int(b * limit / used) // step * step)
        a.values["fit_batch"] = str(fit)
        a.en.append(
            f"The run needed {_num(used)} GiB of {_num(limit)} GiB: scaling the batch by the same "
            f"ratio gives at most {fit} (weights do not shrink with the batch, so try it, then go lower)."
        )
        a.pt.append(
            f"A execução precisou de {_num(used)} GiB de {_num(limit)} GiB: reduzir o lote na mesma "
            f"proporção dá no máximo {fit} (os pesos não diminuem com o lote; teste e reduza mais se preciso)."
        )
    else:
        a.values["fit_batch"] = str(lower if lower < b else max(step, lower - step))
    return a


def feature_size(value: float, variables: dict[str, str]) -> Advice:
    d = int(value)
    batch = int(float(variables.get("batch_size", 0) or 0))
    multiple = 8 if batch and batch % 1024 == 0 else 128
    padded = math.ceil(d / multiple) * multiple if d > 0 else multiple
    waste = (padded - d) / padded * 100
    a = Advice(
        values={
            "padded_dim": str(padded),
            "waste_pct": _num(round(waste, 1)),
            "suggested_dim": str(padded),
        }
    )
    if padded == d:
        a.en.append(f"{d} is a multiple of {multiple}: no padding on this dimension.")
        a.pt.append(f"{d} é múltiplo de {multiple}: nenhum preenchimento nesta dimensão.")
    else:
        a.en.append(
            f"{d} is padded to {padded} (multiple of {multiple}): {_num(round(waste, 1))}% of that "
            f"dimension is padding. Use {padded} (or {max(multiple, padded - multiple)})."
        )
        a.pt.append(
            f"{d} é preenchido até {padded} (múltiplo de {multiple}): {_num(round(waste, 1))}% dessa "
            f"dimensão é preenchimento. Use {padded} (ou {max(multiple, padded - multiple)})."
        )
    return a


def layer_size(value: float, variables: dict[str, str]) -> Advice:
    w = int(value)
    suggested = max(128, math.ceil(w / 128) * 128)
    a = Advice(values={"suggested_units": str(max(suggested, 512 if w < 512 else suggested))})
    if w < 128:
        a.en.append(
            f"{w} is below 128, the width of the TPU matrix unit: the layer runs inefficiently."
        )
        a.pt.append(
            f"{w} é menor que 128, a largura da unidade de matrizes da TPU: a camada roda com baixa eficiência."
        )
    elif w % 128:
        a.en.append(f"{w} is not a multiple of 128: {suggested} wastes no MXU lanes.")
        a.pt.append(f"{w} não é múltiplo de 128: {suggested} não desperdiça a MXU.")
    if w < 512:
        a.en.append(
            "For dense (fully connected) layers at least 512 units is recommended; "
            "doubling 256 → 512 costs only about 20% more step time."
        )
        a.pt.append(
            "Para camadas densas (totalmente conectadas), recomenda-se ao menos 512 unidades; "
            "dobrar de 256 para 512 custa só cerca de 20% a mais de tempo por etapa."
        )
    else:
        a.en.append(f"{w} units is wide enough for the TPU.")
        a.pt.append(f"{w} unidades já é largo o bastante para a TPU.")
    return a


def hbm(value: float, variables: dict[str, str]) -> Advice:
    """HBM for a generation named in a previous answer (variable `tpu_generation`)."""
    gen = variables.get("tpu_generation", "")
    a = Advice()
    if gen in HBM_GIB_PER_CORE:
        gib = HBM_GIB_PER_CORE[gen]
        a.values["hbm_gib"] = str(gib)
        a.en.append(f"A TPU {gen} core has {gib} GiB of HBM for weights and activations.")
        a.pt.append(f"Um núcleo de TPU {gen} tem {gib} GiB de HBM para pesos e ativações.")
    return a


# The variables each advisor may set, so the linter can tell which placeholders a fix may use
# (tests/test_walk.py checks that every advisor sets only these).
ADVISOR_OUTPUTS = {
    "batch_size": {
        "lower_batch",
        "upper_batch",
        "lower_per_core_batch",
        "upper_per_core_batch",
        "per_core_batch",
        "fit_batch",
    },
    "feature_size": {"padded_dim", "waste_pct", "suggested_dim"},
    "layer_size": {"suggested_units"},
    "hbm": {"hbm_gib"},
}

ADVISORS: dict[str, Callable[[float, dict[str, str]], Advice]] = {
    "batch_size": batch_size,
    "feature_size": feature_size,
    "layer_size": layer_size,
    "hbm": hbm,
}
