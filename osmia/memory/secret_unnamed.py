"""A generated secret that nothing names: a random run of letters and digits standing on its own.

Every other step finds a secret by what surrounds it: a name (``password:``, ``--token``), a
format's prefix (``ghp_``, ``AKIA``), quotes around a password, a verb in prose. A run's note
leaves all of them out as often as not: a table's cell under a header no rule knows ("Local
enable"), a line of a vendor's config (``snmp community obs-… authorization read-only``), a
value split across two variables (``_B = "S6iu…"``), a password in a CSV row, a dump of a wire
protocol (``$21\\r\\nSjO5…``). The red-team sets showed that these leak in every slice of text,
each in its own format: rules for formats follow them one slice behind.

What they share is their shape. A generated secret mixes upper-case letters, lower-case letters and
digits throughout, with no word in it; an engineer's text rarely holds such a run that is not one.
This step redacts a run of 12 to 64 characters (letters, digits, ``_ . ~ + -``) that

- has an upper-case letter, a lower-case letter and a digit, and reads as random
  (:func:`~osmia.memory.secret_values.fragment_value`: parts of a letter or two, not words);
- holds no word (a common one of four letters, or one of :func:`~osmia.memory.english.frequent_words`
  of five: ``V1HTTPHeader``, ``kCFStringEncodingUTF8``), no words joined by a separator, no date,
  no file's extension, and is not three short codes joined (``pET28-GFP-v3``);

and is not what such runs are in ordinary text:

- an object's id with a type's prefix (``cus_…``, ``evt_…``, ``chatcmpl-…``, ``GHSA-…``, ``pk.…``),
  or one of the ids that start with zeros (Salesforce's, Okta's);
- a digest or key in hex, a UUID, base64 of text or of a public key, a certificate or a JWT's
  header (``MII…``, ``MFkw…``, ``AAAA…``, ``eyJ…``), base64 with its padding (hashes, nonces,
  public keys: a secret's base64 ends in ``=`` too, but its name is there to say so);
- a published or sample value;
- inside a URL, a path, an e-mail address or an expression (``name(…``), or in a public key's or
  certificate's PEM block;
- after a word that says it is something else within the line's last 40 characters (an id, a
  request, a trace, a nonce, a customer, a commit, a public or publishable key…; a word in quotes
  names another value), or under a label whose name says so (``uid=``, ``"kid": "…"``,
  ``x-request-id:``), or a JSON Web Key's coordinates.

Not inside one of redaction's views (:data:`osmia.memory.redaction._IN_A_VIEW`): pieces joined read
as random where none is.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable

from osmia.memory.english import frequent_word, holds_common_word
from osmia.memory.linear import linear
from osmia.memory.secret_decoding import decoded_text
from osmia.memory.secret_placeholders import REDACTED, published_or_sample, uuid_shaped
from osmia.memory.secret_values import fragment_value, joined_words, worded_name

__all__ = ["UNNAMED", "unnamed_secret", "unnamed_sub"]

# A run's characters, and the step's pattern (its gate in redaction's one scan as well): a run that
# holds a digit, an upper-case and a lower-case letter, in any order, with base64's padding after it.
_RUN = r"[A-Za-z0-9_.~+\-]"
UNNAMED = (
    rf"{_RUN}*(?:\d{_RUN}*(?:[A-Z]{_RUN}*[a-z]|[a-z]{_RUN}*[A-Z])"
    rf"|[A-Z]{_RUN}*(?:\d{_RUN}*[a-z]|[a-z]{_RUN}*\d)"
    rf"|[a-z]{_RUN}*(?:\d{_RUN}*[A-Z]|[A-Z]{_RUN}*\d)){_RUN}*=*"
)
_UNNAMED = linear(UNNAMED)

_SHORTEST, _LONGEST = 12, 64
# What may not touch the run: it is then part of a larger token (a URL, a path, an address, a
# name's value written without a blank, ``uid=…``, a variable, a query, a scheme's ciphertext:
# ``{cipher}…``) that other rules read.
_BEFORE = frozenset(".~+=/%@:#$&?-\\}")
_AFTER = frozenset("/@(\\")
# A regular expression's class of characters ends here (``[sSwWdDbBZApPxucItnvfr0]+``).
_CLASS_END = ("]+", "]*", "]?", "]{")
_CALLED = linear(r"[A-Za-z_]\($")
# An object's id: a type's prefix before a separator (``cus_``, ``evt_``, ``chatcmpl-``, ``GHSA-``,
# ``SYS_``, ``R_``, ``sq0idp-``, ``pk.``, ``AT.``) or a constant's first word
# (``_OP_NO_SSLv2_OR_SSLv3``), or zeros and a type's letters (Salesforce's ``00D…``, Okta's
# ``0oa…``), or a hexadecimal number (``0xA9869B8C…``).
_TYPED = linear(r"^(?:[a-z][a-z0-9]{0,13}[_-]|[A-Za-z]{2,4}\.|_*[A-Z]{1,8}_|[A-Z]{2,8}-|0[0-9ox])")
# Binary a run of base64 starts with when it is public: DER (a certificate, a public key), an SSH
# public key, a JSON Web Token's header.
_PUBLIC_BASE64 = ("MI", "MF", "AAAA", "eyJ")
# Twelve lower-case hex digits in a row: in one random run of base 62 in ten million.
_HEX_RUN = linear(r"[0-9a-f]{12}")
_EXTENSION = linear(r"\.[a-z][a-z0-9]{0,4}$")  # a file's name: ``…_R1_001.fastq.gz``, ``report2.pdf``
_SEPARATORS = linear(r"[-_.]")
_DATE = linear(r"\d{8}")  # 19980424: a date's digits, in a standard's or a file's name
# The run's pieces apart at case and digits: capitals and the small letters after them, or small
# letters (``V1HTTPHeader``: ``V``, ``HTTPHeader``; :func:`_words` parts an acronym from its word).
_PIECES = linear(r"[A-Z]+[a-z]*|[a-z]+")
# A word that says the run is something other than a secret: an object's or a request's id, a
# digest, a public value.
_SOMETHING_ELSE = linear(
    r"(?i)\b(?:ids?|uid|guid|sid|serial|nonce|state|hash|digest|checksum|fingerprint|accessor|request"
    r"|trace|correlation|event|message|cursor|etag|version|kid|jti|x5t|thumbprint|public|publishable"
    r"|site[ -]?key|client[ _-]?id|clientid|record|object|customer|charge|intent|refund|invoice|order"
    r"|cluster|org|organi[sz]ation|tenant|subscription|project|base|table|view|commit|sha\d*|build|job"
    r"|place|entity|dashboard|folder|template|app|application|location|deployment|prediction|issue"
    r"|ticket|challenge)\b"
)
# A label just before the run (``name = "``, ``name: ``, ``name | ``, ``name is ``): its name, for the
# word above or a name's ending that says the same (``request_id``, ``x-cache-key``, ``filename``).
_LABEL = linear(r"([\w.\[\]-]*)[\])\"'#]?[ \t]{0,3}(?:=>|->|=|:|\||\bis|\bas|\bto)[ \t]{0,3}[\"'`“«„‘]?$")
_QUOTED_STRING = linear(r"\"[^\"\n]*\"|'[^'\n]*'")
_NAMES_SOMETHING_ELSE = linear(r"(?i)(?:id|key|hash|sum|name|url|path|file|ref|tag|sha|uri|host)s?$")
_PUBLIC_PEM = linear(
    r"-----BEGIN (?:PUBLIC KEY|CERTIFICATE|PGP PUBLIC KEY BLOCK|RSA PUBLIC KEY|SSH2 PUBLIC KEY)"
)
_JWK = linear(r"\"kty\"\s*:")


# Base58's alphabet (no ``0``, ``O``, ``I``, ``l``): a run of 32 to 44 of its characters is 32 bytes,
# as Solana writes its addresses; of random runs of letters and digits that long, one in nine (32
# characters) to one in nineteen (44) avoids the four.
_BASE58 = frozenset("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz")


def unnamed_secret(value: str) -> bool:
    """Whether ``value``, a run standing on its own, reads as a generated secret (the module's
    docstring says how)."""
    if not _SHORTEST <= len(value) <= _LONGEST or value.endswith("="):
        return False  # too short to tell from a word, or base64's padding: a hash, a nonce, a key
    upper, lower, digit = (any(test(c) for c in value) for test in (str.isupper, str.islower, str.isdigit))
    if not (upper and lower and digit):
        return False
    if _TYPED.search(value) is not None or value.startswith(_PUBLIC_BASE64):
        return False
    if uuid_shaped(value) or published_or_sample(value) or _DATE.search(value) is not None:
        return False
    if _HEX_RUN.search(value) is not None:
        return False  # a digest or an id in hex, decorated (``9b8f173e4766fcdc-FRA``, ``AC5fc7c3…``)
    if 32 <= len(value) <= 44 and set(value) <= _BASE58:
        return False  # 32 bytes in base58: a Solana account's or program's address (a public key)
    if salesforce_id(value):
        return False  # a Salesforce record's id, its last three characters the case of the rest
    if _YOUTUBE_ID.match(value) is not None:
        return False  # a YouTube channel's (``UC`` and 22) or playlist's (``PL`` and 16-32) id
    if joined_words(value) or holds_common_word(value) or worded_name(value):
        return False
    if _EXTENSION.search(value) is not None or _short_parts(value):
        return False
    if decoded_text(value) is not None or _short_base64_text(value):
        return False
    if not fragment_value(value):
        return False
    return not any(frequent_word(word) for word in _words(value))


_CASE_CHECK = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
_YOUTUBE_ID = linear(r"^(?:UC[A-Za-z0-9_-]{22}|(?:PL|UU|LL|OL)[A-Za-z0-9_-]{16,32})$")


def salesforce_id(value: str) -> bool:
    """A Salesforce record's 18-character id (``a0Bi0iuHHHWsSj3Wcd``): its last three characters
    spell which of the first fifteen are capitals, five at a time, so a random run of 18 has it one
    time in 32,768."""
    if len(value) != 18 or not value.isalnum() or not value.isascii():
        return False
    suffix = ""
    for chunk in (value[0:5], value[5:10], value[10:15]):
        bits = sum(1 << i for i, c in enumerate(chunk) if c.isupper())
        suffix += _CASE_CHECK[bits]
    return value[15:] == suffix


def _words(run: str) -> list[str]:
    """The words inside ``run``, apart at case and digits, an acronym apart from the word after it
    (``V1HTTPHeader``: ``V``, ``HTTP``, ``Header``)."""
    words: list[str] = []
    for m in _PIECES.finditer(run):
        piece = m.group(0) or ""
        capitals = len(piece) - len(piece.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        if 2 <= capitals < len(piece):
            words.extend((piece[: capitals - 1], piece[capitals - 1 :]))
        else:
            words.append(piece)
    return words


def _short_parts(run: str) -> bool:
    """Whether ``run`` is three parts or more of six characters at most, joined by ``-``, ``_`` or
    ``.``: a name built of codes (a plasmid's ``pET28-GFP-v3``, a sample's ``S1_L001_R1``), a
    version, a part number."""
    parts = _SEPARATORS.split(run)
    return len(parts) >= 3 and all(len(part) <= 6 for part in parts)


def _short_base64_text(run: str) -> bool:
    """Whether ``run`` is base64 of printable ASCII (``ZXUtd2VzdC0x``: ``eu-west-1``), too short for
    :func:`~osmia.memory.secret_decoding.decoded_text` (nine random bytes are all printable once in
    ten thousand runs)."""
    if len(run) % 4:
        return False
    try:
        raw = base64.b64decode(run, validate=True)
    except (binascii.Error, ValueError):
        return False
    return all(32 <= byte < 127 for byte in raw)


def _said_otherwise(text: str, start: int) -> bool:
    """Whether what comes before ``start`` says the run there is something other than a secret: a
    word on its line in the 40 characters before, but for those in quotes (``"version":"stable",``
    names another value), or the name of a label just before it (``"kid": "``, ``uid=``)."""
    line = text[max(0, start - 200) : start].rsplit("\n", 1)[-1]
    if _SOMETHING_ELSE.search(_QUOTED_STRING.sub(" ", line)[-40:]) is not None:
        return True
    before = text[max(0, start - 40) : start]
    label = _LABEL.search(before)
    if label is None:
        return False
    name = (label.group(1) or "").replace("_", " ")
    return _SOMETHING_ELSE.search(name) is not None or _NAMES_SOMETHING_ELSE.search(name) is not None


def unnamed_sub() -> Callable[[str], str]:
    """The step: each run that reads as a generated secret on its own becomes ``[redacted]``."""

    def step(text: str) -> str:
        public = _PUBLIC_PEM.search(text)
        public_from = public.start() if public is not None else len(text)
        jwk = _JWK.search(text) is not None
        pieces: list[str] = []
        last = 0
        for m in _UNNAMED.finditer(text):
            start = m.start()
            run = (m.group(0) or "").rstrip(".")
            end = start + len(run)
            if start >= public_from or (start > 0 and text[start - 1] in _BEFORE):
                continue
            if _CALLED.search(text[max(0, start - 12) : start]) is not None:
                continue  # an argument: ciphertext to decrypt (``ENC(…``), a value to convert
            if end < len(text) and text[end] in _AFTER and text[end : end + 2] != "\\\n":
                continue  # a path's or an address's part (a line's escaped break is not)
            if text[end : end + 2] in _CLASS_END:
                continue
            if not unnamed_secret(run) or _url_before(text, start) or _said_otherwise(text, start):
                continue
            if jwk and _LABEL.search(text[max(0, start - 40) : start]) is not None:
                continue  # a JSON Web Key's coordinates and ids: public by design
            pieces.append(text[last:start])
            pieces.append(REDACTED)
            last = end
        if not pieces:
            return text
        pieces.append(text[last:])
        return "".join(pieces)

    return step


def _url_before(text: str, start: int) -> bool:
    """Whether the run at ``start`` is inside a URL: its scheme earlier in the same word, within the
    256 characters before (a bounded look back: a text of runs and no blank is not read again from
    its start for each run)."""
    before = text[max(0, start - 256) : start]
    word_start = max(before.rfind(" "), before.rfind("\n"), before.rfind("\t"))
    return "://" in before[word_start + 1 :]
