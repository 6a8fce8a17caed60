"""Normalizing noisy pasted text and pulling facts out of it."""

from __future__ import annotations

import pytest

from assistant.text.normalize import MAX_LINE, normalize, strip_ansi
from assistant.text.parse import parse, query_views, searchable, select_key_lines, unread_script


def test_strips_ansi_timestamps_and_prefixes():
    raw = (
        "\x1b[31m2026-03-02 11:04:12.118 W tensorflow/core/framework/op_kernel.cc:1830] "
        "OP_REQUIRES failed\x1b[0m\r\n"
        "I0302 11:04:12.118123 140 tpu.cc:88] Initializing the TPU system\n"
        "WARNING:tensorflow:something\n"
        "(vm)$ gcloud compute tpus tpu-vm list --zone us-central1-b\n"
        "\x1b]8;;http://evil\x07link\x1b]8;;\x07\n"
    )
    n = normalize(raw)
    assert n.lines == [
        "OP_REQUIRES failed",
        "Initializing the TPU system",
        "something",
        "gcloud compute tpus tpu-vm list --zone us-central1-b",
        "link",
    ]
    assert n.line_numbers == [1, 2, 3, 4, 5]
    assert strip_ansi("\x1b[1;32mok\x1b[0m") == "ok"


def test_a_chat_message_keeps_its_words_without_its_time_and_author():
    raw = (
        "[10:30] ola: ViT-B on the v3-8 does 1.1 it/s\n"
        "[9:05 AM] bruno.s: num_workers?\n"
        "[10:41] ERROR: a log line keeps its severity word\n"
    )
    assert normalize(raw).lines == [
        "ViT-B on the v3-8 does 1.1 it/s",
        "num_workers?",
        "[10:41] ERROR: a log line keeps its severity word",
    ]


def test_a_chat_messages_header_is_no_title_nor_key_line():
    """Discord copies who wrote and when on a line of its own ("kenji — Today at 10:05"): the
    first one was taken as the report's title."""
    lines = ["kenji — Today at 10:05", "our JAX job on a v5litepod-8 is weirdly slow"]
    for n in range(6):
        lines += [f"sara — Today at 10:{10 + n}", f"message {n} about the data loader"]
    norm = normalize("\n".join(lines))
    texts = [text for _, text in select_key_lines(norm)]
    assert not any("Today at" in text for text in texts)
    assert query_views(norm, parse(norm))["head"] != lines[0]


def test_invalid_utf8_and_control_characters():
    n = normalize(b"\xff\xfeResourceExhaustedError\x00\x07: hbm\n")
    assert "ResourceExhaustedError" in n.text and "\x00" not in n.text


def test_long_line_is_cut_and_flagged():
    n = normalize("x" * (MAX_LINE * 3))
    assert n.truncated and len(n.lines[0]) == MAX_LINE


def test_facts_from_a_tensorflow_trace():
    raw = """Traceback (most recent call last):
  File "/home/me/train.py", line 42, in <module>
    model.fit(ds, epochs=3)
  File "/usr/lib/python3/dist-packages/tensorflow/python/eager/execute.py", line 54, in quick_execute
tensorflow.python.framework.errors_impl.NotFoundError: No registered 'StringSplitV2' OpKernel for XLA_TPU_JIT devices compatible with node {{node StringSplit/StringSplitV2}}
"""
    f = parse(raw)
    assert f.exceptions[0]["type"].endswith("NotFoundError")
    assert f.op_names == ["StringSplitV2"] and f.nodes == ["StringSplit/StringSplitV2"]
    assert f.frameworks == ["tensorflow"]
    assert f.key_lines[-1]["line"] == 5


