"""A line is priced without cleaning its content again: exact for stored text, never short otherwise."""

from __future__ import annotations

import random

from osmia.memory.cleaning import clean_text
from osmia.memory.prompt import estimate_tokens, line_tokens, render_line, shown_length
from osmia.memory.sanitize import stored_text
from osmia.memory.types import InjectedNode
from osmia.memory.warmup import corpus

_WORDS = [
    "make", "generate", "before", "go", "test", "in", "services/api", "the", "mocks", "are", "not",
    "committed", "password", "auth-web:", "retry", "`flaky()`", "<b>", "</b>", "[docs](x)", "\u00e9t\u00e9",
    "\ufb01le", "system:", "##", "  ", "\t", "token=abc", "\u2028", "\u3000", "AKIA" + "Q" * 16, "\u200b",
]  # fmt: skip


def _node(content: str, kind: str = "learning") -> InjectedNode:
    return InjectedNode(
        id="n1",
        kind=kind,
        content=content,
        confidence=0.73,
        score=0.0,
        sources=("tr/ns/run-1", "tr/ns/run-2"),
    )


def _texts(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = list(corpus())
    for _ in range(count):
        out.append(" ".join(rng.choice(_WORDS) for _ in range(rng.randrange(1, 120))))
    return out


def test_a_stored_line_is_priced_exactly_and_rendered_as_before() -> None:
    for raw in _texts(11, 400):
        content = stored_text(raw)
        node = _node(content)
        line = render_line(node)
        assert line_tokens(node) == estimate_tokens(line + "\n")
        # What the line showed before it was priced this way: the content cleaned to MAX_LINE.
        assert line.endswith("): " + clean_text(content)), content


def test_a_longer_stored_line_is_cut_where_its_price_says() -> None:
    # An earlier attempt's summary may be stored longer than a line shows. Cut, it is cleaned
    # again (the cut can leave half a secret's name with a value), never to more than its price.
    benign = [w for w in _WORDS if w.isascii() and w.isalpha()]
    rng = random.Random(13)
    for _ in range(300):
        content = stored_text(" ".join(rng.choice(benign) for _ in range(rng.randrange(40, 90))), 500)
        node = _node(content, "attempt")
        line = render_line(node)
        assert line_tokens(node) == estimate_tokens(line + "\n")
        assert line.endswith("): " + clean_text(content)), content
    for raw in _texts(14, 400):
        node = _node(stored_text(raw, 500), "attempt")
        assert estimate_tokens(render_line(node) + "\n") <= line_tokens(node)


def test_a_line_not_stored_clean_is_never_longer_than_its_price() -> None:
    grows = "\ufb01" * 200  # NFKC makes each ligature two letters
    shrinks = "<b>bold</b> " * 30
    for content in [grows, shrinks, *_texts(12, 400)]:
        node = _node(content)
        line = render_line(node)
        assert estimate_tokens(line + "\n") <= line_tokens(node)
        assert len(line) - len(render_line(_node(""))) <= shown_length(content)
        assert "<b>" not in line and "\u200b" not in line
