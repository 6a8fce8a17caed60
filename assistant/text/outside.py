"""Problems outside the guide: a report whose decisive line says the software could not be
installed, loaded or matched to its runtime (`install`), that a library whose ops a saved model
needs was not imported (`library_op`: "Op type not registered 'SentencepieceOp'"), that the shell
has no such program
(`program`: `gcloud: command not found`), that Google Cloud had no capacity or quota for the TPU
(`capacity`) or Colab none to give the notebook (`notebook_capacity`), that Colab or Kaggle ended
the notebook's session (`notebook_session`: idle too long, or its maximum length reached), that the
TPU's host was given a path on the local disk it cannot see (`storage`), that Cloud Storage refused
the account access to a bucket or an object (`storage_access`: an IAM permission such as
storage.objects.get) or has no object at the path asked for (`storage_missing`: a 404, "No such
object"), that a Kubernetes pod could not pull its container image (`container_image`:
ErrImagePull), that Keras's steps do not match the dataset's length (`dataset_steps`: "Your
input ran out of data", an endless dataset with no steps_per_epoch), that the data does not fit
the model's input (`model_input`: Keras's "Input 0 of layer … is incompatible with the
layer"), that the loss or a tensor became NaN or infinite (`numerics`; not when the line says
only the TPU does it), or that the machine's own RAM ran out (`host_memory`: a C++
`bad_alloc`, a Python `MemoryError`, the OOM killer, "out of RAM" in the person's words), which is
not the TPU's HBM, that the host's data-loading code crashed (`data_loading`: a tokenizer, an image
decoder, a DataLoader worker), that converting the model to another format met an op the converter
lacks (`export`: TFLite, ONNX, TensorRT), that the compiler failed and calls it a bug of its own
(`compiler`: "Please file a bug against XLA"), or that one kernel's on-chip scratch memory ran out
(`scratch_memory`: "Ran out of memory in memory space vmem"), that the problem began with a new
release (`regression`: "ever since I upgraded jax", "new nightly breaks xla.device()"), that a
launcher was asked for a process count the TPU host does not split into (`process_count`), that its
processes found one device each because the parent took the TPU first (`replication`), that gcloud
refused the arguments of a request to create a TPU (`create_request`), that a disk is full
(`disk_full`), that the question is about what a TPU costs or what was billed (`billing`), where a
TPU type is offered (`offering`: "is v5e available in europe-west4?"), what a TPU type has
(`hardware`: "how many chips in a v5e-8?", "what is the difference between v5e and v5p?"), that a
saved checkpoint does not fit the model restored from it (`checkpoint`: a key missing, a shape that
differs from the stored one), that TensorFlow's distribution strategy was used against its rules
(`strategy`: a variable created outside `strategy.scope()`), that an op's tensors or arrays are on
different devices (`device_placement`: one PyTorch tensor never moved to the XLA device, JAX arrays
of one call committed to different devices), that the code or a library asks for CUDA on a
machine without an NVIDIA GPU (`cuda_request`: a `.cuda()` left from a GPU script, bitsandbytes or
flash-attn), that gcloud found no such TPU where it looked (`resource_missing`: a wrong zone, name
or project), that another Google product's API refused the request (`api_access`: BigQuery,
Drive), that the operating system refused the user a file (`file_permission`: "PermissionError:
[Errno 13]" on a path that is not the TPU's device), that a model hub refused to hand over a
model (`model_hub`: a gated model on Hugging Face or Kaggle whose licence was not accepted),
that the job ran on the CPU and never used the TPU (`tpu_unused`: TPUEstimator's
use_tpu=False), that Kubernetes found no node for the pod (`scheduling`), that a request is
longer than the context the server was configured for (`context_length`), that JAX cannot shard
an array as asked (`sharding`: a dimension that does not divide among the devices of its mesh
axis), that an index is outside the table it reads (`index_range`: a token id over the
vocabulary), that the machine could not verify a server's TLS certificate (`certificate`: an
office proxy that inspects HTTPS), that automatic differentiation refused the model's own graph
(`autograd`: a tensor changed in place), that the labels do not fit the loss (`loss_labels`:
one-hot labels given to a sparse loss), that two arrays of known sizes do not fit each other
(`shape_mismatch`: "Incompatible shapes: [16,10] vs. [16,1]", "mat1 and mat2 shapes cannot be
multiplied"), that JAX found a tracer that escaped its transformation (`tracer_leak`), or a
plain Python error of the person's own code or data (`python_error`: "'NoneType' object is not
subscriptable", a KeyError on a config's key, a name not defined).
Pasted code is read too (`read_code`): a collective that only the first process reaches
(`one_process_collective`: `xm.rendezvous` under `if xm.is_master_ordinal():`).

The troubleshooting guide behind the knowledge base covers a TPU that runs and misbehaves in the
ways its entries name; it does not cover installing the frameworks, getting capacity, numerical
instability, or the memory of the VM that feeds the TPU. Such reports share many words with its
entries ("TPU", "jax", "torch_xla", "create", "UnavailableError", "loss", "out of memory") and
were answered with confidence as a connection, creation, shape, loop or TPU memory problem, so
the decision (`decide.outside_guide`) abstains on them unless a specific signature of an entry
explains the line (a missing profiler plugin is the op-profiling entry's own), and the answer says
why and what to check instead (`answer.note_outside.*`).

Only the key lines are read (`Facts.key_lines`: the title and the error lines), so a warning deep in
a long log does not turn a TPU problem the guide covers into one it does not.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

_FRAMEWORK = r"(?:tensorflow|jax|jaxlib|torch|torch_xla|keras|flax|libtpu)"
# what a person upgrades: a framework, a library over it, a nightly, "the version"
_SOFTWARE = (
    r"(?:tensorflow|tf|jax|jaxlib|torch|torch_xla|torch-xla|pytorch|keras|flax|libtpu|"
    r"transformers|accelerate|nightly|version|release|vers[aã]o)"
)
# a framework or its TPU runtime named as what to install ("jax[tpu]", "torch_xla", "PyTorch/XLA")
_SOFTWARE_NAME = (
    r"(?:jax(?:lib)?(?:\[tpu\])?|torch[_-]?xla|pytorch(?:/xla)?|torch|tensorflow|tf|libtpu|keras|flax)"
    r"(?![\w-])"
)
# ...named within a few words of the upgrade ("after upgrading jax", "since the update to 0.4.31")
_SOFTWARE_OR_VERSION = r"[^\n.;]{0,40}?(?:\b(?:" + _SOFTWARE + r")\b|\b\d+(?:\.\d+)+)"
# the framework's own ops: PyTorch/XLA's XRT runtime, TensorFlow's internal `_Name` ops
_INTERNAL_OP = r"(?:XRT\w+|_[A-Z]\w*)"
# the APIs of Google products other than Cloud TPU and Cloud Storage, by their hosts
_OTHER_API = (
    r"(?:bigquery|pubsub|aiplatform|[\w-]+-aiplatform|dataflow|dataproc|sqladmin|secretmanager|"
    r"logging|monitoring|sheets|drive|gmail|firestore|datastore|translate|vision|speech|language)"
    r"\.googleapis\.com"
)

# Another Google product by the name people give it, and a refusal of the account: how a person
# tells that product's 403 (`api_access`), kept apart from the TPU's own by a sentence that names
# no TPU between the two
_OTHER_PRODUCT = (
    r"(?:BigQuery|Pub/?Sub|Vertex AI|Google Drive|Drive API|Google Sheets|Sheets API|Datastore|"
    r"Firestore|Secret Manager|Cloud SQL|Spanner|Bigtable|Cloud Logging|Cloud Monitoring)"
)
_REFUSAL = (
    r"(?:\b403\b|\bForbidden\b|\bPERMISSION_DENIED\b|\binsufficient authentication scopes\b|"
    r"\bescopos? de autentica[çc][ãa]o\b)"
)
_NO_TPU_IN_SENTENCE = r"(?:(?!\bTPUs?\b|\btpu-vm\b|\btpus\b)[^\n.;?!])"

# A NaN the line says the TPU alone produces ("NaN loss on TPU, while on CPU it doesn't", "...on
# TPU, while that is not the case on GPU"): a result that differs on the TPU, the guide's own
# subject (accuracy-drop: bfloat16, batch statistics over shards), not the model's numerics. A NaN
# reproduced off the TPU ("also happens on CPU", "happens on my GPU box too") stays outside.
_ONLY_ON_TPU = re.compile(
    r"\b(?:while|whereas|but|mas|enquanto)\b[^\n.;?]{0,40}?\b(?:CPUs?|GPUs?)\b[^\n.;?]{0,30}?"
    r"(?:\bdoesn'?t\b|\bdoes not\b|\bdon'?t\b|\bdo not\b|\bdidn'?t\b|\bdid not\b|\bisn'?t\b|"
    r"\bis not\b|\bworks?\b|\bworked\b|\bfine\b|\bnão\b|\bfunciona)|"
    r"\b(?:while|whereas|but)\b[^\n.;?]{0,20}?\bnot the case\b[^\n.;?]{0,20}?\b(?:CPUs?|GPUs?)\b|"
    r"\bonly (?:on|with) (?:the |a )?TPUs?\b|\bsó (?:na|com a) TPU\b",
    re.I,
)
# ... or the person's own guard against it, a line of code that would raise or stop on a NaN
# (`raise RuntimeError('loss virou nan')`, `assert not jnp.isnan(loss)`): what the code checks,
# not a NaN the run met
_NAN_GUARD_OR_ONLY_ON_TPU = re.compile(
    _ONLY_ON_TPU.pattern + r"|^\s*(?:raise\s+[\w.]+\(|assert\b|if\b[^\n]*:\s*$)", re.I
)


# TensorFlow's TPU initialization function missing on the TPU's host: a TPU Node that was not
# initialized or not reached (tpu-connection), whatever version hint the message adds.
_TPU_INIT_FN = re.compile(r"__inference__tpu_init_fn")


class _Rule(NamedTuple):
    kind: str
    pattern: re.Pattern[str]
    # a line the pattern matches but that says something putting it back in the guide
    unless: re.Pattern[str] | None = None
    # what the line must also say, anywhere, for the pattern to count
    requires: re.Pattern[str] | None = None
    # the reading keeps the TPU types and generations the line names (`types`), for its note
    names_types: bool = False


# A TPU generation or accelerator type as people write it: "v5e-8", "v5litepod-16", "TPU v4",
# "v6e" (`tpu_generations` knows each; "IPv4" or "uuid4" are not one)
_GENERATION = r"v(?:2|3|4|5e|5p|5litepod|5lite|6e)"
_TPU_TYPE = re.compile(r"\b" + _GENERATION + r"(?:-\d+)?\b", re.I)
# the line is about a TPU: it names one, a generation or a slice
_NAMES_A_TPU = re.compile(r"\bTPUs?\b|\bslices?\b|\bfatias?\b|" + _TPU_TYPE.pattern, re.I)
# the second generation of "between v5e and v5p", so that the note quotes both
_AND_ANOTHER = (
    r"(?:-\d+)?\b(?:,? (?:and|or|vs\.?|e|ou) (?:(?:the|a|an|TPU|o|os|as)\s+){0,2}"
    + _GENERATION
    + r"(?:-\d+)?\b)?"
)
# how much of a thing the person's own run uses or needs, not what the hardware has
_OWN_USE = (
    r"\b(?:use[sd]?|using|take[sn]?|taking|consume[sd]?|need(?:s|ed)?|should|would|my|our|"
    r"the model|share[sd]?|split|usa|usando|usad[oa]s?|consome|ocupa|precis[oa]|devo|deveria|"
    r"meu|minha|o modelo|dividem|divide)\b"
)


_RULES: tuple[_Rule, ...] = (
    _Rule(
        "install",
        re.compile(
            # a module or a shared library that does not load
            r"\bImportError\b|\bModuleNotFoundError\b|\bundefined symbol\b|"
            r"\bcannot open shared object file\b|"
            # versions that do not go together
            r"\bversions? (?:mismatch|do(?:es)?n'?t match|do(?:es)? not match|are incompatible)\b|"
            r"\bmismatched\b[\w ]{0,40}\bversion\b|"
            r"\bincompatible (?:with )?(?:" + _FRAMEWORK + r"|version)\b|"
            # an op of the framework's own (XRT…, `_EagerConst`…) that the binary on the TPU's
            # host does not know: the client is a newer release than the TPU's software version.
            # Not an op of the model without a TPU kernel (op-unavailable: `No registered
            # OpKernel`), nor a library's custom op (`Addons>…`), nor TensorFlow's
            # `__inference__tpu_init_fn` (tpu-connection). Where the host is named as a TPU
            # worker (n-…-w-0), tpu-connection's own signature answers it with its versions fix
            r"(?:\bOp type not registered '" + _INTERNAL_OP + r"'|'" + _INTERNAL_OP + r"' is "
            r"neither a type of a primitive operation nor a name of a function registered) in "
            r"binary running on\b|"
            # TensorFlow loading a libtpu built for another release: a function TensorFlow expects
            # is missing from the library (`TpuEmbeddingEngine_CollateMemory not available in this
            # library`, logged as FATAL by tpu_library_init_fns); its functions are `Tpu…_…`.
            # tpu-connection's signature answers it (its versions fix), as a specific signature
            # does beside any reading here
            r"\bTpu\w*_\w+ not available in this library\b|"
            # TensorFlow's own diagnosis when the TPU's host lacks an op or function the client
            # sent (a dataset op of a newer release…): "One possible root cause is the client and
            # server binaries are not built with the same version"
            r"\bclient and server binaries are not built with the same version\b|"
            # an API the installed release no longer has (tf.contrib under TensorFlow 2…)
            r"\bmodule '" + _FRAMEWORK + r"[\w.]*' has no attribute\b|"
            # an argument the installed release does not take yet, or no longer (a script written
            # for another release: `batch(..., drop_remainder=True)` on TensorFlow 1.8)
            r"\bunexpected keyword argument\b|"
            # a library that refuses the installed release of another: Transformers' TensorFlow
            # classes under Keras 3 ("Your currently installed version of Keras is Keras 3, but this
            # is not yet supported in Transformers")
            r"\bis not yet supported in Transformers\b|"
            # TensorFlow 2.16 and later load Keras 3 as `tf.keras`, while a library built on
            # Keras 2 (tf-keras: TF Recommenders, older KerasCV) hands it Keras 2 objects
            r"\bOnly instances of `keras\.Layer` can be added to a Sequential model\b|"
            r"\bA KerasTensor cannot be used as input to a TensorFlow function\b|"
            # pip could not install the package at all
            r"\bNo matching distribution found\b|\bCould not find a version that satisfies\b|"
            r"\bFailed building wheel\b|"
            # gcloud's installer could not reach its server to install a component (a proxy, a
            # firewall): the component manager works, the network does not
            r"\bFailed to fetch component listing from server\b|"
            # gcloud itself does not start: the Python it runs on is one its release no longer
            # supports (CLOUDSDK_PYTHON), not the component manager an apt install disables
            r"\bgcloud failed to load\b|\brunning gcloud with Python [\d.]+, which is no longer "
            r"supported\b|"
            # pip's resolver refusing the set of packages asked for
            r"\bResolutionImpossible\b|\bconflicting dependencies\b|"
            # ... or installing them anyway and listing what now disagrees: "pip's dependency
            # resolver does not currently take into account all the packages that are
            # installed", "torchvision 0.18.1 requires torch==2.3.1, but you have torch 2.3.0
            # which is incompatible"
            r"\bpip's dependency resolver does not currently take into account\b|"
            r"\brequires [\w.\-\[\]]+[^\n,]{0,40}, but you have [\w.\-]+ [\w.+\-]+ which is "
            r"incompatible\b|"
            # a compiled module built against NumPy 1 imported under NumPy 2 (pip upgraded NumPy
            # for another package): "A module that was compiled using NumPy 1.x cannot be run in
            # NumPy 2.0.0"
            r"\bcompiled using NumPy \d\.x cannot be run\b|"
            # asked in words: how to install a framework ("how do I install jax on a TPU VM?",
            # "como instalo o torch_xla?"); a step the guide leaves to the frameworks' docs. Not
            # "set up" (Keras for a TPU strategy is a question of use), nor the profiler's plugin
            # (op-profiling's own)
            r"\b(?:how\s+(?:do|can|should)\s+(?:i|we|you)|how\s+to)\s+install\s+"
            r"(?:the\s+)?(?:latest\s+|right\s+)?" + _SOFTWARE_NAME + r"|"
            r"\bcomo\s+(?:eu\s+)?instal(?:o|ar|a)\s+(?:o\s+|a\s+)?" + _SOFTWARE_NAME,
            re.I,
        ),
        _TPU_INIT_FN,
    ),
    _Rule(
        # an op a library registers when it is imported (tensorflow_text's `CaseFoldUTF8` and
        # `SentencepieceOp`, TF Addons' `Addons>…`), asked for by a SavedModel or a graph on a
        # machine where that library was not imported (or not installed at TensorFlow's version).
        # The framework's own ops (`_INTERNAL_OP`) are `install`'s, above; on a TPU Node's worker
        # (n-…-w-0) tpu-connection's signature answers them with its versions fix. On a TPU VM
        # (t1v-n-…) the binary is this machine's own: no TPU is involved in the lookup
        "library_op",
        re.compile(
            r"\bOp type not registered '(?!" + _INTERNAL_OP + r"')[^'\n]{1,80}' in binary running "
            r"on (?!n-[0-9a-f]{8}-w-)[\w.-]+",
            re.I,
        ),
    ),
    _Rule(
        # the person says the problem began with a new release of the software: an upgrade
        # ("ever since I upgraded jax", "after updating to 0.8.1", "moving from torch==2.6.0.dev…06
        # to …07"), a nightly that broke ("new nightly breaks xla.device()"), a regression named
        # as such ("[Regression]", "a significant performance regression"). The cause is then the
        # release, a bug or a mismatch of versions for its maintainers, whatever the TPU symptom
        # looks like; the guide's fixes (restarting, padding, a smaller batch) do not reach it.
        # Not a move to the TPU ("after switching to a TPU"), a code change ("after updating my
        # model") nor a regression model
        "regression",
        re.compile(
            r"\b(?:after|since)\s+(?:i\s+|we\s+|the\s+|an?\s+|our\s+|my\s+)?(?:upgrad|updat)\w*\b"
            + _SOFTWARE_OR_VERSION
            + r"|\b(?:depois d[ae]|desde (?:que|a)|ap[oó]s(?: a)?)\s+(?:eu\s+)?atualiz\w*\b"
            + _SOFTWARE_OR_VERSION
            + r"|"
            r"\b(?:upgrad|updat|atualiz)\w*\s+(?:the\s+|my\s+|our\s+|o\s+|a\s+)?(?:"
            + _SOFTWARE
            + r")\s+(?:from|de)\s+\S*\d+\.\d+|"
            r"\b(?:moving|going|switching|upgrading|updating)\s+from\s+(?:[\w.=-]+\s+)?\S*\d+\.\d+\S*"
            r"\s+to\s+(?:[\w.=-]+\s+)?\S*\d+\.\d+[\w.+]*|"
            # what was upgraded named between: "Upgraded our TPU VM image from tf 2.15 to 2.16.1"
            r"\b(?:upgraded|updated)\s+(?:\S+\s+){1,4}?from\s+(?:[\w.=-]+\s+)?v?\d+\.\d+\S*"
            r"\s+to\s+(?:[\w.=-]+\s+)?v?\d+\.\d+[\w.+]*|"
            r"\bnightly\b[^\n.;]{0,40}?\b(?:breaks|broke|has broken|is broken)\b|"
            r"\[regression\]|\b(?:performance|speed|throughput|memory)\s+regression\b|"
            # a release named as where it broke ("TPU support broken on `v4.45.0`", "broken since
            # 0.4.26"), a regression put on a recent change ("regression … after recent commit")
            r"\bbroken\s+(?:on|in|since|with|as of|from)\s+[`'\"]?v?\d+\.\d+|"
            r"\bregression\b[^\n.]{0,60}?\b(?:after|since)\s+(?:the\s+|a\s+)?"
            r"(?:recent|latest|last|new)\s+(?:commit|release|nightly)s?\b",
            re.I,
        ),
        # what the new release changed is how much it prints ("since I upgraded torch_xla my
        # terminal is full of log spam", "meu terminal virou um lixão"): a question of the logs'
        # verbosity (debug-logs), not a failure the release brought
        re.compile(
            r"\b(?:spam\w*|noisy|noise|verbos\w+|lix[ãa]o|polu[ií]d[oa]|barulhent\w+)\b", re.I
        ),
    ),
    _Rule(
        # the shell has no such program: the tool itself (gcloud, a framework's launcher) is not
        # installed or not on PATH
        "program",
        re.compile(
            # (the program's name tried only where a name starts: a long run is scanned once)
            r"(?<![\w.-])[\w.-]+: command not found\b|"
            # bash in a Portuguese locale
            r"(?<![\w.-])[\w.-]+: comando n[ãa]o encontrado\b|"
            r"\bcommand not found: [\w.-]+|"
            r"\bis not recognized as an internal or external command\b|"
            # systemd could not execute the unit's program (a path or a virtualenv that is gone)
            r"\bstatus=203/EXEC\b|\bFailed to locate executable\b|\bFailed at step EXEC spawning\b",
            re.I,
        ),
    ),
    _Rule(
        # a launcher asked for a number of processes the TPU host does not split into
        # (torch_xla's xmp.spawn under XRT, Accelerate: one process or one per device): the
        # command's settings, not a TPU that cannot be reached
        "process_count",
        re.compile(r"\bnumber of devices must be either 1 or \d+, got \d+ instead\b", re.I),
    ),
    _Rule(
        # xmp.spawn's processes could not share the host's devices because the parent process had
        # already taken the TPU (xm.xla_device(), a tensor or a checkpoint put on it before the
        # spawn): each child sees one device (XRT: "Cannot replicate if number of devices (1) is
        # different from 8"; PJRT: "Runtime is already initialized"). The order of the person's
        # code, not a TPU held by an old run (hang-on-error) or one that cannot be reached
        "replication",
        re.compile(
            r"\bCannot replicate if number of devices \(\d+\) is different from \d+|"
            r"\bRuntime is already initialized\. Do not use the XLA device before calling "
            r"xmp\.spawn\b",
            re.I,
        ),
    ),
    _Rule(
        # what a TPU costs or what the account was charged: pricing and billing, which the guide
        # does not cover ("the price of" a precision setting, a free tier named in passing, are
        # not questions about cost)
        "billing",
        re.compile(
            r"\bhow much (?:does|do|would|will|did)\b[^\n?]{0,60}\bcost\b|"
            # "roughly what does a v5litepod-8 cost per hour", "what would each cost"
            r"\bwhat (?:does|do|would|will)\b[^\n?]{0,60}?\bcost\b|"
            r"\bcosts? (?:per|an?) (?:hour|hr|month|chip-hour)\b|"
            r"\bquanto (?:custa|custam|cobra|cobram|vou pagar)\b|"
            # a price by the hour or month, asked tersely: "qt sai v5e-8 spot por hora?"
            r"\b(?:quanto|qto|qt|how\s+much)\b[^\n?]{0,40}?(?:\b(?:por|per|an?)\s+(?:hora|hour|hr"
            r"|m[êe]s|month)\b|/\s*(?:h|hr|hora|hour)\b)|"
            r"\bpricing\b|\bprice per (?:hour|chip|core)\b|"
            # charged or billed, and billing as the subject (not "billing is enabled")
            r"\b(?:am|are|is|was|were|be|been|being|get|gets|got|getting|still) "
            r"(?:still |already )?(?:billed|charged)\b|"
            r"\b(?:billed|charged) (?:for|after|even|while|when)\b|"
            r"\b(?:in|on|about|sobre|de) (?:the )?billing\b|\bbilling\b[^\n.!?]{0,60}\?|"
            r"\bcobrad[oa]s?\b|\bcobran[çc]a\b|\bcobr(?:ou|aram)\b|"
            # the bill itself, a cost asked about, a budget ("the billing report still shows TPU
            # v4 charges accruing", "quanto tá custando um v5e-8 por hora?", "sai mais barato?")
            r"\b(?:billing\s+report|invoice|bill)\s+(?:still\s+)?(?:shows?|lists?)\b|"
            r"\bcharges?\s+(?:accruing|still|keep)\b|\bquanto\s+(?:t[áa]|est[áa])\s+custando\b|"
            r"\b(?:cheaper|mais\s+barat[oa])\?|"
            # a budget named as the subject ("fechar o orçamento de TPU"), or asked about; not
            # a run "slow for the budget", which is about its speed
            r"\bor[çc]amento\s+(?:de|da|do|para|pra|pro)\b|\bor[çc]amento\b[^\n.!?]{0,60}\?|"
            # a cost compared or discounted: "how do the hourly costs compare", "cheaper per
            # chip-hour", "does a committed-use discount apply to TPUs?"
            r"\bcommitted[- ]use\s+discounts?\b|\b(?:hourly\s+)?costs?\s+compare\b|"
            r"\bcheaper\s+per\s+(?:chip|core|hour|(?:training\s+)?tokens?|steps?|samples?)\b|"
            r"\bper\s+chip-hour\b|\bwhich\s+(?:one\s+)?is\s+cheaper\b|"
            # "does it stop charging?", "a diferença de preço de spot pra on-demand", the pricing
            # calculator
            r"\bstops?\s+(?:charging|billing)\b|\bpara\s+de\s+cobrar\b|"
            # "eu paro de pagar?", "o disco continua cobrando?", "antes que a fatura estoure"
            r"\bpar(?:o|a|amos)\s+de\s+pagar\b|\bcontinua(?:m)?\s+cobrando\b|"
            r"\bfatura\b|\bd[úu]vida\s+de\s+custo\b|"
            # "do I keep paying while it's stopped?", "billed per second or per hour?"
            r"\b(?:keep|still|continue\s+to)\s+paying\b|\bcontinu[ao]\s+pagando\b|"
            r"\b(?:billed|charged)\s+per\s+(?:second|minute|hour)\b|"
            r"\b(?:price|pricing)\s+(?:difference|calculator)\b|"
            # "quick cost question", "is that what I'd pay", "is the hourly price the same"
            r"\bcost\s+question\b|"
            # which paid tier: "which plan makes more sense", "qual plano vale mais a pena"
            r"\bwhich\s+(?:plan|tier|subscription)\b|\bqual\s+(?:plano|assinatura)\b|"
            r"\bwhat\s+(?:I|we)(?:['’]d|\s+would)\s+pay\b|\bhourly\s+price\b|"
            r"\b(?:diferen[çc]a\s+de|calculadora\s+de)\s+pre[çc]os?\b",
            re.I,
        ),
        # what something costs in memory or time, not in money ("how much does it really cost in
        # memory/time?", "quanto custa em memória?")
        re.compile(
            r"\bcosts?\s+(?:\w+\s+)?(?:in|of)\s+(?:memory|time|performance|speed|throughput|"
            r"accuracy|compute|HBM|FLOPs|step\s+time)\b|"
            r"\bcusta(?:m)?\s+(?:\w+\s+)?em\s+(?:mem[óo]ria|tempo|desempenho|velocidade)\b",
            re.I,
        ),
    ),
    _Rule(
        # where a TPU type is offered: "is v5e available in europe-west4?", "which zones have
        # v6e?", "em quais zonas tem v5p?" — a question for the regions-and-zones list, not a TPU
        # that misbehaves (answered as a connection problem, it shares "zone" and "TPU")
        "offering",
        re.compile(
            r"\bavailable\s+(?:(?:on[- ]demand|as\s+spot|yet|today|now)\s+)?in\s+(?:the\s+)?"
            r"(?:[a-z]+-[a-z]+\d+(?:-[a-z])?\b|"
            r"(?:which|what|my|this|that|any)\s+(?:zones?|regions?)\b)|"
            r"\b(?:which|what)\s+(?:zones?|regions?)\s+(?:have|has|offers?|supports?|provides?|"
            r"can\s+i)\b|"
            r"\bquais\s+(?:zonas|regi[õo]es)\b|"
            # when a generation reaches a region: "when does v6e come to europe-west4?", "quando
            # ela chega em southamerica-east1"
            r"\b(?:when|quando)\b[^\n?]{0,60}?\b(?:arrives?|lands?|launch(?:es)?|comes?|chega|"
            r"chegar[áa]?)\s+(?:em|na|no|in|to)\s+[a-z]+-[a-z]+\d+\b|"
            r"\bdispon[ií]ve(?:l|is)\s+(?:em|na|no|nas|nos)\s+(?:[a-z]+-[a-z]+\d+(?:-[a-z])?\b|"
            r"(?:qual|quais|minha|essa|esta)\s+(?:zona|regi[ãa]o))",
            re.I,
        ),
    ),
    _Rule(
        # what a TPU type or generation has — its chips, cores, devices or hosts, its peak
        # FLOPS — or how two generations differ: a question for each generation's figures
        # (`tpu_generations`, which the answer's note quotes), not a TPU that misbehaves. It was
        # answered as hbm-oom, whose table shares "chip", "v4" and "cores", or as a connection
        # problem. Not what the person's run uses, needs or shares ("how many cores should I use",
        # "how many devices share the batch on a v4-8?", "how many examples per core"), and only
        # where the line names a TPU. How much HBM a core or a chip has is hbm-oom's own question
        # (the guide's figures, and the walk's for the accelerator type), so it stays there.
        "hardware",
        re.compile(
            r"\bhow many (?:TPU |tensor ?)?(?:chips|cores|TensorCores|devices|hosts|host VMs)\b"
            r"(?![^\n?]{0,30}" + _OWN_USE + r")|"
            r"\b(?:what(?:'s| is| are)|explain)\b[^\n?]{0,12}?\bdifferences?\b[^\n?]{0,20}?"
            r"\bbetween (?:(?:the|a|an|TPU|TPUs|Cloud)\s+){0,3}" + _GENERATION + _AND_ANOTHER + r"|"
            # peak FLOPS, not how many of them the person's model reaches (low-mxu's MFU)
            r"\b(?:what(?:'s| is| are)|how many)\b(?![^\n?]{0,30}" + _OWN_USE + r")[^\n?]{0,30}?"
            r"\b[TP]?FLOPS\b(?!\s*(?:utili[sz]ation|usage|efficiency))|"
            r"\bquant[oa]s (?:TPU |tensor ?)?(?:chips|n[úu]cleos|cores|TensorCores|dispositivos|"
            r"hosts|VMs)\b(?![^\n?]{0,30}" + _OWN_USE + r")|"
            r"\bdiferen[çc]as? (?:\w+\s+)?entre (?:(?:a|as|o|os|TPUs?)\s+){0,2}"
            + _GENERATION
            + _AND_ANOTHER
            + r"|"
            r"\bquantos [TP]?FLOPS\b(?![^\n?]{0,30}" + _OWN_USE + r")|"
            # which unit a type's number counts: "is a v5litepod-8 8 chips or 8 TensorCores?"
            r"\b\d+ (?:chips|cores|TensorCores|devices|n[úu]cleos)\s+(?:or|ou)\s+(?:\d+\s+)?"
            r"(?:chips|cores|TensorCores|devices|n[úu]cleos|dispositivos)\b",
            re.I,
        ),
        requires=_NAMES_A_TPU,
        names_types=True,
    ),
    _Rule(
        "capacity",
        re.compile(
            r"\bno more capacity in the zone\b|\binsufficient (?:reserved )?capacity\b|"
            r"\bZONE_RESOURCE_POOL_EXHAUSTED\b|\bResourcesUnavailableError\b|"
            r"\bFailed to acquire resources\b|\bquota (?:metrics? )?exceed(?:s|ed)?\b|"
            r"\bexceeded (?:the )?quota\b|"
            # "it says it exceeds the project's quota", "fala que excede a cota do projeto"
            r"\bexceeds? (?:the |my |our )?(?:project'?s? )?quota\b|\bexced(?:e|eu|ia) a cota\b|"
            # asking for more: "a quota request", "request a quota increase", "pedido de cota"
            r"\bquota (?:increase|request)s?\b|\b(?:aumento|pedido) de cota\b|"
            r"\b(?:aumentar|trocar|ampliar)\s+(?:a\s+|minha\s+|nossa\s+)?cota\b|"
            # a queued resource waiting for capacity to be freed; GKE's scheduler with no node
            # that has TPU chips to give ("0/3 nodes are available: 3 Insufficient google.com/tpu")
            r"\bWAITING_FOR_RESOURCES\b|\bInsufficient (?:google\.com/tpu|nvidia\.com/gpu)\b|"
            # said in words: "failed … due to lack of TPU availability" ("TPU availability in
            # Colab is broken", a runtime that finds no TPU, is not this)
            r"\black of (?:(?:TPU|GPU|accelerator) )?(?:capacity|availability)\b|"
            # quoted as gcloud prints it, or doubled inside a YAML string (`describe` output)
            r"\bQuota (?:limit )?['\"]{1,2}[\w.-]+['\"]{1,2} "
            r"(?:has been )?(?:exceeded|exhausted)\b|"
            # in Portuguese: "não há capacidade na zona", "cota excedida", "estourou a cota"
            r"\b(?:n[ãa]o h[áa]|sem|falta de) capacidade\b|\bcapacidade insuficiente\b|"
            r"\bfalta de disponibilidade de (?:TPU|GPU|acelerador)(?:e?s)?\b|"
            r"\bcota (?:excedida|esgotada|estourada)\b|\b(?:excedeu|estourou|esgotou) a cota\b",
            re.I,
        ),
    ),
    _Rule(
        # gcloud refused the request to create a TPU for its own arguments (a runtime version
        # that does not exist, an accelerator type the zone or the API does not offer, a name in
        # use): the command line to fix, not a TPU to connect to. A refusal for the account's
        # scopes is the guide's (create-403-scopes), one for capacity is `capacity`, read first
        "create_request",
        re.compile(
            r"\(gcloud(?:\.alpha|\.beta)?\.compute\.tpus\.(?:tpu-vm\.|queued-resources\.)?create\)"
            r"\s*(?:(?:INVALID_ARGUMENT|ALREADY_EXISTS|FAILED_PRECONDITION)\b|"
            # a flag mistyped, which gcloud names ("unrecognized arguments: --accelerator_type=…
            # (did you mean '--accelerator-type'?)"); a flag an old gcloud does not know yet
            # ("unrecognized arguments: --spot") is gcloud-component-manager's, an update
            r"unrecognized arguments:[^\n]{0,80}\(did you mean '--[\w-]+'\?\))|"
            r"\bInvalid runtime version\b|\bUnsupported TPU runtime version\b|"
            # GKE refusing a TPU node pool's topology for its machine type ("Invalid TPU topology
            # \"2x2x2\" for machine type \"ct6e-standard-4t\"")
            r"\bInvalid TPU topology\b|"
            # ctpu, the TPU Node era's creation tool, refusing its --tf-version
            r"\"[\w.-]+\" TensorFlow version not available\b|\binvalid tensorflow version \"",
            re.I,
        ),
    ),
    _Rule(
        # Colab with no TPU (or GPU) free to give the session, or the account over its usage
        # limit, or Kaggle's weekly TPU hours used up: the notebook service's capacity, not a TPU
        # that cannot be reached
        "notebook_capacity",
        re.compile(
            r"\bNo backend with [GT]PU available\b|"
            # "You cannot currently connect to a GPU due to usage limits in Colab", "Cannot
            # connect to TPU backend due to usage limits", the Portuguese interface's "limites de
            # uso" beside a TPU/GPU backend or Colab
            r"\b(?:connect to (?:an? )?[GT]PU(?: backend)?|[GT]PU backend)\b[^\n]{0,40}?"
            r"\bdue to usage limits\b|\busage limits? (?:in|on|of|for) Colab\b|"
            r"\b(?:limites?|cota) de uso\b[^\n]{0,60}?\b(?:Colab|back-?end|[GT]PU)\b|"
            r"\b(?:Colab|back-?end|[GT]PU)\b[^\n]{0,60}?\b(?:limites?|cota) de uso\b|"
            # Kaggle's weekly TPU hours, Colab's quota: "acabou minha cota de TPU do Kaggle"
            r"\b(?:Kaggle|Colab)\b[^\n]{0,120}?\b(?:quota|cota)s?\b|"
            r"\b(?:quota|cota)s?\b[^\n]{0,60}?\b(?:Kaggle|Colab)\b|"
            # Kaggle's accelerator menu offering no TPU to this account (a phone not verified
            # yet, the week's hours used): "a opção "TPU VM v3-8" fica cinza", "TPU is greyed out"
            r"\bKaggle\b[^\n]{0,200}?\bTPU\b[^\n]{0,60}?\b(?:(?:fica(?:m|va)?|est[áa]|t[áa]|"
            r"aparece)\s+(?:desabilitad[oa]\s+\(?)?cinza|(?:is|are|was|stays?)\s+gr[ae]y(?:ed)?"
            r"(?:\s+out)?|gr[ae]yed\s+out|(?:aparece\s+)?desabilitad[oa]|(?:is\s+)?disabled|"
            r"n[ãa]o\s+aparece|(?:does\s+not|doesn['’]t)\s+(?:show\s+up|appear))|"
            # ... said the other way round: "no kaggle não aparece a opção de acelerador TPU"
            r"\bKaggle\b[^\n]{0,120}?\b(?:n[ãa]o\s+aparece|(?:does\s+not|doesn['’]t)\s+show)\b"
            r"[^\n]{0,60}?\bTPU\b|"
            # ... or the hours themselves: "acabaram minhas horas da semana" beside Kaggle or Colab
            r"\b(?:Kaggle|Colab)\b[^\n]{0,120}?\b(?:(?:acabaram|esgotaram|acabou)\s+(?:as\s+|minhas\s+)?"
            r"horas|(?:used\s+up|ran\s+out\s+of|out\s+of)\s+(?:my\s+|the\s+)?(?:weekly\s+)?"
            r"(?:TPU\s+|GPU\s+)?(?:hours|time|quota))\b|"
            # Kaggle's counter of the week's accelerator hours: "says 0 hrs remaining this week"
            r"\b\d+(?:[.,]\d+)?\s*(?:hours?|hrs?)\s+(?:remaining|left)\s+(?:this|for\s+the)\s+week\b|"
            # ... or their limit asked about: "qual o limite de horas por dia?" beside Colab
            r"\b(?:Kaggle|Colab)\b[^\n]{0,80}?\blimite\s+de\s+(?:horas|tempo|uso)\b|"
            r"\b(?:Kaggle|Colab)\b[^\n]{0,80}?\b(?:hours?|time|usage)\s+limits?\b|"
            # ... or the hours used of the week's: "You have used 20 of 20 hours this week"
            r"\bused\s+\d+(?:[.,]\d+)?\s+of\s+\d+\s*(?:hours?|hrs?)\s+this\s+week\b",
            re.I,
        ),
    ),
    _Rule(
        # Colab ending the notebook's runtime (idle too long, or at the session's maximum length):
        # the notebook service's limits, whatever the accelerator, not a TPU that drops
        "notebook_session",
        re.compile(
            r"\bYour runtime has been disconnected\b|\bRuntime disconnected\b|"
            r"\bAmbiente de execu[çc][ãa]o (?:foi |[ée] |fica )?desconectado\b|"
            r"\bColab\b[^\n]{0,30}?\b(?:disconnect(?:s|ed|ing)?|desconect\w*)\b|"
            r"\b(?:disconnect(?:s|ed|ing)?|desconect\w*)\b[^\n]{0,20}?\bColab\b|"
            # the notebook itself said to disconnect, Colab or Kaggle named earlier in the line
            # ("training in Colab Pro … after about 90 minutes the notebook disconnects")
            r"\b(?:Kaggle|Colab)\b[^\n]{0,160}?\b(?:notebook|runtime|session|kernel)\s+"
            r"(?:gets?\s+|got\s+|is\s+|was\s+|keeps\s+)?(?:disconnect(?:s|ed|ing)?|desconect\w*)\b|"
            # Kaggle's and Colab's maximum session length ("on Kaggle … always stops at around 9
            # hours", "o Colab derruba a sessão depois de 12 h")
            r"\b(?:Kaggle|Colab)\b[^\n]{0,160}?\b(?:stops?|stopped|shuts? down|killed|ends?|"
            r"dies|para|parou|cai|caiu|derruba|encerra)\b[^\n]{0,30}?\b\d{1,2}\s*(?:hours|horas|h)\b|"
            r"\b(?:Kaggle|Colab)\b[^\n]{0,160}?\bsession (?:time )?limit|"
            # a Kaggle commit ("Save & Run All") that runs for its maximum hours and stops
            r"\bSave\s*(?:&|and)\s*Run\s+All\b[^\n]{0,200}?\b(?:timed\s+out|time\s+limit)\b|"
            r"\b\d{1,2}\s*(?:hours|horas|h)\b[^\n]{0,60}?\b(?:stops?|stopped|dies|ends|para|parou)"
            r"\b[^\n]{0,120}?\bSave\s*(?:&|and)\s*Run\s+All\b|"
            r"\blimite de (?:tempo de )?sess[ãa]o\b[^\n]{0,60}?\b(?:Kaggle|Colab)\b",
            re.I,
        ),
    ),
    _Rule(
        # TensorFlow on a TPU Node or Colab's TPU, told to read or write a path on this machine:
        # the TPU's own host does the reading and writing and cannot see this machine's disk
        "storage",
        re.compile(r"\bFile system scheme '\[local\]' not implemented\b", re.I),
    ),
    _Rule(
        # Cloud Storage's IAM refused the account a bucket or an object (reading TFRecords,
        # writing checkpoints): a permission on the bucket, granted in Cloud Storage, not the
        # auth scopes of creating a TPU (create-403-scopes) nor anything the guide covers
        "storage_access",
        re.compile(
            r"\bdoes not have storage\.(?:objects|buckets)\.\w+ access\b|"
            # in other words: "doesn't have storage.objects.get", "lacks storage.objects.list",
            # "não tem storage.objects.get no objeto"
            r"\b(?:does(?:\s+not|n['’]t)\s+have|lacks|n[ãa]o\s+tem)\s+(?:the\s+|a\s+)?"
            r"(?:permiss(?:ion|[ãa]o)\s+)?['\"`]?storage\.(?:objects|buckets)\.\w+|"
            r"\bPermission '?storage\.(?:objects|buckets)\.\w+'? denied\b|"
            # TensorFlow's op that hands a Colab TPU the notebook's Cloud Storage credentials
            # (tensorflow_gcs_config), failing: the bucket's access, not the TPU's connection
            r"\{\{node GcsConfigureCredentials\}\}|"
            r"\bscheme was not a tensorflow::RetryingGcsFileSystem\b|"
            # Cloud Storage's JSON API refusing the VM's or pod's token its OAuth scopes: the
            # storage scope, not the TPU API's ("Request had insufficient authentication scopes").
            # Over the labelled and written sets, all 4 reports that quote it were outside the guide
            r"\bProvided scope\(s\) are not authorized\b|"
            # a 403 told beside the bucket in one sentence: "dá 403 ao gravar no gs://", "the
            # bucket returns 403 on every write"
            r"\b403\b[^\n.]{0,40}?(?:gs://|\bbucket)|(?:gs://|\bbucket\b)[^\n.]{0,40}?\b403\b",
            re.I,
        ),
    ),
    _Rule(
        # Cloud Storage has no object at the path the program asked for (a dataset's files renamed
        # or moved by a new version, a typo in the bucket path): Google's 404 "No such object",
        # or TensorFlow's NotFoundError for a gs:// path. The data's path, not the TPU; a 403 is
        # `storage_access`
        "storage_missing",
        re.compile(
            r"\bNo such object: [^\s\"']+|"
            r"\bNotFoundError\b[^\n]{0,200}?\bgs://\S+?;? No such file or directory\b|"
            r"\bNotFoundError\b[^\n]{0,40}?\bgs://\S+\s+(?:n[ãa]o\s+(?:foi\s+)?encontrad[oa]s?|not\s+found)\b|"
            # a bucket name that does not exist (a typo, another project's bucket): Cloud
            # Storage's 404 for the bucket itself
            r"\bThe specified bucket does not exist\b|\bNoSuchBucket\b|"
            # tf.data's list_files finding nothing at a pattern (a misspelt file name)
            r"\bNo files matched pattern\b",
            re.I,
        ),
    ),
    _Rule(
        # another Google product's API refused the request (BigQuery, Pub/Sub, Vertex AI, Drive,
        # Sheets…): that product's role for the account, or the VM's scopes for it. Cloud
        # Storage's own refusals are `storage_access`; the TPU API's scopes are create-403-scopes
        "api_access",
        re.compile(
            r"\b(?:403|Forbidden|PERMISSION_DENIED|insufficient authentication scopes)\b"
            r"[^\n]{0,200}?\b" + _OTHER_API + r"|\b" + _OTHER_API + r"[^\n]{0,200}?"
            r"\b(?:403|Forbidden|PERMISSION_DENIED|insufficient authentication scopes)\b|"
            r"\bAccess Denied: (?:BigQuery|Table|Dataset)\b|"
            # ... as a person tells it: the product, then its refusal in the same sentence with no
            # TPU between them ("the script inserts metrics into a BigQuery table and that call
            # fails with a 403 about insufficient authentication scopes"), or the refusal, then
            # the product it came from ("403 insufficient scopes when writing to BigQuery")
            r"\b"
            + _OTHER_PRODUCT
            + r"\b"
            + _NO_TPU_IN_SENTENCE
            + r"{0,120}?"
            + _REFUSAL
            + r"|"
            + _REFUSAL
            + _NO_TPU_IN_SENTENCE
            + r"{0,40}?\b(?:to|from|on|calling|writing to|querying|reading|para|d[oea]|n[oa]|ao)"
            r"\s+(?:the\s+|a\s+|o\s+)?" + _OTHER_PRODUCT + r"\b",
            re.I,
        ),
    ),
    _Rule(
        # the operating system refused the user a file or a directory (a disk mounted by root, a
        # cache directory another user made): its owner and mode, not the TPU. The TPU's own
        # device files (/dev/accel*, /dev/vfio) refused are hang-on-error's or tpu-connection's
        "file_permission",
        re.compile(
            r"\bPermissionError: \[Errno 13\] Permission denied: ['\"](?!/dev/(?:accel|vfio))|"
            r"\bcannot create directory\b[^\n]{0,120}?: Permission denied\b",
            re.I,
        ),
    ),
    _Rule(
        # a model hub refused to hand over a model: a gated model whose licence the account has
        # not accepted, a missing or read-less token (Hugging Face's GatedRepoError, Kaggle
        # Models' KaggleApiHTTPError, a 401 or 403 for a huggingface.co or kaggle.com URL). The
        # hub's account, not Google Cloud's permissions nor the TPU's scopes
        "model_hub",
        re.compile(
            r"\bGatedRepoError\b|\bCannot access gated repo\b|"
            r"\b(?:KaggleApiHTTPError|HfHubHTTPError)\b[^\n]{0,40}?\b40[13]\b|"
            r"\b40[13] Client Error\b[^\n]{0,60}?\bfor url: https?://(?:www\.)?"
            r"(?:huggingface\.co|kaggle\.com)/",
            re.I,
        ),
    ),
    _Rule(
        # the job ran on the host's CPU and never asked for the TPU: TPUEstimator given
        # use_tpu=False (a launcher's flag, a config that dropped it) logs where it runs. The
        # TPU's problems do not apply to a run that never used it
        "tpu_unused",
        re.compile(
            r"\bRunning (?:train|eval|evaluate|infer|predict) on CPU\b|"
            r"\bbecause use_tpu is False\b",
        ),
    ),
    _Rule(
        # Kubernetes found no node for the pod (GKE with TPU node pools): no pool whose
        # accelerator and topology match the pod's node selector, or a pool at its size limit.
        # The pod never started, so nothing reached the TPU. No capacity to give ("Insufficient
        # google.com/tpu") is `capacity`, read first
        "scheduling",
        re.compile(
            r"\bFailedScheduling\b|\bdidn'?t match Pod's node affinity(?:/selector)?\b|"
            r"\bNotTriggerScaleUp\b|\bpod didn'?t trigger scale-up\b",
        ),
    ),
    _Rule(
        # a request longer than the context the model or its server was configured for (vLLM's
        # --max-model-len, an OpenAI-compatible server's 400): a limit of the configuration,
        # checked before anything runs, not memory the TPU ran out of
        "context_length",
        re.compile(
            r"\bmaximum context length is \d+ tokens\b|"
            r"\bis longer than the maximum model length of \d+\b|"
            r"\bexceeds? (?:the )?max(?:imum)?[_ ]model[_ ]len\b|"
            # vLLM's engine told a context longer than its KV cache holds
            r"\bis larger than the maximum number of tokens that can be stored in KV cache\b",
            re.I,
        ),
    ),
    _Rule(
        # Kubernetes could not pull the job's container image (GKE with TPU node pools): the
        # registry refused the node's account, or the image or tag does not exist. The pod never
        # starts, so nothing reached the TPU
        "container_image",
        re.compile(
            r"\bFailed to pull image\b|\bErrImagePull\b|\bImagePullBackOff\b|"
            r"\bBack-off pulling image\b",
        ),
    ),
    _Rule(
        # the machine's disk is full (a boot disk filled by caches, datasets, checkpoints, the
        # system's logs): not the TPU's memory, whose messages these words resemble. When libtpu's
        # own logs filled it, the debug-logs entry's signature (/tmp/tpu_logs) settles the answer
        # and this reading does not refuse it (`decide.outside_guide`)
        "disk_full",
        re.compile(
            r"(?:\[Errno 28\] )?\bNo space left on device\b|\[Errno 28\]|\bENOSPC\b|"
            # in words: "the logs fill up the disk", "fills up disk space", "root disk
            # exhaustion", "the boot disk is full", "o disco encheu"
            r"\b(?:fill(?:s|ed|ing)?(?: up)?|exhaust(?:s|ed|ing)?)\s+(?:the\s+|my\s+|our\s+)?"
            r"(?:(?:root|boot|local)\s+)?disk\b(?!\s+cache)|"
            r"\b(?:root\s+|boot\s+)?disk\s+(?:space\s+)?(?:exhaustion|(?:is|was|got|gets)\s+full)\b|"
            r"\b(?:root|boot)\s+disk\b[^\n.]{0,20}?\b(?:fills|filled|full)\b|"
            r"\bdisco\s+(?:de\s+boot\s+|raiz\s+)?(?:encheu|cheio|lotou|lotado)\b|"
            # Kubernetes marking a node short of disk (images piling up on a GKE node pool)
            r"\bDiskPressure\b",
            re.I,
        ),
        # the TPU's own logs named as what fills it: the debug-logs entry's subject, whether or
        # not the line names their folder (/tmp/tpu_logs) for its signature
        re.compile(
            r"\b(?:TPU|libtpu)\s+(?:debug\s+)?logs?\b|\btpu_logs\b|\blogs?\s+(?:da|of the)\s+TPU\b",
            re.I,
        ),
    ),
    _Rule(
        # the VM's (or Colab's) RAM, not the TPU's HBM: the guide's memory entries are about the
        # TPU's own memory, whose messages say RESOURCE_EXHAUSTED / "memory space hbm"
        "host_memory",
        re.compile(
            r"\b(?:std::)?bad_alloc\b|\bCannot allocate memory\b|"
            r"(?<!\w)MemoryError\b|\b_ArrayMemoryError\b|"
            r"\bUnable to allocate [0-9.]+\s*[KMGT]i?B for an array\b|"
            r"\bOut of memory: Kill(?:ed)? process\b|\boom[-_ ]kill(?:er|ed)?\b|"
            # what the shell prints when the kernel's OOM killer ends the process, alone on its
            # line or quoted by the person ("the terminal just prints \"Killed\"", "só `Killed`")
            r"^\s*Killed\s*$|(?<=[\"“'`])Killed(?=[\"”'`])|"
            r"\bafter using all available RAM\b|"
            # Kubernetes killed the container for its memory limit (the pod's RAM, not HBM);
            # Kaggle's notebook over the VM's RAM
            r"\bOOMKilled\b|\btried to allocate more memory than is available\b|"
            # Cloud Run's instance over its memory limit (a CPU container serving the model)
            r"\bMemory limit of [0-9.]+\s*[KMGT]i?B exceeded with [0-9.]+\s*[KMGT]i?B used\b|"
            # RAM in a person's words is the host's: the TPU's memory is HBM
            r"\bout of (?:host |system |CPU |the )?RAM\b|"
            # "asks for more RAM than available", "needs 3x more RAM than the array itself"
            r"\bmore RAM than\b|"
            # TensorFlow's CPU allocator: tensors built in the host's memory (a dataset loaded
            # into NumPy, a model run on the VM's CPU), never the TPU's HBM; also quoted with a
            # letter for each figure ("Allocation of X exceeds Y% of system memory")
            r"\bAllocation of (?:\d+|[A-Z]) exceeds (?:\d+|[A-Z])% of (?:free )?system memory\b|"
            # in Portuguese: "acabou a RAM", "ficou sem memória RAM", "usou toda a RAM"
            r"\b(?:acabou|estourou|esgotou) a (?:mem[óo]ria )?RAM\b|\bsem (?:mem[óo]ria )?RAM\b|"
            r"\btoda a (?:mem[óo]ria )?RAM\b|\bRAM (?:acabou|estourou|esgotou)\b|"
            # a process killed beside its resident size, which only the host's memory has ("the
            # python process gets killed. htop shows it at ~350 GB resident")
            r"\b(?:gets?|got|was|is|being)\s+killed\b[^\n]{0,120}?\bresident\b|"
            r"\bresident\b[^\n]{0,120}?\b(?:gets?|got|was|is|being)\s+killed\b|"
            # its out-of-memory error names the device and the allocator: the host's CPU ones
            # ("… on /job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu")
            r"\bOOM when allocating tensor\b[^\n]*?/device:CPU:\d+|\bby allocator cpu\b",
            re.I,
        ),
        # a person calling the TPU's own memory its RAM ("the TPU runs out of RAM")
        re.compile(
            r"\b(?:TPU|HBM)(?:'s)?\s+(?:(?:is|was|runs?|ran|going)\s+)?(?:out\s+of\s+)?RAM\b|"
            # "a TPU ficou sem RAM", "a RAM da TPU acabou"
            r"\b(?:TPU|HBM)\s+(?:ficou|fica|est[áa]|ficando)\s+sem\s+(?:mem[óo]ria\s+)?RAM\b|"
            r"\bRAM da (?:TPU|HBM)\b|"
            # ... or ruling the OOM killer out ("Nothing in dmesg, no OOM killer", "sem OOM")
            r"\b(?:no|not|nor|sem|nenhum)\s+(?:the\s+|an?\s+|o\s+)?"
            r"(?:OOM|oom[-_ ]kill(?:er|ed)?)\b",
            re.I,
        ),
    ),
    _Rule(
        "numerics",
        re.compile(
            # TensorFlow's own words for it
            r"\bNanLossDuringTrainingError\b|\bhad NaN values\b|\bFound Inf or NaN\b|"
            # NaN or inf shortly after the loss or the gradients ("loss = nan", "loss became NaN",
            # "a perda virou nan", "grad_norm inf"), but not a starting value: Keras's "val_loss
            # improved from inf" on every first epoch, `best_loss = float("inf")`, `np.inf`
            # ... and not a NaN the line rules out ("a loss desce normal, sem NaN", "loss never
            # goes NaN")
            r"\b(?:loss|losses|gradients?|grad_norm|perda)\b"
            r"(?:(?!\b(?:no|not|never|without|nor|sem|nem|nunca|n[ãa]o|nenhum)\b)[^\n]){0,20}?"
            r"(?<!from )(?<![.'\"])\b(?:nan|inf|infinite|infinity|infinito)\b|"
            r"(?<!\bno )(?<!\bsem )(?<!\bnot )\bNaN (?:loss|gradients?)\b|"
            # JAX's debug_nans naming the operation of the person's code that made the first NaN
            r"\bFloatingPointError: invalid value \(nan\) encountered in\b",
            re.I,
        ),
        _NAN_GUARD_OR_ONLY_ON_TPU,
    ),
    _Rule(
        # the code that loads and prepares the data on the host crashed: a tokenizer used from
        # several threads or processes at once (Hugging Face's "Already borrowed", a Rust panic),
        # an image that does not decode, a DataLoader worker killed by the OS (a Bus error when
        # the container's shared memory is too small), items of different sizes batched together.
        # Not the TPU's problem, and not the input
        # pipeline's speed (input-bottleneck)
        "data_loading",
        re.compile(
            r"\bRuntimeError: Already borrowed\b|\b(?:pyo3_runtime\.)?PanicException\b|"
            r"\bimage file is truncated\b|\bUnidentifiedImageError\b|"
            # TensorFlow's image decoder given a file that is no image (a stray text or HTML file)
            r"\bUnknown image file format\. One of JPEG, PNG, GIF, BMP required\b|"
            # a TFRecord file cut short or damaged (an interrupted copy): tf.data stops at the same
            # record every time
            r"\b(?:corrupted|truncated) record at \d+|"
            r"\bDataLoader worker \(pid(?:\(s\)|s)?\s[^)]{0,40}\) "
            r"(?:is killed by signal|exited unexpectedly)|"
            r"\bUnexpected bus error encountered in worker\b|"
            r"\binsufficient shared memory \(shm\)|"
            # the tokenizer was never given a padding token: the data preparation's set-up
            r"\bAsking to pad but the tokenizer does not have a padding token\b|"
            # items of different sizes batched with no resize or padding: tf.data's batch() and
            # PyTorch's default collate refuse them on the host, on any device, before anything is
            # compiled (not a size that changes between the TPU's steps: dynamic-shape)
            r"\bCannot batch tensors with different shapes in component\b|"
            r"\bstack expects each tensor to be equal size\b",
            re.I,
        ),
    ),
    _Rule(
        # Keras asked for more batches than the dataset gives ("Your input ran out of data": the
        # steps_per_epoch times the epochs), or given an endless (repeated) dataset with no
        # steps_per_epoch to end an epoch: the dataset's length against the fit's arguments, on
        # any device, not how many steps run per call to the TPU (steps-per-execution)
        "dataset_steps",
        re.compile(
            r"\bYour input ran out of data\b|"
            r"\bWhen providing an infinite dataset, you must specify the number of steps\b|"
            r"\byou should specify the `?steps_per_epoch`? argument\b|"
            # ... or said: a repeated dataset and no steps_per_epoch ("ds.repeat().batch(1024), no
            # steps_per_epoch set"), so Keras's epoch never ends
            r"\brepeat\(\)[^\n]{0,120}?\b(?:no|without(?:\s+a)?|sem)\s+`?steps_per_epoch\b|"
            r"\b(?:no|without(?:\s+a)?|sem)\s+`?steps_per_epoch\b[^\n]{0,120}?\brepeat\(\)",
            re.I,
        ),
    ),
    _Rule(
        # converting a trained model to another format or runtime (TFLite, ONNX through tf2onnx
        # or torch.onnx, TensorRT, Core ML) met an op the converter does not know: the target
        # runtime's op set, not an op the TPU lacks (op-unavailable), wherever the model trained
        "export",
        re.compile(
            r"\bis neither a custom op nor a flex op\b|"
            r"\bSome ops are not supported by the native TFLite runtime\b|"
            r"\berror: failed while converting\b|"
            r"\btf2onnx\b[^\n]{0,80}?\b(?:Unsupported ops|is not supported)\b|"
            r"\bUnsupported ops: Counter\((?:\{[^}\n]{0,80}\}\))?|"
            r"\bExporting the operator '?[\w:.]+'? to ONNX opset version \d+ is not supported\b|"
            r"\bUnsupportedOperatorError\b|"
            r"\bPyTorch convert function for op '\w+' not implemented\b|"
            # TensorRT's ONNX parser meeting a node it has no importer or plugin for
            r"\bFailed to parse onnx file\b|\bimportFallbackPluginImporter\b",
            re.I,
        ),
    ),
    _Rule(
        # the compiler says the failure is its own bug ("Ran out of memory in memory space vmem.
        # Please file a bug against XLA."): the fix is a workaround or a newer release, not a
        # change the guide's entries describe
        "compiler",
        re.compile(
            r"\bplease (?:file|report) (?:a|this as a) bug (?:against|with|to) (?:the )?XLA\b|"
            r"\bshould not be possible to run out of vmem\b|"
            r"\bthis is (?:probably |likely )?a bug in XLA\b",
            re.I,
        ),
    ),
    _Rule(
        # one kernel's on-chip scratch memory (VMEM, SMEM: a few MiB per core) is full: the blocks
        # of a Pallas kernel (flash or splash attention, a ragged matmul) or a fusion XLA made are
        # too big for it. Not the TPU's HBM (hbm-oom, batch-or-model-too-large) nor HBM wasted by
        # padding (tensor-padding): the fix is smaller kernel blocks. After `compiler`, whose
        # note fits a message that also calls it a bug of XLA's
        "scratch_memory",
        re.compile(
            r"\bRan out of memory in memory space [vs]mem\b|\bexceeded scoped vmem limit\b|"
            r"\bExceeded [vs]mem capacity\b|"
            # in the person's words ("a vmem OOM", "compilation OOM of about 1GB VMEM"): VMEM is
            # never the HBM the memory entries are about
            r"\bvmem\s+(?:OOM|out of memory)\b|\b(?:OOM|out of memory)\b[^\n.;]{0,30}?\bvmem\b",
            re.I,
        ),
    ),
    _Rule(
        # a saved checkpoint does not fit the model it is restored into: a key missing or left
        # over, a shape or a tree structure that differs from what was saved. The person's code or
        # the checkpoint changed between the save and the restore; the shapes it names are not a
        # TPU's dynamic shapes (dynamic-shape) nor memory (batch-or-model-too-large)
        "checkpoint",
        re.compile(
            # PyTorch's load_state_dict
            r"\bError\(s\) in loading state_dict\b|"
            r"\b(?:Missing|Unexpected) key\(s\) in state_dict\b|"
            r"\bsize mismatch for [\w.]+: copying a param with shape\b|"
            # TensorFlow's and Keras's restore
            r"\bKey [\w/.:-]+ not found in checkpoint\b|"
            r"\bReceived incompatible tensor with shape\b"
            r"[^\n]{0,80}?\bwhen attempting to restore\b|"
            r"\bLayer count mismatch when loading weights\b|"
            # TensorFlow 1's init_from_checkpoint (BERT's run_classifier.py and its kin)
            r"\bdoesn'?t match with shape of tensor\b[^\n]{0,200}?\bfrom checkpoint reader\b|"
            r"\bYou are loading a weight file containing \d+ layers into a model with \d+ "
            r"layers\b|"
            # Orbax's and Flax's restore
            r"\bis not compatible with the stored shape\b|\bdoes not match (?:the )?stored shape\b|"
            # T5X's restore: "Shape of `…embedding` in checkpoint (250112, 768) differs from model
            # (32128, 768)"
            r"\bin checkpoint \([\d, ]+\) differs from (?:the )?model\b|"
            # Flax's parameters of another shape than the module builds (restored or passed in)
            r"\bScopeParamShapeError\b|\bInitializer expected to generate shape\b",
            re.I,
        ),
    ),
    _Rule(
        # TensorFlow's distribution strategy used against its rules in the person's code: a model,
        # optimizer or metric created outside `strategy.scope()`, two strategies mixed, a
        # cross-replica call made from a replica's function. The TPU runs what it is given; the
        # fix is where the code creates and calls things, which the guide does not cover
        "strategy",
        re.compile(
            r"\bwas not created in the distribution strategy scope\b|"
            r"\bdifferent from the scope used for the original variable\b|"
            r"\bunder the scope for tf\.distribute\.Strategy\b|"
            r"\bMixing different tf\.distribute\.Strategy objects\b|"
            r"\bmerge_call`? called while defining a new graph\b|"
            r"\bMethod requires being in cross-replica context\b|"
            # Keras's generator methods, which a strategy's model does not take
            r"\bis not supported for models compiled with tf\.distribute\.Strategy\b",
            re.I,
        ),
    ),
    _Rule(
        # PyTorch refusing an op whose tensors sit on two devices (the XLA device and the CPU): a
        # tensor, a buffer or a model the code never moved to the TPU. The person's own code, not
        # a TPU problem the guide names (nor a connection: the device is there)
        "device_placement",
        re.compile(
            r"\bExpected all tensors to be on the same device\b|"
            r"\bExpected (?:object of )?device type \w+ but got device type \w+|"
            r"\bExpected tensor for argument #\d+ '\w+' to have the same device as tensor\b|"
            r"\bAttempted to set the storage of a tensor on device \S+ to a storage on different "
            r"device\b|\bTensor on device \S+ is not on the expected device\b|"
            # PyTorch/XLA's own word for a CPU tensor given to an op on the XLA device
            r"\bInput tensor is not an XLA tensor\b|"
            # JAX's form: the arrays of one jitted call committed to different devices
            r"\bReceived incompatible devices for jitted computation\b",
            re.I,
        ),
    ),
    _Rule(
        # the code, or a library it loads, asks for CUDA on a machine without an NVIDIA GPU (a
        # TPU VM, a TPU notebook): a `.cuda()` left from the GPU version of the script, JAX asked
        # for its 'gpu' platform where only tpu and cpu are present, a CUDA-only library
        # (bitsandbytes' kernels, flash-attn's build that needs nvcc) installed or imported. The
        # TPU is not involved: the run never asked for it. JAX's start-up probe of the GPU
        # platforms it could not start is harmless (`_HARMLESS`), not this
        "cuda_request",
        re.compile(
            r"\bTorch not compiled with CUDA enabled\b|\bNo CUDA GPUs are available\b|"
            r"\bFound no NVIDIA driver on your system\b|"
            r"\bUnknown backend:? '(?:gpu|cuda|rocm)' requested\b|"
            r"\bno platforms that are instances of (?:gpu|cuda|rocm) are present\b|"
            # bitsandbytes without its CUDA kernels, a CUDA extension's build without the toolkit
            r"\bcompiled without GPU support\b|\bnvcc was not found\b|"
            r"\bCUDA_HOME environment variable is not set\b",
            re.I,
        ),
    ),
    _Rule(
        # gcloud found no such TPU, queued resource or VM where it looked: a name, a zone or a
        # project other than the resource's own (the default zone of `gcloud config` is not the
        # TPU's). Nothing reached the TPU; not a connection, a key or a creation problem
        "resource_missing",
        re.compile(
            r"\(gcloud\.[\w.-]+\) NOT_FOUND: Resource '[^'\n]{1,300}' was not found\b|"
            r"\bNOT_FOUND: Resource 'projects/[^'\n]{1,300}/(?:nodes|queuedResources|instances)/"
            r"[^'\n]{1,100}' was not found\b",
        ),
    ),
    _Rule(
        # JAX's sharding of an array that does not divide among the devices of its mesh axis (a
        # model dimension of 12 over 8 devices), or that names an axis the mesh does not have:
        # the person's sharding, not a TPU problem the guide names. Dimension 0 is the batch's:
        # a batch the devices do not divide (the last, smaller batch of an epoch; a global batch
        # not a multiple of the cores, as TPUEstimator's "must be divisible by number of
        # replicas" says) is the entries' (dynamic-shape, batch sizes), not outside the guide
        "sharding",
        re.compile(
            r"\bimplies that array axis (?!0\b)\d+ is partitioned \d+ times, but the dimension "
            r"size is\b|"
            r"\bglobal size of its dimension (?!0\b)\d+ should be divisible by \d+\b|"
            r"\bShardingTypeError\b|"
            r"\bResource axis: \S+ of [^\n]{1,200}? is not found in mesh\b",
            re.I,
        ),
    ),
    _Rule(
        # an index outside the table it reads: a token id at or over the vocabulary's size (the
        # tokenizer and the model's embedding disagree), a label at or over the number of
        # classes. The data or the configuration, not the TPU (which does not check: XLA clamps
        # or fills an out-of-range gather, and the error shows where the code runs elsewhere)
        "index_range",
        re.compile(
            r"\bindices\[[\d,]+\] = -?\d+ is not in \[0, ?\d+\)|"
            r"\bIndexError: index out of range in self\b|"
            r"\bTarget -?\d+ is out of bounds\b",
            re.I,
        ),
    ),
    _Rule(
        # the labels do not fit the loss: one-hot labels given to a sparse loss (TensorFlow's
        # "logits and labels must have the same first dimension", the labels flattened to
        # batch × classes), integer labels given to a categorical one (Keras's "Shapes (None, 1)
        # and (None, 10) are incompatible", "`target` and `output` must have the same shape").
        # The same error on any device: not a shape the TPU cannot compile (dynamic-shape) nor a
        # batch the cores do not divide. Not PyTorch's "Expected input batch_size (128) to match
        # target batch_size (64)": in the labelled sets it is mostly the crash that left the
        # other processes hanging (hang-on-error)
        "loss_labels",
        re.compile(
            r"\blogits and labels must have the same first dimension\b|"
            r"\bShapes \([\w, ?]*\) and \([\w, ?]*\) are incompatible\b|"
            r"\bArguments `target` and `output` must have the same (?:shape|rank)\b|"
            r"\b`?logits`? and `?labels`? must have the same shape\b",
            re.I,
        ),
    ),
    _Rule(
        # the framework's automatic differentiation refused the model's own graph: a tensor
        # backward needs changed in place, backward run twice through one graph, a loss cut off
        # from the weights (detached, computed under no_grad, or not depending on the variables).
        # The person's code, the same on any device
        "autograd",
        re.compile(
            r"\bhas been modified by an inplace operation\b|"
            r"\bTrying to backward through the graph a second time\b|"
            r"\bdoes not require grad and does not have a grad_fn\b|"
            r"\bNo gradients provided for any variable\b",
            re.I,
        ),
    ),
    _Rule(
        # Keras checked a batch against the input the model was built for and a size other than
        # the batch's differs ("Input 0 of layer "model" is incompatible with the layer: expected
        # shape=(None, 160, 160, 3), found shape=(16, 192, 192, 3)"): the data's preprocessing or
        # the model's Input, on any device, not a shape the TPU cannot compile (dynamic-shape)
        "model_input",
        re.compile(r"\bInput \d+ (?:of layer \S+ )?is incompatible with (?:the )?layer\b", re.I),
    ),
    _Rule(
        # two arrays whose sizes are all known do not fit each other: an element-wise op that
        # cannot broadcast them (TensorFlow's "Incompatible shapes: [16,10] vs. [16,1]", JAX's
        # "mul got incompatible shapes for broadcasting", PyTorch's "The size of tensor a (128)
        # must match the size of tensor b (64)"), a matmul whose inner sizes differ ("mat1 and
        # mat2 shapes cannot be multiplied (64x512 and 256x10)"), a reshape to another number of
        # elements (JAX's "cannot reshape array of shape (8, 512, 1024) (size 4194304) into shape
        # (8, 512, 16, 128)"). The model's or the data's sizes, on any device: not a shape the
        # TPU cannot compile (dynamic-shape). NumPy's "cannot reshape array of size N into shape
        # (8,newaxis,…)" is not read: splitting a batch among the devices is
        # batch-or-model-too-large's
        "shape_mismatch",
        re.compile(
            r"\bIncompatible shapes: \[\d+(?:,\s?\d+)*\] vs\. \[\d+(?:,\s?\d+)*\]|"
            r"\bgot incompatible shapes for broadcasting\b|"
            r"\bmat1 and mat2 shapes cannot be multiplied\b|"
            r"\bThe size of tensor a \(\d+\) must match the size of tensor b \(\d+\)|"
            r"\bcannot reshape array of shape \([\d, ]*\) \(size \d+\) into shape\b",
            re.I,
        ),
    ),
    _Rule(
        # a plain Python error in the person's own code or data, the same on any machine: a
        # value that is None where the code expected a result ("'NoneType' object is not
        # subscriptable": an image that did not load, a config file that parsed empty), a key a
        # dictionary or config does not have, a name never defined. No TPU problem raises these.
        # A key naming the TPU's own setting (`KeyError: 'TPU_NAME'`, 'COLAB_TPU_ADDR') is the
        # connection's; a run that then hangs is hang-on-error's (its signatures tell what
        # followed: `decide._follows`)
        "python_error",
        re.compile(
            r"\b(?:TypeError|AttributeError): 'NoneType' object (?:is not (?:subscriptable|"
            r"iterable|callable)|has no attribute '\w+')|"
            r"^\s*KeyError: '[^'\n]{1,60}'\s*$|"
            r"\bNameError: name '\w+' is not defined\b|"
            r"\bunsupported operand type\(s\) for \S{1,3}: 'NoneType' and\b|"
            r"\bRecursionError: maximum recursion depth exceeded\b",
            re.I | re.M,
        ),
        re.compile(r"tpu|xla|colab|libtpu|resolver|device|mesh", re.I),
    ),
    _Rule(
        # JAX's tracer leaked out of the transformation that made it (kept in a global, a list or
        # an attribute from inside jit, grad or scan): the person's code, not the shapes the
        # dynamic-shape entry is about (its ConcretizationTypeError is a tracer used for a size)
        "tracer_leak",
        re.compile(r"\bUnexpectedTracerError\b|\bEncountered an unexpected tracer\b", re.I),
    ),
    _Rule(
        # the machine could not verify a server's TLS certificate: a proxy or firewall that
        # inspects HTTPS with its own certificate (an office network), a missing or outdated CA
        # bundle. gcloud, pip or the code cannot reach Google's APIs from this network at all;
        # neither the TPU nor its connection is involved
        "certificate",
        re.compile(
            r"\bCERTIFICATE_VERIFY_FAILED\b|\bSSLCertVerificationError\b|"
            r"\bcertificate verify failed\b|\bself[- ]signed certificate in certificate chain\b|"
            r"\bunable to get local issuer certificate\b",
            re.I,
        ),
    ),
    _Rule(
        # Python's `if`, `while` or `bool()` on a value JAX traces under jit: the person's control
        # flow (jax.lax.cond, jnp.where), not an op the TPU lacks nor the sizes the dynamic-shape
        # entry is about (a tracer used for a size or an index, its ConcretizationTypeError and
        # TracerIntegerConversionError, stays that entry's)
        "traced_condition",
        re.compile(
            r"\bTracerBoolConversionError\b|\bAttempted boolean conversion of traced array\b",
            re.I,
        ),
    ),
    _Rule(
        # Python's multiprocessing started a child before the main module finished loading: a
        # launch (xmp.spawn, DataLoader workers, torch.multiprocessing) at module level with no
        # `if __name__ == "__main__":` guard, which every spawned child runs again. The message's
        # own lines, which a paste often breaks after "RuntimeError:"
        "spawn_guard",
        re.compile(
            r"\bAn attempt has been made to start a new process before\b|"
            r"\bhas finished its bootstrapping phase\b|^\s*freeze_support\(\)\s*$",
            re.I,
        ),
    ),
)


# the kind `read_code` reads from pasted code, not from a key line
ONE_PROCESS_COLLECTIVE = "one_process_collective"
KINDS = (*(rule.kind for rule in _RULES), ONE_PROCESS_COLLECTIVE)

# Lines that look like a problem outside the guide and are harmless:
# - TensorFlow logs at every start on a machine without a GPU (a TPU VM, Colab) that it could not
#   load the CUDA libraries;
# - JAX probes every platform at start-up and logs, at INFO, each GPU backend it could not start
#   ("Unable to initialize backend 'rocm': module 'jaxlib.xla_extension' has no attribute
#   'GpuAllocatorConfig'"), whatever the TPU then does;
# - google-auth warns, whenever user credentials have no quota project, that a "quota exceeded"
#   error might follow: a warning of what could happen, not a quota that ran out.
_HARMLESS = re.compile(
    r"Could not load dynamic library|dso_loader|\blib(?:cu\w*|nv\w*|tensorrt\w*)\.so|"
    r"\bUnable to initialize backend '(?:cuda|rocm|gpu|metal)'|"
    r"\bYou might receive a \"quota exceeded\"",
    re.I,
)


# A message quoted to say it did not appear: '("Your notebook tried to allocate more memory than is
# available" não aparece, só "Kernel died")', '"Killed" never shows up'. What the person rules out
# is no reading of what happened.
_DENIED_AFTER = re.compile(
    r"[^\n\"“”'`]{0,60}[\"”'`]\)?\s*,?\s*(?:"
    r"n[ãa]o\s+(?:aparece|aparecem|apareceu|aparecia|sai|saiu|mostra)"
    r"|(?:does|do|did)\s*n[o']t\s+(?:appear|show(?:\s+up)?|get\s+printed)"
    r"|(?:is|was)\s*n[o']t\s+(?:shown|printed|there)|never\s+(?:appears|shows(?:\s+up)?|printed))\b",
    re.I,
)


def read_outside(key_lines: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The first problem outside the guide in `key_lines` ([{"line", "text"}]): {"kind": one of
    `KINDS`, "text": the words that say so, "line": its line number}; None if there is none."""
    for key in key_lines:
        if _HARMLESS.search(key["text"]):
            continue
        for rule in _RULES:
            m = rule.pattern.search(key["text"])
            if not m or (rule.unless and rule.unless.search(key["text"])):
                continue
            if rule.requires and not rule.requires.search(key["text"]):
                continue
            if _DENIED_AFTER.match(key["text"], m.end()):
                continue
            found = {"kind": rule.kind, "text": m.group(0), "line": key["line"]}
            if rule.names_types:
                found["types"] = list(
                    dict.fromkeys(t.lower() for t in _TPU_TYPE.findall(key["text"]))
                )
            return found
    return None


