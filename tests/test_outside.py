"""Problems outside the guide (assistant/text/outside.py): installation, version, capacity, local
storage and numerical problems, which the guide behind the knowledge base does not cover, are told apart from
the TPU problems it does cover, and an answer refused because of one says why."""

from __future__ import annotations

import pytest

from assistant.answer import abstention_note, outside_notes
from assistant.cli.output import answer_text
from assistant.text.normalize import normalize
from assistant.text.outside import KINDS, read_outside
from assistant.text.parse import parse
from assistant.walk import walk

INSTALL = [
    "ERROR: pip's dependency resolver does not currently take into account all the packages "
    "that are installed. This behaviour is the source of the following dependency conflicts.",
    "torchvision 0.18.1 requires torch==2.3.1, but you have torch 2.3.0 which is incompatible.",
    "ERROR: gcloud failed to load. You are running gcloud with Python 3.6, which is no longer "
    "supported by gcloud.",
    "ValueError: Your currently installed version of Keras is Keras 3, but this is not yet supported "
    "in Transformers. Please install the backwards-compatible tf-keras package",
    # a Keras 2 (tf-keras) library's layer handed to Keras 3, which TensorFlow 2.16 loads
    "ValueError: Only instances of `keras.Layer` can be added to a Sequential model. Received: "
    "<tensorflow_recommenders.layers.embedding.TPUEmbedding object at 0x7f00>",
    # a dataset op of the client's newer release that the TPU host's TensorFlow does not have
    "tensorflow.python.framework.errors_impl.NotFoundError: 'ExperimentalRebatchDatasetV2' is "
    "neither a type of a primitive operation nor a name of a function registered in binary running "
    "on n-4c2f9e01-w-0. One possible root cause is the client and server binaries are not built "
    "with the same version. Please make sure the operation or function is registered in the binary "
    "running in this process.",
    "ImportError: /usr/local/lib/python3.10/dist-packages/_XLAC.cpython-310-x86_64-linux-gnu.so: "
    "undefined symbol: _ZN5torch8autograd12VariableInfoC1ERKN2at6TensorE",
    "RuntimeError: Unable to initialize backend 'tpu': INTERNAL: Failed to open "
    "/usr/lib/libtpu.so: libtpu.so: cannot open shared object file: No such file or directory",
    "F0000 00:00:1712345678.123456 pjrt_api.cc:112] Non-OK-status: Mismatched PJRT plugin PJRT "
    "API version (0.54) and framework PJRT API version 0.51).",
    "ModuleNotFoundError: No module named 'torch_xla'",
    "AttributeError: module 'tensorflow' has no attribute 'contrib'",
    "ERROR: No matching distribution found for libtpu-nightly==0.1.dev20240101",
    "ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution",
    "ERROR: (gcloud.components.install) Failed to fetch component listing from server. Check your "
    "network settings and try again.",
    "ERROR: Cannot install jax[tpu]==0.4.30 and tensorflow==2.15.0 because these package versions "
    "have conflicting dependencies.",
    "RuntimeError: jaxlib version 0.4.20 is incompatible with jax version 0.4.30",
    "A module that was compiled using NumPy 1.x cannot be run in NumPy 2.1.3 as it may crash.",
    "the torch and torch_xla versions don't match after the upgrade",
    "TypeError: batch() got an unexpected keyword argument 'drop_remainder'",
    # an op of the framework's own that the TPU host's older binary does not have
    "Check failed: session_work.first->session()->Run(...) (Not found: Op type not registered "
    "'XRTCompile' in binary running on n-0b91d2e4-w-0. Make sure the Op and Kernel are registered "
    "in the binary running in this process.)",
    "NotFoundError: '_FusedBatchNormEx' is neither a type of a primitive operation nor a name of a "
    "function registered in binary running on n-77aa0c13-w-0. Make sure the operation or function "
    "is registered in the binary running in this process.",
    # TensorFlow loading a libtpu built for another release (logged as FATAL, prefix stripped)
    "2024-05-14 09:12:44.512301: F ./tensorflow/core/tpu/tpu_library_init_fns.inc:104] "
    "TpuCompile_CreateCompilationCacheKey not available in this library.",
    # asked in words
    "how do I install jax[tpu] on a v5e?",
    "como instalo o torch_xla na TPU VM?",
]
CAPACITY = [
    "não deixa criar a v4-32, fala que excede a cota do projeto pra esse tipo de TPU",
    "tem como pedir pra aumentar a cota de v4 no TRC?",
    "the v5e cores quota is 0 in us-west4-a: do I file a quota request or talk to sales?",
    "como faço o pedido de cota pra v6e?",
    "Warning  FailedScheduling  46m  default-scheduler  0/9 nodes are available: 3 Insufficient "
    "nvidia.com/gpu, 6 node(s) didn't match Pod's node affinity/selector.",
    'ERROR: (gcloud.compute.tpus.tpu-vm.create) {"code": 8, "message": "There is no more capacity '
    'in the zone \\"us-central2-b\\"; you can try in another zone where Cloud TPU Nodes are '
    'offered"}',
    "ERROR: (gcloud.compute.tpus.queued-resources.create) INVALID_ARGUMENT: Insufficient reserved "
    "capacity. Contact customer support to increase your reservation.",
    'googleapiclient.errors.HttpError: <HttpError 429 when requesting ... returned "Quota '
    "'TPUV5sLitepodPerProjectPerZoneForTPUAPI' exceeded. Limit: 16 in zone us-west4-a.\">",
    "ResourceExhausted: 429 The following quota metrics exceed quota limits: "
    "tpu.googleapis.com/v5e_cores",
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) PERMISSION_DENIED: Quota limit "
    "'TPUV5PPerProjectPerZoneForTPUAPI' has been exceeded. Limit: 0 in zone us-east5-a.",
    '"message": "Quota \'TPUV4PodPerProjectPerZoneForTPUAPI\' exhausted. Limit 0 in zone us-central2-b"',
    # a queued resource's `describe`: the quota's name quoted inside a YAML string
    "      message: 'Quota limit ''TPUV5sLitepodPerProjectPerZoneForTPUAPI'' has been exceeded.'",
    # a queued resource still waiting for capacity (gcloud's state column), and GKE's scheduler
    # with no node that has TPU chips free
    "my-qr  us-west4-a  v5litepod-16  WAITING_FOR_RESOURCES",
    "0/3 nodes are available: 3 Insufficient google.com/tpu. preemption: 0/3 nodes are available",
    "the nightly Vertex training job with a v5e fails every time because of a lack of TPU availability",
    # in Portuguese
    "não há capacidade na zona ao criar a TPU v5e",
    "o job de treino na Vertex falha toda noite por falta de disponibilidade de TPU na região",
    "a cota excedida de TPU v4 não deixa criar a fatia",
]
# Colab with no TPU free to assign, or the account over its usage limit
LOSS_LABELS = [
    "ValueError: `logits` and `labels` must have the same shape, received ((None, 10) vs (None, 1)).",
    # one-hot labels given to a sparse loss, integer labels to a categorical one
    "InvalidArgumentError: logits and labels must have the same first dimension, got logits "
    "shape [128,10] and labels shape [1280]",
    "ValueError: Shapes (None, 1) and (None, 10) are incompatible",
    "ValueError: Arguments `target` and `output` must have the same shape. Received: "
    "target.shape=(None, 1), output.shape=(None, 10)",
]
LIBRARY_OP = [
    # tensorflow_text's ops, on a TPU VM's own host and on a laptop
    "tensorflow.python.framework.errors_impl.NotFoundError: Op type not registered 'CaseFoldUTF8' "
    "in binary running on t1v-n-1a2b3c4d-w-0. Make sure the Op and Kernel are registered in the "
    "binary running in this process.",
    "NotFoundError: Op type not registered 'SentencepieceOp' in binary running on my-laptop.local.",
]
CUDA_REQUEST = [
    # a `.cuda()` kept from the GPU version of a PyTorch script, on a TPU VM's CPU wheel
    "AssertionError: Torch not compiled with CUDA enabled",
    "RuntimeError: No CUDA GPUs are available",
    # JAX asked for its GPU platform on a TPU VM
    "RuntimeError: Unknown backend: 'gpu' requested, but no platforms that are instances of gpu "
    "are present. Platforms present are: tpu,cpu",
    # CUDA-only libraries: bitsandbytes' kernels, a CUDA extension built without the toolkit
    "UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit "
    "optimizers and GPU quantization are unavailable.",
    "      RuntimeError: flash_attn was requested, but nvcc was not found.  Are you sure your "
    "environment has nvcc available?",
    "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.",
]
RESOURCE_MISSING = [
    # gcloud looked in another zone (or project) than the TPU's
    "ERROR: (gcloud.compute.tpus.tpu-vm.ssh) NOT_FOUND: Resource "
    "'projects/lab-7/locations/us-central2-a/nodes/pod-a' was not found",
    "ERROR: (gcloud.compute.tpus.queued-resources.describe) NOT_FOUND: Resource "
    "'projects/lab-7/locations/europe-west4-a/queuedResources/qr-17' was not found",
]
API_ACCESS = [
    # another product's API refusing the VM's scopes or the account
    "google.api_core.exceptions.Forbidden: 403 POST https://bigquery.googleapis.com/bigquery/v2/"
    "projects/p/jobs: Request had insufficient authentication scopes.",
    "googleapiclient.errors.HttpError: <HttpError 403 when requesting "
    'https://sheets.googleapis.com/v4/spreadsheets/abc returned "The caller does not have '
    'permission">',
    "Access Denied: BigQuery BigQuery: Permission denied while getting Drive credentials.",
    # ... told in a sentence: the product, then its refusal; the refusal, then the product
    "the script inserts metrics into a BigQuery table and that call fails with a 403 about "
    "insufficient authentication scopes",
    "got 403 insufficient authentication scopes when writing to BigQuery from the training job",
    "a chamada ao BigQuery volta 403 com escopos de autenticação insuficientes",
]
SCHEDULING = [
    "  Warning  FailedScheduling   3m12s (x19 over 41m)  default-scheduler   0/6 nodes are "
    "available: 6 node(s) didn't match Pod's node affinity/selector.",
    "  Normal   NotTriggerScaleUp  2m51s  cluster-autoscaler  pod didn't trigger scale-up: 1 max "
    "node group size reached",
]
CONTEXT_LENGTH = [
    "ValueError: The model's max seq len (8192) is larger than the maximum number of tokens that "
    "can be stored in KV cache (5632).",
    "openai.BadRequestError: Error code: 400 - {'message': \"This model's maximum context length "
    'is 4096 tokens. However, you requested 5120 tokens."}',
]
TPU_UNUSED = [
    "INFO:tensorflow:Running train on CPU",
    "W0823 11:02:40.118045 140012 tpu_context.py:222] eval_on_tpu ignored because use_tpu is "
    "False.",
]
AUTOGRAD = [
    "RuntimeError: one of the variables needed for gradient computation has been modified by an "
    "inplace operation: [torch.FloatTensor [256, 512]], which is output 0 of ReluBackward0",
    "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn",
    "ValueError: No gradients provided for any variable: (['dense/kernel:0'],)",
]
NOTEBOOK_CAPACITY = [
    "no Kaggle não aparece o acelerador TPU pra mim, só as duas GPUs",
    "kaggle: a opcao de TPU ta cinza e nao da pra clicar",
    "alguém sabe liberar a TPU no Kaggle? a TPU VM não aparece na lista de aceleradores",
    'No Kaggle a opção "TPU VM v3-8" em Accelerator está cinza; minha conta é nova',
    "No Kaggle o acelerador de TPU fica cinza e o aviso diz que a minha cota semanal de horas "
    "terminou",
    "On Kaggle the TPU VM v3-8 option in the Accelerator menu is greyed out for my account",
    "On Kaggle it says I've used up my TPU time for the week",
    "no Kaggle o acelerador TPU ficou cinza, diz que acabaram minhas horas da semana",
    "Kaggle says I used up my weekly TPU hours after one competition notebook",
    "Cannot connect to TPU backend: No backend with TPU available. Would you like to use a runtime "
    "with no accelerator?",
    "Cannot connect to GPU backend. You cannot currently connect to a GPU due to usage limits in "
    "Colab.",
    "Cannot connect to TPU backend due to usage limits in Colab.",
    "o colab ainda dá tpu de graça? qual o limite de horas por dia?",
    "does Kaggle still have an hours limit on its TPU notebooks?",
    "o ambiente de TPU do Colab não conecta mais, diz que atingi o limite de uso",
    "Kaggle says I have 0 hours of TPU quota left this week, can I get more?",
    "the accelerator menu shows TPU VM v3-8 disabled and says 0 hrs remaining this week",
    'a opção TPU aparece cinza com "You have used 30 of 30 hours this week"',
]
NOTEBOOK_SESSION = [
    "Runtime disconnected. Your runtime has been disconnected due to inactivity or reaching its "
    "maximum duration.",
    "o Colab desconecta sozinho depois de umas 2 horas de treino na TPU",
    "Why does Colab keep disconnecting my TPU notebook overnight?",
    "quando volto pra aba, o ambiente de execução foi desconectado e perdi o treino",
    # the session's maximum length: Kaggle's, Colab's
    "On Kaggle my TPU notebook always stops after about 9 hours and the output just ends",
    "o Colab derruba a sessão depois de 12 horas, mesmo com a aba aberta",
    "is there a way around the Kaggle session limit for a long fine-tune?",
    "my run goes for about 9 hours and then stops. I launch it with Save & Run All (Commit)",
    # the notebook said to disconnect, Colab named earlier in the line
    "Training in Colab Pro on the TPU runtime, and after about two hours the notebook disconnects "
    "on its own",
]
DATASET_STEPS = [
    "WARNING:tensorflow:Your input ran out of data; interrupting training. Make sure that your "
    "dataset or generator can generate at least `steps_per_epoch * epochs` batches (in this case, "
    "20000 batches). You may need to use the repeat() function when building your dataset.",
    "ValueError: When providing an infinite dataset, you must specify the number of steps to run "
    "(if you did not intend to create an infinite dataset, make sure to not call `repeat()` on "
    "the dataset).",
    # ... or said: a repeated dataset and no steps_per_epoch
    "the bar shows 15230/Unknown and keeps counting; ds.shuffle(10000).repeat().batch(1024), no "
    "steps_per_epoch set",
]
NUMERICS = [
    # JAX's debug_nans pointing at the person's own division
    "FloatingPointError: invalid value (nan) encountered in div",
    "tensorflow.python.training.basic_session_run_hooks.NanLossDuringTrainingError: NaN loss "
    "during training.",
    "InvalidArgumentError: Tensor had NaN values [[{{node CheckNumerics}}]]",
    "step 1200: loss = nan, lr = 0.0003",
    "after a few hundred steps on the v5e the loss becomes NaN",
    "a perda virou nan depois de trocar para bfloat16 na TPU",
    "FloatingPointError: invalid value (nan) encountered in jit(train_step); NaN gradients",
    # reproduced off the TPU: the model's numerics, whatever the hardware
    "Loss becomes NaN after ~3k steps on the v4 - TPU-specific? Happens on my GPU box too",
    "loss = nan at step 812 on the TPU, but also on the GPU with the same seed",
]
STORAGE = [
    "UnimplementedError: File system scheme '[local]' not implemented (file: "
    "'/content/drive/MyDrive/ckpt/model.ckpt-0_temp/part-00000-of-00001')",
    "tensorflow.python.framework.errors_impl.UnimplementedError: File system scheme '[local]' not "
    "implemented (file: './data/train-00000.tfrecord')",
]
STORAGE_MISSING = [
    "NotFoundError: gs://dados/tfrecords/trian-*.tfrecord não encontrado no tf.data",
    "tensorflow.python.framework.errors_impl.InvalidArgumentError: Expect a file to exist: No "
    "files matched pattern: gs://my-data/train/trian-*",
    "tensorflow.python.framework.errors_impl.NotFoundError: {{function_node "
    "__wrapped__IteratorGetNext_output_types_2_device_/job:localhost/replica:0/task:0/device:CPU:0}}"
    " gs://bucket-x/train/train-*.tfrec; No such file or directory [Op:IteratorGetNext]",
    '    "message": "The specified bucket does not exist.",',
    '    "message": "No such object: kds-7f3a/train_tfrecords/ld_train00-1338.tfrec",',
    "tensorflow.python.framework.errors_impl.NotFoundError: gs://my-bucket/data/train-00003.tfrec; "
    "No such file or directory",
]
CONTAINER_IMAGE = [
    '  Warning  Failed   4m40s (x4 over 6m10s)  kubelet  Failed to pull image "us-docker.pkg.dev/'
    'lab/train/jax-tpu:0.4.30": failed to authorize: 403 Forbidden',
    "  Warning  Failed   4m25s (x6 over 6m9s)   kubelet  Error: ImagePullBackOff",
]
STORAGE_ACCESS = [
    "quando chega no primeiro checkpoint dá 403 ao gravar no gs://",
    "google.api_core.exceptions.Forbidden: 403 GET https://storage.googleapis.com/storage/v1/b/"
    "imagenet-shards/o?prefix=train: svc-train@lab-4471.iam.gserviceaccount.com does not have "
    "storage.objects.list access to the Google Cloud Storage bucket.",
    "tensorflow.python.framework.errors_impl.PermissionDeniedError: Error executing an HTTP "
    "request: HTTP response code 403 with body 'Permission 'storage.objects.create' denied on "
    "resource (or it may not exist).'",
    "AccessDeniedException: 403 Permission storage.buckets.get denied on resource",
    # the same permission in other words, Portuguese included
    "the default compute service account doesn't have storage.objects.get on gs://shared-lab/x",
    "a conta de serviço da TPU não tem storage.objects.list no bucket do outro projeto",
    # the Colab TPU handed the notebook's credentials for Cloud Storage, and refusing them
    "InternalError: From /job:tpu_worker/replica:0/task:0: The filesystem registered under the "
    "'gs://' scheme was not a tensorflow::RetryingGcsFileSystem*.",
    '    "message": "Provided scope(s) are not authorized",',
    "\t [[{{node GcsConfigureCredentials}}]]",
]
CREATE_REQUEST = [
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) INVALID_ARGUMENT: Invalid runtime version "
    "tpu-vm-base-v9",
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) ALREADY_EXISTS: Resource 'projects/p/locations/"
    "us-central2-b/nodes/train-1' already exists",
    "ERROR: (gcloud.alpha.compute.tpus.queued-resources.create) INVALID_ARGUMENT: Cloud TPU was "
    "unable to complete the operation.",
    '2019/12/19 11:00:36 "2.3" TensorFlow version not available; to see available versions, '
    "execute ctpu tf-versions",
    '2019/12/19 11:02:29 invalid tensorflow version "nightly-1.x" (non-empty modifier); please set '
    "the --gce-image flag",
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) unrecognized arguments: --zone_name=us-east1-d "
    "(did you mean '--zone'?)",
    # a runtime version that the accelerator type does not run
    '"message": "Cloud TPU received a bad request. Unsupported TPU runtime version '
    "'tpu-vm-tf-2.9.1' for accelerator type 'v6e-8'.\"",
    # GKE's node pool of TPUs, its topology not one the machine type takes
    "ERROR: (gcloud.container.node-pools.create) ResponseError: code=400, message=Invalid TPU "
    'topology "4x4x2" for machine type "ct5lp-hightpu-4t": expected a 2D topology.',
]
BILLING = [
    "dei stop na v5e-8 e mesmo assim o billing mostrou cobranca de TPU no sabado, pq cobrou?",
    "Colab Pro+ or Kaggle: which plan makes more sense for fine-tuning a 1B model?",
    "I've already been billed about $30 for the disk next to the TPU",
    "roughly what would a v6e-8 cost in us-east5, on-demand against spot?",
    "what does each option cost per hour",
    "Quick cost question: is the hourly price the same through Vertex AI?",
    "Dúvida de custo: se eu parar a v4-8 no fim do dia eu paro de pagar? O disco continua cobrando?",
    "How much does a v5p-128 slice cost per day in us-east5?",
    "I deleted the TPU VM but I'm still being charged for TPU usage, why?",
    "quanto custa deixar uma v4-8 ligada o fim de semana?",
    "Is queued resources billing different from on-demand?",
    "the TPU VM is gone from tpu-vm list, yet the billing report still shows v5e charges",
    "invoice lists TPU hours for a node we deleted last month",
    "alguém sabe quanto tá custando a hora de uma v6e-8 spot? e sai mais barato?",
    "preciso fechar o orçamento de TPU do laboratório até sexta",
    "8x H100 or a v5p-16: how do the hourly costs compare for a weekly fine-tune?",
    "is a v5litepod-8 cheaper per chip-hour than a v4-8 on demand?",
    "does a committed-use discount apply to TPUs or only to GCE VMs?",
    "if I stop the v4-8 does it stop charging?",
    "qual a diferença de preço de spot pra on-demand numa v5e?",
    "qt sai uma v5e-8 spot por hora em us-west4?",
    "how much is a v6e-4 per month if I keep it running?",
    "do I keep paying for the v4-8 while it is stopped? is it billed per second?",
    # a cost compared between types
    "v5e or v6e for fine-tuning Gemma 7B, which one is cheaper per training token?",
]
OFFERING = [
    "Is TPU v5e available in europe-west4?",
    "when does v6e come to europe-west4?",
    "alguém sabe quando a v6e chega em southamerica-east1?",
    "which zones have v6e-8?",
    "is v5p available in any region outside the US?",
    "em quais zonas tem v5p?",
    "a v6e está disponível na us-east5-b?",
    "is v5p available on-demand in us-east5 or only as spot?",
]
# what a TPU type or generation has, or how two differ (the note quotes the figures)
HARDWARE = [
    "how many TPU chips do I get in a v5e-8?",
    "How many devices does jax see on a v4-8?",
    "how many hosts does a v4-32 have",
    "What are the differences between TPU v4 and v5p?",
    "what is the peak bf16 TFLOPS of a v5p chip",
    "quantos núcleos tem uma TPU v4-8?",
    "qual a diferença entre a v5e e a v5p?",
    "qual a diferença prática entre v5e e v6e pra fine-tuning?",
    "quantos TFLOPS tem a v6e?",
    "E uma v5litepod-8 são 8 chips ou 8 TensorCores?",
]
DISK_FULL = [
    "Warning  EvictionThresholdMet  node/gke-tpu-pool-1  Attempting to reclaim ephemeral-storage;"
    " node condition DiskPressure",
    "OSError: [Errno 28] No space left on device: '/home/me/.cache/huggingface/hub/tmp4x1'",
    "ERROR: Could not install packages due to an OSError: [Errno 28] No space left on device",
    "write /var/lib/docker/tmp/GetImageBlob123: no space left on device",
    # said in words
    "the checkpoints we keep writing every 500 steps fill up the disk of each host",
    "Prevent root disk exhaustion on the training VMs",
    "the boot disk of the VM is full again after two days of runs",
    "o disco de boot encheu depois de baixar o dataset",
]
PROCESS_COUNT = [
    "ValueError: The number of devices must be either 1 or 8, got 4 instead",
    "  raise ValueError('The number of devices must be either 1 or 4, got 2 instead')",
]
DATA_LOADING = [
    # items of different sizes batched on the host, by tf.data and by PyTorch's collate
    "InvalidArgumentError: Cannot batch tensors with different shapes in component 0. First "
    "element had shape [224,224,3] and element 5 had shape [183,275,3]. [Op:IteratorGetNext]",
    "RuntimeError: stack expects each tensor to be equal size, but got [3, 224, 224] at entry 0 "
    "and [3, 256, 200] at entry 5",
    "  (0) INVALID_ARGUMENT:  Unknown image file format. One of JPEG, PNG, GIF, BMP required.",
    "tensorflow.python.framework.errors_impl.DataLossError: corrupted record at 52428731",
    "W tensorflow/core/framework/op_kernel.cc:1827] DATA_LOSS: truncated record at 1048576",
    "ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient "
    "shared memory (shm).",
    "ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a "
    "token to use as `pad_token`",
    "RuntimeError: Already borrowed",
    "pyo3_runtime.PanicException: assertion failed: stride < max_len",
    "OSError: image file is truncated (7 bytes not processed)",
    "PIL.UnidentifiedImageError: cannot identify image file '/data/train/00412.jpg'",
    "RuntimeError: DataLoader worker (pid 28391) is killed by signal: Bus error. It is possible "
    "that dataloader's workers are out of shared memory.",
    "RuntimeError: DataLoader worker (pid(s) 4412, 4413) exited unexpectedly",
]
HOST_MEMORY = [
    "the python process gets killed. htop shows it at ~350 GB resident by then",
    # Cloud Run's instance over its memory limit
    "Memory limit of 1024 MiB exceeded with 1290 MiB used. Consider increasing the memory limit",
    # the shell's word when the OOM killer ends the process, alone or quoted
    "Killed",
    'no traceback at all, the terminal just prints "Killed" after the 6th eval',
    "      Reason:       OOMKilled",
    "Your notebook tried to allocate more memory than is available. It has restarted.",
    "2024-05-02 09:14:51.203311: W tensorflow/core/framework/cpu_allocator_impl.cc:82] Allocation "
    "of 1207959552 exceeds 10% of free system memory.",
    "terminate called after throwing an instance of 'std::bad_alloc'",
    "  what():  std::bad_alloc",
    "OSError: [Errno 12] Cannot allocate memory",
    "MemoryError",
    # a title that keeps TensorFlow's warning with its numbers left out
    "Allocation of X exceeds 10% of system memory when I run the model on the CPU",
    "numpy.core._exceptions._ArrayMemoryError: Unable to allocate 37.3 GiB for an array with "
    "shape (100000, 100000) and data type float32",
    "[ 812.412201] Out of memory: Killed process 2841 (python3) total-vm:41283212kB",
    "kernel: python3 invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0",
    "Your session crashed after using all available RAM.",
    "Out of RAM when fine-tuning Gemma with the Colab TPU runtime",
    "the notebook dies after asking for more RAM than available (12.7 GB)",
    "Saving a checkpoint takes 3x more RAM than the arrays themselves",
    # in Portuguese
    "o Colab travou porque acabou a RAM ao carregar o dataset",
    "a VM ficou sem memória RAM quando o DataLoader abriu 16 workers",
    "a sessão caiu depois de usar toda a RAM disponível",
    # TensorFlow's out-of-memory error on the host's CPU device and allocator
    "ResourceExhaustedError: OOM when allocating tensor with shape[16,512,512,64] and type float on "
    "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu",
]
# TPU problems the knowledge base covers, worded close to the problems above.
COMPILER = [
    "Compilation failure: Ran out of memory in memory space vmem while allocating a fusion. "
    "Please file a bug against XLA.",
    "It should not be possible to run out of vmem - please file a bug against XLA.",
]
EXPORT = [
    "[06/12/2024-14:02:12] [E] Failed to parse onnx file",
    "loc(callsite(\"sequential/lstm/TensorArrayV2_1\")): error: 'tf.TensorListReserve' op is "
    "neither a custom op nor a flex op",
    "ERROR:tf2onnx.tfonnx:Unsupported ops: Counter({'XlaDotV2': 48, 'XlaReduceWindow': 6})",
    "torch.onnx.errors.UnsupportedOperatorError: Exporting the operator 'aten::unflatten' to "
    "ONNX opset version 13 is not supported.",
    "RuntimeError: PyTorch convert function for op 'scaled_dot_product_attention' not implemented.",
]
SCRATCH_MEMORY = [
    "jax.errors.JaxRuntimeError: INTERNAL: Mosaic failed to compile TPU kernel: Ran out of memory "
    "in memory space vmem while allocating on stack for %splash_attention_kernel",
    "XlaRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem while allocating "
    "on stack for %fusion.77. Scoped allocation with size 24.00M and limit 16.00M exceeded scoped "
    "vmem limit by 8.00M.",
    "RuntimeError: Bad StatusOr access: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran "
    "out of memory in memory space smem. Used 1.02M of 1.00M smem. Exceeded smem capacity by 0.02M.",
    # in the person's words
    "my Pallas kernel hits a vmem OOM on v5e when block_q is 1024",
    "I'm getting a compile-time OOM of about 2GB VMEM on a v4-8 with the long context",
]
CHECKPOINT = [
    # TensorFlow 1's init_from_checkpoint, a vocabulary of another checkpoint
    "ValueError: Shape of variable bert/embeddings/word_embeddings:0 ((30522, 768)) doesn't match "
    "with shape of tensor bert/embeddings/word_embeddings ([119547, 768]) from checkpoint reader.",
    "flax.errors.ScopeParamShapeError: Initializer expected to generate shape (768, 3072) but got "
    'shape (768, 2048) instead for parameter "kernel" in "/encoder/layer_0/mlp/Dense_0"',
    "RuntimeError: Error(s) in loading state_dict for GPT2LMHeadModel:",
    '\tMissing key(s) in state_dict: "transformer.h.0.attn.bias", "transformer.h.1.attn.bias".',
    '\tUnexpected key(s) in state_dict: "module.encoder.layer.0.weight".',
    "\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([50257, 768]) from "
    "checkpoint, the shape in current model is torch.Size([50304, 768]).",
    "tensorflow.python.framework.errors_impl.NotFoundError: Key dense_3/kernel not found in "
    "checkpoint",
    "ValueError: Received incompatible tensor with shape (512, 10) when attempting to restore "
    "variable with shape (512, 100) and name dense_1/kernel:0.",
    "ValueError: Layer count mismatch when loading weights from file. Model expected 12 layers, "
    "found 14 saved layers.",
    "ValueError: Requested shape: (1024, 512) is not compatible with the stored shape: (512, 1024).",
    # T5X restoring a checkpoint of another vocabulary
    "Shape of `decoder.logits_dense.kernel` in checkpoint (768, 250112) differs from model "
    "(768, 32128); restoring with strict=False",
]
CERTIFICATE = [
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) There was a problem refreshing your current "
    "auth tokens: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self signed "
    "certificate in certificate chain (_ssl.c:1006)",
    "requests.exceptions.SSLError: HTTPSConnectionPool(host='storage.googleapis.com', port=443): "
    "Max retries exceeded (Caused by SSLError(SSLCertVerificationError(1, 'unable to get local "
    "issuer certificate')))",
    "pip install torch_xla[tpu]: Could not fetch URL: certificate verify failed",
]
CERTIFICATE_REPORT = """gcloud cannot list my TPUs from the lab network

$ gcloud compute tpus tpu-vm list --zone=us-central2-b
ERROR: (gcloud.compute.tpus.tpu-vm.list) There was a problem refreshing your current auth tokens: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get local issuer certificate
From my phone's hotspot the same command works. Is the TPU API down?
"""
STRATEGY = [
    "ValueError: Variable <tf.Variable 'dense/kernel:0' shape=(512, 10) dtype=float32> was not "
    "created in the distribution strategy scope of (<tensorflow.python.distribute.tpu_strategy."
    "TPUStrategyV2 object at 0x7f3c>). It is most likely because some layers, model, or optimizer "
    "was being created outside the distribution strategy scope.",
    "ValueError: Trying to create optimizer slot variable under the scope for tf.distribute."
    "Strategy (<TPUStrategyV2 object>), which is different from the scope used for the original "
    "variable.",
    "ValueError: Mixing different tf.distribute.Strategy objects: <TPUStrategyV2> is not "
    "<MirroredStrategy>",
    "RuntimeError: `merge_call` called while defining a new graph or a tf.function.",
    "RuntimeError: Method requires being in cross-replica context, use "
    "get_replica_context().merge_call()",
    "NotImplementedError: `fit_generator` is not supported for models compiled with "
    "tf.distribute.Strategy.",
]
DEVICE_PLACEMENT = [
    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, "
    "xla:0 and cpu!",
    "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, "
    "cpu and xla:1! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)",
    "RuntimeError: Expected object of device type xla but got device type cpu for argument #2",
    'RuntimeError: Attempted to set the storage of a tensor on device "xla:0" to a storage on '
    'different device "cpu". This is no longer allowed; the devices must match.',
    "RuntimeError: Tensor on device meta is not on the expected device xla:0!",
    "RuntimeError: torch_xla/csrc/aten_xla_bridge.cpp:69 : Check failed: xtensor Input tensor "
    "is not an XLA tensor: torch.FloatTensor",
    "ValueError: Received incompatible devices for jitted computation. Got argument x of main "
    "with shape float32[8] and device ids [0] on platform TPU and argument y with shape "
    "float32[8] and device ids [1] on platform TPU",
]
REPLICATION = [
    "RuntimeError: Cannot replicate if number of devices (1) is different from 8",
    "Exception in device=TPU:3: Cannot replicate if number of devices (1) is different from 8",
    "RuntimeError: Runtime is already initialized. Do not use the XLA device before calling "
    "xmp.spawn.",
]
INDEX_RANGE = [
    "tensorflow.python.framework.errors_impl.InvalidArgumentError: indices[2968] = 30523 is not "
    "in [0, 30522)",
    "InvalidArgumentError: indices[12,7] = -1 is not in [0, 50000) [[{{node embedding/lookup}}]]",
    "IndexError: index out of range in self",
    "IndexError: Target 10 is out of bounds.",
]
SPAWN_GUARD_REPORT = """xmp.spawn dies at once on a v4-8

$ PJRT_DEVICE=TPU python3 train.py
Traceback (most recent call last):
  File "/usr/lib/python3.10/multiprocessing/spawn.py", line 125, in _main
    prepare(preparation_data)
  File "/home/me/train.py", line 40, in <module>
    xmp.spawn(_mp_fn, args=(), nprocs=8)
RuntimeError:
        An attempt has been made to start a new process before the
        current process has finished its bootstrapping phase.
"""
TRACED_CONDITION_REPORT = """Does the TPU not support if/else in a jitted step?

jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array with shape
bool[]. The error occurred while tracing the function train_step for jit.
Line 95 is `if state.step < warmup_steps:`
"""
SHARDING = [
    "ValueError: One of pjit outputs was given the sharding of NamedSharding(mesh=Mesh('data': 2, "
    "'model': 4), spec=PartitionSpec(None, 'model')), which implies that the global size of its "
    "dimension 1 should be divisible by 4, but it is equal to 30 (full shape: (512, 30))",
    "ValueError: Sharding GSPMDSharding({devices=[1,8]0,1,2,3,4,5,6,7}) implies that array axis 1 "
    "is partitioned 8 times, but the dimension size is 7 (full shape: (64, 7))",
    "jax._src.core.ShardingTypeError: dot_general requires contracting dimensions to have "
    "consistent sharding",
    # a PartitionSpec naming an axis the mesh does not have (its repr holds spaces)
    "ValueError: Resource axis: tensor of PartitionSpec('data', 'tensor') is not found in mesh: "
    "('data', 'fsdp').",
]
TRACED_CONDITION = [
    "jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array with "
    "shape bool[].",
    "Attempted boolean conversion of traced array with shape bool[]. The error occurred while "
    "tracing the function train_step for jit.",
]
SPAWN_GUARD = [
    "RuntimeError: An attempt has been made to start a new process before the current process "
    "has finished its bootstrapping phase.",
    "        current process has finished its bootstrapping phase.",
    "                freeze_support()",
]
MODEL_INPUT = [
    'ValueError: Input 0 of layer "sequential" is incompatible with the layer: expected '
    "shape=(None, 224, 224, 3), found shape=(64, 256, 256, 3)",
    "ValueError: Input 0 is incompatible with layer model: expected shape=(None, 128, 128, 1), "
    "found shape=(32, 128, 128, 3)",
]
SHAPE_MISMATCH = [
    "Incompatible shapes: [16,10] vs. [16,1]",
    "TypeError: mul got incompatible shapes for broadcasting: (128,), (128, 1000).",
    "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)",
    "RuntimeError: The size of tensor a (128) must match the size of tensor b (64) at "
    "non-singleton dimension 1",
    "TypeError: cannot reshape array of shape (8, 512, 1024) (size 4194304) into shape "
    "(8, 512, 16, 128) (size 8388608)",
]
PYTHON_ERROR = [
    "TypeError: unsupported operand type(s) for *: 'NoneType' and 'int'",
    "RecursionError: maximum recursion depth exceeded while calling a Python object",
    "TypeError: 'NoneType' object is not subscriptable",
    "AttributeError: 'NoneType' object has no attribute 'shape'",
    "KeyError: 'per_core_batch_size'",
    "NameError: name 'train_ds' is not defined",
]
FILE_PERMISSION = [
    "PermissionError: [Errno 13] Permission denied: '/mnt/disks/data/hf'",
    "mkdir: cannot create directory '/mnt/disks/persist/ckpt': Permission denied",
]
MODEL_HUB = [
    "huggingface_hub.errors.GatedRepoError: 403 Client Error.",
    "Cannot access gated repo for url https://huggingface.co/google/gemma-2-9b/resolve/main/"
    "config.json.",
    "KaggleApiHTTPError: 403 Client Error.",
    "HTTPError: 403 Client Error: Forbidden for url: https://www.kaggle.com/api/v1/models/google/"
    "gemma/keras/gemma_2b_en/3/get",
]
TRACER_LEAK = [
    "jax.errors.UnexpectedTracerError: Encountered an unexpected tracer. A function transformed "
    "by JAX had a side effect, allowing for a reference to an intermediate value with type "
    "float32[128] to escape the scope of the transformation.",
    "UnexpectedTracerError: Encountered an unexpected tracer.",
]
PROGRAM = [
    "trainer.service: Failed to locate executable /home/ci/venv/bin/python: No such file or "
    "directory",
    "    Process: 2211 ExecStart=/home/ci/venv/bin/python -m trainer.main (code=exited, "
    "status=203/EXEC)",
    "bash: gcloud: comando não encontrado",
    "/home/ubuntu/.sky/generated/gcp-tpu-create.tpu.sh: line 4: gcloud: command not found",
    "bash: gcloud: command not found",
    "zsh: command not found: gcloud",
    "'gcloud' is not recognized as an internal or external command,",
]
REGRESSION = [
    "Ever since I upgraded jaxlib, jax.devices() hangs on the v4-8",
    "the TPU step time doubled after updating torch_xla to 2.6.0",
    "after we upgraded from 0.4.25 to 0.4.26 the same config no longer fits in HBM",
    "switching from tf-nightly 2.15.0.dev20230901 to tf-nightly 2.15.0.dev20230902 breaks "
    "initialize_tpu_system",
    "Today's nightly breaks xm.xla_device() on Colab",
    "[Regression] MpDeviceLoader much slower on v5e",
    "There is a big performance regression on TPU with the new libtpu",
    "o treino na TPU ficou lento depois de atualizar o jax para 0.4.31",
    "since the upgrade to jax 0.4.31 every compile of the train step runs out of HBM",
    "desde a atualização do torch_xla o xm.xla_device() não responde",
    "I upgraded torch_xla from 2.6.0 to 2.7.0 and the device check hangs",
    "Upgraded our TPU VM image from tf 2.15 to 2.16.1 and the same script now fails at the end",
    "atualizei o jax de 0.4.25 pra 0.4.31 e o treino não cabe mais na HBM",
    "[Bug] Trainer's TPU support is broken on `v4.46.0` and up",
    "xla_device() broken since 2.3 on the v4-8",
    "Possible regression causing RESOURCE_EXHAUSTED after the latest commit on v5e",
]
NOT_OUTSIDE = [
    "What's the rule XLA uses for padding, and how much does it really cost in memory/time?",
    "A loss está ótima, só está lento demais pro orçamento.",
    "KeyError: 'TPU_NAME'",
    "KeyError: 'COLAB_TPU_ADDR'",
    "AttributeError: 'NoneType' object has no attribute 'xla_device'",
    # the TPU's own device refused (hang-on-error's accel-open-denied)
    "PermissionError: [Errno 13] Permission denied: '/dev/accel0'",
    # a message the person says did not appear
    'o kernel morre ("Your notebook tried to allocate more memory than is available" não '
    'aparece, só "Kernel died")',
    'the usual "Your notebook tried to allocate more memory than is available" does not show up',
    # splitting a batch among the devices (batch-or-model-too-large), not two arrays that differ
    "ValueError: cannot reshape array of size 15052800 into shape (8,newaxis,224,224,3)",
    # another product named, then the TPU's own request refused (create-403-scopes)
    "BigQuery reads work from this VM, but gcloud compute tpus tpu-vm create fails with 403 "
    "insufficient authentication scopes",
    # a NaN the line rules out: the loss is fine, the accuracy is what the person asks about
    "a loss desce normal, sem NaN, só termina pior que na GPU",
    "the loss never goes NaN, it just ends 4 points worse than on the V100s",
    "no NaN loss and no error, but the TPU run converges slower",
    # Keras's steps per call to the TPU, not the dataset's length (steps-per-execution)
    "model.compile(optimizer='adam', loss='mse', steps_per_execution=1) and the TPU idles between "
    "steps",
    # a release that made the start-up louder: how to quiet the logs (debug-logs)
    "desde que atualizei pra torch_xla 2.3 meu terminal virou um lixão de log",
    "ever since I upgraded jax the console is full of libtpu log spam",
    # a batch asked about, with prices only as the reason to ask (batch-or-model-too-large)
    "What per-core batch fits a v3-8? I'd rather not find out by trial and error at on-demand "
    "prices.",
    "INFO:tensorflow:Running train on TPU",
    # the TPU API's own scopes: create-403-scopes
    "googleapiclient.errors.HttpError: <HttpError 403 when requesting "
    "https://tpu.googleapis.com/v2/projects/p/locations/us-central1-b/nodes returned "
    '"Request had insufficient authentication scopes.">',
    # the TPU platform itself missing: a connection or an install on the TPU VM, the entries'
    "RuntimeError: Unknown backend: 'tpu' requested, but no platforms that are instances of tpu "
    "are present. Platforms present are: cpu",
    # a TPU Node the TPU's own API could not find from a running program (tpu-connection)
    "NotFoundError: TPU node my-tpu not found in project lab-7 zone us-central1-b",
    # a shape the TPU cannot compile, with no loss named: dynamic-shape's
    "ValueError: Cannot convert a partially known TensorShape (None, 128) to a Tensor",
    # an op missing on a TPU Node's worker: the client and the TPU's software are different
    # releases (tpu-connection's versions fix), not a library left unimported
    "Not found: Op type not registered 'DataServiceDatasetV3' in binary running on n-0b7e41d2-w-0.",
    # a TPU backend that is not reached, with no usage limit named
    "Cannot connect to TPU backend at grpc://10.240.1.2:8470: DEADLINE_EXCEEDED",
    # the TPU itself dropping out of a Colab session: a connection the guide covers
    "Colab TPU: UnavailableError: Socket closed while connecting to the TPU worker",
    # a checkpoint saved or restored, with no mismatch: saving on a TPU is the guide's (or a
    # memory problem's) subject, and the shapes a TPU cannot compile are dynamic-shape's
    "Restoring checkpoint from gs://my-bucket/ckpt/step_1000 ... done",
    "ResourceExhaustedError while restoring checkpoint: Ran out of memory in memory space hbm",
    "ValueError: Cannot convert a partially known TensorShape to a Tensor: (None, 128)",
    "the stored shapes in my tf.data pipeline change from batch to batch",
    # a strategy's scope in the code, as every TPUStrategy script has it: no error
    "with strategy.scope():\n    model = build_model()\n    model.compile(optimizer='adam')",
    "I put everything in strategy.scope() like the tutorial says, and it is still slow",
    # moving to the device, said or done, is no error
    "model = model.to(device)  # device = xm.xla_device()",
    "are all tensors expected to be on the same device when I use torch_xla?",
    # an index said in words, or an index of a list: no table read out of range
    "the index of the TPU core in the list is not in range of the devices I expected",
    "IndexError: list index out of range",
    # the batch dimension (0) that the devices do not divide: the last, smaller batch of an
    # epoch, or a global batch not a multiple of the cores, is the entries' (dynamic-shape, batch
    # sizes)
    "ValueError: One of pjit arguments with pytree key path batch['input_ids'] was given the "
    "sharding of NamedSharding(mesh=Mesh('data': 8), spec=PartitionSpec('data',)), which implies "
    "that the global size of its dimension 0 should be divisible by 8, but it is equal to 20 "
    "(full shape: (20, 512))",
    "ValueError: Sharding GSPMDSharding({devices=[8,1]0,1,2,3,4,5,6,7}) implies that array axis 0 "
    "is partitioned 8 times, but the dimension size is 7 (full shape: (7, 1))",
    # a traced value used as an index or a size is the dynamic-shape entry's, not control flow
    "jax.errors.TracerIntegerConversionError: The __index__() method was called on traced array "
    "with shape int32[]",
    # the guard written, or a question about it: no process started too early
    "if __name__ == '__main__':\n    xmp.spawn(_mp_fn, args=(), nprocs=8)",
    "do I need freeze_support() with xmp.spawn on a TPU VM?",
    # sharding said in words, or FSDP beside an out-of-memory error: the entries' own reports
    "with FSDP sharding over 8 devices the 7B model still runs out of HBM",
    "RESOURCE_EXHAUSTED: Ran out of memory in memory space hbm while sharding the optimizer state",
    # the tracer the dynamic-shape entry is about: a traced value used for a size
    "jax.errors.ConcretizationTypeError: Abstract tracer value encountered where concrete value "
    "is expected: traced array with shape int32[]",
    # installing what an entry covers, or setting a framework up for the TPU: not an install
    "how do I install the profiler plugin for tensorboard?",
    "how do I set up keras for a TPU strategy?",
    # a TPU the runtime or the program cannot find, not a question of where one is offered
    "TPU not available in Colab after switching the runtime",
    "No TPU devices available in the container, outside it jax sees 4",
    "a TPU não está disponível no notebook do Kaggle",
    # the TPU's own logs filling the disk: the debug-logs entry's subject
    "TPU logs were filling up disk space on the worker nodes and jobs failed",
    "os logs da TPU encheram o disco de boot da VM",
    # what the person's run uses, needs or shares, and the HBM a core or chip has (hbm-oom's
    # own question): not a question about the hardware
    "how much HBM does one v4 chip have?",
    "quanta memória HBM tem cada núcleo da TPU v3?",
    "how much memory does my model need on a v3-8?",
    "how many examples per core should each TPU core get in a batch?",
    "how many cores should I use for a 7B model on TPU",
    "how many TPU cores are used by my model?",
    "how many devices share the batch on a v4-8?",
    "quantos exemplos por núcleo na TPU?",
    "huge performance difference between v3-8 and v4-8 with the same code",
    "my MFU is 20% of peak TFLOPS on v5e",
    "what's my model's FLOPS utilization on v5e?",
    "what is the FLOPS utilization on a v5e-8",
    "quantos TFLOPS meu modelo usa na v5e?",
    "how many steps per execution should I use on TPU",
    "how many cores does my laptop have?",
    # a disk named without saying it is full
    "fill the disk cache before the run so the first epoch is not slow",
    # a cost in step time, a precision's price, a free tier named in passing: not about money
    "padding to 128 costs 30% of the step time on the v4",
    "bfloat16 matmuls on TPU come at the price of precision",
    "I am on the GCP free tier with $300 credits, reading the data from a bucket is slow",
    # the account's scopes refuse the creation: that is the guide's 403 entry
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) PERMISSION_DENIED: Request had insufficient "
    "authentication scopes.",
    # a change of the person's own, not of a release: a move to the TPU, their code, a question
    "after switching to a TPU v3-8 the validation loss is worse than on my GPU",
    "after updating my model the TPU runs out of memory at batch 64",
    "after the update of the data pipeline the TPU sits idle half of each step",
    "a logistic regression model on the TPU runs out of memory",
    "Is this a regression in libtpu? Memory doubles when d_model goes from 128 to 130",
    "the run is broken on v4-8 but fine on v3-8",
    "a linear regression with the latest version of my data still OOMs on the TPU",
    "I tried the latest nightly and it still hangs at xm.xla_device()",
    # the TPU's own memory; VMEM only named beside it
    "HBM OOM at batch 64 on v5e; the vmem limit flag did not help",
    "Use the latest nightly matching your platform:",
    # TensorFlow's out-of-memory error on a TPU core: the TPU's HBM
    "ResourceExhaustedError: OOM when allocating tensor with shape[1024,4096] and type float on "
    "/job:worker/replica:0/task:0/device:TPU:0 by allocator TPU_0_bfc",
    # the TPU's own memory called RAM: hbm-oom's question, whatever the word (in Portuguese too)
    "a TPU ficou sem RAM com batch 128",
    "a RAM da TPU acabou no segundo passo",
    "my TPU runs out of RAM as soon as the batch goes above 64",
    "v3-8 TPU out of RAM with the 1.3B model, what can I shard?",
    # a library's custom op missing on the TPU worker (op-unavailable's own), and TensorFlow's
    # TPU init function missing on a TPU Node (tpu-connection's): not a version mismatch
    "NotFoundError: Op type not registered 'Addons>ImageProjectiveTransformV2' in binary running "
    "on n-5c1e3f70-w-0. Make sure the Op and Kernel are registered in the binary running in this "
    "process.",
    "NotFoundError: '__inference__tpu_init_fn_4' is neither a type of a primitive operation nor a "
    "name of a function registered in binary running on n-2d8e1b55-w-0.",
    "NotFoundError: '__inference__tpu_init_fn_7' is neither a type of a primitive operation nor a "
    "name of a function registered in binary running on n-9b0e7a12-w-0. One possible root cause "
    "is the client and server binaries are not built with the same version.",
    "tensorflow.python.framework.errors_impl.ResourceExhaustedError: Ran out of memory in memory "
    "space hbm; used: 9.82G; limit: 7.48G.",
    # a library function that is not there is not a libtpu built for another release
    "AttributeError: cuDNN RNN is not available in this build",
    "the fused kernel is not available in this library version, falling back to the reference one",
    # the TPU's (or a GPU's) own memory, not the host's
    "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: Error allocating device buffer: "
    "Attempting to allocate 2.00G. That was not possible. There are 1.12G free.",
    "RuntimeError: Resource exhausted: Out of memory while trying to allocate 4.00G.",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB.",
    "the TPU runs out of memory with batch size 256 but not with 128",
    "RuntimeError: Unable to initialize backend 'tpu': ABORTED: The TPU is already in use by "
    "process with pid 1234. Not attempting to load libtpu.so in this process.",
    "NotFoundError: No registered 'ImageProjectiveTransformV3' OpKernel for XLA_TPU_JIT devices",
    "tensorflow.python.framework.errors_impl.UnavailableError: Socket closed",
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) PERMISSION_DENIED: Request had insufficient "
    "authentication scopes.",
    # the TPU API's own permission, not Cloud Storage's
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) PERMISSION_DENIED: Permission "
    "'tpu.nodes.create' denied on 'projects/lab-4471/locations/us-central2-b/nodes/t1'",
    "how do I give the TPU's service account access to my storage bucket before I start?",
    "ERROR: (gcloud.components.update) You cannot perform this action because the Google Cloud "
    "CLI component manager is disabled for this installation.",
    "I import the dataset with tf.data and both versions of my model train slower on the TPU",
    "Waiting for SSH key to propagate.",
    # a TPU that was assigned and cannot be reached is a connection problem, not capacity
    "Cannot connect to TPU backend: failed to connect to all addresses on grpc://10.0.0.2:8470",
    # a missing file is not a missing program
    "Could not create logging file: No such file or directory",
    "cat: /tmp/tpu_logs/tpu_driver.INFO: No such file or directory",
    "the training loss is higher on the TPU than on my GPU after 10 epochs",
    "loss: 0.4312 - accuracy: 0.8811 - val_loss: 0.5120",
    "NaN-free data pipeline: I filter out rows with missing values before batching",
    # a NaN only the TPU produces: a result that differs on the TPU (accuracy-drop), not numerics
    "model.fit gives NaN loss on the TPU after a few epochs, while on the CPU it doesn't",
    "why does the loss become nan when I train on TPU, while that is not the case on GPU?",
    "the loss goes to NaN only on the TPU; same notebook on a T4 is stable",
    "a perda vira NaN na TPU, mas na GPU não acontece",
    # starting values, printed or set by every run: not a loss that became infinite
    "Epoch 1: val_loss improved from inf to 0.53210, saving model to /tmp/ckpt",
    "Epoch 00003: val_loss did not improve from inf",
    "best_loss = float('inf')",
    'min_loss = float("inf")',
    "lowest_loss = np.inf",
    # TensorFlow's start-up warnings on a machine without a GPU (every TPU VM and Colab TPU)
    "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
    "library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: "
    "No such file or directory",
    "2024-03-02 10:11:12.345678: W external/xla/xla/stream_executor/cuda/cuda_dnn.cc:9261] "
    "Unable to register cuDNN factory: libcudnn.so.8: cannot open shared object file",
    # a flag an old gcloud does not know yet: gcloud-component-manager's update, not a typo
    "ERROR: (gcloud.compute.tpus.tpu-vm.create) unrecognized arguments: --spot",
    # JAX's start-up probe of the GPU platforms, logged on every TPU VM
    "I0308 13:45:12.448390 140213 xla_bridge.py:660] Unable to initialize backend 'rocm': "
    "module 'jaxlib.xla_extension' has no attribute 'GpuAllocatorConfig'",
    # google-auth's warning about user credentials: what might happen, not a quota exceeded
    "/usr/lib/python3/site-packages/google/auth/_default.py:76: UserWarning: Your application "
    "has authenticated using end user credentials from Google Cloud SDK without a quota project. "
    'You might receive a "quota exceeded" or "API not enabled" error.',
]


