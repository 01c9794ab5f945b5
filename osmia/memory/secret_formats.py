"""The secret formats scanners know, as RE2 rules: key blocks, provider tokens, URL and header credentials.

Each :class:`~osmia.memory.secret_rule.Rule` names a format, its pattern, the group that is the
secret (0: the whole match) and an optional check that may veto a candidate
(:mod:`osmia.memory.secret_values`). The provider tokens (a prefix of their own: ``ghp_``,
``AKIA``, ``sk-ant-``) are :mod:`osmia.memory.secret_providers`, the secrets told in prose and
after labels :mod:`osmia.memory.secret_prose`, the command lines and code
:mod:`osmia.memory.secret_commands`, the files :mod:`osmia.memory.secret_configs`; here are the
rest, and the order redaction applies them in: key blocks, then provider tokens, then credentials
in web forms and URLs (with the keys in fragments and HTTPie's: :mod:`osmia.memory.secret_web`),
prose, command lines and files.
"""

from __future__ import annotations

from osmia.memory.english import holds_common_word
from osmia.memory.linear import linear
from osmia.memory.secret_commands import COMMAND_RULES
from osmia.memory.secret_configs import CONFIG_RULES
from osmia.memory.secret_pins import PIN_RULES
from osmia.memory.secret_placeholders import env_name, not_placeholder
from osmia.memory.secret_prose import PROSE_RULES
from osmia.memory.secret_providers import PROVIDER_RULES
from osmia.memory.secret_rule import Rule
from osmia.memory.secret_rule import rule as _rule
from osmia.memory.secret_values import (
    basic_credentials,
    generated_value,
    long_hex,
    looks_random,
    number_like,
    password_value,
    random_value,
    url_password,
)
from osmia.memory.secret_wallets import WALLET_RULES
from osmia.memory.secret_web import WEB_RULES

# ... and OpenVPN's static key (``tls-auth``/``tls-crypt``), a shared secret in hex lines.
_BLOCK_KEY = r"(?:[A-Z0-9 ]*PRIVATE[ \t]+KEY(?:[ \t]+BLOCK)?|OpenVPN[ \t]+Static[ \t]+key[ \t]+V1)"

# How a DN's parts begin (``cn=``, ``ou=``, ``dc=``): a second DN or a search base, not a password.
_DN_PARTS = ("cn=", "uid=", "ou=", "dc=", "o=", "l=", "c=", "st=", "(")

# An authorization header's scheme words of eight letters or more: the value is after them (a second
# pass over ``Authorization: GenieKey [redacted]`` would take the scheme for it).
_AUTH_SCHEMES = frozenset(("negotiate", "geniekey"))


def _random_groups(value: str) -> bool:
    """Groups of random letters and digits: both cases and a digit in all, no group a word."""
    groups = value.split()
    upper, lower, digit = (any(test(c) for c in value) for test in (str.isupper, str.islower, str.isdigit))
    return upper and lower and digit and not any(holds_common_word(g) for g in groups)


def _random_letter_groups(value: str) -> bool:
    """Groups of random letters: none of them a common word, one at least without a vowel."""
    groups = value.split("-")
    return not any(holds_common_word(g) for g in groups) and any(not set(g) & set("aeiouy") for g in groups)


