"""Inputs that name the setup but no problem ("Using TPUs with PyTorch", "jax on tpu", "help with
TPU", "erro na TPU"), and inputs that say only that a run is slow ("TPU slow", "training is very
slow on tpu-v3", "treino lento na TPU").

Every entry of the knowledge base mentions TPUs and the frameworks, so such an input shares its
few words with all of them and the channels pick one almost at random; the confidence model, fitted
on reports that always say something, then answered "jax on tpu" with op profiling at 100% and
"pytorch xla tpu v4" with an out-of-memory entry at 99%. A person who typed that has not told the
assistant what goes wrong yet, so the decision (`decide.vague_input`) abstains and the answer asks
for the error or the symptom (`answer.note_vague`).

The test is deliberately narrow: a short input (`MAX_WORDS`) all of whose words are setup words
(the hardware, the frameworks, where it runs), generic words for "it fails" (`error`, `problem`,
`not working`) or stop words. One word that describes something — `slow`, `hangs`, `memory`,
`ssh`, `403`, an exception name — and the input is read as usual.

"It is slow" is the second case (`says_only_slow`). Five entries are slow-run problems (the input
pipeline, the batch, the layers' widths, the share of matrix work, the steps per execution; and
padding and recompiles make runs slow too), and the words "slow on TPU" fit them all: the
confidence model answered "TPU slow" with low MXU at 95%, "jax tpu v4 slow" with an out-of-memory
entry at 98% and "training is very slow on tpu-v3" with a small batch at 99%. What tells them apart
is what the profiler shows (idle time, MXU utilization, step time) or a detail of the model or the
loop, so such an input is refused like the first case, and the answer asks for those figures
(`answer.note_slow_only`). A word of detail (`batch`, `idle`, `mxu`, `padding`, `input`,
`recompil…`, an op's name) or profile figures, and it is read as usual.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .tokens import STOP, fold

MAX_WORDS = 10  # longer inputs always get a reading; a report that long says something
SLOW_MAX_WORDS = 12  # "o treino na TPU v3-8 está muito mais devagar que na GPU"

_SETUP = frozenset(
    """
tpu tpus cloud google gcp gce colab kaggle pod pods slice slices vm vms node nodes host hosts
pytorch torch torch_xla xla pjrt jax jaxlib flax optax tensorflow tf tf2 keras lightning
huggingface transformers libtpu accelerator accelerators device devices chip chips core cores
model models training train trained trains code script scripts notebook notebooks program
run runs running ran start started starting setup set
work works working worked doesn't didn't isn't won't can't dont doesnt didnt isnt cant wont
error errors problem problems issue issues bug bugs fail fails failed failing failure broken
question questions guide tutorial example examples doc docs documentation
modelo modelos treino treinar treinamento codigo rodar rodando roda rodou usar usando uso
funciona funcionando funcionou erro erros problema problemas falha falhas pergunta duvida
duvidas exemplo tutorial
""".split()
)

# Words that say a run is slow, and nothing about why (folded, en and pt). `_SLOW_WORDS` also
# holds the words that go with them ("very", "compared", "per epoch", "10x", a GPU to compare with);
# `_SLOWNESS` the ones that say it.
_SLOWNESS = frozenset(
    """
slow slower slowest slowly slowness slowdown slowdowns sluggish speed speeds speedup speedups
performance perf throughput utilization utilisation usage util lag laggy
lento lenta lentos lentas lentidao devagar demora demorando demorado demorada lerdo lerda
velocidade desempenho utilizacao
""".split()
)
_SLOW_WORDS = _SLOWNESS | frozenset(
    """
fast faster fastest quick quicker low lower poor bad extremely super
really way much compared comparison versus vs expected gpu gpus cpu cpus nvidia cuda a100 v100
t4 p100 h100 l4 rtx step steps epoch epochs iteration iterations per second seconds sec secs
minute minutes min hour hours time times takes taking took long forever
rapido rapida rapidos baixo baixa baixos baixas ruim pior comparado comparada esperado passo
passos epoca epocas iteracao iteracoes segundo segundos minuto minutos hora horas tempo leva
levando levou
""".split()
)
_TIMES = re.compile(r"^\d+(?:\.\d+)?x$")  # "10x slower"


# hardware names: v3-8, v4, v5e, v5litepod-16, tpuv3, v6e-256, 2x2x1 (topologies). A bare number
# is not one: "TPU 403", "tpu 8470" name a status code and a port.
_HARDWARE = re.compile(r"^(?:tpu)?v\d+[a-z]*(?:-?\d+)?$|^\d+(?:x\d+)+$|^v\d+litepod(?:-\d+)?$")
# A word, or a link, which says nothing the assistant can read and is skipped: "Very slow
# training on colab with TPU" followed by a notebook's address still says only that a run is slow.
_WORD = re.compile(r"(?P<link>\b(?:https?://|www\.)\S+)|[^\W_][\w'/-]*")


def _setup_word(word: str) -> bool:
    return word in STOP or word in _SETUP or bool(_HARDWARE.match(word))


def _words(text: str) -> Iterator[str]:
    """The words of `text`, folded, a hardware name kept whole (`v3-8`) and other words split at
    `/` and `-` (`GPU/TPU`, `tpu-vm`), links left out; lazily, so a caller that has seen enough
    stops reading."""
    for m in _WORD.finditer(text):
        if m.group("link"):
            continue
        word = fold(m.group(0))
        if _HARDWARE.match(word):
            yield word
        else:
            yield from (p for p in re.split(r"[/-]", word) if p)


def names_no_problem(text: str) -> bool:
    """True when `text` is short and every word of it is a setup word, a generic word for
    failure or a stop word (see the module docstring). Reads words only until one says
    something or there are too many, so a long log costs next to nothing."""
    count = 0
    for count, word in enumerate(_words(text), start=1):
        if count > MAX_WORDS or not _setup_word(word):
            return False
    return count > 0


def says_only_slow(text: str) -> bool:
    """True when `text` is short, says that something is slow (`_SLOWNESS`) and every other word
    of it is a setup word, a stop word or a word that goes with slowness ("very", "than GPU",
    "per epoch", "10x"): see the module docstring. Reads words only until one says something
    else or there are too many."""
    slow = False
    for count, word in enumerate(_words(text), start=1):
        if count > SLOW_MAX_WORDS:
            return False
        if word in _SLOWNESS:
            slow = True
        elif not (_setup_word(word) or word in _SLOW_WORDS or _TIMES.match(word)):
            return False
    return slow
