"""What a secret's name and the value it is given must be, for the steps that read names.

:mod:`osmia.memory.secret_names` finds a name and its value in every form code, configs and shells
write; this module judges them: whether a name holds a secret or only names, counts, points at or
publishes one (``secretName``, ``token_usage``, ``publicKey``); whether a strong name's value is
a secret and not a placeholder, reference, count, version or prose word; whether a bare value is
no value at all (code, a port, a colour, a Maven coordinate, another pair); whether hex given to
a key's name is an API key (:func:`key_named`). :mod:`osmia.memory.secret_calls` and
:mod:`osmia.memory.secret_elements` judge names and values with it too.
"""

from __future__ import annotations

from osmia.memory.linear import linear
from osmia.memory.secret_name_words import NAME_ONLY as _NAME_ONLY
from osmia.memory.secret_name_words import STRONG as _STRONG
from osmia.memory.secret_name_words import WEAK as _WEAK
from osmia.memory.secret_placeholders import (
    code_value,
    env_name,
    is_placeholder,
    resource_name,
)
from osmia.memory.secret_values import looks_random

__all__ = [
    "ID_KEY",
    "POINTER",
    "PUBLIC_KEY_VALUE",
    "STRONG_NAME",
    "URL_VALUE",
    "WEAK_NAME",
    "format_field",
    "hashed_value",
    "inside_words",
    "key_named",
    "name_allowed",
    "not_a_value",
    "public_value",
    "said_public",
    "strong_value",
]


# A word of a name that says it counts (``TOKEN_BUDGET_PER_RUN``, ``MAX_TOKENS_PER_REQUEST``): a number
# given to it is a count, whatever its length.
_COUNTING = linear(r"(?:^|[_.-])(?:budget|limit|max|min|count|size|ttl|timeout|per|total|quota)(?:[_.-]|$)")


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


# Capitals' words joined by ``_``, with no digit: a name (``DEMO_KEY``, ``SOME_SECRET``), not a value.
_CONSTANT = linear(r"^[A-Z]+(?:_[A-Z]+)+$")


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
    if _CONSTANT.match(value) is not None:
        return False  # a constant's or a variable's name (api.data.gov's published ``DEMO_KEY``)
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


# A bare value that is no value: code (:func:`code_value`), a port and path after a host whose name
# holds a secret word (``keycloak:8080/realms``, ``monkey:8080``), or a variable or attribute
# assigned to a subscript, in code (``headers['X-Api-Key'] = apiKey``, ``d["token"] = self.token``,
# ``d["secrets"] = [s.to_dict() …``, ``h["Authorization"] = _basic_auth_str(user, …``).
_PORT_VALUE = linear(r"^\d{2,5}(?:/|$)")
_VARIABLE = linear(r"^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*;?$")
_CALLED = linear(r"^(?:[\[{(]|[A-Za-z_$][\w$]*[(\[])")


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


_STRONG_NAME = linear(rf"(?i){_STRONG}")
STRONG_NAME = _STRONG_NAME  # a name that says it holds a secret (``DB_PASSWORD``, ``apiToken``)


# The judgements the steps of :mod:`osmia.memory.secret_names`, :mod:`osmia.memory.secret_calls`
# and :mod:`osmia.memory.secret_elements` read.
name_allowed = _name_allowed
strong_value = _strong_value
not_a_value = _not_a_value
public_value = _public
hashed_value = _hashed
said_public = _said_public
inside_words = _inside_words
format_field = _format_field
WEAK_NAME = _WEAK_NAME
POINTER = _POINTER
PUBLIC_KEY_VALUE = _PUBLIC_KEY_VALUE
URL_VALUE = _URL_VALUE
ID_KEY = _ID_KEY
