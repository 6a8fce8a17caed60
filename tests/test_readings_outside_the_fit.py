"""Readings that written blind rounds taught, asserted on the whole engine with the real model.

These reports are written for the tests (in our own words, after the kinds of report the rounds
held). They are kept out of `tests/fixtures/kb`, whose inputs the confidence model is fitted on:
added there, these three moved the real reports' cross-validated hit@1 from 0.956 to 0.949 (a
fit that leans harder on signatures and profile figures, which short real symptoms lack). See the
README's lab notebook. So did a near miss for NCCL's GPU collectives, asserted below
(`SET_ASIDE`): as a fixture it moved one real report of one partition under the threshold (hit@1
0.954 to 0.949). The same held for the thirteen written from the rounds L144–L159 (`NOT_THEIRS`
and the end of `REPORTS`).
"""

from __future__ import annotations

import pytest

REPORTS = [
    (
        # one worker of a pod slice died on an error outside the guide (a shard missing from the
        # bucket); the others are said to be still running with nothing printed since: the hang
        # that follows, others-left-waiting's
        "hang-on-error",
        "gcloud compute tpus tpu-vm ssh pod-v4-32 --worker=all --command='python3 train.py'\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: Error executing an HTTP request: "
        "HTTP response code 404 with body 'No such object: my-bkt/shards/train-00211-of-00512'\n"
        "##### Command execution on worker 1 failed with exit status 1. Continuing.\n"
        "an hour later workers 0, 2 and 3 are still running python3 and nothing has been printed",
    ),
    (
        # TensorFlow on a TPU VM refused to load the runtime another process still holds, and the
        # initialization then found no TPU: tpu-connection's `tpu-held-by-another-process`
        # look-alike sets its "TPUs not found" aside for the busy device
        "hang-on-error",
        "Second run on the v3-8 TPU VM fails right away after I killed the first one with Ctrl+C:\n"
        "I0301 10:02:11.118204 4401 tpu_initializer_helper.cc:94] libtpu.so already in use by "
        "another process. Not attempting to load libtpu.so in this process.\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: TPUs not found in the cluster. "
        "Failed in initialization.",
    ),
    (
        # another product named, then the TPU's own request refused for its scopes: the TPU API
        # refused, whatever BigQuery did (create-403-scopes' `other-product-refused` look-alike
        # needs the two in one sentence with no TPU between them)
        "create-403-scopes",
        "From the same VM BigQuery queries work, but gcloud compute tpus tpu-vm create fails with "
        "ERROR: (gcloud.compute.tpus.tpu-vm.create) PERMISSION_DENIED: Request had insufficient "
        "authentication scopes.",
    ),
    (
        # a container started without the TPU's devices: the process may not open them at all,
        # which is no device another process holds (hang-on-error's "busy")
        "tpu-connection",
        "Outside Docker jax.devices() lists the v6e-4's chips; inside our training container:\n"
        "RuntimeError: Unable to initialize backend 'tpu': UNKNOWN: TPU initialization failed: "
        "open(/dev/vfio/0): Operation not permitted: Operation not permitted; Couldn't open iommu "
        "group /dev/vfio/0\n"
        "no other process uses the TPU.",
    ),
    (
        # libtpu's start-up lines and a request, in Portuguese, to quiet them
        "debug-logs",
        "toda vez que rodo o treino com torch_xla aparecem umas linhas tipo\n"
        "I0000 00:00:1712345678.123456   20413 pjrt_api.cc:100] GetPjrtApi was found for tpu at "
        "/usr/local/lib/python3.10/dist-packages/libtpu/libtpu.so\n"
        "o treino roda normal. tem como deixar isso quieto no terminal e guardar só num arquivo?",
    ),
    (
        # a trace described in Portuguese: a sliver of work, then a hole with nothing, every step,
        # with the input said to be ready
        "steps-per-execution",
        "modelo keras pequeno numa v2-8 do colab, dataset todo em cache na memória e o prefetch tá "
        "sempre cheio. no trace a TPU faz um bloquinho de ~2ms e depois um buraco de ~15ms sem "
        "nada, a cada passo. o compile é só optimizer e loss.",
    ),
    (
        # one process crashed on the person's own shape bug (outside the guide), and the run then
        # ignores Ctrl+C: the hang that follows, interrupt-ignored's
        "hang-on-error",
        "8 processes on a v3-8 with torch_xla; one prints\n"
        "RuntimeError: The size of tensor a (256) must match the size of tensor b (128) at "
        "non-singleton dimension 1\n"
        "and the whole thing just hangs and ignores Ctrl+C until I kill -9 every python",
    ),
    (
        # a chat thread (each line "[hh:mm] author: …"): one host of the pod died and Ctrl+C
        # on another did nothing ("e nada")
        "hang-on-error",
        "[09:10] lia: o treino em JAX na v4-32 parou no step 880, nenhum log faz meia hora\n"
        "[09:12] davi: será o checkpoint?\n"
        "[09:15] lia: não. dei ctrl+c no worker 0 e nada\n"
        "[09:21] lia: no worker 3 o python morreu com KeyError: 'labels' e os outros 3 ficaram "
        "esperando\n",
    ),
    (
        # the processes named as left on the other workers, after the state ("continuaram vivos
        # nos workers 0, 1 e 3"): others-left-waiting's
        "hang-on-error",
        "Numa v4-32 o worker 2 morreu com FileNotFoundError num shard do dataset. Dei Ctrl+C no "
        "meu terminal e a sessão do gcloud fechou, mas os processos python continuaram vivos nos "
        "workers 0, 1 e 3 e a TPU ficou presa por eles.",
    ),
    (
        # a chat thread: two loader processes pegged and the other cores idle, the host busy
        # producing the input ("procs")
        "input-bottleneck",
        "[14:02] max: torch_xla on a v3-8 runs at half the speed of one A100\n"
        "[14:05] eva: what does the DataLoader look like?\n"
        "[14:07] max: num_workers=2 with heavy augmentation, and htop shows 2 python procs at "
        "100%, the other 94 cores idle\n",
    ),
    # From the rounds L144–L159; kept out of the fit for the same reason as those above: as
    # fixtures, these nine and the four near misses in `NOT_THEIRS` moved the real
    # cross-validation from 0.952 / 0.972 to 0.947 / 0.970 (README, lab notebook)
    (
        # pmap's split by a variable that holds the device count, and NumPy refusing it
        "batch-or-model-too-large",
        "passei o treino do Flax pra pmap numa v4-8 e quebra na hora de dividir o lote:\n"
        "  num_devices = jax.local_device_count()\n"
        "  imgs = imgs.reshape((num_devices, -1) + imgs.shape[1:])\n"
        "ValueError: cannot reshape array of size 2558976 into shape (4,newaxis,224,224,3)\n"
        "meu lote é de 32 imagens, o último sai com 17.",
    ),
    (
        # a batch named, then said not to be a multiple of the device count
        "batch-or-model-too-large",
        "vou rodar o treino do artigo numa v5litepod-8 e o lote global do paper é 100. como isso "
        "é dividido entre os 8 chips, se 100 não é múltiplo de 8? arredondo pra 96 ou 104?",
    ),
    (
        # the others still show the process after one host crashed
        "hang-on-error",
        "Launched the same PyTorch/XLA script on all 4 hosts of a v4-32. Host 1 crashed on a bad "
        "shard path; an hour later hosts 0, 2 and 3 still show python3 at the top of htop and the "
        "log has not moved since the crash.",
    ),
    (
        "hang-on-error",
        "rodei o treino com --worker=all numa v5p-32. o worker 2 caiu com erro de arquivo, e os "
        "workers 0, 1 e 3 ainda mostram o python no htop, sem imprimir nada faz 40 minutos.",
    ),
    (
        # Ctrl+C far from what it did not do: the ssh command between
        "hang-on-error",
        "Our JAX job on a v5p-64 stalls somewhere after step 9000 and stays there.\n"
        "Ctrl+C typed into the gcloud compute tpus tpu-vm ssh --worker=all window does not stop it.\n"
        "I end up killing the processes by hand.",
    ),
    (
        # "continua vivo" after the others' numbers
        "hang-on-error",
        "v5e-16 com 4 hosts: o host 0 morreu com FileNotFoundError num shard que faltava.\n"
        "nos hosts 1, 2 e 3 o python continua vivo sem fazer nada, e o log parou há duas horas.",
    ),
    (
        # "0/1/2 just sat", and "didn't stop"
        "hang-on-error",
        "Host 3 of our v4-64 died on a corrupt TFRecord. Hosts 0/1/2 just sat at the same step for "
        "the night, and Ctrl+C on host 0 didn't stop the process; only kill -9 did.",
    ),
    (
        # a Spot TPU's describe showing it preempted: the status question's preempted answer
        "tpu-connection",
        'Overnight run on a Spot v5litepod-8 stopped logging at 03:12, and now ssh gives "Connection '
        'refused".\n$ gcloud compute tpus tpu-vm describe lite8 --zone=us-west4-a\n'
        "acceleratorType: v5litepod-8\nschedulingConfig:\n  spot: true\nstate: PREEMPTED\n"
        "Can I just start it again?",
    ),
    (
        # ... and its queued resource suspended
        "tpu-connection",
        "a fila da v6e-8 spot tinha subido ontem, hoje o treino sumiu e o describe mostra:\n"
        "$ gcloud compute tpus queued-resources describe fila-v6e --zone europe-west4-a\n"
        "state:\n  state: SUSPENDED\ntem como retomar?",
    ),
    (
        # a paragraph that tells a bug of the person's own as already fixed and then, in the next
        # sentence, the other hosts left waiting: only the fixed sentence is the story
        "hang-on-error",
        "JAX on a v5p-32, 4 hosts. Host 3 crashed on a typo in my eval code (my fault, already "
        "fixed). What bugs me is the rest: hosts 0, 1 and 2 just sat there for five hours with "
        "the chips busy and no output until I killed them by hand.",
    ),
    (
        # the Portuguese "the other processes are still alive" after one failed
        "hang-on-error",
        "torch_xla numa v4-8 com xmp.spawn: um processo deu IndexError no meu Dataset e os outros "
        "3 processos continuam vivos, parados, sem imprimir nada. Só saio com kill -9.",
    ),
    (
        # a pod's other workers that print nothing more, and a Ctrl+C "sem efeito", in Portuguese
        "hang-on-error",
        "PyTorch/XLA num v4-32 com --worker=all: o worker 1 levantou uma exceção lendo uma imagem "
        "e os outros workers não imprimem mais nada; o Ctrl+C no terminal não faz efeito.",
    ),
    (
        # Portuguese written without accents: "nao faz nada", "os outros 3 nao morreram"
        "hang-on-error",
        "jax numa v4-32 com --worker=all: o worker 1 deu erro lendo um shard e os outros 3 nao "
        "morreram, ficou tudo parado. ctrl+c no terminal nao faz nada, tive q dar kill -9.",
    ),
    (
        # the processes said alive on every worker after one host failed
        "hang-on-error",
        "T5X on a v4-32 with --worker=all: one host hit a full disk at step 1800 and the run just "
        "sits there, duty cycle 0. The python processes are still alive on all 4 workers.",
    ),
    (
        # "the other three" with no noun after it
        "hang-on-error",
        "v5p-32 with JAX, launched with --worker=all: one host died on a missing checkpoint "
        "shard and the other three just sit there, chips busy, nothing printed for an hour.",
    ),
]


