"""What stands where a secret's value would, and is none: placeholders, masks, templates, references,
keys published by design; and the ids, names, paths and code a rule's value may turn out to be.

:mod:`osmia.memory.secret_values` tells a generated or chosen secret by its shape; these checks
come first, so that ``${DB_PASSWORD}``, ``sk_test_xxx``, ``var.db_password``, a UUID or
``os.getenv(`` is kept whatever rule read it.
"""

from __future__ import annotations

from osmia.memory.english import common_words
from osmia.memory.linear import linear

REDACTED = "[redacted]"


def spans_redacted(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the text of each span replaced by the marker; a span that overlaps one before
    it (in order of start) is part of that one's."""
    out, last = [], 0
    for a, b in sorted(set(spans)):
        if a < last:
            continue
        out += [text[last:a], REDACTED]
        last = b
    return "".join(out) + text[last:]


# A lower-case name in square brackets, or its start (a bare value ends at the bracket).
_NAME_IN_BRACKETS = linear(r"^\[[a-z][a-z0-9_-]*\]?$")


# A password stored with its scheme's name first, as LDAP, Dovecot, Spring Security and SAS write
# one (``{SSHA}W6ph…``, ``{PLAIN}…``, ``{noop}…``, ``{bcrypt}$2a$…``, ``{SAS002}C62D…``): the
# scheme and a value with no template in it. Spring Cloud Config's ``{cipher}`` is ciphertext made
# to be committed, kept as the forty-ninth session decided.
_SCHEMED = linear(r"^\{(?i:[a-z][a-z0-9_-]{1,15})\}[^\s{}$<>]{4,}$")
_CIPHER = "{cipher}"


def is_placeholder(value: str) -> bool:
    """A reference or template, not a value: ``${VAR}``, ``$VAR``, ``<token>``, ``{{ x }}``, ``***``;
    or a value published by design (a Stripe publishable key, meant for client code)."""
    v = value.strip("'\"")
    if not v or v == REDACTED or v.startswith(REDACTED):
        return True
    if published_or_sample(v):
        return True
    if v.endswith(("...", "\u2026")) and v.rstrip(".\u2026").endswith(("_", "-")):
        return True  # a format's prefix and an ellipsis: ``sk_test_...``, ``ghp_…``
    if v[0] in "$<{" or v.lower().startswith("[redact") or _PERCENT_TEMPLATE.match(v) is not None:
        # ... but a stored password's scheme and its value: ``{PLAIN}…``, ``{SSHA}…``
        return _SCHEMED.match(v) is None or v.lower().startswith(_CIPHER)
    mask = v.strip("[]").replace("_", "")
    if v[0] == "[" and mask.isalpha() and (mask.isupper() or mask.istitle()):
        return True  # a mask a tool writes: ``[REDACTED]``, ``[FILTERED]``, Sentry's ``[Filtered]``
    if masked(v):
        return True
    if _URL_TEMPLATE.search(v) is not None or _REFERENCE.search(v) is not None:
        return True  # ``https://<key>@host``, ``https://${USER}:${PASS}@host``; ``var.db_password``
    if "XXXXXXXX" in v:
        return True  # a template's run of X's (``https://hooks.slack.com/services/TXXXXXXXX/…``)
    if (len(v), v[-7:]) == (20, "EXAMPLE") or (len(v), v[-10:]) == (40, "EXAMPLEKEY"):
        return True  # AWS's documented example keys (``AKIAIOSFODNN7EXAMPLE``, ``…/bPxRfiCYEXAMPLEKEY``)
    if v[0] == "(" and v[1:].isalpha() and v[1:].islower():
        return True  # a note in place of a value: Terraform's ``(sensitive value)``, ``(known after apply)``
    if v[0] == "[" and _NAME_IN_BRACKETS.match(v) is not None:
        return True  # a note in place of a value (``[hidden]``, ``[removed]``), a list of a name
        # (Compose's ``secrets: [db_password]``)
    if v[0] == "!" and v[1:].isalpha():
        return True  # a YAML tag: the value is elsewhere (``password: !vault |``, ``!Ref DbPassword``)
    if _DIGEST_VALUE.match(v) is not None:
        return True  # a digest of the value, as an audit log writes it (Vault's ``hmac-sha256:…``)
    if v.isupper() and not _MASK_WORDS.isdisjoint(v.split("_")):
        return True  # a tool's words for a value it hid (CloudTrail's ``HIDDEN_DUE_TO_SECURITY_REASONS``)
    return v.lower() in _NOT_VALUES or _FILL_IN.search(v) is not None or filler_token(v)


# A digest named by its algorithm (``hmac-sha256:44a9…``, ``sha256:…``): what an audit log keeps in
# place of a value.
_DIGEST_VALUE = linear(r"^(?:hmac-)?(?:sha(?:1|224|256|384|512)|md5):[0-9a-fA-F]{32,}$")
# The words a tool writes in capitals where it hid a value.
_MASK_WORDS = frozenset(
    ("HIDDEN", "REDACTED", "MASKED", "REMOVED", "OMITTED", "FILTERED", "SCRUBBED", "SANITIZED")
)


# What a value that starts with ``%`` starts with when it is a template: a format's conversion
# (``%s``, ``%-8.2f``), a named one (``%(password)s``), a substitution (``%{DB_PASSWORD}``), a
# Windows variable (``%APPDATA%``, ``%DB_PASS%\…``) or Symfony's env processor
# (``%env(file:DB_PASS_FILE)%``). A password may start with ``%`` too (``%iN99BTN5…``,
# ``%3Fhunter2``): a conversion runs on into more letters and digits there.
_PERCENT_TEMPLATE = linear(
    r"^%(?:[-+ #0]*[0-9]*(?:\.[0-9]+)?[A-Za-z](?:[^A-Za-z0-9]|$)|\([A-Za-z_][\w.-]*\)|\{"
    r"|[A-Za-z_][\w.():-]*%(?:[^A-Za-z0-9]|$)|%|$)"
)


# A format's prefix (up to 12 characters) and then only a mask of 8 or more, or of three x's after
# the prefix's own separator (``sk_test_xxx`` in an ``.env.example``): no value is written so.
# ... or a mask with the last few characters shown (``****************3f9a``: what tools print).
_MASKED = linear(r"^[\w.-]{0,12}?(?:[_-][xX]{3,}|[xX]{8,}|\*{8,}|[•●]{8,}|#{8,})(?:[A-Za-z0-9]{1,4})?$")


def masked(value: str) -> bool:
    """A mask written for a value, alone or after a format's prefix (``****``, ``AKIAXXXXXXXXXXXXXXXX``,
    ``ghp_xxxx…``): a template, even where a rule takes any value of its format."""
    if set(value) <= set("*xX.-_#•●") or _MASKED.search(value) is not None:
        return True
    if "***" in value and 2 * value.count("*") >= len(value):
        return True  # a value masked but for a few characters (``MTI***.***.***``)
    head = _FORMAT_HEAD.match(value)
    rest = value[head.end(0) :] if head is not None else ""
    return "*" in rest and set(rest) <= set("*-_.")  # ``xoxb-****-****-********``


# A URL whose user part is a template (``<key>``, ``{user}``, ``${PASS}``).
_URL_TEMPLATE = linear(r"://[^/\s@]*(?:<|\{|\$\{)")


# A reference to a value defined elsewhere, as Terraform writes one (``var.db_password``,
# ``local.creds.password``, ``data.vault_generic_secret.db.data["password"]``, ``module.db.password``).
_REFERENCE = linear(
    r"^(?:var|local|data|module)\.[A-Za-z_][\w.\[\]\"'-]*$"
    # ... or an environment variable read in code (``process.env.SLACK_BOT_TOKEN``,
    # ``import.meta.env.VITE_KEY``, ``os.environ.get``, Ruby's ``ENV.fetch``)
    r"|^(?:process\.env|import\.meta\.env|os\.environ|ENV|Deno\.env)[.\[]"
    # ... or a setting's constant read off an object (``settings.STRIPE_SECRET_KEY``,
    # ``config.DB_PASSWORD``), or Azure App Service's reference to a Key Vault secret
    # (``@Microsoft.KeyVault(SecretUri=…)``)
    r"|^[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*\.[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^@Microsoft\.KeyVault\("
)


# The signature of jwt.io's sample token (HS256 over its "John Doe" payload), in docs and fixtures.
_JWT_IO_SIGNATURE = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"


# Keys a provider publishes by design: Stripe's publishable keys go into every page's script, as do
# Supabase's publishable keys, Langfuse's public keys and Mapbox's public tokens (``pk.eyJ…``; its
# secret ones are ``sk.eyJ…``).
_PUBLISHED = ("pk_live_", "pk_test_", "sb_publishable_", "pk-lf-", "pk.eyJ")


# ... Datadog's browser (RUM) client tokens and Mailgun's public validation keys (``pub`` and 32 hex
# digits, ``pubkey-`` and 32), and a certificate or a public key in base64 (a kubeconfig's
# ``certificate-authority-data``: "-----BEGIN CERTIFICATE-----" encoded). And ciphertext made to be
# committed, which only its controller's key opens: a Sealed Secret's value (base64 of a version
# byte 2 and a session key sealed with RSA, hundreds of characters: ``AgB…``) and Pulumi's
# ``v1:<nonce>:<ciphertext>`` (a ``secure:`` value, a stack's ``encryptionsalt``).
_PUBLISHED_SHAPE = linear(
    r"^(?:pub[0-9a-f]{32}|pubkey-[0-9a-f]{32}|LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t"
    r"|LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0"
    r"|Ag[A-Za-z0-9+/]{150,}={0,2}$|v1:[A-Za-z0-9+/]{8,}={0,2}:)"
)


def published_or_sample(value: str) -> bool:
    """jwt.io's documented sample token (signed with "your-256-bit-secret"), or a key published by
    design: no secret whatever rule reads it."""
    return (
        value.endswith(_JWT_IO_SIGNATURE)
        or value.startswith(_PUBLISHED)
        or _PUBLISHED_SHAPE.match(value) is not None
    )


# A value written to be replaced: "your-api-key-here", "YOUR_TOKEN", "<paste here>", "replace-me",
# "changeme", "fill_me_in": words only (a generated value has digits or mixed case in it).
_FILL_IN = linear(
    r"(?i)^(?:your|my|insert|paste|put|enter)[-_.]?[a-z]+(?:[-_.][a-z]+)*$|^[a-z]+(?:[-_.][a-z]+)*[-_.]here$"
    r"|^(?:change|replace|fill)[-_.]?(?:me|it|this|with)(?:[-_.]?in)?(?:[-_.][a-z]+)*$"
)


_NOT_VALUE_TEXT = (
    "none null nil true false yes no required optional empty unset redacted masked hidden "
    "undefined string str int bool secret password token value example changeit secretstr secretbytes"
    " securestring"
    " nothing string.empty vbnullstring"  # Visual Basic's empty values
    " dummy fake placeholder"  # a fixture's words for a value that is none (``API_KEY=dummy``)
)


_NOT_VALUES = frozenset(_NOT_VALUE_TEXT.split())


# A format's prefix: one to three short words of letters, each ended by ``_`` or ``-`` (``xoxb-``,
# ``sk_live_``, ``github_pat_``).
_FORMAT_HEAD = linear(r"^(?:[A-Za-z]{2,10}[-_]){1,3}")


def filler_token(value: str) -> bool:
    """A format's prefix and then what is written to be replaced (``xoxb-REPLACE-ME``,
    ``xoxb-your-bot-token``, ``sk_live_...redacted...``, ``ghp_<token>``): a template, not a token."""
    head = _FORMAT_HEAD.match(value)
    if head is None:
        return False
    # Each end of the head's words may end the prefix (``xoxb-`` in ``xoxb-REPLACE-ME``).
    ends = [i + 1 for i, c in enumerate(value[: head.end(0)]) if c in "-_"]
    bodies = (value[end:].strip(".\u2026") for end in ends)
    return any(
        body
        and (
            body[0] in "$<{["
            or _PERCENT_TEMPLATE.match(body) is not None  # sk_%s, not a password's iz_%pWd…
            or body.lower() in _FILLER_WORDS
            or _FILL_IN.search(body) is not None
        )
        for body in bodies
    )


# What stands in a template where a token's random part would (``sk_live_...redacted...``); not
# "secret" or "password", which a weak password's words may be (``prod_secret``).
_FILLER_WORDS = frozenset(("redacted", "masked", "hidden", "example", "placeholder", "dummy", "sample"))


def not_placeholder(value: str) -> bool:
    """A check for rules: anything but a placeholder (:func:`is_placeholder`)."""
    return not is_placeholder(value)


_UUID = linear(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")


def uuid_shaped(value: str) -> bool:
    """A UUID as written (``3f2a…-…``): an id, which a name may call a key (an idempotency key)."""
    return _UUID.search(value) is not None


_ENV_NAME = linear(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")


def env_name(value: str) -> bool:
    """An environment variable's name in upper snake case (``DJANGO_SECRET_KEY``): a reference."""
    return _ENV_NAME.search(value) is not None


# An AWS resource name, or what follows its ``arn:`` after a colon: the partition, then the service
# (``arn:aws:secretsmanager:…``, ``aws-cn:iam::…``), or the region and the account's twelve digits
# (``us-east-1:123456789012:secret:prod/db``, what follows ``secretsmanager:``); or a Google Cloud
# Secret Manager secret's name, given to a variable or not (``API_KEY=projects/p/secrets/api-key``).
_RESOURCE_NAME = linear(
    r"^(?:arn:)?aws(?:-[a-z]+)*:[a-z0-9-]+:|^(?:[a-z]{2}(?:-[a-z]+)+-\d)?:\d{12}:"
    r"|^(?:[A-Za-z_][A-Za-z0-9_]*=)?projects/[\w.-]+/secrets/"
    # ... or any resource named as Google's and Coinbase's APIs name them, collections and ids in
    # turn (``organizations/<id>/apiKeys/<id>``, ``projects/p/locations/l/keyRings/k``).
    r"|^(?:[a-z][A-Za-z]{2,}/[\w.@:-]+/)+[a-z][A-Za-z]{2,}/[\w.@:-]+$"
)


def resource_name(value: str) -> bool:
    """A cloud resource's name (an ARN or its tail, a resource path of collections and ids): it names
    a secret where one is kept, and is no value, however mixed its characters."""
    return _RESOURCE_NAME.search(value) is not None


# A key made of names and a content hash (a CI cache's ``node-modules-Linux-<sha256>``, Gradle's
# ``v3-gradle-<sha1>``): words joined by dashes or underscores, then a SHA-1 or SHA-256 in hex.
_CONTENT_KEY = linear(
    r"^(?:[A-Za-z0-9]+[-_.])*[A-Za-z]{3,}[-_.](?:[A-Za-z0-9]+[-_.])*(?:[0-9a-f]{40}|[0-9a-f]{64})$"
)


def content_key(value: str) -> bool:
    """A cache's key: names and a content hash, not a credential (a hash of what is cached)."""
    return _CONTENT_KEY.search(value) is not None


def key_path(value: str) -> bool:
    """A key of a store written as a path (``00f5…:profile``: an id, then a field named by a word),
    not a user and password pair (whose password is no common word after a random user)."""
    head, _, last = value.rpartition(":")
    return bool(head) and last.isalpha() and last.islower() and last in common_words()


# Code, not a value: a call or an index (``jwt.encode(payload``, ``os.getenv(``, ``getpass.getpass()``,
# ``generate_secret()``, ``obj[``; Elixir's and Ruby's ``fetch_env!(``), as a bare value after a
# secret-like name cuts it.
_CALL = linear(
    r"^(?:[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+[!?]?[(\[]|[A-Za-z_$][\w$]*[!?]?(?:\((?:\)|$)|\[))"
)


def code_value(value: str) -> bool:
    """A call or an index written where a value would stand (``jwt.encode(payload``, ``os.getenv(``),
    or a PowerShell cmdlet called for it (``$pwd = ConvertTo-SecureString …``, ``-AccountPassword
    (ConvertTo-SecureString …)``)."""
    return _CALL.search(value) is not None or _CMDLET.match(value.lstrip("(")) is not None


# A PowerShell cmdlet's name: one of its common verbs, a dash, a noun (``ConvertTo-SecureString``,
# ``Get-Secret``); not any two capitalised words joined (``Summer-Breeze`` is a password).
_CMDLET = linear(
    r"^(?:Get|Set|New|Remove|Add|Clear|ConvertTo|ConvertFrom|Read|Write|Import|Export|Invoke|Out|Select"
    r"|Test|Start|Stop|Unprotect|Protect)-[A-Z][A-Za-z]+$"
)


# A path that ends in a file's name with an extension.
_FILE_PATH = linear(r"/[\w.-]*\.[A-Za-z][A-Za-z0-9]{0,7}$")


def file_path(value: str) -> bool:
    """A path that ends in a file's name with an extension (``exports/daily/part-0000.parquet``): what
    ``--key`` or "the key" names in object storage, not a token."""
    return _FILE_PATH.search(value.rstrip(".,:;)")) is not None
