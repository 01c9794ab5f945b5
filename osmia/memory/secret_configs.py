"""Secrets in service configurations: SQL users, network devices, Wi-Fi and IPsec keys, gossip keys.

Part of :data:`osmia.memory.secret_formats.RULES`, spliced in at its place (the order of the rules
is the order redaction applies them). Each rule reads a value only where its statement or config
line says what it is: a SQL statement that creates or changes a user, a Cisco IOS line that sets
a password, community string or shared key, a ``psk``/``PSK`` entry, a gossip ``encrypt`` key.
Agents paste these from the configs and migrations they work on; the red team's probe of the
twenty-sixth session stored each of them (docs/security.md).
"""

from __future__ import annotations

from osmia.memory.secret_placeholders import not_placeholder
from osmia.memory.secret_rule import Rule
from osmia.memory.secret_rule import rule as _rule
from osmia.memory.secret_values import generated_value, password_value, plain_words

__all__ = ["CONFIG_RULES"]

# What follows ``IDENTIFIED BY`` and is no password: the keywords of the other forms.
_SQL_KEYWORDS = frozenset({"password", "values", "externally", "globally", "random"})

# The user of a statement that creates or changes one, or that a GRANT gives to, then a blank.
_SQL_USER = (
    r"\b(?i:(?:create|alter)[ \t]+(?:user|role|login)[ \t]+(?:if[ \t]+not[ \t]+exists[ \t]+)?\S+"
    r"|grant\b[^\n;]*?[ \t]to[ \t]+\S+)[ \t]+"
)
_SQL_VALUE = r"([^\s;'\"`,()]{3,})"


def _sql_password(value: str) -> bool:
    """A bare value after ``IDENTIFIED BY`` that is a password: not a keyword, nor a SQL client's
    bind variable or substitution (``:pwd``, ``?``, ``@pwd``, ``&pwd``)."""
    return value.lower() not in _SQL_KEYWORDS and value[0] not in ":?@&" and not_placeholder(value)


# What "the Wi-Fi password is …" says of the password when it does not give it: where it is, whether
# it changed, who has it.
_WIFI_STATES_TEXT = (
    "available unavailable unknown visible hidden written shown different same simple short long weak "
    "strong secure insecure public private blank empty there here below above somewhere elsewhere "
    "printed stored saved posted shared case-sensitive"
)
_WIFI_STATES = frozenset(_WIFI_STATES_TEXT.split())


def _wifi_password(value: str) -> bool:
    """A Wi-Fi password said in prose: any token but a placeholder, a number-free state or place
    (``printed``, ``available``, ``below``), or a word ending in ``-ed``/``-ing`` (a state or an act)."""
    v = value.rstrip(".,;:!)")
    if not not_placeholder(v) or len(v) < 6:
        return False
    word = v.lower()
    return not (word.isalpha() and (word in _WIFI_STATES or word.endswith(("ed", "ing", "able", "ible"))))


def _device_secret(value: str) -> bool:
    """A value a device's config gives with no type number: one shaped like a password or a generated
    key (``enable password authentication`` is prose)."""
    return not_placeholder(value) and (password_value(value) or generated_value(value))


# A Cisco IOS encryption type (0 clear text, 5/8/9 hashes, 6 AES, 7 the reversible one) before a value.
_TYPE = r"[ \t]+[0-9]"
# The command that sets a device's password: ``enable``, or a user's line (with its privilege level).
_DEVICE_USER = (
    r"(?im)^[ \t]*(?:enable|username[ \t]+\S+(?:[ \t]+privilege[ \t]+\d+)?)[ \t]+(?:password|secret)"
)


def _community(value: str) -> bool:
    """An SNMP community string: not a placeholder, nor a word of prose ("community strings")."""
    return not_placeholder(value) and not plain_words(value)


