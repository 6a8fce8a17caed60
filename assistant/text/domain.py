"""Domain vocabulary: words that place an input in the world of ML training on Cloud TPU.

Used as one feature of the confidence model (`decide.py`): an input that says nothing about TPUs,
XLA, the frameworks, training or gcloud is less likely to be about this knowledge base, however
much its generic words ("error", "connection", "memory") overlap. The feature's weight is fitted
on data by scripts/calibrate.py, like every other coefficient; this list only names the words.
Matching is on folded tokens (see tokens.py), so Portuguese accents do not matter. `gcloud` and
`compute` are deliberately absent: they belong to all of Google Cloud, not to TPU training.
"""

from __future__ import annotations

from .tokens import tokenize

DOMAIN = frozenset(tokenize(" ".join("""
tpu tpus cloud_tpu tpu_vm tpu-vm libtpu xla xla_tpu_jit hbm mxu pjrt tensorflow tf keras jax jaxlib
flax optax pytorch torch torch_xla xm pjit pmap jit tpustrategy strategy tpuclusterresolver
v2-8 v3-8 v4-8 v5e v5p v2 v3 v4 batch batch_size lote lotes drop_remainder dataset
tf.data tfrecord prefetch num_parallel_calls steps_per_execution epoch epoca training treino
treinamento train treinar model modelo layer layers camada camadas dense densa conv convolution
convolucao tensor tensors tensores shape shapes formato padding preenchimento accuracy acuracia
loss perda gradient gradiente profiler profile perfil tensorboard trace checkpoint
resourceexhaustederror resource_exhausted opkernel compile compilation compilacao
""".split())))


def domain_terms(text: str) -> list[str]:
    return sorted({t for t in tokenize(text) if t in DOMAIN})


# Another accelerator named, and no TPU: such input is about a GPU machine, not this knowledge base.
OTHER_ACCELERATOR = frozenset(tokenize(
    "gpu gpus cuda cudnn nccl nvidia nvidia-smi a100 h100 v100 t4 l4 rtx mps rocm hip"))
TPU_WORDS = frozenset(tokenize(
    "tpu tpus libtpu xla_tpu_jit tpu_vm tpu-vm tpustrategy mxu hbm pjrt"))


def other_accelerator(text: str) -> bool:
    toks = set(tokenize(text))
    return bool(toks & OTHER_ACCELERATOR) and not toks & TPU_WORDS
