"""Web credentials that no name in front of them gives away: keys in URL fragments, HTTPie's auth.

Part of :data:`osmia.memory.secret_formats.RULES`, spliced in after the credentials in URLs and
headers (the order of the rules is the order redaction applies them). A browser never sends a
URL's fragment to the server, so a sharing service (Bitwarden Send, Firefox Send, PrivateBin,
Mega, Yopass) puts the key that decrypts what is shared there, and an OAuth implicit flow its
access token (``#access_token=…``): whoever has the link has the secret. A fragment is most
often an anchor (``#installation``, ``#L42-L60``, ``#diff-<hex>``, ``#/d/AbCdEf/dashboard``), so
only a segment that looks generated (both cases and a digit, random, no UUID or hex digest, and
not words joined by dashes) is taken. HTTPie and xh take ``user:password`` after ``-a``/``--auth``,
as curl does after ``-u``; Apache Bench after ``-A``; Windows' tools after their own switches.
"""

from __future__ import annotations

from osmia.memory.english import holds_common_word
from osmia.memory.secret_placeholders import not_placeholder, uuid_shaped
from osmia.memory.secret_rule import Rule
from osmia.memory.secret_rule import rule as _rule
from osmia.memory.secret_values import generated_value, looks_random, plain_words

__all__ = ["WEB_RULES"]

_HEXISH = frozenset("0123456789abcdefABCDEF-")


def _fragment_key(value: str) -> bool:
    """A key in a URL's fragment: 16 characters or more of both cases and a digit, random, and no
    UUID or hex digest (an anchor to a diff or a commit)."""
    return (
        looks_random(value, 16)
        and any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() for c in value)
        and not uuid_shaped(value)
        and not set(value) <= _HEXISH
        and not _worded(value)
    )


def _worded(value: str) -> bool:
    """Words joined by ``-`` or ``_`` for half its letters or more: an anchor
    (``section-3-2-Configuring-OAuth2``), not a key."""
    pieces = value.replace("_", "-").split("-")
    words = sum(len(p) for p in pieces if p.isalpha() and (p.islower() or p.isupper() or p.istitle()))
    return len(pieces) > 1 and 2 * words >= len(value) - len(pieces) + 1


# A URL (with a scheme, or a host with a dot and a path) up to its fragment.
_URL_TO_FRAGMENT = r"(?i)(?:\b[a-z][a-z0-9+.-]{1,20}://|\b(?:[a-z0-9-]+\.)+[a-z]{2,}/)[^\s#\"'<>`]*#"

WEB_RULES: tuple[Rule, ...] = (
    # A secret parameter in a fragment (``#access_token=…&token_type=…``, ``#key=…``, ``#k=…``,
    # ``#/reset?token=…``).
    _rule(
        "fragment-parameter",
        _URL_TO_FRAGMENT
        + r"(?:[^\s#\"'<>`]*?[?&/;])?(?:access_token|id_token|refresh_token|token|key|k|secret"
        r"|password|pass|auth|sig|signature)=([^\s&#\"'<>`]{8,})",
        1,
        lambda value: not_placeholder(value) and (generated_value(value) or _fragment_key(value)),
        r"(?i)#[^\s#]*(?:token|key|k|secret|password|pass|auth|sig|signature)=",
    ),
    # ... or the last segment of the fragment, a generated key (``send.bitwarden.com/#<id>/<key>``,
    # ``mega.nz/file/<id>#<key>``, ``privatebin…/?<id>#<key>``, ``yopass.se/#/s/<id>/<key>``).
    _rule(
        "fragment-key",
        _URL_TO_FRAGMENT + r"(?:[^\s\"'<>`)\]]*[/!:~])?([A-Za-z0-9_-]{16,})(?:[^A-Za-z0-9_/!:~=-]|$)",
        1,
        _fragment_key,
        r"[^\s#\"'<>`]#",
    ),
    # HTTPie's and xh's ``-a user:password`` (``--auth`` is curl's rule's too), Apache Bench's ``-A``.
    _rule(
        "httpie-auth",
        r"(?:\b(?:http|https|xh|xhs)\b[^\n|;&]*?[ \t](?:-a|--auth)|\bab\b[^\n|;&]*?[ \t]-A)(?:[ \t]+|=)"
        r"[\"']?[^\s:\"'=@]+:([^\s\"'/][^\s\"']{2,})",
        1,
        not_placeholder,
        r"[ \t](?:-a|--auth|-A)(?:[ \t]+|=)[\"']?[^\s:\"'=@]+:",
    ),
    # A stream key, the last part of an RTMP or SRT ingest URL's path (``rtmp://…/app/<key>``,
    # YouTube's ``rtmp://…/live2/<key>``, after its ``?backup=1/``): whoever holds it streams as
    # the channel. A path part of words (``live``, ``stream``) is the application's, not a key.
    _rule(
        "stream-key-url",
        r"(?i)\b(?:rtmps?|rtmpt|srt)://[^\s\"'/]+(?:/[^\s\"'/]+)*?/((?-i:[A-Za-z0-9_-]{12,}))(?:[\s\"']|$)",
        1,
        lambda value: looks_random(value, 12) and not plain_words(value) and not holds_common_word(value),
        r"(?i)\b(?:rtmps?|rtmpt|srt)://",
    ),
    # Windows' switches that take a password: ``cmdkey /pass:…``, ``schtasks /create … /rp …``,
    # ``psexec -p …``, ``wmic /password:…``, ``sc config … password= …``, and ``reg add … /v
    # DefaultPassword … /d …`` (a value whose name says password).
    _rule(
        "windows-password-switch",
        r"(?i)(?:\b(?:cmdkey|schtasks|psexec(?:64)?|wmic|sc(?:\.exe)?)\b[^\n|&]*?[ \t]"
        r"(?:/pass(?:word)?:|/rp[ \t]+|-p[ \t]+|password=[ \t]*)"
        r"|\breg(?:\.exe)?[ \t]+add\b[^\n|&]*?/v[ \t]+[\"']?[\w]*(?:password|passwd|secret|token)\w*[\"']?"
        r"[^\n|&]*?[ \t]/d[ \t]+)[\"']?([^\s\"'/][^\s\"']{2,})",
        1,
        not_placeholder,
        r"(?i)(?:/pass|/rp|-p[ \t]|password=|/d[ \t])",
    ),
)