@pytest.mark.parametrize(("entry", "text"), REPORTS, ids=[e for e, _ in REPORTS])
def test_the_reading_answers_its_entry(engine, entry, text):
    answer = engine.ask(text)
    assert not answer.abstained, [(r.id, r.confidence) for r in answer.results[:3]]
    assert answer.results[0].id == entry


# Near misses of an entry, kept out of the fit with the reports above: (the entry they must not
# be answered as, the report)
NOT_THEIRS = [
    (
        # a plain Compute Engine VM's describe: "status", not a TPU's "state"
        "tpu-connection",
        "My Spot n2-standard-8 that runs the data preprocessing keeps disappearing at night.\n"
        "$ gcloud compute instances describe prep-vm --zone=us-central1-a\n"
        "scheduling:\n  provisioningModel: SPOT\nstatus: TERMINATED\n"
        "Is there a way to start it automatically again?",
    ),
    (
        # packages under /Users/: a Mac, where no Cloud TPU is attached
        "tpu-connection",
        "trying the Flax MNIST example before I rent a slice. jax[tpu] installed without "
        "complaint, then:\n(.venv) rui@ruis-air examples % python3 mnist.py --platform=tpu\n"
        '  File "/Users/rui/src/flax-demo/.venv/lib/python3.12/site-packages/jax/_src/'
        'xla_bridge.py", line 1031, in backends\n'
        "RuntimeError: Unknown backend: 'tpu' requested, but no platforms that are instances of "
        "tpu are present. Platforms present are: cpu",
    ),
    (
        # JAX says the machine has an NVIDIA GPU: jax[tpu] on a GPU VM finds no TPU to reach
        "tpu-connection",
        "instalei o jax[tpu] na VM de testes (uma g2 com GPU) pra adiantar o código antes da TPU "
        "sair, e ele avisa:\nAn NVIDIA GPU may be present on this machine, but a CUDA-enabled "
        "jaxlib is not installed. Falling back to cpu.\n"
        "tenho que configurar alguma variável pra ele achar a TPU?",
    ),
    (
        # a width that is not a multiple of the 128 tile: padding; the batch divides
        "batch-or-model-too-large",
        "Keras on a v3-8, batch 1024 (128 per core). The profile shows the dense layer with 200 "
        "units padded to 256, and 200 isn't a multiple of 128. Should I pick 256 units instead?",
    ),
]


