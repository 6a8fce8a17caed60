"""`tpu-assist`: the TUI when run bare, and a scriptable CLI (`ask`, `walk`, `check`, `kb …`).

Exit codes: 0 for an answer (including an honest "no confident match"), 2 for a usage or
validation error, 1 for an unexpected failure (reported in one line, never a traceback unless
TPU_ASSIST_DEBUG=1).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from .. import paths
from ..named_file import missing_file, named_file

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad input from the person: message printed, exit 2."""


def _version() -> str:
    """The installed package's version (running from a source tree that was never installed:
    "unknown")."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("tpu-assist")
    except PackageNotFoundError:
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tpu-assist",
        description="Troubleshooting assistant for TensorFlow, JAX and PyTorch on Cloud TPU. "
        "Run without a command to open the interactive assistant.",
    )
    p.add_argument(
        "--kb",
        action="append",
        type=Path,
        default=None,
        metavar="DIR",
        help="a directory of your own knowledge entries (repeatable; default: "
        f"{paths.user_knowledge_dir()})",
    )
    p.add_argument(
        "--lang",
        choices=["en", "pt"],
        default=None,
        help="language of answers (default: from the input or the locale)",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    ask = sub.add_parser("ask", help="find the troubleshooting entries for an error or symptom")
    ask.add_argument(
        "text",
        nargs="?",
        default=None,
        help="the error, log or description, or the path of a log file; '-' or nothing reads "
        "standard input",
    )
    ask.add_argument("--json", action="store_true", help="print one JSON object")
    ask.add_argument(
        "--jsonl",
        action="store_true",
        help="read JSON lines ({query, id?}) from stdin, write one result per line",
    )
    ask.add_argument("--top", type=int, default=5, metavar="K", help="results to show (default 5)")
    ask.add_argument("--lang", choices=["en", "pt"], default=argparse.SUPPRESS)
    ask.add_argument("--kb", action="append", type=Path, default=argparse.SUPPRESS, metavar="DIR")

    walk = sub.add_parser("walk", help="walk an entry's decision tree to a fix")
    walk.add_argument("id", help="entry id, e.g. hbm-oom")
    walk.add_argument(
        "--answer",
        "-a",
        action="append",
        default=[],
        metavar="NODE=VALUE",
        help="answer a question (repeatable)",
    )
    walk.add_argument(
        "--set",
        "-s",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="fill a placeholder, e.g. --set tpu_name=my-tpu (repeatable)",
    )
    walk.add_argument("--json", action="store_true", help="print one JSON object")
    walk.add_argument("--lang", choices=["en", "pt"], default=argparse.SUPPRESS)
    walk.add_argument("--kb", action="append", type=Path, default=argparse.SUPPRESS, metavar="DIR")

    # -- check (issue 14) ----------------------------------------------------------------------
    chk = sub.add_parser(
        "check",
        help="find the Cloud TPU guide's problems in training scripts (never runs them)",
        description="Check Python training scripts for the Cloud TPU guide's problems: "
        "findings as path:line:col: CODE message [entry]. Exit 1 with findings, 0 when clean, "
        "2 on a usage error.",
    )
    chk.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="files (.py, .ipynb) or directories of them; '-' reads stdin",
    )
    chk.add_argument(
        "--format",
        choices=["text", "json", "github"],
        default=None,
        help="text (path:line:col: CODE message, the default), json, or github (GitHub Actions "
        "annotations on the pull request's lines)",
    )
    chk.add_argument("--json", action="store_true", help="the same as --format json")
    chk.add_argument(
        "--select",
        action="append",
        default=[],
        metavar="CODES",
        help="only these codes or prefixes, comma-separated (e.g. TPU1,TPU401)",
    )
    chk.add_argument(
        "--ignore", action="append", default=[], metavar="CODES", help="skip these codes/prefixes"
    )
    chk.add_argument(
        "--walk", action="store_true", help="under each finding, the walk command for its fix"
    )
    chk.add_argument("--rules", action="store_true", help="list the rules and exit")
    chk.add_argument("--lang", choices=["en", "pt"], default=argparse.SUPPRESS)

    hist = sub.add_parser("history", help="saved sessions of the interactive assistant")
    hsub = hist.add_subparsers(dest="history_command", metavar="ACTION")
    hlist = hsub.add_parser("list", help="list saved sessions, newest first")
    hlist.add_argument("--json", action="store_true")
    hexp = hsub.add_parser("export", help="write a session as Markdown")
    hexp.add_argument("session", help="session id (or a unique prefix), or 1 for the newest")
    hexp.add_argument(
        "-o", "--output", type=Path, default=None, help="file to write (default: standard output)"
    )
    hexp.add_argument(
        "--redact",
        action="store_true",
        help="replace project ids, IPs, emails, buckets and home paths",
    )
    hexp.add_argument("--lang", choices=["en", "pt"], default=argparse.SUPPRESS)

    kb = sub.add_parser("kb", help="knowledge base: validate, build, list")
    kbsub = kb.add_subparsers(dest="kb_command", metavar="ACTION")
    val = kbsub.add_parser("validate", help="check knowledge files (schema and lint)")
    val.add_argument(
        "paths", nargs="*", type=Path, help="files or directories (default: the built-in knowledge)"
    )
    val.add_argument("--json", action="store_true")
    build = kbsub.add_parser("build", help="build the search index (if missing or stale)")
    build.add_argument("--force", action="store_true", help="rebuild even if up to date")
    lst = kbsub.add_parser("list", help="list the entries")
    lst.add_argument("--json", action="store_true")
    for sp in (build, lst):
        sp.add_argument(
            "--kb", action="append", type=Path, default=argparse.SUPPRESS, metavar="DIR"
        )
    return p


def _user_dirs(args) -> list[Path]:
    if args.kb:
        for d in args.kb:
            if not d.is_dir():
                raise UsageError(f"--kb {d}: not a directory")
        return list(args.kb)
    return [paths.user_knowledge_dir()]


def _lang(args) -> str | None:
    if args.lang:
        return args.lang
    if os.environ.get("TPU_ASSIST_LANG") in ("en", "pt"):
        return os.environ["TPU_ASSIST_LANG"]
    return None


def _kv(items: list[str], what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"{what} expects NAME=VALUE, got {item!r}")
        out[key.strip()] = value
    return out


def _progress_bar(done: int, total: int) -> None:
    if not total or not sys.stderr.isatty():
        if total and done == 0:
            print(f"building index: embedding {total} chunks…", file=sys.stderr)
        return
    width = 30
    filled = int(width * done / total)
    sys.stderr.write(f"\rbuilding index [{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done >= total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def _engine(args):
    from ..engine import Engine

    engine = Engine(user_dirs=_user_dirs(args))
    for w in engine.kb.warnings:
        print(f"warning: {w}", file=sys.stderr)
    return engine


# -- commands ---------------------------------------------------------------------------------


def cmd_ask(args) -> int:
    from . import output

    if args.top < 1:
        raise UsageError("--top must be at least 1")
    engine = _engine(args)
    engine.index(_progress_bar)
    if args.jsonl:
        return output.ask_jsonl(engine, sys.stdin.buffer, sys.stdout, _lang(args), args.top)
    if args.text is None or args.text == "-":
        if args.text is None and sys.stdin.isatty():
            raise UsageError("give the error text as an argument, or pipe it on standard input")
        raw: str | bytes = sys.stdin.buffer.read()
    elif (path := named_file(args.text)) is not None:
        # `tpu-assist ask train.log`: the log, not the words "train.log"
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise UsageError(f"{args.text}: {exc.strerror or exc}") from None
        if path.suffix == ".ipynb":
            raw = _notebook_errors(raw, args.text)
        elif path.suffix == ".py":
            # searched as asked; the code's own problems are `check`'s to find
            from ..strings import t

            hint = t(_lang(args) or "en", "cli.ask_script", path=args.text)
            print(f"tpu-assist: note: {hint}", file=sys.stderr)
    elif (missing := missing_file(args.text)) is not None:
        # a typo in a log's path: searching the words of its name would answer something
        raise UsageError(
            f"{missing}: no such file (to search these words, pipe them: echo '…' | tpu-assist ask)"
        )
    else:
        raw = args.text
    if not (raw.strip() if isinstance(raw, str) else raw.strip(b" \t\r\n\x00")):
        raise UsageError("the input is empty: paste an error, a log, or describe the problem")
    answer = engine.ask(raw, lang=_lang(args), top_k=args.top, dense_mode="auto")
    if args.json:
        print(json.dumps(answer.to_dict(), ensure_ascii=False))
    else:
        print(output.answer_text(answer, engine.kb))
    return EXIT_OK


def _notebook_errors(data: bytes, name: str) -> str | bytes:
    """What `ask` reads of a notebook: the errors its outputs saved (a failed Colab run,
    downloaded); a file that is no notebook is read as it is."""
    from ..check import notebook

    try:
        errors = notebook.error_text(data)
    except notebook.NotANotebook:
        return data
    if not errors:
        raise UsageError(
            f"{name}: no cell saved an error in its outputs; "
            f"tpu-assist check {name} checks its code"
        )
    return errors


def cmd_walk(args) -> int:
    from ..check.prefill import start_walk
    from ..errors import WalkError
    from ..kb import load_knowledge
    from ..machine import cached_values_here
    from ..placeholders import PlaceholderError, validate_value
    from ..strings import pairs, t
    from . import output

    kb = load_knowledge(user_dirs=_user_dirs(args))
    entry = kb.get(args.id)
    if entry is None:
        raise UsageError(f"no entry '{args.id}' (known: {', '.join(sorted(kb.ids()))})")
    lang = _lang(args) or "en"
    try:
        overrides = {k: validate_value(k, v) for k, v in _kv(args.set, "--set").items()}
        # the TPU VM it runs on names itself, its type, zone and project (under any --set)
        here = {k: v for k, v in cached_values_here().items() if k not in overrides}
        # a --set of a number question's variable also answers it (`--set feature_dim=200`)
        result = start_walk(entry, _kv(args.answer, "--answer"), values=here, overrides=overrides)
        data = result.to_dict(lang)
    except (WalkError, PlaceholderError) as exc:
        raise UsageError(exc.message(lang)) from None
    if here:
        said = pairs(here)
        print(f"tpu-assist: note: {t(lang, 'cli.machine_values', values=said)}", file=sys.stderr)
    if args.json:
        print(json.dumps(data, ensure_ascii=False))
    else:
        print(output.walk_text(data, lang))
    return EXIT_OK


# -- check (issue 14) --------------------------------------------------------------------------


def cmd_check(args) -> int:
    from ..check import (
        REDIRECTS,
        RULES,
        Report,
        Selection,
        SelectionError,
        check_paths,
        check_snippet,
    )
    from ..check import report as creport
    from ..strings import t

    lang = _lang(args) or "en"
    if args.rules:
        for rule in RULES.values():
            print(f"{rule.code}  {rule.entry or '-':22} {rule.summary(lang)}")
            print(f"{'':30}{rule.rationale(lang)}")
        return EXIT_OK
    if not args.paths:
        raise UsageError("give files or directories to check, or - for standard input")
    if args.json and args.format not in (None, "json"):
        raise UsageError(f"--json and --format {args.format} ask for two outputs: choose one")
    fmt = "json" if args.json else args.format or "text"
    try:
        selection = Selection.parse(args.select, args.ignore, RULES, REDIRECTS)
    except SelectionError as exc:
        raise UsageError(f"--select/--ignore: {exc}") from None
    for old, new in selection.remapped:
        print(
            f"tpu-assist: warning: {t(lang, 'check.remapped', old=old, new=new)}", file=sys.stderr
        )
    for p in args.paths:
        if p != "-" and not Path(p).exists():
            raise UsageError(f"{p}: no such file or directory")
    report = Report()
    for p in args.paths:
        if p == "-":
            report.extend(Report(check_snippet(sys.stdin.buffer.read(), "-", selection), 1))
        else:
            report.extend(check_paths([Path(p)], selection))  # many files: worker processes
    if fmt == "json":
        print(creport.as_json(report.findings, lang))
    elif fmt == "github":
        for finding in report.findings:
            print(creport.github_line(finding, lang))
        print(creport.summary(report.findings, report.files, lang))
    else:
        for finding in report.findings:
            print(creport.text_line(finding, lang))
            if args.walk and (command := finding.walk_command()):
                print(f"    {command}")
        print(creport.summary(report.findings, report.files, lang))
    return EXIT_FAIL if report.findings else EXIT_OK


def cmd_kb(args) -> int:
    from . import output

    if args.kb_command == "validate":
        from ..kb import load_knowledge, validate

        targets = args.paths or [paths.builtin_knowledge_dir()]
        for t in targets:
            if not t.exists():
                raise UsageError(f"{t}: no such file or directory")
        builtin = load_knowledge(user_dirs=[])
        result, problems = validate(targets, known_ids=set(builtin.ids()))
        if args.json:
            print(
                json.dumps(
                    {"entries": len(result.entries), "problems": [p.to_dict() for p in problems]}
                )
            )
        else:
            for p in problems:
                print(p)
            print(
                f"{len(result.entries)} entries checked, {len(problems)} problem(s)",
                file=sys.stderr,
            )
        return EXIT_USAGE if problems else EXIT_OK
    if args.kb_command == "build":
        from .. import store

        engine = _engine(args)
        if args.force:
            report = store.build(engine.index_root, engine.kb, engine.embedder, _progress_bar)
        else:
            engine.index(_progress_bar)
            report = engine.last_build
        if report is None:
            print(f"index is up to date: {engine.index_root}")
        else:
            print(
                f"built {report.path} ({report.chunks} chunks, {report.embedded} embedded, "
                f"{report.seconds:.1f}s)"
            )
        return EXIT_OK
    if args.kb_command == "list":
        from ..kb import load_knowledge

        kb = load_knowledge(user_dirs=_user_dirs(args))
        for w in kb.warnings:
            print(f"warning: {w}", file=sys.stderr)
        if args.json:
            print(json.dumps(output.kb_list(kb), ensure_ascii=False))
        else:
            for le in kb.entries:
                mark = " (yours)" if le.source == "user" else ""
                print(f"{le.entry.id:28} {le.entry.title.en}{mark}")
        return EXIT_OK
    raise UsageError("kb needs an action: validate, build or list")


def cmd_history(args) -> int:
    from .. import export, history

    sessions, warnings = history.list_sessions()
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    if args.history_command == "list":
        from ..strings import t

        lang = _lang(args) or "en"
        if args.json:
            rows = []
            for s in sessions:
                main_turn = s.main_turn()
                rows.append(
                    {
                        "id": s.id,
                        "name": s.name(lang),
                        "title": s.title,
                        "entry": main_turn.entry_id if main_turn else None,
                        "entry_title": main_turn.entry_title(lang) if main_turn else "",
                        "key_line": main_turn.key_line() if main_turn else "",
                        "outcome": s.outcome or None,
                        "created": s.created,
                        "updated": s.updated,
                        "turns": len(s.turns),
                    }
                )
            print(json.dumps(rows, ensure_ascii=False))
        else:
            for n, s in enumerate(sessions, start=1):
                status = t(lang, f"outcome.{s.outcome or 'open'}")
                when = s.updated[:16].replace("T", " ")
                print(f"{n:3}. {s.id}  {when}  {status:<13}  {s.name(lang)}")
        return EXIT_OK
    if args.history_command == "export":
        key = args.session
        if key.isdigit() and 0 < int(key) <= len(sessions):
            chosen = [sessions[int(key) - 1]]
        else:
            chosen = [s for s in sessions if s.id.startswith(key)]
        if len(chosen) != 1:
            raise UsageError(
                f"{'no' if not chosen else 'more than one'} session matches {key!r} "
                "(see: tpu-assist history list)"
            )
        lang = _lang(args) or chosen[0].lang or "en"
        if args.output:
            path = export.export_session(chosen[0], args.output, lang, redact=args.redact)
            print(f"wrote {path}")
        else:
            sys.stdout.write(export.session_markdown(chosen[0], lang, redact=args.redact))
        return EXIT_OK
    raise UsageError("history needs an action: list or export")


def one_blas_thread() -> None:
    """NumPy's OpenBLAS starts a thread per core when numpy is imported, and those threads spin
    for a while: ~0.1 s of CPU per run on this 2-core machine, taken from the answer. Nothing
    tpu-assist runs uses NumPy's BLAS (the model runs in onnxruntime or torch, each with its own
    threads; FAISS has its own BLAS), so one thread. Only before numpy is imported, and never
    over the person's own setting."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> int:
    one_blas_thread()
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            return _run_tui(args, parser)
        handler = {
            "ask": cmd_ask,
            "walk": cmd_walk,
            "kb": cmd_kb,
            "history": cmd_history,
            "check": cmd_check,
        }[args.command]
        return handler(args)
    except UsageError as exc:
        print(f"tpu-assist: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:  # last resort: one clear line, never a traceback
        if os.environ.get("TPU_ASSIST_DEBUG"):
            raise
        print(
            f"tpu-assist: unexpected error: {type(exc).__name__}: {exc} "
            "(set TPU_ASSIST_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return EXIT_FAIL


def _run_tui(args, parser) -> int:
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        parser.print_usage(sys.stderr)
        raise UsageError(
            "the interactive assistant needs a terminal; to read from a pipe use: tpu-assist ask -"
        )
    from .terminal import enter_stays_enter, typed_ahead

    with enter_stays_enter():  # before the slow imports: keys typed meanwhile keep their meaning
        from ..tui.app import run

        # Lines typed before Python even ran, taken just before Textual reads the terminal.
        return run(lang=_lang(args), user_dirs=_user_dirs(args), typed_ahead=typed_ahead())
