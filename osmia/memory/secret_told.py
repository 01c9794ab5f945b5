"""A value said to be a secret after it is given, under a label that says otherwise.

A run hides a credential by labelling it as something harmless, then says what it is:
``git_sha: b56c…   <- actually the Datadog application key``, ``md5sum: 0a8d…  (that's the
Twilio auth token, not a hash)``, ``request id dc1a…-… - actually it's the Heroku API key``. No
rule takes a digest, a UUID or a build number under its own label. Where a phrase says that a
value *is* a key, token, password or secret after all ("actually", "really", "in fact", "the
real key") or that it is no hash, commit or id ("not a hash"), the values shaped as generated
(hex of 16 digits or more, a UUID, a random run) on its line and on the line before are redacted.
A cue negated ("not real credentials") says the opposite, and a documented example is no secret.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.english import holds_common_word
from osmia.memory.linear import linear
from osmia.memory.secret_decoding import HEX_DIGITS
from osmia.memory.secret_placeholders import is_placeholder, spans_redacted, uuid_shaped
from osmia.memory.secret_values import looks_random

__all__ = ["TOLD_AFTER", "told_after_sub"]

_NOUN = r"(?:key|token|password|passwd|secret|credential)"
TOLD_AFTER = (
    rf"(?i)\b(?:actually|really|in[ \t]+fact)\b[^\r\n]{{0,80}}?{_NOUN}"
    rf"|(?i)\breal[ \t]+(?:[\w-]+[ \t]+){{0,2}}?{_NOUN}"
    r"|(?i)\bnot[ \t]+(?:a|an|the)[ \t]+(?:hash|digest|checksum|commit|sha|uuid|build|request|trace)"
)
_TOLD_AFTER = linear(TOLD_AFTER)
_RUN = linear(r"[A-Za-z0-9+/_-]{16,}={0,2}")


def _generated(run: str) -> bool:
    """Hex of 16 digits or more, a UUID, or a random run with no common word in it."""
    hexadecimal = set(run) <= HEX_DIGITS and any(c.isdigit() for c in run) and any(c.isalpha() for c in run)
    if is_placeholder(run):
        return False  # a documented example (AWS's ``…/bPxRfiCYEXAMPLEKEY``) or a sample
    if uuid_shaped(run) or hexadecimal:
        return True
    return looks_random(run, 16) and not holds_common_word(run)


# A cue negated ("not real credentials", "no real key"): it says the values are none.
_NEGATED = ("not ", "no ", "n't ", "never ")


def told_after_sub() -> Callable[[str], str]:
    """The redaction step for values told to be secrets after them (see the module docstring)."""

    def step(text: str) -> str:
        spans: list[tuple[int, int]] = []
        read: set[int] = set()  # the windows read (untrusted text may repeat a phrase on one line)
        for cue in _TOLD_AFTER.finditer(text):
            line_start = text.rfind("\n", 0, cue.start(0)) + 1
            start = text.rfind("\n", 0, max(line_start - 1, 0)) + 1 if line_start else 0
            if start in read:
                continue
            if text[max(line_start, cue.start(0) - 8) : cue.start(0)].lower().endswith(_NEGATED):
                continue
            read.add(start)
            end = text.find("\n", cue.end(0))
            window = text[start : len(text) if end < 0 else end]
            spans += [
                (start + m.start(0), start + m.end(0))
                for m in _RUN.finditer(window)
                if _generated(m.group(0) or "")
            ]
        return spans_redacted(text, spans) if spans else text

    return step
