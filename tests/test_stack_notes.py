"""Stack notes: what a TensorFlow-worded entry means on JAX and PyTorch/XLA. Read with the
explanation, listed by `kb list --json`, never searched."""

from __future__ import annotations

from assistant.retrieval.chunks import entry_chunks, entry_full_text, lexical_document
from assistant.text.markdown import plain


def _with_notes(kb):
    entries = [le.entry for le in kb.entries if le.entry.stack_notes]
    assert entries, "no entry has stack notes"
    return entries


def test_stack_notes_are_read_after_the_explanation(kb):
    for entry in _with_notes(kb):
        for lang in ("en", "pt"):
            reading = entry.reading(lang)
            assert reading.startswith(entry.explanation.get(lang).rstrip())
            assert reading.endswith(entry.stack_notes.get(lang))


def test_stack_notes_are_never_searched(kb):
    for entry in _with_notes(kb):
        document = lexical_document(entry)
        chunks = [c.text for c in entry_chunks(entry)]
        for lang in ("en", "pt"):
            notes = plain(entry.stack_notes.get(lang))
            assert notes not in document
            assert not any(notes[:80] in c for c in chunks)
            assert notes in entry_full_text(entry)


def test_an_entry_without_notes_reads_its_explanation(kb):
    entry = next(le.entry for le in kb.entries if le.entry.stack_notes is None)
    assert entry.reading("pt") == entry.explanation.get("pt")


def test_every_tensorflow_worded_entry_speaks_to_the_other_stacks(kb):
    """The knowledge base's own entries: each TensorFlow-worded explanation names JAX and
    PyTorch/XLA in it or in its notes (lint E046 keeps it so)."""
    for le in kb.entries:
        entry = le.entry
        for lang in ("en", "pt"):
            text = entry.reading(lang).lower()
            if "tensorflow" in entry.explanation.get(lang).lower():
                assert "jax" in text and ("pytorch" in text or "torch_xla" in text), entry.id
