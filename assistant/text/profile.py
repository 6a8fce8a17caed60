"""Figures people paste from a TPU profile's overview page, read as numbers, and the two figures of
the model itself that the guide's rules of thumb use: the batch per core and the layers' widths.

The profiler's overview (TensorBoard / XProf "overview_page", `capture_tpu_profile`, the PyTorch/XLA
metrics) states where step time goes: how busy the matrix units are, how long the TPU sits idle, how
much of a step waits for input, how many graphs XLA compiled. Those numbers tell apart problems
whose descriptions sound alike ("training is slow"): see `retrieval/profile_rules.py`, which routes
by them. Every figure is optional; a figure is read only next to the words (or the code) that name
it, in English or Portuguese, so an unrelated percentage is never taken for one.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass

_NUM = r"(\d{1,3}(?:[.,]\d+)?)\s*%"
_SEP = r"[^\d\n%]{0,60}?"  # words between the name and its value: "(higher is better):", " is "
# The words of the other measures a figure may belong to, which the words between a name and its
# figure must not hold (each reader adds its own: the host, loss, FLOPS)
_OTHER_MEASURE = r"util|gpu|cpu|mxu|duty|mem[oó]r|hbm"
# the same, naming no other measure on the way: in "input-bound I think, GPU util hovers around
# 30%" the figure is the GPU's utilization, not the input's share
_SEP_OWN = rf"(?:(?!{_OTHER_MEASURE})[^\d\n%]){{0,60}}?"
# a duration stated before the share it is of the step, the share in brackets: "TPU idle: 225.9 ms
# (92.2%)", the overview's breakdown as people copy it
_DURATION_FIRST = r"(?:~?\d+(?:[.,]\d+)?\s*(?:ms|s)\s*\(\s*)?"
_SEP_SHARE = _SEP + _DURATION_FIRST
# ... naming no other measure nor the host on the way: in "TPU idle, host CPU near 0%" the figure
# is the host's
_SEP_SHARE_OWN = rf"(?:(?!\bhost\b|{_OTHER_MEASURE})[^\d\n%]){{0,60}}?" + _DURATION_FIRST
# "esperando entrada", "esperando pelos dados": the TPU waiting for its input, in Portuguese
_WAITING_PT = r"esperando\s+(?:(?:por|pela|pelos)\s+)?(?:a\s+|os\s+|o\s+)?(?:entrada|dados|input)"
_NEAR = (  # a value right after its name, or after a verb and an adverb ("is only 20%")
    r"[\s:=~│|]{0,12}(?:(?:is|was|stays|sits|hovers|of|at|de|em|é|fica\s+em|fica)\s+)?"
    r"(?:(?:only|just|about|around|roughly|apenas|só|cerca\s+de|uns|at)\s+)?~?"
)

_PATTERNS: dict[str, list[re.Pattern[str]]] = {
    "mxu_utilization": [
        re.compile(r"(?:\bMXU\b|matrix[- ]units?|unidades? de matriz)" + _SEP + _NUM, re.I),
        re.compile(
            _NUM
            + r"\s*(?:of\s+)?(?:the\s+)?(?:\bMXU\b|matrix[- ]units?)"
            + r"\s*(?:utili[sz]ation|usage|util)",
            re.I,
        ),
    ],
    # the op profile's share of the chip's peak compute: the MXU's figure by another name
    "flops_utilization": [
        re.compile(r"\bFLOPS?\s+utili[sz]ation" + _NEAR + _NUM, re.I),
        # ... in Portuguese word order: "a utilização de FLOPS fica em 2%"
        re.compile(r"\butiliza[çc][ãa]o\s+(?:de\s+|dos\s+)?FLOPS?\b" + _NEAR + _NUM, re.I),
    ],
    # MFU, model FLOPs utilization (the model's FLOPs per second over the chips' peak): the same
    # measure as MaxText and most JAX and PyTorch/XLA training loops print it, without a profile
    "mfu": [
        re.compile(r"\bMFU\b" + _NEAR + _NUM, re.I),
        # a share of the chip's peak compute: "under 10% of the v5p bf16 peak"
        re.compile(_NUM + r"\s+of\s+(?:the\s+)?(?:[\w-]+\s+){0,3}?peak\b(?!\s+memory)", re.I),
        # ... further on, with words between that name no other measure and a word that leads to
        # its value: "MFU printed by MaxText around 9%", "o MFU que a gente calcula dá uns 9%"
        # (not "the MFU estimate looks wrong, loss 12%")
        re.compile(
            rf"\bMFU\b(?:(?!{_OTHER_MEASURE}|loss|acc)[^\d\n%]){{0,50}}?"
            r"(?:\b(?:around|about|roughly|near|only|just|of|at|is|was|stays|sits|hovers|d[áa]|uns"
            r"|de|em|fica)\s+~?|~)" + _NUM,
            re.I,
        ),
        re.compile(_NUM + r"\s*(?:of\s+)?(?:the\s+)?\bMFU\b", re.I),
    ],
    "tpu_idle": [
        re.compile(
            # ("a TPU fica parada ~80% do tempo": stopped, in Portuguese, with a share of the time)
            r"\bTPU\s+(?:is\s+|was\s+|sits\s+|stays\s+|fica\s+|est[aá]\s+|ficou\s+)?"
            r"(?:idle|ociosa|ocioso|parad[ao])(?:\s+time)?" + _SEP_SHARE_OWN + _NUM,
            re.I,
        ),
        # the figure before the word, with the TPU named earlier on the line and no host or other
        # measure between: "the TPU v4 profile shows 70% of the time idle", "a TPU passa 70% do
        # tempo ociosa" (not "my tpu is slow, mxu 12% idle 3%": the 12% is the MXU's)
        re.compile(
            rf"\bTPU\b(?:(?!\bhost\b|{_OTHER_MEASURE}|flops)[^\n%]){{0,60}}?"
            + _NUM
            + r"\s*(?:of\s+(?:the\s+)?(?:step\s+)?time\s+|do\s+tempo\s+)?(?:idle|ociosa|ocioso)",
            re.I,
        ),
        re.compile(
            r"(?:idle|ociosidade)\s+(?:time\s+)?(?:of|on|da|na)\s+(?:the\s+)?TPU"
            + _SEP_SHARE
            + _NUM,
            re.I,
        ),
        re.compile(r"tempo ocioso da TPU" + _SEP + _NUM, re.I),
    ],
    # how much of the time the TPU is busy: XProf's overview "TPU Duty Cycle" (idle is the rest)
    "duty_cycle": [
        re.compile(r"\bduty[- ]cycle(?:\s*\(%\))?" + _NEAR + _NUM, re.I),
    ],
    "host_idle": [
        re.compile(r"\bhost\s+(?:idle|ocioso)(?:\s+time)?" + _SEP_SHARE + _NUM, re.I),
        re.compile(r"tempo ocioso do host" + _SEP + _NUM, re.I),
    ],
    "input_wait": [
        re.compile(
            r"\b"
            + _NUM
            + r"\s+of\s+the\s+total\s+step\s+time\s+(?:sampled\s+)?is\s+waiting\s+for\s+input",
            re.I,
        ),
        re.compile(
            r"(?:waiting\s+for\s+input|input[- ]bound|infeed|"
            + _WAITING_PT
            + r"|tempo\s+de\s+entrada)"
            + _SEP_OWN
            + _NUM,
            re.I,
        ),
        # the overview's breakdown of a step: "Input time: 81.6%", "Input: 4% of step time"
        re.compile(
            r"\binput(?:\s+time)?\s*(?:is\s+|was\s+)?(?:[:=]\s*)?(?:small\s*)?\(?~?" + _NUM, re.I
        ),
        re.compile(
            _NUM
            + r"\s+(?:of\s+)?(?:step\s+time\s+)?(?:do\s+tempo\s+(?:de\s+passo\s+)?)?"
            + r"(?:waiting\s+for\s+input|in\s+infeed|"
            + _WAITING_PT
            + r")",
            re.I,
        ),
    ],
}
_STEP_TIME = re.compile(
    r"(?:average\s+)?step[- ]time(?:\s+average)?|tempo\s+(?:m[eé]dio\s+)?(?:de|do|por)\s+passo",
    re.I,
)
# the overview's step-time breakdown in milliseconds: "Input time: 0.3 ms" of a 37.6 ms step,
# "Input: 318.9 ms", or a line of the breakdown as columns ("  Input    318.9 ms")
_INPUT_MS = re.compile(
    r"(?:\b(?:input|infeed)(?:\s+time)?\s*[:=]|^[ \t]*(?:input|infeed)(?:\s+time)?[ \t]+)"
    r"\s*~?(\d+(?:[.,]\d+)?)\s*ms\b",
    re.I | re.M,
)
_STEP_VALUE = re.compile(r"[^\d\n]{0,30}?(\d+(?:[.,]\d+)?)\s*(ms|s|sec|seconds|segundos)\b", re.I)
# The training loop's own timers, a step a line: how long it waited for its batch beside how long
# the step took ("data_time 1.13s batch_time 1.39s"; PyTorch's ImageNet example, "Time 0.490
# (0.512)  Data 0.471 (0.480)") or how long the device computed ("wait_for_batch=0.47s
# device_step=0.02s", "data_wait=1.84s fwd+bwd+opt(mark_step)=0.09s"). The share of the step spent
# waiting is the input-wait figure a profile gives, measured by the loop on any device.
_TIMER = r"\W{1,3}~?(\d+(?:[.,]\d+)?)\s*(ms|s|sec)?(?![\w.%])"  # (a share is the profiler's)
_DATA_TIMER = re.compile(
    r"\b(?:data(?:[_ ](?:time|wait|load(?:ing)?(?:[_ ]time)?))?|wait[_ ](?:for[_ ])?(?:batch|data)"
    r"|data_?loader[_ ]time|(?:load|fetch)[_ ]time)" + _TIMER,
    re.I,
)
_STEP_TIMER = re.compile(r"\b(?:time|(?:batch|iter(?:ation)?|step)[_ ]time)" + _TIMER, re.I)
_COMPUTE_TIMER = re.compile(
    r"\b(?:device[_ ](?:step|time)|compute(?:[_ ]time)?|train[_ ]step(?:[_ ]time)?"
    r"|fwd[+/]bwd\S*?|forward[_ /]backward(?:[_ ]time)?)" + _TIMER,
    re.I,
)
# ... or a bare "step" with its unit beside the wait ("wait_data 0.412s | step 0.097s"): a step
# shorter than the wait does not hold it, so it is the device's part (a step count, "step 100",
# has no unit)
_BARE_STEP_TIMER = re.compile(r"\bstep\W{1,3}~?(\d+(?:[.,]\d+)?)\s*(ms|s|sec)(?![\w.%])", re.I)
_TIMER_LINES = 20  # the first lines with both timers (a long log repeats itself)
_PER_CORE_BATCH = [
    re.compile(
        r"(?:per[- ](?:core|device|replica|chip)\s+batch(?:[- ]size)?"
        r"|batch(?:[- ]size)?\s+per\s+(?:core|device|replica|chip)"
        # (a question mark between ends the sentence: "what per-chip batch is realistic? 1 …")
        r"|lote\s+por\s+(?:n[uú]cleo|core|dispositivo|chip))[^\d?!]{0,15}(\d{1,6})\b",
        re.I,
    ),
    # Hugging Face's argument, and the like: "per_device_train_batch_size=8"
    re.compile(
        r"\bper_(?:device|core|replica)_(?:train_)?batch_size\b\W{0,4}(\d{1,6})\b"
        r"|\bbatch_size_per_(?:device|core|replica)\b\W{0,4}(\d{1,6})\b",
        re.I,
    ),
    # the number between: "batch size is 8 per device", "lote de 16 por núcleo"
    re.compile(
        r"\b(?:batch(?:[-_ ]size)?|lote)\s*(?:is\s+|of\s+|de\s+|=\s*|:\s*|\s)(\d{1,6})\s+"
        r"(?:per|por)\s+(?:core|device|replica|chip|n[uú]cleo|dispositivo)",
        re.I,
    ),
    # the rows themselves: "so 2 images per core", "8 exemplos por dispositivo"
    re.compile(
        r"\b(\d{1,6})\s+(?:images?|imgs?|examples?|samples?|sequences?|sentences?|rows?|"
        r"imagens|exemplos|amostras|sequ[eê]ncias|frases)\s+(?:per|por|em\s+cada)\s+"
        r"(?:core|device|replica|chip|n[uú]cleo|dispositivo)s?\b",
        re.I,
    ),
    # a change of it, the number now: "it went from 16 per chip to 4 per chip"
    re.compile(
        r"\bfrom\s+\d{1,6}\s+per\s+(?:core|device|replica|chip)\s+to\s+(\d{1,6})\s+per\s+"
        r"(?:core|device|replica|chip)\b",
        re.I,
    ),
    # in brackets after the global batch: "global batch 16 (2 per chip)", "batch 256 (32/core)"
    re.compile(
        r"\b(?:batch(?:[- ]size)?|lote)\b[^\n.;()]{0,30}?\(\s*(?:i\.e\.,?\s*|=\s*|~\s*)?"
        r"(\d{1,6})\s*(?:per\s+|por\s+|/\s*)(?:core|device|replica|chip|n[uú]cleo|dispositivo)s?\b",
        re.I,
    ),
]


def _whole_batch(m: re.Match[str]) -> int | None:
    """The batch a `_PER_CORE_BATCH` match gives, where it is a whole one: not 0, nor the whole
    part of a fraction (MaxText's "per_device_batch_size=0.25" shares one example among
    devices)."""
    g = next(i for i in range(1, len(m.groups()) + 1) if m.group(i))
    batch = int(m.group(g))
    return batch if batch > 0 and not re.match(r"[.,]\d", m.string[m.end(g) :]) else None


def per_core_batch_spans(text: str) -> list[tuple[int, int]]:
    """Where `text` gives a batch per core, device or replica (what `_PER_CORE_BATCH` reads): a
    batch size found inside one of these is not the global batch (`parse.parse`)."""
    return [m.span() for rx in _PER_CORE_BATCH for m in rx.finditer(text)]


# The trace viewer described rather than quoted: the device idle in gaps between its steps ("~130 ms
# gaps between my train_step executions", "nothing on the TPU until the next step", "busy only a
# sliver of each step", "busy in little slivers, then a big gap before the next step", "a TPU fica
# parada entre os steps"). No figure, but the same finding as a high TPU idle time.
_IDLE_GAPS = re.compile(
    r"\bgaps?\s+(?:of\s+[^\n.]{0,20}\s+)?between\s+(?:[\w`()-]+\s+){0,3}?"
    r"(?:steps?|train_steps?|executions?|iterations?|batches|calls)\b"
    r"|\bnothing\s+(?:at\s+all\s+|running\s+)?on\s+(?:the\s+)?(?:device|TPU)\b"
    r"|\b(?:TPU|device)\s+(?:is\s+|sits\s+|stays\s+|was\s+)?idle\s+(?:between|while)\b"
    r"|\bbusy\s+(?:for\s+)?only\s+(?:a\s+(?:sliver|fraction)|~?\d)"
    # "busy in little slivers", "a big gap before the next step"
    r"|\b(?:TPU|device|chips?|cores?)\s+(?:is\s+|was\s+)?busy\s+(?:in|for)\s+"
    r"(?:little\s+|tiny\s+|short\s+|small\s+)?(?:slivers|bursts|blips)\b"
    # "a gap of ~35 ms before the next step starts"
    r"|\bgaps?\s+(?:of\s+[^\n.]{0,20}?\s+)?(?:before|until)\s+(?:the\s+)?next\s+"
    r"(?:step|execution|iteration|batch|call|TPUExecute|one)\b"
    # "long empty stretches on the TPU rows between them", "the steps sit ~55 ms apart"
    r"|\b(?:empty|idle|blank)\s+(?:stretches|spans|space|regions?)\s+(?:on\s+(?:the\s+)?"
    r"(?:TPU|device)\s+(?:rows?|lanes?|lines?)\s+)?between\b"
    r"|\b(?:steps?|executions?|iterations?)\b[^\n.]{0,40}?\b~?\d+(?:\s*-\s*\d+)?\s*ms\s+apart\b"
    # "a gap before every single step", "a ~70ms gap every single step", "does ~4 ms of work and
    # then sits idle for ~60 ms"
    r"|\bgaps?\s+(?:of\s+[^\n.]{0,20}?\s+)?(?:before\s+|on\s+|in\s+)?(?:every|each)\s+"
    r"(?:single\s+)?(?:step|execution|iteration|batch|call)\b"
    # "a visible gap where the TPU does nothing before the next one begins", "followed by ~9 ms
    # where the TPU does nothing"
    r"|\b(?:gaps?|~?\d+(?:\.\d+)?\s*ms)\s+where\s+(?:the\s+)?(?:TPU|device|chips?)\s+"
    r"(?:does|did|is\s+doing)\s+nothing\b"
    r"|\b(?:TPU|device)\s+(?:does|did|runs|ran)\s+~?\d[^\n.]{0,20}?\bof\s+work\b[^\n.]{0,20}?"
    r"\b(?:sits|stays|is|goes)\s+idle\b"
    # "the TPU is busy for maybe 3 ms and then does nothing for ~20 ms until the next step"
    r"|\bbusy\s+(?:for\s+)?(?:maybe\s+|about\s+|roughly\s+|around\s+)?~?\d[^\n.]{0,30}?"
    r"\b(?:does\s+nothing|sits\s+idle|is\s+idle|idles)\b"
    r"|\b(?:does|did)\s+nothing\s+(?:for\s+[^\n.]{0,20}?\s+)?(?:until|before)\s+(?:the\s+)?next\s+"
    r"(?:step|execution|iteration|batch|call)\b"
    # the device's share given, "the rest of the step is host / TPU idle" (and in Portuguese)
    r"|\brest\s+(?:of\s+(?:the\s+)?(?:step|time)\s+)?(?:is|was)\s+(?:host\s*(?:/|and|or)\s*)?"
    r"(?:TPU\s+|device\s+)?idle\b"
    r"|\bo\s+resto\s+(?:do\s+(?:step|passo|tempo)\s+)?[ée]\s+(?:host\s*(?:/|e|ou)\s*)?"
    r"(?:TPU\s+)?(?:idle|ocios[ao])\b"
    r"|\b(?:buracos?|gaps?)\s+(?:de\s+[^\n.]{0,20}\s+)?entre\b"
    # "intervalos em branco entre os passos", "intervalos grandes entre os steps"
    r"|\bintervalos?\s+(?:(?:grandes?|longos?|vazios?|em\s+branco)\s+){0,2}entre\s+(?:os\s+|cada\s+)?"
    r"(?:passos?|steps?|execu[çc][õo]es)\b"
    # "entre um e outro tem um buraco", "um buraco grandão onde a TPU não faz nada"
    r"|\bentre\s+um\s+(?:step\s+|passo\s+)?e\s+outro\b[^.\n]{0,30}?\b(?:buracos?|gaps?|intervalos?)\b"
    # "entre um passo e outro o TPU fica parado uns 8 ms", "between one step and the next the
    # TPU sits idle for ~8 ms"
    r"|\bentre\s+um\s+(?:step\s+|passo\s+)?e\s+outro\s+(?:[oa]\s+)?(?:TPU|dispositivo|chip)\s+"
    r"fica\s+(?:parad[ao]|ocios[ao]|idle)\b"
    r"|\bbetween\s+(?:one\s+)?steps?\s+and\s+(?:the\s+)?next(?:\s+one)?,?\s+(?:the\s+)?"
    r"(?:TPU|device|chip)\s+(?:sits|stays|is|goes)\s+idle\b"
    r"|\b(?:buracos?|gaps?|intervalos?)\b[^.\n]{0,30}?\bonde\s+a\s+TPU\s+(?:n[ãa]o\s+faz\s+nada"
    r"|fica\s+(?:parada|ociosa|idle))"
    r"|\b(?:TPU|dispositivo)\s+(?:fica\s+)?(?:parad[ao]|ociosa?|idle)\s+(?:entre|enquanto)\b"
    # "depois um buraco de ~20ms sem nada", "a TPU fica ociosa a maior parte do tempo"
    r"|\b(?:buracos?|gaps?|intervalos?)\s+(?:de\s+[^\n.]{0,20}?\s+)?sem\s+nada\b"
    r"|\b(?:TPU|dispositivo)\s+fica\s+(?:parad[ao]|ociosa?|idle)\s+(?:a\s+|na\s+)?maior\s+parte\b"
    # "o TPU fica a maior parte do tempo parado entre um step e outro"
    r"|\b(?:TPU|dispositivo)\s+fica\s+(?:a\s+|na\s+)?maior\s+parte\s+do\s+tempo\s+"
    r"(?:parad[ao]|ociosa?|idle)\b"
    # "cada step leva 4ms e depois fica uns 20ms parado até o próximo", "the timeline is full of
    # gaps", "a timeline tá cheia de buraco"
    r"|\bfica\s+(?:uns?\s+|umas?\s+|tipo\s+|cerca\s+de\s+)?~?\d+\s*ms\s+(?:parad[ao]|ociosa?|idle"
    r"|sem\s+fazer\s+nada)\b"
    r"|\b(?:timeline|trace|linha\s+do\s+tempo)\b[^\n.]{0,40}?\b(?:full\s+of\s+(?:gaps|holes)"
    r"|cheia\s+de\s+(?:buracos?|gaps?))\b"
    r"|\bsem\s+nada\s+(?:rodando\s+)?(?:na\s+TPU|no\s+dispositivo|em\s+nenhum\s+(?:dos\s+)?"
    r"(?:\d+\s+)?(?:chips|n[uú]cleos|cores|dispositivos))",
    re.I,
)

# Words just before a reading that say there is none: "the trace shows no gaps between steps",
# "without any gaps before the next step", "não tem buraco entre um passo e outro". A profile told
# to rule a cause out is no figure for it.
_NONE_BEFORE = re.compile(
    r"\b(?:no|without(?:\s+any)?|never|zero|not\s+any|sem|nenhum|nenhuma"
    r"|(?:does\s*n[o']t|do\s*n[o']t|did\s*n[o']t)\s+(?:show|see|have)(?:\s+any)?"
    r"|n[ãa]o\s+(?:tem|h[áa]|vejo|aparece|aparecem)(?:\s+(?:nenhum|nenhuma))?)"
    r"\s+(?:(?:idle|visible|obvious|real|big|large|noticeable|such|grandes?|vis[íi]veis?)\s+)?$",
    re.I,
)


def _ruled_out(text: str, start: int) -> bool:
    """The reading that starts at `start` is denied by the words just before it."""
    return _NONE_BEFORE.search(text[max(0, start - 40) : start]) is not None


# Where the host spends those gaps: producing the next batch. The trace's host lane inside the data
# iterator ("on the host side that time is in my `__next__` frames", "one long python region
# inside my batches() generator"; a traceback's "line 630, in __next__" is not this), or a few
# processes pegged at 100% while the rest of the VM's many cores do nothing ("4 python processes at
# ~100% each, the other ~236 vCPUs idle", "um processo python por core a 100% e o resto dos vCPUs
# parado"). The guide's input-bound host: a pipeline working on one core per process cannot feed
# the TPU. A single core at 100% alone is not read: XLA compiling on the host looks the same.
_WRAP = r"(?:.|\n(?!\s*\n))"  # any character, a line break too where a paste wrapped a sentence
_HOST_FEEDING = re.compile(
    r"(?<!\d, in )(?<!\d, in `)\b__next__\b"
    r"|\bhost\b(?:[^\n.]|\.(?=\w)){0,80}?\b(?:inside|in)\s+(?:my|the|a)\s+(?:`?[\w.]+\(\)`?\s+)?"
    r"(?:python\s+)?(?:generator|data\s*loader|input\s+pipeline|iterator|tf\.data)"
    r"|\b(?:process(?:es)?|procs?|cores?|threads?|workers?)\b"
    + _WRAP
    + r"{0,40}?~?100\s*%"
    + _WRAP
    + r"{0,60}?\b(?:the\s+)?(?:others?|rest)\b"
    + _WRAP
    + r"{0,60}?\b(?:idle|doing\s+(?:basically\s+)?nothing)\b"
    r"|\b(?:process(?:os)?|n[uú]cleos?|cores?|threads?|workers?)\b"
    + _WRAP
    + r"{0,40}?~?100\s*%"
    + _WRAP
    + r"{0,60}?\b(?:o\s+resto|os\s+outros|as\s+outras|demais)\b"
    + _WRAP
    + r"{0,60}?\b(?:parad[oa]s?|ocios[oa]s?|sem\s+fazer\s+nada)"
    # or the host's CPUs idle but for a few processes at full load (the input made in one
    # process per device): "the 96 vCPUs mostly idle except for a handful of python processes
    # pegged at 100%"
    r"|\b(?:cores?|CPUs?|vCPUs?)\b[^\n]{0,30}?\bidle\b[^\n]{0,20}?\bexcept\b[^\n]{0,40}?"
    r"\b(?:process(?:es)?|procs?|threads?)\b[^\n]{0,30}?~?100\s*%"
    # or every core busy preparing data: "all 96 cores pegged at 100%", "a wall of python
    # processes at 100%", "todos os núcleos a 100%"
    r"|\b(?:all|every)\s+(?:the\s+)?(?:\d+\s+)?(?:cores?|CPUs?|vCPUs?)\b[^\n]{0,20}?"
    r"(?:at|pegged\s+at|maxed\s+(?:out\s+)?at)\s*~?100\s*%"
    r"|\bwall\s+of\s+(?:python\s+)?process(?:es)?\b[^\n]{0,20}?~?100\s*%"
    # one process per device, each with a core to itself busy reading and decoding: "top shows
    # each training process at 100% of one CPU core", "cada processo a 100%"
    r"|\b(?:each|every)\s+(?:training\s+|python\s+|worker\s+)?process\b[^\n]{0,20}?"
    r"(?:at|using|uses|pegged\s+at|maxed\s+(?:out\s+)?at)\s*~?100\s*%"
    # "the 8 python processes each pinned at ~100%"
    r"|\bprocess(?:es)?\s+each\s+(?:pinned\s+|pegged\s+|maxed\s+(?:out\s+)?)?at\s*~?100\s*%"
    r"|\bcada\s+processo\b[^\n]{0,20}?(?:a|em|no|usando)\s*~?100\s*%"
    r"|\btodos\s+os\s+(?:\d+\s+)?(?:n[uú]cleos|cores|CPUs|vCPUs)\b[^\n]{0,20}?(?:a|em|no)\s*~?100\s*%",
    re.I,
)

# ... and the same seen in a pasted `top`: two python processes or more at ~100% of a core, while
# the CPUs' summary line says most of the VM is idle ("%Cpu(s):  2.3 us, ... 97.2 id")
_TOP_IDLE = re.compile(r"^%?Cpu\(s\):[^\n]*?(\d{1,3}(?:[.,]\d)?)\s*id\b", re.M)
_TOP_ROW = re.compile(
    r"^\s*\d+\s+\S+\s+(?:\S+\s+){5}[RSDIZT]\s+(\d{1,3}(?:[.,]\d)?)\s+\d{1,3}(?:[.,]\d)?\s+"
    r"[\d:.]+\s+(?:python\S*|pt_main_thread)\b",
    re.M,
)
PEGGED = 95  # % of one core: a process doing nothing else
TOP_IDLE = 75  # % of the VM's CPUs idle in top's summary: the rest of the cores do nothing


def _top_pegged(text: str) -> bool:
    idle = _TOP_IDLE.search(text)
    if idle is None or _number(idle.group(1)) < TOP_IDLE:
        return False
    return sum(_number(m.group(1)) >= PEGGED for m in _TOP_ROW.finditer(text)) >= 2


IDLE = 30  # % of the step the TPU sits idle: much of it (the routing rules' threshold too)

# The input said to be ready before the steps run: the data in memory or already on the device,
# synthetic batches that change nothing, the input pipeline said not to be the problem ("even with
# the data in memory", "the batch is synthetic and already on device", "dados em memória"). Read
# only beside idle time or gaps between steps (`input_ready`), which it explains: the TPU is not
# waiting for that input, so the gaps are the host's round trips (steps-per-execution), not the
# input pipeline. Swapping the data for random tensors to show that the input is slow is no such
# word: only synthetic data that leaves the numbers as they were is.
_INPUT_READY = re.compile(
    r"\b(?:data(?:set)?|inputs?|batch(?:es)?)\s+(?:is\s+|are\s+)?"
    r"(?:(?:fully|all|entirely|already|completely)\s+)?"
    r"(?:in\s+(?:host\s+)?(?:memory|RAM)|on\s+(?:the\s+)?(?:device|TPU))\b"
    r"|\b(?:already|pre-?loaded|cached)\s+(?:in\s+(?:memory|RAM)|on\s+(?:the\s+)?(?:device|TPU))\b"
    # "cached the dataset in RAM", "loaded the whole dataset into memory"
    r"|\b(?:cached|pre-?loaded|loaded)\s+(?:the\s+)?(?:whole\s+|entire\s+|full\s+)?"
    r"(?:data(?:set)?|inputs?)\s+(?:in|into)\s+(?:host\s+)?(?:memory|RAM)\b"
    r"|\b(?:synthetic|dummy|fake)\s+(?:data|inputs?|batch(?:es)?|tensors?)\b[^.\n]{0,60}?"
    # (not "of the same shape": how a fake batch is made, not what it measured)
    r"\b(?:same(?!\s+(?:shape|size|dimensions?|dtype|sequence\s+length))|identical|unchanged"
    r"|no\s+(?:change|difference)"
    r"|still\s+slow|did\s*n[o']t\s+help)\b"
    # ... in Portuguese: "synthetic dá a mesma coisa", "com dado sintético fica igual"
    r"|\b(?:synthetic|sint[ée]tic[oa]s?|fake|dummy)\b[^.\n]{0,40}?\b(?:mesm[ao]\s+(?:coisa|tempo"
    r"|velocidade|resultado|n[úu]meros?)|(?:d[áa]|fica)\s+igual|n[ãa]o\s+(?:muda|mudou|ajuda|ajudou)"
    # ... the measure first: "a velocidade foi a mesma", "the speed was the same"
    r"|(?:velocidade|tempo|resultado)\s+(?:foi|ficou|[ée]|era)\s+(?:[ao]\s+)?(?:mesm[ao]|igual)"
    r"|(?:speed|time|throughput|step\s+time)\s+(?:was|is|stayed)\s+(?:exactly\s+)?the\s+same)"
    # "o dataset é pequeno e está todo em memória"
    r"|\b(?:dados|dataset)\b[^.\n]{0,30}?\best[áa]\s+(?:todo|inteiro|todos)\s+(?:em\s+mem[óo]ria"
    r"|na\s+RAM)\b"
    r"|\b(?:input(?:\s+pipeline)?|data\s*loader|data\s+loading)\s+(?:is\s+not|isn'?t|was\s+not"
    r"|wasn'?t|should\s+not\s+be|shouldn'?t\s+be)\s+(?:the\s+)?(?:issue|problem|bottleneck|culprit)\b"
    r"|\bnot\s+the\s+input(?:\s+pipeline)?\b"
    # one batch fed again and again, the time unchanged: "feeding the same pre-loaded batch over
    # and over gives the same 38 ms", "usando sempre o mesmo lote dá o mesmo tempo"
    r"|\b(?:feeding|reusing|repeating|using)\s+(?:the\s+)?same\s+(?:pre-?loaded\s+|cached\s+"
    r"|fixed\s+)?batch\b[^.\n]{0,60}?\b(?:same|no\s+(?:change|difference)|still\s+slow)\b"
    r"|\bmesmo\s+(?:batch|lote)\b[^.\n]{0,60}?\bmesm[oa]\s+(?:tempo|coisa|velocidade)\b"
    r"|\b(?:dados|dataset|entrada|lotes?)\s+(?:j[áa]\s+)?(?:est[áa]o?\s+|t[áa]\s+|fica\s+)?"
    r"(?:(?:todos?|inteiros?)\s+)?(?:em\s+mem[óo]ria|na\s+RAM|no\s+dispositivo|na\s+TPU)\b"
    r"|\bn[ãa]o\s+[ée]\s+(?:o\s+)?(?:input|pipeline|data\s*loader|carregamento)"
    # "o input pipeline parece ok", "the prefetch buffer is always full"
    r"|\b(?:input\s+pipeline|pipeline\s+de\s+entrada)\s+(?:parece|est[áa]|t[áa])\s+(?:ok|bem|normal)\b"
    r"|\bprefetch\s+(?:buffer\s+)?(?:is|t[áa]|est[áa]|fica)\s+(?:always\s+|sempre\s+)?(?:full|cheio)\b"
    # the input pipeline analyzer's own verdict, quoted without its figure
    r"|(?:\bis|['’]s|\bwas|\bsays)\s+NOT\s+input[- ]bound\b"
    r"|\bn[ãa]o\s+(?:[ée]|est[áa])\s+input[- ]bound\b",
    re.I,
)

# The run measured faster on synthetic data than on the real input ("3.1 steps/s with synthetic
# data, 0.9 with the real dataset", "random tensors of the same shape give 9800 img/s"): the
# model keeps up, so the input is what it waits for. A rate, or "faster", near the synthetic data.
_SYNTHETIC = (
    r"(?:\b(?:synthetic|dummy|fake|random)\s+(?:`[^`\n]{1,30}`\s+|\S+\s+)?"
    r"(?:data(?:set|loader)?|inputs?|input_ids|token\s+ids|images|batch(?:es)?|tensors?)\b"
    r"|\b(?:dados?|input_ids|tokens|ids|imagens|tensores|lotes?|batch(?:es)?)\s+"
    r"(?:sint[ée]tic[oa]s?|fals[oa]s?|aleat[óo]ri[oa]s?|fake)"
    # a training script's flag for it: "--fake_data", "--use_synthetic_data=true", MaxText's
    # "dataset_type=synthetic"
    r"|\b(?:use_)?(?:synthetic|fake|dummy)_data\b|\bdataset_type\s*[=:]\s*[\"']?synthetic\b"
    # or the random arrays a fake dataset returns, named by their call: "a fake one returning
    # torch.randn tensors", "batches of np.random.rand"
    r"|\b(?:torch\.randn?|np\.random(?:\.\w+)?|numpy\.random(?:\.\w+)?|jax\.random\.\w+"
    r"|tf\.random\.\w+)\b)"
)
_FAST = (
    r"(?:\d[\d,.]*\s*(?:steps|it|its|ex|examples|images|img|samples|seqs?|sequences|tokens|batch(?:es)?)"
    r"/s(?:ec)?\b|\bfaster\b|\bquicker\b|\bfull\s+speed\b|\bmais\s+r[áa]pido"
    # or the step time falling to a figure: "dropped to ~110 ms per step", "caiu pra ~110ms"
    r"|\b(?:drops?|dropped|fell|falls|goes\s+down|went\s+down|caiu|cai|baixou|desceu|goes|vai)\s+"
    r"(?:to|pra|para|a)\s+~?\d[\d.,]*\s*(?:ms|s|min(?:\s*\d+\s*s)?)\b"
    # or its own step time, measured against the real run's: "dataset_type=synthetic and got
    # 1.25 s/step" (not one said to be the same)
    r"|\b(?:got|gets|get|gives|gave|d[áa]|deu)\s+~?\d[\d.,]*\s*(?:ms|s)\s*(?:/|per\s+|por\s+)"
    r"(?:step|it|iter(?:ation)?|passo)\b(?![^\n.]{0,40}\b(?:same|identical|igual|mesm[oa])\b)"
    # or a multiple: "the throughput is almost 3x higher"
    r"|\b\d+(?:[.,]\d+)?\s*x\s+(?:higher|faster|more|maior|mais\s+r[áa]pido)"
    # or the TPU's busy share rising to a figure: "the duty cycle went to ~80%", "a utilização
    # subiu pra 85%"
    r"|\b(?:duty\s+cycle|utili[sz]ation|utiliza[çc][ãa]o)\s+(?:foi|vai|sobe|subiu|went|goes|jumps?"
    r"|jumped|rose|rises|climbs?|climbed)\s+(?:up\s+)?(?:to|pra|para|a)\s+~?\d)"
)
_SYNTHETIC_FASTER = re.compile(
    _SYNTHETIC
    + r"[^\n]{0,100}?"
    + _FAST
    + "|"
    + _FAST
    + r"[^\n]{0,30}?\b(?:with|on|using|com)\s+"
    + _SYNTHETIC,
    re.I,
)

# Memory named as what limits the run: out of memory, a model that does not fit. Read only beside a
# per-core batch (`memory_bound`), which it explains: a batch of 1 or 2 per core in a report about
# memory is what was left once the batch had been lowered to fit (batch-or-model-too-large), not
# the guide's batch too small to fill the TPU (small-batch). Keras's `model.fit` is no such word.
_MEMORY_BOUND = re.compile(
    r"\bout[\s-]+of[\s-]+(?:hbm|tpu\s+|device\s+)?memory\b|\bOOM(?:s|ed|ing)?\b|RESOURCE_EXHAUSTED"
    r"|\bResourceExhausted|\bexceeded\s+hbm\s+capacity|\bmemory\s*error\b"
    # the status said in words, or spelled by ear: "resource exausted", "recurso esgotado"
    r"|\bresource[\s_]+exh?austed\b|\brecursos?\s+esgotados?\b"
    r"|(?<![.\w])fit(?:s|ting)?\s+(?:on|in|into|onto)\s+(?:(?:a|the|one|my|its|a\s+single)\s+)?"
    r"(?:single\s+)?(?:v\d|tpu|memory|hbm|chips?|cores?|devices?|host)"
    # the memory running out in other words: "memory on the chip runs out", "a memória acaba"
    r"|\bmemory(?:\s+[\w-]+){0,4}\s+(?:runs?|ran|running)\s+out\b"
    r"|\bmem[óo]ria(?:\s+[\w-]+){0,4}\s+(?:acaba|acabou|esgota|esgotou)\b"
    r"|\b(?:won'?t|doesn'?t|does\s+not|don'?t|do\s+not|didn'?t|not|never|can'?t|cannot|barely"
    r"|only|it'?d|would|should)\s+fits?\b"
    r"|\bwill\s+(?:it|this|that|(?:a|an|the|my)\s+[\w.-]+(?:\s+model)?)\s+fit\b"
    # the weights alone too large: "it can't even load the weights", "too big for a v5e-8"
    r"|\b(?:can'?t|cannot|could\s*n[o']t|unable\s+to)\s+(?:even\s+)?load\s+(?:the\s+)?"
    r"(?:weights|model|checkpoint|parameters)\b|\btoo\s+(?:big|large)\s+(?:for|to\s+fit)\b"
    r"|\bn[ãa]o\s+cabe|\bcaber?\s+(?:na|no|numa|num|em)\b|\bmal\s+cabe"
    r"|\bfalta(?:ndo)?\s+(?:de\s+)?mem[óo]ria|\bestour(?:a|ando|ou|ar)\s+(?:a\s+)?mem[óo]ria",
    re.I,
)

# Batch normalization named beside a per-core batch, in a report about what the model reaches (its
# accuracy, mIoU, a loss that plateaus): the guide's batch norm computed over each core's few
# examples, which lowers accuracy (`batch_norm`). The batch is then the cause of an accuracy
# problem, not of a slow or an out-of-memory one.
_BATCH_NORM = re.compile(
    r"\bbatch[\s_-]?norm|BatchNorm|\bBN\b|normaliza\w*\s+(?:de|do|por)\s+lote", re.I
)
_WHAT_IT_REACHES = re.compile(
    r"\b(?:accuracy|acc|m?IoU|acur[áa]cia|precis[ãa]o|top-?[15]|BLEU|F1|perplexity|Dice|m?AP"
    r"|converg\w*|plateau\w*|estagn\w*|empac\w*)\b",
    re.I,
)

# Padding named in words ("padded to 128", "padding overhead", "preenchimento"): with narrow
# layers, the report may be about what padding them costs. Over the labelled and written sets,
# of the reports with narrow layers and no MXU figure, 33 of the 34 that named no padding were
# small-layers', and 9 of the 10 that did were tensor-padding's.
_PADDING_NAMED = re.compile(r"\bpad(?:s|ded|ding)?\b|\bpreench\w*", re.I)

# Device memory in use against its capacity, as memory tools print it: "HBM usage: 1.9 GiB of
# 32 GiB", "memory usage: ~1.1 GiB / 16 GiB", "1.1 GB used out of 15.7 GB", "uso de memória 1,1 GB
# de 16 GB". An out-of-memory error's "Used 17.31G of 15.48G hbm" reads over 100% and is left out.
_SIZE = r"~?(\d+(?:[.,]\d+)?)\s*([KMGT])i?B?\b"
_MEMORY_USED = [
    re.compile(
        r"(?:\bHBM\b|memory|mem[oó]ria)[^\n\d]{0,40}?"
        + _SIZE
        # "used", "per core" or both: "~1.5 GB used per core out of 16 GB"
        + r"\s*(?:(?:used|usad[oa]s?|in use)\s+)?(?:(?:por|per)\s+(?:core|chip|n[uú]cleo)\s*\(?)?"
        + r"(?:/|of|out of|de|em)\s*(?:the\s+)?"
        + _SIZE,
        re.I,
    ),
    re.compile(
        r"\bused\s+" + _SIZE + r"\s*(?:of|out of|/)\s*" + _SIZE + r"\s*(?:of\s+)?(?:HBM|memory)",
        re.I,
    ),
    # the memory named between the two sizes: "~3 GB de HBM usada de 16 GB", "2 GiB of HBM used
    # out of 16 GiB"
    re.compile(
        _SIZE
        + r"\s*(?:of|de)\s+(?:HBM|memory|mem[oó]ria)\s+(?:used|usad[oa]s?|in use|em uso)\s*"
        + r"(?:of|out of|de|/)\s*(?:the\s+)?"
        + _SIZE,
        re.I,
    ),
    # ... further along a line that names the memory, past other numbers: "get_memory_info('TPU:0')
    # gives {'current': 812343296, …} — not even 1.1 GB of 8 GB per core"
    re.compile(
        r"(?:\bHBM\b|memory|mem[oó]ria)[^\n]{0,160}?(?<![\d.,])"
        + _SIZE
        + r"\s*(?:used\s+|usad[oa]s?\s+|in use\s+)?(?:of|out of|de|/)\s*(?:the\s+)?"
        + _SIZE,
        re.I,
    ),
]
# ... or the capacity given without its unit, per chip: "roughly 3 GB used of 16 per chip" (the
# unit is the used size's)
_USED_OF_PER_CHIP = re.compile(
    _SIZE
    + r"\s*(?:used|usad[oa]s?|in use|em uso)\s+(?:of|out of|de)\s*~?(\d+(?:[.,]\d+)?)\s*"
    + r"(?:([KMGT])i?B?\s+)?(?:per|por|each|cada|/)\s*(?:chip|core|device|n[uú]cleo|dispositivo)\b",
    re.I,
)
# what the frameworks print: torch_xla's `xm.get_memory_info` ({'bytes_used': …, 'bytes_limit': …},
# or {'kb_free': …, 'kb_total': …} before 2.3), JAX's `device.memory_stats()` ('bytes_in_use',
# 'bytes_limit'), and the memory viewer's "Peak heap usage: 1.19 GiB (HBM capacity 15.48 GiB)"
_BYTES_USED = re.compile(r"'bytes_(?:used|in_use)'\s*:\s*(\d+)")
_BYTES_LIMIT = re.compile(r"'bytes_limit'\s*:\s*(\d+)")
_KB_FREE = re.compile(r"'kb_free'\s*:\s*(\d+)")
_KB_TOTAL = re.compile(r"'kb_total'\s*:\s*(\d+)")
_PEAK_OF_CAPACITY = re.compile(
    r"peak\s+(?:heap\s+|memory\s+|HBM\s+)?usage\W{0,4}"
    + _SIZE
    + r"[^\n\d]{0,20}?capacity\W{0,4}"
    + _SIZE,
    re.I,
)
_MEMORY_USED_PCT = re.compile(
    r"(?:\bHBM|device memory|TPU memory)\s+(?:usage|use|used|utili[sz]ation)" + _SEP + _NUM, re.I
)
_SCALE = {"K": 1 / 1024**2, "M": 1 / 1024, "G": 1.0, "T": 1024.0}  # the tools print binary units

# How much padding inflates a buffer, as the memory viewer and XLA's out-of-memory report print
# it: "Size: 246.1M  Unpadded size: 43.8M" (the padded size first, on one line or two), "unpadded
# 1.5 MiB  padded 64.0 MiB", "Unpadded (6.40G) Padded (19.32G)", or the ratio itself,
# "Extra memory due to padding: 15.50G (32.0x expansion)". The largest ratio read is kept.
_PADDED_THEN_UNPADDED = re.compile(
    r"\bSize:\s*"
    + _SIZE
    # the memory viewer's buffer details: a few lines (shape, label) may come between the two
    + r"(?:[\s,;|]{0,12}|[^\n]*(?:\n(?![^\n]*\bSize:)[^\n]*){0,4}?\n\s*)Unpadded size:\s*"
    + _SIZE,
    re.I,
)
_UNPADDED_THEN_PADDED = re.compile(
    r"\bunpadded(?:\s+size)?\W{0,3}" + _SIZE + r"\W{1,8}padded(?:\s+size)?\W{0,3}" + _SIZE, re.I
)
_EXPANSION = re.compile(r"\((\d+(?:\.\d+)?)x expansion\)", re.I)
# ... or pasted as a table: a header whose columns name both sizes ("Size  Unpadded  Overhead",
# "Unpadded Size  Padded Size", "Size (unpadded)  Size (padded)"), then rows of sizes in that order
_TABLE_UNPADDED = re.compile(r"\bunpadded\b", re.I)
_TABLE_PADDED = re.compile(r"(?<!un)\bpadded\b|\bsize\b(?<!unpadded size)(?!\s*\(unpadded)", re.I)
# a header is a short run of column names, not a sentence (normalized text has lost its spacing)
_SENTENCE_WORDS = frozenset("a and are does for in is it its my shows that the what why".split())
_SIZE_ANYWHERE = re.compile(r"(\d+(?:[.,]\d+)?)\s*([KMGT])i?B\b")
TABLE_ROWS = 12

# The width of a layer as a model's code states it: the units of a dense layer (Keras
# `Dense(64)`, Flax `nn.Dense(64)`, Haiku `hk.Linear(64)`, PyTorch `nn.Linear(40, 64)`) or the
# output channels of a convolution (`Conv2D(32, 3)`, `nn.Conv(32, …)`, `nn.Conv2d(3, 32, …)`).
# The guide's "feature dimension": a fully connected layer's hidden size, a convolution's channels.
_LAYER_WIDTH = [
    re.compile(r"\b(?:nn\.|layers\.)?Dense\(\s*(?:units\s*=\s*|features\s*=\s*)?(\d{1,6})\b"),
    re.compile(r"\bhk\.Linear\(\s*(?:output_size\s*=\s*)?(\d{1,6})\b"),
    re.compile(
        r"\bLinear\(\s*(?:in_features\s*=\s*)?\w+\s*,\s*(?:out_features\s*=\s*)?(\d{1,6})\b"
    ),
    re.compile(r"\bConv[123]D\(\s*(?:filters\s*=\s*)?(\d{1,6})\b"),
    re.compile(r"\bnn\.Conv\(\s*(?:features\s*=\s*)?(\d{1,6})\b"),
    re.compile(r"\bConv[123]d\(\s*\w+\s*,\s*(?:out_channels\s*=\s*)?(\d{1,6})\b"),
    # Keras' model.summary(): "dense_1 (Dense)   (None, 32)   2080"
    re.compile(r"\((?:Dense|Conv[123]D)\)\s+\(None,(?:\s*\d+,)*\s*(\d{1,6})\)"),
    # Flax's tabulate(): a layer's "kernel: float32[40,32]", output features last (a
    # convolution's too: [3,3,64,128])
    re.compile(r"\bkernel:\s*(?:b?float(?:16|32)|bf16|f32)\[(?:\d{1,6},\s*)+(\d{1,6})\]"),
]
LAYERS_TO_JUDGE = 2  # one layer alone (a classifier head, say) does not show the model's width
# ... and the same said in words of several layers at once: "dense layers of 48 units", "hidden
# layers with 64 neurons", "camadas densas de 48 unidades", "64-unit hidden layers"
_LAYERS_WIDE = [
    re.compile(
        r"\b(?:dense|hidden|fully[- ]connected|linear)\s+layers\s+(?:of|with)\s+(\d{1,5})\s+"
        r"(?:units|neurons|features)\b",
        re.I,
    ),
    # "6 Dense layers of width 64", "hidden layers of size 48"
    re.compile(
        r"\b(?:dense|hidden|fully[- ]connected|linear)\s+layers\s+(?:of|with)\s+(?:a\s+)?"
        r"(?:width|size)\s*[:=]?\s*(\d{1,5})\b",
        re.I,
    ),
    re.compile(r"\b(\d{1,5})[- ](?:unit|neuron|wide)\s+(?:dense\s+|hidden\s+)?layers\b", re.I),
    # an MLP's size given as its hidden width: "MLP with 4 layers, hidden 64", "3 layers,
    # hidden_dim=48", "64 hidden units", "camadas ocultas de 64" (with or without the units)
    re.compile(
        r"\b(?:mlp|layers?|camadas?)\b[^\n.;]{0,40}?\bhidden(?:[_ ](?:dim|units|width))?"
        r"\s*[:=]?\s*(\d{1,5})\b",
        re.I,
    ),
    re.compile(r"\b(\d{1,5})\s+hidden\s+(?:units|neurons|dims?|features)\b", re.I),
    re.compile(r"\bcamadas?\s+(?:ocultas?|escondidas?)\s+(?:de|com)\s+(\d{1,5})\b", re.I),
    re.compile(
        r"\bcamadas\s+(?:densas\s+|lineares\s+)?(?:de|com)\s+"
        r"(\d{1,5})\s+(?:unidades|neur[oô]nios)\b",
        re.I,
    ),
]
# ... but not a width the person only considers moving to ("would going to 512-wide layers cost
# anything?", "widen them to 256-unit layers", "subir para 512 neurônios"): not the model's own
_CONTEMPLATED = re.compile(r"\b(?:to|into|para|pra|até)\s+$", re.I)
# ... and listed, as an MLP's config or a person gives its layers: "layers [64, 64, 32, 1]",
# "hidden_dims=(256, 128)", "features=[64, 64, 1]" (Flax), "camadas [64, 32]": the widest counts
_LAYER_LIST = re.compile(
    r"\b(?:(?:(?:hidden|dense|mlp)[_ ])?(?:layers?|layer[_ ]sizes|dims|sizes|units|camadas)\s*[:=]?"
    # TF-Agents' networks: `QNetwork(..., fc_layer_params=(48, 32))`
    r"|fc_layer_params\s*="
    r"|features\s*=)\s*[\[(]\s*(\d{1,5}(?:\s*,\s*\d{1,5}){1,15})\s*,?\s*[\])]",
    re.I,
)

# ... and as the filters of a CNN's blocks, in words: "conv blocks with 16, 32, 32 and 64
# filters", "4 blocos conv com 16, 32, 32, 64 filtros", "channels 32/64/64", "6 conv1d com 32 e
# 48 canais"
_FILTER_LIST = re.compile(
    r"\b(\d{1,5}(?:(?:\s*(?:,|/)\s*\d{1,5}){1,15}(?:\s*,?\s*(?:and|e)\s+\d{1,5})?"
    r"|\s+(?:and|e)\s+\d{1,5}))\s+"
    r"(?:filters|filtros|channels|canais)\b"
    r"|\b(?:filters|filtros|channels|canais)\s*[:=]?\s*(\d{1,5}(?:\s*/\s*\d{1,5}){1,15})\b",
    re.I,
)


def _widest_filters(m: re.Match[str]) -> int | None:
    """The widest of a list of filter counts (`_FILTER_LIST`), where it reads as a CNN's blocks:
    growing, none under 8 ("224, 224 and 3 channels" is an image's shape; "3, 5 filters" are
    kernel sizes)."""
    widths = [int(w) for w in re.findall(r"\d+", m.group(1) or m.group(2))]
    return max(widths) if min(widths) >= 8 and widths == sorted(widths) else None


# ... and as a chain from layer to layer: "3 Dense layers: 64 -> 32 -> 16 -> 1", "MLP 416 → 64 →
# 32 → 1", "camadas 64 -> 32 -> 1" (three widths or more: two are a change, "batch 64 -> 128").
# A chain runs from what enters the first layer to what leaves each one ("784 → 128 → 10", "48
# input features -> 64 -> 32 -> 1"): its first number is the input's features, not a layer, and
# only the widths after it (`rest`) count; the widest of them is the model's. Over the labelled
# and written sets, every chain was a narrow model's, one of them after 416 input features.
_LAYER_CHAIN = re.compile(
    r"\b(?:layers?|dense|mlp|hidden|units|neurons|camadas?|neur[oô]nios)\b[^\n\d]{0,40}?"
    r"\d{1,5}(?:\s+(?:input\s+)?(?:features|inputs)(?:\s+de\s+entrada)?)?"
    r"(?P<rest>(?:\s*(?:->|→|-->|=>)\s*\d{1,5}){2,15})\b",
    re.I,
)


def _widest_in_chain(m: re.Match[str]) -> int:
    """The widest layer of a `_LAYER_CHAIN` match: the widths after its first number, which is
    the input's."""
    return max(int(w) for w in re.findall(r"\d+", m.group("rest")))