def test_pytorchs_op_names_name_pytorch():
    """A pasted PyTorch/XLA metrics report names no framework in words, only its aten:: ops."""
    report = "Counter: aten::upsample_nearest2d_backward\n  Value: 1200"
    assert parse(report).frameworks == ["pytorch"]
    assert parse("pt-xla-profiler: Op(s) not lowered: aten::_unique2").frameworks == ["pytorch"]
    assert parse("ATen is a tensor library").frameworks == []


def test_facts_names_and_numbers():
    f = parse(
        "gcloud compute tpus tpu-vm ssh my-tpu-1 --zone=europe-west4-a --project my-proj-123\n"
        "ssh: connect to host 34.91.136.59 port 22: Connection timed out\n"
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Used 17.31G of 15.48G hbm "
        "on a v3-8 with batch_size=1024"
    )
    assert (f.tpu_name, f.zone, f.project) == ("my-tpu-1", "europe-west4-a", "my-proj-123")
    assert f.ip == "34.91.136.59" and f.accelerator_type == "v3-8" and f.tpu_generation == "v3"
    assert f.status_codes == ["RESOURCE_EXHAUSTED"] and "jax" in f.frameworks
    assert {"value": 17.31, "unit": "G", "text": "17.31G"} in f.numbers
    assert f.batch_size == 1024


def test_a_tpu_name_given_in_words_is_read():
    for text, name in [
        ("tpu v5litepod-8 named my-tpu in zone us-west4-a, batch size 256", "my-tpu"),
        ('I created a v4-8 TPU named "exp-7" yesterday', "exp-7"),
        ("TPU name: trainer-2", "trainer-2"),
        ("my TPU is called `trainer` and it hangs", "trainer"),
        ("criei uma TPU chamada tpu-1 na zona europe-west4-a", "tpu-1"),
        ("training on a v4-8 named trainer-3 in us-central2-b", "trainer-3"),
        ("uma v5litepod-16 chamada exp-9 trava", "exp-9"),
        ('o nome da TPU é "treino"', "treino"),
        (
            "failed to connect on grpc://10.240.1.2:8470, my tpu is my-node in europe-west4-a",
            "my-node",
        ),
        ("minha TPU é a exp-2 e trava", "exp-2"),
    ]:
        assert parse(text).tpu_name == name, text


def test_a_project_given_in_words_is_read():
    for text, project in [
        ("the TPU in europe-west4-a, project ml-team-42, hangs at startup", "ml-team-42"),
        ("my GCP project is 'vision' and tpu-vm create fails", "vision"),
        ("no projeto treino-123 a TPU v4-8 trava", "treino-123"),
        ("our project: research-2024", "research-2024"),
        (
            "[core]\naccount = me@example.com\nproject = my-ml-proj\n",
            "my-ml-proj",
        ),  # gcloud config list
    ]:
        assert parse(text).project == project, text
    for text in [
        "the project settings look fine",  # a bare word: only quoted, or with a digit or hyphen
        "project-level IAM denies it",
        "my project is fine",
        "the project is 2 years old",
        "project ML-Team-42",  # a project id is lower case
        "In the project common-instance metadata, set enable-oslogin",  # no digit, not quoted
        "--image-family centos-7 --image-project centos-cloud",  # another project's images
    ]:
        assert parse(text).project is None, text


def test_words_after_named_or_called_that_are_no_tpu_name_are_not_read():
    for text in [
        "a TPU called from Python hangs",  # a bare word: only quoted, or with a digit or hyphen
        "the VM named Data hangs",
        "my TPU named v3-8 runs out of memory",  # an accelerator type, not a name
        'a TPU named "v5litepod-16"',
        "node called my_tpu",  # no underscore in a TPU's name
        "a v3-8 called from a notebook",
        "my TPU is v4-8",  # an accelerator type
        "my tpu is stuck",
    ]:
        assert parse(text).tpu_name is None, text


