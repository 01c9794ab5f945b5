"""What a secret's value looks like: entropy, randomness, placeholders, numbers, plain words.

The checks :mod:`osmia.memory.redaction` and :mod:`osmia.memory.secret_formats`
apply to a candidate before it is redacted, so that a value shaped like a
generated secret is taken and a word, count, version or template is not.
"""

from __future__ import annotations

import base64
import binascii
import math
import string
from collections import Counter
from collections.abc import Callable

from osmia.memory.english import common_words
from osmia.memory.linear import linear
from osmia.memory.secret_placeholders import (
    REDACTED,
    code_value,
    env_name,
    file_path,
    is_placeholder,
    published_or_sample,
    uuid_shaped,
)


def entropy(text: str) -> float:
    """Shannon entropy of ``text`` in bits per character."""
    if not text:
        return 0.0
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def looks_random(value: str, min_len: int = 16) -> bool:
    """True for a value shaped like a generated secret rather than a word, id or number.

    Long enough, two or more character classes, at least 3 (under 24 characters)
    or 3.5 bits of entropy per character. Numbers and lower-case words joined by
    separators never are. Used where a name only suggests a secret; a value
    assigned to a name that says so (``*_PASSWORD``) needs no such shape.
    """
    if len(value) < min_len or value == REDACTED:
        return False
    if value.isdigit() or plain_words(value):
        return False  # numbers, and words joined by separators (kebab-case phrases, paths)
    if value.isupper() and all(part.isalpha() for part in value.split("_")):
        return False  # a constant's name: ``EXAMPLE_KEY_DO_NOT_USE``
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
            any(not c.isalnum() for c in value),
        )
    )
    if classes < 2:
        return False
    threshold = 3.0 if len(value) < 24 else 3.5
    return entropy(value) >= threshold


def random_value(min_len: int) -> Callable[[str], bool]:
    """A check for rules: :func:`looks_random` with at least ``min_len`` characters, and no template
    (``postgres://${POSTGRES_USER}:…@db``)."""
    return lambda value: looks_random(value, min_len) and not is_placeholder(value)


def key_shaped(value: str) -> bool:
    """A generated key: random, or one unbroken run of 20+ letters and digits (``sk-live-aaaa…``);
    not a hyphenated phrase such as ``sk-learn-compatible-pipelines``."""
    return looks_random(value, 20) or any(len(part) >= 20 for part in value.replace("_", "-").split("-"))


def basic_credentials(value: str) -> bool:
    """An HTTP Basic value: base64 of ``user:password``; not of a documentation's placeholder pair
    (``user:password``, ``username:secret``: the password one of the words that stand for one)."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    if b":" not in decoded or not all(32 <= b < 127 for b in decoded):
        return False
    return not is_placeholder(decoded.decode("ascii").partition(":")[2])


def url_password(value: str) -> bool:
    """A password in ``scheme://user:PASSWORD@host``; ``host:5000/app@sha256`` is a port and a path."""
    port, slash, _rest = value.partition("/")
    return not is_placeholder(value) and not (slash and port.isdigit())


def decodes_to_secret(value: str) -> bool:
    """Whether ``value`` is base64 of a password or of a generated value (a name of a secret said
    it holds one)."""
    try:
        text = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("ascii")
    except (binascii.Error, ValueError):
        return False
    return text.isprintable() and (password_value(text) or generated_value(text))


def plain_words(value: str) -> bool:
    """Lower-case words joined by separators: ``stored``, ``test_token_refresh``, ``read-only``."""
    return all(c.islower() or c in "-_./" for c in value.rstrip(".,:;!?)"))


def path_token(value: str) -> bool:
    """A token that is a URL's path segment (a webhook's): random, with lower-case letters and digits,
    and not words joined by ``-`` or ``_`` with a short tag (``payment_intent_succeeded_v2``)."""
    if not mixed_token(16)(value):
        return False
    pieces = [p for p in value.replace("-", "_").split("_") if p]
    return len(pieces) < 2 or not all((p.isalpha() and p.islower()) or len(p) <= 3 for p in pieces)


def number_like(value: str) -> bool:
    """A number, version or size (``1.2.3``, ``4096``, ``12k``), or an address in hex as a debugger
    prints one (``0x5555557a8340``), trailing punctuation aside."""
    core = value.rstrip(".,:;!?)").lower()
    if core.startswith("0x") and 2 < len(core) <= 18 and set(core[2:]) <= _HEX:
        return True
    core = core.removesuffix("k").removesuffix("m")
    return core.replace(".", "").replace("_", "").isdigit() and len(core) < 12


_DATE = linear(r"^\d{4}-\d{2}-\d{2}$")


