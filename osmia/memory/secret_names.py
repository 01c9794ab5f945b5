"""Secrets found by the name that holds them: ``DB_PASSWORD=…``, ``"api_key": "…"``, ``--token …``.

The redaction steps (:mod:`osmia.memory.redaction` runs them in order) that read a secret-like
name and take the value it is given: an assignment in any of the forms code, configs and shells
write, a name and its value given apart, a CLI flag, a variable set with a space
(``set -gx``, ``ENV``), a call given the name and the value as two strings, an XML element named
like a secret. A name that only suggests a secret (``*_KEY``, ``auth``, ``session``) takes a
value only when it looks random; a name that points at a secret (``secretName``,
``token_usage``) takes none. Only the value is replaced, so ``DB_PASSWORD=[redacted]`` still says
what was there. Names and values are judged in :mod:`osmia.memory.secret_name_values`; this module
holds the forms they are written in and the steps.
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.linear import LinearPattern, Match, linear
from osmia.memory.secret_name_values import ID_KEY as _ID_KEY
from osmia.memory.secret_name_values import POINTER as _POINTER
from osmia.memory.secret_name_values import PUBLIC_KEY_VALUE as _PUBLIC_KEY_VALUE
from osmia.memory.secret_name_values import STRONG_NAME as _STRONG_NAME
from osmia.memory.secret_name_values import URL_VALUE as _URL_VALUE
from osmia.memory.secret_name_values import WEAK_NAME as _WEAK_NAME
from osmia.memory.secret_name_values import format_field as _format_field
from osmia.memory.secret_name_values import hashed_value as _hashed
from osmia.memory.secret_name_values import inside_words as _inside_words
from osmia.memory.secret_name_values import key_named
from osmia.memory.secret_name_values import name_allowed as _name_allowed
from osmia.memory.secret_name_values import not_a_value as _not_a_value
from osmia.memory.secret_name_values import public_value as _public
from osmia.memory.secret_name_values import said_public as _said_public
from osmia.memory.secret_name_values import strong_value as _strong_value
from osmia.memory.secret_name_words import IDENT as _IDENT
from osmia.memory.secret_name_words import STRONG as _STRONG
from osmia.memory.secret_name_words import WEAK as _WEAK
from osmia.memory.secret_placeholders import (
    REDACTED,
    content_key,
    is_placeholder,
    key_path,
    uuid_shaped,
)
from osmia.memory.secret_values import (
    basic_credentials,
    camel_word,
    generated_value,
    long_hex,
    looks_random,
    password_value,
    worded_key,
    worded_name,
)

__all__ = [
    "NAMED_STEPS",
    "element_replace",
    "redacted_group",
    "substitution",
]
# A quote escaped in JSON inside a JSON string ({\"api_key\":\"…\"}, \\\" twice escaped, \u0022) or
# in a URL (%22password%22%3A%22…%22); the name's closing quote may be one, and the colon %3A after
# an encoded quote (not in urn%3Aietf%3Aparams%3Aoauth).
_ESCAPED_QUOTE = r"""(?:\\+["']|\\+u0022|%22)"""
# A declaration's type between the name and its value (``token: &str = "…"``, ``apiKey: string =``,
# ``password: Final[str] =``, ``let key: Option<String> = String::from("…")``): the value is the
# literal after ``=``, not the type after ``:`` (which was taken for it). Tried before a bare ``:``.
# A blank before the ``=``, as declarations are written: ``password: Zephyr=Rk…`` in YAML is a
# value holding a sign, not a type.
_TYPE = (
    r"""&?(?:'[A-Za-z_]+[ \t]+)?[A-Za-z_][\w.:]*(?:[<\[][\w&'.,:?|<>\[\] \t]*[>\]])?\??"""
    r"""(?:[ \t]*\|[ \t]*[A-Za-z_][\w.]*)*"""
)
_TYPED = (
    rf""":[ \t]*{_TYPE}[ \t]+=[ \t]*(?:String::from\(|Secret(?:String|Str|Box)?(?:::new)?\()?"""
    # ... or after the name in words, a type a secret is written in: Visual Basic's ``Dim pwd As
    # String = "…"`` (any case; not "as" and any word: "create the secret as type=Opaque" is prose),
    # and Go's ``var pwd string = "…"``.
    rf"""|(?i:as[ \t]+(?:string|securestring|object|variant))[ \t]*=|(?:string|\[\]byte)[ \t]*="""
)
# A closing bracket may follow the name's quote: a subscript (``os.environ["DB_PASSWORD"] = …``,
# ``app.config['SECRET_KEY'] = …``, ``headers['X-Api-Key'] = …``), or an index or a slice of the
# name (``db.password[0:10] = …``: a value given in pieces). Besides ``=`` and ``:``, the
# operators code sets a default with (``||=``, ``??=``, Make's ``?=``, a shell's ``:-``), arrows
# (``→``, ``⇒``; not ``->``, which is code), and the first two quotes of a triple-quoted value.
_OPERATOR = (
    rf"""(?:\\*["']\]?|{_ESCAPED_QUOTE}|\[\d*(?::\d*)?\])?(?:[ \t]|%20)*"""
    rf"""({_TYPED}|:=|:-|=>|==?|:|\+=|\?=|\|\|=|\?\?=|→|⇒|%22(?:%20)*%3[Aa])(?:[ \t]|%20)*(?:""|'')?"""
)
# Groups: a value in double quotes, single quotes, backticks, escaped quotes, or bare (a bare value
# ends at a closing bracket, as code's ``f(password=pw)`` does; a ``)`` inside it, followed by a
# letter, digit or sign, does not end it: ``SECRET_KEY=Ew#Cft)IvjE=f#Zq``, but ``token=None):``).
# A quoted value may be a literal's prefix or a conversion's call away from its operator: Python's
# ``b"…"`` and ``u'…'``, Go's ``[]byte("…")``, ``bytes("…")``, Node's ``Buffer.from("…")``. Not a raw
# string's ``r'…'``: in code that is a pattern (``secret_keyword = r'(?:key|pwd)'``). gdb prints a
# ``char *`` as its address and then the string (``password = 0x5555557a8340 "…"``). Not a list's
# first literal: a list after a secret's name holds names, hashes or a blocklist as often as values.
_LITERAL_OPENS = (
    r"""(?:[bBuUN]|\[\]byte\(|bytes\(|Buffer\.from\(|string\(\d{1,5}\)[ \t]*|0x[0-9a-f]+[ \t]+)?"""
)
_VALUE = (
    rf"""(?:{_LITERAL_OPENS}"((?:[^"\\\r\n]|\\.)+)"|{_LITERAL_OPENS}'([^'\r\n]+)'|`([^`\r\n]+)`"""
    rf"""|{_ESCAPED_QUOTE}((?:[^"'\\\r\n\t%]|\\[^"'\\\su]|%(?:[013-9A-Fa-f]|2[013-9A-Fa-f]))+){_ESCAPED_QUOTE}"""
    r"""|((?:\[redacted\]|[^\s'"`,;)\]}>:=\\])(?:\[redacted\]|[^\s'"`,;)\]}>]|\)[\w#@!$%^&*=+~-])*))"""
)
_QUOTED_GROUPS = (3, 4, 5, 6)
# A character every operator of :data:`_OPERATOR` holds (``%3A`` and ``%22`` hold a "%").
_OPERATOR_MARKS = ("=", ":", "→", "⇒", "%")
_BARE_GROUP = 7


# A name and its value given apart: Kubernetes env entries (``- name: DB_PASSWORD`` then
# ``value: …``, across lines), .NET ``<add key="ApiSecret" value="…"/>``, JSON name/value pairs,
# Android's ``<meta-data android:name="…SERVER_SECRET" android:value="…"/>`` (a namespace's prefix).
_NAME_VALUE = linear(
    rf"""(?i)\b(?:name|key|label)["']?[ \t]*[:=][ \t]*["']?({_IDENT}{_STRONG}{_IDENT})["']?[\s,]*"""
    rf"""(?:[A-Za-z_][\w-]*:)?["']?value{_OPERATOR}{_VALUE}"""
)
# ... Hadoop's and Hive's configuration properties (``<name>fs.s3a.secret.key</name>`` then
# ``<value>…</value>``, on one line or two).
_PROPERTY = (
    rf"(?i)<name>[ \t]*({_IDENT}{_STRONG}{_IDENT})[ \t]*</name>\s*"
    r"<value>[ \t]*([^<\r\n]{1,400}?)[ \t]*</value>"
)
_PROPERTY_GATE = r"(?i)</name>\s*<value>"
# ... a name whose value is an object holding it, among a few other fields (Spring's
# ``/actuator/env``: ``"spring.mail.password":{"value":"…"}``; ``terraform output -json``:
# ``"db_password": {"sensitive": true, "type": "string", "value": "…"}``),
# A strong name takes any value there, a weak one (``"redis_auth": {…}``) only a random one.
_NESTED_VALUES = tuple(
    linear(
        rf"""(?i)["']({_IDENT}{names}{_IDENT})["'][ \t]*:[ \t]*\{{"""
        r"""(?:[ \t]*"[\w-]{1,20}"[ \t]*:[ \t]*(?:true|false|null|\d{1,10}|"[^"\r\n]{0,40}")[ \t]*,){0,4}"""
        rf"""[ \t]*["']value{_OPERATOR}{_VALUE}"""
    )
    for names in (_STRONG, _WEAK)
)
# What every match of the two holds, for redaction's one scan (each whole pattern, a secret's names
# and a value's forms, cost its program ~0.25 MB): a quoted ``value``; a key closed, then a string.
_NESTED_VALUE_GATE = r"""(?i)["']value"""
_PLIST_GATE = r"(?i)</key>\s*<string>"
# ... and a property list's key and the string after it (``<key>APISecret</key>`` then
# ``<string>…</string>``); under a name that only suggests a secret (an iOS app's
# ``<key>CodePushDeploymentKey</key>``), a random value or an API key's hex.
_PLIST, _WEAK_PLIST = (
    rf"(?i)<key>[ \t]*({_IDENT}{names}{_IDENT})[ \t]*</key>\s*"
    r"<string>[ \t]*([^<\r\n]{1,400}?)[ \t]*</string>"
    for names in (_STRONG, _WEAK)
)

_ASSIGNMENTS = (
    # Strong names: any value that is not a placeholder, count, version or prose word.
    linear(rf"(?i)({_IDENT}{_STRONG}{_IDENT}){_OPERATOR}{_VALUE}"),
    # Weak names: only values that look random (the high-entropy fallback).
    linear(rf"(?i)({_IDENT}{_WEAK}{_IDENT}){_OPERATOR}{_VALUE}"),
)
# A password glued to what it opens, as scripts name one (``SQLPASS``, ``DBPASS``, ``SMTPPASS``: not
# ``bypass`` or ``compass``), read as a strong name. A pattern of its own: in :data:`_STRONG`, which
# every pattern that names a secret holds, these names cost the first pass over new text ~0.1-0.3 ms
# a run (docs/performance.md §53). Its gate is the name before an operator.
_GLUED_PASS_NAME = (
    r"(?:db|sql|smtp|ftp|sftp|mail|imap|ldap|redis|amqp|mq|admin|root|user|my|pg|sa|app|bind|svc|ssh"
    r"|vnc|wifi|proxy|keystore|store|vault|auth|sasl)pass"  # ... ssmtp's ``AuthPass``
)
_GLUED_PASS = linear(rf"(?i)\b((?:[A-Za-z0-9]+_)?{_GLUED_PASS_NAME})\b{_OPERATOR}{_VALUE}")
_GLUED_PASS_GATE = rf"(?i){_GLUED_PASS_NAME}\b[\"']?[ \t]*[:=]"


def redacted_group(m: Match, group: int) -> str:
    """The whole match with one group's text replaced by :data:`REDACTED`."""
    whole = m.group(0) or ""
    start, end = m.start(group) - m.start(0), m.end(group) - m.start(0)
    return whole[:start] + REDACTED + whole[end:]


# A host after a marker's ``@``: the rest of a URL whose user part held the secret.
_HOST_AFTER = linear(r"@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?::\d+)?(?:/\S*)?$")
# A URL up to a path segment a marker follows (no user or password before its host): a webhook's
# host and fixed path words, its token already redacted (``https://h/hooks/[redacted]``). A DSN
# (``https://[redacted]@host/1``, a secret as a whole) is not one: its scheme is all that is left.
_URL_HEAD = linear(r"^[A-Za-z][A-Za-z0-9+.-]*://[A-Za-z0-9.-]+(?::\d+)?/\S*/$")


def _typed(operator: str) -> bool:
    """Whether ``operator`` holds a declaration's type (``: &str =``, ``As String =``, Go's ``string
    =``), not ``:=`` or ``:``: the operator is :data:`_TYPED`'s, which is tried first."""
    return _TYPED_OPERATOR.fullmatch(operator) is not None


_TYPED_OPERATOR = linear(_TYPED)


# A bare value's start in braces with one token after it (ODBC's ``Pwd={…}``; a dict or a
# template has a name, a colon or another brace in it).
_BRACED = linear(r"\{[^{}\s:,=$]{4,}")


# A value that names a secret: a word of one spelled out in it (``1.keyStorePassword``).
_NAMED_SECRET = linear(r"(?i)passw(?:or)?d|secret|token|credential")


def _assignment_sub(pattern: LinearPattern, strong: bool) -> Callable[[str], str]:
    """Redact the value of ``name <op> value`` when the name is secret-like and the value a secret.

    A value a rule has already redacted inside (a DSN's key: ``https://[redacted]@host``, a
    cookie's ``Token=[redacted]``) is judged by what is left around its markers: a host or a name
    stays, and the value with it; a secret left beside a marker (``Summer2024[redacted]``, a run's
    own marker written to pass it through) takes the whole value. A quoted value that is no secret
    as a whole is searched in turn (``DOCKER_AUTH_CONFIG='{"auths":{"r":{"auth":"…"}}}'``: the
    match of the outer name took the inner pair's text with it); each level is inside the last
    one's quotes, so shorter.
    """

    def secret(value: str, g: int, m: Match, line_before: str) -> bool:
        if _public(m.group(1) or "", value) or _hashed(m.group(1) or "", value):
            return False
        if strong:
            return _strong_value(value, g != _BARE_GROUP, m.group(2) or "", m.group(1) or "")
        # A generated value has no spaces: '\"{Policy name}/{key}\"' is a template in prose; nor is
        # it a URL, as written or percent-encoded (``oauth_callback=https%3A%2F%2F…``).
        ok = (
            not is_placeholder(value)
            and not any(c.isspace() for c in value)
            and _URL_VALUE.match(value) is None
            and _POINTER.match(value) is None  # a reference or a call, as for a strong name
        )
        if ok and uuid_shaped(value) and _ID_KEY.search(m.group(1) or "") is not None:
            return False  # an id a name calls a key (``Idempotency-Key: <uuid>``, ``cache_key=<uuid>``)
        if ok and (content_key(value) or key_path(value) or worded_key(value)):
            return False  # a cache's key (names and a hash, or words and ids), a store's (an id, a field)
        if ok and _WEAK_NAME.search(_inside_words(m.group(1) or "")) is None:
            return False  # "sig" inside a word (``assignment_group``, ``design_id``): no weak name left
        if ok and camel_word(value) and worded_name(value):
            return False  # a name in camel case (NuGet's ``<add key="ClearTextPassword" …``)
        if ok and _NAMED_SECRET.search(value) is not None and worded_name(value.replace(".", "_")):
            return False  # a secret's name, dotted (eIDAS' ``<entry key="1.keyStorePassword">``)
        name = (m.group(1) or "").strip("'\"")
        if ok and long_hex(value) and key_named(name, value, line_before):
            return True  # hex given to a name of a key (``KAGGLE_KEY``, ``key=`` of a client)
        return ok and (looks_random(value, 16) or (len(value) >= 8 and basic_credentials(value)))

    def replace(m: Match, text: str) -> str:
        whole = m.group(0) or ""
        if not _name_allowed(m.group(1) or ""):
            return whole
        line_before = text[max(text.rfind("\n", 0, m.start(1)) + 1, m.start(1) - 200) : m.start(1)]
        if _said_public(text, m.start(1)) and any(
            _PUBLIC_KEY_VALUE.match(m.group(g) or "") is not None for g in (*_QUOTED_GROUPS, _BARE_GROUP)
        ):
            return whole
        for g in (*_QUOTED_GROUPS, _BARE_GROUP):
            value = m.group(g)
            if value is None:
                continue
            if g == _BARE_GROUP and "&" in value and m.start(1) > 0 and text[m.start(1) - 1] in "?&":
                return _query(m, value.index("&"))
            if (
                g == _BARE_GROUP
                and _BRACED.fullmatch(value) is not None
                and text[m.end(g) : m.end(g) + 1] == "}"
            ):
                # A value in braces, as ODBC writes one that holds its separators (``Pwd={a;b}``):
                # what the braces hold is the value.
                inner = value[1:]
                if _format_field(inner) or not secret(inner, g, m, line_before):
                    return whole
                start, end = m.start(g) + 1 - m.start(0), m.end(g) - m.start(0)
                return whole[:start] + REDACTED + whole[end:]
            between = whole[m.end(1) - m.start(0) : m.start(g) - m.start(0)]
            # What follows a marker after ``@`` is a host (``oauth2:[redacted]@gitlab.com/g/p.git``).
            pieces = [piece for piece in value.split(REDACTED) if piece and _HOST_AFTER.match(piece) is None]
            if len(pieces) == 1 and value.startswith(pieces[0]) and _URL_HEAD.match(pieces[0]) is not None:
                pieces = []  # what a rule left of a URL whose token it redacted: its host and path words
            if g == _BARE_GROUP and any(_not_a_value(piece, between, m.group(1) or "") for piece in pieces):
                return whole
            if g == _BARE_GROUP and _typed(m.group(2) or ""):
                return whole  # code: a declaration's literal is quoted in every language with types
            if between.endswith(('"""', "'''")) and any(c.isspace() for c in value):
                return whole  # a triple-quoted text (a template, a docstring); TOML's secret is one token
            if not any(secret(piece, g, m, line_before) for piece in pieces):
                return whole if g == _BARE_GROUP else _within(m, g)
            return redacted_group(m, g)
        return whole

    def _query(m: Match, cut: int) -> str:
        """A parameter of a URL's query (``?X-Amz-Credential=…&X-Amz-Date=…``): its value ends at
        ``&``, and the parameters after it are read one by one (a signed URL keeps its date,
        expiry and signed headers; its credential and signature go). Each parameter is read on its
        own, none with an ``&`` in it: the work stays linear in the query's length."""
        whole = m.group(0) or ""
        cut += m.start(_BARE_GROUP) - m.start(0)
        params = whole[cut + 1 :].split("&")
        return "&".join([step(whole[:cut]), *(step(param) for param in params)])

    def step(text: str) -> str:
        return pattern.sub(lambda m: replace(m, text), text)

    def _within(m: Match, g: int) -> str:
        whole, value = m.group(0) or "", m.group(g) or ""
        if not any(mark in value for mark in _OPERATOR_MARKS):
            return whole  # no name can be given a value inside (most values: a word, a path)
        inner = step(value)
        if inner == value:
            return whole
        start, end = m.start(g) - m.start(0), m.end(g) - m.start(0)
        return whole[:start] + inner + whole[end:]

    return step


# CLI flags: --password hunter2, --token=abc, -p is too ambiguous to take.
_FLAG = rf"(?i)(--{_IDENT}{_STRONG}{_IDENT})(?:[ \t]+|=)" + (
    r"""(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s'"`-][^\s'"`]*))"""
)


# A variable set with a space instead of ``=``: fish ``set -gx API_TOKEN …``, csh ``setenv DB_PASSWORD …``,
# Dockerfile ``ENV API_TOKEN …``, Windows ``setx API_KEY …``, ``gh secret set API_TOKEN --body …``. The
# name must say secret (or suggest one, and then only a random value is taken).
_SET_VAR = (
    rf"(?:^|[\s;&|(`])(?i:set(?:[ \t]+-{{1,2}}[A-Za-z]{{1,12}})*|setenv|env|setx(?:[ \t]+/[A-Za-z])?)[ \t]+"
    rf"((?i:[A-Za-z_][A-Za-z0-9_]*(?:{_STRONG}|{_WEAK})[A-Za-z0-9_]*))[ \t]+"
    rf"(?:(?:--body|-b)(?:[ \t]+|=))?{_VALUE}"
)


# An XML element named like a secret (Maven's ``<password>…</password>``, ``<apiKey>…</apiKey>``):
# its text is the value. Cleaning drops tags later, and would leave ``deployS3cret!`` run together.
_ELEMENT = (
    rf"(?i)<[ \t]*((?:[A-Za-z_][\w.-]*:)?{_IDENT}{_STRONG}{_IDENT})"
    r"(?:[ \t]+[\w:-]+=[\"'][^\"'<>\r\n]*[\"'])*[ \t]*>"
    r"[ \t]*([^<\r\n]{1,400}?)[ \t]*<[ \t]*/"
)


# What every element's match holds, for redaction's one scan (the element's whole pattern, a secret's
# names and attributes, cost its program ~0.25 MB): an opening tag whose name holds a secret's word.
_ELEMENT_GATE = r"(?i)<[ \t]*[\w.:-]*(?:pass|pwd|secret|token|key|cred|dsn|authtok|webhook|_pw)"


def _substitution(pattern: str, replace: Callable[[Match], str]) -> Callable[[str], str]:
    """A redaction step: every match of ``pattern`` (RE2) given to ``replace``."""
    compiled = linear(pattern)
    return lambda text: compiled.sub(replace, text)


def _element_replace(m: Match) -> str:
    name, value = m.group(1) or "", m.group(2) or ""
    if not _name_allowed(name) or not _strong_value(value, True, "=", name):
        return m.group(0) or ""
    return redacted_group(m, 2)


# ... and one named only like a key (Authorize.Net's ``<transactionKey>…</transactionKey>``): a
# random value only, as a weak name's. Not a property list's ``<key>``, which holds a name.
_WEAK_ELEMENT = (
    r"(?i)<[ \t]*((?:[A-Za-z_][\w.-]*:)?[A-Za-z0-9_.-]+key)[ \t]*>[ \t]*([A-Za-z0-9_+/=.~-]{16,200})"
    r"[ \t]*<[ \t]*/"
)
_WEAK_ELEMENT_GATE = r"(?i)key[ \t]*>[ \t]*[A-Za-z0-9_+/=.~-]{16}"


def _weak_element_replace(m: Match) -> str:
    name, value = m.group(1) or "", m.group(2) or ""
    if not _name_allowed(name) or _public(name, value) or not generated_value(value) or is_placeholder(value):
        return m.group(0) or ""
    return redacted_group(m, 2)


def _weak_plist_replace(m: Match) -> str:
    name, value = m.group(1) or "", m.group(2) or ""
    if not _name_allowed(name) or _public(name, value) or is_placeholder(value) or uuid_shaped(value):
        return m.group(0) or ""
    if looks_random(value, 16) or (long_hex(value) and key_named(name, value, "")):
        return redacted_group(m, 2)
    return m.group(0) or ""


# An object given to a strong name, its members one value each (Hardhat's ``etherscan: { apiKey: {
# mainnet: "…", polygon: "…" } }``, ``tokens = { github = "…" }``): each member's quoted value is
# judged as the name's own would be. Members of one level only, in a thousand characters at most.
# The name starts a word of its own: not a package's name's last part (``"node_modules/jsonwebtoken":
# {``, ``"Microsoft.IdentityModel.Tokens": {``).
_MEMBERS = rf"(?i)(?:^|[^\w./-])({_IDENT}{_STRONG}{_IDENT})[\"']?[ \t]*[:=][ \t]*\{{([^{{}}]{{1,1000}})\}}"
_MEMBERS_GATE = r"(?i)(?:key|token|secret|passw(?:or)?d|passwd|credential|cred|pat)s?[\"']?[ \t]*[:=][ \t]*\{"
_MEMBER = linear(r"""([\w.-]+)["']?[ \t]*[:=][ \t]*(?:"([^"\r\n]{8,200})"|'([^'\r\n]{8,200})')""")
# A name of code, not a package's or a path (``Microsoft.IdentityModel.Tokens``, ``node_modules/…``).
_PLAIN_NAME = linear(r"^[\"']?[A-Za-z_][A-Za-z0-9_-]*[\"']?$")
# A member named for an id or a digest (a JWT header's ``kid``, a lock file's ``contentHash``).
_ID_MEMBER = linear(
    r"(?i)^(?:k?id|\w*hash|integrity|sha\d*|digest|checksum|version|alg|etag|nonce|\w*_id|\w*Id)$"
)


# The name holds the members: it ends in a secret's noun, one or many (``apiKey``, ``tokens``,
# ``credentials``; not ``tokenStyles``).
_HOLDS_MEMBERS = linear(r"(?i)(?:key|token|secret|password|passwd|credential|cred|pat)s?[\"']?$")
# A member's value that is a pattern or markup, not a secret (``pattern: "^[a-z]+$"``).
_NOT_A_MEMBER_SECRET = linear(r"[\s\[\](){}\\<>]")


def _members_replace(m: Match) -> str:
    name, members = m.group(1) or "", m.group(2) or ""
    if not _name_allowed(name) or _HOLDS_MEMBERS.search(name) is None or _PLAIN_NAME.match(name) is None:
        return m.group(0) or ""
    spans = []
    for member in _MEMBER.finditer(members):
        if _ID_MEMBER.match(member.group(1) or "") is not None:
            continue
        g = 2 if member.group(2) is not None else 3
        value = member.group(g) or ""
        if _NOT_A_MEMBER_SECRET.search(value) is not None or not (
            generated_value(value) or password_value(value)
        ):
            continue
        if _strong_value(value, True, "=", name):
            spans.append((member.start(g), member.end(g)))
    if not spans:
        return m.group(0) or ""
    offset = m.start(2) - m.start(0)
    whole = m.group(0) or ""
    for start, end in reversed(spans):
        whole = whole[: offset + start] + REDACTED + whole[offset + end :]
    return whole


def _set_var_replace(m: Match) -> str:
    whole = m.group(0) or ""
    name = m.group(1) or ""
    if not _name_allowed(name):
        return whole
    for g in range(2, 7):
        value = m.group(g)
        if value is None:
            continue
        if value.startswith("-"):
            return whole  # a flag: gh secret set API_TOKEN --body …
        quoted = g != 6
        # Read like a bare word after a space: "setenv GITHUB_TOKEN before the tests" is prose.
        if _STRONG_NAME.search(name) is None:
            ok = looks_random(value, 16)
        else:
            ok = _strong_value(value, quoted, " ", name)
        if ok and not quoted:
            # A bare word after a space reads as prose too ("Set API_TOKEN Actions secret via the
            # UI", "set password Summer2024!"): only a generated or password-like value is one.
            ok = generated_value(value) or password_value(value)
        if not ok:
            return whole
        return redacted_group(m, g)
    return whole


def _flag_replace(m: Match) -> str:
    whole = m.group(0) or ""
    for g in (2, 3, 4):
        value = m.group(g)
        name = m.group(1) or ""
        if value is not None and _name_allowed(name) and _strong_value(value, g != 4, "=", name):
            return redacted_group(m, g)
    return whole


# Each step's pattern and the step, in the order redaction runs them.
NAMED_STEPS: tuple[tuple[str, Callable[[str], str]], ...] = (
    (_NAME_VALUE.pattern, _assignment_sub(_NAME_VALUE, strong=True)),
    (_ASSIGNMENTS[0].pattern, _assignment_sub(_ASSIGNMENTS[0], strong=True)),
    (_ASSIGNMENTS[1].pattern, _assignment_sub(_ASSIGNMENTS[1], strong=False)),
    (_GLUED_PASS_GATE, _assignment_sub(_GLUED_PASS, strong=True)),
    (_NESTED_VALUE_GATE, _assignment_sub(_NESTED_VALUES[0], strong=True)),
    (_NESTED_VALUE_GATE, _assignment_sub(_NESTED_VALUES[1], strong=False)),
    (_MEMBERS_GATE, _substitution(_MEMBERS, _members_replace)),
    (_ELEMENT_GATE, _substitution(_ELEMENT, _element_replace)),
    (_WEAK_ELEMENT_GATE, _substitution(_WEAK_ELEMENT, _weak_element_replace)),
    (_PLIST_GATE, _substitution(_PLIST, _element_replace)),
    (_PLIST_GATE, _substitution(_WEAK_PLIST, _weak_plist_replace)),
    (_PROPERTY_GATE, _substitution(_PROPERTY, _element_replace)),
    (_FLAG, _substitution(_FLAG, _flag_replace)),
    (_SET_VAR, _substitution(_SET_VAR, _set_var_replace)),
)

# What :mod:`osmia.memory.secret_calls` and :mod:`osmia.memory.secret_elements` build their steps
# with (names and values are judged in :mod:`osmia.memory.secret_name_values`, a name's parts are
# in :mod:`osmia.memory.secret_name_words`): a step of one pattern, an element's value named for a
# secret.
substitution = _substitution
element_replace = _element_replace