# The length of a batch's sequences as a config or a person states it: "max_target_length=8192"
# (MaxText), "max_seq_length 2048", "seq_len=1024", "sequence length of 4096", "block_size 1024",
# "max_length=512", "seq 2048" in a list of sizes, "comprimento de sequência 2048"
_SEQUENCE_LENGTH = re.compile(
    r"\b(?:max_target_length|max_seq(?:uence)?_len(?:gth)?|seq(?:uence)?[_ ]len(?:gth)?|seqlen|"
    r"block_size|max_length|seq)\b[\"']?\s*[:=]?\s*(\d{2,6})\b|"
    r"\b(?:sequence|context)\s+length\s*(?:of\s+|[:=]\s*)?(\d{2,6})\b|"
    r"\b(?:comprimento|tamanho)\s+(?:de|da)\s+sequ[eê]ncia\s*(?:de\s+|[:=]\s*)?(\d{2,6})\b",
    re.I,
)
# ... and as a loop that builds one layer per width of a list: "for width in (64, 48, 32):" with
# "nn.Dense(width)" or "nn.Linear(prev, width)" in its body
_LAYER_LOOP = re.compile(
    r"\bfor\s+(\w+)\s+in\s+[\[(]\s*(\d{1,5}(?:\s*,\s*\d{1,5}){1,15})\s*,?\s*[\])]\s*:"
    r"[^\n]*\n?[^\n]{0,160}?\b(?:Dense|Linear|Conv[123]?[dD]?)\(\s*(?:[\w.]+\s*,\s*)?\1\b"
)

