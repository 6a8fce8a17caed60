"""Domain vocabulary: words that place an input in the world of ML training on Cloud TPU.

Used as one feature of the confidence model (`decide.py`): an input that says nothing about TPUs,
XLA, the frameworks, training or gcloud is less likely to be about this knowledge base, however
much its generic words ("error", "connection", "memory") overlap. The feature's weight is fitted
on data by scripts/calibrate.py, like every other coefficient; this list only names the words.
Matching is on folded tokens (see tokens.py), so Portuguese accents do not matter. `gcloud` and
`compute` are deliberately absent: they belong to all of Google Cloud, not to TPU training.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from .tokens import tokenize

DOMAIN = frozenset(
    tokenize(
        " ".join(
            """
tpu tpus cloud_tpu tpu_vm tpu-vm libtpu xla xla_tpu_jit hbm mxu pjrt tensorflow tf keras jax jaxlib
flax optax pytorch torch torch_xla xm pjit pmap jit tpustrategy strategy tpuclusterresolver
v2-8 v3-8 v4-8 v5e v5p v2 v3 v4 batch batch_size lote lotes drop_remainder dataset
tf.data tfrecord prefetch num_parallel_calls steps_per_execution epoch epoca training treino
treinamento train treinar model modelo layer layers camada camadas dense densa conv convolution
convolucao tensor tensors tensores shape shapes formato padding preenchimento accuracy acuracia
loss perda gradient gradiente profiler profile perfil tensorboard trace checkpoint
resourceexhaustederror resource_exhausted opkernel compile compilation compilacao
""".split()
        )
    )
)


def domain_terms(text: str) -> list[str]:
    return sorted({t for t in tokenize(text) if t in DOMAIN})


# Context: what the input is about besides its words' overlap with an entry. A report about a GPU or
# CPU device, a Google service other than Cloud TPU, or a plain VM is not a TPU entry unless the
# input also shows TPU evidence; the confidence model reads the gate, and the answer says it.
# The generations whose bare names mean nothing but a TPU (a bare v2, v3 or v4 can be a model's
# or a library's version, "v4" anything's)
_TPU_ONLY_GENERATION = r"(?:v5e|v5p|v6e|v5litepod|v5lite|trillium)"
_TPU_NAMES = (
    r"cloud[ _-]?tpus?|tpus?|libtpu(?:\.so)?|xla_tpu_jit|tpu[_-]vm|tpustrategy|"
    r"tpuclusterresolver|pjrt_device=tpu|tpu\.googleapis\.com|"
    # the TPU Node era's tool that created a TPU and its VM together (`ctpu up`)
    r"ctpu|"
    r"v[2-6](?:e|p|litepod)?-\d{1,4}|/dev/accel\d|colab_tpu_addr|mxu|"
    rf"{_TPU_ONLY_GENERATION}|"
    # Cloud TPU's own way to ask for capacity (`gcloud compute tpus queued-resources`)
    r"queued[ _-]resources?|"
    # APIs that exist only for TPUs: TPUConfig's host loop, the TPU-era optimizer wrapper,
    # Hugging Face's TPU launcher
    r"iterations_per_loop|crossshardoptimizer|xla_spawn(?:\.py)?|"
    # identifiers that carry TPU inside them (tpu_worker, use_tpu, TPUEstimator, JAX's TpuDevice,
    # TPUPartitionedCall, TPUEmbedding, jax[tpu])
    r"tpu_\w+|\w+_tpu\w*|tpu[a-z]\w*|jax\[tpu\]"
)
# The PyTorch/XLA vocabulary, which on Google Cloud means a TPU, unless the report says PyTorch/XLA
# runs on another device (`_XLA_ELSEWHERE`: a GPU, or AWS's Trainium and Inferentia, whose Neuron
# SDK is built on PyTorch/XLA too, `xm.mark_step()` and all): then only the TPU's own names count.
_PTXLA_VOCABULARY = (
    r"torch_xla|xla_device|xmp\.spawn|xm\.\w+|mpdeviceloader|paralleloader|pt-xla-profiler|"
    r"torch-xla|pytorch/xla|"
    # its metrics report (`met.metrics_report()`): an op that fell back to the CPU, the compile
    # and execute timers
    r"counter:\s*aten::\w+|metric:\s*(?:compiletime|executetime|transfertoservertime)"
)
_TPU_EVIDENCE = re.compile(rf"\b(?:{_TPU_NAMES}|{_PTXLA_VOCABULARY})\b", re.I)
_TPU_NAMED = re.compile(rf"\b(?:{_TPU_NAMES})\b", re.I)
_XLA_ELSEWHERE = re.compile(
    r"\b(?:gpu_num_devices|pjrt_device\s*=\s*(?:cuda|gpu|cpu)|xla:gpu|xla[ _-]gpu|gpu[ _-]xla|"
    r"xla_cuda\w*|xla:\S*cuda[\w.]*|"  # the last: a PyTorch/XLA image tagged for CUDA
    r"neuronx(?:-cc|-distributed)?|torch[-_]neuronx|aws[- ]neuron|trn[12]|inf2)",
    re.I,
)
# PyTorch/XLA's image registry is named after the TPU but also holds its CUDA images
_PTXLA_REGISTRY = re.compile(r"gcr\.io/tpu-pytorch/", re.I)
# Issue templates that name a device as a question to fill in, whatever the reporter ran on; the
# prompt goes, the answer after it stays (so "GPU model and memory: Tesla V100" still names a GPU):
# - PyTorch/XLA's "Reproducible on XLA backend [CPU/TPU]:";
# - TensorFlow's "CUDA/cuDNN version:" and "GPU model and memory:", which TPU users leave
#   blank or answer "N/A";
# - TF Addons' "Is GPU used? (yes/no):", unless answered yes.
# - JAX's "Which accelerator(s) are you using?" as a checklist: an item left unticked
#   ("- [ ] TPU") names a device the reporter did not use; a ticked one ("- [x] GPU") stays.
_TEMPLATE_PROMPT = re.compile(
    r"^[ \t]*[-*][ \t]*\[ \][ \t]*(?:[CGT]PU|Apple Silicon|ROCm|CUDA)\b[^\n]*$|"
    r"Reproducible on XLA backend \[[A-Z/]+\]\s*:|"
    r"(?:CUDA\s*/\s*cuDNN version|GPU model and memory)\W{0,4}:|"
    r"Is GPU used\?\s*\(yes\s*/\s*no\)\W{0,4}:(?!\s*yes)",
    re.I | re.M,
)
_OTHER_DEVICE = re.compile(
    r"\b(?:gpus?|cuda\d*|cudnn|nccl|nvidia(?:-smi)?|(?:a100|a800|h100|h800|h200|l40|v100|p100|k80|a10g|t4)s?|"
    r"rtx\s*a?\d+s?|gtx\s*\d+s?|geforce|quadro|radeon|rocm|rocprof\w*|mi[123]\d0x?|mps|cupti\w*|"
    # a GeForce card by its number alone ("my 4090", "two 3090s"), Compute Engine's GPU machine
    # types (a3-highgpu-8g, g2-standard-8)
    r"(?:(?<=my\s)|(?<=our\s)|(?<=\ba\s)|(?<=two\s))[2-5]0[6-9]0(?:\s*ti)?s?|"
    r"a[23]-(?:highgpu|megagpu|ultragpu|edgegpu)-\d+g|g2-standard-\d+|"
    r"xla_gpu_jit|xla_cpu_jit|xla_cpu|xla_gpu|edge\s?tpu|edgetpu\w*|coral|tenstorrent|"
    r"tt-xla|n150|inferentia|trainium|habana\w*|gaudi\d?|hpus?|pt_hpu_\w+|p3\.\d?xlarge|ec2|"
    r"sagemaker|neuron[-_ ]?cores?|neuron-top|"
    # Intel's GPUs and their PyTorch extension (XPU, oneAPI's SYCL runtime)
    r"intel\s+arc|arc\s+a\d{3}m?|xpus?|ipex|intel_extension_for_pytorch|sycl(?:-ls)?|oneapi|"
    # other accelerators with an XLA or PyTorch stack of their own: Apple's Metal plugin for JAX,
    # Huawei's Ascend NPUs, AWS's Neuron SDK (Trainium, Inferentia), Graphcore's IPUs
    r"jax[-_]metal|metal (?:device|platform|backend)|apple\s*m[1-4]|m[1-4]\s+(?:pro|max|ultra)|"
    r"macbook(?:\s+(?:air|pro))?|"
    r"torch[-_]npu|ascend\s*9\d\d\w*|"
    r"neuronx(?:-cc)?|torch[-_]neuronx|aws[- ]neuron|trn[12]|inf[12]|graphcore|poplar|"
    # on-device inference runtimes: their "dynamic shape"/"unsupported op" messages are about
    # exporting a model to a phone or an edge box, not about training on a Cloud TPU
    r"onnxruntime|nnapi|tflite|tensorrt|openvino|coreml|android|"
    # a run said to be on the CPU alone (a laptop, a debug run before the TPU): the CPU every TPU
    # host has is named in many TPU reports, so only these phrasings count
    r"cpu[- ]only\s+(?:machine|vm|instance|laptop|box|runtime|workstation|node|run|debug\s+run|"
    r"preprocessing|job|script)|"
    r"cpu\s+debug\s+run|device[= ]cpu|s[óo]\s+(?:a\s+)?cpu|cpu\s+mesmo|cpu\s+vms?|"
    r"no\s+(?:accelerators?|gpus?)\s+attached|"
    # Lightning's and Accelerate's choice of device, and a phone's Tensor chip
    r"accelerator\s*=\s*[\"']?(?:cpu|gpu|cuda|mps)|tensor\s+g\d)\b",
    re.I,
)
# TPUs that are not Cloud TPUs: Coral's Edge TPU, the TPU in a Pixel phone's Tensor chip. Where
# one is named, a bare "TPU" elsewhere in the input is that chip too ("why doesn't the TPU support
# RESIZE_NEAREST_NEIGHBOR?" above edgetpu_compiler's report); what only a Cloud TPU has (libtpu, a
# v4-8, TPUStrategy) still counts.
_HANDSET = r"(?:pixel|smartphone|tensor\s+g\d)"
_OTHER_TPU = re.compile(
    r"\bedge\s?tpu\w*|\bedgetpu\w*|\bcoral\b|"
    rf"\b(?:{_HANDSET}|phone)(?:['’]s)?\s+(?:(?:own|built-in|on-device)\s+)?TPUs?\b|"
    rf"\bTPU\s+(?:of|in|on|inside)\s+(?:the\s+|my\s+|a\s+)?(?:{_HANDSET}|phone)\b|"
    rf"\bTPU\s+(?:do|de\s+um|no|dentro\s+do)\s+(?:{_HANDSET}|celular)\b",
    re.I,
)
# Beside another device named: a TPU only likened to this run ("the same kind of thing as the TPU
# hangs people report", "similar to what happens on TPU"), or other people's ("the folks who use
# the TPU said it happened there too", "o pessoal que usa a TPU falou que lá acontecia igual")
_NOT_CLOUD_TPU = re.compile(
    r"\b(?:same|similar)\b[^.?!\n]{0,30}?\b(?:as|to)\s+(?:what\s+happens\s+)?(?:on\s+)?"
    r"(?:an?\s+|the\s+)?TPUs?\b|"
    r"\b(?:people|folks|guys|colleagues|others|team)\s+(?:who\s+(?:use|run\s+on)|using|on)\s+"
    r"(?:the\s+|a\s+)?TPUs?\b|"
    r"\b(?:pessoal|galera|povo|colegas|gente)\s+"
    r"(?:que\s+(?:usa|usam|roda|rodam)\s+(?:a\s+|na\s+)?|d[ao]\s+)TPUs?\b",
    re.I,
)
# A person saying they do not use or have a TPU ("I am not using TPU, I am on GPU only", "I don't
# have TPU locally", "without a TPU", "não estou usando TPU", "sem TPU"): the word names the TPU
# this report is not about. Failures are not absences: "could not run on TPU", "no TPU devices
# found" and "TPU not found" stay TPU evidence, and a TPU named elsewhere in the input counts.
_DISOWNED_TPU = re.compile(
    r"(?:\bnot|n['’]t)\s+(?:using|use|used|have|having|need|needing)\s+(?:an?\s+|the\s+|any\s+)?TPUs?\b|"
    r"(?:\b(?:am|are|is|was|were)|['’](?:m|re))\s+not\s+(?:on|running\s+on)\s+(?:an?\s+|the\s+|any\s+)?TPUs?\b|"
    r"\bwithout\s+(?:using\s+)?(?:an?\s+|any\s+)?TPUs?\b|"
    r"\bno\s+TPUs?\s+(?:involved|here|anywhere|at\s+all|needed|required)\b|"
    # ... or PyTorch/XLA left out of the run: "(no torch_xla involved in this run)", "the same
    # script without torch_xla"
    r"\bno\s+(?:torch_xla|torch-xla|pytorch/xla)\s+(?:involved|here|at\s+all|used|imported)\b|"
    r"\bwithout\s+(?:torch_xla|torch-xla|pytorch/xla)\b|"
    r"\bnot\s+(?:a\s+)?TPU[- ](?:related|specific|issue|problem)\b|"
    # set apart in brackets, after a comma or as a sentence of its own: "(not TPU, plain Compute
    # Engine)", "a GPU VM, not a TPU", "Not the TPU itself, the preprocessing VM", "não é TPU mas é
    # o mesmo projeto"
    r"(?:^|[(,;.\n])\s*not\s+(?:on\s+)?(?:an?\s+|the\s+|a\s+Cloud\s+)?TPUs?\b|"
    r"(?:^|[(,;.\n])\s*n[ãa]o\s+(?:[ée]\s+|na\s+|numa\s+)(?:a\s+|uma\s+)?TPUs?\b|"
    # "a desktop that doesn't have anything to do with TPUs", "nada a ver com TPU"
    r"\b(?:nothing|anything)\s+to\s+do\s+with\s+(?:an?\s+|the\s+|any\s+)?(?:Cloud\s+)?TPUs?\b|"
    r"\bnada\s+a\s+ver\s+com\s+(?:a\s+|uma\s+)?TPUs?\b|"
    r"\bn[aã]o\s+(?:estou\s+|to\s+|tô\s+)?(?:usando|uso|usei|tenho|preciso\s+de)\s+(?:a\s+|uma\s+)?TPUs?\b|"
    r"\bsem\s+(?:usar\s+)?(?:a\s+|uma\s+)?TPUs?\b|"
    # the TPU there was none of, so the run went to another device: "the TPU wasn't available so
    # I'm on the Colab GPU", "a TPU não tava disponível então tô na GPU" (a TPU "not available"
    # with no other device after it is a TPU that cannot be reached, and stays evidence)
    r"\bTPUs?\s+(?:(?:was|is|were|are)(?:\s+not|n['’]t)|n[ãa]o\s+(?:tava|estava|est[áa]|t[áa]|"
    r"fica|ficou))\s+(?:\w+\s+)?(?:available|dispon[ií]ve(?:l|is))\b[^.\n]{0,12}?"
    r"\b(?:so|ent[ãa]o|and|e)\b[^.\n]{0,30}?\b(?:[GC]PUs?|T4|P100|V100|A100|L4)\b",
    re.I,
)
# A TPU named only as a plan: "we plan to move to TPU later", "before moving the training to a TPU
# VM", "thinking about moving to TPU", "pensei em migrar pro TPU". The run the report is about is
# not on it; a TPU the report ran on, named elsewhere, still counts. In the written look-alikes
# this phrasing headed a GPU or CPU report twelve times out of twelve.
_TPU_SLICE = r"v[2-6](?:e|p|litepod)?-\d{1,4}"  # "v4-8", "v5litepod-16"
_TPU_GENERATION = rf"(?:{_TPU_SLICE}|v[2-6](?:e|p|litepod)?)"  # ... or "v5e" alone
_TPU_ARTICLE = (
    r"(?:an?\s+|the\s+|uma\s+|our\s+|my\s+)?(?:(?:Cloud\s+)?TPUs?"
    rf"(?:\s+VMs?|\s+(?:on|do|no)\s+\w+|\s+{_TPU_GENERATION})?\b(?:\s*\({_TPU_GENERATION}\))?"
    # or a slice named alone: "a v4-8", or a generation that names nothing else: "pra v5e"
    rf"|{_TPU_SLICE}\b|{_TPU_ONLY_GENERATION}\b)"
)
_MOVE = r"(?:move|moving|switch|switching|migrat\w+|port|porting)"
_PLANNED_TPU = re.compile(
    r"\b(?:plan(?:ning)?|going|want(?:ing)?|hop(?:e|ing)|intend(?:ing)?|thinking|thought|"
    r"consider(?:ing)?|would\s+like)\s+(?:to\s+|of\s+|about\s+)?(?:\w+\s+){0,2}?"
    rf"(?:{_MOVE}|go|going|try|trying)\s+(?:\w+\s+){{0,3}}?(?:to|onto)\s+{_TPU_ARTICLE}|"
    rf"\b(?:before|later|eventually|then)\s+(?:\w+\s+)?(?:{_MOVE}|going)\s+(?:\w+\s+){{0,2}}?to\s+"
    rf"{_TPU_ARTICLE}|"
    # "before launching on our TPU VM", "antes de subir pra TPU", "ainda não subi pra TPU", "pra
    # testar antes de ir pra TPU"
    rf"\bbefore\s+(?:launching|running|deploying|sending|submitting|shipping)\s+(?:\w+\s+){{0,2}}?"
    r"(?:on|to)\s+(?:our\s+|my\s+)?"
    rf"{_TPU_ARTICLE}|"
    r"\b(?:antes\s+de|ainda\s+n[ãa]o)\s+(?:\w+\s+){0,2}?(?:subir|subi|mudar|migrar|passar|levar|ir|fui)"
    rf"\s+(?:\w+\s+){{0,2}}?(?:pra|para|pr[oa])\s+(?:a\s+|o\s+)?{_TPU_ARTICLE}|"
    rf"\b{_MOVE}\s+(?:\w+\s+){{0,2}}?to\s+{_TPU_ARTICLE}\s+(?:later|eventually|soon|someday)\b|"
    # "haven't moved it to the TPU yet", "(the shards) we'll later train on with a v4-8"
    rf"(?:n['’]t|\bnot)\s+(?:yet\s+)?(?:moved|ported|migrated)\s+(?:\w+\s+){{0,2}}?(?:to|onto)\s+"
    rf"{_TPU_ARTICLE}|"
    r"\b(?:later|eventually|then)\s+(?:train|run|fine-tune|use)\w*\s+(?:\w+\s+){0,2}?(?:on|with)\s+"
    rf"{_TPU_ARTICLE}|"
    # "evaluating a move to TPU v5e", "would moving there avoid this?" (a TPU named just before)
    r"\b(?:evaluat\w+|consider\w*|plan\w*|discuss\w*)\s+(?:a\s+|the\s+)?"
    rf"(?:move|switch|migration|port)\s+(?:\w+\s+){{0,2}}?to\s+{_TPU_ARTICLE}|"
    r"\bwould\s+(?:moving|switching|migrating|going)\s+(?:\w+\s+){0,2}?"
    rf"(?:there|to\s+{_TPU_ARTICLE})|"
    # a TPU with a time still to come: "run this on TPU eventually", "ready for TPU later"
    rf"\b(?:on|to|for|onto)\s+{_TPU_ARTICLE}\s+(?:later|eventually|someday|soon|"
    r"next\s+(?:quarter|month|week|year|sprint))\b|"
    rf"\b(?:na|pra|para|no|pro)\s+{_TPU_ARTICLE}\s+(?:depois|mais\s+tarde|no\s+futuro|futuramente)\b|"
    rf"\bdepois\s+(?:\w+\s+)?(?:vai|vamos|vou)\s+(?:\w+\s+){{0,2}}?(?:pr[oa]|para\s+[ao]|n[ao])\s+"
    rf"{_TPU_ARTICLE}|"
    # "pra depois treinar no Levanter numa v4-64", "para depois rodar na TPU"
    r"\b(?:pra|para)\s+depois\s+(?:treinar|rodar|usar|testar)\s+(?:\w+\s+){0,3}?"
    rf"(?:n[ao]|numa|num|com\s+a|pr[oa])\s+{_TPU_ARTICLE}|"
    # said as what comes next: "we'll move to TPU for the big runs", "I'll switch to a v4-8 after"
    r"\b(?:we|I)['’]ll\s+(?:\w+\s+)?(?:move|switch|migrate|go|port)\s+(?:\w+\s+){0,3}?"
    rf"(?:to|onto)\s+{_TPU_ARTICLE}|"
    # a run still to come: "TFRecords for a later TPU run", "the upcoming TPU job", "before the
    # TPU training kicks off"
    r"\bbefore\s+(?:the|our|my)\s+TPU\s+(?:training|job|run)\s+(?:kicks\s+off|starts|begins)\b|"
    r"\b(?:a|the|our|my)\s+(?:later|future|upcoming|eventual)\s+(?:Cloud\s+)?TPUs?\s+"
    r"(?:runs?|jobs?|training|experiments?)\b|"
    # ... or before paying for one: "before renting one", "antes de pagar TPU no GCP"
    r"\bbefore\s+(?:renting|paying\s+for|buying|getting)\s+(?:one\b|"
    rf"{_TPU_ARTICLE})|"
    r"\bantes\s+de\s+(?:pagar|alugar|contratar)\s+(?:\w+\s+){0,2}?(?:por\s+|uma\s+|a\s+)?"
    rf"{_TPU_ARTICLE}|"
    # a GPU user's question whether to move: "should I switch to TPU?", "vale a pena ir pra TPU?"
    rf"\bshould\s+(?:I|we)\s+(?:just\s+)?(?:switch|move|migrate|go)\s+(?:\w+\s+){{0,2}}?to\s+"
    rf"{_TPU_ARTICLE}|"
    r"\bvale\s+a\s+pena\s+(?:\w+\s+)?(?:trocar|ir|migrar|mudar|passar)\s+(?:\S+\s+){0,5}?"
    rf"(?:pra|para|pr[oa])\s+{_TPU_ARTICLE}|"
    r"\b(?:pensei|pensando|penso|pretendo|quero|vou)\s+(?:em\s+)?(?:\w+\s+)?"
    rf"(?:mudar|migrar|passar|testar|trocar|ir)\s+(?:\w+\s+){{0,2}}?(?:pra|para|pr[oa]|a|o)\s+"
    rf"{_TPU_ARTICLE}|"
    # ... and the question such a plan asks: "will the same thing happen on the TPU VM?", "isso
    # vai acontecer na TPU também?" ("will it work on TPU?" asks about the TPU itself: not one)
    r"\bwill\s+(?:this|that|it|the\s+same)(?:\s+\w+)?\s+(?:also\s+)?(?:happen|occur)"
    rf"\s+(?:(?:on|with)\s+[\w.]+\s+)?(?:on|with)\s+{_TPU_ARTICLE}|"
    rf"\bvai\s+acontecer\s+(?:tamb[ée]m\s+)?(?:na|no|com\s+a)\s+{_TPU_ARTICLE}",
    re.I,
)
# A TPU the run has left for another device: "we ported our JAX model from v5p to
# a3-highgpu-8g", "migramos da TPU pra GPU". The TPU is where it ran before; the report is about
# the device it moved to (a move from one TPU to another is no such thing)
_GPU_DESTINATION = (
    r"(?=\s*(?:an?\s+|the\s+|our\s+|uma\s+|a\s+|as\s+)?(?:[\w-]+\s+)?"
    r"(?:GPUs?|H100s?|H200s?|A100s?|L4s?|T4s?|V100s?|a[23]-\w+|g2-\w+|CUDA)\b)"
)
_LEFT_TPU = re.compile(
    r"\b(?:ported|moved|migrated|switched|porting|moving|migrating|switching)\s+(?:\S+\s+){0,4}?"
    rf"from\s+{_TPU_ARTICLE}\s+(?:to|onto){_GPU_DESTINATION}|"
    r"\b(?:migr|mud|port|pass|troc)\w*\s+(?:\S+\s+){0,4}?d[ao]s?\s+"
    rf"{_TPU_ARTICLE}\s+(?:pra|para|pr[ao]s?){_GPU_DESTINATION}",
    re.I,
)
# A TPU document, not a TPU run: "the TPU guide says…", "vi no guia de TPU"
_TPU_DOCUMENT = re.compile(
    r"\b(?:Cloud\s+)?TPUs?\s+(?:guides?|docs|documentation|tutorials?)\b|"
    r"\b(?:guia|documenta[çc][ãa]o|tutorial)\s+d[aoe]\s+(?:Cloud\s+)?TPUs?\b",
    re.I,
)
_BARE_TPU = re.compile(r"\b(?:Cloud\s+)?TPUs?(?:[\s-]+VMs?)?\b", re.I)
_OTHER_SERVICE = re.compile(
    r"\b(?:aiplatform|vertex\s*ai|vertex|ml\s*engine|mlengine|ml\.googleapis\.com|"
    r"google\s*drive|drive\.googleapis\.com|datastore|firestore|bigquery|pub/?sub|"
    r"googleapis\.com/(?:drive|gmail|calendar|sheets|youtube|bigquery|pubsub|datastore)|"
    r"storage\.objects\.\w+|storage\.buckets\.\w+|"
    r"gcloud[.\s]+compute[.\s]+(?:ssh|scp|instances)|compute\s*vm|"
    r"(?:compute\s+engine|gce)\s+(?:vms?|instances?|virtual\s+machines?)|"
    # the same in Portuguese word order ("a VM do Compute Engine", "instância do GCE")
    r"(?:vms?|inst[âa]ncias?|m[áa]quinas?\s+virtua(?:l|is))\s+(?:comu(?:m|ns)\s+|norma(?:l|is)\s+)?"
    r"d[oa]\s+(?:compute\s+engine|gce)|"
    # a Compute Engine machine type ("an e2-standard-4", "n1-highmem-8"): a TPU VM has none
    r"(?:e2|n1|n2d?|n4|c2d?|c3d?|t2[ad])-(?:standard|highmem|highcpu)-\d{1,3}|"
    r"dataproc|dataflow|cloud\s*run|cloud\s*functions|cloud\s*workstations?|"
    # Google's model APIs and app platforms: their 403s and quotas are not a TPU's
    r"gemini|generativelanguage(?:\.googleapis\.com)?|dialogflow|firebase)\b",
    re.I,
)


# The XLA-first stacks: JAX and the libraries around it, XLA itself. They run on GPUs too, so they
# are not TPU evidence (`_TPU_EVIDENCE`), but a JAX report that names no GPU is likelier on a TPU
# than one that names nothing at all (`decide.tpu_evidence`). bfloat16 is not one: every current
# GPU trains in it, and the labelled reports that name it and nothing else (no TPU, no stack,
# no device) were GPU runs three times out of four.
_XLA_STACK = re.compile(
    r"\b(?:jax|jaxlib|flax|optax|pjit|pmap|shard_map|xla|lax\.scan|"
    r"t5x|praxis|paxml|maxtext|levanter|orbax)\b",
    re.I,
)


@dataclass(frozen=True)
class Context:
    """TPU evidence and other-context evidence found in an input (first few of each)."""

    tpu: list[str] = field(default_factory=list)
    device: list[str] = field(default_factory=list)  # another accelerator or an XLA CPU/GPU device
    service: list[str] = field(default_factory=list)  # a non-TPU Google service, or a plain VM
    stack: list[str] = field(default_factory=list)  # XLA-family words (jax, flax, pjit, xla…)
    # the devices a report's title names when it names no TPU: what the report is about, whatever
    # its body says of TPUs ("Pytorch-xla not working on GPU" above a log that names torch_xla)
    subject: list[str] = field(default_factory=list)

    @property
    def gate(self) -> str | None:
        """ "device" or "service" when the input is about something else: its title names another
        device and no TPU, or the input names another device or service and shows no TPU."""
        if self.subject:
            return "device"
        if self.tpu:
            return None
        if self.device:
            return "device"
        if self.service:
            return "service"
        return None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "gate": self.gate}


# XLA's names for the CPU it compiles for: the host of a TPU job has one too
_XLA_HOST_DEVICES = frozenset({"xla_cpu_jit", "xla_cpu"})


def tpu_host_only(context: dict[str, Any]) -> bool:
    """The input (its `Context.to_dict()`) names a TPU, and no other hardware than XLA's CPU
    device: a TPU job whose host side printed it, not a CPU or GPU run."""
    return bool(context.get("tpu")) and set(context.get("device") or ()) <= _XLA_HOST_DEVICES


def names_a_tpu_run(context: dict[str, Any]) -> bool:
    """The input (its `Context.to_dict()`) ran on a TPU by more than the bare word: a TPU job's
    host alone (`tpu_host_only`), or a TPU named by what only a TPU has (TPUStrategy, a v3-8,
    libtpu; not PyTorch/XLA, which a GPU machine may have installed), whatever other device it is
    compared with ("84% on the P100, 71% with TPUStrategy")."""
    return tpu_host_only(context) or any(
        _TPU_NAMED.fullmatch(name) and not _BARE_TPU.fullmatch(name)
        for name in context.get("tpu") or ()
    )


def xla_elsewhere(context: dict[str, Any]) -> bool:
    """The input (its `Context.to_dict()`) names no TPU, and names a device that runs XLA or
    PyTorch/XLA itself (AWS's Trainium and Inferentia through the Neuron SDK, XLA on a GPU): the
    messages those stacks share with a TPU run (PyTorch/XLA's metrics report and its
    pt-xla-profiler, XLA's compiler and allocator) were printed there."""
    return not context.get("tpu") and any(
        _XLA_ELSEWHERE.fullmatch(d) for d in context.get("device") or ()
    )


def stack_only(context: dict[str, Any]) -> bool:
    """The input (its `Context.to_dict()`) speaks an XLA-first stack (JAX, Flax, XLA…) and names
    neither a TPU nor another device: half a TPU's evidence (`decide.tpu_evidence`)."""
    return bool(context.get("stack")) and not context.get("tpu") and not context.get("device")


@lru_cache(maxsize=4096)
def without_tpu(text: str) -> bool:
    """`text` (an entry's described look-alike) is set on another device and says no TPU is
    there ("Missing XLA configuration on a GPU machine with no TPU at all", "CUDA out of memory
    on a GPU …; no TPU involved"), so it is no case for an input on a TPU alone (`tpu_host_only`).
    A look-alike that only names the device its cause was seen on ("a DataLoader with many
    workers freezes on a CPU or GPU machine") can happen on a TPU's host too, and is not one."""
    return _OTHER_DEVICE.search(text) is not None and _DISOWNED_TPU.search(text) is not None


def _found(rx: re.Pattern[str], text: str, limit: int = 5) -> list[str]:
    return list(dict.fromkeys(m.group(0).lower() for m in rx.finditer(text)))[:limit]


# JAX probes every backend it knows at start-up and logs the ones that are not there. On a GPU or
# CPU machine that log names `tpu_driver` or `tpu` with a "not registered / not found" reason, or
# says this install has no TPU client at all (libtpu.so cannot be opened; a jaxlib built without
# `get_tpu_client`): a line that says no TPU is present is not TPU evidence. A probe that reached
# a TPU and failed ("ABORTED: The TPU is already in use…", "No ba16c7433 device found") says
# something else and is kept.
_ABSENT_BACKEND_PROBE = re.compile(
    r"Unable to initialize backend '(?P<backend>[\w-]+)':\s*"
    # the status code as jaxlib spells it today (NOT_FOUND) or spelled it (Not found)
    r"(?:NOT[_ ]FOUND|INVALID[_ ]ARGUMENT|INTERNAL)?:?\s*"
    r"(?:Unable to find driver in registry|Could not find registered platform|"
    r"\w+Platform is not available|Backend '[\w-]+' is not in the list of known backends|"
    # the rest of the line names libtpu.so again ("libtpu.so: cannot open shared object file")
    r"Failed to open libtpu\.so[^\n]*|"
    # (a jaxlib without the backend's client or its allocator: 'get_tpu_client',
    # 'GpuAllocatorConfig' when the CUDA plugin does not match the jaxlib)
    r"module 'jaxlib\.xla_extension' has no attribute '\w+')"
    r"[^.\n]*",  # up to the end of the sentence: "Available platform names are: … CUDA" stays
    re.I,
)


def absent_backend_probe(line: str) -> bool:
    """`line` has JAX's start-up probe for a backend this machine or install does not have."""
    return bool(_ABSENT_BACKEND_PROBE.search(line))


# PyTorch Lightning's start-up summary names every accelerator and says which are absent ("TPU
# available: False, using: 0 TPU cores"), so a GPU run's log says TPU without being about one;
# JAX warns "No GPU/TPU found, falling back to CPU" on every CPU-only start, a laptop's included,
# and TensorFlow's platform probe logs "No TPU platform found" on every machine without one.
_ABSENT_TPU_SUMMARY = re.compile(
    r"\bTPU available:\s*False(?:,\s*using:\s*0 TPU cores)?|\bNo GPU/TPU found\b|"
    # TensorFlow's and old jaxlib's probe, with the source file that prints it
    # ("tpu_platform_interface.cc:74] No TPU platform found."); the path is tried only where a
    # path starts, so a long run of path characters is scanned once
    r"(?:(?<![\w/.-])[\w/.-]*tpu_platform_interface\.cc:\d+\]\s*)?\bNo TPU platform found\b",
    re.I,
)


# Old jaxlib's `tpu_driver` client logs that it starts a local driver before it finds none there
# ("tpu_client.py:54] Starting the local TPU driver."): with that probe's failure in the same
# log, the line is part of it.
_LOCAL_DRIVER_START = re.compile(
    r"(?:(?<![\w/.-])[\w/.-]*tpu_client\.py:\d+\]\s*)?Starting the local TPU driver\.?"
)


def _without_absent_backends(text: str) -> str:
    """`text` less the probe messages of absent backends, Lightning's "TPU available: False" and
    JAX's "No GPU/TPU found", and less other mentions of those backends' names (a title that
    quotes `tpu_driver` from the log below it), except the bare word `tpu`: neither a TPU nor
    another device is evidenced by a backend that is not there."""
    names = {m.group("backend").lower() for m in _ABSENT_BACKEND_PROBE.finditer(text)}
    if "tpu_driver" in names:
        text = _LOCAL_DRIVER_START.sub(" ", text)
    text = _ABSENT_TPU_SUMMARY.sub(" ", _ABSENT_BACKEND_PROBE.sub(" ", text))
    names.discard("tpu")
    if names:
        alternatives = "|".join(map(re.escape, sorted(names)))
        text = re.sub(rf"\b(?:{alternatives})\b", " ", text, flags=re.I)
    return text


# TPU named only as one of a list of accelerator kinds ("GPU or TPU", "CPU/GPU/TPU", "GPUs and
# TPUs"): a sentence about accelerators in general ("NumPy uses no GPU or TPU", "runs on GPU and
# TPU alike"), not a TPU the report ran on. A TPU named elsewhere in the input still counts.
_ACCELERATOR_KIND = r"(?:[CGT]PUs?)"
_ACCELERATOR_LIST = re.compile(
    rf"\b{_ACCELERATOR_KIND}(?:\s*(?:/|,|\bor\b|\band\b|&)\s*{_ACCELERATOR_KIND}){{1,3}}\b", re.I
)


def _without_accelerator_lists(text: str) -> str:
    """`text` less the lists of accelerator kinds that name a TPU beside a GPU or CPU."""

    def drop(m: re.Match[str]) -> str:
        kinds = {k[0].upper() for k in re.findall(r"[CGT]PU", m.group(0), re.I)}
        return " " if "T" in kinds and len(kinds) > 1 else m.group(0)

    return _ACCELERATOR_LIST.sub(drop, text)


# A title that compares ("slower on one v4 chip than on an RTX 3090", "but an A100 handles 128")
# names the other device as the yardstick, not as the subject.
_COMPARISON = re.compile(r"\b(?:than|vs\.?|versus|compared|comparison|while|but|whereas)\b", re.I)


def title_subject(title: str | None) -> list[str]:
    """The devices a report's heading (`parse.heading`) names, when it names no TPU and compares
    nothing: the report is about that device. In the labelled real reports, every heading of this
    kind heads a report the knowledge base does not cover. XLA's host CPU device does not count: a
    TPU job's host side prints it (`tpu_host_only`)."""
    if not title or _COMPARISON.search(title):
        return []
    context = read_context(title)
    return [] if context.tpu else [d for d in context.device if d not in _XLA_HOST_DEVICES]


# The bare word for a GPU says less than its model, its driver or its tools do
_GENERIC_DEVICES = frozenset({"gpu", "gpus"})


def _names_its_setting(device: list[str], service: list[str]) -> bool:
    """Two or more concrete names of where the run is: another device (t4, nvidia-smi, cuda…, not
    "GPU" alone) or a Google service that is not a TPU (Vertex AI, a Compute Engine VM)."""
    devices = {d.lower() for d in device} - _GENERIC_DEVICES
    return len(devices) + len({s.lower() for s in service}) >= 2


def read_context(text: str, title: str | None = None) -> Context:
    """What `text` says of its hardware and services; `title` is the report's heading when it has
    one (`parse.heading`), whose devices make the subject (`title_subject`)."""
    subject = title_subject(title)
    text = _TEMPLATE_PROMPT.sub(" ", _without_absent_backends(text))
    # another device, or PyTorch/XLA and XLA told to run on one (`PJRT_DEVICE=CUDA`, `xla:gpu`)
    device = _found(_OTHER_DEVICE, text)
    elsewhere = _found(_XLA_ELSEWHERE, text)
    device = (device + [x for x in elsewhere if not any(x in d for d in device)])[:5]
    tpu_text = _TPU_DOCUMENT.sub(" ", text)
    # A TPU the person disowns ("this is on the lab's RTX 4090 box, not the TPUs"), an Edge TPU or
    # a phone's, a TPU still only planned or already left for a GPU: its bare name elsewhere in
    # the input ("the TPU channel", "will this also happen on the TPU?") is that TPU too; what
    # only a TPU run shows (libtpu, TPUStrategy, a v4-8) still counts
    for other in (_DISOWNED_TPU, _OTHER_TPU, _PLANNED_TPU, _LEFT_TPU):
        if other.search(tpu_text):
            tpu_text = _BARE_TPU.sub(" ", other.sub(" ", tpu_text))
    # beside another device named, a TPU likened to the run or a list of accelerator kinds names
    # no Cloud TPU
    if device:
        tpu_text = _without_accelerator_lists(_NOT_CLOUD_TPU.sub(" ", tpu_text))
    evidence = _TPU_EVIDENCE
    if elsewhere:
        evidence, tpu_text = _TPU_NAMED, _PTXLA_REGISTRY.sub(" ", tpu_text)
    tpu = _found(evidence, tpu_text)
    service = _found(_OTHER_SERVICE, text)
    if _names_its_setting(device, service) and all(_BARE_TPU.fullmatch(x) for x in tpu):
        # where the run is, named twice over (a T4 and its nvidia-smi, CUDA and an A100, a T4 in
        # Vertex AI Workbench) and the TPU only by its bare name ("is there a setup step like the
        # one for TPU?"): that TPU is another machine's. Over the labelled and written sets, 27
        # look-alikes and no report in scope
        tpu = []
    return Context(
        tpu,
        device,
        service,
        _found(_XLA_STACK, text),
        subject,
    )
