"""User-facing strings of the core, in English and Brazilian Portuguese: one catalogue, looked up
by key (`t(lang, key, **values)`). No textual import: the CLI, the TUI and the engine's
explanations all read it."""

from __future__ import annotations

LANGS = ("en", "pt")

STRINGS: dict[str, tuple[str, str]] = {
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
    "check.TPU104": (
        "`.item()` in the PyTorch/XLA training loop: each call waits for the TPU and copies to "
        "the host",
        "`.item()` no laço de treino do PyTorch/XLA: cada chamada espera a TPU e copia para o host",
    ),
    "check.TPU104.summary": (
        "`.item()` inside a PyTorch/XLA training loop",
        "`.item()` dentro de um laço de treino do PyTorch/XLA",
    ),
    "check.TPU104.why": (
        "Reading a value forces the lazy XLA graph to run mid-step; log with "
        "`xm.add_step_closure` instead.",
        "Ler um valor força o grafo XLA preguiçoso a rodar no meio do passo; registre com "
        "`xm.add_step_closure`.",
    ),
    "check.TPU105": (
        "`print({name})` in the PyTorch/XLA training loop: printing a tensor copies it to the "
        "host and cuts the graph",
        "`print({name})` no laço de treino do PyTorch/XLA: imprimir um tensor o copia para o "
        "host e corta o grafo",
    ),
    "check.TPU105.summary": (
        "`print(tensor)` inside a PyTorch/XLA training loop",
        "`print(tensor)` dentro de um laço de treino do PyTorch/XLA",
    ),
    "check.TPU105.why": (
        "Printing a tensor materializes it on the host every step.",
        "Imprimir um tensor o materializa no host a cada passo.",
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
        "a hidden `Dense` / `Conv` / `nn.Linear` width that is not a multiple of 128 (input and "
        "output layers excepted)",
        "uma largura oculta de `Dense` / `Conv` / `nn.Linear` que não é múltiplo de 128 (exceto "
        "camadas de entrada e saída)",
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
        "a hidden layer narrower than 128 (input and output layers excepted)",
        "uma camada oculta mais estreita que 128 (exceto camadas de entrada e saída)",
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
    "why.profile": (
        "profile figures (line {line}): {text}",
        "números do perfil (linha {line}): {text}",
    ),
    "why.signature": (
        "signature '{id}' matched line {line}: {text}",
        "assinatura '{id}' na linha {line}: {text}",
    ),
    "why.exclude": (
        "but line {line} points elsewhere: {text}",
        "mas a linha {line} indica outro problema: {text}",
    ),
    "why.lookalike": (
        'but it reads even more like a known look-alike: "{text}" (similarity {cos:.2f})',
        'mas lembra ainda mais um caso parecido que é outro problema: "{text}" '
        "(similaridade {cos:.2f})",
    ),
    "why.lines": (" (lines {lines})", " (linhas {lines})"),
    "why.words": ("shared words: {words}{where}", "palavras em comum: {words}{where}"),
    "why.similar": (
        'similar to "{text}" (similarity {cos:.2f})',
        'semelhante a "{text}" (similaridade {cos:.2f})',
    ),
    "why.context.device": (
        "context: the input is about another device ({what}) and shows no TPU — confidence lowered",
        "contexto: a entrada fala de outro dispositivo ({what}) e de nenhuma TPU — "
        "confiança reduzida",
    ),
    "why.context.service": (
        "context: the input is about another service or a plain VM ({what}) and shows no TPU — "
        "confidence lowered",
        "contexto: a entrada fala de outro serviço ou de uma VM comum ({what}) e de nenhuma "
        "TPU — confiança reduzida",
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
    "risk.read-only": ("read-only", "somente leitura"),
    "risk.changes-state": ("changes state", "altera o estado"),
    "risk.destructive": (
        "DESTRUCTIVE — deletes or recreates something",
        "DESTRUTIVO — apaga ou recria algo",
    ),
    # outcomes of a fix ("did this fix it?"), in history lists and exports
    "outcome.solved": ("solved", "resolvido"),
    "outcome.not_solved": ("not solved", "não resolvido"),
    "outcome.open": ("open", "em aberto"),
}


def t(lang: str, key: str, **values: object) -> str:
    """The string `key` in `lang` ("pt", else English), formatted with `values`."""
    en, pt = STRINGS[key]
    return (pt if lang == "pt" else en).format(**values)