# The width of a transformer as its config states it: the model dimension every attention and MLP
# projection reads or writes ("d_model=64", "hidden_size: 1024", '"n_embd": 768', "d_model 200").
# The MLP's inner size and the heads' size are not it.
_WIDTH_NAMES = r"d_model|n_embd|embed_dim|emb_dim|model_dim"
_MODEL_WIDTH = re.compile(rf"\b(?:hidden_size|{_WIDTH_NAMES})\b[\"']?\s*[:=]?\s*~?(\d{{1,6}})\b")
# ... changed from one width to another ("d_model from 512 to 520", "d_model de 512 pra 520"): the
# new one is the model's
_MODEL_WIDTH_CHANGED = re.compile(
    rf"\b(?:hidden[_ ]size|{_WIDTH_NAMES})\b"
    r"(?:[^\n\d]{0,20}?\b(?:de|from)\s+(\d{1,6})\s+(?:pra|para|to|->|→)"
    r"|\s*[:=]?\s*(\d{1,6})\s*(?:->|→))\s*(\d{1,6})\b",
    re.I,
)

# The PyTorch/XLA metrics report (`met.metrics_report()`, PT_XLA_DEBUG): how many graphs were
# compiled and how many executed. A healthy run compiles a few graphs and then only executes.
# (field, the metric's name in the report, the figure read under it)
_METRICS = (
    ("compile_count", r"Metric:\s*CompileTime", "TotalSamples"),
    ("execute_count", r"Metric:\s*Execute(?:Replicated)?Time", "TotalSamples"),
    # values read back to Python (`.item()`, a tensor printed or compared on the host): each one
    # waits for the device, a sync in the middle of the loop
    ("scalar_reads", r"Counter:\s*aten::_local_scalar_dense", "Value"),
)
_METRIC_SAMPLES = {
    field: re.compile(rf"{name}\s+{figure}:\s*(\d+)", re.I) for field, name, figure in _METRICS
}

