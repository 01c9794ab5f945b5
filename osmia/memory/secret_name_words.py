"""The words of a name that holds a secret: which say it does, which only suggest it, and which
say the name names, counts or points at one instead (:mod:`osmia.memory.secret_names` reads names
with them, and :mod:`osmia.memory.secret_calls` through it).
"""

from __future__ import annotations

# A secret-like name. The keyword may sit anywhere in an identifier (DB_PASSWORD, app.secret.key,
# x-api-token, clientSecret), which is what a word boundary before the keyword used to miss.
IDENT = r"[A-Za-z0-9_.-]*"
STRONG = (
    r"(?:passw(?:or)?d|passphrase|pwd|secret|token|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key"
    r"|client[_.-]?key|credentials?|creds|auth[_.-]?key|signing[_.-]?key|encryption[_.-]?key"
    r"|master[_.-]?key|account[_.-]?key|service[_.-]?key|webhook[_.-]?url|dsn|[_.-]pass|_pw\b"
    # ... an application's key (Laravel's and Datadog's ``APP_KEY``), an LDAP client's bind secret
    # (SSSD's ``ldap_default_authtok``)
    r"|app[_.-]?key|authtok)"
)
WEAK = (
    r"(?:key|auth|session|cookie|salt|pepper|seed|sig|signature|hmac|cert|license|pass|jwt|bearer"
    r"|access[_.-]?code|plaintext)"
)
# What a name must not end with to be a secret itself: it names, counts or points at one.
NAME_ONLY = (
    "name",
    "names",
    "ref",
    "refs",
    "file",
    "path",
    "dir",
    "url",
    "uri",
    "type",
    "id",
    "ids",
    "count",
    "usage",
    "length",
    "len",
    "limit",
    "limits",
    "size",
    "ttl",
    "template",
    "templates",
    "expiry",
    "expires",
    "header",
    "env",
    "field",
    "format",
    "policy",
    "mode",
    "provider",
    "store",
    "version",
    "endpoint",
    "rotation",
    "hint",
    "prefix",
    "enabled",
    "required",
    "max",
    "min",
    "budget",
    "total",
    "kind",
    "tokenizer",
    "tokenize",
    "tokenized",
    "tokenization",
    "existingsecret",  # a Helm chart's name of a Kubernetes Secret (``auth.existingSecret: pg-auth``)
    "variable",  # the name of a variable that will hold it (Jenkins' ``passwordVariable: 'NEXUS_PASS'``)
    # Where a secret is used or kept, not what it is (``AUTH0_DOMAIN``, ``AUTH_ISSUER``), and a
    # secret encrypted (``webhook_secret_enc``, a KMS ``ciphertext``).
    "domain",
    "host",
    "hostname",
    "issuer",
    "audience",
    "realm",
    "region",
    "enc",
    "encrypted",
    "ciphertext",
    # A service that keeps secrets, named in an ARN (``arn:aws:secretsmanager:…:secret:prod/db``).
    "secretsmanager",
    "secretmanager",
    # An error's or exception's class (``NoCredentialsError: Unable to locate credentials``): its
    # message follows, not a value.
    "error",
    "errors",
    "exception",
    # A page's cursor and a push device's id (``nextPageToken``, ``didRegister…WithDeviceToken``):
    # identifiers a token's noun names, not credentials.
    "pagetoken",
    "page_token",
    "continuationtoken",
    "continuation_token",
    "devicetoken",
    "device_token",
    # A key's fingerprint (``key_fingerprint=sha256:…``), .NET's public key token (a hash of an
    # assembly's public key: ``publicKeyToken="30ad4fe6b2a6aeed"``), and a flag that reads the secret
    # from standard input (``docker login --password-stdin <registry>``: what follows is no value).
    "fingerprint",
    "fingerprints",
    "publickeytoken",
    "stdin",
    # A digest of a key (``key_sha256=…``), the public site key of a CAPTCHA (``data-sitekey``), a
    # consent cookie's name, a signed entry's timestamp (cosign's ``SignedEntryTimestamp``).
    "sha1",
    "sha256",
    "sha512",
    "md5",
    "digest",
    "sitekey",
    "site_key",
    "consent",
    "timestamp",
)
