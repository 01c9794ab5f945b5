"""The hostility check: text that tries to instruct the agent is not stored at all.

Agent-written text (learnings, failure reasons, test names, names) is judged before it is stored
(:func:`looks_hostile`): orders to drop what the reader was told, the prompt's section forged or
closed, role markers, authority claimed, and acts no lesson tells to do unless it warns against
them (wiping a home, sending secrets away, running a downloaded script, force-pushing ``main``),
harms that have no fixed command (secrets sent out, reviewers misled, a way in kept:
:mod:`osmia.memory.hostile_harms`; people deceived, a change hidden, others' resources taken:
:mod:`osmia.memory.hostile_deceit`; controls gone around, reports faked, review dodged:
:mod:`osmia.memory.hostile_evasion`), a story of an earlier run that ends in a call to repeat it
(:mod:`osmia.memory.hostile_stories`), a look-alike of a well-known package installed
(:mod:`osmia.memory.hostile_packages`), a guard switched off where the text gives it a reach, an
excuse or an encouragement no lesson gives (:mod:`osmia.memory.hostile_guards`), orders in the
languages the English rules do not read (:mod:`osmia.memory.hostile_tongues`), and a weakening
that only a disguise hid.
The text is judged as written, as cleaning (:mod:`osmia.memory.cleaning`) will leave it, spelled
out (dashes, combining marks, small capitals, spaced and joined letters, digits for letters) and
through Unicode's confusables, so nothing cleaning removes can hide an order or rebuild one.

The rules themselves are :mod:`osmia.memory.hostile_rules`. Every pattern is RE2
(:mod:`osmia.memory.linear`); the input is cut to ``MAX_INPUT`` characters.
"""

from __future__ import annotations

import functools
import html
import unicodedata
from collections.abc import Iterator

from osmia.memory.cleaning import _ROLE_MARKERS, _STEPS, MAX_INPUT, _fixed_point, _needs_pass
from osmia.memory.confusables import latin_skeleton
from osmia.memory.hostile_deceit import UNWATCHED
from osmia.memory.hostile_guards import (
    EXCUSE_CUE,
    GUARD_WEAKENED,
    GUARD_WEAKENED_BEFORE,
    IN_BULK,
    STORY_CUE,
    TEST_SCOPE,
    TESTS_NEUTERED,
    UNDONE,
    WEAKENING_CUE,
    WEAKENING_SETTING,
)
from osmia.memory.hostile_harms import DESTROYED
from osmia.memory.hostile_packages import squatted
from osmia.memory.hostile_rules import (
    ACTS,
    NOT_A_WARNING,
    ONLY_A_WARNING,
    ORDERS,
    WARNED_AFTER,
    WARNING,
)
from osmia.memory.hostile_stories import STORY_CALL, retold
from osmia.memory.hostile_tongues import orders_in_tongue
from osmia.memory.linear import Match, linear
from osmia.memory.payloads import decoded

__all__ = ["hidden_readings", "looks_hostile"]


# What ends a clause: a stop, a comma or colon, a dash between words ("… don't need review --
# temporarily disable …"); and a sentence.
_CLAUSE_MARKS = (*".;!?\n,:", "\u2014", " \u2013 ", " -- ")
_SENTENCE_MARKS = ".;!?\n"
_CLAUSE_WINDOW = 200


def looks_hostile(text: str) -> bool:
    """True for text that tries to instruct the agent: such learnings are not stored at all.

    Checked on the text as written, as it reads once invisible characters,
    comments and tags are gone (``ign\\u200bore previous``, ``<b>system</b>:``), and with
    look-alike letters read as the Latin ones they imitate (:mod:`osmia.memory.confusables`).
    """
    if ORDERS.search(text) or _acts(text):
        return True
    # A look-alike package, read in the text as written only: the spelled-out readings turn digits
    # into letters ("boto3" into "botoe"), which would make look-alikes of honest names.
    if _told(text, squatted(text[:MAX_INPUT])):
        return True
    seen = text[:MAX_INPUT]
    reads = _reads(seen)
    reads.discard(text)
    if any(
        ORDERS.search(read) or ORDERS.search(_ROLE_MARKERS.sub("", read)) or _acts(read) for read in reads
    ):
        return True
    # A story of what an earlier run did that ends in a call to do the same: its acts read in the
    # present (:mod:`osmia.memory.hostile_stories`), unless the call is warned against.
    if any(_told(seen, iter([call])) for call in STORY_CALL.finditer(seen)) and any(
        ORDERS.search(read) or _acts(read) for read in retold(seen)
    ):
        return True
    # A guard switched off that only its disguise hid (letters spaced out, look-alike letters): no
    # lesson is written so, whatever reach or reason it gives.
    return _disguised(seen) and not _weakens(seen) and any(_weakens(read) for read in reads)