@pytest.mark.parametrize(("entry", "text"), NOT_THEIRS, ids=[e for e, _ in NOT_THEIRS])
def test_a_near_miss_is_not_answered_as_its_entry(engine, entry, text):
    answer = engine.ask(text)
    assert answer.abstained or answer.results[0].id != entry, [
        (r.id, r.confidence) for r in answer.results[:3]
    ]


# Reports where one of an entry's look-alike patterns (`excludes`) matches: (the entry, the
# weight the pattern reaches at least, what is answered after it: an entry, or None for a
# refusal, the report).
SET_ASIDE = [
    (
        # a tutorial's TPUStrategy code run on a Mac: TensorFlow asks which TPU to reach
        "tpu-connection",
        0.9,
        None,
        "Trying the TPU tutorial locally on my MacBook Pro with tensorflow-macos:\n"
        "resolver = tf.distribute.cluster_resolver.TPUClusterResolver()\n"
        "ValueError: Please provide a TPU Name to connect to.\nWhich name goes there?",
    ),
    (
        # a CI runner with no TPU asked for one
        "tpu-connection",
        0.9,
        None,
        "Our unit tests on GitHub Actions now fail: jax.devices('tpu') raises RuntimeError: "
        "Unknown backend: 'tpu' requested, but no platforms that are instances of tpu are "
        "present. Platforms present are: cpu",
    ),
    (
        # the framework run on the person's own computer, which has no TPU: tpu-connection's
        # local-computer look-alike, whatever TPU the person created in the cloud
        "tpu-connection",
        0.9,
        None,
        "Created a v5e-4 TPU and installed jax[tpu] on my ThinkPad to use it, but\n"
        ">>> jax.devices()\n[CpuDevice(id=0)]\nHow do I point jax at my TPU?",
    ),
    (
        # NVIDIA's collectives library failing to join a GPU cluster's ranks, in a report that
        # names the TPU slice the same script runs on: `nccl-collectives` sets tpu-connection
        # aside. As a fixture this near miss moved one real report of one partition under the
        # threshold (hit@1 0.954 to 0.949)
        "tpu-connection",
        0.9,
        None,
        "The JAX script that trains on our v4-16 fine, moved to two GPU nodes with 8 H100 each, "
        "stops at jax.distributed.initialize and after 10 minutes:\n"
        "E external/xla/xla/service/gpu/nccl_clique.cc:232] Timed out waiting for 4 of 16 ranks "
        "to join NCCL clique\n"
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: NCCL operation ncclCommInitRank failed: "
        "unhandled system error",
    ),
    (
        # "TransferFromDeviceTime too frequent" beside "Op(s) not lowered" is the fallback's cost:
        # steps-per-execution's `ops-not-lowered` sets it aside and op-unavailable stands
        "steps-per-execution",
        0.8,
        "op-unavailable",
        "Slow fine-tuning on a v3-8 with torch_xla; PT_XLA_DEBUG_LEVEL=1 prints every step:\n"
        "pt-xla-profiler: TransferFromDeviceTime too frequent: 812 counts during 200 steps\n"
        "pt-xla-profiler: Op(s) not lowered: aten::_ctc_loss, aten::_ctc_loss_backward,  Please "
        "open a GitHub issue with the above op lowering requests.\n",
    ),
    (
        # targets shuffled apart from their features in a report that also talks of fixed batch
        # sizes and per-core splits: accuracy-drop's `shuffled-apart` names the person's
        # pipeline, and the answer is refused whichever entry the rest of the words lean to
        # (`decide.displaced`)
        "accuracy-drop",
        0.9,
        None,
        "CIFAR-10 on a v2-8 with TPUStrategy: train loss barely moves and val acc sits at 0.1. "
        "Could the per-core split of the batch or a shape issue explain it? Input code:\n"
        "feats = tf.data.Dataset.from_tensor_slices(features).shuffle(4096)\n"
        "targets = tf.data.Dataset.from_tensor_slices(labels).shuffle(4096)\n"
        "train = tf.data.Dataset.zip((feats, targets)).batch(512, drop_remainder=True)\n",
    ),
]


