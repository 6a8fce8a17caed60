"""A finding opens its entry's walk pre-answered: its values are named like the tree's variables
(or placeholders the entry uses), `walk --set`/`--answer` accept them, and a `--set` of a number
question's variable answers that question."""

from __future__ import annotations

import json
import shlex

import pytest

from assistant.check import Selection, check_source
from assistant.check.prefill import number_answers, start_walk
from assistant.cli.main import main
from assistant.kb.schema import ChoiceNode, NumberNode
from assistant.placeholders import placeholders_in

from .markers import fixture_files


def _findings():
    out = []
    for path in fixture_files():
        sel = Selection(select=(path.parent.name,))
        out += [f for f in check_source(path.read_text(), str(path), sel) if f.entry]
    return out


FINDINGS = _findings()


def _entry_texts(entry) -> str:
    return entry.model_dump_json()


def test_there_are_findings_for_every_entry_named():
    from assistant.check import RULES

    assert len(FINDINGS) > 40
    assert {f.entry for f in FINDINGS} == {r.entry for r in RULES.values() if r.entry}


@pytest.mark.parametrize("finding", FINDINGS, ids=lambda f: f"{f.code}:{f.line}")
def test_values_and_answers_are_the_entrys_own_names(kb, finding):
    entry = kb.get(finding.entry)
    assert entry is not None
    nodes = entry.tree.nodes
    variables = {n.variable for n in nodes.values() if isinstance(n, NumberNode)}
    used = set(placeholders_in(_entry_texts(entry)))
    for name in finding.values:
        assert name in variables or name in used, f"{finding.code}: {name} means nothing here"
    for node_id, value in finding.answers.items():
        node = nodes.get(node_id)
        assert isinstance(node, ChoiceNode), f"{finding.code}: {node_id} is not a choice"
        assert value in {o.value for o in node.options}


@pytest.mark.parametrize("finding", FINDINGS, ids=lambda f: f"{f.code}:{f.line}")
def test_the_walk_starts_pre_answered(kb, finding):
    entry = kb.get(finding.entry)
    w = start_walk(entry, found=dict(finding.values), found_answers=dict(finding.answers))
    answered = dict(w.path)
    for node_id, value in finding.answers.items():
        if any(n == node_id for n, _ in w.path) or w.node_id != node_id:
            assert answered.get(node_id, value) == value
    for node_id in number_answers(entry, finding.values):
        if node_id in answered:
            var = entry.tree.nodes[node_id].variable
            assert answered[node_id] == finding.values[var]
    assert not w.unused


@pytest.mark.parametrize("finding", FINDINGS[::5], ids=lambda f: f"{f.code}:{f.line}")
def test_the_printed_walk_command_runs(capsys, finding):
    args = shlex.split(finding.walk_command())[1:]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["entry"] == finding.entry
    for k, v in finding.values.items():
        assert data["values"][k] == v


def test_set_of_a_number_variable_answers_its_question(capsys):
    tpu = ["-s", "accelerator_type=v3-8"]  # answers the generation question
    assert main(["walk", "tensor-padding", *tpu, "--set", "feature_dim=200", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["node"] == "batch" and first["path"] == [["generation", "v3"]]  # still asked
    args = ["walk", "tensor-padding", *tpu, "-s", "batch_size=64", "-s", "feature_dim=200"]
    assert main([*args, "--json"]) == 0
    fix = json.loads(capsys.readouterr().out)
    assert fix["path"] == [["generation", "v3"], ["batch", "64"], ["feature", "200"]]
    assert fix["node"] == "fix-feature"
    assert any("200 is stored padded to 256" in a for a in fix["advice"])
    assert "unused_answers" not in fix


def test_explicit_answer_wins_over_a_set_value(capsys):
    assert (
        main(
            [
                "walk",
                "tensor-padding",
                "-a",
                "generation=v3",
                "-a",
                "batch=128",
                "-s",
                "batch_size=100",
                "--json",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert dict(map(tuple, data["path"]))["batch"] == "128"


def test_a_set_value_out_of_bounds_is_left_to_ask(kb):
    entry = kb.get("small-batch")
    assert number_answers(entry, {"batch_size": "0"}) == {}
    assert number_answers(entry, {"batch_size": "100"}) == {"batch": "100"}


def test_small_layers_from_a_finding(capsys):
    args = ["walk", "small-layers", "--answer", "layer-kind=dense", "--set", "layer_units=64"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == "fix" and data["node"] == "widen-dense"
    assert data["path"] == [["layer-kind", "dense"], ["dense-width", "64"]]