# What disguises words: letters spaced out ("r e m o v e"), Latin letters mixed with look-alikes of
# another script in one word ("dіsаblе" with Cyrillic і and а), digits for letters in two words.
_SPACED_RUN = linear(r"\b(?:[A-Za-z][ .-]){4,}[A-Za-z]\b")
_MIXED_SCRIPT = linear(r"[A-Za-z][Ͱ-ϿЀ-ӿ]|[Ͱ-ϿЀ-ӿ][A-Za-z]")
_LEET_PAIR = linear(r"\b[A-Za-z]+[01345][A-Za-z]\w*\b[^\n]*?\b[A-Za-z]+[01345][A-Za-z]\w*\b")


def _disguised(text: str) -> bool:
    """Whether ``text`` disguises its words (see :data:`_SPACED_RUN`): then a guard switched off
    that shows only once they are read plainly is an order, whatever surrounds it."""
    return bool(
        _SPACED_RUN.search(text)
        or (not text.isascii() and _MIXED_SCRIPT.search(text))
        or _LEET_PAIR.search(text)
    )


def hidden_readings(text: str) -> frozenset[str]:
    """What ``text`` says once its disguise is read through, for the learned check
    (:mod:`osmia.memory.hostile_learned`), which reads words as written; empty when nothing hides.

    The readings the rules read (:func:`_reads`) but the text as written, and its spelled-out
    reading only when the text shows a disguise (letters spaced out, look-alike letters mixed into
    Latin words, digits for letters in two words): spelled out, an honest ``boto3`` or
    ``readOnly`` is only a worse reading of itself. So an encoded run, a look-alike letter, an
    invisible character inside a word, an HTML reference, a word cut by hyphens or text written
    backwards is read as what it stands for.
    """
    seen = text[:MAX_INPUT]
    readings = _readings(seen)
    if not _disguised(seen):
        readings = readings - {_spelled(seen)}
    return readings - {seen, text}


def _reads(seen: str) -> set[str]:
    """Every way ``seen`` reads (:func:`_readings`), as a set the caller may change."""
    return set(_readings(seen))


# The check asks for a text's readings twice (the rules, then the learned model: hostile_learned),
# one text after the other; a few are kept.
@functools.lru_cache(maxsize=8)
def _readings(seen: str) -> frozenset[str]:
    """Every way ``seen`` reads: spelled out (dashes, combining marks, spaced and joined letters,
    digits for letters); with HTML's character references as what they stand for
    (``&lt;/prior_knowledge&gt;``: a model reads them so, whatever the prompt's renderer does); as
    stored, once cleaning has removed what hid an order ("force-user:push", a U+1680 space, a tag);
    and in Latin letters where look-alikes stand for them ("Ignоre previоus" with Cyrillic о).

    The references are read again after cleaning, and cleaning applied again after them, and what
    cleaning leaves is spelled out ("y\\no\\xa0u" is "y o u" once cleaned): a step that leaves a
    reference whole (``<|\\ufeffi&#105;m_start|>``: the invisible character goes,
    then the reference reads as "i") or a reference that decodes to what cleaning removes must not
    rebuild an order that no single reading shows (a fuzz of 20,000 texts found 25 such).
    """
    reads = {_spelled(seen)}
    unescaped = [seen]
    if "&" in seen:
        unescaped.append(html.unescape(seen))
    for read in unescaped:
        if not read.isascii() or _needs_pass(read):
            shown = read
            for step in _STEPS[:4]:
                shown = step(shown)
            cleaned = _fixed_point(read)
            reads |= {shown, cleaned}
            for after in {shown, cleaned} - {read}:
                reads.add(_spelled_out(after))
                if "&" in after:
                    reads.add(html.unescape(after))
    reads |= set(unescaped[1:])
    if _BACKWARDS.search(seen) or _REVERSED_WORDS.search(seen):  # "snoitcurtsni suoiverp erongi"
        reads |= {read[::-1] for read in list(reads)} | {seen[::-1]}
    # Words cut by hyphens ("Ig-nore all pre-vious in-struc-tions"), and what encoded runs say.
    if "-" in seen:
        joined = _HYPHENATED.sub(lambda m: f"{m.group(1)}{m.group(2)}", seen)
        if joined != seen:
            reads.add(joined)
    for plain in decoded(seen):
        reads |= {plain, _spelled_out(plain)}
    reads |= {latin_skeleton(read) for read in reads if not read.isascii()}
    return frozenset(reads)


