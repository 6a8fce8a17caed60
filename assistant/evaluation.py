"""Labelled queries, the two single-channel baselines and the answer-quality metrics (used by
scripts/eval.py, scripts/calibrate.py and the quality tests)."""

from __future__ import annotations

import bisect
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

if TYPE_CHECKING:
    from .engine import Engine
    from .retrieval.fusion import Evidence

OOS = "out-of-scope"


@dataclass(frozen=True)
class Query:
    id: str
    query: str
    topic: str  # an entry id, or "out-of-scope"
    kind: str = "?"
    lang: str = "?"
    not_topic: str | None = None  # near misses: the entry this must NOT be
    also: tuple[str, ...] = ()  # other entries that are also right (`also: <id>` in the note)

    @property
    def right(self) -> tuple[str, ...]:
        return (self.topic, *self.also)


# "also:" at the start of a sentence is "Also:"; entry ids are lower case
_ALSO = re.compile(
    r"\b[Aa]lso:\s*([a-z0-9]+(?:-[a-z0-9]+)*(?:\s*(?:,|and|/)\s*[a-z0-9]+(?:-[a-z0-9]+)*)*)"
)


def also_ids(note: str | None) -> tuple[str, ...]:
    """Entry ids named by `also: <id>` (or `also: <id>, <id>`) in a query's note."""
    out: list[str] = []
    for m in _ALSO.finditer(note or ""):
        out += [t for t in re.split(r"\s*(?:,|and|/)\s*", m.group(1)) if "-" in t]
    return tuple(dict.fromkeys(out))


def load_jsonl(path: Path) -> list[Query]:
    out: list[Query] = []
    for n, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        d = json.loads(line)
        out.append(
            Query(
                str(d.get("id", n)),
                d["query"],
                d["topic"],
                d.get("kind", "?"),
                d.get("lang", "?"),
                also=also_ids(d.get("note")),
            )
        )
    return out


def load_fixtures(directory: Path) -> tuple[list[Query], list[Query]]:
    """(matches, near misses) from tests/fixtures/kb/<id>.yaml and out_of_scope.yaml."""
    matches: list[Query] = []
    near: list[Query] = []
    for f in sorted(Path(directory).glob("*.yaml")):
        data = yaml.safe_load(f.read_text())
        if f.stem == "out_of_scope":
            for i, item in enumerate(data.get("queries", [])):
                matches.append(
                    Query(
                        f"oos-{i}",
                        item["text"],
                        OOS,
                        item.get("kind", "error"),
                        item.get("lang", "en"),
                    )
                )
            continue
        entry = data["entry"]
        for i, item in enumerate(data.get("match", [])):
            matches.append(
                Query(
                    f"{entry}-m{i}",
                    item["text"],
                    entry,
                    item.get("kind", "?"),
                    item.get("lang", "?"),
                )
            )
        for i, item in enumerate(data.get("near_miss", [])):
            near.append(
                Query(
                    f"{entry}-n{i}",
                    item["text"],
                    item.get("expect", OOS),
                    item.get("kind", "?"),
                    item.get("lang", "?"),
                    not_topic=entry,
                )
            )
    return matches, near


@dataclass
class Outcome:
    query: Query
    ranked: list[str]
    abstained: bool
    confidence: float

    @property
    def rank(self) -> int | None:
        """Rank of the first right entry (the topic, or an `also` entry), None when absent."""
        ranks = [self.ranked.index(t) + 1 for t in self.query.right if t in self.ranked]
        return min(ranks) if ranks else None


@dataclass
class Metrics:
    n_in: int = 0
    n_oos: int = 0
    hit1: float = 0.0  # the first answer right and given: abstaining counts as a miss
    hit3: float = 0.0  # a right entry in the top 3 of a given answer
    mrr: float = 0.0  # mean reciprocal rank of the right entry, 0 for an abstention
    hit1_ranking: float = 0.0  # the right entry ranked first, whether or not the answer was given
    false_abstention: float = 0.0
    oos_abstention: float = 0.0
    breakdown: dict = field(default_factory=dict)
    misses: list[dict] = field(default_factory=list)
    confusion: dict = field(default_factory=dict)  # {"want -> got": count} for wrong first answers
    # How far the first answer's confidence can be trusted (`confidence_quality`): its AUC, and
    # for each band of given answers how many were right
    confidence: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return self.__dict__


def _core(outcomes: list[Outcome]) -> dict:
    ins = [o for o in outcomes if o.query.topic != OOS]
    oos = [o for o in outcomes if o.query.topic == OOS]
    d: dict[str, float] = {"n_in": len(ins), "n_oos": len(oos)}
    if ins:
        # An abstention is a miss for hit@k and MRR (the person got no answer); `hit1_ranking`
        # is the ranking's own quality, abstention aside. Baselines never abstain.
        given = [o for o in ins if not o.abstained]
        d["hit1"] = sum(o.rank == 1 for o in given) / len(ins)
        d["hit3"] = sum(o.rank is not None and o.rank <= 3 for o in given) / len(ins)
        d["mrr"] = sum(1 / o.rank for o in given if o.rank) / len(ins)
        d["hit1_ranking"] = sum(o.rank == 1 for o in ins) / len(ins)
        d["false_abstention"] = sum(o.abstained for o in ins) / len(ins)
    if oos:
        d["oos_abstention"] = sum(o.abstained for o in oos) / len(oos)
    return d