# How many training steps the code runs per call to the TPU: Keras's `steps_per_execution` in
# compile(), TPUEstimator's `iterations_per_loop` (as an argument or a flag). The largest stated
# counts: a report that went from 1 to 32 runs 32 now.
_STEPS_PER_CALL = re.compile(
    r"\b(?:steps_per_execution|iterations_per_loop)\b[\"']?\s*(?:[:=]\s*|\s)(\d{1,6})\b"
    r"(?:\s*(?:->|→|to|para|pra)\s*(\d{1,6})\b)?",
    re.I,
)


# ... whose figures sit on the line under the metric's name: the name's line is the one to show
_METRIC_HEADER = re.compile(r"^\s*(?:" + "|".join(name for _, name, _ in _METRICS) + r")\b", re.I)

# JAX's compile log (`jax_log_compiles`): one line per compilation of a jitted function. A function
# compiles once for each new input shape (or static argument), so one compiled again is the sign
# of shapes that change. The two forms name the same compilation; they are counted apart.
# "Compiling train_step with global shapes and types [...]", "… for with global shapes …", older
# releases' "Compiling train_step for args (...)": the function's name, then what it compiled for
_COMPILING = r"\bCompiling ([\w.<>-]+) (?:(?:for|with) )+(?:global )?"
_JAX_COMPILES = (
    re.compile(r"\bFinished XLA compilation of (?:jit|pjit|pmap)\(([\w.<>-]+)\)"),
    re.compile(_COMPILING + r"(?:shapes|args)\b"),
)
JIT_RECOMPILED = 2  # compilations of one jitted function: more than one means a new shape
# ... where the log gives the input shapes of each compilation: what follows the function's name
# up to the end of the line (or to "Argument mapping"), compared as written
_JAX_COMPILED_FOR = re.compile(
    _COMPILING + r"(?:shapes and types|args) ([^\n]*?)(?:\.\s+Argument mapping\b|\.?[ \t]*$)",
    re.M,
)