def codes_list(value: str) -> bool:
    """Recovery codes as listed after their label: each of four characters or more, not a date, and
    eight or more characters in all (``8f3k-2m9q, 7h4n-x2p8``, ``83920174 27364519``; not
    ``2 of 10`` or ``1234``)."""
    words = value.replace(",", " ").replace(";", " ").split()
    # A numbered or bulleted list's marks (``1.``, ``2)``, ``-``) are no codes.
    codes = [c for c in words if c not in ("-", "*") and not (c[:-1].isdigit() and c[-1] in ".)")]
    if not codes or any(c.startswith("-") or _DATE.search(c) is not None for c in codes):
        return False
    lengths = [len(c.replace("-", "")) for c in codes]
    return min(lengths) >= 4 and sum(lengths) >= 8


def base32_token(value: str) -> bool:
    """Lower-case base32 as a token generator writes it: several of the digits 2-7 among letters."""
    digits = sum(c.isdigit() for c in value)
    return 3 <= digits <= len(value) // 2 and len(set(value)) >= 16


# A name and its value taken for one value (``kid=b57c…``, ``Server=tcp:sql-…``): a rule that reads a
# value after a noun took the pair that follows it.
_PAIR = linear(r"^[A-Za-z][a-z]{1,20}(?:_[A-Za-z]{1,20}){0,3}=[^=]")


def generated_value(value: str) -> bool:
    """A value shaped like a generated secret: random (:func:`looks_random`), or a UUID; not jwt.io's
    sample token or a key published by design, nor a pair of a name and its value."""
    value = value.rstrip(".,:;!?)")
    if published_or_sample(value) or _PAIR.match(value) is not None:
        return False
    if camel_word(value) and worded_name(value):
        return False  # an identifier of words in camel case (``expirationSeconds``, ``clientRequestToken``)
    if code_value(value):
        return False  # a cmdlet called for the value (``(ConvertTo-SecureString …``)
    return looks_random(value, 16) or uuid_shaped(value)


def mixed_value(value: str) -> bool:
    """A password-like value: one token of letters mixed with digits or signs, not a number, size or
    placeholder (a phrase with spaces is prose)."""
    value = value.rstrip(".,:;)")
    if is_placeholder(value) or number_like(value) or plain_words(value) or any(c.isspace() for c in value):
        return False
    if env_name(value):
        return False  # a variable's name (``RELEASE_BOT_TOKEN``): a reference to the value
    letters = any(c.isalpha() for c in value)
    return letters and any(c.isdigit() or not c.isalnum() for c in value)


def letters_seed(value: str) -> bool:
    """A base32 seed with no digit in it (one seed of 16 characters in 28 has none): 16 upper-case
    letters or more (in groups of four, perhaps), with as few vowels as random letters have (under
    30 %; words run together, ``REPLACEWITHYOURSEED``, have about 40 %). Lower-case words in groups
    are prose ("rotate the MFA secret when this test runs"), and a seed written so has a digit."""
    letters = value.replace(" ", "").rstrip("=")
    if len(letters) < 16 or not (letters.isascii() and letters.isalpha() and letters.isupper()):
        return False
    return sum(c in "AEIOU" for c in letters) < 0.3 * len(letters)


# The signs a password mixes in (a sentence's full stop or a path's slash are not among them).
SIGNS = frozenset("!@#$%^&*?~+=")


_HEX = frozenset("0123456789abcdef")


# A version or date at the start of a value: v1.2.3, 2.0.1-rc1, 2024-01-31.
_VERSION = linear(r"^[vV]?\d+(?:[._-]\d+)+")


# Code, not a value: a call or an index (``this.get(path3)``, ``proxy.auth[1]``, ``Optional[str]=None``).
_CODE = linear(r"^[A-Za-z_$][A-Za-z0-9_$.]*[(\[]")


# A number and a capitalised word: a product's name (``1Password``), not a password.
_NUMBERED_NAME = linear(r"^\d{1,3}[A-Z][a-z]+(?:[A-Z][a-z]+)*$")


# A name written in camel case with a number: TestLogin2, summer2024 (a word, not a generated value).
_CAMEL = linear(r"^[A-Za-z][a-z]*(?:[A-Z][a-z]+)*\d*$")


def camel_word(value: str) -> bool:
    """A name written in camel case, possibly with a number (``UserService``, ``Summer2024``): a word."""
    return _CAMEL.search(value) is not None


