"""TextMemo: remembered results equal the function's, within its bounds, and no raw text is kept."""

from __future__ import annotations

from osmia.memory.memo import TextMemo
from osmia.memory.sanitize import redacted


def test_results_equal_the_function_and_are_computed_once() -> None:
    calls: list[str] = []

    def upper(text: str) -> str:
        calls.append(text)
        return text.upper()

    memo = TextMemo(upper, capacity=2)
    assert [memo("a"), memo("b"), memo("a")] == ["A", "B", "A"]
    assert calls == ["a", "b"]
    memo("c")  # "b" is now the least recently used: it leaves
    memo("a")
    memo("b")
    assert calls == ["a", "b", "c", "b"]


def test_a_long_text_is_computed_every_time() -> None:
    calls: list[str] = []
    memo = TextMemo(lambda t: calls.append(t) or t, max_len=3)
    memo("abcd")
    memo("abcd")
    assert calls == ["abcd", "abcd"]


def test_keeps_no_raw_text_of_a_secret() -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    memo = TextMemo(redacted)
    assert secret not in memo(f"deploy/{secret}/config.yaml")
    assert all(secret not in repr(k) and secret not in v for k, v in memo._results.items())


def test_text_a_codec_cannot_encode_is_still_a_key() -> None:
    memo = TextMemo(lambda t: t + "!")
    assert memo("lone \ud800 surrogate") == "lone \ud800 surrogate!"