def _jit_recompiles(text: str) -> int | None:
    """The most times one jitted function compiles in a pasted JAX compile log, where it is
    twice or more."""
    counts = (Counter(m.group(1) for m in rx.finditer(text)) for rx in _JAX_COMPILES)
    most = max((n for c in counts for n in c.values()), default=0)
    return most if most >= JIT_RECOMPILED else None


def _jit_shapes(text: str) -> tuple[bool, bool]:
    """Where the log gives the input shapes of each compilation: (same, new). `same`: a jitted
    function compiled twice or more for the very same input shapes: the cache key changed without
    the shapes (a static argument given a new value at every step, the function wrapped in jax.jit
    anew inside the loop), so no shape varies. `new`: one compiled for two input shapes or more:
    the shapes that change, shown."""
    shapes: dict[str, list[str]] = {}
    for m in _JAX_COMPILED_FOR.finditer(text):
        shapes.setdefault(m.group(1), []).append(m.group(2).strip())
    seen = [s for s in shapes.values() if len(s) >= JIT_RECOMPILED]
    return any(len(set(s)) == 1 for s in seen), any(len(set(s)) > 1 for s in seen)


@dataclass(frozen=True)
class ProfileFigures:
    """Percentages are 0..100; step time in milliseconds; None where the text does not say."""

    mxu_utilization: float | None = None
    flops_utilization: float | None = None
    mfu: float | None = None  # model FLOPs utilization, as a training loop prints it
    tpu_idle: float | None = None
    host_idle: float | None = None
    input_wait: float | None = None
    # % of the step the training loop's own timers say it waited for its batch (any device)
    data_wait: float | None = None
    step_time_ms: float | None = None
    per_core_batch: int | None = None
    # 1: beside a per-core batch, memory named as what limits the run (out of memory, it does not
    # fit; no figure), so the batch is what was left once it had been lowered to fit
    memory_bound: int | None = None
    # 1: beside a per-core batch, batch normalization and what the model reaches (accuracy, mIoU)
    # named: batch norm over each core's few examples, the guide's cause of lower accuracy
    batch_norm: int | None = None
    idle_gaps: int | None = None  # 1: the device described idle between steps (no figure)
    host_feeding: int | None = None  # 1: the host described busy producing the input (no figure)
    # 1: beside idle time or gaps, the input said to be ready before the steps (in memory, on the
    # device, synthetic data that changes nothing), so the TPU is not waiting for it (no figure)
    input_ready: int | None = None
    # 1: the run said faster on synthetic data than on the real input (not "the same"): the input
    # is what the TPU waits for (no figure)
    synthetic_faster: int | None = None
    # 1: beside the model's widths, padding named ("padded", "preenchimento"): the cost the report
    # is about may be the padding of those widths, not the matrix units they leave empty
    padding_named: int | None = None
    memory_used: float | None = None  # % of the device's memory (HBM) in use
    padding_expansion: float | None = None  # padded size / unpadded size, the largest read
    # the widest layer in the model's code, where the report shows two layers or more
    widest_layer: int | None = None
    model_width: int | None = None  # a transformer's model dimension (d_model), from its config
    # ... where the report changed it and measured the change: the width before (512 → 520)
    previous_width: int | None = None
    compile_count: int | None = None  # PyTorch/XLA metrics: graphs compiled (CompileTime samples)
    execute_count: int | None = None  # ... and graphs executed (ExecuteTime samples)
    # ... and values read back to Python (the aten::_local_scalar_dense counter: `.item()`)
    scalar_reads: int | None = None
    # JAX's compile log: the most times one jitted function was compiled, where twice or more
    jit_recompiles: int | None = None
    # 1: ... and one function compiled again for the same input shapes, as the log writes them
    jit_same_shapes: int | None = None
    # 1: ... and one function compiled for two input shapes or more, as the log writes them
    jit_new_shapes: int | None = None
    # the training steps the code runs per call to the TPU (`steps_per_execution=32`), the
    # largest stated
    steps_per_execution: int | None = None
    # the length of each sequence of a per-core batch counted in sequences (`max_target_length=
    # 8192`), read only beside a per-core batch: their product is the rows the matrix units get
    sequence_length: int | None = None

    def to_dict(self) -> dict[str, float | int]:
        return {k: v for k, v in asdict(self).items() if v is not None}

    @classmethod
    def from_dict(cls, figures: Mapping[str, float | int]) -> ProfileFigures:
        """Back from `to_dict` (the figures `facts.profile` shows)."""
        return cls(**figures)  # type: ignore[arg-type]

    def __bool__(self) -> bool:
        return bool(self.to_dict())


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def _seconds(m: re.Match[str]) -> float:
    """A `_TIMER` value in seconds (no unit: seconds, as the loops print them)."""
    return _number(m.group(1)) / (1000.0 if (m.group(2) or "").lower() == "ms" else 1.0)