def password_value(value: str) -> bool:
    """A password written after a label or in prose (``pw: Winter2025#``, "with password Summer2024!").

    Eight or more characters that mix letters with digits, or with signs inside the value (a
    sentence's closing ``!`` is no sign); not a word, number, version, date, path, URL, e-mail
    address, commit hash, file name, code (``writes.get(path4)``), or an upper-case name
    (``GITHUB_TOKEN``, ``AUTH-1234``).
    """
    v = value.rstrip(".,:;)")
    if len(v) < 8 or is_placeholder(v) or number_like(v) or plain_words(v) or _PAIR.match(v) is not None:
        return False
    if "://" in v or v.startswith(("-", "/", "./", "../", "~", "\\")):
        return False
    user, at, host = v.rpartition("@")
    if at and user and "." in host:
        return False  # an e-mail address or user@host
    if _VERSION.search(v) is not None or set(v) <= _HEX or _CODE.search(v) is not None:
        return False
    if _NUMBERED_NAME.search(v) is not None:
        return False  # a product's name: 1Password, 2Checkout, 3Scale
    if not any(c.isalpha() for c in v):
        return False
    if not any(c.islower() for c in v) and not any(c in SIGNS for c in v):
        return False  # GITHUB_TOKEN, AUTH-1234: names and ids
    if any(c.isdigit() for c in v):
        # python3.12, report2.pdf: a name; 3Lr7.b84KGJf39cp2O_22b: random, with a dot
        return not ("." in v and all(c.isalnum() or c in "._-" for c in v)) or looks_random(v, 16)
    return any(c in SIGNS for c in v[:-1])


def spoken_password(value: str) -> bool:
    """A password after the loosest labels (``pass``, ``pw`` in prose, ``admin/…`` pairs), where a
    word or name is likelier: :func:`password_value` with a digit and a sign, or a random mix of
    cases and digits (``Summer2024!``, ``ZymYWU7otMdR``; not ``TestLogin2``)."""
    v = value.rstrip(".,:;)")
    if not password_value(v) or not any(c.isdigit() for c in v):
        return False
    if any(c in SIGNS for c in v):
        return True
    return any(c.isupper() for c in v) and any(c.islower() for c in v) and _CAMEL.search(v) is None


def long_hex(value: str) -> bool:
    """Hex of 32 digits or more with a letter: a generated key or password as tools print one (an API
    key's shape, whatever its entropy happens to be)."""
    return len(value) >= 32 and set(value) <= _HEX_EITHER and not value.isdigit()


_HEX_EITHER = frozenset(string.hexdigits)


def hex_password(value: str) -> bool:
    """A password generated as hex (``openssl rand -hex 16``), where a label or a noun says it is one:
    24 to 39 digits with a letter and a digit. Not a SHA-1 or SHA-256 digest's length (a commit, a
    checksum), nor a short commit's."""
    v = value.rstrip(".,:;)")
    return (
        24 <= len(v) <= 39
        and set(v.lower()) <= _HEX
        and any(c.isdigit() for c in v)
        and any(c.isalpha() for c in v)
    )


SSH_KEY_TYPES = ("ssh-", "ecdsa-sha2-", "sk-ssh-", "sk-ecdsa-")
"""How an SSH public key's type begins (``ssh-ed25519 AAAA…``): a public key, never a secret."""


# The parts of a name written in camel case or with digits: ``configurationManagerV2`` → configuration,
# Manager, V, 2.
_CAMEL_PARTS = linear(r"[A-Z]?[a-z]+|[A-Z]+(?:[a-z]|$)?|\d+")


def _word_parts(value: str) -> list[str]:
    """``value``'s parts without its numbers, split where the case changes, at digits and at
    separators (``TestOauth2Login`` → ``Test``, ``Oauth``, ``Login``): how long they are tells words
    from a random run."""
    return [part for m in _CAMEL_PARTS.finditer(value) if not (part := m.group(0) or "").isdigit()]


def fragment_value(value: str) -> bool:
    """Part of a token quoted in prose ("the last 12 characters were …", "it began with …"): a random
    run of 10 characters or more (:func:`looks_random`), not a digest's hex, a UUID, or an
    identifier's words run together (``configurationManagerV2``: its parts are words, a token's
    are a letter or two)."""
    v = value.rstrip(".,:;)")
    if not looks_random(v, 10) or set(v.lower()) <= _HEX or uuid_shaped(v):
        return False
    if v.startswith(("AAAA", *SSH_KEY_TYPES)):
        return False  # an SSH public key's type, or its base64 (which starts with the type's length)
    parts = _word_parts(v)
    return not parts or sum(map(len, parts)) / len(parts) < 4


_NO_VOWEL = frozenset(string.ascii_lowercase) - frozenset("aeiouy")


# Two words of three letters or more joined by a separator (``prod_backup``, ``Staging-Datenbank``,
# ``GeoLite2-City``): a name made of words, not a generated value.
_JOINED_WORDS = linear(r"[A-Za-z][a-z]{2,}[-_./][A-Za-z][a-z]{2,}")