def _outside(text: str):
    return parse(normalize(text)).outside


@pytest.mark.parametrize(
    ("kind", "line"),
    [
        *[("install", x) for x in INSTALL],
        *[("capacity", x) for x in CAPACITY],
        *[("notebook_capacity", x) for x in NOTEBOOK_CAPACITY],
        *[("library_op", x) for x in LIBRARY_OP],
        *[("loss_labels", x) for x in LOSS_LABELS],
        *[("autograd", x) for x in AUTOGRAD],
        *[("tpu_unused", x) for x in TPU_UNUSED],
        *[("api_access", x) for x in API_ACCESS],
        *[("scheduling", x) for x in SCHEDULING],
        *[("context_length", x) for x in CONTEXT_LENGTH],
        *[("cuda_request", x) for x in CUDA_REQUEST],
        *[("resource_missing", x) for x in RESOURCE_MISSING],
        *[("notebook_session", x) for x in NOTEBOOK_SESSION],
        *[("numerics", x) for x in NUMERICS],
        *[("dataset_steps", x) for x in DATASET_STEPS],
        *[("storage", x) for x in STORAGE],
        *[("program", x) for x in PROGRAM],
        *[("process_count", x) for x in PROCESS_COUNT],
        *[("disk_full", x) for x in DISK_FULL],
        *[("create_request", x) for x in CREATE_REQUEST],
        *[("billing", x) for x in BILLING],
        *[("offering", x) for x in OFFERING],
        *[("hardware", x) for x in HARDWARE],
        *[("host_memory", x) for x in HOST_MEMORY],
        *[("data_loading", x) for x in DATA_LOADING],
        *[("export", x) for x in EXPORT],
        *[("compiler", x) for x in COMPILER],
        *[("scratch_memory", x) for x in SCRATCH_MEMORY],
        *[("checkpoint", x) for x in CHECKPOINT],
        *[("strategy", x) for x in STRATEGY],
        *[("device_placement", x) for x in DEVICE_PLACEMENT],
        *[("tracer_leak", x) for x in TRACER_LEAK],
        *[("model_input", x) for x in MODEL_INPUT],
        *[("shape_mismatch", x) for x in SHAPE_MISMATCH],
        *[("python_error", x) for x in PYTHON_ERROR],
        *[("model_hub", x) for x in MODEL_HUB],
        *[("file_permission", x) for x in FILE_PERMISSION],
        *[("traced_condition", x) for x in TRACED_CONDITION],
        *[("spawn_guard", x) for x in SPAWN_GUARD],
        *[("certificate", x) for x in CERTIFICATE],
        *[("sharding", x) for x in SHARDING],
        *[("index_range", x) for x in INDEX_RANGE],
        *[("replication", x) for x in REPLICATION],
        *[("storage_access", x) for x in STORAGE_ACCESS],
        *[("storage_missing", x) for x in STORAGE_MISSING],
        *[("container_image", x) for x in CONTAINER_IMAGE],
        *[("regression", x) for x in REGRESSION],
    ],
)
def test_each_kind_of_problem_outside_the_guide_is_read(kind, line):
    found = _outside(line)
    assert found is not None and found["kind"] == kind and found["line"] == 1