def _data_wait(text: str) -> float | None:
    """The mean share of the step the loop's timers say it waited for its batch (`_DATA_TIMER`),
    over the lines that time both the wait and the step or its computation."""
    shares = []
    for line in text.splitlines():
        data = _DATA_TIMER.search(line)
        if not data:
            continue
        # the other timers, read beside the data timer ("Data time 0.3 Batch time 0.4": the
        # step's "time" is not the one inside "Data time")
        rest = line[: data.start()] + " " * (data.end() - data.start()) + line[data.end() :]
        step = _STEP_TIMER.search(rest)
        compute = _COMPUTE_TIMER.search(rest) or _BARE_STEP_TIMER.search(rest)
        wait = _seconds(data)
        # the whole step holds the wait; the device's computation comes beside it
        total = _seconds(step) if step else 0.0
        if (total <= 0 or wait > total) and compute:
            total = wait + _seconds(compute)
        if total > 0 and wait <= total:
            shares.append(wait / total)
        if len(shares) >= _TIMER_LINES:
            break
    return round(100.0 * sum(shares) / len(shares), 1) if shares else None


def _share(used: float, capacity: float) -> float | None:
    return round(100.0 * used / capacity, 1) if 0 < used <= capacity else None


def _memory_used(text: str) -> float | None:
    m = _MEMORY_USED_PCT.search(text)
    if m:
        return _number(m.group(1))
    used, limit = _BYTES_USED.search(text), _BYTES_LIMIT.search(text)
    if used and limit:
        return _share(float(used.group(1)), float(limit.group(1)))
    free, total = _KB_FREE.search(text), _KB_TOTAL.search(text)
    if free and total:
        return _share(float(total.group(1)) - float(free.group(1)), float(total.group(1)))
    for rx in (_PEAK_OF_CAPACITY, *_MEMORY_USED, _USED_OF_PER_CHIP):
        for m in rx.finditer(text):
            share = _share(_gib(m, 1), _gib(m, 3))
            if share is not None:
                return share
    return None