def joined_words(value: str) -> bool:
    """Whether ``value`` holds two words joined by ``-``, ``_``, ``.`` or ``/`` (``prod_backup``):
    a name made of words, which a random run of the same length almost never holds."""
    return _JOINED_WORDS.search(value) is not None


# Five consonants in a row: in no English word's part (``strengths`` has four), in many random runs.
_CONSONANTS = linear(r"[b-df-hj-np-tv-xzB-DF-HJ-NP-TV-XZ]{5}")


def worded_name(value: str) -> bool:
    """An identifier made of words (``TestOauth2Login``, ``test_login_retry``): its parts, split where
    the case changes, at digits and at separators, are three letters long or more on average, each
    of four letters or more has a vowel, and none has five consonants in a row. A random run's parts
    are a letter or two (``TestKx82jdQmz0aPz``). Of 10,559 test names (the installed packages', and
    the same in camel case), 99 % are worded names; of 40,000 random runs after ``Test`` or
    ``test_``, 12 %: a check for where a name already says what the value is."""
    parts = _word_parts(value)
    if not parts or sum(map(len, parts)) / len(parts) < 3:
        return False
    return all(
        (len(part) < 4 or not _NO_VOWEL.issuperset(part.lower())) and _CONSONANTS.search(part) is None
        for part in parts
    )


# A memorable password: words (one capitalised at least) and a number joined by dashes or dots
# (``tapioca-Lighthouse-5``, ``4417-Puma-Zest``, ``Cinnamon.Ferry.39``).
_WORDS_AND_NUMBER = linear(r"^(?:[A-Za-z]{3,}|\d{1,6})(?:[-.](?:[A-Za-z]{3,}|\d{1,6})){2,5}$")


_TITLE_WORD = linear(r"(?:^|[-.])[A-Z][a-z]{2,}(?:[-.]|$)")


_NUMBER_PART = linear(r"(?:^|[-.])\d{1,6}(?:[-.]|$)")


_TWO_NUMBERS = linear(r"\d[-.]\d")


def memorable_password(value: str) -> bool:
    """A password a person chose, with no label to say so: :func:`password_value` with a sign inside
    (``Orchid!Nimbus-73``), or capitalised words and a number joined by dashes or dots, as password
    managers make them (``tapioca-Lighthouse-5``; not a version, ``Ubuntu-22.04``, nor a branch,
    ``feature-X2``)."""
    v = value.rstrip(".,:;)!?")
    if "=" in v:
        return False  # a setting (``time_cost=3``)
    if password_value(v) and any(c in SIGNS for c in v[1:-1]) and any(c.isdigit() for c in v):
        return True
    return (
        _WORDS_AND_NUMBER.search(v) is not None
        and _TITLE_WORD.search(v) is not None
        and _NUMBER_PART.search(v) is not None
        and _TWO_NUMBERS.search(v) is None
        and sum(c.isalpha() for c in v) >= 6
    )


def aws_secret_key(value: str) -> bool:
    """An AWS secret access key: a random run of base64 (40 characters in the format) with both cases
    and a digit or sign."""
    return (
        any(c.isupper() for c in value)
        and any(c.islower() for c in value)
        and any(c.isdigit() or c in "+/" for c in value)
        and looks_random(value, 30)
        and not is_placeholder(value)
    )


def mixed_token(min_len: int) -> Callable[[str], bool]:
    """A check for rules: a random value (:func:`looks_random`) with lower-case letters and digits."""

    def check(value: str) -> bool:
        return (
            looks_random(value, min_len)
            and any(c.islower() for c in value)
            and any(c.isdigit() for c in value)
        )

    return check


def flag_token(value: str) -> bool:
    """A token given to a CLI flag: random with lower-case letters and digits, and not a host or
    Kubernetes name (lower-case words and random parts joined by ``-`` or ``.``:
    ``bastion-68s1t2ee3-0cnrt``)."""
    dns_name = all(c.islower() or c.isdigit() or c in "-." for c in value) and ("-" in value or "." in value)
    if file_path(value):
        return False  # a file, as ``--key`` names an object's (``exports/daily/part-0000.parquet``)
    return not dns_name and mixed_token(20)(value)


def vault_legacy(value: str) -> bool:
    """A Vault service token of the old form: ``s.`` and 24 random letters and digits of both cases."""
    body = value[2:]
    return any(c.isupper() for c in body) and any(c.islower() for c in body) and mixed_token(24)(body)


_SEPARATORS = linear(r"[:/._-]")


def worded_key(value: str) -> bool:
    """A key made of words and ids (``v3:catalog:product:72c5…``): a lookup's key, not a random one."""
    parts = _SEPARATORS.split(value)
    return any(p.isalpha() and p.islower() and len(p) >= 4 and p in common_words() for p in parts)