@pytest.mark.parametrize("line", NOT_OUTSIDE)
def test_the_problems_the_guide_covers_are_not_outside_it(line):
    assert _outside(line) is None


def test_only_key_lines_are_read_and_the_first_one_counts():
    keys = [
        {"line": 3, "text": "training on a v4-8"},
        {"line": 9, "text": "ModuleNotFoundError: No module named 'jax'"},
        {"line": 12, "text": "There is no more capacity in the zone"},
    ]
    assert read_outside(keys) == {
        "kind": "install",
        "text": "ModuleNotFoundError",
        "line": 9,
    }
    assert read_outside([]) is None


def test_jaxs_probe_for_a_missing_tpu_client_is_no_install_problem_on_a_gpu_machine():
    """JAX's start-up probe for a TPU library the install lacks is an installation problem on a
    TPU VM, and only JAX looking for absent hardware on a machine that names a GPU and no TPU:
    there the context gate speaks, and any other problem outside the guide still counts."""
    probe = (
        "xla_bridge.py:889] Unable to initialize backend 'tpu': INTERNAL: Failed to open "
        "libtpu.so: libtpu.so: cannot open shared object file: No such file or directory"
    )
    on_gpu = parse(f"{probe}\njax.devices() shows [CudaDevice(id=0)] on my RTX 4080")
    assert on_gpu.outside is None and on_gpu.context["gate"] == "device"
    on_tpu_vm = parse(f"{probe}\nfresh v4-8 TPU VM, pip install jax, then jax.devices()")
    assert on_tpu_vm.outside and on_tpu_vm.outside["kind"] == "install"
    also_oom = parse(f"{probe}\nMemoryError\nthe RTX 4080 box has 32 GB of RAM")
    assert also_oom.outside and also_oom.outside["kind"] == "host_memory"


