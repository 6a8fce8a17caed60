"""Pull the facts out of normalized text: exceptions, status codes, framework, numbers, names.

`key_lines` are the few lines that carry the error, so a 5,000-line log is searched by what
matters rather than by its noise. Every fact is plain data (the `facts` of `ask --json`).
"""

from __future__ import annotations

import contextlib
import itertools
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

from .. import placeholders
from .domain import absent_backend_probe, read_context
from .ids import ACCELERATOR_TYPE, PROJECT_ID, RELEASE
from .normalize import Normalized, normalize
from .outside import read_code, read_outside
from .profile import per_core_batch_spans, read_profile
from .tokens import STOP_EN, STOP_PT, fold
from .vague import names_no_problem, says_only_slow

KEY_LINES = 12
ERROR_LINES = 4
# Inputs up to this many lines are scanned whole (exceptions here, signatures in the engine);
# longer ones only through their key lines, so a huge log costs a bounded amount of matching.
FULL_SCAN_LINES = 5000
LANG_SAMPLE_CHARS = 5000  # the language is told from the start of the text

STATUS_CODES = (
    "RESOURCE_EXHAUSTED INVALID_ARGUMENT NOT_FOUND UNAVAILABLE DEADLINE_EXCEEDED INTERNAL "
    "PERMISSION_DENIED UNIMPLEMENTED FAILED_PRECONDITION ABORTED CANCELLED UNAUTHENTICATED "
    "OUT_OF_RANGE DATA_LOSS ALREADY_EXISTS"
).split()

# An exception's name, with its module path. It starts where a dotted name starts (not inside
# one), so a long run of "a.a.a…" is scanned once, not again from each of its dots.
_EXC = re.compile(
    r"(?<![\w.])((?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt)|HttpError))\b"
    r"(?:\s*:\s*(?P<msg>.{0,400}))?"
)
_STATUS = re.compile(r"\b(" + "|".join(STATUS_CODES) + r")\b")
_NUM_UNIT = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?)\s?(GiB|MiB|KiB|TiB|GB|MB|KB|TB|G|M|K|%|ms|s|examples/sec|steps/sec)"
    r"(?![\w])"
)
_FRAMEWORKS = {
    "tensorflow": re.compile(
        r"\btensorflow\b|\btf\.|errors_impl|\bkeras\b|TPUStrategy|"
        r"XLA_TPU_JIT|OpKernel",
        re.I,
    ),
    "jax": re.compile(r"\bjax(?:lib)?\b|XlaRuntimeError|\bjnp\.|\bflax\b|\bpjit\b", re.I),
    # `aten::` names PyTorch's ops (PyTorch/XLA's metrics report and profiler list them)
    "pytorch": re.compile(
        r"\btorch(?:_xla)?\b|\bxm\.|\bPJRT\b|\bpytorch\b|\baten::\w|pt-xla-profiler", re.I
    ),
}
# A TPU name as it appears in commands and logs (lenient: `placeholders` validates it when filled).
_NAME = r"([a-z][-a-z0-9]{0,62})"
# A TPU name a person writes in prose: quoted, or carrying a digit or a hyphen, and not an
# accelerator type (see _TPU_NAME).
_NOT_ACCEL = rf"(?!{ACCELERATOR_TYPE}\b)"
_PROSE_NAME = (
    rf"(?:[\"'`]{_NOT_ACCEL}{_NAME}[\"'`]|{_NOT_ACCEL}(?=[a-z][-a-z0-9]*[-0-9]){_NAME})(?![-\w])"
)
_TPU_NAME = [
    re.compile(rf"tpu-vm\s+(?:ssh|stop|start|describe|delete|create|scp)\s+(?!-){_NAME}"),
    re.compile(rf"--tpu[= ]{_NAME}"),
    re.compile(rf"\bTPU_NAME={_NAME}"),
    re.compile(rf"/nodes/{_NAME}"),
    re.compile(rf"^{_NAME}\s+[a-z]+-[a-z]+\d+-[a-z]\s+v\d+\w*-\d+", re.M),
    # in a person's words: "a TPU named my-tpu", "a v4-8 named exp-3", "TPU name: trainer-2",
    # "a TPU chamada tpu-1", "nome da TPU é `treino`". A bare word counts only quoted or with a
    # digit or a hyphen, so "a TPU called from Python" names nothing.
    re.compile(
        rf"(?:\b(?:tpu|node|vm)s?(?:\s+{ACCELERATOR_TYPE})?|\b{ACCELERATOR_TYPE})\s+(?:is\s+|é\s+)?"
        r"(?:named|called|chamad[ao]|de\s+nome)\s+" + _PROSE_NAME,
        re.I,
    ),
    re.compile(r"\b(?:tpu\s+name|nome\s+da\s+tpu)\s*(?:is\s+|é\s+|[:=]\s*)" + _PROSE_NAME, re.I),
    # "my TPU is my-node", "minha TPU é a exp-2": the person's own TPU, then the same kind of word
    re.compile(
        r"\b(?:my|our|minha|nossa)\s+tpu(?:\s+vm)?\s+(?:is|é)\s+(?:(?:the|a)\s+)?" + _PROSE_NAME,
        re.I,
    ),
]
_ZONE = [
    re.compile(r"--zone[= ]([a-z]+-[a-z]+\d+-[a-z])\b"),
    re.compile(r"/locations/([a-z]+-[a-z]+\d+-[a-z])\b"),
    re.compile(
        r"\b((?:us|europe|asia|northamerica|southamerica|australia|me|africa)-[a-z]+\d+-[a-z])\b"
    ),
]
_PROJECT = [
    re.compile(rf"--project[= ]({PROJECT_ID})\b"),
    re.compile(rf"/projects/({PROJECT_ID})\b"),
    re.compile(rf"\bproject[ _-]?id[:= ]+({PROJECT_ID})\b", re.I),
    # in a person's words and in `gcloud config list`: "my GCP project is 'vision-prod'", "project =
    # my-ml-proj", "in project ml-team-42", "no projeto treino-123". After "is", "named", ":" or "="
    # the id needs a digit or a hyphen unless quoted; straight after the word, a digit ("the
    # project common-instance metadata" names nothing); never after a hyphen (`--image-project`).
    # The id itself is lower case.
    re.compile(
        r"(?<![-\w])(?i:project|projeto)(?:\s+(?i:is|é|named|called|chamado)\s+|\s*[:=]\s*)"
        rf"(?:[\"'`]({PROJECT_ID})[\"'`]|(?=[a-z][-a-z0-9]*[-0-9])({PROJECT_ID}))(?![-\w])"
    ),
    re.compile(
        r"(?<![-\w])(?i:project|projeto)\s+"
        rf"(?:[\"'`]({PROJECT_ID})[\"'`]|(?=[a-z][-a-z0-9]*[0-9])({PROJECT_ID}))(?![-\w])"
    ),
]
# An accelerator type standing alone ("v4-8", "--accelerator-type=v5litepod-16", a capacity
# message's "tpu-v4-8"), not a piece of a hyphenated name ("nodeId=ws-v3-01" names a TPU); a
# chip count never starts with 0
_ACCEL = re.compile(rf"(?:(?<![-\w])|(?<=tpu-)|(?<=TPU-))(?!\w+-0)({ACCELERATOR_TYPE})(?![-\w])")
# A TPU generation named alone ("TPU v3", "on v5e"). Not a software version: "v2.2.0" continues with
# a dot and a digit, "Keras v3", "TF v2", "Python v3" name the program just before it, and an API's
# version sits between slashes in its URL (".../v2/projects/...").
_GEN = re.compile(r"(?<!/)\b(?:tpu\s*)?(v[2-7][a-z]?)\b(?![./]\w)", re.I)
_NOT_TPU_BEFORE_GEN = re.compile(
    r"\b(?:keras|tensorflow|tf|python|py|torch|pytorch|jax|flax|cuda|api|version|vers[aã]o)\s*$",
    re.I,
)
_IP = re.compile(r"\b((?:\d{1,3}\.){3}\d{1,3})\b")
_OP = [
    re.compile(r"No registered '([A-Za-z]\w*)' OpKernel"),
    re.compile(r"unsupported operations?[^:]*:\s*([A-Z]\w+)"),
]
_NODE = re.compile(r"\{\{node ([^}]+)\}\}")
_SHAPE = re.compile(
    r"(?:\b[fsub](?:8|16|32|64)|\bbf16|\bpred)\[[\d,]*\]"
    r"|\[(?:None|\?|-1|\d+)(?:,\s*(?:None|\?|-1|\d+))+\]"
)
# A training script's flag may carry a prefix (`--train_batch_size=256`, BERT's `train_batch_size
# 256`); the evaluation's or prediction's batch (`eval_batch_size`) is not the one to change.
_BATCH = re.compile(
    r"(?<![A-Za-z0-9_])(?:(?:train|training)_)?"
    r"(?:batch[_ ]?size|global[_ ]batch(?:[_ ]size)?|batch|lote(?:\s+global)?"
    r"|tamanho\s+do\s+lote)"
    r"\s*(?:=|:|of|de|is|é|e)?\s*(\d{1,7})\b",
    re.I,
)

