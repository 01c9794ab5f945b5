"""Trains the learned hostility check (:mod:`osmia.memory.hostile_learned`) and measures it.

    .venv/bin/python -m benchmarks.hostile_training          # train, measure, compare with the shipped model
    .venv/bin/python -m benchmarks.hostile_training --write  # ... and write it (osmia/memory/data/)

**Training sets.** Hostile: every blind round's hostile lines (rounds 1-9, seen and held halves,
round 10, ``data/round10.jsonl``: the forty-first session's held-out set, trained on from the
forty-second, and round 11, ``data/round11a.jsonl`` and ``data/round11b.jsonl``: the forty-second
session's, trained on from the forty-third), the red-team sets' hostile lines,
``data/hostile_train.jsonl`` (657 lines a helper wrote for training, 27 kinds), the hostile
half of ``data/train2.jsonl`` (552 lines by another helper) and of the eight sliced training sets
(``TRAIN3``, ``TRAIN4``: 300 lines each). Honest: every
round's honest lines, the red-team sets' honest and clean lines, the lesson, advice and meaning
sets, ``data/ordinary_a.jsonl`` and ``data/ordinary_b.jsonl`` (1,291 and 1,209 ordinary
learnings, written by two helpers: one plain, one of honest look-alikes), the honest half of
``data/train2.jsonl`` (549 look-alikes), and the distinct learnings and failure reasons of 3,000
workload runs (seed 11).

**Threshold.** Five-fold cross-validation over the training sets gives each line a score from a
model that did not see it. The threshold is the lowest that flags at most ``FP_BUDGET`` of the
honest lines so scored (each honest source weighted alike); the model is then trained on all.

**Held out** (never trained on, no setting chosen on them; their figures read for each shipped
version of the model: docs/security.md): round 12, ``data/round12a.jsonl`` and
``data/round12b.jsonl``, and round 13, ``data/round13a.jsonl`` and ``data/round13b.jsonl`` (the
forty-third and forty-sixth sessions': each 200 hostile and 200 honest lines in twenty kinds or
more of its own, by two helpers who had read no rule and saw no other set),
``data/ordinary_held.jsonl`` (817 ordinary learnings from another helper) and the workload's
learnings of another seed (29).

Training is pure Python and deterministic (seeded order): the same sets give the same model byte
for byte, which tests/memory/test_hostile_learned.py checks against the shipped file.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from osmia.memory.hostile import looks_hostile
from osmia.memory.hostile_learned import MODEL_PATH, Model, features, learned_hostile

DATA = Path(__file__).with_name("data")
FP_BUDGET = 0.005
FOLDS = 5
EPOCHS = 12
RATE = 0.3
L2 = 1e-5
SEED = 41
DECIMALS = 4  # the bias and threshold are rounded so the shipped file is stable
MIN_WEIGHT = 0.002  # buckets whose weight is below this are left out of the shipped file
MIN_DOCS = 2  # a feature of one training line only is that line's, not a form: it is not learned


def _jsonl(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _texts(rows: Iterable[str | tuple[str, str]]) -> list[str]:
    """The text of each row of a set: a string, or a (kind, text) pair."""
    return [row if isinstance(row, str) else row[1] for row in rows]


def workload_texts(seed: int, runs: int = 3000) -> list[str]:
    """The distinct learnings and failure reasons of ``runs`` workload runs."""
    from benchmarks.workload import World

    seen: dict[str, None] = {}
    for doc, _ in World(seed=seed).runs(runs):
        result = doc.get("status", {}).get("result") or doc.get("result") or {}
        for text in [*result.get("learnings", ()), result.get("failureReason", "")]:
            if text:
                seen.setdefault(text, None)
    return list(seen)


# Every blind round's halves, rounds 1-9 (rounds 10 and 11 are files of their own; rounds 12 and 13
# are held out):
# ``ROUND_<n>[_SEEN|_HELD]_<LABEL>``.
_ROUND_SETS = ("ROUND_1_SEEN", "ROUND_1_HELD", "ROUND_2", "ROUND_3", "ROUND_4", "ROUND_5_SEEN",
               "ROUND_5_HELD", "ROUND_6", "ROUND_7_SEEN", "ROUND_7_HELD", "ROUND_8", "ROUND_9_SEEN",
               "ROUND_9_HELD")  # fmt: skip


def _rounds(label: str) -> list[str]:
    """The blind rounds' lines of one label (``HOSTILE`` or ``HONEST``)."""
    from benchmarks import blind_rounds, blind_rounds_37, blind_rounds_38, blind_rounds_40

    modules = (blind_rounds, blind_rounds_37, blind_rounds_38, blind_rounds_40)
    out = []
    for name in _ROUND_SETS:
        (rows,) = [getattr(m, f"{name}_{label}") for m in modules if hasattr(m, f"{name}_{label}")]
        out += _texts(rows)
    return out


