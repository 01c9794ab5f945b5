"""The fast paths of the query's word functions give what their general forms give.

``words`` lowers an ASCII text once and finds its words as strings; ``matched_stems`` takes the
query's terms stemmed once for all its full-text matches. Each is checked against the general
form on generated text.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from osmia.memory.text import STOPWORDS, matched_stems, stem, stems, words

_WORDS = re.compile(r"[^\W_]+(?:[._-][^\W_]+)*", re.UNICODE)

# Letters of both cases, digits, the joiners a word may hold, stopwords, and a few characters
# outside ASCII whose lower-case form has other bounds ("İ" lowers to "i" and a combining dot).
_PIECES = st.sampled_from(
    [*"aZ09._- \n/", "The", "and", "Refund", "HTTP", "v1.2", "foo_bar", "İ", "ß", "Σ", "é", "東"]
)


def _general(text: str) -> list[str]:
    return [w for w in (m.group(0).lower() for m in _WORDS.finditer(text)) if w not in STOPWORDS]


@given(st.lists(_PIECES, max_size=40).map("".join) | st.text(max_size=80))
def test_words_fast_path_is_the_general_form(text: str) -> None:
    assert words(text) == _general(text)


@given(
    st.lists(st.sampled_from(["refund", "refunds", "webhook", "retry", "502", "login", "concurrency"])),
    st.sampled_from(["Refunds retry on 502", "TestConcurrentLogin is flaky", "the webhook", ""]),
)
def test_matched_stems_counts_each_term_whose_stem_the_content_holds(terms: list[str], content: str) -> None:
    present = stems(content)
    assert matched_stems([stem(t) for t in terms], content) == sum(1 for t in terms if stem(t) in present)