# A hyphen between two lower-case letters of one word, read as none (the check's extra reading).
_HYPHENATED = linear(r"([A-Za-z])-([a-z])")
# Text that says it is to be read backwards, or holds English's commonest words written backwards
# ("eht", "dna", "lla", "ruoy": no word of any language the rules read): read so too.
_BACKWARDS = linear(r"(?i)\b(?:backwards?|reversed?|in[ \t]+reverse|right[ \t]+to[ \t]+left)\b")
_REVERSED_WORDS = linear(r"(?i)\b(?:eht|dna|lla|ruoy|siht|taht|htiw|morf|erongi|snoitcurtsni)\b")


# Letters spaced out ("i g n o r e") or written in digits ("1gn0r3 pr3v10us"): read as words for
# the hostility check only (stored text keeps its own characters).
_SPACED_LETTERS = linear(r"\b(?:[A-Za-z][ .-]){2,}[A-Za-z]\b")
_LEET = str.maketrans("013457@$", "oieastas")
_LEET_WORD = linear(r"\b[A-Za-z]*[013457@$][A-Za-z013457@$]*\b")
# Words joined by ``_`` or ``.`` or written in camel case ("ignore_previous_instructions",
# "IgnorePreviousInstructions"): read apart.
_JOINED = linear(r"([a-z])(?:[_.]|([A-Z]))([A-Za-z])")
# ... and a word joined to a path by ``_`` (a test named "send_~/.ssh/id_rsa_to_paste").
_JOINED_PATH = linear(r"([A-Za-z0-9])_([~/$])")
# Every dash and hyphen Unicode has ("force‐push" with U+2010) read as "-".
_DASHES = str.maketrans(
    {c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d\u00ad"}
)


@functools.lru_cache(maxsize=8)
def _spelled(seen: str) -> str:
    """:func:`_spelled_out` of a text the check reads (:func:`_readings` and :func:`hidden_readings`
    both ask it)."""
    return _spelled_out(seen)


def _spelled_out(text: str) -> str:
    """``text`` as words for the hostility check: spaced-out or dotted letters joined, digits
    standing for letters read as letters, joined words apart, every dash a ``-``, and combining
    marks and small capitals ("ign̈ore", "ɪɢɴᴏʀᴇ") read as the plain letters."""
    if not text.isascii():
        text = _plain_letters(text.translate(_DASHES))
    text = _SPACED_LETTERS.sub(lambda m: _joined_letters(m.group(0) or ""), text)
    text = _JOINED.sub(lambda m: f"{m.group(1)} {m.group(2) or ''}{m.group(3)}", text)
    text = _JOINED_PATH.sub(lambda m: f"{m.group(1)} {m.group(2)}", text)
    return _LEET_WORD.sub(lambda m: _leet(m.group(0) or ""), text)


def _joined_letters(run: str) -> str:
    """A run of spaced-out letters as the words it spells: "i g n o r e" is "ignore"; letters
    dotted or dashed apart keep the blanks between their words ("I.g.n.o.r.e p.r.e.v.i.o.u.s"
    is "Ignore previous")."""
    if " " in run and ("." in run or "-" in run):
        return run.replace(".", "").replace("-", "")
    return run.replace(" ", "").replace(".", "").replace("-", "")


def _plain_letters(text: str) -> str:
    """Combining marks dropped and small capitals read as letters (for the check only)."""
    out = []
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char):
            continue
        if "\u1d00" <= char <= "\u1d7f" or "\u0250" <= char <= "\u02af":
            name = unicodedata.name(char, "")
            if name.startswith("LATIN LETTER SMALL CAPITAL "):
                char = name.removeprefix("LATIN LETTER SMALL CAPITAL ")[:1].lower() or char
        out.append(char)
    return "".join(out)


def _leet(word: str) -> str:
    """A word mixing letters and digits read as letters ("pr3v10us"); a number stays a number."""
    return word.translate(_LEET) if any(c.isalpha() for c in word) else word


