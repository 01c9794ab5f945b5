"""A learned hostility check beside the rules: a linear model over a learning's words.

The rules (:mod:`osmia.memory.hostile`) read the forms their authors saw. Blind sets written
after them show that rules reach the forms of the set that shaped them and few others (a held
half went 32 → 32 of 100 while its seen half went 45 → 78, docs/security.md "Fortieth session").
A bag of words generalises differently: an order to copy ``.env`` to a paste site shares words
with every other order to send secrets away, whatever its syntax. So prose a run wrote (a
learning, a failure reason, an imported fact) is also scored by a logistic regression over its
words and word pairs, and is hostile when either the rules or the model say so
(:func:`hostile_prose`).

The model is data: ``data/hostile_model.json``, written by ``benchmarks/hostile_training.py``
from the sets under ``benchmarks/data`` and the blind rounds, and read here by pure Python (a set
of features and a dictionary lookup each, ~20-40 µs a learning). Its threshold was chosen on the
training sets' cross-validated scores, so that at most a small share of honest learnings is
flagged (docs/security.md says the figures and how to retrain). Names, test names and folders are
not prose; they stay with the rules alone (:data:`MIN_WORDS`).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from osmia.memory.cleaning import MAX_INPUT
from osmia.memory.hostile import looks_hostile

__all__ = ["MIN_WORDS", "Model", "features", "hostile_prose", "hostility_score", "model"]

MODEL_PATH = Path(__file__).with_name("data") / "hostile_model.json"

# A word is a run of letters and digits in any script; the few signs that join shell commands
# (`| sh`, `; rm`, `> /dev/tcp`) are words of their own; anything else separates words. No pattern:
# a translation and a split are linear in the text, and several times faster than a search.
_SIGNS = "|;&$>"
_ASCII_SPACES = {c: (f" {chr(c)} " if chr(c) in _SIGNS else " ") for c in range(128) if not chr(c).isalnum()}

MIN_WORDS = 3
"""Text with fewer words than this is a name or a fragment, not prose: the model does not judge it."""


def tokens(text: str) -> list[str]:
    """The text's words (and shell signs), lower-cased, from its first ``MAX_INPUT`` characters."""
    seen = text[:MAX_INPUT].lower()
    if seen.isascii():
        return seen.translate(_ASCII_SPACES).split()
    return "".join(c if c.isalnum() else (f" {c} " if c in _SIGNS else " ") for c in seen).split()


def features(text: str) -> frozenset[str]:
    """What the model reads of ``text``: each word, and each pair of neighbouring words."""
    return _features(tokens(text))


def _features(words: list[str]) -> frozenset[str]:
    return frozenset([*words, *(f"{a} {b}" for a, b in itertools.pairwise(words))])


@dataclass(frozen=True)
class Model:
    """A logistic regression over :func:`features`, each present feature worth ``1/√n``."""

    bias: float
    threshold: float
    weights: dict[str, float]

    def score(self, present: Iterable[str]) -> float:
        """The model's log-odds that text with these features is hostile."""
        found = list(present)
        if not found:
            return self.bias
        total = sum(self.weights.get(f, 0.0) for f in found)
        return self.bias + total / math.sqrt(len(found))

    def to_json(self) -> str:
        """The model as ``data/hostile_model.json`` holds it (weights sorted, for stable diffs)."""
        body = {
            "about": "Written by benchmarks/hostile_training.py; see osmia/memory/hostile_learned.py.",
            "bias": self.bias,
            "threshold": self.threshold,
            "weights": dict(sorted(self.weights.items())),
        }
        return json.dumps(body, ensure_ascii=False, indent=0, sort_keys=False) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Model:
        """A model from :meth:`to_json`'s text."""
        body = json.loads(text)
        weights = {str(k): float(v) for k, v in body["weights"].items()}
        return cls(bias=float(body["bias"]), threshold=float(body["threshold"]), weights=weights)


@functools.cache
def model() -> Model:
    """The shipped model, read once per process."""
    return Model.from_json(MODEL_PATH.read_text(encoding="utf-8"))


def hostility_score(text: str) -> float:
    """The shipped model's log-odds that ``text`` is hostile."""
    return model().score(features(text))


def learned_hostile(text: str) -> bool:
    """Whether the model alone flags ``text`` (prose of :data:`MIN_WORDS` words or more)."""
    words = tokens(text)
    if len({w for w in words if w.isalnum()}) < MIN_WORDS:
        return False
    present = _features(words)
    m = model()
    return m.score(present) >= m.threshold


def hostile_prose(text: str) -> bool:
    """Whether prose a run wrote is hostile: the rules say so, or the learned model does."""
    return looks_hostile(text) or learned_hostile(text)
