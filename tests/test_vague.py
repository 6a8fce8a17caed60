"""`text.vague`: a short input that names the setup but no problem, or says only that a run is
slow, is recognized as such; one word that describes something else, a longer report, or an error
line and it is read as usual."""

from __future__ import annotations

import pytest

from assistant.text.vague import names_no_problem, says_only_slow

VAGUE = [
    "Using TPUs with PyTorch",
    "jax on tpu",
    "pytorch xla tpu v4",
    "help with TPU",
    "TPU error",
    "TPU not working",
    "my jax code doesn't work on TPU v4",
    "Question about TPU",
    "torch_xla on v5litepod-16",
    "Keras model on a Colab TPU v2-8",
    "erro na TPU",
    "meu código não funciona na TPU",
    "usando pytorch na tpu v3-8",
    # a link says nothing that can be read
    "help with TPU\nhttps://github.com/someone/project/issues/12",
]

SAYS_SOMETHING = [
    "TPU slow",
    "TPU v3-8 hangs",
    "jax on tpu runs out of memory",
    "ResourceExhaustedError",
    "403",
    # a number next to the setup words is a status code, a port, an exit code
    "TPU 403",
    "tpu 8470",
    "jax tpu v4 exit code 137",
    "ssh to my TPU VM",
    "treino lento na TPU",
    "a TPU trava no CTRL+C",
    "accuracy on TPU worse than GPU",
    "how do I profile a model on a TPU?",
    # long: a report this long always gets a reading, whatever its words
    "I am using TPUs with PyTorch on a Colab notebook and my training code does not work on the "
    "TPU v2-8, it runs on the GPU",
    "",
    "   ",
]


ONLY_SLOW = [
    "TPU slow",
    "training is very slow on tpu-v3",
    "my TPU training is slower than on GPU",
    "jax tpu v4 slow",
    "pytorch xla is slow",
    "TPU 10x slower than a V100 per epoch",
    "low utilization on TPU",
    "poor performance on Colab TPU",
    "treino lento na TPU",
    "o treino na TPU v3-8 está muito mais devagar que na GPU",
    # a title and a link to the notebook
    "Slow training on Colab TPU\n\nhttps://colab.research.google.com/drive/1aB2cD3eF4?usp=sharing",
    "treino lento na TPU www.kaggle.com/code/alguem/meu-notebook",
]

SLOW_WITH_A_DETAIL = [
    # a detail points at a cause: read as usual
    "slow input pipeline on TPU",
    "small batch slow on tpu",
    "tpu training slow with batch size 8",
    "TPU idle time high and training slow",
    "low MXU utilization on TPU",
    "model.fit on TPU is slow",
    "training slows down after every epoch because of recompilation",
    "slow padding on TPU",
    "slow input pipeline on TPU https://colab.research.google.com/drive/1aB2cD3eF4",
    # not about slowness
    "jax on tpu",
    "TPU v3-8 hangs",
    # long: a report this long always gets a reading
    "my training on the TPU is very slow compared to the GPU and I do not know why it is so slow",
    "",
]


@pytest.mark.parametrize(
    ("reading", "text", "expected"),
    [
        *[(names_no_problem, text, True) for text in VAGUE],
        *[(names_no_problem, text, False) for text in SAYS_SOMETHING],
        *[(says_only_slow, text, True) for text in ONLY_SLOW],
        *[(says_only_slow, text, False) for text in SLOW_WITH_A_DETAIL],
    ],
)
def test_what_the_input_says(reading, text, expected):
    assert reading(text) is expected