def test_key_lines_of_a_long_log_skip_the_noise():
    noise = [f"I0302 11:04:{i % 60:02d}.1 1 x.cc:1] step {i} loss=0.{i}" for i in range(5000)]
    raw = "\n".join(
        [
            *noise[:2500],
            "ResourceExhaustedError: Ran out of memory in memory space hbm",
            *noise[2500:],
        ]
    )
    f = parse(raw)
    assert any("memory space hbm" in k["text"] for k in f.key_lines)
    assert len(f.key_lines) <= 12 and f.line_count == 5001


def test_the_message_after_a_remote_task_prefix_is_a_key_line():
    # TensorFlow names the TPU worker that failed and says what went wrong on the next line, whose
    # words need not look like an error
    prose = [
        f"Step {i}: I tried setting option {i} of the input pipeline again." for i in range(30)
    ]
    raw = "\n".join(
        [
            "Colab TPU cannot read my bucket",
            *prose[:15],
            "InternalError: From /job:tpu_worker/replica:0/task:0:",
            "The filesystem registered under the 'gs://' scheme was not the one expected.",
            *prose[15:],
        ]
    )
    texts = [k["text"] for k in parse(raw).key_lines]
    assert any("registered under the 'gs://' scheme" in t for t in texts)
    # an exception whose message is on its own line is not followed that way
    raw = raw.replace("From /job:tpu_worker/replica:0/task:0:", "something failed here")
    texts = [k["text"] for k in parse(raw).key_lines]
    assert not any("registered under the 'gs://' scheme" in t for t in texts)


def test_a_line_logged_as_fatal_is_a_key_line_whatever_its_words():
    # the process died on that line: its words ("not available in this library", "Check failed")
    # need not be error words, and the log's prefix that said FATAL is stripped like any other
    prose = [
        f"I tried setting option {i} of the tensorboard writer, nothing changed." for i in range(30)
    ]
    raw = "\n".join(
        [
            "tensorboard cannot be used together with torch_xla on the TPU VM",
            *prose[:15],
            "2022-07-27 22:22:08.203925: F ./tensorflow/core/tpu/tpu_library_init_fns.inc:100] "
            "TpuEmbeddingEngine_CollateMemory not available in this library.",
            "F0727 22:22:08.203925 367166 pjrt_client.cc:41] Check failed: client != nullptr",
            "FATAL:absl:the writer thread died",
            "E0727 22:22:08.203925 367166 other.cc:9] some error-level line",
            *prose[15:],
        ]
    )
    n = normalize(raw)
    assert [n.lines[i][:20] for i in sorted(n.fatal)] == [
        "TpuEmbeddingEngine_C",
        "Check failed: client",
        "the writer thread di",
    ]
    # every line that had a log prefix is known as such, whatever its severity
    assert {n.lines[i][:20] for i in n.logged} >= {
        "TpuEmbeddingEngine_C",
        "Check failed: client",
        "some error-level lin",
    }
    assert not n.logged & {i for i, line in enumerate(n.lines) if line in prose}
    keys = [k["text"] for k in parse(n).key_lines]
    assert any("not available in this library" in k for k in keys)
    assert any("Check failed" in k for k in keys)


def test_key_lines_leave_out_the_framing_of_a_traceback():
    # "Traceback (most recent call last):" and the chained-exception banners are in every Python
    # report; as key lines their words ("call", "last") matched the hang entry's text
    raw = "\n".join(
        [
            "Matrix product on the TPU differs from NumPy",
            "",
            *[f"print('line {i}')" for i in range(20)],
            "Traceback (most recent call last):",
            '  File "/home/me/check.py", line 21, in <module>',
            "    assert np.allclose(z, z_)",
            "AssertionError",
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "Traceback (most recent call last):",
            '  File "/home/me/check.py", line 23, in <module>',
            "    raise SystemExit(1)",
            "SystemExit: 1",
        ]
    )
    texts = [k["text"] for k in parse(raw).key_lines]
    assert "AssertionError" in texts and "SystemExit: 1" in texts
    assert not any("most recent call" in t or "During handling" in t for t in texts)


