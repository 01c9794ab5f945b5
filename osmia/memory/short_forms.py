"""Short forms and number words, read as the word they stand for when lessons are compared.

"env vars" says "environment variables", "five-minute" says "5-minute", "db" says "database": two
phrasings of one lesson share these stems once each is mapped to the stem of the word it stands for.
Only the lesson matcher reads text this way (:mod:`osmia.memory.lesson_parse`, :mod:`osmia.memory.lessons`);
ranking and the stored vocabulary keep :func:`osmia.memory.text.stems` as it is.
"""

from __future__ import annotations

import functools

from osmia.memory.text import stem, stems

__all__ = ["SHORT_FORMS", "canonical", "lesson_stems"]

# Short forms engineers write for a word, and number words, as the stem of the word they stand for
# ("env vars" says "environment variables", "five-minute" says "5-minute"): two phrasings of one
# lesson share these stems. Only short forms with one reading in engineering prose.
SHORT_FORMS = {
    stem(short): stem(full)
    for short, full in (
        ("env", "environment"), ("envs", "environments"), ("var", "variable"), ("vars", "variables"),
        ("config", "configuration"), ("configs", "configurations"), ("cfg", "configuration"),
        ("dep", "dependency"), ("deps", "dependencies"), ("repo", "repository"), ("repos", "repositories"),
        ("dir", "directory"), ("dirs", "directories"), ("db", "database"), ("dbs", "databases"),
        ("pkg", "package"), ("pkgs", "packages"), ("arg", "argument"), ("args", "arguments"),
        ("param", "parameter"), ("params", "parameters"), ("msg", "message"), ("msgs", "messages"),
        ("img", "image"), ("lib", "library"), ("libs", "libraries"), ("tmp", "temporary"),
        ("temp", "temporary"), ("info", "information"), ("docs", "documentation"), ("k8s", "kubernetes"),
        ("perf", "performance"), ("impl", "implementation"),
        ("one", "1"), ("two", "2"), ("three", "3"), ("four", "4"), ("five", "5"), ("six", "6"),
        ("seven", "7"), ("eight", "8"), ("nine", "9"), ("ten", "10"), ("twelve", "12"),
        ("fifteen", "15"), ("twenty", "20"), ("thirty", "30"), ("sixty", "60"),
        # Words engineering prose uses for one another: the stem of one, written as the other's
        # (never as a word the comparison leaves out: "retry" as the template word "rerun" would
        # drop what a remark about a retry loop says).
        ("broken", "break"), ("intermittent", "flaky"),
        ("intermittently", "flaky"), ("stuck", "hang"), ("freezes", "hang"), ("deleted", "removed"),
        ("deletes", "removes"), ("approval", "review"), ("approvals", "reviews"),
    )
}  # fmt: skip


def canonical(word: str) -> str:
    """A stem as the stem of the word its short form stands for, part by part in a compound."""
    if "-" in word:
        return "-".join(SHORT_FORMS.get(part, part) for part in word.split("-"))
    return SHORT_FORMS.get(word, word)


@functools.lru_cache(maxsize=1 << 13)
def lesson_stems(text: str) -> frozenset[str]:
    """:func:`osmia.memory.text.stems` of ``text``, each :func:`canonical`: what the lesson matcher
    compares a lesson's words with (its identifiers' parts, generic words, antonyms). Cached, as
    :func:`~osmia.memory.text.stems` is: ranking asks it of every word of every candidate."""
    return frozenset(map(canonical, stems(text)))