_KEY_WORDS = re.compile(
    r"error|exception|failed|failure|fatal|traceback|refused|timed out|timeout|not found|denied|"
    r"exhausted|out of memory|\bhbm\b|unavailable|unsupported|could not|cannot|can't|unable|"
    r"\boom\b|abort|killed|hang|stuck|erro|falha|nao |forbidden|"
    r"does not have [\w.]* ?(?:access|permission)|"
    # a state gcloud's `describe` prints for a TPU or a queued resource that is not running
    r"\bstate:\s*(?:WAITING_FOR_RESOURCES|PREEMPTED|STOPPED|SUSPENDED|TERMINATED|PROVISIONING)\b",
    re.I,
)
# The words a described symptom turns on ("the recompilation takes most of the training time", "the
# TPU sits idle", "training freezes", "o treino fica lento", "memory"). A report told in prose has
# few error words, so without these its key lines were the title and whichever line happened to say
# "error", and the sentences that describe the problem were not searched.
_SYMPTOM_WORDS = re.compile(
    r"\bslow(?:er|ly|s|ness|down)?\b|\brecompil\w*|\bidle\b|\butili[sz]\w*|\bfr(?:ee|o)z\w*|"
    r"\bcrash\w*|\bdeadlock\w*|\blent[oa]s?\b|\btrav(?:a|ad[oa]s?|ou|ando)\b|\bocios\w*|"
    # XLA's memory reports ("Extra memory due to padding: 15.50G", "reserve 3.95G at the bottom
    # of memory") and a person's ("memory use grows every epoch")
    r"\bmemory\b|\bmem[oó]ria\b|"
    # a run that would not stop or went quiet: "Ctrl-C only kills my local ssh", "nothing after
    # that, 50 minutes now", "dei ctrl+c e nada"
    r"\bctrl[-+ ]?c\b|\bnothing\s+(?:after|since|else|more)\b|\bnada\s+(?:depois|mais)\b|"
    # a session or a runtime that dropped: "Ambiente de execução desconectado", "disconnects"
    r"\bdisconnect\w*|\bdesconect\w*",
    re.I,
)
_FRAME_LINE = re.compile(r'^(?:File ".*", line \d+|at [\w.$]+\(|\s*\^+\s*$|#\d+\s+0x[0-9a-f]+)')
# Python's own framing of a traceback: the same words in every report ("call", "last", "exception"),
# which matched the entries about calls that never return more than the error that follows them
_TRACEBACK_FRAMING = re.compile(
    r"^\s*(?:Traceback \(most recent call last\):?"
    r"|During handling of the above exception, another exception occurred:?"
    r"|The above exception was the direct cause of the following exception:?)\s*$"
)
# A line of a pasted JSON body that only opens a field ('"error": {', '"errors": [')
_JSON_OPENER = re.compile(r'^\s*[\[{]?\s*"[\w.-]+"\s*:\s*[\[{]\s*$')
# A line that only greets or thanks: an email's or a chat post's "Oi Thiago," / "Hi team," at the
# top and "Valeu!" / "Thanks in advance," at the bottom. As a title it was searched as the
# report's heading, and in prose it took the place of a line that tells the problem.
_COURTESY = re.compile(
    r"^(?:(?:oi|ol[aá]|hi|hello|hey|dear|greetings|bom dia|boa tarde|boa noite|e a[ií]|fala)"
    r"(?:(?:\s+[\w.@-]+){0,5}\s*[,!:]+|(?:\s+[\w.@-]+)?)"
    r"|(?:thanks|thank you|thx|cheers|regards|best regards|valeu|vlw|obrigad[oa]|abra[çc]os|abs)"
    r"(?:,?\s+[\w.-]+){0,4}\s*[,.!]*)\s*$",
    re.I,
)
# A chat message's header on a line of its own, as Discord copies it ("kenji — Today at 10:05",
# "ana — 03/02/2025 14:10"): who wrote and when, never the problem, and never the title
_CHAT_HEADER = re.compile(
    r"^[\w .'-]{1,40}\s+[—–-]\s+(?:Today|Yesterday|Hoje|Ontem|\d{1,2}/\d{1,2}/\d{2,4})"
    r"(?:\s+(?:at|às|as))?\s+\d{1,2}:\d{2}(?:\s*[AaPp][Mm])?\s*$",
    re.I,
)
# Lines that tell nothing of the problem: a greeting, a thank-you, a chat message's header
_SAYS_NOTHING = (_COURTESY, _CHAT_HEADER)