RULES: tuple[Rule, ...] = (
    # Private keys (PEM, OpenSSH, PGP, PKCS#8, encrypted): the whole block, across lines; an
    # unterminated block is redacted to the end of the text.
    # The dashes may be set apart by spaces (``----- BEGIN RSA PRIVATE KEY -----``). A block starts
    # its body (base64, or an encrypted key's headers) or ends right after its header: a header
    # named in prose ("accepts '-----BEGIN PRIVATE KEY-----' and …") took the rest of the text. Its
    # lines may be quoted (``> ``) or commented out (``# ``, ``// ``, `` * ``).
    _rule(
        "private-key",
        rf"(?is)-{{3,}}[ \t]*BEGIN[ \t]+{_BLOCK_KEY}[ \t]*-{{3,}}(?:\s|\\[nr]|[>#*]|//)*"
        rf"(?:-{{3,}}[ \t]*END[ \t]+{_BLOCK_KEY}[ \t]*-{{3,}}"
        r"|(?:[A-Za-z0-9+/=]{8}|Proc-Type:|DEK-Info:|Comment:|Version:)"
        rf".*?(?:-{{3,}}[ \t]*END[ \t]+{_BLOCK_KEY}[ \t]*-{{3,}}|$))",
    ),
    # ... or left out, the header followed by the base64 body.
    _rule(
        "private-key-bare",
        r"(?i)\bBEGIN[ \t]+(?:[A-Z0-9]+[ \t]+)*PRIVATE[ \t]+KEY(?:[ \t]+BLOCK)?[ \t:]*\s+"
        r"[A-Za-z0-9+/=]{40,}(?:\s+[A-Za-z0-9+/=]{16,})*",
    ),
    # ... or its body without the header, ending with the footer: every base64 line before it.
    _rule(
        "private-key-tail",
        r"(?m)(?:^[ \t]*[A-Za-z0-9+/=]{4,}[ \t]*\r?\n)+"
        rf"[ \t]*-{{3,}}[ \t]*END[ \t]+{_BLOCK_KEY}[ \t]*-{{3,}}",
    ),
    # A PuTTY key file: what follows ``Private-Lines: N`` (the private key, and the MAC that checks
    # it); its header, comment and public lines stay. With no ``Private-Lines``, all after the header.
    _rule(
        "putty-key",
        r"(?s)PuTTY-User-Key-File-\d+:(?:.*?Private-Lines:[ \t]*\d+[ \t]*,?[ \t]*(?:\r?\n)?)?"
        r"(.+?(?:Private-MAC:[ \t]*[0-9a-fA-F]+|$))",
        1,
        not_placeholder,  # not again what a marker starts (redaction is idempotent)
    ),
    _rule("age-key", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58,}"),
    # A secret's id where the id is the credential (Vault's AppRole ``secret_id=…``, Consul's
    # ``SecretID: …``): a generated value (AWS's ``--secret-id prod/api/stripe`` names a secret).
    _rule(
        "secret-id",
        r"(?i)\bsecret[_-]?id[\"']?[ \t]*[:=][ \t]*[\"']?([A-Za-z0-9-]{20,})",
        1,
        generated_value,
        gate=r"(?i)secret[_-]?id",
    ),
    # A 32-byte private key in base64 called private in prose or a config (WireGuard's and other
    # X25519 keys: 43 characters, the last of a few, then ``=``): "private Je…M= / public Yj…E=".
    _rule(
        "x25519-private",
        r"(?i)\bprivate(?:[ _-]?key)?[ \t]*[:=]?[ \t]*[\"'`]?((?-i:[A-Za-z0-9+/]{42}[AEIMQUYcgkosw048]=))",
        1,
        gate=r"(?i)\bprivate",
    ),
    *PROVIDER_RULES,
    *WALLET_RULES,
    *PIN_RULES,
    # Web credentials: JWTs, HTTP auth headers and bearer tokens, credentials in URLs.
    _rule("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*", 0, not_placeholder),
    # ... with a scheme no list names ("Authorization: OAuth …", "Splunk …", "GenieKey …"): the
    # generated value after it (read first: the rule below would take the scheme for the value).
    _rule(
        "authorization-scheme",
        r"(?i)\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?[A-Za-z][A-Za-z0-9-]{1,30}[ \t]+"
        r"([A-Za-z0-9._~+/=:-]{16,})",
        1,
        generated_value,
    ),
    _rule(
        "authorization-header",
        # (after a word's boundary, or a newline escaped in a logged request: ``…\r\nAuthorization: …``)
        r"(?i)(?:\b|\\n)(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:(?:basic|bearer|token|digest|negotiate|apikey|"
        r"sso-key|key|geniekey)[ \t]+)?([A-Za-z0-9._~+/=:-]{8,})",
        1,
        lambda value: not_placeholder(value) and value.lower() not in _AUTH_SCHEMES,
    ),
    _rule(
        "api-key-header",
        r"(?i)\bx-(?:api|auth|access)-(?:key|token)[\"']?\s*:\s*[\"']?([A-Za-z0-9._~+/=-]{12,})",
        1,
    ),
    _rule("bearer", r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)", 1, lambda value: not env_name(value)),
    _rule("basic-auth", r"(?i)\bbasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})", 1, basic_credentials),
    # scheme://user:password@host — the password may hold '/', the user may be empty; and '@' (the
    # last one before the host ends it, as clients read it: ``p@ss@host``, and ``p%40ss@host`` once
    # its escape is read; after an '@', a '/' or a '#' too, in a piece with no dot: ``Qz%40r7%2Fpl@host``
    # and ``j%40xO%23Nt@host`` read, not a host and its path, ``p@host.io/a@b``).
    _rule(
        "url-password",
        r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@?#]*:([^\s@]+(?:@[^\s@/?#]+|@[^\s@?.]+)*)@[A-Za-z0-9\[]",
        1,
        url_password,
    ),
    # scheme://TOKEN@host: a user name that is a random token is a credential too.
    _rule(
        "url-token", r"(?i)\b[a-z][a-z0-9+.-]{1,20}://([^\s:/@?#]{16,})@[A-Za-z0-9\[]", 1, random_value(16)
    ),
    # Go's MySQL driver's DSN: ``user:password@tcp(host:port)/db`` (no scheme).
    _rule(
        "dsn-password",
        r"(?i)(?:^|[\s\"'=`(])[\w.-]+:([^\s@:/\"'`]{3,})@(?:tcp6?|udp|unix)\(",
        1,
        not_placeholder,
    ),
    # ... also when a password follows it (``https://<40 hex>:x-oauth-basic@github.com``).
    _rule(
        "url-token-user",
        r"(?i)\b[a-z][a-z0-9+.-]{1,20}://([^\s:/@?#]{16,}):[^\s@]*@[A-Za-z0-9\[]",
        1,
        random_value(16),
    ),
    # ``user:password`` quoted whole after curl's ``-u`` and the like: the password runs to the closing
    # quote (before the rule below, which stops at a blank), as an application password in groups
    # holds blanks (WordPress's and Google's: ``-u 'api-bot:p7Fn rdg7 zDSN a4po'``).
    _rule(
        "curl-user-quoted-whole",
        r"(?:^|\s)(?:-u|--user|-auth|--auth|--basic-auth)(?:[ \t]+|=)'[^\s:'=@]+:"
        r"([^'\r\n]*[ \t][^'\r\n]*)'",
        1,
        not_placeholder,
    ),
    _rule(
        "curl-user-double-quoted-whole",
        r"(?:^|\s)(?:-u|--user|-auth|--auth|--basic-auth)(?:[ \t]+|=)\"[^\s:\"=@]+:"
        r"([^\"\r\n]*[ \t][^\"\r\n]*)\"",
        1,
        not_placeholder,
    ),
    # A password given with no user (``curl --user :…``: Infura's project secret, a Basic auth
    # whose user is empty).
    _rule(
        "curl-user-empty",
        r"(?:^|\s)(?:-u|--user)(?:[ \t]+|=)[\"']?:([^\s\"']{6,})",
        1,
        not_placeholder,
        r"(?:-u|--user)(?:[ \t]+|=)[\"']?:",
    ),
    # A value piped to base64 to be pasted into a manifest (``echo -n '…' | base64``, ``printf
    # '%s' '…' | base64``): a secret's encoding is made so; a password's or a generated value's
    # shape is one (a user's name, a URL or JSON are not). Quoted either way, or bare.
    *(
        _rule(
            f"echo-to-base64-{kind}",
            r"\b(?:echo(?:[ \t]+-[neE]{1,3})*|printf(?:[ \t]+[\"']%s[\"'])?)[ \t]+"
            + value
            + r"[ \t]*\|[ \t]*(?:base64|openssl[ \t]+(?:base64|enc[ \t]+-base64))"
            + r"(?:[ \t]*$|[ \t]*[|;)&>]|[ \t]+-w)",
            1,
            lambda value: "://" not in value and (password_value(value) or generated_value(value)),
            r"\|[ \t]*(?:base64|openssl[ \t]+(?:base64|enc[ \t]+-base64))",
        )
        for kind, value in (
            ("single", r"'([^'\r\n]{6,200})'"),
            ("double", r"\"([^\"\r\n$`]{6,200})\""),
            ("bare", r"([^\s'\"|;&$`]{6,200})"),
        )
    ),
    # A literal made a secure string (C#'s and PowerShell helpers' ``ToSecureString("…")``,
    # ``MakeSecureString("…")``): a password by what is done with it.
    _rule(
        "secure-string-literal",
        r"\b\w*SecureString[ \t]*\([ \t]*[@$]?\"([^\"\r\n]{4,})\"",
        1,
        not_placeholder,
        r"SecureString[ \t]*\([ \t]*[@$]?\"",
    ),
    # An HMAC's key as the first literal of a function named for one (Fastly's
    # ``digest.hmac_sha256_base64("…", …)``, a helper's ``hmac_sha1('…', msg)``).
    _rule(
        "hmac-function-key",
        r"(?i)\b(?:digest\.)?hmac_[a-z0-9_]+[ \t]*\([ \t]*[\"']([^\"'\r\n]{8,})[\"']",
        1,
        lambda value: not_placeholder(value) and (generated_value(value) or password_value(value)),
        r"(?i)hmac_[a-z0-9_]+[ \t]*\([ \t]*[\"']",
    ),
    # An application password as WordPress writes one: six groups of four letters and digits
    # (``06Wk XJm5 dg0l nOiX bYaM MiAU``), with both cases and a digit, no group a word.
    _rule(
        "application-password-groups",
        r"\b[A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5}\b",
        0,
        _random_groups,
        r"\b[A-Za-z0-9]{4} [A-Za-z0-9]{4} [A-Za-z0-9]{4} [A-Za-z0-9]{4}",
    ),
    # An app-specific password as Apple writes one (``hzmh-ezic-qmet-lxir``: four groups of four
    # random lower-case letters): no group a word, and one at least with no vowel, which a
    # slug's words in any language have.
    _rule("app-specific-password", r"\b[a-z]{4}-[a-z]{4}-[a-z]{4}-[a-z]{4}\b", 0, _random_letter_groups),
    # ``user:password`` after curl's and wget's ``-u``/``--user``, Jenkins CLI's ``-auth``, ``--basic-auth``
    # (not a URL given as the user: ``az login -u http://app``).
    _rule(
        "curl-user",
        r"(?:^|\s)(?:-u|--user|-auth|--auth|--basic-auth)(?:[ \t]+|=)(?:[\"'][^\s:\"'=]+|[^\s:\"'=@]+):"
        r"([^\s\"'/][^\s\"']{2,}|/[^\s\"'/][^\s\"']+)",
        1,
        not_placeholder,
    ),
    # ... and an API key given as the user, with no password or a dummy one (``-u <key>:``, Freshdesk's
    # ``-u <key>:X``, Mixpanel's and Lob's secrets): a generated value or hex of 32 digits or more.
    _rule(
        "curl-key-user",
        r"(?:^|\s)(?:-u|--user)(?:[ \t]+|=)[\"']?([A-Za-z0-9_.-]{16,}):(?:[Xx]|[\"']|\s|$)",
        1,
        lambda value: not_placeholder(value) and (generated_value(value) or long_hex(value)),
    ),
    # ... and a quoted password after the user's colon (``-u amir:'x#Sl6*ke…'``, as a shell quotes one
    # that holds its signs).
    _rule(
        "curl-user-quoted",
        r"(?:^|\s)(?:-u|--user|-auth|--auth|--basic-auth)(?:[ \t]+|=)[^\s:\"'=@]+:"
        r"[\"']([^\"'\r\n]{3,})[\"']",
        1,
        not_placeholder,
        r"(?:-u|--user|-auth|--auth|--basic-auth)(?:[ \t]+|=)[^\s:\"'=@]+:[\"']",
    ),
    # Oracle's ``user/password@database`` (JDBC's thin and OCI URLs, ``sqlplus``, ``rman``, ``expdp``).
    _rule(
        "oracle-login",
        r"(?i)(?:\bjdbc:oracle:(?:thin|oci8?):|\b(?:sqlplus|rman|expdp|impdp|sqlldr|exp|imp)[ \t]+"
        r"(?:-[a-z]+[ \t]+)*(?:(?:target|userid)=)?)[\"']?[\w$#.-]+/([^\s@\"'/]{3,})@",
        1,
        not_placeholder,
    ),
    # .netrc: machine HOST login USER password SECRET
    _rule("netrc", r"(?i)\blogin[ \t]+\S+[ \t]+password[ \t]+(\S+)", 1, not_placeholder),
    # A Docker config, base64: {"auths": ... } in a Kubernetes Secret or a CI variable.
    _rule("docker-config", r"(?i)\.?dockerconfigjson[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9+/=]{20,})", 1),
    *WEB_RULES,
    *PROSE_RULES,
    *COMMAND_RULES,
    *CONFIG_RULES,
    # A name that says secret, then its value on the next line (YAML: ``token:`` then an indented
    # value, or a block scalar ``secret: |``).
    _rule(
        "yaml-next-line",
        r"(?im)^[ \t]*-?[ \t]*[\w.-]*"
        r"(?:password|passwd|secret|token|api[_-]?key|private[_-]?key|credentials?)[\w.-]*"
        r"[ \t]*:[ \t]*(?:[|>][-+]?)?[ \t]*\r?\n[ \t]+([^\s#][^\s]{7,})",
        1,
        lambda value: (
            not value.endswith(":")  # the next key of a mapping (``secretKeys:`` then ``adminPasswordKey:``)
            and not_placeholder(value)
            and (generated_value(value) or password_value(value))
        ),
    ),
    # A Terraform variable whose name says secret, with a default (``variable "db_password" {
    # default = "…" }``, on one line or several).
    _rule(
        "terraform-variable-default",
        r"(?i)\bvariable[ \t]+\"[\w-]*(?:password|passwd|secret|token|api_?key|private_?key)[\w-]*\"[ \t]*\{"
        r"[^}]*?\bdefault[ \t]*=[ \t]*\"([^\"\r\n]{4,})\"",
        1,
        not_placeholder,
    ),
    # A generated password in Terraform's state: the ``result`` of a ``random_password`` (or
    # ``random_string``) resource, a dozen lines after its type at most.
    _rule(
        "terraform-random-result",
        r"random_(?:password|string)\b[^\r\n]*(?:\r?\n[^\r\n]*){0,12}?\"result\"[ \t]*:[ \t]*"
        r"\"((?:[^\"\\\r\n]|\\.){8,})\"",
        1,
        not_placeholder,
        r"random_(?:password|string)\b",
    ),
    # A file of one secret added in a diff (``+++ b/config/master.key``, ``…/.vault_pass``,
    # ``…/api_token.txt``), its added line: a random value or hex of 32 digits or more.
    _rule(
        "diff-secret-file",
        r"(?i)\+\+\+[ \t]+b/[^\s]*?(?:master\.key|[^\s/]*(?:pass(?:word)?|secret|token|credential)[^\s/]*)"
        r"[ \t]*\r?\n(?:@@[^\r\n]*\r?\n)?\+([^\s+][^\s]{15,})",
        1,
        lambda value: not_placeholder(value) and (looks_random(value, 16) or long_hex(value)),
        r"\+\+\+[ \t]+b/",
    ),
    # A value Spring Boot's Actuator shows for one property (``/actuator/env/spring.datasource.password``
    # prints ``{"property": {"source": "…", "value": "…"}}``): a password-like or generated value.
    _rule(
        "actuator-env-value",
        r"\"property\"\s*:\s*\{\s*\"source\"\s*:\s*\"[^\"\r\n]*\"\s*,\s*\"value\"\s*:\s*\"([^\"\r\n]{6,})\"",
        1,
        lambda value: not_placeholder(value) and (password_value(value) or generated_value(value)),
        r"\"property\"\s*:\s*\{\s*\"source\"",
    ),
    # Keycloak's credentials and client secrets, named by their type (``{"type": "password", "value":
    # "…"}``, ``kcadm.sh get clients/…/client-secret``).
    _rule(
        "typed-credential",
        r"(?i)\"type\"[ \t]*:[ \t]*\"(?:password|secret|client-secret|totp|otp)\"[ \t]*,\s*"
        r"\"value\"[ \t]*:[ \t]*\"([^\"\r\n]{4,})\"",
        1,
        not_placeholder,
        r"(?i)\"type\"[ \t]*:[ \t]*\"(?:password|secret|client-secret|totp|otp)\"",
    ),
    # A .pgpass line: host:port:database:user:password (a host of ``*`` at a line's start too: no
    # word boundary before it; a name of three characters or more: a MAC address's pairs are none; or
    # an IPv4 address).
    _rule(
        "pgpass",
        r"(?:\b[A-Za-z][\w.*-]{2,}|\b(?:\d{1,3}\.){3}\d{1,3}|(?m:^)[ \t]*\*|\B\*)"
        r":(?:\d{2,5}|\*):[\w.*-]+:[\w.*-]+:([^\s:]{3,})",
        1,
        # (not a version: a URN's fields, ``…:2017:poacc:billing:3.0::2.1``, read as such a line)
        lambda value: not_placeholder(value) and not number_like(value),
    ),
    # Short password flags of the CLIs that take one: mysql -pS3cret (no space), sshpass -p and the
    # registry logins' -p, redis-cli -a. Elsewhere -p is a port, a path or a profile.
    _rule(
        "mysql-password",
        r"\b(?i:mysql|mysqldump|mysqladmin|mysqlimport|mariadb|mariadb-dump)\b[^\n|;&]{0,120}?[ \t]"
        r"-p[\"']?([^\s\"']{3,})",
        1,
        not_placeholder,
    ),
    _rule(
        "login-password",
        r"\b(?i:sshpass|(?:docker|podman|buildah|skopeo|nerdctl|oras)[ \t]+login"
        r"|helm[ \t]+registry[ \t]+login)\b[^\n|;&]{0,120}?[ \t](?:-p|--password)(?:[ \t]+|=)"
        r"[\"']?([^\s\"']{3,})",
        1,
        not_placeholder,
    ),
    _rule(
        "redis-password",
        r"\b(?i:redis-cli)\b[^\n|;&]{0,120}?[ \t]-a[ \t]+[\"']?([^\s\"']{3,})",
        1,
        not_placeholder,
    ),
    # SQL's ``IDENTIFIED BY 'secret'`` (MySQL, Oracle): a user's password in a statement.
    _rule(
        "sql-identified-by",
        r"(?i)\bidentified[ \t]+(?:with[ \t]+\S+[ \t]+)?by[ \t]+(?:password[ \t]+)?"
        r"[\"'`]([^\"'`\r\n]{3,})[\"'`]",
        1,
        not_placeholder,
    ),
    # Java's keytool and jarsigner (-storepass, -keypass, -srcstorepass …; ``-storepass:env VAR``
    # names a variable) and ssh-keygen's passphrases (-N new, -P old).
    _rule(
        "keystore-password",
        r"(?i)(?:^|[ \t])-(?:src|dest|new)?(?:store|key)pass[ \t]+[\"']?([^\s\"']{3,})",
        1,
        not_placeholder,
    ),
    _rule(
        "ssh-keygen-passphrase",
        r"\bssh-keygen\b[^\n|;&]{0,120}?[ \t]-[NP][ \t]+[\"']([^\"'\r\n]{3,})[\"']",
        1,
        not_placeholder,
    ),
    # ... and the second of the two on one command line (``-P '…' -N '…'``: the rule above took the
    # first; what it left is a marker).
    _rule(
        "ssh-keygen-passphrase-second",
        r"\bssh-keygen\b[^\n|;&]{0,120}?[ \t]-[NP][ \t]+[\"'][^\"'\r\n]{3,}[\"']"
        r"[^\n|;&]{0,60}?[ \t]-[NP][ \t]+[\"']([^\"'\r\n]{3,})[\"']",
        1,
        not_placeholder,
        r"ssh-keygen\b",
    ),
    _rule(
        "ssh-keygen-passphrase-bare",
        r"\bssh-keygen\b[^\n|;&]{0,120}?[ \t]-[NP][ \t]+([^\s\"'-]\S{2,})",
        1,
        not_placeholder,
    ),
    # A JSON Web Key's private members (``"d"``; RSA's ``"p"``, ``"q"``, ``"dp"``, ``"dq"``, ``"qi"``; a
    # symmetric key's ``"k"``): base64url; the public ones (``"n"``, ``"e"``, ``"x"``, ``"y"``) stay.
    _rule(
        "jwk-private",
        r"[\"'](?:d|p|q|dp|dq|qi|k)[\"'][ \t]*:[ \t]*[\"']([A-Za-z0-9_-]{20,})[\"']",
        1,
        generated_value,
        r"[\"'](?:d|p|q|dp|dq|qi|k)[\"'][ \t]*:",
    ),
    # FileZilla's site manager keeps a password in ``<Pass>`` (in base64 since 3.26: the password,
    # encoded); a weak name elsewhere.
    _rule("filezilla-pass", r"<Pass\b[^>\r\n]*>([^<\r\n]{4,})</Pass>", 1, not_placeholder, r"<Pass\b"),
    # A property named with a dotted path holding a secret's part, and its value after blanks, as
    # Spark's and Hadoop's defaults files write one (``spark.hadoop.fs.azure.account.key.<account>
    # .dfs.core.windows.net <key>``): a generated value ending the line.
    _rule(
        "dotted-property",
        r"(?im)^[ \t]*[\w-]+(?:\.[\w-]+)*\.(?:key|secret|password|passwd|token|credentials?|psk)(?:\.[\w-]+)*"
        r"(?:[ \t]+|[ \t]*=[ \t]*)([A-Za-z0-9+/=_~-]{16,})[ \t]*$",
        1,
        generated_value,
        r"(?i)\.(?:key|secret|password|passwd|token|credentials?|psk)\b[\w.-]*(?:[ \t]+|[ \t]*=)",
    ),
    # A DN given as a directory's user, then a literal: its password (ldap3's ``Connection(server,
    # 'cn=…', '…')``, python-ldap's ``simple_bind_s('cn=…', '…')``).
    _rule(
        "dn-password",
        r"(?i)[\"'](?:cn|uid)=[^\"'\r\n]{1,200}[\"'][ \t]*,[ \t]*[\"']([^\"'\r\n]{4,})[\"']",
        1,
        lambda value: not_placeholder(value) and not value.lower().startswith(_DN_PARTS),
        r"(?i)[\"'](?:cn|uid)=",
    ),
    # Password hashes (htpasswd, /etc/shadow, bcrypt): offline cracking material; Cisco's types 8
    # and 9 (PBKDF2, scrypt) and Junos' ``$9$`` (a reversible encoding of the secret itself).
    _rule("password-hash", r"\$(?:apr1|2[abxy]|1|5|6|8|9|y|argon2(?:id|i|d))\$[./A-Za-z0-9$=,+]{16,}"),
    # ... and a password stored after its scheme's name in braces, wherever it stands (an LDIF's
    # ``userPassword: {SSHA}…``, a Dovecot passwd-file's ``user:{PLAIN}…:5000:…``, Spring Security's
    # ``{noop}…``, SAS's ``{SAS002}…``): a hash, or the password in clear or in an encoding anyone
    # reverses. Spring Cloud Config's ``{cipher}`` is none of these names.
    _rule(
        "password-scheme",
        r"\{(?i:plain|clear(?:text)?|s?sha(?:1|256|384|512)?|s?md5|crypt|(?:md5|sha256|sha512|blf|des)-crypt"
        r"|argon2id?|x?-?pbkdf2(?:-sha\d+)?|noop|bcrypt|scrypt|sas00[1-5]|ntlm|lanman|md4)\}"
        r"([^\s:{}$<>\"'`,;]{4,})",
        1,
        not_placeholder,
    ),
    # Cisco's type 7 (``password 7 0822455D0A16``, ``key 7 …``): a fixed XOR, read back by anyone.
    # Two decimal digits (the offset into the XOR's table), then hex pairs.
    _rule(
        "cisco-type-7",
        r"(?i)\b(?:password|key|secret|key-string|authentication-key)[ \t]+7[ \t]+([0-9]{2}[0-9A-F]{6,})\b",
        1,
        lambda value: len(value) % 2 == 0,
        r"(?i)(?:password|key|secret|key-string|authentication-key)[ \t]+7[ \t]+[0-9]{2}",
    ),
)

