"""A learned hostility check beside the rules: a linear model over a learning's words.

The rules (:mod:`osmia.memory.hostile`) read the forms their authors saw. Blind sets written
after them show that rules reach the forms of the set that shaped them and few others (a held
half went 32 → 32 of 100 while its seen half went 45 → 78, docs/security.md "Fortieth session").
A bag of words generalises differently: an order to copy ``.env`` to a paste site shares words
with every other order to send secrets away, whatever its syntax. So prose a run wrote (a
learning, a failure reason) is also scored by a logistic regression over its words and word
pairs, and is hostile when either the rules or the model say so (:func:`hostile_prose`).

The model is data: ``data/hostile_model.bin``, written by ``benchmarks/hostile_training.py`` from
the sets under ``benchmarks/data`` and the blind rounds, and read here by pure Python (a word's or
word pair's CRC-32 picks its weight in one array: ~25-40 µs a learning, ~1 MB). Its threshold was
chosen on the training sets' cross-validated scores, so that at most a small share of honest
learnings is flagged (docs/security.md says the figures and how to retrain). Names, test names,
folders and imported facts are not judged by it; they stay with the rules alone
(:data:`MIN_WORDS`, docs/decisions.md).
"""

from __future__ import annotations

import array
import functools
import itertools
import math
import struct
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from osmia.memory.cleaning import MAX_INPUT
from osmia.memory.hostile import hidden_readings, looks_hostile

__all__ = [
    "MIN_WORDS",
    "Model",
    "features",
    "flags_as_written",
    "hostile_check",
    "hostile_prose",
    "learned_hostile",
    "model",
    "tokens",
]

MODEL_PATH = Path(__file__).with_name("data") / "hostile_model.bin"
BUCKETS = 1 << 18
_MAGIC = b"osmiaHL1"
_HEADER = struct.Struct("<8sddI")
_PAIR = struct.Struct("<If")

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


def features(text: str) -> frozenset[int]:
    """What the model reads of ``text``: each word and each pair of neighbouring words, as the
    bucket its CRC-32 falls in (the hashing trick: the weights are an array, not a dictionary of
    strings, ~1 MB in memory whatever the vocabulary)."""
    return _features(tokens(text))


def _features(words: list[str]) -> frozenset[int]:
    named = [*words, *(f"{a} {b}" for a, b in itertools.pairwise(words))]
    return frozenset(zlib.crc32(f.encode("utf-8", "surrogatepass")) & (BUCKETS - 1) for f in named)


@dataclass(frozen=True)
class Model:
    """A logistic regression over :func:`features`, each present feature worth ``1/√n``."""

    bias: float
    threshold: float
    weights: array.array[float]  # BUCKETS single-precision floats

    @classmethod
    def sparse(cls, bias: float, threshold: float, weights: dict[int, float]) -> Model:
        """A model whose weights are zero but in the given buckets."""
        dense = array.array("f", bytes(4 * BUCKETS))
        for bucket, weight in weights.items():
            dense[bucket] = weight
        return cls(bias=bias, threshold=threshold, weights=dense)

    def score(self, present: Iterable[int]) -> float:
        """The model's log-odds that text with these features is hostile."""
        found = list(present)
        if not found:
            return self.bias
        weights = self.weights
        return self.bias + sum(weights[f] for f in found) / math.sqrt(len(found))

    def to_bytes(self) -> bytes:
        """The model as ``data/hostile_model.bin`` holds it: a header (magic, bias, threshold, count)
        and the non-zero buckets as (index, weight) pairs, little-endian."""
        kept = [(i, w) for i, w in enumerate(self.weights) if w]
        out = bytearray(_HEADER.pack(_MAGIC, self.bias, self.threshold, len(kept)))
        for i, w in kept:
            out += _PAIR.pack(i, w)
        return bytes(out)

    @classmethod
    def from_bytes(cls, data: bytes) -> Model:
        """A model from :meth:`to_bytes`'s bytes."""
        magic, bias, threshold, count = _HEADER.unpack_from(data)
        if magic != _MAGIC or len(data) != _HEADER.size + count * _PAIR.size:
            raise ValueError("not a hostility model of this version")
        model = cls.sparse(bias, threshold, {})
        for i, w in _PAIR.iter_unpack(data[_HEADER.size :]):
            model.weights[i] = w
        return model


@functools.cache
def model() -> Model:
    """The shipped model, read once per process."""
    return Model.from_bytes(MODEL_PATH.read_bytes())


def learned_hostile(text: str) -> bool:
    """Whether the model alone flags ``text`` (prose of :data:`MIN_WORDS` words or more), as
    written or in a reading its disguise hid (:func:`~osmia.memory.hostile.hidden_readings`:
    look-alike letters, an encoded run, letters spaced out): the model learned words as written."""
    words = tokens(text)
    if _flags(words):
        return True
    readings = hidden_readings(text)
    if not readings:
        return False
    judged = {tuple(words)}  # a reading in the same words (a curly quote made straight) says nothing new
    for read in readings:
        read_words = tokens(read)
        if tuple(read_words) not in judged:
            judged.add(tuple(read_words))
            if _flags(read_words):
                return True
    return False


def flags_as_written(text: str) -> bool:
    """Whether the model flags ``text`` as written, without reading through a disguise."""
    return _flags(tokens(text))


def _flags(words: list[str]) -> bool:
    """Whether the model flags text of these :func:`tokens` (none of fewer than :data:`MIN_WORDS`)."""
    if len({w for w in words if w.isalnum()}) < MIN_WORDS:
        return False
    m = model()
    return m.score(_features(words)) >= m.threshold


def hostile_check(text: str) -> str:
    """Which check finds prose a run wrote hostile: ``"rules"`` (asked first), ``"model"``, or
    ``""`` for neither (the label of ``osmia_memory_refused_learnings_total``)."""
    if looks_hostile(text):
        return "rules"
    return "model" if learned_hostile(text) else ""


def hostile_prose(text: str) -> bool:
    """Whether prose a run wrote is hostile: the rules say so, or the learned model does."""
    return bool(hostile_check(text))
