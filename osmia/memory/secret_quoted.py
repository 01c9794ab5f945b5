"""A quoted literal shaped like a password, whatever the words around it say or in whatever language.

Most rules find a secret by what names it (``password =``, ``--token``, "the key is"). A run's note in
another language, or one that names nothing ("set it to 'TbUge3k%8cpT!OqK^MCm' on both ends"),
leaves no name to read; its quotes still mark one value. A literal between paired quotes (ASCII,
typographic, guillemets, corner brackets or backticks) is redacted when it reads as a password on
its own: 10 to 64 characters without a blank, with an upper-case letter, a lower-case letter, a
digit and a sign (``!#$%^&*+=?~@``), shaped as :func:`~osmia.memory.secret_values.spoken_password`
reads one; not a digest or nonce in base64 (``sha256-…=``, ``h1:…=``), a query string, a version, a
format string or URL escape, a glob, a colour, an anchor (``RFC6749#Token``), words joined by
``+`` (``Javascript+UL4``) or a sample that says so (``P@ssw0rd!Example``).
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.linear import Match, linear
from osmia.memory.secret_placeholders import REDACTED, is_placeholder, published_or_sample
from osmia.memory.secret_values import SIGNS, spoken_password

__all__ = ["QUOTED", "quoted_password", "quoted_sub"]

_OPEN = "'\"„“«「『‘‚`"
_CLOSE = "'\"”“»」』’‘`"
# What a literal between quotes cannot hold: a blank, another quote, brackets, separators.
_INSIDE = r"[^\s'\"„“”«»「」『』‘’‚`<>()\[\]{}\\|,;]"
# The step's pattern (and its gate in redaction's one scan): a quoted run of such characters with
# a sign in it (guillemets' own blanks inside them: « … »).
QUOTED = rf"[{_OPEN}][ \x{{a0}}]?({_INSIDE}*[!#$%^&*+=?~@]{_INSIDE}*)[ \x{{a0}}]?[{_CLOSE}]"
_QUOTED = linear(QUOTED)

_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
_DIGEST_PREFIX = linear(r"^[A-Za-z0-9]{1,12}[-:/]+")  # sha256-…, h1:…, sha256/…, nonce-…
_ASSIGNED = linear(r"^[A-Za-z_][A-Za-z0-9_]*=(.+)$")  # NAME=value inside the quotes
_DOT_VERSION = linear(r"\d\.\d")  # TLSv1.2+TLSv1.3, Django==4.2
_URL_ESCAPE = linear(r"%[0-9A-Fa-f]{2}")
_FORMAT_OR_RANGE = linear(r"%\d*\.\d*[a-z]|a-z|A-Z|0-9")  # "VS%0.f0COMNTOOLS" % v, 'a-zA-Z0-9_$'
_COLOUR = linear(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$")
_ANCHOR = linear(r"^[A-Za-z0-9._-]+#[A-Za-z]+$")  # RFC6749#Token: a page and a section's name
_GLOB = linear(r"(?:^|\.)\*|\*(?:\.|$)")  # *.log, Microsoft.VC14*.CRT
_SAMPLE = linear(r"(?i)example|sample|placeholder|dummy|changeme|your")  # 'P@ssw0rd!Example'
_JOINED_WORDS = linear(r"^(?:[A-Z]?[a-z]+|[A-Z0-9]+)(?:\+(?:[A-Z]?[a-z]+|[A-Z0-9]+))+$")  # Python+UL4


def quoted_password(value: str) -> bool:
    """Whether a quoted literal reads as a password on its own (the module's docstring says how)."""
    if not 10 <= len(value) <= 64 or REDACTED in value:
        return False
    unescaped = _URL_ESCAPE.sub("", value)  # username%3Apassword: its sign is an escape's
    if not (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
        and any(c in SIGNS for c in unescaped)
    ):
        return False
    if _FORMAT_OR_RANGE.search(value) is not None:
        return False
    core = _DIGEST_PREFIX.sub("", value)
    if set(core) <= _BASE64 and (len(core) >= 16 or value.endswith("=")):
        return False  # a digest or a nonce in base64
    if "::" in value or ("&" in value and "=" in value):
        return False  # a namespace or a query string
    assigned = _ASSIGNED.match(value)
    if assigned is not None and not value.endswith("="):
        return quoted_password(assigned.group(1) or "")  # BRANCH=release/5.2: the value alone
    if _DOT_VERSION.search(value) is not None or value.startswith("%"):
        return False
    if len(_URL_ESCAPE.findall(value)) >= 2 or _COLOUR.search(value) is not None:
        return False
    if _ANCHOR.match(value) is not None or _GLOB.search(value) is not None:
        return False
    if _JOINED_WORDS.match(value) is not None:
        return False
    if is_placeholder(value) or published_or_sample(value) or _SAMPLE.search(value) is not None:
        return False
    return spoken_password(value)


def quoted_sub() -> Callable[[str], str]:
    """The step: each quoted literal that reads as a password becomes ``[redacted]``, quotes kept."""

    def replace(m: Match) -> str:
        whole = m.group(0) or ""
        value = m.group(1) or ""
        if not quoted_password(value):
            return whole
        start = m.start(1) - m.start(0)
        return whole[:start] + REDACTED + whole[start + len(value) :]

    return lambda text: _QUOTED.sub(replace, text)
