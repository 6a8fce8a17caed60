"""Every word the TUI shows, in English and Brazilian Portuguese. No textual import here."""

from __future__ import annotations

import os
from collections.abc import Mapping

LANGS = ("en", "pt")

STRINGS: dict[str, tuple[str, str]] = {
    # status bar
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
    "risk.read-only": ("read-only", "somente leitura"),
    "risk.changes-state": ("changes state", "altera o estado"),
    "risk.destructive": ("destructive", "destrutivo"),
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
    "values.updated": (
        "Values updated — every command now uses them.",
        "Valores atualizados — todos os comandos já os usam.",
    ),
    "lang.switched": ("English", "Português"),
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
    "history.solved": ("solved", "resolvido"),
    "history.not_solved": ("not solved", "não resolvido"),
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
        "press **Enter**.\n"
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
        "**Enter**.\n"
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
    "key.send": ("Send", "Enviar"),
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
    "key.prompt": ("Message box", "Caixa de mensagem"),
    "key.candidate": ("Candidate {n}", "Candidato {n}"),
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


def t(lang: str, key: str, **kw) -> str:
    pair = STRINGS[key]
    text = pair[1] if lang == "pt" else pair[0]
    return text.format(**kw) if kw else text


def locale_lang(environ: Mapping[str, str] | None = None) -> str:
    """'pt' when the locale says Portuguese (LC_ALL, LC_MESSAGES, LANG in that order), else 'en'."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "pt" if value.lower().startswith("pt") else "en"
    return "en"


def pct(x: float) -> str:
    return "<1%" if x < 0.005 else f"{round(x * 100):d}%"