REPORT = """torch_xla fails to import on my TPU VM

I created a v4-8 TPU VM and installed torch and torch_xla with pip, then ran my training script.

Traceback (most recent call last):
  File "/home/me/train.py", line 4, in <module>
    import torch_xla.core.xla_model as xm
ImportError: /home/me/.local/lib/python3.10/site-packages/_XLAC.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c1010Dispatcher17runRecordFunctionERN2at14RecordFunctionE
"""

CAPACITY_REPORT = """can't create a TPU v5e in us-west4-a

$ gcloud compute tpus tpu-vm create trainer --zone=us-west4-a --accelerator-type=v5litepod-8 --version=v2-alpha-tpuv5-lite
ERROR: (gcloud.compute.tpus.tpu-vm.create) {"code": 8, "message": "There is no more capacity in the zone \\"us-west4-a\\"; you can try in another zone where Cloud TPU Nodes are offered (see https://cloud.google.com/tpu/docs/regions) [EID: 0x1a2b3c4d]"}
"""


# A quota refusal, and below it the person's guess in a question, which an HBM signature reads:
# the guess settles nothing, the message above it is the problem
QUOTA_WITH_A_GUESS = """$ gcloud compute tpus tpu-vm create pretrain --zone=us-east5-a --accelerator-type=v5p-256
ERROR: (gcloud.compute.tpus.tpu-vm.create) {"code": 8, "message": "Quota limit 'TPUV5PPodPerProjectPerZoneForTPUAPI' has been exceeded. Limit: 128 in zone us-east5-a."}
We sized it from the model. Is this RESOURCE_EXHAUSTED the chips' HBM being too small, i.e. do we need a smaller model?
"""