def metrics(outcomes: list[Outcome]) -> Metrics:
    m = Metrics(**_core(outcomes))
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        groups[f"lang={o.query.lang}"].append(o)
        groups[f"kind={o.query.kind}"].append(o)
    m.breakdown = {k: _core(v) for k, v in sorted(groups.items())}
    for o in outcomes:
        wrong = (o.query.topic == OOS and not o.abstained) or (
            o.query.topic != OOS and (o.rank != 1 or o.abstained)
        )
        if wrong:
            m.misses.append(
                {
                    "id": o.query.id,
                    "topic": o.query.topic,
                    "got": o.ranked[:3],
                    "abstained": o.abstained,
                    "confidence": round(o.confidence, 3),
                    "kind": o.query.kind,
                    "query": o.query.query[:120],
                }
            )
    pairs: Counter[str] = Counter()
    for o in outcomes:
        got = "(abstained)" if o.abstained or not o.ranked else o.ranked[0]
        if got not in o.query.right and not (o.query.topic == OOS and got == "(abstained)"):
            pairs[f"{o.query.topic} -> {got}"] += 1
    m.confusion = dict(pairs.most_common())
    if any(o.confidence for o in outcomes):  # the baselines give none
        m.confidence = confidence_quality(outcomes)
    return m


# The bands of `confidence_quality`, from the abstention threshold up: [0.5, 0.6) … [0.9, 1.0].
CONFIDENCE_BANDS = (0.5, 0.6, 0.7, 0.8, 0.9)


def _first_right(o: Outcome) -> bool:
    return o.query.topic != OOS and o.rank == 1


def confidence_quality(outcomes: list[Outcome]) -> dict:
    """Whether the first answer's confidence can be trusted on these inputs: `auc`, the chance
    that a right first answer (in scope, a right entry first, given or refused) has a higher
    confidence than a wrong one (a look-alike's, or a wrong entry first; ties count half) — how
    well the confidence tells them apart whatever the threshold, None without both kinds — and
    `bands`: for the answers given, by band of confidence ([0.5, 0.6) … [0.9, 1]), how many
    there were and the share right. A confidence the inputs bear out has each band's share
    within it (0.9–1.0 right at least nine times in ten)."""
    right = sorted(o.confidence for o in outcomes if _first_right(o))
    wrong = sorted(o.confidence for o in outcomes if not _first_right(o))
    auc = None
    if right and wrong:
        below = equal = 0
        for c in right:  # the wrong ones under c, and those equal to it
            below += bisect.bisect_left(wrong, c)
            equal += bisect.bisect_right(wrong, c) - bisect.bisect_left(wrong, c)
        auc = round((below + equal / 2) / (len(right) * len(wrong)), 4)
    bands = []
    for low, high in zip(CONFIDENCE_BANDS, (*CONFIDENCE_BANDS[1:], 1.01), strict=True):
        given = [o for o in outcomes if not o.abstained and low <= o.confidence < high]
        bands.append(
            {
                "from": low,
                "to": min(high, 1.0),
                "n": len(given),
                "right": round(sum(map(_first_right, given)) / len(given), 4) if given else None,
            }
        )
    return {"auc": auc, "bands": bands}


# What every quality figure is compared with: one channel alone over the same knowledge base,
# nothing fitted and never abstaining — BM25 (its raw score) and dense retrieval (the raw cosine
# of the entry's closest chunks).
BASELINES = {"bm25": "lex_raw", "dense": "dense"}


def baseline_ranking(evidence: Mapping[str, Evidence], channel: str) -> list[str]:
    """The entries one channel (`BASELINES`' attribute name) found, best first (ties by id)."""
    found = [eid for eid, ev in evidence.items() if getattr(ev, channel) > 0]
    return sorted(found, key=lambda eid: (-getattr(evidence[eid], channel), eid))


def run(engine: Engine, queries: Iterable[Query]) -> dict[str, list[Outcome]]:
    """Each query answered by tpu-assist (every entry ranked, with its abstention and the top
    answer's confidence) and by each baseline, from one retrieval."""
    out: dict[str, list[Outcome]] = {"tpu-assist": [], **{name: [] for name in BASELINES}}
    for q in queries:
        r = engine.retrieve(q.query)
        a = engine.decide(r, top_k=len(engine.kb))
        conf = a.results[0].confidence if a.results else 0.0
        out["tpu-assist"].append(Outcome(q, [x.id for x in a.results], a.abstained, conf))
        for name, channel in BASELINES.items():
            out[name].append(Outcome(q, baseline_ranking(r.evidence, channel), False, 0.0))
    return out


def near_miss_ok(o: Outcome) -> bool:
    """A near miss passes when its entry is not the answer (abstaining counts as not answering)."""
    return o.abstained or not o.ranked or o.ranked[0] != o.query.not_topic