def test_key_lines_of_a_pasted_json_error_body_are_its_message():
    # the lines that only open a JSON field carry nothing; the one saying who lacks which access
    # is the decisive line, and it has none of the usual error words
    raw = "\n".join(
        [
            "Reading the checkpoint from the bucket fails",
            *[f"I1203 10:00:{i:02d} reading shard {i}" for i in range(12)],
            "NotFoundError: Failed to get matching files on gs://b/ckpt: Permission denied: 403",
            '{ "error": {',
            '  "errors": [',
            '    { "domain": "global", "reason": "forbidden",',
            '      "message": "sa@x.iam.gserviceaccount.com does not have storage.objects.list '
            'access to b." }',
            "  ],",
        ]
    )
    texts = [k["text"] for k in parse(raw).key_lines]
    assert any("does not have storage.objects.list access" in t for t in texts)
    assert not any(t.strip() in ('"errors": [', '{ "error": {') for t in texts)


def test_language_detection():
    assert parse("a memória da TPU acabou durante o treino").lang == "pt"
    assert parse("the TPU ran out of memory during training").lang == "en"
    # the "e" of a TPU generation or of a learning rate is not Portuguese's "and"
    rows = "\n".join(f"/dev/vfio/{i}  TPU v6e chip  1  2311" for i in range(4))
    assert parse(f"TPU Chips\n{rows}").lang == "en"
    assert parse("slow on v5e: lr 3e-4, warmup 1e3 steps, same on the v6e").lang == "en"
    assert parse("a TPU v6e fica parada e o treino não anda").lang == "pt"
    # a Portuguese sentence before the English error it pastes is a Portuguese report
    pasted = (
        "rodando no TPU VM e dá 403 ao ler meu bucket:\nAccessDeniedException: 403 "
        "sa@proj.iam.gserviceaccount.com does not have storage.objects.list access to the bucket."
    )
    assert parse(pasted).lang == "pt"
    assert parse("Slow input, e.g. a Python generator, on the TPU of the cluster").lang == "en"
    # a loan word's two accents are one word of evidence, against the English "on" beside it
    assert parse("Résumé parser hangs on TPU").lang == "en"


def test_plain_text_keeps_identifiers():
    from assistant.text.markdown import plain

    assert (
        plain("Set **`drop_remainder=True`** ([docs](https://x))")
        == "Set drop_remainder=True (docs)"
    )


@pytest.mark.parametrize(
    ("text", "script"),
    [
        ("训练速度特别慢，一个多小时才两百步，设备是 tpu-v3", "Chinese/Japanese"),
        ("Ошибка при запуске обучения на TPU: устройство не найдено", "Cyrillic"),
        ("TPU 학습이 너무 느립니다. 도와주세요", "Korean"),
        # a log read as it is: a few foreign letters in a path or a formula are not the prose
        ("RuntimeError: Ran out of memory in memory space hbm at /home/用户/train.py line 3", None),
        ("the loss is α·L1 + β·L2 and it diverges on the TPU after step 300", None),
        ("não consigo conectar à TPU, a sessão cai após alguns minutos", None),
        ("", None),
    ],
)
def test_unread_script(text, script):
    assert unread_script(text) == script
    assert parse(normalize(text)).other_script == script


def test_web_addresses_are_searched_by_the_words_of_their_paths():
    """`https`, `blob`, `master` of a GitHub address matched entries that quote addresses or a
    TensorFlow "master"; the host and the path's words stay, an rpc address stays whole."""
    text = (
        "see https://github.com/tensorflow/models/blob/master/official/nlp/transformer/"
        "transformer_main.py and https://cloud.google.com/tpu/docs/troubleshooting?hl=en#top "
        "on grpc://10.240.1.2:8470"
    )
    assert searchable(text) == (
        "see github tensorflow models official nlp transformer transformer_main.py and "
        "cloud google tpu docs troubleshooting on grpc://10.240.1.2:8470"
    )
    # a screenshot's address names no problem: its ids and hashes are not words
    shot = "![error](https://user-images.githubusercontent.com/61932757/152167745-4ce0449f-b1afd00d82e7.png)"
    assert searchable(shot) == "![error](user-images githubusercontent)"
    assert searchable("https://huggingface.co/bert-base-uncased/resolve/main/config.json") == (
        "huggingface co bert-base-uncased resolve config.json"
    )


