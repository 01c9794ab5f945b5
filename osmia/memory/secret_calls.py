"""Secrets given to calls: a name and its value as two strings, literals given by position to a call
that takes credentials, a key's bytes as a list of literals, a lookup's fallback.

``os.Setenv("DB_PASSWORD", "…")``, ``new PDO($dsn, 'user', '…')``, ``static const uint8_t key[32] =
{ 0xab, … }``, ``process.env.JWT_SECRET ?? "…"``: code that holds a secret where no assignment to a
secret's name does. Names are read as :mod:`osmia.memory.secret_names` reads them; :data:`CALL_STEPS`
run right after its steps, in this order.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from osmia.memory.linear import Match, linear
from osmia.memory.secret_decoding import HEX_DIGITS
from osmia.memory.secret_name_values import STRONG_NAME, key_named, name_allowed, strong_value
from osmia.memory.secret_name_words import IDENT, STRONG, WEAK
from osmia.memory.secret_names import redacted_group, substitution
from osmia.memory.secret_placeholders import REDACTED, content_key, is_placeholder, uuid_shaped
from osmia.memory.secret_values import (
    camel_word,
    long_hex,
    looks_random,
    password_value,
    worded_key,
    worded_name,
)

__all__ = ["CALL_STEPS"]

# A name and its value given to a call as two strings: os.Setenv("DB_PASSWORD", "…"),
# ENV.fetch("API_TOKEN", "…"), django-environ's env("SECRET_KEY", default="…"), PHP's
# define('AUTH_KEY', '…') (a weak name's value only when random: WordPress's ``NONCE_KEY``).
_CALL_PAIR = (
    rf"""(?i)["'`]({IDENT}(?:{STRONG}|{WEAK}){IDENT})["'`][ \t]*,[ \t]*(?:default[ \t]*=[ \t]*)?"""
    r"""["'`]([^"'`\s]{4,})["'`]"""
)
# Literals given by position to a call that takes credentials (PHP's ``new PDO($dsn, 'user', '…')``,
# Perl's ``DBI->connect($dsn, "user", "…")``, its constructor in a stack trace
# (``PDO->__construct('mysql:…', 'wp', '…')``), ``AuthTokens.basic("neo4j", "…")``,
# ``new BasicAWSCredentials("AKIA…", "…")``, ``algoliasearch("APPID", "…")``, a requests ``auth=("",
# "…")`` tuple, Twilio's ``Client("SK…", "…", "AC…")``, PayPal's ``LiveEnvironment(id, "…")``, MQTT's
# ``username_pw_set("u", "…")``):
# the literals after the first, each judged alone; the first is a DSN, host or user. (The login
# calls of :mod:`osmia.memory.secret_commands` take any value but a placeholder; these callees,
# whose literals may be hosts, ports or buckets, take only a secret's shape.)
_LITERAL = r"""(?:"[^"\r\n]*"|'[^'\r\n]*')"""
_CREDENTIAL_CALL = (
    r"""(?i)(?:\bPDO->__construct[ \t]*\("""
    r"""|\b(?:\w+(?:\.|->|::))*\w*(?:connect|credentials?|basic|auth|login|logon|signin|pdo|pw_set"""
    r"""|algoliasearch|client|liveenvironment|sandboxenvironment)\w*[ \t]*\("""
    r"""|\bauth["']?[ \t]*[:=][ \t]*[(\[])[ \t\r\n]*"""
    rf"""({_LITERAL})[ \t]*,[ \t\r\n]*({_LITERAL})(?:[ \t]*,[ \t\r\n]*({_LITERAL}))?"""
)
# A key written as a list of byte literals, as C, Rust and Go embed one (``static const uint8_t
# k_fw_key[32] = { 0xab, 0x13, … }``, ``let key: [u8; 32] = [0x…, …]``, ``[]byte{0x…, …}``): sixteen
# bytes or more after a name of a key, over lines too.
_BYTE_LIST = (
    rf"(?i)({IDENT}(?:{STRONG}|key|secret|seed|salt|psk|iv)[A-Za-z0-9_]*)[ \t]*(?:\[[^\]\r\n]*\])*"
    r"[ \t]*(?::[^=\r\n]*)?=[ \t]*(?:[\w:&!\[\]]*[ \t]*)?[{\[(][ \t\r\n]*"
    r"((?:0x[0-9A-Fa-f]{1,2}[ \t]*,[ \t\r\n]*){15,}0x[0-9A-Fa-f]{1,2})"
)
# The default a lookup falls back to (``process.env.JWT_SECRET ?? "…"``, ``os.getenv("X") or
# "…"``, ``ENV['TOKEN'] || '…'``): the literal after the fallback's operator, on the assignment's line.
_FALLBACK = (
    rf"""(?i)({IDENT}{STRONG}{IDENT})["'`]?\]?[ \t]*(?::[^=\r\n]*)?:?=[ \t]*[^\r\n;]*?[ \t]"""
    r"""(?:\?\?|\|\||or|\?:)[ \t]*["'`]([^"'`\s]{6,})["'`]"""
)
# What every match of three of the steps above holds, for redaction's one scan (each whole pattern
# would cost the scan's automaton more states): a fallback's operator before a literal, a
# credential-taking call opened on a literal, two byte literals in a list.
_FALLBACK_GATE = r"""(?:\?\?|\|\||[ \t]or|\?:)[ \t]*["'`][^"'`\s]{6}"""
_CREDENTIAL_CALL_GATE = (
    r"""(?i)(?:connect|credential|basic|auth|login|logon|signin|pdo|algoliasearch|client|pdo->__construct|pw_set"""
    r"""|liveenvironment|sandboxenvironment)"""
    r"""\w*[ \t]*\("""
    r"""[ \t\r\n]*["']|\bauth["']?[ \t]*[:=][ \t]*[(\[][ \t\r\n]*["']"""
)
_BYTE_LIST_GATE = r"0x[0-9A-Fa-f]{1,2}[ \t]*,[ \t\r\n]*0x[0-9A-Fa-f]{1,2}[ \t]*,"
# A test's name as frameworks write one (``test_password_reset``, ``TestTokenRefresh``,
# ``AuthServiceTest.testLogin2``, ``login_test``): two of them side by side are a list of tests, not
# a name and its value, whatever the first is named for (when the second is made of words).
_TEST_NAME = linear(
    r"^(?:[A-Za-z_]\w*(?:\.|::))*(?:[Tt]est(?:_\w+|[A-Z0-9]\w*)|[a-z]\w*_test|\w*[a-z0-9]Test)$"
)