def _says_nothing(line: str) -> bool:
    return any(rx.match(line) for rx in _SAYS_NOTHING)


# A line that says the problem it tells is already fixed: "that part is fine", "it's solved now",
# "Issue 1 (solved)", "fixed with drop_remainder=True", "fixed by lowering the batch", "it fits
# now", "already fixed", "resolvi o erro de conexão", "o KeyError eu já corrigi", "essa parte tá
# resolvida". Not a plan or a doubt ("I thought that was fixed", "still", "ainda"), nor "fixed"
# as constant ("seq len 37 (fixed)", "fixed by parse_line"), nor "resolvi testar" (I decided to)
_RESOLVED = re.compile(
    r"\b(?:that|this|it|which)(?:['’]s|\s+is|\s+was)\s+(?:now\s+)?(?:fixed|solved|resolved"
    r"|sorted(?:\s+out)?)\b"
    r"|\b(?:that|this)\s+part\s+(?:is|was|['’]s)\s+(?:fine|fixed|solved|resolved|sorted)\b"
    r"|\((?:solved|resolved|resolvid[oa])\)"
    r"|\b(?:fixed|solved|resolved)\s+(?:it\s+|that\s+|this\s+)?(?:with\b|by\s+\w+ing\b)"
    r"|\balready\s+(?:fixed|solved|handled)\b|\b(?:fits|works)\s+now\b"
    r"|\b(?:resolvi|consertei|corrigi|arrumei)\s+(?:o|a|os|as|aquele|aquela|esse|essa|isso|este"
    r"|esta)\b|\bj[áa]\s+(?:resolvi|corrigi|consertei|arrumei)\b"
    r"|\b(?:t[áa]|est[áa]|ficou|foi)\s+resolvid[oa]\b",
    re.I,
)
_STILL_OPEN = re.compile(
    r"\b(?:still|again|thought|supposed(?:ly)?|not|yet|ainda|de\s+novo|achei|achava)\b", re.I
)


# The stems one of `_RESOLVED`'s words has: looked for first, as plain substrings, so a long line
# of other text (a log, dotted module paths) is not scanned by the pattern at every word
_RESOLVED_STEMS = (
    "fix", "solv", "sort", "fine", "fits", "works", "handl", "consert", "corrig", "arrum",
)  # fmt: skip


# where a sentence ends inside a line: ".", "!" or "?" before a space
_SENTENCE_BREAK = re.compile(r"[.!?](?=\s)")


def sentence_says_resolved(line: str, fragment: str) -> bool:
    """The sentence of `line` that holds `fragment` says its problem is already fixed
    (`says_resolved`): a paragraph on one line can tell a fixed bug first and then the problem it
    asks about ("worker 2 crashed on a bug of mine, already fixed. What I don't understand: the
    other workers just sat there"). The whole line where `fragment` is not found in it."""
    at = line.find(fragment) if fragment else -1
    if at < 0:
        return says_resolved(line)
    start = max((m.end() for m in _SENTENCE_BREAK.finditer(line, 0, at)), default=0)
    end = _SENTENCE_BREAK.search(line, at + len(fragment))
    return says_resolved(line[start : end.end() if end else len(line)])