def test_the_views_of_a_report_are_searchable_text():
    text = "Low TPU usage\n\nhttps://github.com/org/repo/issues/12\n" + "more prose\n" * 20
    norm = normalize(text)
    views = query_views(norm, parse(norm))
    assert all("https" not in v and "issues" not in v for v in views.values())


def test_oom_is_searched_with_what_it_stands_for():
    assert searchable("MultiSteps OOM on TPU; it OOMs; zoom") == (
        "MultiSteps OOM (out of memory) on TPU; it OOMs (out of memory); zoom"
    )


@pytest.mark.parametrize(
    ("text", "batch"),
    [
        ("python run_pretraining.py --train_batch_size=256 --max_seq_length=128", 256),
        ("train_batch_size 512, eval_batch_size 8", 512),
        ("--eval_batch_size=8 --train_batch_size=1024", 1024),
        ("FLAGS.training_batch_size = 64", 64),
        ("global_batch_size: 4096", 4096),
        ("batch size of 128 on a v3-8", 128),
    ],
)
def test_batch_size_reads_training_flags(text, batch):
    assert parse(text).batch_size == batch


@pytest.mark.parametrize(
    "text", ["--eval_batch_size=8", "predict_batch_size 16", "microbatch 4", "minibatch_size=2"]
)
def test_batch_size_skips_other_batches(text):
    assert parse(text).batch_size is None


@pytest.mark.parametrize(
    ("text", "batch"),
    [
        ("MXU 9%, step time 20 ms with per-core batch 8", None),
        ("batch of 32 per device on a v5e-8", None),
        ("lote de 16 por núcleo", None),
        # the global batch named after a per-core one is the one taken
        ("per core batch 8, so batch size 64 in total", 64),
    ],
)
def test_a_batch_per_core_is_not_the_global_batch(text, batch):
    assert parse(text).batch_size == batch


def test_described_symptoms_are_key_lines_of_a_prose_report():
    """A report told in prose has few error words: the sentences that describe the symptom (slow,
    recompiling, idle, frozen) are its key lines, not only the title and a stray "error"."""
    prose = [
        "Training gets worse after a few hundred steps",
        "",
        "We moved our speech model to a v4-8 last week and set up the loop as in the examples.",
        "The data comes from a bucket in the same region, and the first epoch looks normal.",
        "Our team checked the configuration twice with the usual tools and found nothing odd.",
        "After about 300 steps every step gets much slower, about ten times the first ones.",
        "The metrics report shows the graph is recompiled at almost every step from then on.",
        "Meanwhile the TPU sits idle for most of each step according to the trace.",
        "We also tried a smaller learning rate, which made no difference at all.",
        "Another run with a fixed seed behaved the same way on a second machine.",
        "The loss itself keeps going down as expected, only the speed is the problem.",
        "Earlier we saw an error about a missing file, but that was fixed already.",
        "Any pointers would be appreciated.",
        "The code is private but we can share parts of it.",
    ]
    texts = [k["text"] for k in parse("\n".join(prose)).key_lines]
    assert texts[0] == prose[0]
    for line in (prose[5], prose[6], prose[7]):
        assert line in texts
    assert prose[8] not in texts and prose[9] not in texts


