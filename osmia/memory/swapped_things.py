"""Two sentences alike but for the thing each names: two lessons, not one.

"Restart the celery workers after changing settings.py" and "Restart the gunicorn workers after
changing settings.py" share every word but one, so their word similarity is high, and without
this rule they were one lesson: the second run reinforced the first and its own lesson was lost.
The same shape restates a lesson when the word swapped is a verb or a synonym ("Clear the build
cache" / "Wipe the build cache"), so the rule reads where the swap is, not only that there is one:

* the two texts, read as word stems (short forms as the word they stand for, ``time-outs`` as
  ``timeouts``), share a word and are the same but for one run of one or two words on each side,
  at the same place, with no stopword and no number in either run (versions and quantities are
  for :func:`osmia.memory.lesson_values.versions_or_values_differ`: "30 minutes" / "30m") and neither
  run's stems inside the other's (``test`` / ``unit tests`` is one thing said twice);
* the place holds a thing: the word before it is one that a thing follows (``the``, ``with``,
  ``in``, ``from``, ``use``, ``needs`` …), or either side writes its word as a name (a capital
  letter past a sentence's first word, a digit, an inner ``-``, ``.``, ``_``: ``Postgres``,
  ``eu-west-1``, ``settings.py``).

Measured on three sets of single-swap pairs written for it (``python -m benchmarks.swap_pairs``;
docs/memory.md, the rule marked *(33)*): hard negatives kept apart 6 → 54 of 60, single-swap
paraphrases kept together 60 → 55 of 60 (a synonym after ``the`` reads as another thing: "in
the teardown" / "in the cleanup"). No pair of the labelled or blind paraphrase sets is a single
swap; every pair they hold is decided as before.
"""

from __future__ import annotations

import functools

from osmia.memory.linear import linear
from osmia.memory.short_forms import canonical, lesson_stems
from osmia.memory.text import STOPWORDS, stem

__all__ = ["swapped_thing"]

# A word of a lesson: letters and digits, with the marks identifiers hold inside.
_WORD = linear(r"[A-Za-z0-9][A-Za-z0-9_.+#/-]*")
# Written as a name (tested past a sentence's first word): a capital, a digit, an inner mark.
_NAME = linear(r"[A-Z]|\d|[-_.+#/]\w")
# Words a thing follows: articles, prepositions, and verbs whose object is a thing.
_THING_FOLLOWS = frozenset(
    {
        *("the", "a", "an"),
        *("with", "on", "in", "into", "for", "via", "using", "of", "by", "at", "against", "through"),
        *("without", "like", "than", "from", "over", "under"),
        *("use", "need", "needs", "require", "requires"),
    }
)
# How many words a swapped run may hold on each side ("SQL queries" / "HTTP requests").
_MAX_RUN = 2


@functools.lru_cache(maxsize=1 << 13)
def _words(text: str) -> tuple[tuple[str, str, bool], ...]:
    """Each word of ``text`` as (stem key, lower-case word, written as a name)."""
    out = []
    for position, found in enumerate(_WORD.finditer(text)):
        raw = (found.group(0) or "").rstrip("./-")
        if not raw:
            continue
        lower = raw.lower()
        joined = lower.replace("-", "")
        word = joined if joined.isalpha() else lower
        as_written = raw if position else raw[:1].lower() + raw[1:]
        out.append((canonical(stem(word)), word, _NAME.search(as_written) is not None))
    return tuple(out)


def swapped_thing(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` say the same of two different things (see the module docstring)."""
    x, y = _words(a), _words(b)
    shortest = min(len(x), len(y))
    start = 0
    while start < shortest and x[start][0] == y[start][0]:
        start += 1
    end = 0
    while end < shortest - start and x[-1 - end][0] == y[-1 - end][0]:
        end += 1
    ours, theirs = x[start : len(x) - end], y[start : len(y) - end]
    if not start + end or not (1 <= len(ours) <= _MAX_RUN and 1 <= len(theirs) <= _MAX_RUN):
        return False
    if any(w[1] in STOPWORDS or w[1][:1].isdigit() for w in (*ours, *theirs)):
        return False  # a number is a version or a quantity: the value rules read those
    our_stems = frozenset().union(*(lesson_stems(w[1]) for w in ours))
    their_stems = frozenset().union(*(lesson_stems(w[1]) for w in theirs))
    if our_stems <= their_stems or their_stems <= our_stems:
        return False
    after_thing_word = start > 0 and x[start - 1][1] in _THING_FOLLOWS
    return after_thing_word or ours[0][2] or theirs[0][2]