def _call_pair_replace(m: Match) -> str:
    whole = m.group(0) or ""
    name, value = m.group(1) or "", m.group(2) or ""
    # ["password", "email"] and ("API_TOKEN", "API_TOKEN_FILE") are lists of names: only a value
    # shaped like a password, or a random one with a digit; under a weak name, only a random one
    # that is no content hash (``("cache_key", "v3:catalog:…")``) nor a name written in camel case
    # (test names listed in backquotes: "failing: `TestCookieRace`, `TestLoginRetry`").
    if _TEST_NAME.search(name) is not None and _TEST_NAME.search(value) is not None and worded_name(value):
        return whole
    parts = value.split(".")
    if len(parts) > 1 and parts[0].islower() and all(worded_name(part) for part in parts):
        return whole  # a path of names listed beside another (pino's ``["req.headers.authorization",
        # "config.OPENAI_API_KEY"]``)
    if STRONG_NAME.search(name) is not None:
        # ... or hex of 32 digits or more: a generated password (a digest is not given beside a
        # password's name; dbt's ``env_var('SNOWFLAKE_PASSWORD', '<40 hex>')`` default is one).
        secret = (
            password_value(value)
            or (looks_random(value, 16) and any(c.isdigit() for c in value))
            or long_hex(value)
        )
    else:
        secret = (looks_random(value, 20) or (long_hex(value) and key_named(name, value, ""))) and not (
            content_key(value) or uuid_shaped(value) or worded_key(value) or camel_word(value)
        )
    if not name_allowed(name) or not secret or is_placeholder(value):
        return whole
    return redacted_group(m, 2)


def _positional_secret(value: str) -> bool:
    """A literal given by position where a call takes credentials: a password's shape, or random
    (not a SHA-1 or SHA-256 digest, which such a call may be given to check)."""
    if is_placeholder(value):
        return False  # a key published by design (``createClient(url, "sb_publishable_…")``), a mask
    if password_value(value):
        return True
    digest = len(value) in (40, 64) and set(value) <= HEX_DIGITS
    return looks_random(value, 16) and not digest and not uuid_shaped(value) and not worded_key(value)


def _credential_call_replace(m: Match) -> str:
    whole = m.group(0) or ""
    start = m.start(0)
    out, at = [], 0
    for g in (2, 3):
        literal = m.group(g)
        if literal is None or not _positional_secret(literal[1:-1]):
            continue
        s, e = m.start(g) - start + 1, m.end(g) - start - 1
        out += [whole[at:s], REDACTED]
        at = e
    return "".join(out) + whole[at:] if out else whole


def _byte_list_replace(m: Match) -> str:
    """A key's bytes, unless a counting or repeated pattern (a test vector: ``0x00, 0x01, …``)."""
    values = [int(b, 16) for b in (m.group(2) or "").replace(",", " ").split()]
    steps = {b - a for a, b in itertools.pairwise(values)}
    if not name_allowed(m.group(1) or "") or len(set(values)) < 8 or len(steps) == 1:
        return m.group(0) or ""
    return redacted_group(m, 2)


def _fallback_replace(m: Match) -> str:
    name, value = m.group(1) or "", m.group(2) or ""
    if not name_allowed(name) or not strong_value(value, True, "=", name):
        return m.group(0) or ""
    return redacted_group(m, 2)


CALL_STEPS: tuple[tuple[str, Callable[[str], str]], ...] = (
    (_CALL_PAIR, substitution(_CALL_PAIR, _call_pair_replace)),
    (_FALLBACK_GATE, substitution(_FALLBACK, _fallback_replace)),
    (_CREDENTIAL_CALL_GATE, substitution(_CREDENTIAL_CALL, _credential_call_replace)),
    (_BYTE_LIST_GATE, substitution(_BYTE_LIST, _byte_list_replace)),
)