def says_resolved(line: str) -> bool:
    """The line says the problem it tells is already fixed (`_RESOLVED`), and nothing on it says
    the problem is still open."""
    low = line.lower()
    if not any(stem in low for stem in _RESOLVED_STEMS):
        return False
    return bool(_RESOLVED.search(line)) and not _STILL_OPEN.search(line)


# What the frameworks print at every start, in a healthy run too (once `normalize` has taken the
# log prefix off): TensorFlow's CUDA plugin registrations, TensorRT and oneDNN notes on a machine
# without a GPU (a TPU VM, Colab), its CPU-instruction notice; JAX's probes of the GPU backends;
# PyTorch/XLA finding libtpu and its warning about TensorFlow beside it; Python's `warnings.warn(`
# echo; the tokenizers' fork notice; a Python warning that something is deprecated. A person often
# blames one of them, and they named the problem in none of the labelled reports, so they are no
# key lines, whatever error words they carry. (Python prints a warning after the file and line
# that raised it: "…/torch_xla/__init__.py:202: UserWarning: `tensorflow` can conflict…")
_WARNED_AT = r"\S+\.py:\d+:\s*"  # the file and line a Python warning names first
_START_UP_NOISE = re.compile(
    _WARNED_AT
    + r"(?:(?:Deprecation|Future)Warning:|UserWarning:[^\n]*\bis deprecated\b)"
    + rf"|(?:{_WARNED_AT}\w*Warning:\s*)?"
    + r"(?:Unable to register cu(?:DNN|FFT|BLAS) factory\b|TF-TRT Warning: Could not find TensorRT"
    r"|oneDNN custom operations are on\b|This TensorFlow binary is optimized to use available CPU"
    r"|To enable the following instructions:|Could not find cuda drivers on your machine"
    r"|Could not load dynamic library '(?:libcu|libnv|libtensorrt)"
    r"|Unable to initialize backend '(?:cuda|rocm|gpu|metal)'"
    r"|libtpu\.so and TPU device found\b|`tensorflow` can conflict with `torch-xla`"
    r"|\s*warnings\.warn\(\s*$|(?:huggingface/)?tokenizers: The current process just got forked)"
)
# Python source that names an exception without being one: a handler in the person's code
# ("except ValueError:") and a traceback's source line that raises ("raise e.with_traceback(
# filtered_tb) from None", "raise errors.InvalidArgumentError("); the message follows elsewhere
_RAISING_CODE = re.compile(r"^\s*(?:except\b[^\n]*:\s*$|raise\s+[\w.]+(?:\(|\s+from\b|\s*$))")


# Lines that carry error words without being the problem: what every start prints, source that
# raises
_NOISE = (_START_UP_NOISE, _RAISING_CODE)


def _noise(line: str) -> bool:
    return any(rx.match(line) for rx in _NOISE)


# Lines that never name the problem, whatever error words they carry
_NOT_KEY = (_FRAME_LINE, _TRACEBACK_FRAMING, _JSON_OPENER, *_NOISE, *_SAYS_NOTHING)
# The message of a pasted JSON error body: gcloud and the Google APIs print their errors as
# `ERROR: (gcloud.compute.tpus.tpu-vm.create) {` followed by `"code": 8,` and `"message": "There is
# no more capacity in the zone…"`, and the message line states the error in plain words that
# need not contain an error word; `describe` prints the same error as YAML (`message: "Quota limit
# '…' has been exceeded…"` under a queued resource's `failedData`)
_API_MESSAGE = re.compile(r"""^\s*"?message"?\s*:\s*["']""")


@dataclass
class Facts:
    exceptions: list[dict[str, Any]] = field(default_factory=list)  # [{"type", "message", "line"}]
    status_codes: list[str] = field(default_factory=list)
    frameworks: list[str] = field(default_factory=list)
    numbers: list[dict[str, Any]] = field(default_factory=list)  # [{"value", "unit", "text"}]
    tpu_name: str | None = None
    zone: str | None = None
    project: str | None = None
    accelerator_type: str | None = None
    tpu_generation: str | None = None
    ip: str | None = None
    op_names: list[str] = field(default_factory=list)
    nodes: list[str] = field(default_factory=list)
    shapes: list[str] = field(default_factory=list)
    batch_size: int | None = None
    profile: dict[str, float | int] = field(
        default_factory=dict
    )  # overview figures: mxu_utilization, tpu_idle…
    context: dict[str, Any] = field(
        default_factory=dict
    )  # TPU / other-device / other-service evidence
    lang: str = "en"
    # the script of much of the text when it is one the model and the lexicon do not read (Chinese,
    # Cyrillic…): said in the answer's notes, so an abstention is explained (see `unread_script`)
    other_script: str | None = None
    # a key line naming a problem the guide does not cover — the software could not be installed or
    # loaded, no such program, no capacity or quota, a local path given to the TPU, the host's own
    # RAM, a NaN loss, a compiler bug:
    # {"kind": one of `text.outside.KINDS`, "text", "line"}
    # (see `text.outside`)
    outside: dict[str, Any] | None = None
    # a short input that names the setup but no problem ("jax on tpu", "TPU error"; see
    # `text.vague`): the assistant asks what goes wrong instead of guessing
    vague: bool = False
    # a short input that says only that a run is slow ("TPU slow", "treino lento na TPU"; see
    # `text.vague`): the assistant asks for the profile's figures instead of picking one cause
    slow_only: bool = False
    # the framework release the report says last worked ({"framework", "version"}): what a
    # regression's fix goes back to
    previous_release: dict[str, str] | None = None
    key_lines: list[dict[str, Any]] = field(default_factory=list)  # [{"line": original no, "text"}]
    # the original numbers of the lines that say their problem is already fixed ("I went down to
    # 2048 and it fits now, that part is fine", "Issue 1 (solved): …", "o KeyError eu já
    # corrigi"; see `says_resolved`): a message on them is the story, not what is asked about
    resolved_lines: list[int] = field(default_factory=list)
    line_count: int = 0
    # words of the input, counted up to SHORT_INPUT_WORDS + 1 (more: a longer input)
    words: int = 0
    truncated: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def values(self) -> dict[str, str]:
        """Facts usable as placeholder values (only those valid for their placeholder)."""
        out: dict[str, str] = {}
        for name in ("tpu_name", "zone", "project", "accelerator_type", "tpu_generation", "ip"):
            v = getattr(self, name)
            if v:
                with contextlib.suppress(placeholders.PlaceholderError):
                    out[name] = placeholders.validate_value(name, v)
        if self.op_names:
            out["op_name"] = self.op_names[0]
        if len(self.frameworks) == 1:  # one framework named: a question about it need not be asked
            out["framework"] = self.frameworks[0]
        if self.batch_size:
            out["batch_size"] = str(self.batch_size)
        previous = self.previous_release
        if previous and self.frameworks == [previous["framework"]]:
            with contextlib.suppress(placeholders.PlaceholderError):
                out["framework_version"] = placeholders.validate_value(
                    "framework_version", previous["version"]
                )
        return out


