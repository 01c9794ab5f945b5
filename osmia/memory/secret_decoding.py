"""What a run of base64 or hex letters decodes to: text, or the start of a private key.

:mod:`osmia.memory.redaction` and :mod:`osmia.memory.secret_commands` decode a long run
before judging it, so that a secret encoded once (``echo … | base64``, a Kubernetes
Secret's ``data:``, a key's DER body) is found by the rules that find it in clear.
"""

from __future__ import annotations

import base64
import binascii
import string

from osmia.memory.linear import linear

# Printable ASCII and the white space of text files.
_TEXT_BYTES = bytes(range(32, 127)) + b"\t\n\r"
_PEM_HEAD = linear(r"-{3,}[ \t]*BEGIN[ \t]+[A-Z0-9 ]*PRIV")


def decoded_text(run: str) -> str | None:
    """What a base64 or hex run (base64 standard or URL-safe, possibly wrapped across lines)
    encodes, when that is text (90 % or more printable bytes) or starts a private key; else None.

    A base64 run may carry a prefix joined to it (``b64-LS0t…``) or be cut short, so each of the
    four alignments is tried; a last group of two or three characters is padded, not dropped (it
    holds the encoding's last one or two bytes). A private key's binary body (DER: PKCS#1,
    PKCS#8, SEC1; OpenSSH's ``openssh-key-v1``) decodes to :data:`KEY_BODY`.
    """
    compact = "".join(run.split()).rstrip("=")
    if len(compact) >= 32 and len(compact) % 2 == 0 and set(compact) <= HEX_DIGITS:
        raw = bytes.fromhex(compact)
        if _is_text(raw):
            return raw.decode("ascii")
    # ... or a path's last segments (``TestRegistryAuth/Z2xwYXQt…``): the run after each of its
    # first three slashes is tried too (a slash is a base64 character as well).
    starts = [0]
    for _ in range(3):
        slash = compact.find("/", starts[-1])
        if slash < 0:
            break
        starts.append(slash + 1)
    for start in starts:
        found = _decoded_base64(compact[start:].replace("-", "+").replace("_", "/"))
        if found is not None:
            return found
    return None


def _decoded_base64(compact: str) -> str | None:
    for offset in range(4):
        body = compact[offset:]
        if len(body) % 4 == 1:
            body = body[:-1]
        if len(body) < 32:
            return None
        try:
            raw = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
        except (binascii.Error, ValueError):
            continue
        if _is_text(raw):
            return raw.decode("utf-8", "replace")
        if _PEM_HEAD.search(raw[:80].decode("latin-1")) is not None:
            return raw.decode("latin-1")
        if offset == 0 and _key_body(raw):
            return KEY_BODY
    return None


# What :func:`decoded_text` gives for a private key's binary body: a key header, as the caller
# checks for one (:func:`private_key_head`).
KEY_BODY = "-----BEGIN PRIVATE KEY----- (a key's binary body)"
HEX_DIGITS = frozenset(string.hexdigits)  # either case


def _is_text(raw: bytes) -> bool:
    """90 % or more printable ASCII (or tabs and line breaks): a decoding that reads as text."""
    return len(raw.translate(None, _TEXT_BYTES)) <= len(raw) // 10


def _key_body(raw: bytes) -> bool:
    """Whether ``raw`` starts a private key: OpenSSH's, or DER whose outer SEQUENCE starts with
    the version INTEGER 0 or 1 followed by a SEQUENCE (PKCS#8's algorithm), an INTEGER (PKCS#1's
    modulus) or an OCTET STRING (SEC1's key). Certificates and public keys start with a
    SEQUENCE instead of the version."""
    if raw.startswith(b"openssh-key-v1\x00"):
        return True
    if len(raw) < 8 or raw[0] != 0x30:
        return False
    size = raw[1]
    head = 2 + (size - 0x80 if 0x81 <= size <= 0x83 else 0)
    version = raw[head : head + 4]
    return (
        len(version) == 4
        and version[:3] in (b"\x02\x01\x00", b"\x02\x01\x01")
        and version[3] in (0x30, 0x02, 0x04)
    )


def private_key_head(text: str) -> bool:
    """Whether ``text`` holds the header of a private key (``-----BEGIN OPENSSH PRIV…``, even cut short)."""
    return _PEM_HEAD.search(text) is not None