@pytest.mark.parametrize(
    ("entry", "weight", "answered", "text"), SET_ASIDE, ids=[e for e, *_ in SET_ASIDE]
)
def test_a_look_alike_pattern_sets_its_entry_aside(engine, entry, weight, answered, text):
    assert engine.retrieve(text).evidence[entry].exclude >= weight
    answer = engine.ask(text)
    if answered is None:
        assert answer.abstained
    else:
        assert not answer.abstained and answer.best.id == answered


def test_a_busy_device_is_still_a_process_holding_the_tpu(engine):
    text = (
        "RuntimeError: Unable to initialize backend 'tpu': UNKNOWN: TPU initialization failed: "
        "open(/dev/vfio/0): Device or resource busy: Device or resource busy; Couldn't open iommu "
        "group /dev/vfio/0\n"
        "ps aux shows the python3 of my previous run still alive"
    )
    assert engine.ask(text).results[0].id == "hang-on-error"


# Reports refused with a reading outside the guide, asserted on the whole engine: (the kind read,
# the report).
REFUSED_OUTSIDE = [
    (
        # a TPU VM's script refused by BigQuery for its scopes, told in a sentence:
        # create-403-scopes' `other-product-refused` look-alike contests its signature
        "api_access",
        "Our v4-8 TPU VM trains fine, but at the end of each epoch the script inserts metrics "
        "into a BigQuery table and that call fails with a 403 about insufficient authentication "
        "scopes. The service account has BigQuery Data Editor.",
    ),
    (
        # a loss whose labels have another shape than the model's output, every size known: the
        # person's code on any device, not a shape the TPU cannot compile. TensorFlow gives the
        # op's message on the line after "Node: '…'", which is read as a key line
        "shape_mismatch",
        "Keras on a v3-8 with TPUStrategy, first step fails:\n"
        "tensorflow.python.framework.errors_impl.InvalidArgumentError: Graph execution error:\n"
        "\n"
        "Detected at node 'binary_crossentropy/mul' defined at (most recent call last):\n"
        '    File "/home/ana/train.py", line 40, in <module>\n'
        "      model.fit(ds, epochs=3)\n"
        "Node: 'binary_crossentropy/mul'\n"
        "Incompatible shapes: [32,5] vs. [32,1]\n"
        "\t [[{{node binary_crossentropy/mul}}]]\n"
        "Do TPUs need static shapes here?",
    ),
    (
        # the run stops at the end of an epoch with no error because the master alone calls
        # `xm.rendezvous`: the person's code, not a worker that died (hang-on-error)
        "one_process_collective",
        "torch_xla on a v3-8 with xmp.spawn. After the first epoch everything stops: no error, the "
        "TPU sits idle. End of the epoch loop:\n"
        "    if xm.is_master_ordinal():\n"
        "        acc = evaluate(model, val_loader)\n"
        "        xm.rendezvous('eval_done')\n"
        "        xm.save(model.state_dict(), 'ckpt.pt')\n"
        "Is a core hung?",
    ),
    (
        # a plain Python error of the person's own data on a TPU run: the same on any machine
        "python_error",
        "torch_xla on a v4-8: after a few hundred steps the loader dies, always at another step:\n"
        '  File "/home/me/seg/dataset.py", line 41, in __getitem__\n'
        "    h, w = image.shape[:2]\n"
        "AttributeError: 'NoneType' object has no attribute 'shape'\n"
        "Does XLA dislike unknown dimensions?",
    ),
    (
        # pip installing the frameworks and listing the packages that now disagree
        "install",
        "Setting up torch_xla on a fresh v5e TPU VM and pip ends with:\n"
        "ERROR: pip's dependency resolver does not currently take into account all the packages "
        "that are installed. This behaviour is the source of the following dependency "
        "conflicts.\n"
        "torchaudio 2.4.1 requires torch==2.4.1, but you have torch 2.4.0 which is incompatible.\n"
        "Will the TPU still connect?",
    ),
    (
        # a path that does not exist, below a profile figure of an earlier run: the figure does
        # not explain the error line
        "storage_missing",
        "My TF job on a v4-8 looked input-bound in the profiler (TPU idle ~85%), so I rewrote the "
        "pipeline with interleave, and now it fails at once:\n"
        "tensorflow.python.framework.errors_impl.NotFoundError: gs://my-data/imgnet/train-00000-"
        "of-01024; No such file or directory\nIs GCS too slow?",
    ),
]


