"""`text.vague`: a short input that names the setup but no problem is recognized as such; one
word that describes something, a longer report, or an error line and it is read as usual."""

from __future__ import annotations

import pytest

from assistant.text.vague import names_no_problem

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


@pytest.mark.parametrize("text", VAGUE)
def test_names_the_setup_but_no_problem(text):
    assert names_no_problem(text)


@pytest.mark.parametrize("text", SAYS_SOMETHING)
def test_says_something_to_match(text):
    assert not names_no_problem(text)