DISK_FULL_REPORT = """Training on the v4-8 dies when saving the second checkpoint

JAX on the TPU VM, orbax writing checkpoints to ~/ckpt every 1000 steps. At step 2000:

  File "/usr/lib/python3.10/shutil.py", line 254, in copyfile
OSError: [Errno 28] No space left on device
"""

# libtpu's own logs that filled the disk: the debug-logs entry's signature settles the answer
TPU_LOGS_FILL_THE_DISK = """TPU VM out of disk

pip install fails with OSError: [Errno 28] No space left on device, and du shows 80 GB under
/tmp/tpu_logs from a month of runs. How do I keep the TPU logs from growing like this?
"""

PROCESS_COUNT_REPORT = """xmp.spawn with nprocs=4 fails on the v3-8

I only want half of the TPU cores for this experiment, so I start the workers with
xmp.spawn(_mp_fn, args=(flags,), nprocs=4) on the TPU VM. It stops at once:

  File "/usr/local/lib/python3.8/dist-packages/torch_xla/distributed/xla_multiprocessing.py", line 201, in _pre_fork_setup
ValueError: The number of devices must be either 1 or 8, got 4 instead
"""

PROGRAM_REPORT = """Creating the TPU fails from my launcher script

I followed the Cloud TPU quickstart to create a v5e TPU from a small VM with a shell script.

Creating TPU my-tpu in us-west4-a...
/home/me/launch/create_tpu.sh: line 7: gcloud: command not found
Error: the TPU was not created, exit status 127
"""