# Pasted code in which a branch only the first process takes ("if xm.is_master_ordinal():", "if
# jax.process_index() == 0:", "if rank == 0:") calls, in its own block, what every process of the
# run must call together: a collective (torch_xla's `xm.save`, which gathers before the master
# writes, `xm.rendezvous`, `xm.mesh_reduce`; torch.distributed's barrier; JAX's multihost_utils,
# Orbax's save, a pmapped `p_…_step` over every host's devices). The first process waits for the
# others and the others never come: a hang that is the person's code, with no worker that died
# (hang-on-error's). The block is read by indentation, so code pasted without it is not read.
_FIRST_PROCESS_BRANCH = re.compile(
    # (with other conditions joined by "and": "if step % every == 0 and jax.process_index() == 0:")
    r"^if\s+(?:[^\n:#]*?\sand\s+)?(?:xm\.is_master_ordinal\(\s*(?:local\s*=\s*False)?\s*\)"
    r"|(?:xm\.get_ordinal|xr\.global_ordinal|jax\.process_index|dist\.get_rank"
    r"|torch\.distributed\.get_rank)\(\)\s*==\s*0"
    r"|(?:global_)?rank\s*==\s*0|(?:self\.)?accelerator\.is_main_process)"
    r"(?:\s+and\s+[^\n:#]*?)?\s*:\s*(?:#.*)?$"
)
_COLLECTIVE_CALL = re.compile(
    r"\bxm\.(?:save|rendezvous|mesh_reduce|all_reduce|all_gather|reduce_scatter|all_to_all)\(|"
    r"\b(?:dist|torch\.distributed)\.(?:barrier|all_reduce|all_gather|broadcast|reduce)\(|"
    r"\bmultihost_utils\.\w+\(|\b(?:sync_global_devices|process_allgather|broadcast_one_to_all)\(|"
    r"\b(?:checkpoint_manager|ckpt_manager|checkpointer|mngr)\.save\(|"
    r"\bp_\w+_step\("
)
BODY_LINES = 12  # lines of a block read after its `if`