# Four training sets of the forty-third session, by four helpers who read nothing but their own
# folder, each 300 hostile and 300 honest look-alike lines in one slice of the work: CI and the
# supply chain, cloud and infrastructure, application code and data, the agents and the people
# around them (30-81 kinds of harm each; ~50 of each set's hostile lines disguised in form, ~30
# in other languages).
TRAIN3 = ("train3_ci.jsonl", "train3_infra.jsonl", "train3_app.jsonl", "train3_agents.jsonl")
# Four more of the forty-sixth session, written the same way in four other slices: data, databases
# and ML; identity, access and compliance; product code facing users; attacks on the reading agent
# and on the memory itself (219-300 kinds of harm each, ~55-60 of each set's hostile lines
# disguised in form, ~30 in other languages).
TRAIN4 = ("train4_data.jsonl", "train4_identity.jsonl", "train4_product.jsonl", "train4_reader.jsonl")


def _round11() -> list[dict[str, str]]:
    """Round 11's lines: the forty-second session's held-out set, trained on from the forty-third."""
    return _jsonl("round11a.jsonl") + _jsonl("round11b.jsonl")


def hostile_sets() -> dict[str, list[str]]:
    """The hostile training sets, by name."""
    from benchmarks import redteam_sets as rt

    return {
        "blind rounds 1-9": _rounds("HOSTILE"),
        "red-team sets": _texts(rt.INJECTION_1) + _texts(rt.BLIND_HOSTILE),
        "hostile_train.jsonl": [r["text"] for r in _jsonl("hostile_train.jsonl")],
        "train2.jsonl": [r["text"] for r in _jsonl("train2.jsonl") if r["label"] == "hostile"],
        "round10.jsonl": [r["text"] for r in _jsonl("round10.jsonl") if r["label"] == "hostile"],
        "round 11": [r["text"] for r in _round11() if r["label"] == "hostile"],
        **{name: [r["text"] for r in _jsonl(name) if r["label"] == "hostile"] for name in TRAIN3 + TRAIN4},
    }


def honest_sets() -> dict[str, list[str]]:
    """The honest training sets, by name."""
    from benchmarks import advice_set, lesson_pairs, meaning_set
    from benchmarks import redteam_sets as rt

    lessons = [t for group in meaning_set.PARAPHRASE_GROUPS for t in group[1]]
    lessons += [t for pair in meaning_set.HARD_NEGATIVES for t in pair[1:]]
    lessons += [*meaning_set.CONTENT_FREE, *meaning_set.PLAIN_LESSONS, *meaning_set.IDENT_LESSONS]
    lessons += [t for clusters in lesson_pairs.CLUSTERS.values() for c in clusters for t in c]
    lessons += [t for pair in lesson_pairs.HARD_NEGATIVES for t in pair]
    lessons += [*advice_set.ADVICE, *advice_set.HELD_OUT_ADVICE, *advice_set.HELD_OUT_PLAIN_LESSONS,
                *advice_set.HELD_OUT_NAMED_LESSONS]  # fmt: skip
    return {
        "blind rounds 1-9": _rounds("HONEST"),
        "red-team sets": _texts(rt.INJECTION_1_HONEST) + _texts(rt.BLIND_HONEST) + _texts(rt.BLIND_CLEAN),
        "lesson, advice and meaning sets": lessons,
        "ordinary_a.jsonl": [r["text"] for r in _jsonl("ordinary_a.jsonl")],
        "ordinary_b.jsonl": [r["text"] for r in _jsonl("ordinary_b.jsonl")],
        "train2.jsonl": [r["text"] for r in _jsonl("train2.jsonl") if r["label"] == "honest"],
        "round10.jsonl": [r["text"] for r in _jsonl("round10.jsonl") if r["label"] == "honest"],
        "round 11": [r["text"] for r in _round11() if r["label"] == "honest"],
        **{name: [r["text"] for r in _jsonl(name) if r["label"] == "honest"] for name in TRAIN3 + TRAIN4},
        "workload (seed 11)": workload_texts(11),
    }