STORAGE_REPORT = """TPUEstimator on Colab cannot save its checkpoint

Training runs on the Colab TPU and then fails when the estimator writes the first checkpoint:
ERROR:tensorflow:Error recorded from training_loop: File system scheme '[local]' not implemented (file: '/content/model_dir/model.ckpt-0_temp/part-00000-of-00001')
model_dir is a folder in the notebook's file system.
"""


STORAGE_ACCESS_REPORT = """Checkpoints from my v5e TPU VM never reach the bucket

Training runs fine on the v5litepod-8; at the first save Orbax fails:
google.api_core.exceptions.Forbidden: 403 POST https://storage.googleapis.com/upload/storage/v1/b/ckpt-runs/o: tpu-trainer@ml-lab-2291.iam.gserviceaccount.com does not have storage.objects.create access to the Google Cloud Storage object.
The bucket belongs to our data team's project.
"""


REGRESSION_REPORT = """v4-8 TPU VM: the device check hangs since this morning

Yesterday the same container trained fine. Ever since I upgraded torch_xla to the 2.7 nightly,
python3 -c "import torch_xla.core.xla_model as xm; print(xm.xla_device())" prints nothing and
never returns. gcloud lists the TPU as READY. No code changes on my side.
"""


COMPILER_REPORT = """Keras model does not compile on the Colab TPU

A 30M-parameter model built from a pretrained backbone, three pooling heads concatenated:
tensorflow.python.framework.errors_impl.InternalError: Compilation failure: Ran out of memory in memory space vmem. Please file a bug against XLA.
Smaller models with the same code train fine.
"""


DEVICE_PLACEMENT_REPORT = """Porting my classifier to a TPU v4-8 with torch_xla fails at the first step

device = xm.xla_device()
model = Net().to(device)
for x, y in loader:
    loss = loss_fn(model(x), y.to(device))

Traceback (most recent call last):
  File "train.py", line 41, in <module>
    loss = loss_fn(model(x), y.to(device))
RuntimeError: Expected all tensors to be on the same device, but found at least two devices, xla:0 and cpu!
"""


REPLICATION_REPORT = """xmp.spawn fails on Kaggle TPU v3-8 after loading my weights

import torch_xla.core.xla_model as xm
import torch_xla.distributed.xla_multiprocessing as xmp
device = xm.xla_device()
model = Net().to(device)
xmp.spawn(_mp_fn, args=(flags,), nprocs=8, start_method="fork")

Exception in device=TPU:0: Cannot replicate if number of devices (1) is different from 8
"""