def _gib(m: re.Match[str], group: int) -> float:
    """A size matched by `_SIZE` (its number at `group`, its unit letter next) in GiB; a second
    size written without its unit ("3 GB used of 16 per chip") takes the first one's."""
    unit = m.group(group + 1) or m.group(2)
    return _number(m.group(group)) * _SCALE[unit.upper()]


# ... or reckoned by the person beside what the tools show, on one line: "By my math that's
# 256*4096*6*4 = ~25 MB. The memory viewer says the buffer for it is 512 MiB", "a 4 GiB buffer for
# an array that should be ~96 MiB", "aparece com 90.0 MiB, quando pela minha conta seria ~4.9
# MiB". A tensor many times its own size on the TPU is what padding does; a few times can be a
# copy kept for the backward pass, so only RECKONED times or more counts.
_RECKONED = re.compile(
    r"\b(?:by\s+my\s+(?:math|count|calculation)|should\s+(?:only\s+)?be|would\s+be|"
    r"pela\s+minha\s+conta|deveria\s+(?:ser|ter)|seria)\b[^\n]{0,60}?" + _SIZE,
    re.I,
)
_SHOWN_BUFFER = re.compile(
    r"\b(?:buffer|memory\s+(?:viewer|profile)|tensor|array|mem[oó]ria)\b", re.I
)
RECKONED = 4.0


def _reckoned_ratios(text: str) -> list[float]:
    ratios = []
    for line in text.splitlines():
        m = _RECKONED.search(line)
        if not m or not _SHOWN_BUFFER.search(line):
            continue
        reckoned = _gib(m, 1)
        # the size shown is the one nearest the reckoned one (a peak or a capacity further on
        # the line is another figure)
        shown = min(
            (s for s in _SIZE_ANYWHERE.finditer(line) if not m.start(1) <= s.start() < m.end()),
            key=lambda s: abs(s.start() - m.start(1)),
            default=None,
        )
        if shown is None or reckoned <= 0:
            continue
        ratio = _gib(shown, 1) / reckoned
        if ratio >= RECKONED:
            ratios.append(ratio)
    return ratios