# The release the report says last worked: "upgraded jax from 0.4.25 to 0.4.26", "moving from
# torch==2.6.0.dev20241106 to …07", "works with torch_xla 2.4 but not 2.5", "atualizei o jax de
# 0.4.25 pra 0.4.31". Kept with the framework it belongs to: it fills `{framework_version}` (the
# release to go back to) only when that is the one framework the report names, so a version of
# some other library never lands in `jax[tpu]==…`. libtpu's own numbers are not a framework's.
_RELEASE = f"({RELEASE})"
_FRAMEWORK_WORD = r"(jaxlib|jax|torch_xla|torch-xla|torch|pytorch|tensorflow|tf)"
_TO = r"[\w.+]*\s+(?:to|->|→|para|pra)\s"
_PREVIOUS_RELEASE = (
    re.compile(rf"\b(?:from|de)\s+{_FRAMEWORK_WORD}\s*(?:==|\s)\s*v?{_RELEASE}{_TO}", re.I),
    re.compile(
        rf"\b(?:upgrad|updat|atualiz)\w*\s+(?:o\s+|the\s+|my\s+)?{_FRAMEWORK_WORD}\s+"
        rf"(?:from|de)\s+v?{_RELEASE}{_TO}",
        re.I,
    ),
    re.compile(
        rf"\bwork\w*\s+(?:fine\s+|well\s+)?(?:with|on|in)\s+{_FRAMEWORK_WORD}\s*(?:==|\s)\s*"
        rf"v?{_RELEASE}[\w.+]*,?\s+but\s+not\b",
        re.I,
    ),
)
_FRAMEWORK_OF = {
    "jax": "jax",
    "jaxlib": "jax",
    "torch": "pytorch",
    "torch_xla": "pytorch",
    "torch-xla": "pytorch",
    "pytorch": "pytorch",
    "tensorflow": "tensorflow",
    "tf": "tensorflow",
}


def _previous_release(text: str) -> dict[str, str] | None:
    for rx in _PREVIOUS_RELEASE:
        m = rx.search(text)
        if m:
            return {"framework": _FRAMEWORK_OF[m.group(1).lower()], "version": m.group(2)}
    return None


# A short input: one question or remark, which says what it asks about in a few words.
SHORT_INPUT_WORDS = 15
_WORD_RUN = re.compile(r"\S+")


def _tpu_generation(text: str) -> str | None:
    for m in _GEN.finditer(text):
        if not _NOT_TPU_BEFORE_GEN.search(text, max(0, m.start() - 12), m.start()):
            return m.group(1).lower()
    return None


def _first(patterns: list[re.Pattern[str]], text: str) -> str | None:
    for rx in patterns:
        m = rx.search(text)
        if m:
            return next(g for g in m.groups() if g is not None)
    return None


# Whole words only: the "e" of "v6e", of a learning rate "1e-4" or of "e.g." is not Portuguese's
# "and", nor is the "com" of a web address.
_LANG_WORD = re.compile(r"(?<![\w.-])[a-zà-ú]+(?![\w-]|\.\w)")
# A Portuguese word counts double: people who write in Portuguese paste English errors and logs,
# while English reports hold no Portuguese. On the 1,413 labelled reports in English or Portuguese
# (real, dev, written, blind samples), this mislabels 2 (a short pt sentence before a long English
# gcloud error; `num` as a variable name in English code); counting both alike, 10.
PT_WEIGHT = 2
# A word with a Portuguese accent, counted once however many it carries: "Résumé" in an English
# title is one loan word, not two letters of evidence against the "on" beside it.
# a word with an accent, tried only where a word starts (a long run of letters is scanned once)
_ACCENTED_WORD = re.compile(r"(?<!\w)\w*[ãõçáéíóúâêô]\w*")


def lang_scores(text: str) -> tuple[int, int]:
    """The Portuguese and English evidence of a text: (PT_WEIGHT × Portuguese function words +
    accented words, English function words)."""
    lowered = text.lower()
    words = _LANG_WORD.findall(lowered)
    if not words:
        return 0, 0
    pt = sum(1 for w in words if fold(w) in STOP_PT and w not in STOP_EN)
    en = sum(1 for w in words if w in STOP_EN and fold(w) not in STOP_PT)
    return PT_WEIGHT * pt + len(_ACCENTED_WORD.findall(lowered)), en