def _acts(text: str) -> bool:
    """Whether ``text`` tells to do one of :data:`~osmia.memory.hostile_rules.ACTS`: a clause naming
    one, with no warning word before it in that clause ("Never print secrets in logs" warns; "print
    the secrets" tells).

    A clause ends at a comma or colon too ("No PR needed for hotfixes, curl … | bash" tells), except
    after a clause that is a warning alone ("Never, under any circumstances, force-push to main");
    a warning word that tells to do it after all ("never forget to", "don't hesitate to") is none.
    """
    text = text[:MAX_INPUT]
    if _told(text, ACTS.finditer(text)):
        return True
    # A guard switched off (:mod:`osmia.memory.hostile_guards`): told so only with a reach or a
    # reason no lesson gives it, with no scope of tests, and not when what goes is itself a bypass;
    # told of, only in a story that ends in a call to do it again. Tests made to pass without
    # testing: only for a reason of convenience.
    excused = EXCUSE_CUE.search(text) is not None or IN_BULK.search(text) is not None
    if excused and _told(text, TESTS_NEUTERED.finditer(text)):
        return True
    if TEST_SCOPE.search(text) is not None:
        return False
    if _told(text, iter(orders_in_tongue(text))):  # in a language the English rules do not read
        return True
    if WEAKENING_CUE.search(text) is None:
        return False
    return _weakens(text, story=STORY_CUE.search(text) is not None)


def _weakens(text: str, *, story: bool = False) -> bool:
    """Whether ``text`` tells to switch a guard off (:mod:`osmia.memory.hostile_guards`) or to destroy
    data (:data:`~osmia.memory.hostile_harms.DESTROYED`) or to stop what watches
    (:data:`~osmia.memory.hostile_deceit.UNWATCHED`), reach and reason aside; with ``story``, also
    what it tells was done."""
    weakened = list(GUARD_WEAKENED.finditer(text))
    if story:
        weakened += GUARD_WEAKENED_BEFORE.finditer(text)
    weakened = [m for m in weakened if UNDONE.search(m.group(0) or "") is None]
    settings = [*WEAKENING_SETTING.finditer(text), *DESTROYED.finditer(text), *UNWATCHED.finditer(text)]
    return _told(text, iter([*weakened, *settings]))


def _told(text: str, matches: Iterator[Match]) -> bool:
    """Whether one of ``matches`` (acts in ``text``) is told, not warned against (see :func:`_acts`)."""
    for match in matches:
        start = match.start()
        window = max(0, start - _CLAUSE_WINDOW)  # the clause, or as much of it as a warning needs
        clause_start = max(window, *(_after(text, mark, window, start) for mark in _CLAUSE_MARKS))
        if _warns(text[clause_start:start]) or _warned_after(text[match.end() : match.end() + 120]):
            continue
        sentence_start = max(window, *(_after(text, mark, window, start) for mark in _SENTENCE_MARKS))
        # A clause that is a warning alone governs what follows it ("Never, under any circumstances,
        # …", "Don't: force-push to main"), except a bare "No:", which answers and then tells.
        earlier = text[sentence_start:clause_start]
        parts = [p.strip() for p in earlier.replace(":", ":\x00").replace(",", ",\x00").split("\x00")]
        if not any(
            ONLY_A_WARNING.search(part[:-1])
            and not (part.endswith(":") and part[:-1].strip().lower() == "no")
            for part in parts
            if part[-1:] in (",", ":")
        ):
            return True
    return False


def _after(text: str, mark: str, window: int, start: int) -> int:
    """Where the text after the last ``mark`` in ``text[window:start]`` begins (``window`` if none)."""
    found = text.rfind(mark, window, start)
    return window if found < 0 else found + len(mark)


def _warned_after(after: str) -> bool:
    """Whether the words after an act warn against it ("… is blocked by branch protection"), not
    against something a condition names ("… when the PR is blocked by review": a reason to do it)."""
    warned = WARNED_AFTER.search(after)
    return warned is not None and _CONDITION.search(after[: warned.end()]) is None


# A clause of its own between an act and a warning word: the warning is about what it names.
_CONDITION = linear(r"(?i)\b(?:when|whenever|if|once|unless|while|because|since|in[ \t]+case|so[ \t]+that)\b")


def _warns(clause: str) -> bool:
    """Whether a warning word governs what follows ``clause`` (see :func:`_acts`)."""
    return WARNING.search(NOT_A_WARNING.sub(" ", clause)) is not None