def _padding_expansion(text: str) -> float | None:
    ratios = [float(m.group(1)) for m in _EXPANSION.finditer(text)] + _reckoned_ratios(text)
    for rx, padded_first in ((_PADDED_THEN_UNPADDED, True), (_UNPADDED_THEN_PADDED, False)):
        for m in rx.finditer(text):
            first, second = _gib(m, 1), _gib(m, 3)
            padded, unpadded = (first, second) if padded_first else (second, first)
            if unpadded > 0:
                ratios.append(padded / unpadded)
    ratios += _table_ratios(text)
    return round(max(ratios), 1) if ratios else None


def _names_columns(line: str) -> bool:
    words = line.lower().split()
    return (
        3 <= len(words) <= 10
        and not any(c.isdigit() for c in line)
        and not _SENTENCE_WORDS.intersection(words)
    )


def _table_ratios(text: str) -> list[float]:
    """Padded / unpadded sizes from the rows under a header that names both columns."""
    ratios: list[float] = []
    lines = text.splitlines()
    for i, header in enumerate(lines):
        unpadded = _TABLE_UNPADDED.search(header)
        if not unpadded or not _names_columns(header):
            continue
        padded = _TABLE_PADDED.search(header)
        if not padded:
            continue
        unpadded_first = unpadded.start() < padded.start()
        for row in lines[i + 1 : i + 1 + TABLE_ROWS]:
            if not row.strip():
                break
            sizes = [_gib(m, 1) for m in _SIZE_ANYWHERE.finditer(row)][:2]
            if len(sizes) == 2:
                first, second = sizes
                pad, unpad = (second, first) if unpadded_first else (first, second)
                if unpad > 0:
                    ratios.append(pad / unpad)
    return ratios


# `tpu-info`, the TPU VM's monitoring command, prints one table per metric and one row per chip:
#   ┃ Chip ┃ HBM usage            ┃ Duty cycle ┃   (older releases: "Memory usage")
#   │ 0    │ 2.10 GiB / 31.25 GiB │     21.40% │
# (with or without the column rules). The duty cycle is the share of time the chip was busy, so
# the TPU's idle time is the rest; the HBM usage is a share of the chip's memory. A figure is the
# mean over the rows that state it.
_DUTY_COLUMN = re.compile(r"\bduty[- ]cycle\b", re.I)
_HBM_COLUMN = re.compile(r"\b(?:HBM|memory)\s+usage\b", re.I)
_ROW_PERCENT = re.compile(_NUM)
_ROW_USED_OF = re.compile(_SIZE + r"\s*/\s*" + _SIZE, re.I)
_TABLE_END = re.compile(r"^\s*[└+]|^\s*$")


def _chip_rows(lines: list[str], header: int) -> list[str]:
    """The rows under the table header at `lines[header]`, up to the table's end: its bottom rule,
    a blank line, or the first line without a figure after the rows (the next table's title, in
    a paste without rules); lines without a figure before the rows are rules (━━━╇━━━)."""
    rows: list[str] = []
    for row in lines[header + 1 : header + 1 + TABLE_ROWS]:
        has_figure = any(c.isdigit() for c in row)
        if _TABLE_END.match(row) or (rows and not has_figure):
            break
        if has_figure:
            rows.append(row)
    return rows


def _chip_columns(line: str) -> tuple[bool, bool]:
    """Whether `line` is a tpu-info table header naming the duty-cycle column, the HBM-usage
    column."""
    if not _names_columns(line):
        return False, False
    return bool(_DUTY_COLUMN.search(line)), bool(_HBM_COLUMN.search(line))


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _chip_tables(text: str) -> dict[str, float]:
    """`tpu_idle` and `memory_used` from tpu-info's per-chip tables, where the text has them."""
    busy: list[float] = []
    used: list[float] = []
    lines = text.splitlines()
    for i, header in enumerate(lines):
        has_duty, has_hbm = _chip_columns(header)
        if not (has_duty or has_hbm):
            continue
        for row in _chip_rows(lines, i):
            percents = [_number(v) for v in _ROW_PERCENT.findall(row)]
            if has_duty and percents and 0.0 <= percents[-1] <= 100.0:
                busy.append(percents[-1])
            sizes = _ROW_USED_OF.search(row) if has_hbm else None
            share = _share(_gib(sizes, 1), _gib(sizes, 3)) if sizes else None
            if share is not None:
                used.append(share)
    out = {}
    if busy:
        out["tpu_idle"] = round(100.0 - _mean(busy), 1)
    if used:
        out["memory_used"] = round(_mean(used), 1)
    return out


# A figure given as a change ("MXU utilization went from 48% to 29%", "caiu de 48% pra 29%"): the
# run's figure now is the second
_CHANGED_TO = re.compile(r"\s*%\s*(?:to|pra|para|->|→)\s*~?(\d{1,3}(?:[.,]\d+)?)\s*%", re.I)


def read_profile(text: str) -> ProfileFigures:
    """The overview figures found in `text` (the first mention of each wins; of a change, the
    figure it changed to)."""
    found: dict[str, float | int] = {}
    for name, patterns in _PATTERNS.items():
        for rx in patterns:
            m = rx.search(text)
            if m:
                to = _CHANGED_TO.match(text, m.end(1))
                value = _number(to.group(1) if to else m.group(1))
                if 0.0 <= value <= 100.0:
                    found[name] = value
                break
    duty = found.pop("duty_cycle", None)
    if duty is not None and "tpu_idle" not in found:
        found["tpu_idle"] = round(100.0 - duty, 1)
    for m in _STEP_TIME.finditer(text):
        v = _STEP_VALUE.match(text, m.end())
        if v:
            unit = v.group(2).lower()
            found["step_time_ms"] = _number(v.group(1)) * (1.0 if unit == "ms" else 1000.0)
            break
    m = _INPUT_MS.search(text)
    step = found.get("step_time_ms")
    if m and step and "input_wait" not in found and _number(m.group(1)) <= step:
        found["input_wait"] = round(100.0 * _number(m.group(1)) / step, 1)
    data_wait = _data_wait(text)
    if data_wait is not None:
        found["data_wait"] = data_wait
    for rx in _PER_CORE_BATCH:
        batch = next((b for m in rx.finditer(text) if (b := _whole_batch(m))), None)
        if batch:
            found["per_core_batch"] = batch
            if _MEMORY_BOUND.search(text):
                found["memory_bound"] = 1
            if _BATCH_NORM.search(text) and _WHAT_IT_REACHES.search(text):
                found["batch_norm"] = 1
            seq = _SEQUENCE_LENGTH.search(text)
            if seq:
                found["sequence_length"] = int(next(g for g in seq.groups() if g))
            break
    used = _memory_used(text)
    if used is not None:
        found["memory_used"] = used
    for name, value in _chip_tables(text).items():
        found.setdefault(name, value)
    if any(not _ruled_out(text, m.start()) for m in _IDLE_GAPS.finditer(text)):
        found["idle_gaps"] = 1
    if _HOST_FEEDING.search(text) or _top_pegged(text):
        found["host_feeding"] = 1
    idle = found.get("tpu_idle", 0.0) >= IDLE or "idle_gaps" in found
    ready = _INPUT_READY.search(text) is not None
    if idle and ready:
        found["input_ready"] = 1
    if not ready and _SYNTHETIC_FASTER.search(text):
        found["synthetic_faster"] = 1
    expansion = _padding_expansion(text)
    if expansion is not None:
        found["padding_expansion"] = expansion
    widths = [int(m.group(1)) for rx in _LAYER_WIDTH for m in rx.finditer(text)]
    said = [
        int(m.group(1))
        for rx in _LAYERS_WIDE
        for m in rx.finditer(text)
        if not _CONTEMPLATED.search(text, max(0, m.start() - 12), m.start())
    ]
    said += [max(int(w) for w in m.group(1).split(",")) for m in _LAYER_LIST.finditer(text)]
    said += [_widest_in_chain(m) for m in _LAYER_CHAIN.finditer(text)]
    said += [max(int(w) for w in m.group(2).split(",")) for m in _LAYER_LOOP.finditer(text)]
    said += [w for m in _FILTER_LIST.finditer(text) if (w := _widest_filters(m)) is not None]
    if len(widths) >= LAYERS_TO_JUDGE or said:
        found["widest_layer"] = max(widths + said)
    m = _MODEL_WIDTH_CHANGED.search(text)
    if m and int(m.group(3)) > 0:
        found["model_width"] = int(m.group(3))
        found["previous_width"] = int(m.group(1) or m.group(2))
    elif (m := _MODEL_WIDTH.search(text)) and int(m.group(1)) > 0:
        found["model_width"] = int(m.group(1))
    if ("widest_layer" in found or "model_width" in found) and _PADDING_NAMED.search(text):
        found["padding_named"] = 1
    for name, rx in _METRIC_SAMPLES.items():
        m = rx.search(text)
        if m:
            found[name] = int(m.group(1))
    recompiles = _jit_recompiles(text)
    if recompiles is not None:
        found["jit_recompiles"] = recompiles
        same, new = _jit_shapes(text)
        if same:
            found["jit_same_shapes"] = 1
        if new:
            found["jit_new_shapes"] = 1
    per_call = [int(n) for m in _STEPS_PER_CALL.finditer(text) for n in m.groups() if n]
    if per_call:
        found["steps_per_execution"] = max(per_call)
    return ProfileFigures(**found)  # type: ignore[arg-type]


def names_a_figure(line: str) -> bool:
    """Whether `line` states one of the figures; one layer's width counts here, and so do the
    header of a tpu-info table, whose rows hold the figures, and a metrics report's metric name,
    whose count is on the next line (the line to show in the answer's *why*)."""
    if any(_chip_columns(line)) or _METRIC_HEADER.search(line):
        return True
    return bool(read_profile(line)) or any(rx.search(line) for rx in _LAYER_WIDTH)