def detect_lang(text: str) -> str:
    pt, en = lang_scores(text)
    return "pt" if pt > en else "en"


# What a text must show to be called Portuguese where an answer's language changes because of it
# (the TUI, which otherwise keeps the person's setting): a Portuguese function word, or two
# accented words, not the one accented name (José) in an English text
CLEARLY_PORTUGUESE = PT_WEIGHT


def clearly_portuguese(text: str) -> bool:
    pt, en = lang_scores(text)
    return pt > en and pt >= CLEARLY_PORTUGUESE


# Scripts this tool does not read: the embedding model (all-MiniLM-L6-v2) and the lexicon are
# English and Portuguese. Named by the first word of a letter's Unicode name.
_UNREAD_SCRIPTS = {
    "CJK": "Chinese/Japanese",
    "HIRAGANA": "Japanese",
    "KATAKANA": "Japanese",
    "HANGUL": "Korean",
    "CYRILLIC": "Cyrillic",
    "ARABIC": "Arabic",
    "HEBREW": "Hebrew",
    "GREEK": "Greek",
    "DEVANAGARI": "Devanagari",
    "THAI": "Thai",
}
# Chinese and Japanese write words without spaces: about 1.5 characters a word.
_UNSPACED = {"Chinese/Japanese", "Japanese"}
CHARS_PER_UNSPACED_WORD = 1.5
UNREAD_SHARE = 0.3  # of the words, for the script to count as "much of the text"
UNREAD_MIN_WORDS = 4


def _script(ch: str) -> str | None:
    """ "latin" for a Latin letter, an unread script's name, or None (any other letter)."""
    if ch.isascii():
        return "latin"
    name = unicodedata.name(ch, "")
    return "latin" if "LATIN" in name else _UNREAD_SCRIPTS.get(name.split(" ", 1)[0])


def unread_script(text: str) -> str | None:
    """The unread script most of the non-Latin words of `text` are in, when at least
    `UNREAD_SHARE` of its words are in such scripts; None otherwise. Words are runs of letters of
    one script (in Chinese and Japanese, 1.5 characters), so a pasted English log weighs by its
    words, not its letters. A log with a few Chinese file names or a Greek letter in a formula is
    still read as it is."""
    if text.isascii():  # most pasted logs: nothing to count
        return None
    words = 0.0
    counts: dict[str, float] = {}
    previous: str | None = None
    for ch in text:
        if not ch.isalpha():
            previous = None
            continue
        script = _script(ch) or "other"
        if script in _UNSPACED:
            weight = 1 / CHARS_PER_UNSPACED_WORD
        elif script != previous:
            weight = 1.0
        else:
            weight = 0.0
        previous = script
        words += weight
        if script not in ("latin", "other"):
            counts[script] = counts.get(script, 0.0) + weight
    unread = sum(counts.values())
    if unread < UNREAD_MIN_WORDS or unread < UNREAD_SHARE * words:
        return None
    return max(counts, key=lambda k: counts[k])


# What a line logged as FATAL (`Normalized.fatal`) adds to its score: as much as an exception.
FATAL_BONUS = 3
EXCEPTION_SCORE = 3  # what an exception's name adds to a line's score (`_line_score`)


def _line_score(line: str, resolved: bool = False) -> float:
    """How much `line` reads like the error; `resolved`: the line says its problem is already
    fixed (`says_resolved`, read once per line by the caller)."""
    score = 0.0
    if _EXC.search(line):
        score += EXCEPTION_SCORE
    if _STATUS.search(line):
        score += 3
    if _API_MESSAGE.match(line):
        score += 3
    score += min(3, len(_KEY_WORDS.findall(line)) + len(_SYMPTOM_WORDS.findall(line)))
    if any(rx.match(line) for rx in _NOT_KEY) or resolved:
        # a frame names code, a traceback's framing or a JSON opener nothing, and a problem
        # said to be fixed is not the one asked about
        score -= 4
    return score


def title_line(lines: list[str]) -> str | None:
    """The first line of a report of several lines — an issue's title, a question's first
    sentence — when it reads like a heading rather than a log or a traceback frame."""
    if len(lines) < 3:
        return None
    first = lines[0]
    if len(first) > 200 or len(first.split()) < 2 or _FRAME_LINE.match(first):
        return None
    if _says_nothing(first):
        return None
    if first.lower().startswith(("traceback", "```")):
        return None
    return first


# What is left of a log record when the normalizer did not know its prefix: a glog severity and
# date, a timestamp, a source file and line ("W0105 12:00:01.000 cuda_dnn.cc:9261]").
_LOG_RECORD = re.compile(
    r"^(?:[IWEF]\d{4}\b|\[?\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d)|\.(?:cc|cpp|h|py):\d+\]"
)


def heading(norm: Normalized) -> str | None:
    """The report's title when it stands as a heading: the first line (`title_line`), set apart
    from the body by a blank line, not a lead-in to what follows ("8x V100 run:") and not a log
    record (a TPU job's log can open with a line about CUDA libraries it does not need)."""
    title = title_line(norm.lines)
    if (
        not title
        or title.endswith(":")
        or norm.line_numbers[1] - norm.line_numbers[0] < 2
        or 0 in norm.logged
        or _LOG_RECORD.search(title)
    ):
        return None
    return title