# Formats whose prefix no word ends in, and that a run may write onto a word: a Go subtest
# ("TestAuth/valid_token_ghp_…"), a test named after a key ("TestCharge_sk_live_…"), a key id
# with a suffix ("AKIA…_backup"), colour codes left around it ("[31mghp_…"). A word boundary
# before the prefix (or after a fixed-length token) missed each of these. Not Mailgun's ``key-``:
# words end in it (Mailgun's own public ``pubkey-…``, "apikey", "hotkey").
GLUED = frozenset(
    {
        "age-key", "github", "github-fine-grained", "gitlab", "gitlab-runner", "bitbucket", "atlassian",
        "npm", "pypi", "docker-hub", "hugging-face", "rubygems", "vault", "sonarqube", "doppler",
        "pulumi", "aws-access-key", "gcp-api-key", "gcp-oauth", "digitalocean", "alibaba", "anthropic",
        "groq", "replicate", "stripe", "stripe-webhook", "shopify", "slack-token", "slack-app-token",
        "twilio", "sendgrid", "postman", "grafana", "sentry", "new-relic", "linear",
        "planetscale", "figma", "nuget", "databricks", "jwt",
    }
)  # fmt: skip


def _generated(value: str) -> bool:
    """A token found inside a word must also look generated: a digit, and random
    (:func:`~osmia.memory.secret_values.looks_random`), so a snake-case name that happens to hold
    a prefix (``risk_test_configurationLoaded``) is not taken for one."""
    return any(c.isdigit() for c in value) and looks_random(value, 16) and not_placeholder(value)


def unbounded(pattern: str) -> str:
    """A format's pattern without its word boundaries."""
    return pattern.removeprefix("\\b").removesuffix("\\b")


# One rule for all of them (one pattern more for redaction's scan, not forty): the token may
# follow a letter, digit or ``_`` and be followed by ``_``. Every format named above is a
# whole-match rule with no check of its own but :func:`not_placeholder`, which :func:`_generated`
# applies too (tests hold it so): AWS's documented ``AKIAIOSFODNN7EXAMPLE`` is no key.
GLUED_RULE = Rule(
    "glued-token",
    linear(
        "("
        + "|".join(f"(?:{unbounded(r.pattern.pattern)})" for r in RULES if r.name in GLUED)
        + ")(?:[^A-Za-z0-9]|$)"
    ),
    1,
    _generated,
)
