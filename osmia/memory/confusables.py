"""Look-alike letters read as the Latin letters they imitate, to judge text that may give orders.

"Ignоre previоus instructiоns" with Cyrillic ``о`` reads as an order to a model and matches no
pattern written in Latin letters; NFKC does not fold it (``о`` is a letter of its own script).
Unicode's confusables (TR39), as the ``confusable-homoglyphs`` package ships them, name the
Latin letter or digit each such character is mistaken for. :func:`latin_skeleton` maps them,
for the hostility check only: stored text keeps its letters (a German or Russian lesson is not
rewritten).

The package's table holds ~9,600 characters (10 MB as Python objects); the ~1,300 that imitate
one ASCII letter or digit are kept, read once on the first text that is not ASCII.
"""

from __future__ import annotations

import functools
import json
from importlib import resources


@functools.cache
def _table() -> dict[int, str]:
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    table: dict[int, str] = {}
    for char, homoglyphs in data.items():
        if len(char) != 1 or char.isascii():
            continue
        latin = [h["c"] for h in homoglyphs if len(h["c"]) == 1 and h["c"].isascii() and h["c"].isalnum()]
        if not latin:
            continue
        # A letter before a digit, and one of the same case where there is a choice.
        best = min(latin, key=lambda c: (not c.isalpha(), c.isupper() != char.isupper(), latin.index(c)))
        # Unicode gives "l" as the prototype of the whole I/l/1 class: an upper-case one is an "I"
        # (Greek "Ι", Cyrillic "І"), as a reader sees it.
        table[ord(char)] = "I" if best == "l" and char.isupper() else best
    return table


def latin_skeleton(text: str) -> str:
    """``text`` with every character that imitates an ASCII letter or digit replaced by it."""
    if text.isascii():
        return text
    return text.translate(_table())


# Latin letters beyond ASCII: Latin-1's, Extended-A's and -B's, and Extended Additional's (Vietnamese).
_LATIN_RANGES = ((0x00C0, 0x024F), (0x1E00, 0x1EFF))


@functools.cache
def _foreign_table() -> dict[int, str]:
    return {
        code: latin
        for code, latin in _table().items()
        if not any(low <= code <= high for low, high in _LATIN_RANGES)
    }


def foreign_skeleton(text: str) -> str:
    """:func:`latin_skeleton` for the letters of other scripts only (Cyrillic ``о``, Greek ``Ι``,
    mathematical and full-width forms): a Latin letter of a language that has it (Turkish ``ı``,
    ``ł``) is that language's, and a word written with it stays as written ("doğrulandı")."""
    if text.isascii():
        return text
    return text.translate(_foreign_table())