def _dedup(sets: dict[str, list[str]]) -> dict[str, list[str]]:
    seen: set[str] = set()
    out: dict[str, list[str]] = {}
    for name, texts in sets.items():
        out[name] = [t for t in texts if not (t in seen or seen.add(t))]  # type: ignore[func-returns-value]
    return out


def train(docs: Sequence[frozenset[int]], labels: Sequence[int], weights_of: Sequence[float]) -> Model:
    """A logistic regression fitted by AdaGrad, in a seeded order; threshold 0 until chosen."""
    counts: dict[int, int] = {}
    for present in docs:
        for f in present:
            counts[f] = counts.get(f, 0) + 1
    vocabulary = {f for f, n in counts.items() if n >= MIN_DOCS}
    # Each line's scale is its whole feature count, as the model reads it (Model.score).
    scales = [1.0 / math.sqrt(len(present)) if present else 0.0 for present in docs]
    docs = [present & vocabulary for present in docs]
    w: dict[int, float] = {}
    g2: dict[int, float] = {}
    bias, bias_g2 = 0.0, 0.0
    order = list(range(len(docs)))
    rng = random.Random(SEED)
    for _ in range(EPOCHS):
        rng.shuffle(order)
        for i in order:
            present = docs[i]
            scale = scales[i]
            z = bias + scale * sum(w.get(f, 0.0) for f in present)
            p = 1.0 / (1.0 + math.exp(-z)) if z > -30 else 0.0
            g = (p - labels[i]) * weights_of[i]
            bias_g2 += g * g
            bias -= RATE * g / (math.sqrt(bias_g2) + 1e-9)
            for f in present:
                wf = w.get(f, 0.0)
                gf = g * scale + L2 * wf
                acc = g2.get(f, 0.0) + gf * gf
                g2[f] = acc
                w[f] = wf - RATE * gf / (math.sqrt(acc) + 1e-9)
    kept = {f: v for f, v in w.items() if abs(v) >= MIN_WEIGHT}
    return Model.sparse(round(bias, DECIMALS), 0.0, kept)


def _balanced(labels: Sequence[int], sources: Sequence[str]) -> list[float]:
    """Each class weighs alike, and within a class each source weighs alike."""
    per: dict[tuple[int, str], int] = {}
    for y, s in zip(labels, sources, strict=True):
        per[(y, s)] = per.get((y, s), 0) + 1
    groups = {y: sum(1 for (yy, _) in per if yy == y) for y in (0, 1)}
    n = len(labels)
    return [n / (2 * groups[y] * per[(y, s)]) for y, s in zip(labels, sources, strict=True)]


def corpus() -> tuple[list[str], list[int], list[str]]:
    """Every training line with its label (1 hostile) and the set it came from."""
    hostile = _dedup(hostile_sets())
    honest = _dedup(honest_sets())
    overlap = {t for ts in hostile.values() for t in ts} & {t for ts in honest.values() for t in ts}
    texts, labels, sources = [], [], []
    for label, sets in ((1, hostile), (0, honest)):
        for name, ts in sets.items():
            for t in ts:
                if t not in overlap:
                    texts.append(t)
                    labels.append(label)
                    sources.append(name)
    return texts, labels, sources


def choose_threshold(scores: Sequence[float], labels: Sequence[int], sources: Sequence[str]) -> float:
    """The lowest threshold that flags at most :data:`FP_BUDGET` of the honest lines, each honest
    source weighing alike (a small set of look-alikes counts as much as a large plain one)."""
    honest = [(s, src) for s, y, src in zip(scores, labels, sources, strict=True) if y == 0]
    per: dict[str, int] = {}
    for _, src in honest:
        per[src] = per.get(src, 0) + 1
    weight = {src: 1.0 / (len(per) * n) for src, n in per.items()}
    flagged = 0.0
    for s, src in sorted(honest, reverse=True):
        if flagged + weight[src] > FP_BUDGET:
            return round(s + 1e-4, DECIMALS)
        flagged += weight[src]
    return round(min(s for s, _ in honest), DECIMALS)


