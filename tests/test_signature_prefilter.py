"""The signature channel's shortcuts are exact: the literal prefilter never skips a pattern that
matches, the per-pattern path and the RE2-Set path find the same hits, and the knowledge cache
gives the same entries as the YAML files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.evaluation import load_fixtures
from assistant.kb import cache, load_knowledge
from assistant.kb.loader import load_paths
from assistant.kb.patterns import SignatureError, compile_pattern, required_literals
from assistant.retrieval import signatures

ROOT = Path(__file__).resolve().parent.parent
MATCHES, NEAR = load_fixtures(ROOT / "tests" / "fixtures" / "kb")
TEXTS = [q.query for q in [*MATCHES, *NEAR]]
EVAL = ROOT.parent / "shared" / "eval"
for name in ("real_queries.jsonl", "dev_queries.jsonl"):
    if (EVAL / name).is_file():
        TEXTS += [json.loads(line)["query"] for line in (EVAL / name).open() if line.strip()]


def _sigs(kb):
    return [
        s for le in kb.entries for f in ("signatures", "excludes") for s in getattr(le.entry, f)
    ]


def test_required_literals_reads_regexes_conservatively():
    r = required_literals
    assert r("literal", "Ran out of memory") == ("ran out of memory",)
    assert r("regex", r"permission denied \(publickey[^)]*\)[\s\S]{0,800}?tpus\.tpu-vm\.ssh") == (
        "permission denied (publickey",
        "tpus.tpu-vm.ssh",
    )
    assert r("regex", r"(?i)Resource ?exhausted") == ("resource", "exhausted")
    assert r("regex", r"abcd?efg") == ("abc", "efg")  # the optional d is left out
    assert r("regex", r"a{2}bcd") == ("bcd",)
    assert r("regex", r"KeyboardInterrupt.*tpu|tpu.*KeyboardInterrupt") == ()  # alternation
    assert r("regex", r"(?x) a b c d") == ()  # verbose: spaces are not literal
    assert r("regex", r"(?P<name>[a-z]+) failed to (?:start|stop) now") == (" failed to ", " now")
    assert r("regex", r"[]|x]tail|") == ()
    assert r("regex", r"\bError\b: \w+ not\.found") == ("error", " not.found")


def test_every_knowledge_pattern_that_matches_a_text_holds_its_literals(kb):
    checked = 0
    for sig in _sigs(kb):
        rx = compile_pattern(sig.kind, sig.pattern, sig.ignore_case)
        needles = required_literals(sig.kind, sig.pattern)
        for text in TEXTS:
            if rx.search(text):
                checked += 1
                folded = text.casefold()
                assert all(n in folded for n in needles), (sig.id, needles)
    assert checked > 100


_ATOMS = st.sampled_from(
    ["a", "b", "A", "ß", "K", ".", r"\.", r"\s", r"\d", "[ab]", "[^a]", "(a|b)", "(?:ab)", "x"]
)
_QUANT = st.sampled_from(["", "", "", "?", "*", "+", "{2}", "{0,3}", "{1,2}?"])
_PIECES = st.lists(st.tuples(_ATOMS, _QUANT).map("".join), min_size=1, max_size=8).map("".join)
_PATTERNS = st.one_of(_PIECES, st.tuples(_PIECES, _PIECES).map("|".join))
_TEXT = st.text(alphabet="abABxßKk. 1\n", max_size=30)


@settings(max_examples=400, deadline=None)
@given(pattern=_PATTERNS, texts=st.lists(_TEXT, min_size=1, max_size=6), ignore_case=st.booleans())
def test_prefilter_never_skips_a_match(pattern, texts, ignore_case):
    try:
        rx = compile_pattern("regex", pattern, ignore_case)
    except SignatureError:
        return
    needles = required_literals("regex", pattern)
    for text in texts:
        if rx.search(text):
            folded = text.casefold()
            assert all(n in folded for n in needles), (pattern, text, needles)


@pytest.mark.parametrize("budget", [0, 10**12])  # always the Sets / never the Sets
def test_set_path_and_per_pattern_path_find_the_same_hits(kb, monkeypatch, budget):
    texts = [text.splitlines() or [""] for text in TEXTS[:400]]
    reference = [signatures.SignatureMatcher(kb.entries).match(lines) for lines in texts]
    monkeypatch.setattr(signatures, "PER_PATTERN_BUDGET", budget)
    matcher = signatures.SignatureMatcher(kb.entries)
    assert [matcher.match(lines) for lines in texts] == reference


def test_a_warmed_up_matcher_uses_its_sets_and_finds_the_same_hits(kb, monkeypatch):
    texts = [text.splitlines() or [""] for text in TEXTS[:400]]
    reference = [signatures.SignatureMatcher(kb.entries).match(lines) for lines in texts]
    monkeypatch.setattr(signatures, "PER_PATTERN_BUDGET", 10**12)  # the one-shot choice
    matcher = signatures.SignatureMatcher(kb.entries)
    matcher.groups()  # as Engine.warm_up does
    assert any(reference)
    for i, (_, sig, _) in enumerate(matcher.items):  # the literal test would now find nothing
        matcher.items[i] = (matcher.items[i][0], sig, ("\x00never",))
    assert [matcher.match(lines) for lines in texts] == reference


def test_the_sets_are_published_only_once_all_are_compiled(kb, monkeypatch):
    """The TUI compiles the Sets in a worker while a search may run: until the last Set is
    compiled, `match` must see none of them (and take the literal path), never a part."""
    monkeypatch.setattr(signatures, "SET_SIZE", 4)  # several Sets even for this knowledge base
    matcher = signatures.SignatureMatcher(kb.entries)
    compile_set = signatures._compile_set
    seen: list[object] = []

    def spying(items):
        seen.append(matcher._groups)
        return compile_set(items)

    monkeypatch.setattr(signatures, "_compile_set", spying)
    groups = matcher.groups()
    assert len(seen) == len(groups) > 1
    assert seen == [None] * len(seen)


def test_a_pattern_re2_refuses_is_skipped_on_both_paths(kb, monkeypatch):
    from assistant.kb.schema import Signature

    entry = kb.entries[0].entry.model_copy(
        update={"signatures": [Signature(id="bad", kind="regex", pattern="(abc", weight=0.9)]}
    )
    for budget in (0, 10**12):
        monkeypatch.setattr(signatures, "PER_PATTERN_BUDGET", budget)
        assert signatures.SignatureMatcher([entry]).match(["(abc b"]) == []


# -- the knowledge cache --------------------------------------------------------------------------


def _copy_kb(tmp_path: Path) -> Path:
    src = ROOT / "knowledge"
    dst = tmp_path / "knowledge"
    dst.mkdir()
    for f in src.glob("*.yaml"):
        (dst / f.name).write_bytes(f.read_bytes())
    return dst


def test_cache_gives_the_same_entries_and_follows_every_edit(tmp_path, monkeypatch):
    kb_dir = _copy_kb(tmp_path)
    monkeypatch.setenv("TPU_ASSIST_INDEX_DIR", str(tmp_path / "index"))
    cache_file = tmp_path / "index" / cache.NAME
    fresh = load_knowledge(builtin=kb_dir, user_dirs=[])
    assert cache_file.is_file()
    cached = cache.read(kb_dir, cache_file)
    assert cached is not None
    entries, warnings = cached
    assert [le.entry for le in entries] == [le.entry for le in fresh.entries]
    assert [le.digest for le in entries] == [le.digest for le in fresh.entries]
    assert warnings == fresh.warnings
    again = load_knowledge(builtin=kb_dir, user_dirs=[])
    assert again.content_hash() == fresh.content_hash()
    # an edit of one entry is a miss: the new text is served, and cached anew
    f = kb_dir / "hbm-oom.yaml"
    f.write_text(f.read_text().replace("id: hbm-oom", "id: hbm-oom\n# edited", 1))
    assert cache.read(kb_dir, cache_file) is None
    edited = load_knowledge(builtin=kb_dir, user_dirs=[])
    assert edited.content_hash() != fresh.content_hash()
    assert edited.content_hash() == load_paths_hash(kb_dir)
    assert cache.read(kb_dir, cache_file) is not None


def load_paths_hash(kb_dir: Path) -> str:
    from assistant.kb import KnowledgeBase

    return KnowledgeBase(load_paths([kb_dir]).entries).content_hash()


@pytest.mark.parametrize(
    "damage", [b"", b"{not json", b'{"key": 1}', b"[]", None]
)  # None: right key, broken entries
def test_a_damaged_cache_is_ignored_and_rewritten(tmp_path, monkeypatch, damage):
    kb_dir = _copy_kb(tmp_path)
    monkeypatch.setenv("TPU_ASSIST_INDEX_DIR", str(tmp_path / "index"))
    cache_file = tmp_path / "index" / cache.NAME
    good = load_knowledge(builtin=kb_dir, user_dirs=[])
    if damage is None:
        data = json.loads(cache_file.read_text())
        data["entries"][0]["entry"] = {"id": 5}
        cache_file.write_text(json.dumps(data))
    else:
        cache_file.write_bytes(damage)
    assert cache.read(kb_dir, cache_file) is None
    again = load_knowledge(builtin=kb_dir, user_dirs=[])
    assert again.content_hash() == good.content_hash()
    assert cache.read(kb_dir, cache_file) is not None


def test_a_broken_builtin_file_is_never_cached(tmp_path, monkeypatch):
    kb_dir = _copy_kb(tmp_path)
    (kb_dir / "zz-broken.yaml").write_text("id: [unclosed\n")
    monkeypatch.setenv("TPU_ASSIST_INDEX_DIR", str(tmp_path / "index"))
    kb = load_knowledge(builtin=kb_dir, user_dirs=[])
    assert any("zz-broken" in w for w in kb.warnings)
    assert not (tmp_path / "index" / cache.NAME).exists()