CONFIG_RULES: tuple[Rule, ...] = (
    # ``CREATE USER app IDENTIFIED BY S3cret`` (Oracle's, unquoted; the quoted form is
    # ``sql-identified-by``) right after the user a statement creates, changes or grants to: with
    # the keywords in capitals, as SQL is written, or in any case in a statement ended by ``;``
    # ("users identified by their email" is prose).
    _rule(
        "sql-identified-by-bare",
        _SQL_USER + r"IDENTIFIED[ \t]+BY[ \t]+" + _SQL_VALUE,
        1,
        _sql_password,
    ),
    _rule(
        "sql-identified-by-statement",
        _SQL_USER + r"(?i:identified[ \t]+by)[ \t]+" + _SQL_VALUE + r"[ \t]*;",
        1,
        _sql_password,
    ),
    # PostgreSQL's ``CREATE ROLE app WITH LOGIN PASSWORD 'S3cret'``, ``ALTER USER x PASSWORD '…'``.
    _rule(
        "sql-role-password",
        r"(?i)\b(?:create|alter)[ \t]+(?:user|role)\b[^\n;]*?[ \t]password[ \t]+'([^'\r\n]{3,})'",
        1,
        not_placeholder,
    ),
    # Cisco IOS: ``enable password 7 0822455D0A16``, ``username admin privilege 15 secret 0 …``,
    # with the type number (the value is whatever follows) ...
    _rule(
        "device-password",
        _DEVICE_USER + r"(?:[ \t]+level[ \t]+\d+)?" + _TYPE + r"[ \t]+(\S{3,})",
        1,
        not_placeholder,
    ),
    # ... or without it, a value shaped like a password.
    _rule(
        "device-password-bare",
        _DEVICE_USER + r"(?:[ \t]+level[ \t]+\d+)?[ \t]+(\S{3,})",
        1,
        _device_secret,
    ),
    # ... a line's password (``line vty 0 4`` then `` password 7 1423…``: type 7 is reversible), a WLAN's
    # key on a controller (``security wpa psk set-key ascii 0 …``).
    _rule("line-password", r"(?im)^[ \t]*password" + _TYPE + r"[ \t]+(\S{3,})", 1, not_placeholder),
    _rule(
        "wlan-psk",
        r"(?i)\bpsk[ \t]+set-key[ \t]+(?:ascii|hex)(?:" + _TYPE + r")?[ \t]+(\S{8,})",
        1,
        not_placeholder,
    ),
    # OpenWrt's UCI (``option key '…'``, ``option password '…'``), OpenLDAP's ``rootpw …``, Tasmota's
    # console (``Password1 …;``, ``WebPassword …``).
    _rule(
        "uci-option",
        r"(?im)^[ \t]*option[ \t]+(?:key|password|psk|secret|wpa_passphrase|auth_secret)[ \t]+"
        r"[\"']([^\"'\r\n]{4,})[\"']",
        1,
        not_placeholder,
    ),
    _rule("slapd-rootpw", r"(?im)^[ \t]*rootpw[ \t]+(\S{4,})", 1, not_placeholder),
    _rule(
        "tasmota-password",
        r"\b(?:Password[1-3]|WebPassword|MqttPassword)[ \t]+([^;\s]{4,})",
        1,
        lambda value: not_placeholder(value) and not plain_words(value),
    ),
    # SNMP community strings (``snmp-server community S3cret RO``): the password of SNMP v1/v2c.
    _rule("snmp-community", r"(?i)\bsnmp-server[ \t]+community[ \t]+(\S{3,})", 1, _community),
    # Shared keys: TACACS+ and RADIUS servers, key chains, IKE pre-shared keys, OSPF digests.
    _rule(
        "device-key",
        r"(?i)(?:\b(?:tacacs-server|radius-server)(?:[ \t]+host[ \t]+\S+)?[ \t]+key"
        r"|\bkey-string|\bcrypto[ \t]+isakmp[ \t]+key|\bmessage-digest-key[ \t]+\d+[ \t]+md5"
        r"|\bpre-shared-key(?:[ \t]+(?:local|remote|address[ \t]+\S+|hostname[ \t]+\S+))?(?:[ \t]+key)?"
        r"|(?m:^)[ \t]*key" + _TYPE + r")(?:" + _TYPE + r")?[ \t]+(\S{3,})",
        1,
        _device_secret,
    ),
    # Wi-Fi and IPsec pre-shared keys: wpa_supplicant's ``psk="…"`` (or 64 hex digits),
    # ipsec.secrets' ``: PSK "…"``.
    _rule(
        "psk",
        r"(?i)(?:^|[\s{;,])(?:wpa[_-]?)?psk[ \t]*[=:][ \t]*[\"']([^\"'\r\n]{8,})[\"']",
        1,
        not_placeholder,
    ),
    # A Wi-Fi network in a QR code's text (``WIFI:T:WPA;S:<ssid>;P:<password>;;``, fields in any
    # order, ``\;`` escaped): the ``P:`` field.
    _rule(
        "wifi-qr",
        r"\bWIFI:(?:[^\r\n]*?;)?P:((?:\\.|[^;\\\r\n])+)",
        1,
        not_placeholder,
    ),
    # ... or said in prose ("the guest Wi-Fi password is sunflowerlake", "wifi pw: …"): a password of
    # one word is what such networks are given, so a single token that ends the clause, and not a
    # state ("is printed", "is on the fridge", "is available").
    _rule(
        "wifi-password",
        r"(?im)\b(?:wi-?fi|wlan|wpa2?)[ \t]+(?:password|passphrase|passwort|pw|pass|key|psk)\b"
        r"(?:[ \t]+(?:for|of|on|at|in)(?:[ \t]+[^\s:=]+){1,3}?)?(?:[ \t]*[:=]|[ \t]+(?:is|was))[ \t]*"
        r"[\"'`]?([^\s\"'`,;]{6,})[ \t]*(?:[,;!)]|$)",
        1,
        _wifi_password,
    ),
    _rule("psk-hex", r"(?i)(?:^|[\s{;,])(?:wpa[_-]?)?psk[ \t]*[=:][ \t]*([0-9a-f]{64})\b", 1),
    _rule("ipsec-psk", r"(?:^|[\s:])(?i:psk)[ \t]+\"([^\"\r\n]{3,})\"", 1, not_placeholder),
    # A gossip encryption key (Consul, Nomad, Serf): ``encrypt = "…"``, ``"encrypt": "…"``,
    # ``-encrypt=…``: base64 of 16 or 32 bytes.
    _rule(
        "gossip-key",
        r"(?i)(?:[\"']?\bencrypt[\"']?[ \t]*[:=][ \t]*[\"']|(?:^|[ \t])-{1,2}encrypt(?:[ \t]+|=)[\"']?)"
        r"([A-Za-z0-9+/]{22,}={0,2})",
        1,
        generated_value,
    ),
)