def error_lines(lines: list[str], limit: int = ERROR_LINES) -> list[str]:
    """The lines that state an error (an exception or an XLA status code), the last ones first
    kept: in a traceback the final exception is the one that decides."""
    out: list[str] = []
    for line in reversed(lines):
        is_error = (_EXC.search(line) or _STATUS.search(line)) and not _FRAME_LINE.match(line)
        if is_error and line[:200] not in (o[:200] for o in out):
            out.append(line)
        if len(out) >= limit:
            break
    return out[::-1]


_URL = re.compile(r"\bhttps?://([^\s)\]>\"'`]+)")
# path parts of a web address that say where a page is kept, not what it is about
_URL_NOISE = frozenset(
    "www com org io net html htm md blob tree master main issues issue pull pulls commit commits "
    "discussions comments wiki edit raw refs heads".split()
)


# A path part that is an id, not a word: a number, a hash or a UUID, maybe with a file extension
# (a screenshot's `152167745-4ce0449f-6530-41d7-b4c3-b1afd00d82e7.png`, whose fragments "00" and
# "82" matched memory sizes)
_ID_PART = re.compile(r"[0-9a-f-]*[0-9][0-9a-f-]*(?:\.[a-z]{2,4})?", re.I)


def _url_words(m: re.Match[str]) -> str:
    """A web address as the words of its host and path: `https://github.com/tensorflow/models/
    blob/master/official/nlp/transformer/transformer_main.py` reads `github tensorflow models
    official nlp transformer transformer_main.py`. Its scheme, query and hosting words (`https`,
    `com`, `blob`, `master`) are dropped: they matched entries that quote addresses or a
    TensorFlow "master". The host's name stays (dropping it too cost a real report)."""
    host, _, path = re.split(r"[?#]", m.group(1))[0].partition("/")
    parts = host.split(".") + path.split("/")
    return " ".join(
        p for p in parts if p and p.lower() not in _URL_NOISE and not _ID_PART.fullmatch(p)
    )


# "OOM" is how most reports say it, and the embedding model reads the abbreviation poorly: a
# title "MultiSteps OOM on TPU" was 0.37 from the out-of-memory entry's closest text
_OOM = re.compile(r"\bOOM(?:s|ed|ing)?\b", re.IGNORECASE)


# What an input that says only "slow" is searched with as well (see `query_views`).
SLOW_RUN = "slow training: long step time, low throughput"


def searchable(text: str) -> str:
    """`text` as the channels search it: web addresses reduced to the words of their paths, and
    "OOM" followed by what it stands for."""
    return _OOM.sub(lambda m: m.group(0) + " (out of memory)", _URL.sub(_url_words, text))


def query_views(norm: Normalized, facts: Facts) -> dict[str, str]:
    """The texts a report is searched by: `all` (its key lines), `head` (its title) and `err`
    (its error lines). A view the input does not have is the `all` view, so a one-line query is
    searched the same way by every view."""
    full = "\n".join(k["text"] for k in facts.key_lines)
    head = title_line(norm.lines) or full
    errs = error_lines(
        norm.lines if len(norm.lines) <= FULL_SCAN_LINES else [k["text"] for k in facts.key_lines]
    )
    views = {"all": full, "head": head, "err": "\n".join(errs) if errs else full}
    if facts.slow_only:
        # refused either way (`text.vague`); the nearest entries it lists should be the slow-run
        # ones, not those that share "v4" or "jax" with it
        views = {k: f"{v} ({SLOW_RUN})" for k, v in views.items()}
    return {k: searchable(v) for k, v in views.items()}


# An exception whose message starts on the next line: TensorFlow names the remote task that
# failed ("InternalError: From /job:tpu_worker/replica:0/task:0:") and says what went wrong on the
# line after, which is scored as the exception's own message.
_OPENS_MESSAGE = re.compile(r"\bFrom /job:\S+:\s*$")
# TensorFlow 2's "Graph execution error:" names the node that failed on a line of its own ("Node:
# 'binary_crossentropy/mul'") and gives the op's message, which has no exception name, on the next
# ("Incompatible shapes: [16,10] vs. [16,1]"): that line is scored as an exception's message.
_NAMES_NODE = re.compile(r"^\s*Node: '[^']+'\s*$")


def _with_continuations(
    lines: list[str], scored: list[tuple[float, int]], resolved: frozenset[int]
) -> list[tuple[float, int]]:
    """`scored` ((score, i) for each line i) with the line after such a prefix scored as it is
    (`resolved`: the indices of the lines said to be fixed)."""
    out = list(scored)
    for i, line in enumerate(lines[:-1]):
        if _NAMES_NODE.match(line):
            as_message = _line_score(lines[i + 1], i + 1 in resolved) + EXCEPTION_SCORE
            out[i + 1] = (max(out[i + 1][0], as_message), i + 1)
            continue
        score = scored[i][0]
        if score <= 0 or not (_OPENS_MESSAGE.search(line) and _EXC.search(line)):
            continue
        nxt = lines[i + 1].lstrip("> \t")
        if nxt and not _EXC.search(nxt):
            out[i + 1] = (max(out[i + 1][0], score), i + 1)
    return out


def resolved_indices(lines: list[str]) -> frozenset[int]:
    """The indices of the lines that say their problem is already fixed (`says_resolved`)."""
    return frozenset(i for i, line in enumerate(lines) if says_resolved(line))


