"""A wallet's recovery words (a BIP-39 mnemonic) wherever they stand, named or not.

A recovery phrase is the wallet: twelve to twenty-four words from BIP-39's list of 2,048, which
opens every account derived from it. The seed-phrase rule of :mod:`osmia.memory.secret_prose`
reads one after its label and a colon; runs write it everywhere else: as a config's value
(``accounts: { mnemonic: "…" }``), after a label in another language ("tohum kelimeleri: …", "la
phrase de récupération (24 mots) : « … »"), in a log line, or in rows of six.

The words themselves say what they are. Of the 739,316 distinct lines of the installed packages'
sources and docs, none holds more than seven of the list's words in a row; English prose needs its
short words ("a", "of", "to", "the", "is"), none of which is on the list. So this step redacts:

- any run of twelve words or more of the list (lower case or capitals, a blank between each), up to
  two phrases' length and three in four of them distinct (a word repeated is no phrase);
- a run of six words or more where a word for a seed or recovery phrase stands before it in the
  text (a phrase written in rows: "row 1: hip razor box …").

The list is the reference implementation's (the ``mnemonic`` package, Trezor's). Only the English
list is read: the others are rarely used, and their words hold accents or other scripts.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from mnemonic import Mnemonic

from osmia.memory.linear import linear
from osmia.memory.secret_placeholders import REDACTED

__all__ = ["MNEMONIC_GATE", "mnemonic_sub", "mnemonic_words"]

# Six words of three to eight letters in a row (the list's lengths): every run the step takes holds
# it. The step's gate in redaction's one scan is this run after a seed's word, or twelve such words.
_RUN = r"\b[A-Za-z]{3,8}(?:[ \t]+[A-Za-z]{3,8}){5,}\b"
_SEED_WORDS = (
    r"(?i:seed|mnemonic|recovery|backup[ \t]+phrase|secret[ \t]+phrase|tohum|semilla|semente|graine"
    r"|r[ée]cup[ée]ration|wiederherstell|herstel|frase|助记|ニーモニック|シード|니모닉|시드|мнемон|сид)"
)
MNEMONIC_GATE = rf"(?:\b[A-Za-z]{{3,8}}[ \t]+){{11}}[A-Za-z]{{3,8}}\b|{_SEED_WORDS}"
"""What every text the step changes holds: twelve short words in a row, or a seed phrase's word."""

_RUNS = linear(_RUN)
_SEED = linear(_SEED_WORDS)
# How far before a run of six a seed's word may stand.
_SEED_WINDOW = 400
_ALONE = 12
_NAMED = 6
_LONGEST = 24


@cache
def mnemonic_words() -> frozenset[str]:
    """BIP-39's English list (2,048 words), read once."""
    return frozenset(Mnemonic("english").wordlist)


def _listed(word: str) -> bool:
    """Whether ``word`` is on the list as written: in lower case or in capitals (as cards print it)."""
    return (word.islower() or word.isupper()) and word.lower() in mnemonic_words()


def _spans(run: str) -> list[tuple[int, int, int]]:
    """The runs of listed words in ``run`` (words of letters and blanks): start, end, and count."""
    spans: list[tuple[int, int, int]] = []
    start = end = count = 0
    at = 0
    for word in run.split():
        at = run.index(word, at)
        if _listed(word):
            if count == 0:
                start = at
            end, count = at + len(word), count + 1
        else:
            if count:
                spans.append((start, end, count))
            count = 0
        at += len(word)
    if count:
        spans.append((start, end, count))
    return spans


def _drawn(words: str, count: int) -> bool:
    """Whether ``count`` listed words read as drawn at random: at most two phrases' worth (48), and
    three in four of them distinct (twelve words drawn from 2,048 repeat one about one time in
    thirty; ``word word word …`` is no phrase)."""
    return count <= 2 * _LONGEST and len(set(words.lower().split())) >= 0.75 * count


def mnemonic_sub() -> Callable[[str], str]:
    """The step: each run of the list's words long enough to be a recovery phrase, redacted."""

    def step(text: str) -> str:
        cuts: list[tuple[int, int]] = []
        for m in _RUNS.finditer(text):
            run = m.group(0) or ""
            for start, end, count in _spans(run):
                if not _drawn(run[start:end], count):
                    continue
                at = m.start(0) + start
                named = count >= _NAMED and _SEED.search(text[max(0, at - _SEED_WINDOW) : at]) is not None
                if count >= _ALONE or named:
                    cuts.append((at, m.start(0) + end))
        if not cuts:
            return text
        pieces, at = [], 0
        for start, end in cuts:
            pieces += [text[at:start], REDACTED]
            at = end
        return "".join([*pieces, text[at:]])

    return step