@pytest.mark.parametrize(
    ("greeting", "thanks"),
    [
        ("Oi Thiago,", "Valeu!"),
        ("Olá Prof. Renato,", "Abraços,"),
        ("Hi team,", "Thanks in advance,"),
        ("Hello all", "Cheers, Ana"),
    ],
)
def test_a_greeting_or_a_thank_you_is_no_key_line(greeting, thanks):
    """An email's or a chat post's greeting is not the report's title, and neither it nor the
    thanks at the bottom takes the place of a line that tells the problem."""
    body = [
        "preciso de uma segunda opinião sobre o treino que portei para a v3-8 semana passada.",
        "A acurácia de validação ficou cinco pontos abaixo da que a V100 dava no mesmo número de épocas.",
        "Usei o mesmo batch global e a mesma taxa de aprendizado da GPU, sem mudar nada.",
    ] + [f"Detalhe {n}: o pipeline de dados é o mesmo e a seed também." for n in range(12)]
    norm = normalize("\n".join([greeting, "", *body, "", thanks]))
    texts = [text for _, text in select_key_lines(norm)]
    assert greeting not in texts and thanks not in texts
    assert body[0] in texts
    assert query_views(norm, parse(norm))["head"] != greeting


@pytest.mark.parametrize(
    "first",
    [
        "Hi, my TPU hangs at start-up",
        "Hello world crashes on TPU",
        "Thanks to XLA the step is slow",
    ],
)
def test_a_title_that_starts_with_a_greeting_word_is_still_a_title(first):
    norm = normalize("\n".join([first, "", "jax.devices() never returns", "on a v4-8 VM"]))
    assert query_views(norm, parse(norm))["head"] == first


def test_memory_reports_are_key_lines_of_a_long_log():
    """XLA's memory report lines name no error but decide a report: the padding blow-up, the
    reservation that failed."""
    log = [f"I1203 10:00:{i:02d} step {i} loss=1.{i}" for i in range(30)]
    log[12] = "Extra memory due to padding: 11.25G (24.0x expansion)"
    log[20] = "Attempting to reserve 6.10G at the bottom of memory. That was not possible."
    texts = [k["text"] for k in parse("\n".join(["Training stops on a v3-8", "", *log])).key_lines]
    assert log[12] in texts and log[20] in texts


def test_a_run_that_would_not_stop_said_after_a_long_log_is_a_key_line():
    """A person's note under the log that Ctrl-C did not stop it, or that nothing came after, tells
    the problem the log does not."""
    log = [f"I1203 10:00:{i:02d} step {i} loss=1.{i}" for i in range(30)]
    note = "(an hour now. Ctrl-C only ends my ssh session, python3 stays on the other hosts)"
    quiet = "nothing after that line for 40 minutes"
    texts = [k["text"] for k in parse("\n".join(["pod run", "", *log, note])).key_lines]
    assert note in texts
    texts = [k["text"] for k in parse("\n".join(["pod run", "", *log, quiet])).key_lines]
    assert quiet in texts


def test_what_every_start_prints_and_code_that_raises_are_no_key_lines():
    """The notes a healthy start prints, which people often blame, and Python source that names an
    exception without being one, are not what a report is about; the error below them is."""
    noise = [
        "2024-04-22 08:14:10.553120: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:9261]"
        " Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when"
        " one has already been registered",
        "2024-03-27 11:40:03.266012: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38]"
        " TF-TRT Warning: Could not find TensorRT",
        "WARNING:root:libtpu.so and TPU device found. Setting PJRT_DEVICE=TPU.",
        "/usr/lib/python3.10/site-packages/transformers/utils/generic.py:441: UserWarning:"
        " torch.utils._pytree._register_pytree_node is deprecated.",
        "  warnings.warn(",
        "except ValueError:",
        "    raise e.with_traceback(filtered_tb) from None",
    ]
    error = "ValueError: No files matched pattern: gs://bucket/trian-*"
    texts = [k["text"] for k in parse("\n".join(["Job dies at start", *noise, error])).key_lines]
    assert texts == ["Job dies at start", error]
    # a warning that tells the problem stays: it is not one of those notes
    slow = "UserWarning: TPU backend initialization is taking more than 60.0 seconds."
    assert slow in [k["text"] for k in parse("\n".join([*noise, slow])).key_lines]