@pytest.mark.parametrize(("kind", "text"), REFUSED_OUTSIDE, ids=[k for k, _ in REFUSED_OUTSIDE])
def test_a_reading_outside_the_guide_refuses_the_report(engine, kind, text):
    answer = engine.ask(text)
    assert answer.abstained
    assert answer.facts.outside is not None and answer.facts.outside["kind"] == kind


def test_the_profilers_verdict_from_a_gpu_run_is_no_tpu_evidence(engine):
    """TensorBoard's profiler says "Your program is HIGHLY input-bound" for GPU runs too: beside
    a GPU and no TPU, the context gate refuses it (input-bottleneck's profiler signatures are no
    TPU evidence)."""
    text = (
        "Overview of our Vertex AI job (a2-highgpu-1g, 1 x NVIDIA A100):\n"
        "Average Step Time: 212.4 ms\n"
        "Device type: GPU\n"
        "Your program is HIGHLY input-bound because 63.7% of the total step time sampled is "
        "waiting for input. Therefore, you should first focus on reducing the input time.\n"
        "What should we change in the tf.data pipeline?"
    )
    assert engine.ask(text).abstained


def test_the_next_run_on_worker_0_is_no_program_started_on_one_host(engine):
    """A run said to fail "on worker 0" names where it failed, not a program started on one
    host of the slice (tpu-connection's one-host-of-a-pod needs "only")."""
    text = (
        "v4-32, launched on all hosts with --worker=all. Worker 2 died on a DataLossError, and "
        "workers 0, 1 and 3 just sit there; Ctrl+C does nothing. After kill -9 the new run on "
        "worker 0 refuses to start because the TPU is still in use."
    )
    assert engine.ask(text).results[0].id == "hang-on-error"