# ... and Keras fitting on a dataset repeated without end (`.repeat()` with no count) with no
# steps_per_epoch anywhere, in a report that says the epoch never ends: the dataset's length
# against Keras's steps (`dataset_steps`), not a TPU that re-runs its program
_ENDLESS_REPEAT = re.compile(r"\.repeat\(\s*\)")
_KERAS_FIT = re.compile(r"\.fit\(")
_NEVER_ENDS = re.compile(
    r"\b(?:never|nunca)\s+(?:ends?|finish\w*|termina\w*|acaba\w*)\b|\bn[ãa]o\s+(?:termina|acaba)\b"
    r"|\bdoes\s*n[o']t\s+end\b|\bwon'?t\s+end\b",
    re.I,
)


def _endless_fit(lines: list[str], numbers: list[int]) -> dict[str, Any] | None:
    repeat = next((i for i, line in enumerate(lines) if _ENDLESS_REPEAT.search(line)), None)
    if repeat is None:  # (most inputs: the whole text is not joined for them)
        return None
    text = "\n".join(lines)
    if "steps_per_epoch" in text or not _NEVER_ENDS.search(text):
        return None
    fit = next((i for i, line in enumerate(lines) if _KERAS_FIT.search(line)), None)
    if fit is None:
        return None
    return {
        "kind": "dataset_steps",
        "text": f"{lines[repeat]} … {lines[fit]} (no steps_per_epoch)",
        "line": numbers[fit],
    }


def read_code(
    lines: list[str], indents: tuple[int, ...], numbers: list[int]
) -> dict[str, Any] | None:
    """What pasted code shows outside the guide: a collective called in a block only the first
    process runs (`one_process_collective`), Keras fitting an endless dataset with no
    steps_per_epoch (`dataset_steps`). {"kind", "text": the lines that say so, "line": the
    call's line number}; None if there is none. `lines`, `indents` and `numbers` are a
    `Normalized`'s."""
    if len(indents) != len(lines):
        return None
    return _one_process_collective(lines, indents, numbers) or _endless_fit(lines, numbers)


def _one_process_collective(
    lines: list[str], indents: tuple[int, ...], numbers: list[int]
) -> dict[str, Any] | None:
    for i, line in enumerate(lines):
        if not _FIRST_PROCESS_BRANCH.match(line):
            continue
        for j in range(i + 1, min(len(lines), i + 1 + BODY_LINES)):
            if indents[j] <= indents[i]:
                break
            call = _COLLECTIVE_CALL.search(lines[j])
            if call:
                return {
                    "kind": ONE_PROCESS_COLLECTIVE,
                    "text": f"{line} … {call.group(0)}",
                    "line": numbers[j],
                }
    return None