def test_tpu_generation_is_not_a_software_version():
    # a TensorFlow build string and a library's major version are not TPU generations
    assert (
        parse("TensorFlow version: v2.2.0-0-g2b96f3662b\nIs GPU used? TPU used").tpu_generation
        is None
    )
    assert parse("Keras v3 on a TPU v4 VM").tpu_generation == "v4"
    assert parse("the job runs on TPU v3.").tpu_generation == "v3"
    # nor is an API's version in its URL
    url = "HttpError 403 when requesting https://tpu.googleapis.com/v2/projects/p/locations/z/nodes"
    assert parse(url).tpu_generation is None


def test_an_accelerator_type_inside_a_tpu_name_is_no_accelerator_type():
    # a TPU named after its type ("exp-v5e-8", "nodeId=ws-v3-01") names no type; the flag does
    create = (
        "gcloud compute tpus tpu-vm create exp-v5e-8 --zone=us-central1-a "
        "--accelerator-type=v5litepod-8 --version=v2-alpha-tpuv5-lite"
    )
    assert parse(create).accelerator_type == "v5litepod-8"
    assert parse("nodes?nodeId=ws-v3-01&alt=json returned 403").accelerator_type is None
    # a capacity message's "tpu-v4-8" and a type standing alone still are
    assert parse("Failed to acquire resources in us-central2-b for tpu-v4-8").accelerator_type == (
        "v4-8"
    )
    assert parse("PyTorch/XLA FSDP on TPU-v3-8 VM").accelerator_type == "v3-8"
    assert parse("training on a v4-32, loss is NaN").accelerator_type == "v4-32"


@pytest.mark.parametrize(
    ("text", "framework", "version"),
    [
        ("I upgraded jax from 0.4.25 to 0.4.26 and now jax.devices() hangs", "jax", "0.4.25"),
        (
            "moving from torch==2.6.0.dev20241106+cpu to torch==2.6.0.dev20241107, torch_xla "
            "takes 2.5x the HBM",
            "pytorch",
            "2.6.0.dev20241106",
        ),
        ("works fine with torch_xla 2.4 but not 2.5 on my v4-8", "pytorch", "2.4"),
        ("Atualizei o jax de 0.4.25 pra 0.4.31 e agora dá RESOURCE_EXHAUSTED", "jax", "0.4.25"),
    ],
)
def test_the_release_that_last_worked_fills_the_version_to_go_back_to(text, framework, version):
    facts = parse(normalize(text))
    assert facts.previous_release == {"framework": framework, "version": version}
    assert facts.values()["framework_version"] == version


@pytest.mark.parametrize(
    "text",
    [
        # a version number without a framework: some other library's release
        "after upgrading from 0.8.0 to 0.8.1 the multislice job hangs with jax",
        # the release of one framework while another is named too: which install it pins is unsure
        "upgraded jax from 0.4.25 to 0.4.26; torch is also installed in the image",
        # a version in use, not one left behind
        "I use TF 2.3 to train my model on a TPU",
        "jax 0.4.30 on a v5e-8: the train step recompiles at every batch",
    ],
)
def test_no_version_to_go_back_to_unless_the_report_says_which_worked(text):
    assert "framework_version" not in parse(normalize(text)).values()


@pytest.mark.parametrize(
    ("text", "clearly"),
    [
        ("minha TPU trava no primeiro passo", True),
        ("a TPU v4 não conecta", True),
        ("My name is José and my TPU hangs", False),  # one accent in a name
        ("Résumé screening model hangs", False),  # two accents, one word
        ("How do I fix the TPU OOM?", False),
        ("I1206 03:00:00.000 123 step 0 loss 0.16 lr 0.001 throughput 1234.5 examples/sec", False),
    ],
)
def test_clearly_portuguese_needs_more_than_an_accent(text, clearly):
    from assistant.text.parse import clearly_portuguese

    assert clearly_portuguese(text) is clearly