STRATEGY_REPORT = """Kaggle TPU: error when fitting after loading the pretrained backbone

Moving my notebook from GPU to the TPU v3-8. I create the strategy, then load the model:

base = tf.keras.applications.EfficientNetB0(weights="imagenet", include_top=False)
with strategy.scope():
    model = tf.keras.Sequential([base, tf.keras.layers.Dense(5)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
model.fit(train_ds, epochs=5)

ValueError: Variable <tf.Variable 'stem_conv/kernel:0' shape=(3, 3, 3, 32) dtype=float32> was not created in the distribution strategy scope of (<tensorflow.python.distribute.tpu_strategy.TPUStrategyV2 object at 0x7f0c2c>).
"""


CHECKPOINT_REPORT = """Can't resume fine-tuning on TPU v4-8 from my own checkpoint

I trained a GPT-2 with torch_xla on a v4-8 and saved with xm.save(model.state_dict(), "ckpt.pt").
After adding two tokens to the tokenizer, loading it back fails:

Traceback (most recent call last):
  File "train.py", line 74, in <module>
    model.load_state_dict(torch.load("ckpt.pt"))
RuntimeError: Error(s) in loading state_dict for GPT2LMHeadModel:
	size mismatch for transformer.wte.weight: copying a param with shape torch.Size([50257, 768]) from checkpoint, the shape in current model is torch.Size([50259, 768]).
"""


SCRATCH_MEMORY_REPORT = """splash attention OOM on v5e-8 with seq len 32k

Training a 1B model with MaxText, attention=flash, per_device_batch_size=1. At the first step:
jax.errors.JaxRuntimeError: RESOURCE_EXHAUSTED: Ran out of memory in memory space vmem while allocating on stack for %splash_mha_fwd. Scoped allocation with size 33.00M and limit 16.00M exceeded scoped vmem limit by 17.00M.
HBM usage is only 6G of 16G per chip, so the model itself fits.
"""


HOST_MEMORY_REPORT = """BERT fine-tuning on a Cloud TPU dies before the first step

I'm fine-tuning BERT-large for SQuAD on a v3-8 from a small VM, following the README.
After calling model_fn the process prints
terminate called after throwing an instance of 'std::bad_alloc'
  what():  std::bad_alloc
Aborted (core dumped)
Nothing else runs on the VM.
"""


DATA_LOADING_REPORT = """Fine-tuning stops after a few thousand steps on the v4-8

torch_xla 2.4, a DistilBERT classifier, xmp.spawn with 4 processes, DataLoader with 4 workers
that tokenize each batch with the fast tokenizer created at import time.
Traceback (most recent call last):
  File "/home/ana/train.py", line 88, in collate
    enc = tokenizer(texts, padding="max_length", truncation=True, max_length=128)
RuntimeError: Already borrowed
The TPU itself was busy and fine up to that point.
"""


# a launcher that wraps the capacity failure in UnavailableError: not a connection problem
WRAPPED_CAPACITY_REPORT = """sky launch fails for a v4-8

$ sky launch -c trainer --gpus tpu-v4-8 train.yaml
sky.exceptions.ResourcesUnavailableError: Failed to acquire resources in all zones in us-central2 for {GCP({'tpu-v4-8': 1})}.
UnavailableError: Failed to acquire resources in us-central2-b for tpu-v4-8
"""


# gcloud prints the API's error as a JSON body over several lines; its message line names the
# problem without an error word, in a report long enough that only key lines are read
JSON_CAPACITY_REPORT = """Creating a v5p-64 slice fails every time since yesterday

Our nightly job creates the slice, trains for six hours and deletes it. It worked for weeks.

$ gcloud compute tpus tpu-vm create nightly-v5p --zone=us-east5-a \\
    --accelerator-type=v5p-64 --version=v2-alpha-tpuv5
Create request issued for: [nightly-v5p]
Waiting for operation [projects/ml-nightly/locations/us-east5-a/operations/operation-17] to complete...failed.
ERROR: (gcloud.compute.tpus.tpu-vm.create) {
  "code": 8,
  "message": "There is no more capacity in the zone \\"us-east5-a\\"; you can try in another zone"
}

The same command with v5p-8 still works. Did something change on our project?
What we checked:
- the service account still has roles/tpu.admin
- the runner can reach the API (listing TPUs works)
- deleting the old failed node first: no change
- another project of ours in the same region: same failure
Environment:
gcloud 490.0.0, Ubuntu 22.04 runner
jax 0.4.35, libtpu 0.0.5 on the slice when it used to come up
"""


DATASET_STEPS_REPORT = """Keras on a v3-8 with TPUStrategy, compile(steps_per_execution=32):
model.fit(train_ds, epochs=10, steps_per_epoch=2000)
Epoch 2/10
 412/2000 [=====>........................] - ETA: 3:10 - loss: 0.52
WARNING:tensorflow:Your input ran out of data; interrupting training. Make sure that your dataset \
or generator can generate at least `steps_per_epoch * epochs` batches (in this case, 20000 batches).
Is steps_per_execution too high for the TPU?
"""


KAGGLE_SESSION_REPORT = (
    "On Kaggle with the TPU v3-8 accelerator my notebook always stops at around 9 hours: the log "
    "just ends and the session is gone. Is the TPU disconnecting?"
)


NAN_REPORT = """Flax training on a v4-8 diverges

I moved my ViT to bfloat16 on the TPU VM and after ~300 steps:
step 280 | loss 2.871 | grad_norm 11.2
step 300 | loss nan | grad_norm nan
Everything after that is nan too. Same code in float32 on a GPU trains fine.
"""


@pytest.mark.parametrize(
    ("report", "kind", "note"),
    [
        (REPORT, "install", "reads like an installation or version problem"),
        (CAPACITY_REPORT, "capacity", "reads like a capacity or quota limit"),
        (WRAPPED_CAPACITY_REPORT, "capacity", "reads like a capacity or quota limit"),
        (JSON_CAPACITY_REPORT, "capacity", "reads like a capacity or quota limit"),
        (NAN_REPORT, "numerics", "reads like a numerical problem"),
        (STORAGE_REPORT, "storage", "reads like the TPU's host was given a path"),
        (PROGRAM_REPORT, "program", "says the shell cannot find a program"),
        (PROCESS_COUNT_REPORT, "process_count", "number of processes the TPU host does not split"),
        (DISK_FULL_REPORT, "disk_full", "says a disk is full"),
        (HOST_MEMORY_REPORT, "host_memory", "says the machine's own RAM ran out"),
        (DATA_LOADING_REPORT, "data_loading", "says the code that loads"),
        (COMPILER_REPORT, "compiler", "says the XLA compiler failed by a bug of its own"),
        (REGRESSION_REPORT, "regression", "says the problem began with a new release"),
        (SCRATCH_MEMORY_REPORT, "scratch_memory", "on-chip scratch memory"),
        (STORAGE_ACCESS_REPORT, "storage_access", "says Cloud Storage refused the account"),
        (CHECKPOINT_REPORT, "checkpoint", "says a saved checkpoint does not fit the model"),
        (STRATEGY_REPORT, "strategy", "used TensorFlow's distribution strategy against"),
        (DEVICE_PLACEMENT_REPORT, "device_placement", "tensors or arrays are on different"),
        (TRACER_LEAK[0], "tracer_leak", "a JAX tracer escaped the transformation"),
        (SPAWN_GUARD_REPORT, "spawn_guard", "started a new process before the main module"),
        (CERTIFICATE_REPORT, "certificate", "could not verify a server's TLS certificate"),
        (TRACED_CONDITION_REPORT, "traced_condition", "met a value JAX traces"),
        (SHARDING[0], "sharding", "JAX cannot shard an array as the code asks"),
        (INDEX_RANGE[0], "index_range", "an index is outside the table it reads"),
        (REPLICATION_REPORT, "replication", "processes could not share the TPU"),
        ("how many TPU chips do I get in a v5litepod-16?", "hardware", "asks what a TPU type has"),
        (QUOTA_WITH_A_GUESS, "capacity", "reads like a capacity or quota limit"),
        (DATASET_STEPS_REPORT, "dataset_steps", "steps do not match the dataset's length"),
        (KAGGLE_SESSION_REPORT, "notebook_session", "ended the session"),
    ],
)
def test_a_problem_outside_the_guide_is_refused_and_says_why(engine, report, kind, note):
    answer = engine.ask(report)
    assert answer.facts.outside is not None and answer.facts.outside["kind"] == kind
    assert answer.abstained
    assert any(note in n for n in answer.to_dict()["notes"])
    shown = answer_text(answer, engine.kb)
    assert "No confident match" in shown and note in shown.split("No confident match")[1]
    # the nearest entries come without the model's confidences, which would contradict the refusal
    assert "confidence" not in shown


def test_a_disk_filled_by_the_tpu_logs_is_answered_by_their_entry(engine):
    answer = engine.ask(TPU_LOGS_FILL_THE_DISK)
    assert answer.facts.outside is not None and answer.facts.outside["kind"] == "disk_full"
    assert not answer.abstained and answer.results[0].id == "debug-logs"


def test_a_regression_is_walked_back_to_the_release_the_report_names(engine):
    """The release the report upgraded from fills the version the fix goes back to."""
    report = (
        "v4-8: xm.xla_device() never returns\n\n"
        "I upgraded torch_xla from 2.6.0 to 2.7.0 this morning and the device check hangs.\n"
    )
    answer = engine.ask(report)
    assert answer.abstained and answer.facts.outside["kind"] == "regression"
    assert answer.values["framework_version"] == "2.6.0"
    answers = {"waited": "over-5", "architecture": "tpu-vm", "status": "ready"}
    answers["smoke-test"] = "after-upgrade"
    fix = walk(engine.kb.get("tpu-connection"), answers, overrides=answer.values).to_dict("en")
    installs = [s["command"] for s in fix["steps"] if s.get("command", "").startswith("pip i")]
    assert installs == [
        'pip install "torch==2.6.0" "torch_xla[tpu]==2.6.0" -f '
        "https://storage.googleapis.com/libtpu-releases/index.html"
    ]


def test_a_specific_signature_still_answers_beside_such_a_line(engine):
    """A missing profiler plugin is the op-profiling entry's own signature; an HBM OOM after an
    import warning is still an HBM OOM."""
    plugin = (
        "the PROFILE tab is missing in TensorBoard on my TPU VM\n"
        "W0227 10:03:55.118412 140213 application.py:558] ModuleNotFoundError: "
        "No module named 'tensorboard_plugin_profile'"
    )
    answer = engine.ask(plugin)
    assert answer.facts.outside is not None
    assert not answer.abstained and answer.results[0].id == "op-profiling"
    assert not any("installation" in n for n in answer.notes)
    oom = (
        "ImportError: cannot import name 'TPUEmbedding' from partially initialized module\n"
        "jaxlib.xla_extension.XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent "
        "error. Ran out of memory in memory space hbm. Used 17.52G of 15.48G hbm."
    )
    answer = engine.ask(oom)
    assert not answer.abstained and answer.results[0].id == "hbm-oom"


