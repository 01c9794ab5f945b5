"""Secrets found by the name that holds them: ``DB_PASSWORD=…``, ``"api_key": "…"``, ``--token …``.

The redaction steps (:mod:`osmia.memory.redaction` runs them in order) that read a secret-like
name and take the value it is given: an assignment in any of the forms code, configs and shells
write, a name and its value given apart, a CLI flag, a variable set with a space
(``set -gx``, ``ENV``), a call given the name and the value as two strings, an XML element named
like a secret. A name that only suggests a secret (``*_KEY``, ``auth``, ``session``) takes a
value only when it looks random; a name that points at a secret (``secretName``,
``token_usage``) takes none. Only the value is replaced, so ``DB_PASSWORD=[redacted]`` still says
what was there.
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.linear import LinearPattern, Match, linear
from osmia.memory.secret_name_words import IDENT as _IDENT
from osmia.memory.secret_name_words import NAME_ONLY as _NAME_ONLY
from osmia.memory.secret_name_words import STRONG as _STRONG
from osmia.memory.secret_name_words import WEAK as _WEAK
from osmia.memory.secret_placeholders import (
    REDACTED,
    code_value,
    content_key,
    env_name,
    is_placeholder,
    key_path,
    resource_name,
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
    "STRONG_NAME",
    "key_named",
    "name_allowed",
    "redacted_group",
    "strong_value",
    "substitution",
]

# A word of a name that says it counts (``TOKEN_BUDGET_PER_RUN``, ``MAX_TOKENS_PER_REQUEST``): a number
# given to it is a count, whatever its length.
_COUNTING = linear(r"(?:^|[_.-])(?:budget|limit|max|min|count|size|ttl|timeout|per|total|quota)(?:[_.-]|$)")
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


# A webhook's URL is its secret. (A secret's id is the credential in Vault's AppRole ``secret_id``
# and Consul's ``SecretID``, but names a stored secret in AWS's ``--secret-id prod/api``: the
# ``secret-id`` rule takes only a generated value given to it.)
_CREDENTIAL_ENDINGS = ("webhook_url", "webhookurl")
# Names of what is public by design: a public key, a publishable key.
_PUBLIC_ENDINGS = ("publickey", "public_key", "pubkey", "publishablekey", "publishable_key")
# A value that is the name of a secret's key, not the secret: lower-case words and dashes, one of
# them a secret's noun (``postgres-password``, ``api-token``; a passphrase has no such word).
_SECRET_KEY_NAME = linear(
    r"^(?:[a-z]+-)*(?:password|passwd|passphrase|secret|token|key|credentials?|apikey)(?:-[a-z]+)*"
    r"(?::(?:\d+|latest))?$"  # ... and its version (``openai-key:3``, as Cloud Run names one)
)


# ... written in snake case, given to a name that ends in ``KEY`` (the key it is stored under).
_SNAKE_KEY_NAME = linear(r"^(?:[a-z0-9]+_)*(?:password|passwd|pass|pwd|secret|token|key|psk)(?:_[a-z0-9]+)*$")


def _name_allowed(name: str) -> bool:
    """False for names that hold a name, count or pointer of a secret (``secretName``, ``token_usage``)."""
    lowered = name.lower().strip("'\"").replace("-", "_")
    return not lowered.endswith(_NAME_ONLY) or lowered.endswith(_CREDENTIAL_ENDINGS)


# A public key as its formats write one: 32 bytes in base64 (X25519, Ed25519: WireGuard's
# ``PublicKey``) or in hex (Discord's and NaCl's Ed25519 keys), an SSH public key, a PEM public key's
# header.
_PUBLIC_KEY_VALUE = linear(
    r"^(?:[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=|[0-9a-f]{64}|(?:ssh-|ecdsa-|sk-ssh-)\S+|-----BEGIN PUBLIC"
    # ... and a public key's DER in base64 (SubjectPublicKeyInfo: RSA's, P-256's, Ed25519's).
    r"|MII[BC]IjANBgkqhkiG9w0BAQEFAAOC|MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE|MCowBQYDK2Vw)"
)


def _public(name: str, value: str) -> bool:
    """A public key given to a name that says so: not a secret (a value of another shape under such
    a name is judged as any other: "PUBLIC_KEY=<an AWS secret key>, the name is historical")."""
    lowered = name.lower().strip("'\"").replace("-", "_")
    return lowered.endswith(_PUBLIC_ENDINGS) and _PUBLIC_KEY_VALUE.match(value) is not None


# A digest in hex, as long as SHA-1's, SHA-256's or SHA-512's.
_HEX_DIGEST = linear(r"^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64}|[0-9a-fA-F]{128})$")


def _hashed(name: str, value: str) -> bool:
    """A digest given to a name that says it holds one (detect-secrets' ``"hashed_secret": "<sha1>"``,
    ``secret_sha256``): what a scanner keeps so that it stores no secret, and none itself."""
    lowered = name.lower().strip("'\"").replace("-", "_")
    said = lowered.startswith(("hashed_", "hash_of_")) or lowered.endswith(("_sha1", "_sha256", "_sha512"))
    # Vault's audit log writes every secret as its HMAC (``"client_token": "hmac-sha256:…"``).
    return (said and _HEX_DIGEST.match(value) is not None) or value.startswith(
        ("hmac-sha256:", "hmac-sha512:")
    )


_WEAK_NAME = linear(rf"(?i){_WEAK}")


def _inside_words(name: str) -> str:
    """``name`` without the words a weak noun hides in (``assignment``, ``design``, ``signal``)."""
    lowered = name.lower()
    for word in ("assign", "design", "signal", "consign", "resign"):
        lowered = lowered.replace(word, "_")
    return lowered


def _said_public(text: str, name_start: int) -> bool:
    """Whether the word before a name says it is public (``wg show``'s ``public key: …``)."""
    return text[max(0, name_start - 8) : name_start].lower().rstrip(" \t_-").endswith("public")


# The secret-holding nouns a name can end with: DB_PASSWORD holds one, SECRET_BACKEND names a service.
_HOLDERS = (
    "password",
    "passwd",
    "pwd",
    "pass",
    "passphrase",
    "secret",
    "token",
    "key",
    "credentials",
    "creds",
)


# A value that points at a secret kept elsewhere: a secret manager's reference (1Password's
# ``op://vault/item/field``, whose names may hold blanks: ``op://Dev/Alpaca Paper/secret key``;
# ``vault://…``, vals' ``ref+…``), a path in a store of secrets in words
# (Vault's ``secret/data/app/prod/db:password``), a call that reads one
# (``jsondecode(data.aws_secretsmanager_secret_version.db.secret_string``).
_POINTER = linear(
    r"^(?:(?:op|vault|ref\+[a-z0-9]+|sm|awssm|gcpsm|azurekeyvault|akv|doppler|infisical|bws)://\S+(?: \S+)*"
    # ... Vault's path written after ``vault:`` (``vault:secret/data/app#field``),
    r"|vault:[\w./-]+(?:#\w+)?"
    r"|[a-z][a-z0-9_-]*(?:/[a-z0-9_.-]+){2,}(?::[a-z_]+)?|[a-z]+(?:-[a-z]+)+/[a-z]+(?:-[a-z]+)*|[a-z]+/[a-z]+(?:-[a-z]+)+"
    # ... a credential's file (systemd's ``LoadCredential=api-token:/etc/credstore/…``), a build's
    # secret mount (``--secret id=npmrc,src=$HOME/.npmrc``), an attribute of a resource (Terraform's
    # ``random_password.db.result``), a reverse-DNS key of a keychain (``com.acme.auth.refreshToken``), a
    # call (Elixir's ``System.fetch_env!(``), its argument quoted
    # (``std::env::var("TOKEN")``)
    r"|[a-z][a-z0-9_.-]*:/[\w.-][\w./-]*|id=[\w.-]+(?:,(?:src|source|env|type|required|target)=\S+)+"
    r"|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*){2,}|[a-z]+(?:\.[a-z][A-Za-z]*){2,}|[A-Za-z_][\w.:]*[!?]?\("
    r"|[A-Za-z_][\w.]*[!?]?\(:?[A-Za-z_][\w.]*(?:\)|$)"
    # ... and an App Service setting's Key Vault reference (``@Microsoft.KeyVault(SecretUri=…)``).
    r"|@Microsoft\.KeyVault\(\S*)$"
)


# Lower-case words joined by dots and a number after the last (``quartz.saffron.cobalt26``): a chosen
# password, which the pointer's dotted reference (``module.db.password``) would take for one.
_WORDS_AND_NUMBER = linear(r"^[a-z]{3,}(?:\.[a-z]{3,})+\d{1,6}$")


def _strong_value(value: str, quoted: bool, operator: str, name: str) -> bool:
    """Whether a value assigned to a strong secret name is a secret.

    Placeholders, counts (``max_tokens=4096``), versions and file paths are not.
    A short lower-case word is a secret only when quoted or assigned with ``=`` to
    a name that ends in what holds one: ``DB_PASSWORD=postgres`` and
    ``password: "postgres"`` are leaked passwords, ``token: expired`` is prose and
    ``SECRET_BACKEND=vault`` names a service.
    """
    if is_placeholder(value) or len(value) < 4 or resource_name(value):
        return False
    if _POINTER.match(value) is not None and _WORDS_AND_NUMBER.match(value) is None:
        return False  # a reference (``random_password.db.result``), not words and a number
    if not quoted and code_value(value):
        return False  # a PowerShell cmdlet called for the value (``$pwd = ConvertTo-SecureString …``)
    if not quoted and value.startswith("(") and env_name(value[1:]):
        return False  # a list of options opened (SQL's ``CREDENTIALS = (AWS_KEY_ID = …``)
    if _SECRET_KEY_NAME.match(value) is not None:
        return False  # the name of a key in a secret store (``adminPasswordKey: postgres-password``)
    if name.lower().strip("'\"").endswith("key") and _SNAKE_KEY_NAME.match(value) is not None:
        return False  # ... or in a device's store (``#define MQTT_PASS_KEY "mqtt_pass"``)
    if value.replace(".", "").isdigit() and (len(value) < 6 or "." in value):
        return False
    if value.isdigit() and _COUNTING.search(name.lower().strip("'\"")) is not None:
        return False
    if value.startswith(("/", "./", "../", "~/")) and " " not in value:
        # A path, unless it is one random run after a slash (an AWS secret key may start with one).
        return value.count("/") == 1 and looks_random(value, 24)
    if not (value.isalpha() and value.islower() and len(value) < 12):
        return True
    last = name.strip("'\"").rpartition(".")[2]
    if _STRONG_NAME.search(last) is None and _WEAK_NAME.search(last) is None:
        return False  # a word given to a setting under a secret's namespace (``secrets.rotate_on_deploy``)
    return quoted or ("=" in operator and name.lower().strip("'\"").endswith(_HOLDERS))


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


# A bare value that is no value: code (:func:`code_value`), a port and path after a host whose name
# holds a secret word (``keycloak:8080/realms``, ``monkey:8080``), or a variable or attribute
# assigned to a subscript, in code (``headers['X-Api-Key'] = apiKey``, ``d["token"] = self.token``,
# ``d["secrets"] = [s.to_dict() …``, ``h["Authorization"] = _basic_auth_str(user, …``).
_PORT_VALUE = linear(r"^\d{2,5}(?:/|$)")
_VARIABLE = linear(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*;?$")
_CALLED = linear(r"^(?:[\[{(]|[A-Za-z_$][\w$]*[(\[])")


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


# Words of code that start an expression, never a value (``const token = await getToken()``).
_CODE_WORDS = frozenset(
    {"await", "yield", "lambda", "async", "typeof", "require", "import", "function", "undefined", "null"}
)


# A URL as a value, its scheme as written or percent-encoded.
_URL_VALUE = linear(r"(?i)^[a-z][a-z0-9+.-]*(?::|%3A)(?://|%2F%2F)")
# A method called on the (empty) literal before the value: ``"".join(``.
_METHOD = linear(r"^\.[A-Za-z_$][\w$]*[(\[]")
# A colour in CSS (``--color-secret-badge: #8250df;``): three, four, six or eight hex digits.
_COLOUR = linear(r"^#(?:[0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")


# A name and ``=`` at a value's start: the value is another pair (a cookie's ``session=…``).
_PAIR_VALUE = linear(r"^[A-Za-z_][\w.-]{0,40}=")
# ... a lower-case identifier's pair (``sha256=…``, ``_ga=…``, ``type=LOGIN_ERROR``).
_LOWER_PAIR = linear(r"^[a-z_][a-z0-9_.-]{0,40}=[^=]")
# A name that ends in a key's (``KAGGLE_KEY``, ``WANDB_API_KEY``, ``license_key``, ``appKey``, a
# client's ``key=`` argument; not a cache's), which hex of 32 digits or more given to it is (an API
# key's shape, its entropy aside). Not a word that ends in "key" (``monkey``, ``hockey``).
_KEY_NAME = linear(
    r"""(?i)^["']?(?:[A-Za-z0-9]+[_.-])*(?:[A-Za-z0-9]*(?:api|app|access|secret|private|licen[cs]e)[_.-]?)?"""
    r"""key["']?$"""
)
# Before a bare ``key`` on its line, a word saying its hex is a digest or an entry's key (``cache miss
# key=5d41…``, ``etag … key …``).
_DIGEST_BEFORE = linear(
    r"(?i)cache|hash|digest|md5|sha\d|etag|checksum|fingerprint|object|bucket|\bs3\b|redis|memcache"
    r"|lookup|index|sort|dedup|idempoten|partition|shard|trace|span|request|\bgpg\b|\bpgp\b|keyring"
)
# ... not one a word before it says is no secret (a cache's, a partition's, a public one).
_NOT_SECRET_KEYS = frozenset(
    [
        "CACHE",
        "IDEMPOTENCY",
        "PARTITION",
        "SORT",
        "ROUTING",
        "LOOKUP",
        "ROW",
        "INDEX",
        "SHARD",
        "HASH",
        "DEDUP",
        "PRIMARY",
        "FOREIGN",
        "OBJECT",
        "PUBLIC",
        "PUB",
        "SITE",
        "VERIFY",
        "VERIFICATION",
        "INCIDENT",
        "EVENT",
        "REQUEST",
        "TRACE",
        "FILE",
        "S3",
    ]
)
# A Maven coordinate's group (a package's dotted lower-case name, whose last part holds a secret's
# word inside a longer one: ``io.jsonwebtoken``) and its artifact (``jjwt-api``).
_COORDINATE_GROUP = linear(
    r"^[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)*\.[a-z]*(?:[a-z]token|token[a-z]|[a-z]key|key[a-z])[a-z]*$"
)
_COORDINATE_ARTIFACT = linear(r"^[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*$")


def _not_a_value(value: str, between: str, name: str = "") -> bool:
    """Whether a bare value after a secret-like name (``between`` them: the operator) is no value:
    code, a port, a variable given to a subscript, a resource's name (``secretsmanager:us-east-1:…``
    in an ARN), a colour, the rest of a URL whose scheme the name was (``otpauth://…``), or the
    name itself (``cl_pw=cl_pw``, a keyword argument passed on)."""
    if code_value(value) or value in _CODE_WORDS or resource_name(value) or _COLOUR.match(value) is not None:
        return True
    if _METHOD.match(value) is not None:
        return True  # a method of the literal before it (``token = "".join(parts)``)
    if between == ":" and value.startswith("//"):
        return True
    if value.endswith(":") and value[:-1].replace("_", "").replace("-", "").isalnum():
        return True  # a key of a nested block (``secrets: env:``, ``Secrets: remoteRef:``), its value below
    if name and value.rstrip(",;").lower() == name.strip("'\"").lower():
        return True
    if value.startswith("[") and _STRONG_NAME.search(name) is None:
        return True  # a list given to a name that only suggests a secret (``keys=[2025-10-rsa-1f84, …]``)
    pair = _PAIR_VALUE.match(value)
    if pair is not None and pair.end(0) < len(value) and is_placeholder(value[pair.end(0) :]):
        return True  # a cookie's name and a placeholder (``set-cookie=session=<redacted>;``)
    if _LOWER_PAIR.match(value) is not None:
        return True  # another pair after a label (``X-Hub-Signature-256: sha256=…``, ``Cookie: _ga=…``);
        # a password holding a sign starts otherwise (``trust-store-password: Zephyr=Rk…``)
    if between == ":" and _COORDINATE_GROUP.match(name) is not None and _COORDINATE_ARTIFACT.match(value):
        return True  # a Maven coordinate (``io.jsonwebtoken:jjwt-api``): a package, not a token
    if between.strip() == ":" and _PORT_VALUE.search(value) is not None:
        return True
    if between.strip() == ":" and value.startswith("?"):
        return True  # a shell's "set or fail" expansion: ``${API_KEY:?must be set}``
    subscript = "]" in between
    return subscript and (_VARIABLE.search(value) is not None or _CALLED.search(value) is not None)


# A bare value's start in braces with one token after it (ODBC's ``Pwd={…}``; a dict or a
# template has a name, a colon or another brace in it).
_BRACED = linear(r"\{[^{}\s:,=$]{4,}")


_IDENTIFIER = linear(r"^[A-Za-z_][A-Za-z0-9_.]*$")


def _format_field(inner: str) -> bool:
    """A format string's field (``--password={db_password}``, ``{dbPassword}``): a name, with no
    sign and not the mixed case and digits a password has."""
    if _IDENTIFIER.match(inner) is None:
        return False
    mixed = any(c.isupper() for c in inner) and any(c.islower() for c in inner)
    return "_" in inner or "." in inner or not (mixed and any(c.isdigit() for c in inner))


# A key that names a request, an object or a cache entry, not a credential: a UUID given to it is an
# id (a weak name's random value is otherwise taken).
_ID_KEY = linear(
    r"(?i)(?:idempoten\w*|correlation|request|trace|cache|dedup\w*|partition|routing|object|sort|primary"
    r"|foreign|lookup|message|event|record|row|item)[_.-]?key"
)


def key_named(name: str, value: str, line_before: str) -> bool:
    """Whether hex ``value`` is given to a name of a key that holds one: the name ends in ``key``
    after a word of a credential or none, and no word of it says the key is no secret (a cache's, a
    partition's, a public one). A bare ``key`` takes neither a SHA-1's nor a SHA-256's length, nor
    one after a word on its line that says digest or entry (``cache miss key=…``)."""
    if _KEY_NAME.match(name) is None:
        return False
    spaced = "".join(
        "_" + c if c.isupper() and i and name[i - 1].islower() else c for i, c in enumerate(name)
    )
    if _NOT_SECRET_KEYS & set(spaced.upper().replace("-", "_").replace(".", "_").split("_")):
        return False
    if name.lower() != "key":
        return True
    return len(value) not in (40, 64) and _DIGEST_BEFORE.search(line_before) is None


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
_STRONG_NAME = linear(rf"(?i){_STRONG}")
STRONG_NAME = _STRONG_NAME  # a name that says it holds a secret (``DB_PASSWORD``, ``apiToken``)


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
    (_ELEMENT_GATE, _substitution(_ELEMENT, _element_replace)),
    (_WEAK_ELEMENT_GATE, _substitution(_WEAK_ELEMENT, _weak_element_replace)),
    (_PLIST_GATE, _substitution(_PLIST, _element_replace)),
    (_PLIST_GATE, _substitution(_WEAK_PLIST, _weak_plist_replace)),
    (_PROPERTY_GATE, _substitution(_PROPERTY, _element_replace)),
    (_FLAG, _substitution(_FLAG, _flag_replace)),
    (_SET_VAR, _substitution(_SET_VAR, _set_var_replace)),
)

# What :mod:`osmia.memory.secret_calls` and :mod:`osmia.memory.secret_elements` read names and
# values with (the parts of a secret's name are in :mod:`osmia.memory.secret_name_words`): which
# names are only about one, what a strong name's value must be, a step of one pattern, an element's
# value named for a secret.
name_allowed = _name_allowed
strong_value = _strong_value
substitution = _substitution
element_replace = _element_replace
