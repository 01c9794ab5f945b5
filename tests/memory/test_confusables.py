"""Look-alike letters read as Latin ones: the table agrees with the package's own answers."""

from __future__ import annotations

from confusable_homoglyphs import confusables

from osmia.memory.confusables import _table, latin_skeleton


def test_each_look_alike_maps_to_a_latin_letter_the_package_names_for_it() -> None:
    table = _table()
    assert len(table) > 500
    answered = 0
    for code, latin in list(table.items())[::7]:  # a seventh of them: the package is slow per call
        # The package answers only for a character of a script other than the text's (not for a
        # mathematical digit, of no script): the table holds those too, from the same data.
        found = confusables.is_confusable(chr(code), preferred_aliases=["latin"])
        if found:
            answered += 1
            named = {h["c"] for h in found[0]["homoglyphs"]}
            assert latin in named or (latin == "I" and "l" in named), (chr(code), latin)
    assert answered > len(table) // 7 // 2


def test_orders_in_cyrillic_and_greek_letters_read_as_latin() -> None:
    assert latin_skeleton("Ign\u043ere previ\u043eus") == "Ignore previous"  # Cyrillic о
    assert latin_skeleton("\u0399gnore") == "Ignore"  # Greek capital iota
    assert latin_skeleton("plain ASCII stays") == "plain ASCII stays"
    assert latin_skeleton("日本語のテスト") == "日本語のテスト"  # nothing there imitates a Latin letter