def select_key_lines(
    norm: Normalized, limit: int = KEY_LINES, resolved: frozenset[int] | None = None
) -> list[tuple[int, str]]:
    """The lines that carry the error, in input order: (index into norm.lines, text).

    Short inputs are kept whole, less the start-up noise and raising code (`_noise`). Long ones keep
    their title (see `title_line`) and the best-scoring lines, preferring the last occurrences
    (the final exception of a traceback is the one that matters); a line said to be fixed
    (`resolved`, by index; read here if not given) scores lower.
    """
    lines = norm.lines
    if len(lines) <= limit:  # kept whole, less what every start prints and code that raises
        said = [(i, line) for i, line in enumerate(lines) if not _noise(line)]
        return said or list(enumerate(lines))
    if resolved is None:
        resolved = resolved_indices(lines)
    scored = [
        (_line_score(line, i in resolved) + FATAL_BONUS * (i in norm.fatal), i)
        for i, line in enumerate(lines)
    ]
    scored = _with_continuations(lines, scored, resolved)
    seen: set[str] = set()
    chosen: list[int] = [0] if title_line(lines) else []
    for score, i in sorted(scored, key=lambda t: (-t[0], -t[1])):
        if score <= 0 or len(chosen) >= limit:
            break
        if i in chosen:
            continue
        key = lines[i][:200]
        if key in seen:
            continue
        seen.add(key)
        chosen.append(i)
    if len(chosen) <= 1:  # prose or no recognizable error: the first and last lines
        told = [
            i
            for i, line in enumerate(lines)
            if not (_says_nothing(line) or _noise(line) or i in resolved)
        ] or list(range(len(lines)))
        chosen = told[: limit // 2] + told[max(limit // 2, len(told) - limit // 2) :]
    return [(i, lines[i]) for i in sorted(set(chosen))]


def parse(raw: str | bytes | Normalized) -> Facts:
    norm = raw if isinstance(raw, Normalized) else normalize(raw)
    text = norm.text
    facts = Facts(line_count=len(norm.lines), truncated=norm.truncated)
    resolved = resolved_indices(norm.lines)
    facts.resolved_lines = [norm.line_numbers[i] for i in sorted(resolved)]
    key = select_key_lines(norm, resolved=resolved)
    facts.key_lines = [{"line": norm.line_numbers[i], "text": t} for i, t in key]
    scan = text if len(text) <= 200_000 else "\n".join(t for _, t in key)

    seen_exc: set[tuple[str, str]] = set()
    for line in norm.lines if len(norm.lines) <= FULL_SCAN_LINES else [t for _, t in key]:
        for exc in _EXC.finditer(line):
            etype = exc.group(1)
            msg = (exc.group("msg") or "").strip()
            if (etype, msg) in seen_exc or len(facts.exceptions) >= 10:
                continue
            seen_exc.add((etype, msg))
            facts.exceptions.append({"type": etype, "message": msg})
    facts.status_codes = list(dict.fromkeys(_STATUS.findall(scan)))[:10]
    facts.frameworks = [name for name, rx in _FRAMEWORKS.items() if rx.search(scan)]
    for num in list(_NUM_UNIT.finditer(scan))[:30]:
        facts.numbers.append(
            {"value": float(num.group(1)), "unit": num.group(2), "text": num.group(0)}
        )
    facts.tpu_name = _first(_TPU_NAME, scan)
    facts.zone = _first(_ZONE, scan)
    facts.project = _first(_PROJECT, scan)
    m = _ACCEL.search(scan)
    facts.accelerator_type = m.group(1) if m else None
    if facts.accelerator_type:
        facts.tpu_generation = facts.accelerator_type.split("-")[0]
    else:
        facts.tpu_generation = _tpu_generation(scan)
    m = _IP.search(scan)
    if m and all(int(p) < 256 for p in m.group(1).split(".")):
        facts.ip = m.group(1)
    facts.op_names = list(dict.fromkeys(op.group(1) for rx in _OP for op in rx.finditer(scan)))[:5]
    facts.nodes = list(dict.fromkeys(_NODE.findall(scan)))[:5]
    facts.shapes = list(dict.fromkeys(_SHAPE.findall(scan)))[:5]
    # a batch per core, device or replica is the profile's (per_core_batch), not the global one;
    # where those spans are is read only when the text names a batch at all, in one pass
    batches = _BATCH.finditer(scan)
    first = next(batches, None)
    if first:
        per_core = per_core_batch_spans(scan)
        candidates = itertools.chain([first], batches)
        m = next((b for b in candidates if not any(s < b.end() <= e for s, e in per_core)), None)
        if m:
            facts.batch_size = int(m.group(1))
    facts.previous_release = _previous_release(scan)
    facts.profile = read_profile(scan).to_dict()
    facts.context = read_context(scan, heading(norm)).to_dict()
    outside_lines = facts.key_lines
    if facts.context.get("gate") == "device":
        # JAX's probe for a TPU client the install lacks ("Failed to open libtpu.so") reads as an
        # installation problem, but on a machine that names another device and no TPU it is only
        # JAX looking for hardware that is not there: the context gate's hint says what it is
        outside_lines = [k for k in outside_lines if not absent_backend_probe(k["text"])]
    told_fixed = set(facts.resolved_lines)
    outside_lines = [k for k in outside_lines if k["line"] not in told_fixed]
    facts.outside = read_outside(outside_lines) or read_code(
        norm.lines, norm.indents, norm.line_numbers
    )
    facts.lang = detect_lang(scan[:LANG_SAMPLE_CHARS])
    facts.other_script = unread_script(scan[:LANG_SAMPLE_CHARS])
    facts.vague = names_no_problem(text)
    facts.words = sum(1 for _ in itertools.islice(_WORD_RUN.finditer(text), SHORT_INPUT_WORDS + 1))
    # a slow GPU run ("slower on the A100 than on the T4") gets the context gate's hint instead
    gated = bool(facts.context.get("gate"))
    facts.slow_only = not facts.profile and not gated and says_only_slow(text)
    return facts
