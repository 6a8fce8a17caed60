"""User-facing strings of the core, in English and Brazilian Portuguese: one catalogue, looked up
by key (`t(lang, key, **values)`). No textual import: the CLI, the TUI and the engine's
explanations all read it. Keys are grouped by who shows them: `check.*` (tpu-assist check),
`why.*` (explain.py), `script.*` (render.fix_script), `outcome.*`, `cli.*` (cli/output.py), `md.*`
(export.py), `advice.*` (advice.py: computed per-device advice), `note.*` (an answer's notes, read
in English by the engine), and the interactive assistant's (`status.*`, `answer.*`, `walk.*`,
`loop.*`, `key.*`, `cmd.*`…). `risk.*` are the short risk labels everyone shows."""

from __future__ import annotations

import os
from collections.abc import Mapping

LANGS = ("en", "pt")

STRINGS: dict[str, tuple[str, str]] = {
    # -- computed advice (advice.py): per-device figures for a number the person typed, in the
    # walk of a `number` node. `{unit}`, `{units}`, `{where}`, `{alternatives}`, `{device}` are
    # themselves the `advice.unit.*`, `advice.where`, `advice.alternatives`, `advice.hbm.device.*`
    # phrases in the same language.
    "advice.unit.core": ("core", "núcleo"),
    "advice.unit.cores": ("cores", "núcleos"),
    "advice.unit.chip": ("chip", "chip"),
    "advice.unit.chips": ("chips", "chips"),
    "advice.alternatives": ("{first} or {second}", "{first} ou {second}"),
    "advice.where": (
        "on the {n} {units} of a {accelerator_type}{megacore}{assumed}",
        "nos {n} {units} de uma {accelerator_type}{megacore}{assumed}",
    ),
    "advice.where.megacore": (
        ", each chip one megacore device of 2 TensorCores",
        ", cada chip um dispositivo megacore de 2 TensorCores",
    ),
    "advice.where.assumed": (
        ", assumed — give the accelerator type if yours is another slice",
        ", suposta — informe o tipo de acelerador se a sua for outra",
    ),
    "advice.batch.multiple.slice": (
        "Batch {batch} is a multiple of {step}: {per_device} per {unit} {where}.",
        "O lote {batch} é múltiplo de {step}: {per_device} por {unit} {where}.",
    ),
    "advice.batch.not_multiple.slice": (
        "Batch {batch} is not a multiple of {step}: use {alternatives} "
        "({per_device} per {unit} {where}).",
        "O lote {batch} não é múltiplo de {step}: use {alternatives} "
        "({per_device} por {unit} {where}).",
    ),
    "advice.batch.split": (
        "{batch} does not divide among the {devices} devices the batch is split over: "
        "{alternatives} does.",
        "{batch} não se divide entre os {devices} dispositivos que repartem o lote: "
        "{alternatives} se divide.",
    ),
    "advice.batch.hosts": (
        "The slice has {hosts} hosts of {devices_per_host} devices: with one "
        "process per host (PyTorch/XLA, jax.pmap) each process loads "
        "{per_host} examples a step.",
        "A fatia tem {hosts} hosts de {devices_per_host} dispositivos: com um "
        "processo por host (PyTorch/XLA, jax.pmap) cada processo carrega "
        "{per_host} exemplos por etapa.",
    ),
    "advice.batch.below_step.slice": (
        "Below {step} each TensorCore gets fewer than 8 rows and the TPU pads them up to "
        "8 anyway; {ideal} ({ideal_per_device} per {unit}) is the ideal starting point.",
        "Abaixo de {step} cada TensorCore recebe menos de 8 linhas e a TPU as preenche "
        "até 8 de qualquer forma; {ideal} ({ideal_per_device} por {unit}) é o ponto de "
        "partida ideal.",
    ),
    "advice.batch.multiple": (
        "Batch {batch} is a multiple of {step}.",
        "O lote {batch} é múltiplo de {step}.",
    ),
    "advice.batch.not_multiple": (
        "Batch {batch} is not a multiple of {step}: use {alternatives}.",
        "O lote {batch} não é múltiplo de {step}: use {alternatives}.",
    ),
    "advice.batch.per_device_unknown": (
        "Per-device figures depend on the TPU (8 devices on a v2-8, v3-8, v5e-8 or v6e-8; "
        "4 megacore devices on a v4-8 or v5p-8): give the accelerator type to get them.",
        "Os números por dispositivo dependem da TPU (8 dispositivos numa v2-8, v3-8, v5e-8 ou "
        "v6e-8; 4 dispositivos megacore numa v4-8 ou v5p-8): informe o tipo de acelerador.",
    ),
    "advice.batch.below_step": (
        "Below {step} the TPU pads every batch up to {step} anyway; {ideal} is ideal.",
        "Abaixo de {step} a TPU preenche o lote até {step} de qualquer forma; {ideal} é o ideal.",
    ),
    "advice.batch.fit": (
        "The run needed {used} GiB of {limit} GiB: scaling the batch by the same "
        "ratio gives at most {fit} (weights do not shrink with the batch, so try it, then go "
        "lower).",
        "A execução precisou de {used} GiB de {limit} GiB: reduzir o lote na "
        "mesma proporção dá no máximo {fit} (os pesos não diminuem com o lote; teste e "
        "reduza mais se preciso).",
    ),
    "advice.feature.no_padding": (
        "{dim} is a multiple of {multiple}: no padding on this dimension.",
        "{dim} é múltiplo de {multiple}: nenhum preenchimento nesta dimensão.",
    ),
    "advice.feature.padded": (
        "{dim} is stored padded to {padded} (a multiple of {multiple}): "
        "{waste_pct}% of that dimension is padding.",
        "{dim} é guardado preenchido até {padded} (múltiplo de {multiple}): "
        "{waste_pct}% dessa dimensão é preenchimento.",
    ),
    "advice.feature.round_down": (
        "For speed, {padded} costs the same memory and uses the padding for real work; "
        "to save memory, only {lower} (rounding down) helps — a smaller layer, which may "
        "cost accuracy.",
        "Para velocidade, {padded} custa a mesma memória e usa o preenchimento com "
        "trabalho real; para economizar memória, só {lower} (arredondar para baixo) "
        "ajuda — uma camada menor, que pode custar acurácia.",
    ),
    "advice.feature.no_lower": (
        "For speed, {padded} costs the same memory; there is no multiple of {multiple} "
        "below it, so for memory lower the batch instead.",
        "Para velocidade, {padded} custa a mesma memória; não há múltiplo de {multiple} "
        "abaixo, então para memória reduza o lote.",
    ),
    "advice.feature.mxu": (
        "The matrix unit of a {generation} is {mxu}×{mxu}: for speed {suggested} fills it "
        "(the guide's multiples of 128 are for v2–v5).",
        "A unidade de matrizes da {generation} é {mxu}×{mxu}: para velocidade {suggested} a "
        "preenche (os múltiplos de 128 do guia valem para v2–v5).",
    ),
    "advice.layer.below_mxu": (
        "{units} is below {mxu}, the width of the TPU matrix unit: the layer runs inefficiently.",
        "{units} é menor que {mxu}, a largura da unidade de matrizes da TPU: a camada roda com "
        "baixa eficiência.",
    ),
    "advice.layer.not_multiple": (
        "{units} is not a multiple of {mxu}: {suggested} wastes no MXU lanes.",
        "{units} não é múltiplo de {mxu}: {suggested} não desperdiça a MXU.",
    ),
    "advice.layer.dense_minimum": (
        "For dense (fully connected) layers at least 512 units is recommended; "
        "doubling 256 → 512 costs only about 20% more step time.",
        "Para camadas densas (totalmente conectadas), recomenda-se ao menos 512 unidades; "
        "dobrar de 256 para 512 custa só cerca de 20% a mais de tempo por etapa.",
    ),
    "advice.layer.wide_enough": (
        "{units} units is wide enough for the TPU.",
        "{units} unidades já é largo o bastante para a TPU.",
    ),
    "advice.hbm.unknown": (
        "HBM per device: 8 GiB (v2 core), 16 GiB (v3 core, v5e chip), 32 GiB (v4 or v6e "
        "chip), 95 GiB (v5p chip) — give the accelerator type for your figure.",
        "HBM por dispositivo: 8 GiB (núcleo v2), 16 GiB (núcleo v3, chip v5e), 32 GiB (chip "
        "v4 ou v6e), 95 GiB (chip v5p) — informe o tipo de acelerador para o seu número.",
    ),
    "advice.hbm.slice": (
        "Each {unit} of a {accelerator_type} ({generation}) has {gib} GiB of HBM for "
        "weights and activations ({device}).",
        "Cada {unit} de uma {accelerator_type} ({generation}) tem {gib} GiB de HBM "
        "para pesos e ativações ({device}).",
    ),
    "advice.hbm.device.core": (
        "{chip_gib} GiB per chip, {cores} cores a chip",
        "{chip_gib} GiB por chip, {cores} núcleos por chip",
    ),
    "advice.hbm.device.megacore": (
        "one megacore device of 2 TensorCores",
        "um dispositivo megacore de 2 TensorCores",
    ),
    "advice.hbm.device.tensorcore": ("one TensorCore", "um TensorCore"),
    # what a TPU type or generation has (advice.describe), quoted by the note on a question
    # about the hardware (answer.note_outside.hardware)
    "advice.describe.slice": (
        "{accelerator_type} ({generation}): chips: {chips}; TensorCores per chip: {cores}; HBM: "
        "{chip_gib} GiB per chip, {total_gib} GiB in all; host VMs: {hosts}; devices JAX and "
        "PyTorch/XLA see: {devices} of {device_gib} GiB (a device is {device})",
        "{accelerator_type} ({generation}): chips: {chips}; TensorCores por chip: {cores}; HBM: "
        "{chip_gib} GiB por chip, {total_gib} GiB ao todo; VMs host: {hosts}; dispositivos que "
        "JAX e PyTorch/XLA veem: {devices} de {device_gib} GiB (um dispositivo é {device})",
    ),
    "advice.describe.generation": (
        "{generation}: TensorCores per chip: {cores}; HBM per chip: {chip_gib} GiB; a device "
        "JAX and PyTorch/XLA see is {device}; matrix unit {mxu}×{mxu}; the number in its "
        "accelerator type counts {counts} ({example} = {example_chips} chips); one host VM "
        "drives up to {host_chips} chips",
        "{generation}: TensorCores por chip: {cores}; HBM por chip: {chip_gib} GiB; um "
        "dispositivo que JAX e PyTorch/XLA veem é {device}; unidade de matriz {mxu}×{mxu}; o "
        "número do tipo de acelerador conta {counts} ({example} = {example_chips} chips); uma "
        "VM host comanda até {host_chips} chips",
    ),
    "advice.describe.device.core": ("one TensorCore, half a chip", "um TensorCore, meio chip"),
    "advice.describe.device.megacore": (
        "one chip, its 2 TensorCores fused into one megacore",
        "um chip, com os 2 TensorCores fundidos num megacore",
    ),
    "advice.describe.device.chip": ("one chip", "um chip"),
    "advice.describe.cores": ("TensorCores", "TensorCores"),
    "advice.describe.chip": (
        "{generation} (TensorCores: {cores}, HBM: {chip_gib} GiB)",
        "{generation} (TensorCores: {cores}, HBM: {chip_gib} GiB)",
    ),
    "advice.describe.all": (
        "per chip, {chips} — name the accelerator type (v5litepod-8, v4-32 …) for its chips, "
        "hosts and devices",
        "por chip, {chips} — informe o tipo de acelerador (v5litepod-8, v4-32 …) para ver seus "
        "chips, hosts e dispositivos",
    ),
    # -- the notes of an answer (engine.py). Part of the `ask --json` contract: the engine always
    # reads them in English, whatever the answer's language.
    "note.truncated": (
        "input was cut to its key lines (see facts.key_lines)",
        "a entrada foi reduzida às suas linhas-chave (veja facts.key_lines)",
    ),
    "note.empty": ("empty input", "entrada vazia"),
    "note.no_match": (
        "nothing in the knowledge base matched",
        "nada na base de conhecimento correspondeu",
    ),
    "note.other_script": (
        "much of the input is in {script} script, which tpu-assist does not read (it reads English "
        "and Portuguese): only its Latin-script words, error lines and code were matched",
        "boa parte da entrada está em escrita {script}, que o tpu-assist não lê (ele lê inglês e "
        "português): só as palavras em alfabeto latino, as linhas de erro e o código foram "
        "comparados",
    ),
    "note.vague": (
        "the input names the setup but no problem (no error, no symptom): nothing to match it by",
        "a entrada cita o ambiente mas nenhum problema (nem erro, nem sintoma): nada a comparar",
    ),
    "note.slow_only": (
        "the input says only that a run is slow: several entries fit, and what tells them apart "
        "(the profile's figures, the batch, the model, the loop) is not in it",
        "a entrada diz só que a execução está lenta: várias entradas servem, e o que as distingue "
        "(os números do perfil, o lote, o modelo, o loop) não está nela",
    ),
    "note.outside.install": (
        "line {line} reads like an installation or version problem (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} parece um problema de instalação ou de versões (“{text}”), que o guia de "
        "solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.library_op": (
        "line {line} says the running TensorFlow does not know an op the model uses (“{text}”): "
        "a library's op, registered only once that library is imported, which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o TensorFlow em execução não conhece uma operação que o modelo usa "
        "(“{text}”): uma operação de biblioteca, registrada só quando a biblioteca é importada, o "
        "que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.regression": (
        "line {line} says the problem began with a new release (“{text}”), a regression or a "
        "version mismatch that the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o problema começou com uma versão nova (“{text}”), uma regressão "
        "ou uma incompatibilidade de versões que o guia de solução de problemas por trás do "
        "tpu-assist não cobre",
    ),
    "note.outside.program": (
        "line {line} says the shell cannot find a program (“{text}”), which the troubleshooting "
        "guide behind tpu-assist does not cover",
        "a linha {line} diz que o shell não encontra um programa (“{text}”), o que o guia de "
        "solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.replication": (
        "line {line} says the launcher's processes could not share the TPU because the parent "
        "process took it first (“{text}”), which the troubleshooting guide behind tpu-assist does "
        "not cover",
        "a linha {line} diz que os processos do lançador não puderam dividir a TPU porque o "
        "processo pai a pegou antes (“{text}”), o que o guia de solução de problemas por trás do "
        "tpu-assist não cobre",
    ),
    "note.outside.process_count": (
        "line {line} says the launcher was asked for a number of processes the TPU host does not "
        "split into (“{text}”), which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o lançador recebeu um número de processos em que o host da TPU não "
        "se divide (“{text}”), o que o guia de solução de problemas por trás do tpu-assist não "
        "cobre",
    ),
    "note.outside.create_request": (
        "line {line} says gcloud refused the arguments of the request to create a TPU (“{text}”), "
        "which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o gcloud recusou os argumentos do pedido de criação da TPU "
        "(“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.billing": (
        "line {line} asks about cost or billing (“{text}”), which the troubleshooting guide behind "
        "tpu-assist does not cover",
        "a linha {line} pergunta sobre custo ou cobrança (“{text}”), o que o guia de solução de "
        "problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.offering": (
        "line {line} asks where a TPU type is offered (“{text}”), which the troubleshooting guide "
        "behind tpu-assist does not cover",
        "a linha {line} pergunta onde um tipo de TPU é oferecido (“{text}”), o que o guia de "
        "solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.hardware": (
        "line {line} asks what a TPU type has (“{text}”), which the troubleshooting guide behind "
        "tpu-assist does not cover",
        "a linha {line} pergunta o que um tipo de TPU tem (“{text}”), o que o guia de solução de "
        "problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.capacity": (
        "line {line} reads like a capacity or quota limit (“{text}”), which the troubleshooting "
        "guide behind tpu-assist does not cover",
        "a linha {line} parece um limite de capacidade ou de cota (“{text}”), que o guia de "
        "solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.notebook_capacity": (
        "line {line} says the notebook service had no accelerator to give the session (“{text}”), "
        "which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o serviço de notebooks não tinha acelerador para a sessão "
        "(“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.notebook_session": (
        "line {line} says the notebook service (Colab, Kaggle) ended the session (“{text}”), "
        "which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o serviço de notebooks (Colab, Kaggle) encerrou a sessão "
        "(“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.storage": (
        "line {line} reads like the TPU's host was given a path on this machine's disk (“{text}”), "
        "which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} parece um caminho no disco desta máquina passado ao host da TPU "
        "(“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.storage_access": (
        "line {line} says Cloud Storage refused the account access (“{text}”), a bucket "
        "permission the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o Cloud Storage negou acesso à conta (“{text}”), uma permissão "
        "do bucket que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.storage_missing": (
        "line {line} says Cloud Storage has no object at the path the program asked for "
        "(“{text}”), a data path the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o Cloud Storage não tem nenhum objeto no caminho pedido pelo "
        "programa (“{text}”), um caminho de dados que o guia de solução de problemas por trás do "
        "tpu-assist não cobre",
    ),
    "note.outside.container_image": (
        "line {line} says the pod's container image could not be pulled (“{text}”), so the job "
        "never started; the troubleshooting guide behind tpu-assist does not cover registries",
        "a linha {line} diz que a imagem de contêiner do pod não pôde ser baixada (“{text}”), e "
        "o job nem começou; o guia de solução de problemas por trás do tpu-assist não cobre "
        "registros de imagens",
    ),
    "note.outside.disk_full": (
        "line {line} says a disk is full (“{text}”), the machine's own storage and not the TPU's "
        "memory, which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que um disco está cheio (“{text}”), o armazenamento da própria máquina "
        "e não a memória da TPU, o que o guia de solução de problemas por trás do tpu-assist não "
        "cobre",
    ),
    "note.outside.host_memory": (
        "line {line} says the machine's own RAM ran out (“{text}”), not the TPU's memory, which "
        "the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que acabou a RAM da própria máquina (“{text}”), não a memória da TPU, "
        "o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.data_loading": (
        "line {line} says the code that loads the data on the host crashed (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o código que carrega os dados no host quebrou (“{text}”), o que o "
        "guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.dataset_steps": (
        "line {line} says Keras's steps do not match the dataset's length (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que os passos do Keras não batem com o tamanho do dataset (“{text}”), "
        "o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.export": (
        "line {line} says converting the model to another format met an op it does not know "
        "(“{text}”), which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que a conversão do modelo para outro formato encontrou uma operação "
        "que ela não conhece (“{text}”), o que o guia de solução de problemas por trás do "
        "tpu-assist não cobre",
    ),
    "note.outside.compiler": (
        "line {line} says the XLA compiler failed by a bug of its own (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o compilador XLA falhou por um bug dele (“{text}”), o que o guia "
        "de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.scratch_memory": (
        "line {line} says one kernel ran out of the TPU core's on-chip scratch memory (“{text}”), "
        "not its HBM, which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que um kernel esgotou a memória de rascunho no chip do núcleo da TPU "
        "(“{text}”), não a HBM, o que o guia de solução de problemas por trás do tpu-assist não "
        "cobre",
    ),
    "note.outside.checkpoint": (
        "line {line} says a saved checkpoint does not fit the model it is restored into "
        "(“{text}”), which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que um checkpoint salvo não corresponde ao modelo em que é restaurado "
        "(“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.strategy": (
        "line {line} says the code used TensorFlow's distribution strategy against its rules "
        "(“{text}”), which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o código usou a estratégia de distribuição do TensorFlow contra as "
        "regras dela (“{text}”), o que o guia de solução de problemas por trás do tpu-assist não "
        "cobre",
    ),
    "note.outside.device_placement": (
        "line {line} says an operation's tensors or arrays are on different devices (“{text}”), "
        "one the code did not move, which the troubleshooting guide behind tpu-assist does not "
        "cover",
        "a linha {line} diz que os tensores ou arrays de uma operação estão em dispositivos "
        "diferentes (“{text}”), um que o código não moveu, o que o guia de solução de problemas "
        "por trás do tpu-assist não cobre",
    ),
    "note.outside.cuda_request": (
        "line {line} says the code or a library asks for CUDA, and this machine has no NVIDIA GPU "
        "(“{text}”), which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o código ou uma biblioteca pede CUDA, e esta máquina não tem GPU "
        "NVIDIA (“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.resource_missing": (
        "line {line} says gcloud found no such resource where it looked (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o gcloud não achou esse recurso onde procurou (“{text}”), o que o "
        "guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.api_access": (
        "line {line} says another Google product's API refused the request (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que a API de outro produto do Google recusou o pedido (“{text}”), o "
        "que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.file_permission": (
        "line {line} says the system refused the user a file or a directory (“{text}”), which "
        "the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o sistema negou ao usuário um arquivo ou diretório (“{text}”), o "
        "que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.model_hub": (
        "line {line} says a model hub refused to hand over the model (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que um hub de modelos recusou entregar o modelo (“{text}”), o que o "
        "guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.one_process_collective": (
        "line {line} calls, in a block only the first process runs, what every process must call "
        "together (“{text}”), which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} chama, num bloco que só o primeiro processo roda, o que todos os "
        "processos precisam chamar juntos (“{text}”), o que o guia de solução de problemas por "
        "trás do tpu-assist não cobre",
    ),
    "note.outside.scheduling": (
        "line {line} says Kubernetes found no node for the pod (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o Kubernetes não achou nó para o pod (“{text}”), o que o guia de "
        "solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.context_length": (
        "line {line} says the request is longer than the context the model or its server was "
        "configured for (“{text}”), which the troubleshooting guide behind tpu-assist does not "
        "cover",
        "a linha {line} diz que o pedido é mais longo que o contexto configurado para o modelo ou "
        "o servidor (“{text}”), o que o guia de solução de problemas por trás do tpu-assist não "
        "cobre",
    ),
    "note.outside.tpu_unused": (
        "line {line} says the job ran on the CPU and never used the TPU (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o job rodou na CPU e nunca usou a TPU (“{text}”), o que o guia de "
        "solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.autograd": (
        "line {line} says automatic differentiation refused the model's own graph (“{text}”), "
        "which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que a diferenciação automática recusou o grafo do próprio modelo "
        "(“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.model_input": (
        "line {line} says the data does not fit the input the model was built for (“{text}”), "
        "which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que os dados não cabem na entrada para a qual o modelo foi construído "
        "(“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.shape_mismatch": (
        "line {line} says two arrays of known sizes do not fit each other (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que dois arrays de tamanhos conhecidos não se encaixam (“{text}”), o "
        "que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.python_error": (
        "line {line} is a plain Python error of the code or its data (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} é um erro comum de Python do código ou dos seus dados (“{text}”), o "
        "que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.tracer_leak": (
        "line {line} says a JAX tracer escaped the transformation that made it (“{text}”), which "
        "the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que um tracer do JAX escapou da transformação que o criou (“{text}”), "
        "o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.traced_condition": (
        "line {line} says Python's control flow met a value JAX traces under jit (“{text}”), "
        "which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o controle de fluxo do Python encontrou um valor que o JAX "
        "rastreia sob o jit (“{text}”), o que o guia de solução de problemas por trás do "
        "tpu-assist não cobre",
    ),
    "note.outside.certificate": (
        "line {line} says the machine could not verify a server's TLS certificate (“{text}”), a "
        "network problem the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que a máquina não conseguiu verificar o certificado TLS de um "
        "servidor (“{text}”), um problema de rede que o guia de solução de problemas por trás do "
        "tpu-assist não cobre",
    ),
    "note.outside.spawn_guard": (
        "line {line} says Python started a new process before the main module finished loading "
        "(“{text}”), which the troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o Python iniciou um processo novo antes de o módulo principal "
        "terminar de carregar (“{text}”), o que o guia de solução de problemas por trás do "
        "tpu-assist não cobre",
    ),
    "note.outside.sharding": (
        "line {line} says JAX cannot shard an array as the code asks (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que o JAX não consegue fragmentar um array como o código pede "
        "(“{text}”), o que o guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.index_range": (
        "line {line} says an index is outside the table it reads (“{text}”), which the "
        "troubleshooting guide behind tpu-assist does not cover",
        "a linha {line} diz que um índice está fora da tabela que ele lê (“{text}”), o que o guia "
        "de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.loss_labels": (
        "line {line} says the labels do not fit the loss (“{text}”), which the troubleshooting "
        "guide behind tpu-assist does not cover",
        "a linha {line} diz que os rótulos não combinam com a função de perda (“{text}”), o que o "
        "guia de solução de problemas por trás do tpu-assist não cobre",
    ),
    "note.outside.numerics": (
        "line {line} reads like a numerical problem (“{text}”), which the troubleshooting guide "
        "behind tpu-assist does not cover",
        "a linha {line} parece um problema numérico (“{text}”), que o guia de solução de problemas "
        "por trás do tpu-assist não cobre",
    ),
    "note.off_topic": (
        "the input is short and close in meaning to no entry: the few words it shares with them "
        "are not what it asks about",
        "a entrada é curta e não se parece em sentido com nenhuma entrada: as poucas palavras que "
        "tem em comum com elas não são o que ela pergunta",
    ),
    "note.lookalike_error": (
        "the report's error is a known look-alike of an entry's error message (a pattern that "
        "entry lists as another problem), and no other entry's error message is in it",
        "o erro do relato é um caso parecido conhecido da mensagem de erro de uma entrada (um "
        "padrão que essa entrada aponta como outro problema), e nenhuma outra mensagem de erro "
        "de entrada aparece nele",
    ),
    "note.signatures_only": (
        "answered from error signatures alone (the embedding model was not needed)",
        "respondido só pelas assinaturas de erro (o modelo de embeddings não foi necessário)",
    ),
    # -- tpu-assist check (issue 14): finding messages, rule summaries and rationales, the
    # findings turn of the TUI. `check.<CODE>` is formatted with the finding's args.
    "check.TPU001": ("file does not parse: {error}", "o arquivo não é Python válido: {error}"),
    "check.TPU001.summary": ("a file that does not parse", "um arquivo que não é Python válido"),
    "check.TPU001.why": (
        "Nothing else can be checked in a file Python cannot parse.",
        "Nada mais pode ser verificado num arquivo que o Python não consegue ler.",
    ),
    "check.TPU002": ("file cannot be read: {error}", "não foi possível ler o arquivo: {error}"),
    "check.TPU002.summary": ("a file that cannot be read", "um arquivo que não pode ser lido"),
    "check.TPU002.why": (
        "The file could not be opened or read.",
        "Não foi possível abrir ou ler o arquivo.",
    ),
    "check.TPU801": (
        "`{call}` runs when the module is imported: each worker it starts imports this file again "
        'and tries to launch its own; put it under `if __name__ == "__main__":` (in a notebook, '
        "pass `start_method='fork'`)",
        "`{call}` roda quando o módulo é importado: cada worker que ele inicia importa este "
        'arquivo de novo e tenta lançar os seus; coloque sob `if __name__ == "__main__":` (num '
        "notebook, passe `start_method='fork'`)",
    ),
    "check.TPU801.summary": (
        "`xmp.spawn` / `torch_xla.launch` run at import time, with no "
        '`if __name__ == "__main__":` guard',
        "`xmp.spawn` / `torch_xla.launch` rodando na importação, sem a guarda "
        '`if __name__ == "__main__":`',
    ),
    "check.TPU801.why": (
        "Spawned workers import the main module again; unguarded, each one launches anew and "
        'Python stops with "An attempt has been made to start a new process before the current '
        'process has finished its bootstrapping phase".',
        "Os workers criados importam o módulo principal de novo; sem a guarda, cada um lança de "
        'novo e o Python para com "An attempt has been made to start a new process before the '
        'current process has finished its bootstrapping phase".',
    ),
    "check.TPU802": (
        "`{call}` waits for every process, but only those where `{cond}` holds reach it: the "
        "others never do, and the run hangs with no error; call it on every process "
        "(`xm.save` and Orbax already write from one process)",
        "`{call}` espera por todos os processos, mas só chegam a ele aqueles em que `{cond}` "
        "vale: os outros nunca chegam, e a execução trava sem erro; chame-o em todos os "
        "processos (`xm.save` e o Orbax já gravam de um processo só)",
    ),
    "check.TPU802.summary": (
        "a collective (`xm.save`, `xm.rendezvous`, `dist.barrier`, an Orbax `save`…) under a "
        "condition only some processes meet (`if xm.is_master_ordinal():`, `rank == 0`…)",
        "uma operação coletiva (`xm.save`, `xm.rendezvous`, `dist.barrier`, um `save` do "
        "Orbax…) sob uma condição que só alguns processos cumprem (`if xm.is_master_ordinal():`,"
        " `rank == 0`…)",
    ),
    "check.TPU802.why": (
        "A collective returns only when every process has called it; the processes that skip it "
        "go on to the next one, and the run deadlocks with no error message.",
        "Uma operação coletiva só retorna quando todos os processos a chamaram; os que a pulam "
        "seguem para a próxima, e a execução fica travada sem mensagem de erro.",
    ),
    "check.remapped": (
        "{old} has moved to {new}; read as {new}",
        "{old} mudou para {new}; lido como {new}",
    ),
    "check.TPU101": (
        "`.{call}()` without `drop_remainder=True` under a TPU strategy: the last, smaller batch "
        "has another shape",
        "`.{call}()` sem `drop_remainder=True` com estratégia de TPU: o último lote, menor, tem "
        "outro formato",
    ),
    "check.TPU101.summary": (
        "`.batch()` / `.padded_batch()` without `drop_remainder=True` in a script with a TPU "
        "strategy",
        "`.batch()` / `.padded_batch()` sem `drop_remainder=True` num script com estratégia de TPU",
    ),
    "check.TPU101.why": (
        "XLA compiles for fixed shapes; a partial last batch has an unknown batch dimension.",
        "O XLA compila para formatos fixos; um último lote parcial tem dimensão de lote "
        "desconhecida.",
    ),
    "check.TPU102": (
        "`{fn}` without `size=` inside a jit-compiled function: its output shape depends on the "
        "data",
        "`{fn}` sem `size=` dentro de uma função compilada com jit: o formato da saída depende "
        "dos dados",
    ),
    "check.TPU102.summary": (
        "`jnp.nonzero` / `argwhere` / `unique` / one-argument `jnp.where` without `size=` inside "
        "`jit`",
        "`jnp.nonzero` / `argwhere` / `unique` / `jnp.where` de um argumento sem `size=` dentro "
        "de `jit`",
    ),
    "check.TPU102.why": (
        "Inside jit every shape must be known at trace time; `size=` fixes it.",
        "Dentro do jit todo formato precisa ser conhecido no rastreamento; `size=` o fixa.",
    ),
    "check.TPU103": (
        "boolean mask indexing inside a jit-compiled function: the result's shape depends on the "
        "data (use `jnp.where`)",
        "indexação por máscara booleana dentro de uma função compilada com jit: o formato do "
        "resultado depende dos dados (use `jnp.where`)",
    ),
    "check.TPU103.summary": (
        "boolean mask indexing (`x[x > 0]`) inside `jit`",
        "indexação por máscara booleana (`x[x > 0]`) dentro de `jit`",
    ),
    "check.TPU103.why": (
        "A boolean gather returns as many elements as the mask holds: a data-dependent shape.",
        "Uma seleção booleana devolve tantos elementos quanto a máscara marca: formato que "
        "depende dos dados.",
    ),
    "check.TPU106": (
        "`{fn}()` in the PyTorch/XLA training loop: its output shape depends on the data, so XLA "
        "recompiles",
        "`{fn}()` no laço de treino do PyTorch/XLA: o formato da saída depende dos dados e o "
        "XLA recompila",
    ),
    "check.TPU106.summary": (
        "`.nonzero()` / `torch.argwhere` / `masked_select` / one-argument `torch.where` inside "
        "a PyTorch/XLA training loop",
        "`.nonzero()` / `torch.argwhere` / `masked_select` / `torch.where` de um argumento "
        "dentro de um laço de treino do PyTorch/XLA",
    ),
    "check.TPU106.why": (
        "A data-dependent shape gives a new graph to compile whenever it changes.",
        "Um formato que depende dos dados gera um novo grafo a compilar sempre que muda.",
    ),
    "check.TPU107": (
        "`padding={padding}` pads each batch to its own longest sequence: every new length is a "
        "new shape for XLA to compile; pad to a fixed `max_length` (or set `pad_to_multiple_of`)",
        "`padding={padding}` preenche cada lote até a sua maior sequência: cada comprimento novo "
        "é um formato novo para o XLA compilar; preencha até um `max_length` fixo (ou defina "
        "`pad_to_multiple_of`)",
    ),
    "check.TPU107.summary": (
        "a tokenizer or collator padding to the longest sequence of each batch (`padding=True`, "
        '`"longest"`, `DataCollatorWithPadding`) in a TPU script',
        "um tokenizador ou collator que preenche até a maior sequência de cada lote "
        '(`padding=True`, `"longest"`, `DataCollatorWithPadding`) num script de TPU',
    ),
    "check.TPU107.why": (
        "Each batch gets the length of its longest example, so the shapes change from step to "
        "step and XLA compiles again.",
        "Cada lote fica com o comprimento do seu maior exemplo, então os formatos mudam de um "
        "passo para outro e o XLA compila de novo.",
    ),
    "check.TPU108": (
        "this `DataLoader` feeds the PyTorch/XLA training loop without `drop_last=True`: the "
        "short last batch is one more shape, compiled again every epoch",
        "este `DataLoader` alimenta o laço de treino do PyTorch/XLA sem `drop_last=True`: o "
        "último lote, menor, é mais um formato, compilado de novo a cada época",
    ),
    "check.TPU108.summary": (
        "the `DataLoader` of a PyTorch/XLA training loop without `drop_last=True`",
        "o `DataLoader` de um laço de treino do PyTorch/XLA sem `drop_last=True`",
    ),
    "check.TPU108.why": (
        "A last batch smaller than the others has another shape, and XLA compiles a graph per "
        "shape.",
        "Um último lote menor que os outros tem outro formato, e o XLA compila um grafo por "
        "formato.",
    ),
    "check.TPU109": (
        "this PyTorch/XLA training loop never cuts the graph (no `xm.mark_step()`, "
        "`torch_xla.sync()` or `MpDeviceLoader`): one graph grows with every step, is compiled "
        "again each step, and its memory climbs until it runs out",
        "este laço de treino do PyTorch/XLA nunca corta o grafo (sem `xm.mark_step()`, "
        "`torch_xla.sync()` nem `MpDeviceLoader`): um grafo só cresce a cada passo, é compilado "
        "de novo a cada passo, e a memória sobe até acabar",
    ),
    "check.TPU109.summary": (
        "a PyTorch/XLA training loop with no `xm.mark_step()` / `torch_xla.sync()` and no "
        "`MpDeviceLoader`",
        "um laço de treino do PyTorch/XLA sem `xm.mark_step()` / `torch_xla.sync()` e sem "
        "`MpDeviceLoader`",
    ),
    "check.TPU109.why": (
        "PyTorch/XLA records operations and runs them only where the graph is cut; a loop that "
        "never cuts it builds one graph across all its steps.",
        "O PyTorch/XLA registra as operações e só as executa onde o grafo é cortado; um laço que "
        "nunca o corta monta um grafo só com todos os passos.",
    ),
    "check.TPU201": (
        "batch size {n} ({where}) is below 64: the TPU pads it to 64 (8 per core) anyway",
        "tamanho de lote {n} ({where}) abaixo de 64: a TPU o preenche até 64 (8 por núcleo) "
        "de qualquer modo",
    ),
    "check.TPU201.summary": (
        "a literal global batch below 64",
        "um lote global literal abaixo de 64",
    ),
    "check.TPU201.why": (
        "A smaller batch takes about the time of 64 and trains fewer samples per second.",
        "Um lote menor leva quase o tempo de 64 e treina menos amostras por segundo.",
    ),
    "check.TPU202": (
        "global batch size {n} ({where}) is not a multiple of 64 (8 per core): the TPU pads "
        "every step",
        "lote global {n} ({where}) não é múltiplo de 64 (8 por núcleo): a TPU preenche cada passo",
    ),
    "check.TPU202.summary": (
        "a literal global batch that is not a multiple of 64",
        "um lote global literal que não é múltiplo de 64",
    ),
    "check.TPU202.why": (
        "The batch dimension is padded to a multiple of 8 per core: memory and time for nothing.",
        "A dimensão do lote é preenchida até múltiplo de 8 por núcleo: memória e tempo à toa.",
    ),
    "check.TPU203": (
        "per-core batch size {n} ({where}) is not a multiple of 8: the TPU pads it",
        "lote por núcleo {n} ({where}) não é múltiplo de 8: a TPU o preenche",
    ),
    "check.TPU203.summary": (
        "a literal per-core batch that is not a multiple of 8",
        "um lote por núcleo literal que não é múltiplo de 8",
    ),
    "check.TPU203.why": (
        "Each core pads its slice of the batch to a multiple of 8.",
        "Cada núcleo preenche a sua parte do lote até um múltiplo de 8.",
    ),
    "check.TPU301": (
        "`{layer}` width {n} is not a multiple of 128: the TPU pads it to the next multiple",
        "largura {n} de `{layer}` não é múltiplo de 128: a TPU a preenche até o próximo múltiplo",
    ),
    "check.TPU301.summary": (
        "a hidden `Dense` / `Conv` / `nn.Linear` width that is not a multiple of 128 (the data's "
        "input width, the task's output width and a convolution stem's filters excepted)",
        "uma largura oculta de `Dense` / `Conv` / `nn.Linear` que não é múltiplo de 128 (exceto "
        "a largura de entrada dos dados, a de saída da tarefa e os filtros da convolução inicial)",
    ),
    "check.TPU301.why": (
        "Feature dimensions are laid out in 128-wide tiles; the rest of the tile is padding.",
        "As dimensões de atributos são dispostas em blocos de 128; o resto do bloco é "
        "preenchimento.",
    ),
    "check.TPU302": (
        "`{layer}` width {n} is below 128: most of the TPU's 128-wide matrix unit stays idle",
        "largura {n} de `{layer}` abaixo de 128: a maior parte da unidade de matrizes de 128 da "
        "TPU fica ociosa",
    ),
    "check.TPU302.summary": (
        "a hidden layer narrower than 128 (the same exceptions; `Dense(100)` as a model's first "
        "layer is hidden)",
        "uma camada oculta mais estreita que 128 (as mesmas exceções; `Dense(100)` como primeira "
        "camada do modelo é oculta)",
    ),
    "check.TPU302.why": (
        "The MXU is a 128 × 128 array; narrower layers fill only part of it.",
        "A MXU é uma matriz de 128 × 128; camadas mais estreitas ocupam só parte dela.",
    ),
    "check.TPU401": (
        "`compile()` under a TPU strategy runs {steps} step per host round trip: set "
        "`steps_per_execution`",
        "`compile()` com estratégia de TPU roda {steps} passo por ida e volta ao host: defina "
        "`steps_per_execution`",
    ),
    "check.TPU401.summary": (
        "Keras `compile()` under a TPU strategy without `steps_per_execution` (or with 1)",
        "`compile()` do Keras com estratégia de TPU sem `steps_per_execution` (ou com 1)",
    ),
    "check.TPU401.why": (
        "Each step returns to the host; the TPU idles between small steps.",
        "Cada passo volta ao host; a TPU fica ociosa entre passos curtos.",
    ),
    "check.TPU402": (
        "`{read}` reads the jitted step's result back to the host on every step: the host waits "
        "for each step before it dispatches the next; read back every N steps",
        "`{read}` traz o resultado do passo compilado de volta ao host a cada passo: o host "
        "espera cada passo antes de despachar o próximo; leia a cada N passos",
    ),
    "check.TPU402.summary": (
        "a JAX training loop that reads its jitted step's result back to the host every step "
        "(`float()`, `.item()`, `jax.device_get`, `np.asarray`, `print`)",
        "um laço de treino do JAX que traz o resultado do passo compilado de volta ao host a "
        "cada passo (`float()`, `.item()`, `jax.device_get`, `np.asarray`, `print`)",
    ),
    "check.TPU402.why": (
        "JAX dispatches steps without waiting for them; a read-back makes the host wait for "
        "every step, so the next step's dispatch and input no longer overlap the device's work.",
        "O JAX despacha os passos sem esperar por eles; uma leitura faz o host esperar cada "
        "passo, e o despacho e a entrada do passo seguinte deixam de se sobrepor ao trabalho do "
        "dispositivo.",
    ),
    "check.TPU403": (
        "`.item()` in the PyTorch/XLA training loop: each call runs the step and waits for the "
        "TPU to copy a value to the host",
        "`.item()` no laço de treino do PyTorch/XLA: cada chamada roda o passo e espera a TPU "
        "copiar um valor para o host",
    ),
    "check.TPU403.summary": (
        "`.item()` inside a PyTorch/XLA training loop",
        "`.item()` dentro de um laço de treino do PyTorch/XLA",
    ),
    "check.TPU403.why": (
        "Reading a value runs the lazy XLA graph mid-step and makes the host wait, so the TPU "
        "idles while the next step is traced; log with `xm.add_step_closure` instead.",
        "Ler um valor roda o grafo XLA preguiçoso no meio do passo e faz o host esperar, e a TPU "
        "fica ociosa enquanto o próximo passo é traçado; registre com `xm.add_step_closure`.",
    ),
    "check.TPU404": (
        "`print({name})` in the PyTorch/XLA training loop: printing a tensor runs the step and "
        "copies it to the host",
        "`print({name})` no laço de treino do PyTorch/XLA: imprimir um tensor roda o passo e o "
        "copia para o host",
    ),
    "check.TPU404.summary": (
        "`print(tensor)` inside a PyTorch/XLA training loop",
        "`print(tensor)` dentro de um laço de treino do PyTorch/XLA",
    ),
    "check.TPU404.why": (
        "Printing a tensor materializes it on the host every step, and the TPU waits for the "
        "host in between.",
        "Imprimir um tensor o materializa no host a cada passo, e a TPU espera pelo host entre "
        "um passo e outro.",
    ),
    "check.TPU501": (
        "`{fn}` in code the TPU runs: a Python callback has no TPU kernel (move it into the "
        "tf.data pipeline)",
        "`{fn}` em código que a TPU executa: uma chamada Python não tem kernel de TPU (mova-a "
        "para o pipeline tf.data)",
    ),
    "check.TPU501.summary": (
        "`tf.py_function` / `tf.numpy_function` in code run on the TPU (`strategy.run`, "
        "`train_step`, layer `call`)",
        "`tf.py_function` / `tf.numpy_function` em código executado na TPU (`strategy.run`, "
        "`train_step`, `call` de camada)",
    ),
    "check.TPU501.why": (
        "The op runs Python on the host; XLA cannot compile it for the TPU.",
        "A op roda Python no host; o XLA não consegue compilá-la para a TPU.",
    ),
    "check.TPU502": (
        "`{fn}` in code the TPU runs: string ops have no TPU kernel (move it into the tf.data "
        "pipeline)",
        "`{fn}` em código que a TPU executa: ops de texto não têm kernel de TPU (mova-a para o "
        "pipeline tf.data)",
    ),
    "check.TPU502.summary": (
        "`tf.strings.*`, decoding and parsing ops in code run on the TPU",
        "`tf.strings.*`, ops de decodificação e de parsing em código executado na TPU",
    ),
    "check.TPU502.why": (
        "The TPU has no string type; such ops belong in the input pipeline on the CPU.",
        "A TPU não tem tipo texto; essas ops pertencem ao pipeline de entrada, na CPU.",
    ),
    "check.TPU601": (
        "tf.data pipeline without `.prefetch()`: the TPU waits while the next batch is prepared",
        "pipeline tf.data sem `.prefetch()`: a TPU espera enquanto o próximo lote é preparado",
    ),
    "check.TPU601.summary": (
        "a `tf.data` pipeline that never calls `.prefetch()`",
        "um pipeline `tf.data` que nunca chama `.prefetch()`",
    ),
    "check.TPU601.why": (
        "Without prefetch the input work and the training step take turns instead of overlapping.",
        "Sem prefetch, a entrada e o passo de treino se alternam em vez de se sobrepor.",
    ),
    "check.TPU602": (
        "`.map()` without `num_parallel_calls`: preprocessing runs on one CPU thread",
        "`.map()` sem `num_parallel_calls`: o pré-processamento roda numa só thread da CPU",
    ),
    "check.TPU602.summary": (
        "`tf.data` `.map()` without `num_parallel_calls`",
        "`.map()` do `tf.data` sem `num_parallel_calls`",
    ),
    "check.TPU602.why": (
        "A sequential map rarely keeps up with a TPU; use `tf.data.AUTOTUNE`.",
        "Um map sequencial raramente acompanha uma TPU; use `tf.data.AUTOTUNE`.",
    ),
    "check.TPU603": (
        "`{fn}` reads many small files and the script reads no TFRecord: the TPU waits on file "
        "reads",
        "`{fn}` lê muitos arquivos pequenos e o script não lê TFRecord: a TPU espera as leituras",
    ),
    "check.TPU603.summary": (
        "many small files read one by one (`list_files`, `read_file`, `*_dataset_from_directory`) "
        "in a TPU script with no `TFRecordDataset`",
        "muitos arquivos pequenos lidos um a um (`list_files`, `read_file`, "
        "`*_dataset_from_directory`) num script de TPU sem `TFRecordDataset`",
    ),
    "check.TPU603.why": (
        "Opening a file per example from Cloud Storage is slow; TFRecord shards stream.",
        "Abrir um arquivo por exemplo no Cloud Storage é lento; shards TFRecord são lidos em "
        "fluxo.",
    ),
    "check.TPU604": (
        "the PyTorch/XLA training loop iterates a plain `DataLoader`: each batch is copied to the "
        "TPU inside the step; wrap it in `MpDeviceLoader` to copy ahead",
        "o laço de treino do PyTorch/XLA percorre um `DataLoader` simples: cada lote é copiado "
        "para a TPU dentro do passo; envolva-o num `MpDeviceLoader` para copiar adiantado",
    ),
    "check.TPU604.summary": (
        "a PyTorch/XLA training loop over a `DataLoader` not wrapped in `MpDeviceLoader` / "
        "`ParallelLoader`",
        "um laço de treino do PyTorch/XLA sobre um `DataLoader` sem `MpDeviceLoader` / "
        "`ParallelLoader`",
    ),
    "check.TPU604.why": (
        "The device loader uploads the next batches while the TPU runs the current step.",
        "O carregador do dispositivo envia os próximos lotes enquanto a TPU roda o passo atual.",
    ),
    "check.TPU701": (
        "batch normalization with {per_core} samples per core (below 32): its statistics are "
        "too noisy",
        "normalização de lote com {per_core} amostras por núcleo (abaixo de 32): as estatísticas "
        "ficam ruidosas demais",
    ),
    "check.TPU701.summary": (
        "batch norm with a per-core batch below 32",
        "batch norm com lote por núcleo abaixo de 32",
    ),
    "check.TPU701.why": (
        "Batch norm averages over one core's slice of the batch, not the global batch.",
        "A batch norm calcula a média sobre a parte do lote de um núcleo, não sobre o lote global.",
    ),
    "check.TPU702": (
        "loss reduced with SUM in a custom training loop without `tf.nn.compute_average_loss`: "
        "it scales with the number of replicas",
        "perda reduzida com SUM num laço de treino próprio sem `tf.nn.compute_average_loss`: "
        "ela cresce com o número de réplicas",
    ),
    "check.TPU702.summary": (
        "a loss with `reduction=SUM` in a `strategy.run` loop that never averages it over the "
        "global batch",
        "uma perda com `reduction=SUM` num laço com `strategy.run` que nunca faz a média sobre "
        "o lote global",
    ),
    "check.TPU702.why": (
        "Gradients are summed over replicas; the loss must be divided by the global batch.",
        "Os gradientes são somados entre réplicas; a perda deve ser dividida pelo lote global.",
    ),
    "check.TPU703": (
        "`{optimizer}` is built over `{model}.parameters()` before `{model}` moves to the XLA "
        "device (line {move_line}): the move replaces the parameters, so the optimizer updates "
        "the old CPU copies and the model never learns",
        "`{optimizer}` é criado sobre `{model}.parameters()` antes de `{model}` ir para o "
        "dispositivo XLA (linha {move_line}): a mudança substitui os parâmetros, então o "
        "otimizador atualiza as cópias antigas na CPU e o modelo nunca aprende",
    ),
    "check.TPU703.summary": (
        "a PyTorch/XLA optimizer built over a model's parameters before the model is moved to "
        "the XLA device",
        "um otimizador do PyTorch/XLA criado sobre os parâmetros de um modelo antes de o modelo "
        "ir para o dispositivo XLA",
    ),
    "check.TPU703.why": (
        "On an XLA device `.to()` makes new parameter tensors; an optimizer built before keeps "
        "the old ones.",
        "Num dispositivo XLA o `.to()` cria novos tensores de parâmetro; um otimizador criado "
        "antes fica com os antigos.",
    ),
    "check.TPU704": (
        "`{optimizer}.step()` runs in every process the launcher starts, and nothing averages "
        "their gradients: each process trains its own copy of the model on its share of the "
        "data; use `xm.optimizer_step({optimizer})`",
        "`{optimizer}.step()` roda em cada processo que o lançador inicia, e nada tira a média "
        "dos gradientes deles: cada processo treina a sua cópia do modelo com a sua parte dos "
        "dados; use `xm.optimizer_step({optimizer})`",
    ),
    "check.TPU704.summary": (
        "`optimizer.step()` in code `xmp.spawn` / `torch_xla.launch` runs once per device, with "
        "no `xm.optimizer_step`, gradient all-reduce, DDP, FSDP or SPMD",
        "`optimizer.step()` em código que o `xmp.spawn` / `torch_xla.launch` roda uma vez por "
        "dispositivo, sem `xm.optimizer_step`, all-reduce dos gradientes, DDP, FSDP ou SPMD",
    ),
    "check.TPU704.why": (
        "`xm.optimizer_step` all-reduces the gradients before stepping; `optimizer.step()` alone "
        "does not.",
        "O `xm.optimizer_step` faz o all-reduce dos gradientes antes do passo; o "
        "`optimizer.step()` sozinho não.",
    ),
    "check.TPU110": (
        "`jax.jit({fn} …)` called inside a loop: the {fn} is a new function on every pass, so "
        "JAX traces and compiles it again at every step; make the jitted function once, outside "
        "the loop",
        "`jax.jit({fn} …)` chamado dentro de um laço: a {fn} é uma função nova a cada volta, "
        "então o JAX rastreia e compila de novo a cada passo; crie a função com jit uma vez, "
        "fora do laço",
    ),
    "check.TPU110.summary": (
        "`jax.jit` of a lambda or `functools.partial(…)` called inside a loop",
        "`jax.jit` de uma lambda ou de um `functools.partial(…)` chamado dentro de um laço",
    ),
    "check.TPU110.why": (
        "jit caches compiled programs per function object; a function made in the loop is new "
        "every time.",
        "O jit guarda os programas compilados por objeto de função; uma função criada no laço é "
        "nova a cada vez.",
    ),
    "check.summary.found": (
        "Found {n} problem(s) in {files} file(s).",
        "{n} problema(s) encontrado(s) em {files} arquivo(s).",
    ),
    "check.summary.clean": (
        "All checks passed ({files} file(s)).",
        "Todas as verificações passaram ({files} arquivo(s)).",
    ),
    "check.turn.title": (
        "Checked your code: {n} finding(s)",
        "Seu código verificado: {n} achado(s)",
    ),
    "check.turn.output": (
        "Findings from `tpu-assist check`: {n}",
        "Achados do `tpu-assist check`: {n}",
    ),
    "check.turn.clean": (
        "Checked your code: none of the guide's problems found",
        "Seu código verificado: nenhum dos problemas do guia encontrado",
    ),
    "check.turn.checking": ("checking your code…", "verificando seu código…"),
    "check.turn.hint": (
        "Enter (or a click) opens a finding's guided fix with its values filled in",
        "Enter (ou um clique) abre a correção guiada do achado com os valores preenchidos",
    ),
    "check.turn.no_entry": (
        "this finding has no guided fix",
        "este achado não tem correção guiada",
    ),
    # -- end of tpu-assist check
    # why an entry was ranked (explain.py)
    # the profile figures behind a routing rule (retrieval/profile_rules.py, `describe`)
    "profile.input_wait": ("waiting for input {value}%", "esperando entrada {value}%"),
    "profile.data_wait": (
        "the loop's timers: waiting for the batch {value}% of the step",
        "cronômetros do loop: esperando o lote {value}% do passo",
    ),
    "profile.tpu_idle": ("TPU idle {value}%", "TPU ociosa {value}%"),
    "profile.mxu_utilization": ("MXU utilization {value}%", "utilização da MXU {value}%"),
    "profile.flops_utilization": ("FLOPS utilization {value}%", "utilização de FLOPS {value}%"),
    "profile.mfu": ("MFU {value}%", "MFU {value}%"),
    "profile.per_core_batch": ("per-core batch {value}", "lote por núcleo {value}"),
    "profile.sequence_length": ("sequence length {value}", "comprimento de sequência {value}"),
    "profile.widest_layer": ("widest layer {value}", "camada mais larga {value}"),
    "profile.previous_width": (
        "model dimension changed from {value}",
        "dimensão do modelo mudada de {value}",
    ),
    "profile.model_width": (
        "model dimension (d_model) {value}",
        "dimensão do modelo (d_model) {value}",
    ),
    "profile.padding_expansion": (
        "a buffer {value}x its unpadded size",
        "um buffer {value}x o tamanho sem preenchimento",
    ),
    "profile.idle_gaps": (
        "the TPU idle in gaps between steps",
        "a TPU parada nos intervalos entre os passos",
    ),
    "profile.host_feeding": (
        "the host busy producing the input",
        "o host ocupado em produzir a entrada",
    ),
    "profile.input_ready": (
        "the input said to be ready before the steps",
        "a entrada dita pronta antes dos passos",
    ),
    "profile.batch_norm": (
        "batch norm over each core's batch, and the accuracy it reaches",
        "batch norm sobre o lote de cada núcleo, e a acurácia que atinge",
    ),
    "profile.memory_bound": (
        "memory named as the limit (out of memory, does not fit)",
        "memória apontada como o limite (falta memória, não cabe)",
    ),
    "profile.memory_used": (
        "device memory {value}% in use",
        "memória do dispositivo {value}% em uso",
    ),
    "profile.padding_named": (
        "padding named beside the narrow layers",
        "preenchimento citado junto das camadas estreitas",
    ),
    "profile.synthetic_faster": (
        "faster on synthetic data than on the real input",
        "mais rápido com dados sintéticos do que com os reais",
    ),
    "profile.jit_recompiles": (
        "one jitted function compiled {value} times",
        "uma função jit compilada {value} vezes",
    ),
    "profile.jit_same_shapes": (
        "compiled again for the same input shapes",
        "compilada de novo para os mesmos formatos de entrada",
    ),
    "profile.jit_new_shapes": (
        "compiled for new input shapes",
        "compilada para formatos de entrada novos",
    ),
    "profile.reads_for": (
        "{scalar_reads} values read back to Python for {execute_count} graph executions",
        "{scalar_reads} valores lidos de volta no Python para {execute_count} execuções de grafo",
    ),
    "profile.steps_per_execution": (
        "steps per call to the TPU (steps_per_execution): {value}",
        "passos por chamada à TPU (steps_per_execution): {value}",
    ),
    "profile.compiles": ("{compile_count} XLA compilations", "{compile_count} compilações do XLA"),
    "profile.compiles_for": (
        "{compile_count} XLA compilations for {execute_count} executions",
        "{compile_count} compilações do XLA para {execute_count} execuções",
    ),
    "why.profile": (
        "profile figures (line {line}): {text}",
        "números do perfil (linha {line}): {text}",
    ),
    "why.signature": (
        "signature '{id}' matched line {line}: {text}",
        "assinatura '{id}' na linha {line}: {text}",
    ),
    "why.signature_span": (
        "signature '{id}' matched lines {first}–{last}: {text}",
        "assinatura '{id}' nas linhas {first}–{last}: {text}",
    ),
    "why.exclude": (
        "but line {line} points elsewhere: {text}",
        "mas a linha {line} indica outro problema: {text}",
    ),
    "why.profile_against": (
        "but the profile figures (line {line}) speak against it: {text}",
        "mas os números do perfil (linha {line}) falam contra: {text}",
    ),
    "why.lookalike": (
        'but it reads even more like a known look-alike: "{text}" (similarity {cos:.2f})',
        'mas lembra ainda mais um caso parecido que é outro problema: "{text}" '
        "(similaridade {cos:.2f})",
    ),
    "why.lines": (" (lines {lines})", " (linhas {lines})"),
    "why.words": ("shared words: {words}{where}", "palavras em comum: {words}{where}"),
    "why.related": (
        "a neighbour of the answer ({title}) in the knowledge base",
        "vizinho da resposta ({title}) na base de conhecimento",
    ),
    "why.similar": (
        'similar to "{text}" (similarity {cos:.2f})',
        'semelhante a "{text}" (similaridade {cos:.2f})',
    ),
    "why.context.device": (
        "context: the input is about another device ({what}) and shows no TPU — confidence lowered",
        "contexto: a entrada fala de outro dispositivo ({what}) e de nenhuma TPU — "
        "confiança reduzida",
    ),
    "why.context.subject": (
        "context: the title is about another device ({what}) and names no TPU — confidence lowered",
        "contexto: o título fala de outro dispositivo ({what}) e de nenhuma TPU — confiança "
        "reduzida",
    ),
    "why.context.service": (
        "context: the input is about another service or a plain VM ({what}) and shows no TPU — "
        "confidence lowered",
        "contexto: a entrada fala de outro serviço ou de uma VM comum ({what}) e de nenhuma "
        "TPU — confiança reduzida",
    ),
    "why.context.stack": (
        "context: the input names {what} but no TPU; an XLA-first stack counts as half the "
        "evidence of a TPU",
        "contexto: a entrada cita {what} mas nenhuma TPU; uma pilha feita para o XLA conta como "
        "metade da evidência de uma TPU",
    ),
    "why.context.tpu": (
        "context: TPU evidence ({what}) keeps the TPU entries in play",
        "contexto: há evidência de TPU ({what}), então as entradas de TPU continuam valendo",
    ),
    # the fix as a shell script (render.fix_script)
    "script.not_run": (
        "Nothing here was run by tpu-assist: read each step, then run it yourself.",
        "O tpu-assist não executou nada daqui: leia cada passo e execute você mesmo.",
    ),
    "script.missing": (
        "Still to fill in (left as {{name}} below): {names}",
        "Ainda a preencher (ficaram como {{nome}} abaixo): {names}",
    ),
    "script.risk": ("risk: {risk}", "risco: {risk}"),
    "script.code": (
        "code change ({file}) — edit your code as this diff shows:",
        "mudança de código ({file}) — edite o seu código como mostra este diff:",
    ),
    "script.check": ("Check: {check}", "Verificação: {check}"),
    "script.risk.read-only": ("read-only", "somente leitura"),
    "script.risk.changes-state": ("changes state", "altera o estado"),
    "script.risk.destructive": (
        "DESTRUCTIVE — deletes or recreates something",
        "DESTRUTIVO — apaga ou recria algo",
    ),
    # the risk of a command, as the TUI labels it
    "risk.read-only": ("read-only", "somente leitura"),
    "risk.changes-state": ("changes state", "altera o estado"),
    "risk.destructive": ("destructive", "destrutivo"),
    # outcomes of a fix ("did this fix it?"), in history lists and exports
    "outcome.solved": ("solved", "resolvido"),
    "outcome.not_solved": ("not solved", "não resolvido"),
    "outcome.open": ("open", "em aberto"),
    # -- the CLI's plain-text answers and walks (cli/output.py)
    "cli.best": ("Best match", "Melhor correspondência"),
    "cli.conf": ("confidence", "confiança"),
    "cli.why": ("why", "por quê"),
    "cli.others": ("Other candidates", "Outros candidatos"),
    "cli.nearest": ("Nearest entries", "Entradas mais próximas"),
    "cli.hint": (
        "Add the full error line (the exception and its message) or describe what you see, and "
        "ask again.",
        "Inclua a linha completa do erro (a exceção e a mensagem) ou descreva o que acontece, e "
        "pergunte de novo.",
    ),
    "cli.yours": (" (your entry)", " (entrada sua)"),
    "cli.next": ("Guided fix", "Correção guiada"),
    "cli.machine_values": (
        "values from this TPU VM: {values} (TPU_ASSIST_MACHINE=0 leaves them out; --set wins)",
        "valores desta VM de TPU: {values} (TPU_ASSIST_MACHINE=0 os deixa de fora; --set "
        "prevalece)",
    ),
    "cli.ask_script": (
        "{path} is a Python script: searched for the problem its words describe; "
        "tpu-assist check {path} finds the guide's problems in its code",
        "{path} é um script Python: busquei o problema que as palavras dele descrevem; "
        "tpu-assist check {path} encontra os problemas do guia no código",
    ),
    "cli.check": ("Check", "Verificação"),
    "cli.unfilled": ("Fill in", "Preencha"),
    "cli.risk": ("risk", "risco"),
    "cli.answer": ("answer with", "responda com"),
    "cli.cut": ("Note", "Nota"),
    "cli.auto": (
        "answered from a value you gave or your text showed",
        "respondida por um valor informado ou visto no seu texto",
    ),
    # -- a session exported as Markdown (export.py)
    "md.title": ("tpu-assist session", "Sessão do tpu-assist"),
    "md.question": ("Question", "Pergunta"),
    "md.match": ("Match", "Correspondência"),
    "md.confidence": ("confidence", "confiança"),
    "md.why": ("Why", "Por quê"),
    "md.nearest": ("Nearest entries", "Entradas mais próximas"),
    "md.answers": ("Answers", "Respostas"),
    "md.fix": ("Fix", "Correção"),
    "md.check": ("Check", "Verificação"),
    "md.risk": ("risk", "risco"),
    "md.more": ("more lines not shown", "linhas a mais não mostradas"),
    "md.unfilled": ("Still to fill in", "Ainda a preencher"),
    "md.advice": ("Advice", "Recomendações"),
    "md.open": ("Open question", "Pergunta em aberto"),
    "md.values": ("Values", "Valores"),
    "md.outcome": ("Outcome", "Resultado"),
    "md.tried": ("Fixes tried", "Correções tentadas"),
    # -- the interactive assistant (tui/): status bar, conversation, modals, keys
    # status bar
    "file.read": ("Read {path}: {lines} lines", "Lido {path}: {lines} linhas"),
    "file.too_large": (
        "{path} is {mb} MB, more than the {limit} MB the assistant reads: run tpu-assist ask on it "
        "(or check, for a script)",
        "{path} tem {mb} MB, mais que os {limit} MB que o assistente lê: rode tpu-assist ask nele "
        "(ou check, para um script)",
    ),
    "file.unreadable": ("{path} could not be read: {error}", "{path} não pôde ser lido: {error}"),
    "file.empty": ("{path} is empty", "{path} está vazio"),
    "status.loading": ("loading model…", "carregando o modelo…"),
    "status.ready": ("ready", "pronto"),
    "status.searching": ("searching…", "buscando…"),
    "status.waiting": (
        "loading model… your question will be answered when it is ready",
        "carregando o modelo… sua pergunta será respondida assim que ele estiver pronto",
    ),
    "status.failed": ("could not load: {error}", "falha ao carregar: {error}"),
    # welcome
    "welcome.title": (
        "Cloud TPU troubleshooting assistant",
        "Assistente de solução de problemas da Cloud TPU",
    ),
    "welcome.body": (
        "Paste an error, a stack trace or a log — or describe what you see — and press Enter.\n"
        "I find the matching problem, say how sure I am and why, then guide you to a fix with "
        "your own values filled in. Nothing is ever executed.",
        "Cole um erro, um stack trace ou um log — ou descreva o que acontece — e tecle Enter.\n"
        "Eu encontro o problema correspondente, digo o quanto tenho certeza e por quê, e guio "
        "você até a correção com os seus valores preenchidos. Nada é executado.",
    ),
    "welcome.keys": (
        "F1 help · F2 Português · Ctrl+O history · Ctrl+P all commands",
        "F1 ajuda · F2 English · Ctrl+O histórico · Ctrl+P todos os comandos",
    ),
    # prompt
    "prompt.placeholder": (
        "Paste an error or describe the problem… (Enter sends, Ctrl+J new line)",
        "Cole um erro ou descreva o problema… (Enter envia, Ctrl+J nova linha)",
    ),
    "prompt.choice": (
        "Pick an option above — or type an answer or a new question",
        "Escolha uma opção acima — ou digite a resposta ou uma nova pergunta",
    ),
    "prompt.outcome": (
        "Did it work? 1 yes · 2 no — or ask a new question",
        "Funcionou? 1 sim · 2 não — ou faça outra pergunta",
    ),
    "prompt.alternative": (
        "Pick what to try next by its number — or ask a new question",
        "Escolha pelo número o que tentar agora — ou faça outra pergunta",
    ),
    "prompt.number": (
        "Type the number and press Enter — or ask a new question",
        "Digite o número e tecle Enter — ou faça outra pergunta",
    ),
    # user message
    "you": ("You", "Você"),
    "answer.yours": ("your own entry", "entrada sua"),
    "msg.lines": ("{n} lines", "{n} linhas"),
    "msg.key_lines": ("key lines of {n}", "linhas-chave de {n}"),
    "msg.expand": ("▸ show all {n} lines (F8)", "▸ mostrar as {n} linhas (F8)"),
    "msg.collapse": ("▾ show key lines only (F8)", "▾ mostrar só as linhas-chave (F8)"),
    "msg.cut": ("… {n} more lines not shown", "… mais {n} linhas não mostradas"),
    "msg.skipped": ("⋮", "⋮"),
    # answer
    "answer.waiting": (
        "Waiting for the model to finish loading…",
        "Aguardando o modelo terminar de carregar…",
    ),
    "answer.searching": ("Searching…", "Buscando…"),
    "answer.superseded": (
        "Not answered: a newer question was sent before the answer came.",
        "Sem resposta: uma pergunta mais nova foi enviada antes de a resposta chegar.",
    ),
    "answer.best": ("Best match", "Melhor correspondência"),
    "answer.confident": ("{pct} confident", "{pct} de confiança"),
    "answer.why": ("Why", "Por quê"),
    "answer.explanation": ("Explanation", "Explicação"),
    "answer.values": ("Found in your text", "Encontrado no seu texto"),
    "answer.values_short": ("Found", "Encontrado"),
    "answer.values_none": (
        "No names or sizes found in your text.",
        "Nenhum nome ou tamanho encontrado no seu texto.",
    ),
    "answer.edit_values": ("F6 edit values", "F6 editar valores"),
    "answer.others": ("Other candidates", "Outros candidatos"),
    "answer.none": ("No confident match.", "Nenhuma correspondência confiável."),
    "answer.nearest": (
        "Nearest entries (pick one to walk it anyway)",
        "Entradas mais próximas (escolha uma para seguir mesmo assim)",
    ),
    "answer.hint": (
        "Add the full error line (the exception and its message), or describe what you "
        "see in a sentence, and ask again.",
        "Inclua a linha completa do erro (a exceção e a mensagem) ou descreva o que "
        "acontece numa frase, e pergunte de novo.",
    ),
    "answer.hint_device": (
        "It reads as a problem on another device ({what}), with no sign of a TPU; these entries "
        "are about Cloud TPU. If it happened on a TPU, say which one (v4-8, v5e…) and ask again.",
        "Parece um problema em outro dispositivo ({what}), sem sinal de TPU; estas entradas são "
        "sobre Cloud TPU. Se aconteceu numa TPU, diga qual (v4-8, v5e…) e pergunte de novo.",
    ),
    "answer.hint_subject": (
        "Its first line is about another device ({what}) and names no TPU; these entries are "
        "about Cloud TPU. If the problem happens on a TPU, name it there (v4-8, v5e…) and ask "
        "again.",
        "A primeira linha fala de outro dispositivo ({what}) e de nenhuma TPU; estas entradas são "
        "sobre Cloud TPU. Se o problema acontece numa TPU, diga qual ali (v4-8, v5e…) e pergunte "
        "de novo.",
    ),
    "answer.hint_mixed": (
        "It shows signs of a TPU ({tpu}) and names another device ({what}). If the problem is on "
        "the other device, these entries, about Cloud TPU, do not apply; if it is on the TPU, "
        "paste that run's error or profile figures and ask again.",
        "Tem sinais de TPU ({tpu}) e cita outro dispositivo ({what}). Se o problema é no outro "
        "dispositivo, estas entradas, sobre Cloud TPU, não se aplicam; se é na TPU, cole o erro "
        "ou os números do perfil dessa execução e pergunte de novo.",
    ),
    "answer.hint_service": (
        "It reads as a problem with another Google service or a plain VM ({what}), with no sign "
        "of a TPU; these entries are about Cloud TPU. If a TPU is involved, say which one and ask "
        "again.",
        "Parece um problema com outro serviço do Google ou uma VM comum ({what}), sem sinal de "
        "TPU; estas entradas são sobre Cloud TPU. Se há uma TPU envolvida, diga qual e pergunte "
        "de novo.",
    ),
    "answer.note_slow_only": (
        "A slow TPU run has several usual causes — the input pipeline starving the TPU, a batch "
        "too small, layers too narrow, work that is not matrix multiplication, too few steps per "
        "execution, recompiling for new shapes — and “slow” alone does not tell them "
        "apart. Capture a profile and paste its overview figures (step time, TPU idle %, MXU "
        "utilization %, infeed %), or say more: the batch size per core, the model, how the data "
        "is read, whether every step takes long or only some. Or pick the closest cause from the "
        "list and walk it.",
        "Uma execução lenta na TPU tem várias causas comuns — o pipeline de entrada deixando a "
        "TPU esperando, um lote pequeno demais, camadas estreitas demais, trabalho que não é "
        "multiplicação de matrizes, poucos passos por execução, recompilação para novos "
        "formatos — e só “lento” não as distingue. Capture um perfil e cole os números "
        "do overview (tempo de passo, % de ociosidade da TPU, % de utilização da MXU, % de "
        "infeed), ou conte mais: o lote por núcleo, o modelo, como os dados são lidos, se todo "
        "passo demora ou só alguns. Ou escolha na lista a causa mais próxima e siga o roteiro.",
    ),
    "answer.note_resembles": (
        "Your report reads most like a case that “{title}” [{id}] lists as a look-alike, a "
        "problem with another cause: “{text}”. So that entry was not given as the answer, and "
        "nothing else fits well enough. If this is your case, the entry's steps will not fix it: "
        "start from what that sentence names.",
        "O seu relato se parece mais com um caso que “{title}” [{id}] aponta como parecido, um "
        "problema de outra causa: “{text}”. Por isso essa entrada não foi dada como resposta, e "
        "nada mais se encaixa bem o bastante. Se for o seu caso, os passos da entrada não vão "
        "resolvê-lo: comece pelo que essa frase aponta.",
    ),
    "answer.note_set_aside": (
        "Your report reads like “{title}” [{id}], but line {line} matches a pattern that entry "
        "lists as a look-alike, a problem with another cause (“{text}”, {pattern}), so it was "
        "set aside and nothing else fits well enough. Check that line first: the entries above "
        "only share words with the report.",
        "O seu relato parece “{title}” [{id}], mas a linha {line} corresponde a um padrão que "
        "essa entrada aponta como caso parecido, um problema de outra causa (“{text}”, "
        "{pattern}); por isso ela foi deixada de lado e nada mais se encaixa bem o bastante. "
        "Confira essa linha primeiro: as entradas acima só têm palavras em comum com o relato.",
    ),
    "answer.note_lookalike": (
        "The error in your report matches a known look-alike of one entry: a message that "
        "resembles that entry's own error but whose cause lies elsewhere (a vmem overflow beside "
        "an HBM one, a GPU's out-of-memory), and no other entry's error is in it. It is likely a "
        "problem the guide behind tpu-assist does not cover; the entries above only share words "
        "with it.",
        "O erro do seu relato corresponde a um caso parecido conhecido de uma entrada: uma "
        "mensagem que lembra o erro dessa entrada mas cuja causa está em outro lugar (um estouro "
        "de vmem ao lado de um de HBM, falta de memória numa GPU), e nenhum erro de outra entrada "
        "aparece nele. Provavelmente é um problema que o guia por trás do tpu-assist não cobre; "
        "as entradas acima só compartilham palavras com ele.",
    ),
    "answer.note_off_topic": (
        "Your question is close in meaning to none of the problems I know; the entries above "
        "only share a few words with it (a TPU type, a number). I cover what goes wrong while "
        "training on Cloud TPU: errors, hangs, memory, speed, accuracy and reaching the TPU. If "
        "that is what you have, paste the error or describe what happens.",
        "A sua pergunta não se parece em sentido com nenhum dos problemas que conheço; as "
        "entradas acima só têm algumas palavras em comum com ela (um tipo de TPU, um número). "
        "Cubro o que dá errado ao treinar na Cloud TPU: erros, travamentos, memória, velocidade, "
        "acurácia e acesso à TPU. Se é isso que você tem, cole o erro ou descreva o que acontece.",
    ),
    "answer.note_vague": (
        "That tells me the setup, not what goes wrong. Paste the error message or the last lines "
        "of the log, or describe what happens: it hangs, runs out of memory, is slow, gives other "
        "numbers than on the GPU…",
        "Isso me diz o ambiente, não o que dá errado. Cole a mensagem de erro ou as últimas "
        "linhas do log, ou descreva o que acontece: trava, fica sem memória, está lento, dá "
        "números diferentes dos da GPU…",
    ),
    "answer.note_script": (
        "Much of your input is in {script} script, which I do not read: I read English and "
        "Portuguese. Describe the problem in one of them, or paste the error lines as they are.",
        "Boa parte da sua entrada está em escrita {script}, que eu não leio: leio inglês e "
        "português. Descreva o problema numa dessas línguas ou cole as linhas de erro como estão.",
    ),
    "answer.note_outside.install": (
        "Line {line} reads like an installation or version problem (“{text}”), which the guide I "
        "answer from does not cover. Install the framework and its TPU runtime as one matched set "
        "(jax[tpu] and its libtpu, torch and torch_xla of the same release, TensorFlow and its TPU "
        "software version) in a clean environment, then ask again with the next error you get.",
        "A linha {line} parece um problema de instalação ou de versões (“{text}”), que o guia em "
        "que me baseio não cobre. Instale o framework e o runtime da TPU como um conjunto "
        "compatível (jax[tpu] e sua libtpu, torch e torch_xla da mesma versão, TensorFlow e sua "
        "versão de software da TPU) num ambiente limpo e pergunte de novo com o próximo erro.",
    ),
    "answer.note_outside.library_op": (
        "Line {line} says the TensorFlow running here does not know an op the model uses "
        "(“{text}”). Ops like this belong to a library (tensorflow_text for text ops such as "
        "SentencepieceOp or CaseFoldUTF8, TensorFlow Addons for Addons>…) and exist only once that "
        "library is imported. Install it at the version that matches your TensorFlow and import it "
        "before you load the model (import tensorflow_text). This happens on any machine, so it is "
        "not a TPU problem, and the guide I answer from does not cover it.",
        "A linha {line} diz que o TensorFlow em execução aqui não conhece uma operação que o "
        "modelo usa (“{text}”). Operações assim pertencem a uma biblioteca (tensorflow_text para "
        "operações de texto como SentencepieceOp ou CaseFoldUTF8, TensorFlow Addons para "
        "Addons>…) e só existem depois que a biblioteca é importada. Instale-a na versão que "
        "combina com o seu TensorFlow e importe-a antes de carregar o modelo (import "
        "tensorflow_text). Isso acontece em qualquer máquina, então não é um problema da TPU, e o "
        "guia em que me baseio não cobre isso.",
    ),
    "answer.note_outside.regression": (
        "Line {line} says the problem began with a new release (“{text}”). Then the release is "
        "the likely cause, a bug of it or a mismatch with its TPU library, which the guide I "
        "answer from does not cover. Go back to the last release that worked, installed as one "
        "matched set (jax[tpu]==VERSION; torch and torch_xla[tpu] both ==VERSION; for "
        "TensorFlow, the TPU software version made for it), and look for an open issue in the "
        "framework's tracker; report it there with the versions that work and those that do not.",
        "A linha {line} diz que o problema começou com uma versão nova (“{text}”). Então a "
        "versão é a causa provável, um bug dela ou uma incompatibilidade com a sua biblioteca da "
        "TPU, o que o guia em que me baseio não cobre. Volte para a última versão que funcionou, "
        "instalada como um conjunto compatível (jax[tpu]==VERSÃO; torch e torch_xla[tpu] ambos "
        "==VERSÃO; para o TensorFlow, a versão de software da TPU feita para ele), e procure uma "
        "issue aberta no repositório do framework; relate lá com as versões que funcionam e as "
        "que não funcionam.",
    ),
    "answer.note_outside.program": (
        "Line {line} says the shell cannot find a program (“{text}”): it is not installed, or not "
        "on the PATH of the shell that ran it. The guide I answer from does not cover installing "
        "tools. Install it (for gcloud: the Google Cloud CLI, then run gcloud init), open a new "
        "shell and make sure it is found (which gcloud prints its path), then ask again with the "
        "next error you get.",
        "A linha {line} diz que o shell não encontra um programa (“{text}”): ele não está "
        "instalado ou não está no PATH do shell que o executou. O guia em que me baseio não cobre "
        "a instalação de ferramentas. Instale-o (para o gcloud: a Google Cloud CLI, depois rode "
        "gcloud init), abra um shell novo, confira que ele é encontrado (which gcloud mostra o "
        "caminho) e pergunte de novo com o próximo erro.",
    ),
    "answer.note_outside.replication": (
        "Line {line} says the launcher's processes could not share the TPU (“{text}”): the "
        "parent process took it before `xmp.spawn` — `xm.xla_device()`, a tensor, a model or a "
        "`torch.load(..., map_location=device)` at the top level of the script or notebook — so "
        "each child sees one device. The guide I answer from does not cover it. Create the "
        "device, the model on it and the data inside the function given to `xmp.spawn` (keep "
        "the model on the CPU until then, or wrap it in `xmp.MpModelWrapper` on older "
        "releases), and restart the notebook's runtime before spawning again, since the parent "
        "keeps the TPU.",
        "A linha {line} diz que os processos do lançador não puderam dividir a TPU (“{text}”): o "
        "processo pai a pegou antes do `xmp.spawn` — `xm.xla_device()`, um tensor, um modelo ou "
        "um `torch.load(..., map_location=device)` no nível de cima do script ou do notebook —, "
        "então cada filho vê um dispositivo só. O guia em que me baseio não cobre isso. Crie o "
        "dispositivo, o modelo nele e os dados dentro da função passada ao `xmp.spawn` (deixe o "
        "modelo na CPU até lá, ou envolva-o em `xmp.MpModelWrapper` nas versões antigas), e "
        "reinicie o runtime do notebook antes de rodar de novo, porque o pai continua com a TPU.",
    ),
    "answer.note_outside.process_count": (
        "Line {line} says the launcher was asked for a number of processes the TPU host does not "
        "split into (“{text}”): it starts either one process or one per TPU device of the host, "
        "which the guide I answer from does not cover. Leave the count at its default (xmp.spawn "
        "without nprocs, or nprocs=None; accelerate config with the host's device count). To use "
        "fewer devices, tell the runtime which ones are visible instead (TPU_VISIBLE_CHIPS with "
        "TPU_CHIPS_PER_PROCESS_BOUNDS and TPU_PROCESS_BOUNDS, or TPU_NUM_DEVICES on older "
        "releases). A pod slice runs one such "
        "launch on every host (gcloud … ssh --worker=all).",
        "A linha {line} diz que o lançador recebeu um número de processos em que o host da TPU não "
        "se divide (“{text}”): ele inicia um processo só ou um por dispositivo de TPU do host, o "
        "que o guia em que me baseio não cobre. Deixe a contagem no padrão (xmp.spawn sem nprocs, "
        "ou nprocs=None; accelerate config com o número de dispositivos do host). Para usar menos "
        "dispositivos, diga ao runtime quais ficam visíveis (TPU_VISIBLE_CHIPS com "
        "TPU_CHIPS_PER_PROCESS_BOUNDS e TPU_PROCESS_BOUNDS, ou TPU_NUM_DEVICES nas versões "
        "antigas). Um slice de pod roda um "
        "lançamento desses em cada host (gcloud … ssh --worker=all).",
    ),
    "answer.note_outside.create_request": (
        "Line {line} says gcloud refused the arguments of the request to create the TPU "
        "(“{text}”), which the guide I answer from does not cover. Check that the zone offers the "
        "accelerator type (gcloud compute tpus accelerator-types list --zone=ZONE), that the "
        "runtime version exists for it (gcloud compute tpus versions list --zone=ZONE: each "
        "generation has its own, such as v2-alpha-tpuv5-lite for v5e), that what you ask for "
        "(Multislice, a topology) is offered for that generation, and that no TPU of that name "
        "is left (gcloud compute tpus tpu-vm list --zone=ZONE).",
        "A linha {line} diz que o gcloud recusou os argumentos do pedido de criação da TPU "
        "(“{text}”), o que o guia em que me baseio não cobre. Confira se a zona oferece o tipo de "
        "acelerador (gcloud compute tpus accelerator-types list --zone=ZONA), se a versão de "
        "runtime existe para ele (gcloud compute tpus versions list --zone=ZONA: cada geração tem "
        "a sua, como v2-alpha-tpuv5-lite para a v5e), se o que você pede (Multislice, uma "
        "topologia) é oferecido para essa geração e se não sobrou uma TPU com esse nome (gcloud "
        "compute tpus tpu-vm list --zone=ZONA).",
    ),
    "answer.note_outside.billing": (
        "Line {line} asks about cost or billing (“{text}”), which the guide I answer from does not "
        "cover. The Cloud TPU pricing page gives the price of each generation by region, and the "
        "console's Billing reports show what was charged and for which resource. A TPU that is up "
        "(READY) is charged whether or not a program uses it: list yours with gcloud compute tpus "
        "tpu-vm list --zone=ZONE and delete the ones you are done with.",
        "A linha {line} pergunta sobre custo ou cobrança (“{text}”), o que o guia em que me baseio "
        "não cobre. A página de preços do Cloud TPU dá o preço de cada geração por região, e os "
        "relatórios de Faturamento do console mostram o que foi cobrado e por qual recurso. Uma "
        "TPU ligada (READY) é cobrada esteja um programa usando ou não: liste as suas com gcloud "
        "compute tpus tpu-vm list --zone=ZONA e apague as que não usa mais.",
    ),
    "answer.note_outside.offering": (
        "Line {line} asks where a TPU type is offered (“{text}”), which the guide I answer from "
        "does not cover. gcloud compute tpus accelerator-types list --zone=ZONE lists the types a "
        "zone offers, and the Cloud TPU documentation's regions-and-zones page lists every "
        "generation by zone. A type a zone offers can still be out of capacity for a while: then "
        "try another of its zones, or a queued resource.",
        "A linha {line} pergunta onde um tipo de TPU é oferecido (“{text}”), o que o guia em que "
        "me baseio não cobre. gcloud compute tpus accelerator-types list --zone=ZONA lista os "
        "tipos que uma zona oferece, e a página de regiões e zonas da documentação do Cloud TPU "
        "lista cada geração por zona. Um tipo que a zona oferece ainda pode ficar sem capacidade "
        "por um tempo: tente então outra das suas zonas, ou um recurso enfileirado (queued "
        "resource).",
    ),
    "answer.note_outside.hardware": (
        "Line {line} asks what a TPU type has (“{text}”), which the guide I answer from does not "
        "cover. The public figures I know: {figures}. The Cloud TPU documentation's page for "
        "each generation gives the rest (peak FLOPS, interconnect, topologies).",
        "A linha {line} pergunta o que um tipo de TPU tem (“{text}”), o que o guia em que me "
        "baseio não cobre. Os números públicos que conheço: {figures}. A página de cada geração na "
        "documentação do Cloud TPU traz o resto (FLOPS de pico, interconexão, topologias).",
    ),
    "answer.note_outside.capacity": (
        "Line {line} reads like a capacity or quota limit (“{text}”), which the guide I answer "
        "from does not cover. Try another zone that offers this TPU type, retry later, or request "
        "more quota in the Cloud console (IAM & Admin > Quotas).",
        "A linha {line} parece um limite de capacidade ou de cota (“{text}”), que o guia em que me "
        "baseio não cobre. Tente outra zona que ofereça esse tipo de TPU, tente mais tarde ou "
        "peça mais cota no console do Cloud (IAM e administrador > Cotas).",
    ),
    "answer.note_outside.notebook_session": (
        "Line {line} says the notebook service ended the session (“{text}”). Colab and Kaggle end "
        "a session that sits idle or reaches its maximum length (Kaggle: 9 hours for a TPU "
        "notebook), whatever the accelerator, and the guide I answer from does not cover that. "
        "Save a checkpoint every epoch (to Google Drive, /kaggle/working or a Cloud Storage "
        "bucket) and resume from the last one; for runs longer than a session, train on a Cloud "
        "TPU VM of your own (gcloud compute tpus tpu-vm create) inside tmux.",
        "A linha {line} diz que o serviço de notebooks encerrou a sessão (“{text}”). O Colab e o "
        "Kaggle encerram a sessão que fica ociosa ou chega ao tempo máximo (Kaggle: 9 horas num "
        "notebook com TPU), seja qual for o acelerador, e o guia de onde tiro as respostas não "
        "cobre isso. Salve um checkpoint a cada época (no Google Drive, em /kaggle/working ou num "
        "bucket do Cloud Storage) e retome do último; para treinos mais longos que uma sessão, "
        "treine numa VM de TPU sua (gcloud compute tpus tpu-vm create) dentro do tmux.",
    ),
    "answer.note_outside.notebook_capacity": (
        "Line {line} says the notebook service (Colab, Kaggle) had no accelerator of that kind to "
        "give your session (“{text}”): all were in use, or your account reached its usage limit or "
        "its weekly quota. That is the notebook service's capacity, not a TPU you could not reach, "
        "and the guide I answer from does not cover it. "
        "Try again later, or run on a Cloud TPU VM of your own (gcloud compute tpus tpu-vm "
        "create), and ask again with the next error you get.",
        "A linha {line} diz que o serviço de notebooks (Colab, Kaggle) não tinha um acelerador "
        "desse tipo para a sua sessão (“{text}”): estavam todos em uso, ou a sua conta chegou ao "
        "limite de uso ou à cota da semana. É a capacidade "
        "do serviço de notebooks, não uma TPU que você não conseguiu alcançar, e o guia em que me "
        "baseio não cobre isso. Tente mais tarde, ou rode numa VM de TPU do Cloud sua (gcloud "
        "compute tpus tpu-vm create), e pergunte de novo com o próximo erro.",
    ),
    "answer.note_outside.storage": (
        "Line {line} reads like the TPU's host was given a path on this machine's disk (“{text}”), "
        "which the guide I answer from does not cover. On a TPU Node, and on Colab's TPU, the "
        "TPU's own host reads the data and writes checkpoints and summaries, and it cannot see "
        "this machine's disk: put them in a Cloud Storage bucket (gs://BUCKET/...) the TPU's "
        "service account can use.",
        "A linha {line} parece um caminho no disco desta máquina passado ao host da TPU "
        "(“{text}”), o que o guia em que me baseio não cobre. Num TPU Node, e na TPU do Colab, é "
        "o próprio host da TPU que lê os dados e grava checkpoints e resumos, e ele não enxerga o "
        "disco desta máquina: coloque-os num bucket do Cloud Storage (gs://BUCKET/...) que a "
        "conta de serviço da TPU possa usar.",
    ),
    "answer.note_outside.storage_missing": (
        "Line {line} says Cloud Storage has no object at the path the program asked for "
        "(“{text}”), which the guide I answer from does not cover: the TPU reached the bucket, "
        "and the file is not where the code looks. List what is there and compare it with the "
        "path in the message (`gcloud storage ls gs://BUCKET/PREFIX/`); a dataset's new version "
        "may have renamed or moved its files, and a Kaggle dataset's GCS path changes with it.",
        "A linha {line} diz que o Cloud Storage não tem nenhum objeto no caminho pedido pelo "
        "programa (“{text}”), o que o guia em que me baseio não cobre: a TPU chegou ao bucket, "
        "e o arquivo não está onde o código procura. Liste o que há lá e compare com o caminho "
        "da mensagem (`gcloud storage ls gs://BUCKET/PREFIXO/`); uma nova versão do dataset pode "
        "ter renomeado ou movido os arquivos, e o caminho no GCS de um dataset do Kaggle muda "
        "junto.",
    ),
    "answer.note_outside.container_image": (
        "Line {line} says Kubernetes could not pull the pod's container image (“{text}”): the "
        "pod never started, so the TPU was never reached, and the guide I answer from does not "
        "cover registries. Read the reason in the pod's events (`kubectl describe pod POD`): a "
        "403 means the node pool's service account may not read the repository (grant it "
        "Artifact Registry Reader on it), a 404 or `not found` a wrong image name or tag.",
        "A linha {line} diz que o Kubernetes não conseguiu baixar a imagem de contêiner do pod "
        "(“{text}”): o pod nem começou, então a TPU nunca foi alcançada, e o guia em que me "
        "baseio não cobre registros de imagens. Leia o motivo nos eventos do pod (`kubectl "
        "describe pod POD`): um 403 quer dizer que a conta de serviço do pool de nós não pode "
        "ler o repositório (dê a ela Artifact Registry Reader nele); um 404 ou `not found`, um "
        "nome ou tag de imagem errado.",
    ),
    "answer.note_outside.storage_access": (
        "Line {line} says Cloud Storage refused the account access to a bucket or an object "
        "(“{text}”), which the guide I answer from does not cover: it is not the scopes of "
        "creating a TPU. Find the account in the message (the TPU VM's service account, or on a "
        "TPU Node the Cloud TPU service agent), then grant it a role on the bucket, such as "
        "Storage Object Viewer to read or Storage Object User to write: `gcloud storage buckets "
        "add-iam-policy-binding gs://BUCKET --member=serviceAccount:ACCOUNT "
        "--role=roles/storage.objectViewer`.",
        "A linha {line} diz que o Cloud Storage negou à conta o acesso a um bucket ou objeto "
        "(“{text}”), o que o guia em que me baseio não cobre: não são os escopos da criação da "
        "TPU. Veja a conta na mensagem (a conta de serviço da VM de TPU, ou num TPU Node o agente "
        "de serviço do Cloud TPU) e dê a ela um papel no bucket, como Storage Object Viewer para "
        "ler ou Storage Object User para gravar: `gcloud storage buckets add-iam-policy-binding "
        "gs://BUCKET --member=serviceAccount:CONTA --role=roles/storage.objectViewer`.",
    ),
    "answer.note_outside.disk_full": (
        "Line {line} says a disk is full (“{text}”): the storage of the machine that ran it, not "
        "the TPU's memory (HBM), which the guide I answer from does not cover. Find what fills it "
        "(sudo du -xh / | sort -h | tail -20), then clear caches (pip cache purge, "
        "~/.cache/huggingface) and old checkpoints, keep datasets and checkpoints in a Cloud "
        "Storage bucket, or give the VM a bigger disk. If /tmp/tpu_logs is what grew, ask about "
        "the TPU's debug logs: their size and directory can be set.",
        "A linha {line} diz que um disco está cheio (“{text}”): o armazenamento da máquina que "
        "rodou o programa, não a memória da TPU (HBM), o que o guia em que me baseio não cobre. "
        "Descubra o que o ocupa (sudo du -xh / | sort -h | tail -20), depois limpe caches (pip "
        "cache purge, ~/.cache/huggingface) e checkpoints antigos, mantenha datasets e checkpoints "
        "num bucket do Cloud Storage ou dê à VM um disco maior. Se o que cresceu foi o "
        "/tmp/tpu_logs, pergunte sobre os logs de depuração da TPU: o tamanho e o diretório deles "
        "podem ser configurados.",
    ),
    "answer.note_outside.host_memory": (
        "Line {line} says the machine's own RAM ran out (“{text}”): the VM or Colab runtime that "
        "feeds the TPU, not the TPU's HBM, which the guide I answer from does not cover. Watch "
        "free -h while it runs; load or parse the data in a stream (tf.data from files, a "
        "DataLoader that reads lazily) instead of whole in memory; with one process per TPU core "
        "every process holds its own copy, so load the weights once or use fewer loader workers; "
        "in a container killed for its memory limit (OOMKilled), raise the pod's memory limit; "
        "or use a host with more memory.",
        "A linha {line} diz que acabou a RAM da própria máquina (“{text}”): a da VM ou do runtime "
        "do Colab que alimenta a TPU, não a HBM da TPU, o que o guia em que me baseio não cobre. "
        "Acompanhe free -h durante a execução; leia e processe os dados em fluxo (tf.data a partir "
        "de arquivos, um DataLoader que lê sob demanda) em vez de tudo na memória; com um processo "
        "por núcleo da TPU, cada processo guarda a sua cópia, então carregue os pesos uma vez só "
        "ou use menos workers no carregador; num contêiner morto pelo limite de memória "
        "(OOMKilled), aumente o limite de memória do pod; ou use um host com mais memória.",
    ),
    "answer.note_outside.numerics": (
        "Line {line} reads like a numerical problem (“{text}”): the loss or a tensor became NaN or "
        "infinite, which the guide I answer from does not cover. Lower the learning rate, look for "
        "NaN or Inf in the input data and for values that overflow in bfloat16; "
        "tf.debugging.enable_check_numerics(), jax.config.update('jax_debug_nans', True) or "
        "torch.autograd.set_detect_anomaly(True) stops at the first operation that makes one.",
        "A linha {line} parece um problema numérico (“{text}”): a perda ou um tensor virou NaN ou "
        "infinito, o que o guia em que me baseio não cobre. Reduza a taxa de aprendizado, procure "
        "NaN ou Inf nos dados de entrada e valores que estouram em bfloat16; "
        "tf.debugging.enable_check_numerics(), jax.config.update('jax_debug_nans', True) ou "
        "torch.autograd.set_detect_anomaly(True) param na primeira operação que gera um.",
    ),
    "answer.note_outside.dataset_steps": (
        "Line {line} says Keras's steps do not match the dataset's length (“{text}”), on any "
        "device; the guide I answer from does not cover that, and it is not how many steps run "
        "per call to the TPU (steps_per_execution). An epoch needs steps_per_epoch batches: "
        "with a dataset that ends, leave steps_per_epoch out or make it no more than the batches "
        "the dataset gives (len(dataset), or the samples // the global batch with "
        "drop_remainder=True); with an endless dataset (.repeat()), pass steps_per_epoch, and "
        "validation_steps for an endless validation set.",
        "A linha {line} diz que os passos do Keras não batem com o tamanho do dataset "
        "(“{text}”), em qualquer dispositivo; o guia de onde tiro as respostas não cobre isso, e "
        "não é quantos passos rodam por chamada à TPU (steps_per_execution). Uma época precisa de "
        "steps_per_epoch lotes: com um dataset que termina, deixe steps_per_epoch de fora ou use "
        "no máximo os lotes que o dataset dá (len(dataset), ou as amostras // o lote global com "
        "drop_remainder=True); com um dataset sem fim (.repeat()), passe steps_per_epoch, e "
        "validation_steps para uma validação sem fim.",
    ),
    "answer.note_outside.data_loading": (
        "Line {line} says the code that loads and prepares the data on the host crashed "
        "(“{text}”): a tokenizer, an image decoder or a loader worker, not the TPU, which the "
        "guide I answer from does not cover. Run the loader alone over the dataset, without the "
        "TPU, to find the item or the worker that fails. A fast tokenizer shared by threads or "
        "forked workers (“Already borrowed”, a panic): give each worker its own tokenizer, or set "
        "TOKENIZERS_PARALLELISM=false. A truncated or unreadable image: skip or re-encode the "
        "file. A worker killed by a Bus error: raise the container's shared memory (docker "
        "--shm-size) or use fewer workers. A tokenizer with no padding token: give it one "
        "(tokenizer.pad_token = tokenizer.eos_token, or add a token and resize the embeddings). "
        "Items of different sizes batched together: resize them in the pipeline, or pad each "
        "batch to fixed sizes (`padded_batch`, a `collate_fn`), which the TPU wants anyway.",
        "A linha {line} diz que o código que carrega e prepara os dados no host quebrou "
        "(“{text}”): um tokenizador, um decodificador de imagens ou um worker do carregador, não a "
        "TPU, o que o guia em que me baseio não cobre. Rode o carregador sozinho sobre o dataset, "
        "sem a TPU, para achar o item ou o worker que falha. Um tokenizador rápido compartilhado "
        "entre threads ou workers (“Already borrowed”, um panic): dê a cada worker o seu próprio "
        "tokenizador, ou defina TOKENIZERS_PARALLELISM=false. Uma imagem truncada ou ilegível: "
        "pule ou recodifique o arquivo. Um worker morto por Bus error: aumente a memória "
        "compartilhada do contêiner (docker --shm-size) ou use menos workers. Um tokenizador sem "
        "token de padding: dê um a ele (tokenizer.pad_token = tokenizer.eos_token, ou adicione um "
        "token e redimensione os embeddings). Itens de tamanhos diferentes no mesmo lote: "
        "redimensione-os no pipeline, ou preencha cada lote até tamanhos fixos (`padded_batch`, "
        "um `collate_fn`), que é o que a TPU quer de qualquer forma.",
    ),
    "answer.note_outside.export": (
        "Line {line} says converting the trained model to another format or runtime (TFLite, "
        "ONNX, TensorRT, Core ML) met an op the converter does not support (“{text}”): the "
        "target runtime's op set, not an op the TPU lacks, which the guide I answer from does not "
        "cover. Look the op up in the converter's supported list; allow the converter's fallback "
        "(TFLite's SELECT_TF_OPS, a newer ONNX opset), or rewrite that layer with ops the target "
        "supports (an unrolled or fused LSTM, plain dot and reduce ops instead of XLA's), then "
        "convert again.",
        "A linha {line} diz que a conversão do modelo treinado para outro formato ou runtime "
        "(TFLite, ONNX, TensorRT, Core ML) encontrou uma operação que o conversor não suporta "
        "(“{text}”): o conjunto de operações do runtime de destino, não uma operação que falte à "
        "TPU, o que o guia em que me baseio não cobre. Procure a operação na lista do conversor; "
        "permita o fallback do conversor (SELECT_TF_OPS no TFLite, um opset ONNX mais novo), ou "
        "reescreva essa camada com operações que o destino suporta (uma LSTM desenrolada ou "
        "fundida, operações simples de dot e reduce em vez das do XLA), e converta de novo.",
    ),
    "answer.note_outside.compiler": (
        "Line {line} says the XLA compiler failed by a bug of its own (“{text}”), which the guide "
        "I answer from does not cover. Try the newest release of the framework and its TPU "
        "runtime (jax[tpu], torch_xla, or TensorFlow and its TPU software version); if it still "
        "fails, report it to the framework with the full log, and meanwhile change the layer or "
        "the shapes the compiler fails on (split the operation, another layer size).",
        "A linha {line} diz que o compilador XLA falhou por um bug dele (“{text}”), o que o guia "
        "em que me baseio não cobre. Experimente a versão mais recente do framework e do runtime "
        "da TPU (jax[tpu], torch_xla, ou o TensorFlow e a versão de software da TPU); se continuar "
        "falhando, reporte ao framework com o log completo e, enquanto isso, mude a camada ou os "
        "formatos em que o compilador falha (divida a operação, outro tamanho de camada).",
    ),
    "answer.note_outside.checkpoint": (
        "Line {line} says a saved checkpoint does not fit the model it is restored into "
        "(“{text}”): a key missing or left over, or a shape that differs from the stored one. The "
        "guide I answer from does not cover it, and it is not the TPU's shapes or memory: the "
        "model's code or configuration (layer sizes, vocabulary, number of layers, a prefix such "
        "as `module.` or `_orig_mod.` on every key) changed between the save and the restore. "
        "Build the model exactly as when it was saved, or load with the checkpoint's own "
        "configuration; print the checkpoint's keys and shapes to see which differ.",
        "A linha {line} diz que um checkpoint salvo não corresponde ao modelo em que é restaurado "
        "(“{text}”): uma chave que falta ou sobra, ou um formato diferente do guardado. O guia em "
        "que me baseio não cobre isso, e não são os formatos nem a memória da TPU: o código ou a "
        "configuração do modelo (tamanhos de camada, vocabulário, número de camadas, um prefixo "
        "como `module.` ou `_orig_mod.` em cada chave) mudou entre salvar e restaurar. Monte o "
        "modelo exatamente como quando foi salvo, ou carregue com a configuração do próprio "
        "checkpoint; imprima as chaves e os formatos do checkpoint para ver quais diferem.",
    ),
    "answer.note_outside.strategy": (
        "Line {line} says the code used TensorFlow's distribution strategy against its rules "
        "(“{text}”). The guide I answer from does not cover it, and the TPU is not the cause: "
        "create the model, its optimizer and metrics, and restore a checkpoint, inside `with "
        "strategy.scope():` (`model.compile` too); make one strategy per program and use it "
        "everywhere; call `strategy.run` from a `tf.function` with the step function given to it, "
        "not nested in another `tf.function`; give `model.fit` a `tf.data.Dataset` where the "
        "code used `fit_generator` or a Python generator.",
        "A linha {line} diz que o código usou a estratégia de distribuição do TensorFlow contra as "
        "regras dela (“{text}”). O guia em que me baseio não cobre isso, e a TPU não é a causa: "
        "crie o modelo, o otimizador e as métricas, e restaure um checkpoint, dentro de `with "
        "strategy.scope():` (o `model.compile` também); crie uma única estratégia por programa e "
        "use-a em todo lugar; chame `strategy.run` de uma `tf.function` passando a função da "
        "etapa, sem aninhá-la em outra `tf.function`; passe ao `model.fit` um `tf.data.Dataset` "
        "onde o código usava `fit_generator` ou um gerador Python.",
    ),
    "answer.note_outside.device_placement": (
        "Line {line} says an operation's tensors or arrays are on different devices (“{text}”): "
        "in PyTorch, one is on the XLA device and another is still on the CPU. The TPU works; the "
        "guide I answer from does not cover this. Move the model before building the optimizer "
        "(`model.to(device)`), every batch (`MpDeviceLoader`, or `.to(device)` on each tensor), "
        "and any tensor the code creates during the step (`torch.zeros(..., device=x.device)`); "
        "a buffer kept as a plain attribute instead of `register_buffer` stays behind. In JAX, "
        "put the arrays of one call on the same devices (`jax.device_put` with one sharding).",
        "A linha {line} diz que os tensores ou arrays de uma operação estão em dispositivos "
        "diferentes (“{text}”): no PyTorch, um está no dispositivo XLA e outro ainda na CPU. A TPU "
        "funciona; o guia em que me baseio não cobre isso. Mova o modelo antes de criar o "
        "otimizador (`model.to(device)`), cada lote (`MpDeviceLoader`, ou `.to(device)` em cada "
        "tensor) e todo tensor que o código cria durante o passo (`torch.zeros(..., "
        "device=x.device)`); um buffer guardado como atributo comum em vez de `register_buffer` "
        "fica para trás. No JAX, ponha os arrays de uma chamada nos mesmos dispositivos "
        "(`jax.device_put` com um único sharding).",
    ),
    "answer.note_outside.traced_condition": (
        "Line {line} says Python's control flow met a value JAX traces under `jit` (“{text}”): an "
        "`if`, `while` or `bool()` on an array that only exists when the compiled function "
        "runs. The guide I answer from does not cover it, and the TPU is not the cause "
        "(the CPU fails the same way under `jit`; `JAX_DISABLE_JIT=1` hides it). Write the branch "
        "with `jax.lax.cond` or `jnp.where` (a learning-rate warm-up: an optax schedule), or mark "
        "the argument static (`static_argnums`) when it is a plain Python setting.",
        "A linha {line} diz que o controle de fluxo do Python encontrou um valor que o JAX "
        "rastreia sob o `jit` (“{text}”): um `if`, `while` ou `bool()` sobre um array que só "
        "existe quando a função compilada roda. O guia em que me baseio não cobre isso, e a TPU "
        "não é a causa (a CPU falha do mesmo jeito sob `jit`; `JAX_DISABLE_JIT=1` esconde o erro). "
        "Escreva o desvio com `jax.lax.cond` ou `jnp.where` (um aquecimento da taxa de "
        "aprendizado: um schedule do optax), ou marque o argumento como estático "
        "(`static_argnums`) quando ele é uma configuração comum do Python.",
    ),
    "answer.note_outside.certificate": (
        "Line {line} says this machine could not verify a server's TLS certificate (“{text}”): "
        "something between it and Google's APIs presents a certificate it does not trust, most "
        "often a network proxy that inspects HTTPS (an office or university network), or its CA "
        "bundle is missing or out of date. The TPU is not involved, and the guide I answer from "
        "does not cover it. Try from another network to confirm; then point gcloud at the "
        "proxy's CA certificate (`gcloud config set core/custom_ca_certs_file PATH`, and "
        "`REQUESTS_CA_BUNDLE` for Python code) or update the machine's CA certificates.",
        "A linha {line} diz que esta máquina não conseguiu verificar o certificado TLS de um "
        "servidor (“{text}”): algo entre ela e as APIs do Google apresenta um certificado em que "
        "ela não confia, quase sempre um proxy de rede que inspeciona HTTPS (rede de empresa ou "
        "de universidade), ou o pacote de CAs falta ou está desatualizado. A TPU não está "
        "envolvida, e o guia em que me baseio não cobre isso. Teste de outra rede para "
        "confirmar; depois aponte o gcloud para o certificado da CA do proxy (`gcloud config set "
        "core/custom_ca_certs_file CAMINHO`, e `REQUESTS_CA_BUNDLE` para código Python) ou "
        "atualize os certificados de CA da máquina.",
    ),
    "answer.note_outside.spawn_guard": (
        "Line {line} says Python started a new process before the main module finished loading "
        "(“{text}”): the launch (`xmp.spawn`, `torch.multiprocessing`, a DataLoader's workers) "
        "sits at the top level of the script, and every process it starts imports the script and "
        "runs it again. The guide I answer from does not cover it, and the TPU is not the cause. "
        'Put the launch under `if __name__ == "__main__":` at the end of the script.',
        "A linha {line} diz que o Python iniciou um processo novo antes de o módulo principal "
        "terminar de carregar (“{text}”): o lançamento (`xmp.spawn`, `torch.multiprocessing`, os "
        "workers de um DataLoader) está no nível de cima do script, e cada processo que ele inicia "
        "importa o script e o roda de novo. O guia em que me baseio não cobre isso, e a TPU não é "
        'a causa. Coloque o lançamento sob `if __name__ == "__main__":` no fim do script.',
    ),
    "answer.note_outside.cuda_request": (
        "Line {line} says the code, or a library it loads, asks for CUDA (“{text}”), and a TPU "
        "machine has no NVIDIA GPU: the run never asked for the TPU, so the guide I answer from "
        "does not apply. Replace what the GPU version of the script kept: in PyTorch, "
        "`.cuda()` and `device='cuda'` with the XLA device (`torch_xla.device()`, or "
        "`xm.xla_device()` on older releases) and `torch.cuda.amp` with bfloat16 autocast; in "
        "JAX, `jax.devices('gpu')` with `jax.devices()`. CUDA-only libraries (bitsandbytes, "
        "flash-attn, apex, xformers) do not run on a TPU: remove them from the requirements and "
        "use the framework's own attention, optimizers and precision instead.",
        "A linha {line} diz que o código, ou uma biblioteca que ele carrega, pede CUDA (“{text}”), "
        "e uma máquina com TPU não tem GPU NVIDIA: a execução nunca pediu a TPU, então o guia em "
        "que me baseio não se aplica. Troque o que a versão do script para GPU manteve: no "
        "PyTorch, `.cuda()` e `device='cuda'` pelo dispositivo XLA (`torch_xla.device()`, ou "
        "`xm.xla_device()` nas versões antigas) e `torch.cuda.amp` pelo autocast em bfloat16; no "
        "JAX, `jax.devices('gpu')` por `jax.devices()`. Bibliotecas só para CUDA (bitsandbytes, "
        "flash-attn, apex, xformers) não rodam na TPU: tire-as dos requisitos e use a atenção, os "
        "otimizadores e a precisão do próprio framework.",
    ),
    "answer.note_outside.resource_missing": (
        "Line {line} says gcloud found no such resource where it looked (“{text}”): the name, "
        "the zone or the project in the command is not the TPU's, so nothing reached it and the "
        "guide I answer from does not apply. List what exists in the zone "
        "(`gcloud compute tpus tpu-vm list --zone=ZONE`), check the defaults gcloud used "
        "(`gcloud config list`), and pass `--zone` and `--project` explicitly; a queued resource "
        "has no TPU VM to reach until its state is ACTIVE.",
        "A linha {line} diz que o gcloud não achou esse recurso onde procurou (“{text}”): o nome, "
        "a zona ou o projeto do comando não são os da TPU, então nada chegou a ela e o guia em "
        "que me baseio não se aplica. Liste o que existe na zona "
        "(`gcloud compute tpus tpu-vm list --zone=ZONA`), confira os padrões que o gcloud usou "
        "(`gcloud config list`) e passe `--zone` e `--project` explicitamente; um recurso em fila "
        "não tem TPU VM para acessar até o estado ficar ACTIVE.",
    ),
    "answer.note_outside.api_access": (
        "Line {line} says another Google product's API refused the request (“{text}”): that "
        "product's permission for the account, or the machine's access scopes for it, not Cloud "
        "TPU's, so the guide I answer from does not apply. Give the account the product's role "
        "(for BigQuery, BigQuery Job User and Data Viewer) and check which account the code runs "
        "as (`gcloud auth list`). A VM or TPU VM created with limited scopes keeps them: create it "
        "with `--scopes=cloud-platform` (or the product's own scope) and rely on IAM roles.",
        "A linha {line} diz que a API de outro produto do Google recusou o pedido (“{text}”): a "
        "permissão desse produto para a conta, ou os escopos de acesso da máquina para ele, não "
        "os do Cloud TPU, então o guia em que me baseio não se aplica. Dê à conta o papel do "
        "produto (no BigQuery, BigQuery Job User e Data Viewer) e confira com que conta o código "
        "roda (`gcloud auth list`). Uma VM ou TPU VM criada com escopos limitados fica com eles: "
        "crie-a com `--scopes=cloud-platform` (ou o escopo do produto) e use papéis do IAM.",
    ),
    "answer.note_outside.file_permission": (
        "Line {line} says the system refused the user a file or a directory (“{text}”): its "
        "owner and mode, not the TPU, so the guide I answer from does not apply. A disk mounted "
        "by root, or a directory another user (or `sudo`) created, is not writable by you: "
        "`ls -ld` the path, then `sudo chown -R $USER` it (or `chmod`), or point the program at "
        "a directory you own.",
        "A linha {line} diz que o sistema negou ao usuário um arquivo ou diretório (“{text}”): é "
        "o dono e as permissões, não a TPU, então o guia em que me baseio não se aplica. Um "
        "disco montado pelo root, ou um diretório criado por outro usuário (ou por `sudo`), não "
        "é gravável por você: rode `ls -ld` no caminho, depois `sudo chown -R $USER` nele (ou "
        "`chmod`), ou aponte o programa para um diretório seu.",
    ),
    "answer.note_outside.model_hub": (
        "Line {line} says a model hub refused to hand over the model (“{text}”): the hub's "
        "account, not Google Cloud's permissions nor the TPU's scopes, so the guide I answer "
        "from does not apply. A gated model (Gemma, Llama) needs its licence accepted on the "
        "model's page with the same account, and the download needs that account's token: on "
        "Hugging Face `huggingface-cli login` or `HF_TOKEN` with read access; on Kaggle "
        "`kagglehub.login()` or `KAGGLE_USERNAME` and `KAGGLE_KEY` (in a notebook, the consent "
        "given on the model's page).",
        "A linha {line} diz que um hub de modelos recusou entregar o modelo (“{text}”): é a "
        "conta do hub, não as permissões do Google Cloud nem os escopos da TPU, então o guia em "
        "que me baseio não se aplica. Um modelo restrito (Gemma, Llama) precisa da licença "
        "aceita na página do modelo com a mesma conta, e o download precisa do token dessa "
        "conta: no Hugging Face `huggingface-cli login` ou `HF_TOKEN` com acesso de leitura; no "
        "Kaggle `kagglehub.login()` ou `KAGGLE_USERNAME` e `KAGGLE_KEY` (num notebook, o "
        "consentimento dado na página do modelo).",
    ),
    "answer.note_outside.one_process_collective": (
        "Line {line} calls, in a block only the first process runs, what every process must call "
        "together (“{text}”): the first process waits there for the others, which never come, "
        "so the run stops with no error. No worker died; it is the code, not the TPU, and the "
        "guide I answer from does not cover it. Call it in every process, outside the `if`: "
        "`xm.save` already writes only from the master, `xm.rendezvous` and the reductions must "
        "be reached by all, and a JAX function over the whole mesh (a pmapped or jitted step, "
        "Orbax's save) must run on every host, with only the printing or writing kept under "
        "`jax.process_index() == 0`.",
        "A linha {line} chama, num bloco que só o primeiro processo roda, o que todos os "
        "processos precisam chamar juntos (“{text}”): o primeiro processo espera ali pelos "
        "outros, que nunca chegam, e o treino para sem erro. Nenhum worker morreu; é o código, "
        "não a TPU, e o guia de onde tiro as respostas não cobre isso. Chame em todos os "
        "processos, fora do `if`: o `xm.save` já grava só a partir do mestre, o "
        "`xm.rendezvous` e as reduções precisam ser alcançados por todos, e uma função JAX sobre "
        "a malha inteira (um passo com pmap ou jit, o save do Orbax) precisa rodar em todos os "
        "hosts, deixando só o print ou a escrita sob `jax.process_index() == 0`.",
    ),
    "answer.note_outside.scheduling": (
        "Line {line} says Kubernetes found no node for the pod (“{text}”): the pod never "
        "started, so nothing reached the TPU and the guide I answer from does not apply. Check "
        "that a TPU node pool exists whose accelerator and topology match the pod's node selector "
        "(`kubectl get nodes -L cloud.google.com/gke-tpu-accelerator,"
        "cloud.google.com/gke-tpu-topology`), that `google.com/tpu` asks for the chips one node "
        "has, and that the pool's autoscaling maximum leaves room for another node.",
        "A linha {line} diz que o Kubernetes não achou nó para o pod (“{text}”): o pod nunca "
        "começou, então nada chegou à TPU e o guia em que me baseio não se aplica. Confira se "
        "existe um pool de nós de TPU com acelerador e topologia iguais aos do seletor de nós do "
        "pod (`kubectl get nodes -L cloud.google.com/gke-tpu-accelerator,"
        "cloud.google.com/gke-tpu-topology`), se `google.com/tpu` pede os chips que um nó tem e "
        "se o máximo do autoescalonamento do pool deixa lugar para mais um nó.",
    ),
    "answer.note_outside.context_length": (
        "Line {line} says the request is longer than the context the model or its server was "
        "configured for (“{text}”): a limit checked before anything runs, not memory the TPU ran "
        "out of, so the guide I answer from does not apply. Truncate or shorten the prompt, or "
        "start the server with a longer context (vLLM's `--max-model-len`, MaxText's "
        "`max_target_length`) up to what the model supports; only if that longer context then "
        "fails to fit in HBM is it a memory problem.",
        "A linha {line} diz que o pedido é mais longo que o contexto configurado para o modelo ou "
        "o servidor (“{text}”): um limite conferido antes de qualquer execução, não memória que "
        "faltou na TPU, então o guia em que me baseio não se aplica. Corte ou encurte o prompt, ou "
        "suba o servidor com um contexto maior (`--max-model-len` do vLLM, `max_target_length` do "
        "MaxText) até o que o modelo suporta; só se esse contexto maior não couber na HBM é um "
        "problema de memória.",
    ),
    "answer.note_outside.tpu_unused": (
        "Line {line} says the job ran on the host's CPU and never used the TPU (“{text}”), so "
        "the TPU problems of the guide I answer from do not apply. TPUEstimator was given "
        "`use_tpu=False`: pass `--use_tpu=True` and `--tpu=NAME` (or the TPU's address), check "
        'the flags a launcher or a config file sets, and look for "Running train on TPU" in '
        "the log before measuring anything.",
        "A linha {line} diz que o job rodou na CPU do host e nunca usou a TPU (“{text}”), então "
        "os problemas de TPU do guia em que me baseio não se aplicam. O TPUEstimator recebeu "
        "`use_tpu=False`: passe `--use_tpu=True` e `--tpu=NOME` (ou o endereço da TPU), confira "
        'as flags que um launcher ou um arquivo de configuração define e procure "Running train '
        'on TPU" no log antes de medir qualquer coisa.',
    ),
    "answer.note_outside.autograd": (
        "Line {line} says automatic differentiation refused the model's own graph (“{text}”): "
        "the model's code, the same on a CPU, not the TPU, so the guide I answer from does not "
        "apply. A tensor that backward needs was changed in place: write `h = h + x` instead of "
        "`h += x`, and drop `inplace=True` from the activation before it (the anomaly mode, "
        "`torch.autograd.set_detect_anomaly(True)`, names the op). Backward run twice through one "
        "graph: compute the loss again, or pass `retain_graph=True` once. A loss with no grad_fn, "
        "or no gradients for any variable: it was detached (`.item()`, `.detach()`, `no_grad`) "
        "or does not depend on the weights being trained.",
        "A linha {line} diz que a diferenciação automática recusou o grafo do próprio modelo "
        "(“{text}”): o código do modelo, igual numa CPU, não a TPU, então o guia em que me baseio "
        "não se aplica. Um tensor de que o backward precisa foi alterado no lugar: escreva "
        "`h = h + x` em vez de `h += x` e tire o `inplace=True` da ativação anterior (o modo de "
        "anomalia, `torch.autograd.set_detect_anomaly(True)`, aponta a operação). Backward "
        "rodado duas vezes no mesmo grafo: calcule a perda de novo, ou passe `retain_graph=True` "
        "uma vez. Uma perda sem grad_fn, ou sem gradientes para nenhuma variável: ela foi "
        "desligada do grafo (`.item()`, `.detach()`, `no_grad`) ou não depende dos pesos "
        "treinados.",
    ),
    "answer.note_outside.model_input": (
        "Line {line} says the data does not fit the input the model was built for (“{text}”): "
        "Keras checks every batch against the model's input shape, and a size other than the "
        "batch's differs (a resize or crop in the preprocessing, the channels, the Input's own "
        "size). It happens on any device; the guide I answer from does not cover it, and it is "
        "not a shape the TPU cannot compile. Compare the dataset's `element_spec` with "
        "`model.input_shape` and make the preprocessing produce exactly that size.",
        "A linha {line} diz que os dados não cabem na entrada para a qual o modelo foi construído "
        "(“{text}”): o Keras confere cada lote com o formato de entrada do modelo, e um tamanho "
        "além do lote difere (um resize ou crop no pré-processamento, os canais, o tamanho do "
        "próprio Input). Acontece em qualquer dispositivo; o guia de onde tiro as respostas não "
        "cobre isso, e não é um formato que a TPU não consegue compilar. Compare o "
        "`element_spec` do dataset com `model.input_shape` e faça o pré-processamento produzir "
        "exatamente esse tamanho.",
    ),
    "answer.note_outside.python_error": (
        "Line {line} is a plain Python error (“{text}”): the same code fails the same way on a "
        "CPU, and nothing of the TPU is involved, so the guide I answer from does not cover it. "
        "The traceback's last line in your own code is where it happened. A `NoneType` there is "
        "a value that did not load: an image file that could not be read, a config file that "
        "parsed empty, a function that returned nothing. A `KeyError` is a key that the "
        "dictionary or config does not have (compare its spelling with the file).",
        "A linha {line} é um erro comum de Python (“{text}”): o mesmo código falha do mesmo "
        "jeito numa CPU, e nada da TPU está envolvido, então o guia de onde respondo não cobre "
        "isso. A última linha do traceback no seu próprio código é onde aconteceu. Um "
        "`NoneType` ali é um valor que não carregou: uma imagem que não pôde ser lida, um "
        "arquivo de config que veio vazio, uma função que não retornou nada. Um `KeyError` é "
        "uma chave que o dicionário ou a config não tem (compare a grafia com o arquivo).",
    ),
    "answer.note_outside.shape_mismatch": (
        "Line {line} says two arrays of known sizes do not fit each other (“{text}”): every size "
        "is known, so this is not a shape the TPU cannot compile, and the same code fails the "
        "same way on a CPU; the guide I answer from does not cover it. Print the shapes of both "
        "operands just before the failing op (the traceback's last line of your own code names "
        "it). Usual causes: labels shaped for another loss (integer class ids with a "
        "one-output or a one-hot loss), a layer's input size that is not the previous layer's "
        "output size, a config whose heads × head size is not the model width.",
        "A linha {line} diz que dois arrays de tamanhos conhecidos não se encaixam (“{text}”): "
        "todos os tamanhos são conhecidos, então não é um formato que a TPU não consegue "
        "compilar, e o mesmo código falha igual numa CPU; o guia de onde tiro as respostas não "
        "cobre isso. Imprima os formatos dos dois operandos logo antes da operação que falha (a "
        "última linha do seu próprio código no traceback aponta qual é). Causas comuns: rótulos "
        "no formato de outra perda (ids de classe inteiros numa perda de uma saída ou one-hot), "
        "o tamanho de entrada de uma camada diferente da saída da anterior, uma config em que "
        "cabeças × tamanho da cabeça não dá a largura do modelo.",
    ),
    "answer.note_outside.tracer_leak": (
        "Line {line} says a JAX tracer escaped the transformation that made it (“{text}”): a "
        "value computed inside `jit`, `grad`, `vmap` or `scan` was kept outside it, in a global, a "
        "list, a Python attribute (`self.x = …`) or a closure, and used after the call. The guide "
        "I answer from does not cover it, and the TPU is not the cause. Return the value from the "
        "function instead and keep state in what it returns; running once with "
        "`jax.checking_leaks()` names the line that keeps it.",
        "A linha {line} diz que um tracer do JAX escapou da transformação que o criou (“{text}”): "
        "um valor calculado dentro de `jit`, `grad`, `vmap` ou `scan` foi guardado fora dela, numa "
        "variável global, numa lista, num atributo Python (`self.x = …`) ou num closure, e usado "
        "depois da chamada. O guia em que me baseio não cobre isso, e a TPU não é a causa. Devolva "
        "o valor pela função e guarde o estado no que ela retorna; rodar uma vez com "
        "`jax.checking_leaks()` aponta a linha que o guarda.",
    ),
    "answer.note_outside.sharding": (
        "Line {line} says JAX cannot shard an array as the code asks (“{text}”). The guide I "
        "answer from does not cover it, and the TPU is not the cause: a dimension sharded over a "
        "mesh axis must divide evenly among that axis's devices, and the axis must be one the "
        "mesh has. Make the global batch (or that dimension) a multiple of the devices it is "
        "split over — with the guide's rule, a multiple of 8 per device — pad it, or leave that "
        "dimension unsharded (`None` in its PartitionSpec); check the axis names against "
        "`mesh.axis_names`.",
        "A linha {line} diz que o JAX não consegue fragmentar um array como o código pede "
        "(“{text}”). O guia em que me baseio não cobre isso, e a TPU não é a causa: uma dimensão "
        "fragmentada num eixo da malha precisa se dividir por igual entre os dispositivos desse "
        "eixo, e o eixo precisa existir na malha. Faça o lote global (ou essa dimensão) múltiplo "
        "dos dispositivos em que é dividido — pela regra do guia, múltiplo de 8 por dispositivo —, "
        "preencha-o, ou deixe essa dimensão sem fragmentar (`None` no PartitionSpec); confira os "
        "nomes dos eixos em `mesh.axis_names`.",
    ),
    "answer.note_outside.loss_labels": (
        "Line {line} says the labels do not fit the loss (“{text}”). Most often one-hot labels "
        "went to a sparse loss (sparse_categorical_crossentropy, "
        "softmax_cross_entropy_with_integer_labels), which then sees batch × classes labels, or "
        "integer labels went to a categorical one (categorical_crossentropy, "
        "optax.softmax_cross_entropy), which expects one column per class. Use the loss that "
        "matches the labels, or convert them (tf.one_hot, argmax). It fails the same on a CPU, so "
        "the TPU is not the cause, and the guide I answer from does not cover it.",
        "A linha {line} diz que os rótulos não combinam com a função de perda (“{text}”). Quase "
        "sempre são rótulos one-hot numa perda esparsa (sparse_categorical_crossentropy, "
        "softmax_cross_entropy_with_integer_labels), que então vê lote × classes rótulos, ou "
        "rótulos inteiros numa perda categórica (categorical_crossentropy, "
        "optax.softmax_cross_entropy), que espera uma coluna por classe. Use a perda que combina "
        "com os rótulos ou converta-os (tf.one_hot, argmax). Falha igual numa CPU, então a TPU "
        "não é a causa, e o guia em que me baseio não cobre isso.",
    ),
    "answer.note_outside.index_range": (
        "Line {line} says an index is outside the table it reads (“{text}”): most often a token "
        "id at or over the vocabulary size (the tokenizer has more tokens than the model's "
        "embedding: added tokens, another checkpoint's vocabulary) or a label at or over the "
        "number of classes. The guide I answer from does not cover it, and the TPU is not the "
        "cause — on a TPU such a lookup is not checked (XLA clamps or fills an index out of "
        "range, with no error), so fix it before training there. Compare the largest id in the "
        "data with the table's size (resize the embedding after adding tokens) and the labels "
        "with the number of classes.",
        "A linha {line} diz que um índice está fora da tabela que ele lê (“{text}”): quase sempre "
        "um id de token igual ou maior que o tamanho do vocabulário (o tokenizador tem mais "
        "tokens que o embedding do modelo: tokens adicionados, o vocabulário de outro checkpoint) "
        "ou um rótulo igual ou maior que o número de classes. O guia em que me baseio não cobre "
        "isso, e a TPU não é a causa — numa TPU essa busca não é verificada (o XLA limita ou "
        "preenche um índice fora do intervalo, sem erro), então corrija antes de treinar lá. "
        "Compare o maior id dos dados com o tamanho da tabela (redimensione o embedding depois "
        "de adicionar tokens) e os rótulos com o número de classes.",
    ),
    "answer.note_outside.scratch_memory": (
        "Line {line} says one kernel ran out of the TPU core's on-chip scratch memory (“{text}”): "
        "VMEM or SMEM, a few MiB per core, not the HBM that holds the model and the batch. The "
        "guide I answer from does not cover it, and a smaller batch rarely helps. If the kernel is "
        "a Pallas one (flash or splash attention, a kernel of yours), give it smaller blocks "
        "(block_q, block_k…); if it is a fusion XLA made, try the newest release of the framework "
        "and its TPU runtime, and report it with the full log if it still fails.",
        "A linha {line} diz que um kernel esgotou a memória de rascunho no chip do núcleo da TPU "
        "(“{text}”): VMEM ou SMEM, poucos MiB por núcleo, não a HBM que guarda o modelo e o lote. "
        "O guia em que me baseio não cobre isso, e um lote menor raramente resolve. Se o kernel é "
        "do Pallas (flash ou splash attention, um kernel seu), use blocos menores (block_q, "
        "block_k…); se é uma fusão que o XLA criou, experimente a versão mais recente do framework "
        "e do runtime da TPU e, se continuar falhando, reporte com o log completo.",
    ),
    "answer.note_cut": (
        "Your input was long: it was searched by its key lines.",
        "Sua entrada era longa: a busca usou as linhas-chave.",
    ),
    "answer.chosen": ("Walking", "Seguindo"),
    "answer.empty": (
        "That was empty — paste an error or describe the problem.",
        "Veio vazio — cole um erro ou descreva o problema.",
    ),
    # walk
    "walk.title": ("Guided fix", "Correção guiada"),
    "walk.path": ("Your answers", "Suas respostas"),
    "walk.choice_hint": (
        "1–{n} picks (in the empty box) · Tab ↑↓ Enter · F3 back · F4 restart",
        "1–{n} escolhe (com a caixa vazia) · Tab ↑↓ Enter · F3 voltar · F4 recomeçar",
    ),
    "walk.number_hint": (
        "Type the number in the box below and press Enter.",
        "Digite o número na caixa abaixo e tecle Enter.",
    ),
    "walk.number_found": (
        "Your text says {value}: type it, or the right number, in the box below and press Enter.",
        "Seu texto diz {value}: digite esse número, ou o certo, na caixa abaixo e tecle Enter.",
    ),
    "walk.fix": ("Fix", "Correção"),
    "walk.check": ("Check", "Verificação"),
    "walk.missing": (
        "Still to fill in: {names} — press F6 to set them",
        "Ainda a preencher: {names} — tecle F6 para definir",
    ),
    "walk.copy_hint": (
        "F5 copy the selected command (Tab ↑↓ select, c copy) · F7 copy the whole fix as a "
        "script · F6 edit values",
        "F5 copia o comando selecionado (Tab ↑↓ seleciona, c copia) · F7 copia a correção "
        "inteira como script · F6 editar valores",
    ),
    # closing the loop
    "loop.ask": ("Did this fix it?", "Isso resolveu?"),
    "loop.yes": ("Yes — it works now", "Sim — agora funciona"),
    "loop.no": ("No — still failing", "Não — continua falhando"),
    "loop.ask_hint": (
        "1 / 2 in the empty box, or type yes / no",
        "1 / 2 com a caixa vazia, ou digite sim / não",
    ),
    "loop.solved": (
        "Solved — saved in this session. Ask another question any time.",
        "Resolvido — registrado nesta sessão. Pergunte outra coisa quando quiser.",
    ),
    "loop.not_solved": (
        "Not solved yet — try one of these:",
        "Ainda não resolvido — tente uma destas:",
    ),
    "loop.nothing_else": (
        "Nothing else in the knowledge base fits. Describe what you see now, or paste the new "
        "error, and ask again.",
        "Nada mais na base de conhecimento se encaixa. Descreva o que vê agora, ou cole o novo "
        "erro, e pergunte de novo.",
    ),
    "loop.alt_hint": (
        "1–{n} in the empty box · or type yes if it works after all",
        "1–{n} com a caixa vazia · ou digite sim se funcionou afinal",
    ),
    "loop.kind.branch": ("Same problem, other answers", "Mesmo problema, outras respostas"),
    "loop.kind.related": ("Related", "Relacionado"),
    "loop.kind.candidate": ("Other candidate", "Outro candidato"),
    "loop.saved.solved": ("Marked as solved.", "Marcado como resolvido."),
    "loop.saved.not_solved": ("Marked as not solved.", "Marcado como não resolvido."),
    "loop.no_such": (
        "There is no such option (1–{n}).",
        "Não existe essa opção (1–{n}).",
    ),
    "walk.related": ("Related", "Relacionado"),
    "walk.error": (
        "Could not show this fix: {error}",
        "Não foi possível mostrar a correção: {error}",
    ),
    # -- errors (assistant/errors.py): an answer the walk cannot take, a value a command cannot
    # hold. `{value}` is quoted as Python writes it; `{what}` is the name's `value.*` below.
    "error.walk.not_number": ("'{raw}' is not a number", "'{raw}' não é um número"),
    "error.walk.not_finite": ("'{raw}' is not a finite number", "'{raw}' não é um número finito"),
    "error.walk.not_whole": (
        "'{raw}' must be a whole number",
        "'{raw}' deve ser um número inteiro",
    ),
    "error.walk.below": (
        "'{raw}' is below the minimum {limit}",
        "'{raw}' está abaixo do mínimo {limit}",
    ),
    "error.walk.above": (
        "'{raw}' is above the maximum {limit}",
        "'{raw}' está acima do máximo {limit}",
    ),
    "error.walk.no_option": (
        "'{raw}' is not an option here (choose one of: {valid})",
        "'{raw}' não é uma opção aqui (escolha uma de: {valid})",
    ),
    "error.walk.no_branch": (
        "no branch accepts this number",
        "nenhum ramo aceita este número",
    ),
    "error.walk.fix_takes_no_answer": ("a fix takes no answer", "uma correção não recebe resposta"),
    "error.walk.no_open_question": ("there is no open question", "não há pergunta em aberto"),
    "error.walk.no_node": (
        "{entry} has no node {unknown} (nodes: {nodes})",
        "{entry} não tem o nó {unknown} (nós: {nodes})",
    ),
    "error.value.empty": (
        "{name}: an empty or multi-line value is not accepted",
        "{name}: um valor vazio ou de várias linhas não é aceito",
    ),
    "error.value.tilde": (
        "{name}: {value} starts with '~', which stays a literal '~' once quoted for the shell and "
        "is not expanded in Python code either: give the full path (e.g. {example}), or let your "
        'shell expand it: --set {name}="$HOME{rest}"',
        "{name}: {value} começa com '~', que fica um '~' literal quando posto entre aspas para o "
        "shell e também não é expandido em código Python: informe o caminho completo (p. ex. "
        '{example}), ou deixe o shell expandi-lo: --set {name}="$HOME{rest}"',
    ),
    "error.value.invalid": (
        "{name}: {value} is not valid here (expected: {what})",
        "{name}: {value} não é válido aqui (esperado: {what})",
    ),
    "error.value.not_number": (
        "{name}: {value} is not a number",
        "{name}: {value} não é um número",
    ),
    "error.value.too_long": (
        "{name}: a value longer than 256 characters is not accepted",
        "{name}: um valor com mais de 256 caracteres não é aceito",
    ),
    # what each value of a command is (placeholders.KNOWN; the F6 dialog and error.value.invalid)
    "value.tpu_name": ("TPU node or TPU VM name", "nome do nó de TPU ou da VM de TPU"),
    "value.zone": ("Compute zone, e.g. us-central1-b", "zona do Compute, p. ex. us-central1-b"),
    "value.project": ("Google Cloud project id", "ID do projeto do Google Cloud"),
    "value.accelerator_type": ("Accelerator type, e.g. v3-8", "tipo de acelerador, p. ex. v3-8"),
    "value.tpu_generation": ("TPU generation, e.g. v3", "geração da TPU, p. ex. v3"),
    "value.ip": ("IPv4 address", "endereço IPv4"),
    "value.op_name": (
        "Op name, e.g. MatMul or torchvision::nms",
        "nome da operação, p. ex. MatMul ou torchvision::nms",
    ),
    "value.framework": (
        "Framework: tensorflow, jax or pytorch",
        "framework: tensorflow, jax ou pytorch",
    ),
    "value.log_dir": ("A directory path", "caminho de um diretório"),
    "value.session": ("tmux / screen session name", "nome da sessão do tmux / screen"),
    "value.script": ("Training script path", "caminho do script de treino"),
    "value.user_email": (
        "Google account e-mail, e.g. ana@example.com",
        "e-mail da conta Google, p. ex. ana@example.com",
    ),
    "value.service_account": (
        "Service account e-mail, e.g. sa@my-project.iam.gserviceaccount.com",
        "e-mail da conta de serviço, p. ex. sa@my-project.iam.gserviceaccount.com",
    ),
    "value.vm_name": ("Compute Engine VM name", "nome da VM do Compute Engine"),
    "value.framework_version": (
        "Framework release that last worked, e.g. 2.5.1 or 0.4.30",
        "versão do framework que funcionou por último, p. ex. 2.5.1 ou 0.4.30",
    ),
    "value.image": (
        "Container image, e.g. us-central1-docker.pkg.dev/my-project/train/trainer:v3",
        "imagem de contêiner, p. ex. us-central1-docker.pkg.dev/my-project/train/trainer:v3",
    ),
    "value.runtime_version": (
        "TPU software version, e.g. tpu-ubuntu2204-base",
        "versão do software da TPU, p. ex. tpu-ubuntu2204-base",
    ),
    # notifications
    "copied": ("Copied to the clipboard.", "Copiado para a área de transferência."),
    "copied.script": (
        "The whole fix was copied as a shell script.",
        "A correção inteira foi copiada como script de shell.",
    ),
    "copy.sent.script": (
        "The whole fix was copied as a shell script (OSC 52 — if your terminal does not support "
        "it, nothing arrives).",
        "A correção inteira foi copiada como script de shell (OSC 52 — se o terminal não "
        "suportar, nada chega).",
    ),
    "copy.none": ("No command to copy here.", "Não há comando para copiar aqui."),
    "copy.dumb": (
        "This terminal (TERM=dumb) cannot receive the clipboard. Select the command with "
        "the mouse instead.",
        "Este terminal (TERM=dumb) não recebe a área de transferência. Selecione o comando "
        "com o mouse.",
    ),
    "copy.tmux": (
        "Inside tmux the clipboard needs `set -g set-clipboard on` in ~/.tmux.conf. "
        "Sent anyway; if nothing arrives, select the command with the mouse "
        "(Shift+drag).",
        "Dentro do tmux a área de transferência precisa de `set -g set-clipboard on` no "
        "~/.tmux.conf. Enviado mesmo assim; se nada chegar, selecione o comando com o mouse "
        "(Shift+arrastar).",
    ),
    "copy.sent": (
        "Copied (sent to the terminal with OSC 52 — if your terminal does not support "
        "it, nothing arrives).",
        "Copiado (enviado ao terminal via OSC 52 — se o terminal não suportar, nada chega).",
    ),
    "machine.values": (
        "Values from this TPU VM: {values} (F6 changes them; TPU_ASSIST_MACHINE=0 leaves them out)",
        "Valores desta VM de TPU: {values} (F6 os muda; TPU_ASSIST_MACHINE=0 os deixa de fora)",
    ),
    "values.updated": (
        "Values updated — every command now uses them.",
        "Valores atualizados — todos os comandos já os usam.",
    ),
    "lang.switched": ("English", "Português"),
    "lang.followed": (
        "Answering in English (F2 switches)",
        "Respondendo em português (F2 troca o idioma)",
    ),
    "exported": ("Exported to {path}", "Exportado para {path}"),
    "export.failed": ("Could not export: {error}", "Não foi possível exportar: {error}"),
    "export.nothing": (
        "Nothing to export yet — ask a question first.",
        "Nada para exportar ainda — faça uma pergunta primeiro.",
    ),
    "history.saved_failed": (
        "Could not save the session: {error}",
        "Não foi possível salvar a sessão: {error}",
    ),
    "history.reopened": ("Session reopened.", "Sessão reaberta."),
    "history.open_failed": (
        "Could not open that session: {error}",
        "Não foi possível abrir a sessão: {error}",
    ),
    "kb.warning": ("Knowledge: {warning}", "Conhecimento: {warning}"),
    # modals
    "history.title": ("History — past sessions", "Histórico — sessões anteriores"),
    "history.empty": ("No saved sessions yet.", "Nenhuma sessão salva ainda."),
    "history.help": (
        "↑↓ select · Enter open · Esc close",
        "↑↓ selecionar · Enter abrir · Esc fechar",
    ),
    "history.corrupt": ("Set aside (unreadable): {warning}", "Separado (ilegível): {warning}"),
    "export.title": ("Export the session as Markdown", "Exportar a sessão em Markdown"),
    "export.path": ("File", "Arquivo"),
    "export.redact": (
        "Redact project ids, IPs, emails, buckets, home paths",
        "Ocultar ids de projeto, IPs, e-mails, buckets e pastas pessoais",
    ),
    "export.ok": ("Export", "Exportar"),
    "cancel": ("Cancel", "Cancelar"),
    "values.title": ("Values used in the commands", "Valores usados nos comandos"),
    "values.help": (
        "Empty = use what was found in your text. Enter saves, Esc cancels.",
        "Vazio = usar o que foi encontrado no seu texto. Enter salva, Esc cancela.",
    ),
    "values.save": ("Save", "Salvar"),
    "help.title": ("Help", "Ajuda"),
    "help.body": (
        "## How it works\n\n"
        "1. Paste an error or log (it arrives as one message) or describe the problem, then "
        "press **Enter**. The path of a log, a script or a notebook (typed, or dropped on the "
        "terminal) sends the file; a notebook's saved error is what gets answered.\n"
        "2. Read the best match, how confident it is and why. Other candidates are one key away.\n"
        "3. Answer the questions of the guided fix; you get commands and code changes with "
        "your values.\n"
        "4. Say whether it worked: *yes* marks it solved; *no* offers the other fixes, related "
        "entries and candidates.\n\n"
        "Nothing is ever executed: copy a command and run it yourself.\n\n"
        "## Keys\n\n"
        "| key | action |\n|---|---|\n"
        "| Enter | send / answer |\n| Ctrl+J | new line in the message |\n"
        "| Ctrl+U / Ctrl+W | clear the box / delete the word before the cursor |\n"
        "| ↑ ↓ (empty box) | earlier questions of this session |\n"
        "| 1–9 (empty box) | pick an option |\n| Alt+1 … Alt+3 | walk another candidate |\n"
        "| Tab, then ↑↓ Enter | select an option or a command (Tab / Esc: back to typing) |\n"
        "| F3 | back one question |\n| F4 | restart the questions |\n"
        "| F5 (c in the list) | copy the selected command |\n"
        "| F7 | copy the whole fix as a shell script |\n"
        "| F6 | edit values (TPU name, zone, project…) |\n"
        "| F8 | show the whole last message / its key lines only |\n"
        "| PgUp / PgDn, Ctrl+Home / Ctrl+End | scroll the conversation |\n"
        "| F2 | Português / English |\n| Ctrl+O | history |\n| Ctrl+S | export as Markdown |\n"
        "| Ctrl+P | all commands |\n| F1 | this help |\n| Ctrl+Q | quit |\n\n"
        "Risk labels: **read-only** only looks, **changes state** modifies something, "
        "**destructive** deletes or recreates. Sessions are saved in `{data}`.",
        "## Como funciona\n\n"
        "1. Cole um erro ou log (chega como uma só mensagem) ou descreva o problema e tecle "
        "**Enter**. O caminho de um log, um script ou um notebook (digitado, ou arrastado para o "
        "terminal) envia o arquivo; num notebook, o erro salvo é o que se responde.\n"
        "2. Veja a melhor correspondência, a confiança e o porquê. Outros candidatos estão a "
        "uma tecla.\n"
        "3. Responda às perguntas da correção guiada; você recebe comandos e mudanças de "
        "código com os seus valores.\n"
        "4. Diga se funcionou: *sim* marca como resolvido; *não* oferece as outras correções, "
        "entradas relacionadas e candidatos.\n\n"
        "Nada é executado: copie um comando e rode você mesmo.\n\n"
        "## Teclas\n\n"
        "| tecla | ação |\n|---|---|\n"
        "| Enter | enviar / responder |\n| Ctrl+J | nova linha na mensagem |\n"
        "| Ctrl+U / Ctrl+W | limpar a caixa / apagar a palavra antes do cursor |\n"
        "| ↑ ↓ (caixa vazia) | perguntas anteriores desta sessão |\n"
        "| 1–9 (caixa vazia) | escolher uma opção |\n| Alt+1 … Alt+3 | seguir outro candidato |\n"
        "| Tab, depois ↑↓ Enter | selecionar uma opção ou um comando "
        "(Tab / Esc: voltar a digitar) |\n"
        "| F3 | voltar uma pergunta |\n| F4 | recomeçar as perguntas |\n"
        "| F5 (c na lista) | copiar o comando selecionado |\n"
        "| F7 | copiar a correção inteira como script de shell |\n"
        "| F6 | editar valores (nome da TPU, zona, projeto…) |\n"
        "| F8 | mostrar a última mensagem inteira / só as linhas-chave |\n"
        "| PgUp / PgDn, Ctrl+Home / Ctrl+End | rolar a conversa |\n"
        "| F2 | Português / English |\n| Ctrl+O | histórico |\n| Ctrl+S | exportar em Markdown |\n"
        "| Ctrl+P | todos os comandos |\n| F1 | esta ajuda |\n| Ctrl+Q | sair |\n\n"
        "Riscos: **somente leitura** só consulta, **altera o estado** modifica algo, "
        "**destrutivo** apaga ou recria. As sessões ficam em `{data}`.",
    ),
    "close": ("Close", "Fechar"),
    # bindings / commands (key: "key.<action>")
    "key.newline": ("New line", "Nova linha"),
    "key.help": ("Help", "Ajuda"),
    "key.language": ("Português", "English"),
    "key.history": ("History", "Histórico"),
    "key.export": ("Export", "Exportar"),
    "key.back": ("Back", "Voltar"),
    "key.restart": ("Restart", "Recomeçar"),
    "key.copy": ("Copy", "Copiar"),
    "key.script": ("Script", "Script"),
    "key.values": ("Values", "Valores"),
    "key.quit": ("Quit", "Sair"),
    "key.command_palette": ("palette", "comandos"),
    "key.toggle": ("Expand", "Expandir"),
    "cmd.help": ("Show keys and how it works", "Mostrar as teclas e como funciona"),
    "cmd.language": (
        "Switch the language to Português / English",
        "Trocar o idioma para English / Português",
    ),
    "cmd.history": ("Reopen a past session", "Reabrir uma sessão anterior"),
    "cmd.export": (
        "Save this session as a Markdown file",
        "Salvar esta sessão em um arquivo Markdown",
    ),
    "cmd.back": ("Go back one question", "Voltar uma pergunta"),
    "cmd.restart": ("Start the questions again", "Começar as perguntas de novo"),
    "cmd.copy": ("Copy the selected command (OSC 52)", "Copiar o comando selecionado (OSC 52)"),
    "cmd.script": (
        "Copy the whole fix as one commented shell script (OSC 52)",
        "Copiar a correção inteira como um script de shell comentado (OSC 52)",
    ),
    "cmd.values": (
        "Edit TPU name, zone, project and other values",
        "Editar nome da TPU, zona, projeto e outros valores",
    ),
    "cmd.expand": (
        "Show the whole last message / key lines only",
        "Mostrar a última mensagem inteira / só as linhas-chave",
    ),
    "cmd.candidate": ("Walk candidate {n}", "Seguir o candidato {n}"),
    "cmd.new": (
        "Clear the screen and start a new session",
        "Limpar a tela e começar uma nova sessão",
    ),
    "key.new": ("New session", "Nova sessão"),
}


def t(lang: str, key: str, **values: object) -> str:
    """The string `key` in `lang` ("pt", else English), formatted with `values`."""
    en, pt = STRINGS[key]
    return (pt if lang == "pt" else en).format(**values)


def pct(x: float) -> str:
    """A confidence as the person reads it: "87%"; "<1%" and ">99%" rather than a misleading "0%"
    or "100%" (a fitted probability is never certainty either way)."""
    if x < 0.005:
        return "<1%"
    if x >= 0.995:
        return ">99%"
    return f"{round(x * 100):d}%"


def pairs(values: Mapping[str, object], sep: str = ", ") -> str:
    """Values as the person reads them beside an answer or a notice: "zone=us-central1-b, …"."""
    return sep.join(f"{k}={v}" for k, v in values.items())


def locale_lang(environ: Mapping[str, str] | None = None) -> str:
    """'pt' when the locale says Portuguese (LC_ALL, LC_MESSAGES, LANG in that order), else 'en'."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "pt" if value.lower().startswith("pt") else "en"
    return "en"