def fit() -> tuple[Model, dict[str, object]]:
    """Cross-validated threshold, then the model fitted on every line."""
    texts, labels, sources = corpus()
    docs = [features(t) for t in texts]
    oof = [0.0] * len(texts)
    order = list(range(len(texts)))
    random.Random(SEED).shuffle(order)
    for k in range(FOLDS):
        test = set(order[k::FOLDS])
        train_idx = [i for i in range(len(texts)) if i not in test]
        m = train([docs[i] for i in train_idx], [labels[i] for i in train_idx],
                  _balanced([labels[i] for i in train_idx], [sources[i] for i in train_idx]))  # fmt: skip
        for i in test:
            oof[i] = m.score(docs[i])
    threshold = choose_threshold(oof, labels, sources)
    full = train(docs, labels, _balanced(labels, sources))
    model = Model(bias=full.bias, threshold=threshold, weights=full.weights)
    kept = sum(1 for w in model.weights if w)
    by_source: dict[str, list[int]] = {}
    for s, y, src in zip(oof, labels, sources, strict=True):
        c = by_source.setdefault(f"{'hostile' if y else 'honest'}: {src}", [0, 0])
        c[0] += s >= threshold
        c[1] += 1
    return model, {"lines": len(texts), "features": kept, "cross-validated": by_source}


def held_out() -> dict[str, tuple[list[str], int]]:
    """The held-out sets: each set's lines and its label."""
    r12 = _jsonl("round12a.jsonl") + _jsonl("round12b.jsonl")
    r13 = _jsonl("round13a.jsonl") + _jsonl("round13b.jsonl")
    return {
        "round 12 hostile": ([r["text"] for r in r12 if r["label"] == "hostile"], 1),
        "round 12 honest": ([r["text"] for r in r12 if r["label"] == "honest"], 0),
        "round 13 hostile": ([r["text"] for r in r13 if r["label"] == "hostile"], 1),
        "round 13 honest": ([r["text"] for r in r13 if r["label"] == "honest"], 0),
        "ordinary_held.jsonl": ([r["text"] for r in _jsonl("ordinary_held.jsonl")], 0),
        "workload (seed 29)": (workload_texts(29), 0),
    }


def measure() -> dict[str, dict[str, int]]:
    """Per held-out set: lines flagged by the rules, by the shipped model, by either."""
    out = {}
    for name, (texts, _) in held_out().items():
        rules = [looks_hostile(t) for t in texts]
        learned = [learned_hostile(t) for t in texts]
        out[name] = {
            "lines": len(texts),
            "rules": sum(rules),
            "model": sum(learned),
            "either": sum(a or b for a, b in zip(rules, learned, strict=True)),
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the trained model to the package")
    args = parser.parse_args(argv)
    model, report = fit()
    print(f"trained on {report['lines']} lines; {report['features']} features kept; "
          f"threshold {model.threshold} (bias {model.bias})")  # fmt: skip
    print("cross-validated (flagged / lines):")
    for name, (flagged, n) in sorted(report["cross-validated"].items()):  # type: ignore[attr-defined]
        print(f"  {name:45} {flagged:5} / {n}")
    same = MODEL_PATH.exists() and MODEL_PATH.read_bytes() == model.to_bytes()
    if args.write:
        MODEL_PATH.parent.mkdir(exist_ok=True)
        MODEL_PATH.write_bytes(model.to_bytes())
        print(f"wrote {MODEL_PATH}")
    elif not same:
        print("the shipped model differs from this training's: run with --write", file=sys.stderr)
    print("held out (rules / model / either, of lines):")
    from osmia.memory import hostile_learned

    hostile_learned.model.cache_clear()
    for name, c in measure().items():
        print(f"  {name:25} {c['rules']:4} / {c['model']:4} / {c['either']:4} of {c['lines']}")
    return 0 if (same or args.write) else 1


if __name__ == "__main__":
    raise SystemExit(main())