_SKEW = (
    "InvalidArgumentError: NodeDef expected inputs 'int64' do not match 1 inputs specified; "
    "Op<name=_Recv; signature= -> tensor:tensor_type>; NodeDef: {{node _Recv}}"
)
_UNLOADED = (
    "NotFoundError: /usr/local/lib/python3.8/dist-packages/tensorflow_addons/custom_ops/image/"
    "_image_ops.so: undefined symbol: _ZN10tensorflow8OpKernel11TraceStringEv"
)


def test_a_call_in_the_code_is_no_first_error(engine):
    """A signature that only supports its entry reads the person's code, not an error: the
    profiler's start call above the bucket's 403 it raised does not make op-profiling's the
    report's first error, so the storage refusal outside the guide decides."""
    report = (
        "Writing the profile of our v4-8 run to a bucket in the data project:\n"
        "tf.profiler.experimental.start('gs://shared-profiles/exp7')\n"
        "PermissionDeniedError: Error executing an HTTP request: HTTP response code 403 with body "
        "'svc-1234@proj.iam.gserviceaccount.com does not have storage.objects.create access to "
        "the Google Cloud Storage object.'"
    )
    answer = engine.ask(report)
    assert answer.facts.outside is not None and answer.facts.outside["kind"] == "storage_access"
    assert answer.abstained


def test_the_first_error_decides_between_an_entry_and_an_install_problem(engine):
    """The entry's error first and a library that no longer loads after the person's attempted
    fix: the entry answers. The library first and then the TPU error: the install problem is the
    cause, and the answer is refused with its note."""
    entry_first = (
        "Colab TPU: connecting with initialize_tpu_system fails right away\n\n"
        f"{_SKEW}\n\n"
        "After pip install -U tensorflow the connection works, but importing my augmentations "
        f"now fails:\n\n{_UNLOADED}"
    )
    answer = engine.ask(entry_first)
    assert answer.facts.outside is not None and answer.facts.outside["kind"] == "install"
    assert not answer.abstained and answer.results[0].id == "tpu-connection"

    install_first = (
        "Colab TPU: my notebook stopped working today\n\n"
        f"{_UNLOADED}\n\n"
        f"and when I connect with initialize_tpu_system:\n\n{_SKEW}"
    )
    answer = engine.ask(install_first)
    assert answer.abstained and answer.facts.outside["kind"] == "install"


def test_what_followed_an_error_outside_the_guide_is_still_answered(engine):
    """A worker's data loader crashed (outside the guide), and the report is about what followed:
    the other processes hang and Ctrl+C does not stop them. hang-on-error's signature that reads
    the aftermath keeps the answer; the crash alone, with no such aftermath, is still refused."""
    crash = "PIL.UnidentifiedImageError: cannot identify image file '/data/train/0042.jpg'"
    hang = (
        "xmp.spawn on a v4-8: one process died with\n\n"
        f"{crash}\n\n"
        "and the other three sit there with the TPU idle; Ctrl+C only prints KeyboardInterrupt "
        "and the script never exits. How do I make the whole job fail fast?"
    )
    answer = engine.ask(hang)
    assert answer.facts.outside is not None and answer.facts.outside["kind"] == "data_loading"
    assert not answer.abstained and answer.results[0].id == "hang-on-error"
    alone = engine.ask(f"xmp.spawn on a v4-8, one process died with\n\n{crash}")
    assert alone.abstained


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_note_is_in_the_answers_language(lang):
    facts = parse(normalize(CAPACITY_REPORT))
    note = abstention_note(facts, lang)
    assert note is not None and "4" in note and "(“no more capacity in the zone”)" in note
    assert ("another zone" if lang == "en" else "outra zona") in note
    # a report with a detail to go on needs no note of its own ("TPU training is slow" alone does:
    # see tests/test_engine_notes.py)
    assert (
        abstention_note(parse(normalize("TPU training is slow at batch 8 per core")), lang) is None
    )
    nan = abstention_note(parse(normalize(NAN_REPORT)), lang)
    assert nan is not None and "jax_debug_nans" in nan
    storage = abstention_note(parse(normalize(STORAGE_REPORT)), lang)
    assert storage is not None and "gs://BUCKET" in storage
    assert ("learning rate" if lang == "en" else "taxa de aprendizado") in nan


def test_a_question_about_two_generations_is_quoted_with_both():
    assert _outside("what's the difference between the v4-32 and a v5p-32?")["text"] == (
        "what's the difference between the v4-32 and a v5p-32"
    )
    assert (
        _outside("qual a diferença entre a v5e e a v5p?")["text"] == "diferença entre a v5e e a v5p"
    )


def test_a_question_about_the_hardware_names_the_types_it_asks_about():
    assert _outside("what is the difference between TPU v4 and v5litepod-16, or the V4?")[
        "types"
    ] == [
        "v4",
        "v5litepod-16",
    ]
    assert _outside("how many chips does a TPU have?")["types"] == []


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_note_on_a_hardware_question_gives_the_figures_of_the_types_named(lang):
    def hint(*types: str) -> str:
        outside = {"kind": "hardware", "text": "how many chips", "line": 1, "types": list(types)}
        return outside_notes(outside, lang)[1]

    pod = hint("v4-32")  # 16 chips of 32 GiB on 4 hosts, each chip one device
    assert "v4-32 (v4): chips: 16;" in pod and ": 4;" in pod and "512 GiB" in pod
    assert "16 de 32 GiB" in pod if lang == "pt" else "16 of 32 GiB" in pod
    v3 = hint("v3-8")  # each core its own device, half a chip's HBM
    assert "chips: 4;" in v3 and ("8 de 16 GiB" if lang == "pt" else "8 of 16 GiB") in v3
    both = hint("v5e", "v5p")  # generations alone: the chip, and what the type's number counts
    assert "v5e: TensorCores" in both and "v5p: TensorCores" in both and "95 GiB" in both
    assert "v5litepod-8 = 8 chips" in both and "v5p-8 = 4 chips" in both
    every = hint()  # nothing named: every generation's chip, and what to give
    assert all(g in every for g in ("v2 (", "v3 (", "v4 (", "v5e (", "v5p (", "v6e ("))
    assert "v5litepod-8" in every
    assert hint("v3-7") == hint("v3")  # a type that does not parse counts as its generation


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("lang", ["en", "pt"])
def test_every_kind_has_its_own_note_and_hint(kind, lang):
    note, hint = outside_notes({"kind": kind, "text": "X", "line": 3}, lang)
    assert "line 3" in note and "(“X”)" in hint
    others = {outside_notes({"kind": k, "text": "X", "line": 3}, lang) for k in KINDS if k != kind}
    assert (note, hint) not in others


def test_the_json_contract_names_every_kind():
    """`facts.outside.kind` in `ask --json` is documented kind by kind in the README's JSON
    contract: a kind added to `text/outside.py` must be named there too."""
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    contract = readme.split("### JSON contract", 1)[1].split("\n## ", 1)[0]
    assert [kind for kind in KINDS if f'"{kind}"' not in contract] == []


def test_the_oom_killer_ruled_out_and_code_that_raises_are_no_problem_outside_the_guide():
    assert _outside("Nothing in dmesg, no OOM killer, the log just stops.") is None
    assert _outside("dmesg: Out of memory: Killed process 4242 (python3)")["kind"] == "host_memory"
    # a line of the person's code that would raise is not a message the run printed
    assert _outside("    raise RuntimeError('loss virou nan')") is None
    assert _outside("RuntimeError: loss virou nan no passo 300")["kind"] == "numerics"


# Pasted code with a collective in a block only the first process runs (`read_code`)
ONE_PROCESS_COLLECTIVE = [
    "for epoch in range(3):\n"
    "    train(loader)\n"
    "    if xm.is_master_ordinal():\n"
    "        acc = evaluate(model)\n"
    "        xm.rendezvous('eval_done')\n",
    "if jax.process_index() == 0:\n"
    "    metrics = p_eval_step(state, batch)\n"
    "    writer.write_scalars(step, metrics)\n",
    "if step % cfg.eval_every == 0 and jax.process_index() == 0:\n"
    "    metrics = p_eval_step(state, batch)\n",
    "    if xm.is_master_ordinal():\n        xm.save(model.state_dict(), 'ckpt.pt')\n",
]
# ... and code where every process reaches the collective, or whose indentation was lost
EVERY_PROCESS_CALLS = [
    "    if xm.is_master_ordinal():\n"
    "        print('saving')\n"
    "    xm.save(model.state_dict(), 'ckpt.pt')\n",
    "if jax.process_index() == 0:\n"
    "    writer.write_scalars(step, metrics)\n"
    "metrics = p_eval_step(state, batch)\n",
    "if xm.is_master_ordinal():\nxm.save(model.state_dict(), 'ckpt.pt')\n",
]


@pytest.mark.parametrize("code", ONE_PROCESS_COLLECTIVE)
def test_a_collective_only_the_first_process_calls_is_read(code):
    found = _outside(code)
    assert found is not None and found["kind"] == "one_process_collective"


@pytest.mark.parametrize("code", EVERY_PROCESS_CALLS)
def test_a_collective_every_process_calls_is_not_read(code):
    assert _outside(code) is None


# Keras fitting an endless dataset with no steps_per_epoch, in a report that says the epoch never
# ends (`read_code`'s `dataset_steps`)
ENDLESS_FIT = (
    "A primeira época nunca termina:\n"
    "ds = (tf.data.TFRecordDataset(files)\n"
    "      .shuffle(10000)\n"
    "      .repeat()\n"
    "      .batch(512, drop_remainder=True))\n"
    "model.fit(ds, epochs=20)\n"
)


def test_an_endless_dataset_fitted_with_no_steps_per_epoch_is_read():
    found = _outside(ENDLESS_FIT)
    assert found is not None and found["kind"] == "dataset_steps" and found["line"] == 6


@pytest.mark.parametrize(
    "code",
    [
        ENDLESS_FIT.replace(
            "model.fit(ds, epochs=20)", "model.fit(ds, epochs=20, steps_per_epoch=117)"
        ),
        ENDLESS_FIT.replace(".repeat()", ".repeat(3)"),
        ENDLESS_FIT.replace("A primeira época nunca termina:", "Each epoch is slow:"),
    ],
)
def test_a_fit_that_ends_its_epochs_is_not_read(code):
    assert _outside(code) is None