def test_an_api_error_printed_as_yaml_is_a_key_line():
    # `gcloud … queued-resources describe` prints the failure under failedData, as YAML
    raw = "\n".join(
        [
            "queued resource goes FAILED right away",
            "",
            "state:",
            "  state: FAILED",
            "  failedData:",
            "    error:",
            "      code: 8",
            "      message: \"Quota limit 'TPUV5PPodPerProjectPerZoneForTPUAPI' has been exceeded.\"",
            *[f"  field{i}: value{i}" for i in range(12)],
        ]
    )
    assert any("Quota limit" in k["text"] for k in parse(raw).key_lines)


def test_a_state_that_is_not_running_is_a_key_line():
    # gcloud's `describe` of a queued resource or a TPU: the state line says what happened
    raw = (
        "$ gcloud compute tpus queued-resources describe qr-1 --zone=us-east5-a\n"
        "createTime: '2024-06-03T09:14:52Z'\n"
        "state:\n"
        "  state: WAITING_FOR_RESOURCES\n"
        "tpu:\n"
        "  nodeSpec: []\n"
    )
    lines = [text for _, text in select_key_lines(normalize(raw))]
    assert "state: WAITING_FOR_RESOURCES" in lines
    assert parse(raw).outside["kind"] == "capacity"


@pytest.mark.parametrize(
    "line",
    [
        "Last week it OOMed at batch 4096; I went down to 2048 and it fits now, that part is fine.",
        "Issue 1 (solved): loss became NaN after a few hundred steps.",
        "I first got an error about a dynamic batch dimension, fixed with drop_remainder=True.",
        "RESOURCE_EXHAUSTED during compilation (fixed by lowering per_device_batch_size).",
        "[22:56] gabriel: o KeyError eu já corrigi. a dúvida é outra",
        "Resolvi o erro de conexão: faltava o --net=host no container",
        "Essa parte tá resolvida, não preciso de ajuda com ela.",
    ],
)
def test_a_line_that_says_its_problem_is_fixed_is_read_so(line):
    norm = normalize(line + "\nNow training is slow on the v4-8")
    assert parse(norm).resolved_lines == [1]


@pytest.mark.parametrize(
    "line",
    [
        "I thought that was fixed, but it still OOMs at batch 2048",
        "seq len 37 (fixed), global batch 512 on a v3-8",
        "The 128 is fixed by parse_line, so the filter is what breaks it",
        "resolvi testar a TPU v3-8 do Kaggle na competição",
        "ainda não resolvi o erro de conexão",
    ],
)
def test_a_line_that_leaves_its_problem_open_is_not_read_as_fixed(line):
    assert parse(normalize(line)).resolved_lines == []


def test_a_message_on_a_line_said_fixed_is_no_reading_outside_the_guide():
    text = (
        "Issue 1 (solved): loss became NaN after a few hundred steps.\n"
        "Issue 2: the v5litepod-8 step time is 0.6 ms with MXU utilization 2%"
    )
    assert parse(normalize(text)).outside is None


def test_a_fixed_bug_is_read_by_its_sentence_not_the_whole_line():
    from assistant.text.parse import sentence_says_resolved

    line = (
        "Worker 2 crashed on a bug of mine (already fixed). What I don't get is the rest: "
        "workers 0, 1 and 3 just sat there"
    )
    assert not sentence_says_resolved(line, "workers 0, 1 and 3 just sat")
    assert sentence_says_resolved(line, "Worker 2 crashed")
    assert sentence_says_resolved("the KeyError, that's fixed now", "absent fragment")
