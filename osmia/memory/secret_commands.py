"""Secrets given to commands and code: CLI flags and standard input, secret stores' commands,
session cookies, setters and login calls, Markdown labels and first-run banners.

Part of :data:`osmia.memory.secret_formats.RULES`, spliced in at its place (the order of the rules
is the order redaction applies them); split from it when it grew past 450 lines. Each rule reads a
value only where its command, call or label says what it is, and checks the value's shape.
"""

from __future__ import annotations

import base64
import binascii

from osmia.memory.english import common_words
from osmia.memory.linear import linear
from osmia.memory.secret_decoding import HEX_DIGITS, decoded_text
from osmia.memory.secret_placeholders import not_placeholder, resource_name, uuid_shaped
from osmia.memory.secret_rule import KEY_NOUNS, Rule
from osmia.memory.secret_rule import rule as _rule
from osmia.memory.secret_values import (
    SSH_KEY_TYPES,
    flag_token,
    generated_value,
    long_hex,
    looks_random,
    number_like,
    password_value,
    plain_words,
)


def _stdin_value(value: str) -> bool:
    """A value written to a command that reads a secret, unless it is base64 of a JSON document
    (``echo 'eyJ2ZXJzaW9uIjox…' | base64 -d``: a config, not a Secret's value); the step for
    encoded runs judges that by its decoding, as it does every long base64 run."""
    if not not_placeholder(value):
        return False
    if _prose(_decoded_short(value)):
        return False  # ``echo aGVsbG8gd29ybGQ= | base64 -d``: "hello world", a decoder's check
    text = decoded_text(value) if len(value) >= 32 else None
    return text is None or not text.lstrip().startswith(("{", "["))


def _decoded_short(value: str) -> str:
    """What ``value`` decodes to as hex or base64, when that is ASCII text; else ""."""
    try:
        raw = bytes.fromhex(value) if set(value) <= HEX_DIGITS else base64.b64decode(value, validate=True)
        return raw.decode("ascii")
    except (ValueError, binascii.Error, UnicodeDecodeError):
        return ""


def _prose(text: str) -> bool:
    """Two words or more of letters, three in four of them English's common words: a sentence, not
    a secret (a passphrase of common words reads so too: decoded at a shell, it is taken for text)."""
    words = [word.strip(".,!?;:'\"") for word in text.split()]
    if len(words) < 2 or not all(word.isalpha() for word in words):
        return False
    return 4 * sum(word.lower() in common_words() for word in words) >= 3 * len(words)


__all__ = ["COMMAND_RULES"]

# What a sentence about a password may end with and no password is: a URL or its port and path, code
# (a type, a call, an index, a pattern), a placeholder.
# Not a value after a colon: a URL or its rest after the scheme's colon (``https: //host/…``), a
# port and a path, code (or a resource's name: ``resource_name``), a command's flag or an assignment
# on the next line ("no client secret involved:" then ``ARM_USE_OIDC=true``).
_NOT_BANNERED = linear(r"://|^//|^\d{1,5}/|[\[\](){}\\]|^--?[A-Za-z]|^[A-Za-z_][A-Za-z0-9_]*=")


def _banner_value(value: str) -> bool:
    """A generated or password-like value after a sentence that ends in a colon (not code or a URL)."""
    if not not_placeholder(value) or _NOT_BANNERED.search(value) is not None or resource_name(value):
        return False
    return generated_value(value) or password_value(value)


def _not_words(value: str) -> bool:
    """A literal a secret's call or command is given that may be the secret: no placeholder, and not
    plain words (``auth("admin")``, ``"AUTH" "default" "hello-world"``)."""
    return not_placeholder(value) and not plain_words(value)


def _secret_like(value: str) -> bool:
    """A value given on a command line that may be a secret: six characters or more, and no word,
    number or placeholder (``policies=default``, ``ttl=3600`` are settings)."""
    return len(value) >= 6 and not_placeholder(value) and not number_like(value) and not plain_words(value)


# Commands that read a secret from their standard input.
_READS_A_SECRET = (
    r"(?:--password-stdin|--with-token\b|--token-stdin|\bkeyring[ \t]+set\b|\bpasswd[ \t]+--stdin"
    r"|\bchpasswd\b|\bsudo[ \t]+-S\b|\bgh[ \t]+secret[ \t]+set\b|\bwrangler[ \t]+secret[ \t]+put\b"
    r"|\bsecrets[ \t]+(?:create|versions[ \t]+add)\b|\bbase64[ \t]+(?:-d|-D|--decode)\b|\bxxd[ \t]+-r\b"
    r"|\bcircleci[ \t]+context[ \t]+store-secret\b|--passphrase-fd\b|--passphrase-file[ \t]+/dev/stdin\b"
    r"|--passwd-on-stdin\b|\bkeystore[ \t]+add\b[^\n|;&]*?--stdin\b|\bkinit\b)"
)

# A JWT or HMAC algorithm's name, given where a key may be (``jwt.encode(payload, key, "HS256")``).
_ALGORITHM = linear(r"(?i)^(?:[HREP]S(?:256|384|512)|EdDSA|none|(?:hmac)?[-_]?(?:sha|md)[-_]?\d*)$")


def _signing_key(value: str) -> bool:
    """A literal given as a signing key that may be one: no placeholder, example words or algorithm."""
    return (
        not_placeholder(value)
        and not plain_words(value.replace(" ", "-"))
        and _ALGORITHM.search(value) is None
    )


def _heredoc_secret(body: str) -> bool:
    """A secret file's lines as a heredoc writes them: the last (the password, after a user's name)
    of eight characters or more, no placeholder, no public key."""
    words = body.split()
    last = words[-1] if words else ""
    return len(last) >= 8 and not_placeholder(last) and not last.startswith(SSH_KEY_TYPES)


# Commands that print a stored secret's value (libsecret's ``secret-tool lookup``, macOS's ``security
# find-generic-password -w``, 1Password's ``op read``, ``pass show``, Vault's ``-field``, ``gh auth
# token``, ``heroku auth:token``, the clouds' secret managers, Doppler, Bitwarden): the line under
# one at a prompt is the value.
_PRINTS_STORED = (
    r"(?:secret-tool[ \t]+lookup|find-(?:generic|internet)-password\b[^\r\n]*?[ \t]-w|op[ \t]+read"
    r"|(?:go)?pass[ \t]+show|vault[ \t]+(?:kv[ \t]+get|read)[^\r\n]*?-field|gh[ \t]+auth[ \t]+token"
    r"|heroku[ \t]+auth:token|get-secret-value|secrets[ \t]+versions[ \t]+access"
    r"|keyvault[ \t]+secret[ \t]+show|doppler[ \t]+secrets[ \t]+get|bw[ \t]+get[ \t]+password)"
)


COMMAND_RULES: tuple[Rule, ...] = (
    # A token after a short CLI flag or one that names authentication (``-t …``, ``--auth …``): only a
    # long random value with a digit (``-t`` is also an image tag or a host, ``--key`` a file, ``-a`` an
    # action).
    _rule(
        "token-flag",
        r"(?:^|[\s\"'=])(?:-[tak]|--(?i:auth|key|bearer|session|cookie|sig|signature|hmac|jwt|pat|otp|cred|creds"
        r"|license)[A-Za-z0-9-]*)(?:[ \t]+|=)[\"']?([A-Za-z0-9_+/=.~-]{20,})(?:[\"'\s]|$)",
        1,
        flag_token,
    ),
    # A session cookie (``sessionid=…``, ``JSESSIONID=…``, ``connect.sid=…``, a framework's
    # ``laravel_session=…``, ``_gitlab_session``, ``ASP.NET_SessionId``, ``next-auth.session-token``,
    # ``ci_session``, ``PHPSESSID``): whoever has it is logged in.
    _rule(
        "session-cookie",
        r"(?i)\b(?:[\w.-]*[_.-])?(?:session(?:[_.-]?(?:id|token|key))?|sess(?:ion)?_?id|[a-z]*sessid|sid)"
        r"=[\"']?([A-Za-z0-9%_+/=.:-]{16,})",
        1,
        generated_value,
        r"(?i)(?:sess|sid)[\w.-]*=",
    ),
    # CLIs that store or use a secret given on the command line: ``gh secret set NAME --body …``,
    # ``vault kv put PATH key=value …`` (every value), ``az login -p …``, ``npm config set
    # //registry/:_authToken …``.
    _rule(
        "gh-secret-set",
        r"\bgh[ \t]+secret[ \t]+set\b[^\n|;&]*?[ \t](?:--body|-b)(?:=|[ \t]+)[\"']?([^\s\"']{4,})",
        1,
    ),
    _rule(
        "vault-put",
        r"\bvault[ \t]+(?:kv[ \t]+(?:put|patch)|write)[ \t]+[^\s=]+[ \t]+([\w.-]+=\S+(?:[ \t]+[\w.-]+=\S+)*)",
        1,
        lambda pairs: any(_secret_like(pair.split("=", 1)[1]) for pair in pairs.split()),
    ),
    _rule(
        "az-login-password",
        r"\baz[ \t]+login\b[^\n|;&]*?[ \t](?:-p|--password)(?:=|[ \t]+)[\"']?([^\s\"']{4,})",
        1,
        not_placeholder,
    ),
    _rule(
        "npm-auth",
        r"(?i)(?:^|[\s:/])_auth(?:Token)?(?:[ \t]*=[ \t]*|[ \t]+)[\"']?([A-Za-z0-9_+/=.-]{16,})",
        1,
        not_placeholder,
    ),
    # More CLIs' password flags (a flag each reads as a password only for its own command; what stands
    # between the command and its flag is an unbounded repeat: a count of n is n instructions of the
    # step set's program, times each command): zip -P, 7z -p (glued), the MongoDB tools'
    # -p/--password, sqlcmd -P, the OpenLDAP tools' -w, htpasswd -b (the value after the user, other flags
    # such as -c or -C 10 after -b), MinIO's
    # ``mc alias set NAME URL ACCESS SECRET``, macOS ``security add-generic-password -w``, smbclient
    # -U user%pw, and the secret stores' CLIs' values.
    _rule(
        "cli-password",
        r"\b(?:(?:zip|zipcloak|unzip)\b[^\n|;&]*?[ \t]-P[ \t]+"
        r"|7z[a-z]?\b[^\n|;&]*?[ \t]-p"
        r"|(?:mongo(?:sh|dump|restore|export|import)?|cqlsh|rabbitmqadmin|mysqladmin|mysqldump|mysqlimport"
        r"|isql|sqsh|hdbsql|vsql|nzsql)\b[^\n|;&]*?[ \t](?:-p|--password)(?:=|[ \t]+)"
        r"|sqlcmd\b[^\n|;&]*?[ \t]-P[ \t]*"
        r"|ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn)\b[^\n|;&]*?[ \t]-w[ \t]+"
        r"|htpasswd\b[^\n|;&]*?[ \t]-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+(?:[ \t]+\d+)?)*"
        r"[ \t]+\S+[ \t]+\S+[ \t]+"
        r"|security[ \t]+add-(?:generic|internet)-password\b[^\n|;&]*?[ \t]-w[ \t]+"
        r"|smbclient\b[^\n|;&]*?[ \t](?:-U|--user)(?:=|[ \t]+)[\"']?[^\s\"'%]+%"
        r"|(?:oc|crane|twine|helm[ \t]+registry)[ \t]+(?:login|upload|auth)\b[^\n|;&]*?"
        r"[ \t](?:-p|--password)(?:=|[ \t]+)"
        r"|sshpass[ \t]+-p[ \t]*"
        r"|lftp\b[^\n|;&]*?[ \t]-u[ \t]+[\"']?[^\s,\"']+,"
        r"|codecov\b[^\n|;&]*?[ \t](?:-t|--token)(?:=|[ \t]+)"
        r"|\b(?:ro|rw)community6?[ \t]+"
        r"|\bmc[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+\S+[ \t]+"
        r"|\brabbitmqctl\b[^\n|;&]*?[ \t](?:add_user|change_password)[ \t]+\S+[ \t]+"
        r"|\bopenssl[ \t]+passwd(?:[ \t]+-(?:salt[ \t]+\S+|\S+))*[ \t]+"
        r"|redis-cli\b[^\n|;&]*?[ \t]-a[ \t]+"
        r"|\b(?:requirepass|masterauth)[ \t]+"
        r"|(?:ssm[ \t]+put-parameter|keyvault[ \t]+secret[ \t]+set"
        r"|secretsmanager[ \t]+(?:create|put|update)-secret(?:-value)?)"
        r"\b[^\n|;&]*?[ \t]--(?:value|secret-string)(?:=|[ \t]+)"
        r")[\"']?([^\s\"'-][^\s\"']{2,})",
        1,
        not_placeholder,
    ),
    # Package and scanner CLIs that take a token or a password as an argument of their own: ``cargo
    # login TOKEN``, ``snyk auth TOKEN``, ``poetry config pypi-token.REPO TOKEN``, ``poetry|composer
    # config http-basic.REPO USER PASSWORD``, the secret pairs of ``rclone config create|update NAME
    # TYPE key value``, SonarQube's ``sonar.login``/``sonar.token`` property (``-Dsonar.login=…``),
    # ``rdesktop -p …``, ``openssl … -k PASSPHRASE`` (``-K``: the key in hex), ``ngrok authtoken …``,
    # ``wandb login KEY``; then ``vault login
    # TOKEN`` (a token given as its argument; the pairs of ``-method=userpass username=…
    # password=…`` are the named-value rules') and ``xfreerdp /p:…``.
    _rule(
        "cli-argument-secret",
        r"(?:\b(?:cargo[ \t]+login|snyk[ \t]+auth)"
        r"|\b(?:poetry|composer)[ \t]+config[ \t]+(?:-[\w-]+[ \t]+)*"
        r"(?:pypi-token\.[\w.-]+|http-basic\.[\w.-]+[ \t]+[^\s\"']+)"
        r"|\brclone[ \t]+config[ \t]+(?:create|update)\b[^\n|;&]*?[ \t]"
        r"(?:secret_access_key|pass|password|token|client_secret|key|account_key|sas_url)"
        r"|(?:\b|-D)(?i:sonar\.(?:login|token|password))"
        r"|\brdesktop\b[^\n|;&]*?[ \t]-p"
        r"|\bopenssl\b[^\n|;&]*?[ \t]-[kK]"
        r"|\bngrok[ \t]+(?:config[ \t]+add-)?authtoken"
        r"|\bwandb[ \t]+login(?:[ \t]+--[\w-]+)*)"
        r"(?:[ \t]+|[ \t]*=[ \t]*)[\"']?([^\s\"'-][^\s\"']{5,})",
        1,
        _secret_like,
    ),
    _rule(
        "vault-login",
        r"\bvault[ \t]+login(?:[ \t]+-[\w-]+(?:=\S*)?)*[ \t]+[\"']?([^\s\"'=-][^\s\"'=]{5,})(?:[\s\"']|$)",
        1,
        _secret_like,
    ),
    _rule(
        "rdp-password",
        r"\b[wx]?freerdp[23]?\b[^\n|;&]*?[ \t][/+-](?i:p|password):[\"']?([^\s\"']{4,})",
        1,
        not_placeholder,
    ),
    # GitHub Actions' workflow commands: a value masked is a secret by definition; an output named
    # for one (``::set-output name=token::…``).
    _rule("actions-mask", r"::add-mask::[ \t]*([^\s\"']{4,})", 1, not_placeholder),
    _rule(
        "actions-output",
        r"(?i)::set-(?:output|env)[ \t]+name=[A-Za-z0-9_.-]*"
        rf"(?:password|passwd|secret|token|api_?key|{KEY_NOUNS})[A-Za-z0-9_.-]*::([^\s\"']{{4,}})",
        1,
        not_placeholder,
    ),
    # A shell default for a variable named for a secret (``${API_KEY:-…}``, ``${DB_PASSWORD:=…}``):
    # the default is a literal, written where the variable is unset.
    _rule(
        "shell-default",
        r"(?i)\$\{[A-Za-z0-9_]*(?:password|passwd|secret|token|api_?key|access_?key|private_?key|credentials?)"
        r"[A-Za-z0-9_]*(?::?[-=]|:)([^}\s\"']{4,})\}",
        1,
        lambda value: generated_value(value) or password_value(value),
    ),
    # Windows' ``net user NAME PASSWORD`` (``*`` prompts, ``/add`` and ``/delete`` are switches),
    # Oracle's ``sqlplus user/password@db``, PowerShell's ``ConvertTo-SecureString "…" -AsPlainText``,
    # and Redis' ``AUTH [user] password`` at its prompt.
    _rule(
        "net-user", r"(?i)\bnet[ \t]+user[ \t]+\S+[ \t]+[\"']?([^\s\"'/*-][^\s\"']{2,})", 1, not_placeholder
    ),
    # ``net use \\host\share /user:DOMAIN\name PASSWORD``, and the password before the switch.
    _rule(
        "net-use",
        r"(?i)\bnet[ \t]+use\b[^\n|;&]*?/user:\S+[ \t]+[\"']?([^\s\"'/*][^\s\"']{3,})",
        1,
        not_placeholder,
    ),
    _rule(
        "net-use-before-user",
        r"(?i)\bnet[ \t]+use\b[^\n|;&]*?[ \t]\\\\\S+[ \t]+[\"']?([^\s\"'/*][^\s\"']{3,})[\"']?[ \t]+/user:",
        1,
        not_placeholder,
    ),
    # An expect script's answer to a password prompt (``expect "password for ops:"`` then ``send
    # "…\r"``): the string sent, not a variable (``send "$pw\r"``).
    _rule(
        "expect-send",
        r"(?i)\bexpect[ \t]+[^\r\n]*(?:passw|passphrase|pin\b)[^\r\n]*\r?\n[ \t]*send[ \t]+(?:--[ \t]+)?"
        r"[\"{]([^\"}\\\r\n$]{4,})(?:\\[rn])*[\"}]",
        1,
        not_placeholder,
        r"(?i)\n[ \t]*send[ \t]",
    ),
    # What a shell printed under a command at its prompt that shows a secret's file (``$ cat
    # .vault_pass``, ``PS C:\\> type token.txt``; redis-cli's ``127.0.0.1:6379> GET vc:token``) or
    # makes one (``openssl rand -base64 32``, ``pwgen``, Python's ``Fernet.generate_key()`` or
    # ``secrets.token_hex(32)``) or decodes one
    # (``kubectl get secret … | base64 -d``): the next line, when it is one random or password-like
    # value.
    _rule(
        "printed-secret",
        r"(?im)^[ \t]*(?:[$%#]|>>>|PS[^>\r\n]{0,40}>|[\w.-]+:\d+(?:\[\d+\])?>)[ \t]*(?:sudo[ \t]+)?"
        r"(?:(?:cat|type|more|head|tail|bat|Get-Content|gc|get|hget)[ \t]+[^\r\n|;&]*?"
        r"(?:pass|secret|token|key|cred|seed|totp|\.pem\b|htpasswd)[^\r\n|;&]*"
        r"|openssl[ \t]+rand\b[^\r\n]*|pwgen\b[^\r\n]*|[^\r\n]*?\bgenerate_key\(\)[^\r\n]*"
        r"|[^\r\n]*?\bsecrets\.token_(?:hex|urlsafe)\([^\r\n]*"
        r"|[^\r\n]*?\bget[ \t]+secrets?\b[^\r\n]*\|[ \t]*base64[ \t]+(?:-d|-D|--decode)\b[^\r\n]*"
        # ... or a value already redacted, decoded (``echo [redacted] | base64 -d``)
        r"|echo[ \t]+[\"']?\[redacted\][\"']?[ \t]*\|[ \t]*base64[ \t]+(?:-d|-D|--decode)\b[^\r\n]*"
        rf"|[^\r\n]*?\b{_PRINTS_STORED}[^\r\n]*)"
        r"\r?\n[ \t]*(?:b?[\"'])?"
        r"([A-Za-z0-9+/=_!@#$%^&*.~?,;:()<>\[\]{}-]{12,})[\"']?[ \t]*$",
        1,
        lambda value: looks_random(value, 12) or password_value(value) or long_hex(value),
        r"(?im)^[ \t]*(?:[$%#]|>>>|PS[^>\r\n]{0,40}>|[\w.-]+:\d+(?:\[\d+\])?>)[ \t]*(?:sudo[ \t]+)?"
        r"(?:cat|type|more|head|tail|bat|get|hget"
        r"|get-content|gc|openssl|pwgen|[^\r\n]*?generate_key\(|[^\r\n]*?secrets\.token_"
        rf"|[^\r\n]*?base64[ \t]+(?:-d|-D|--decode)\b|[^\r\n]*?\b{_PRINTS_STORED})",
    ),
    _rule("sqlplus", r"(?i)\bsqlplus[ \t]+(?:-\S+[ \t]+)*[^\s/@\"']+/([^\s@\"'/]{3,})", 1, not_placeholder),
    _rule(
        "secure-string",
        r"(?i)\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?[\"']([^\"'\r\n]{4,})[\"'][^\n]*?-AsPlainText",
        1,
        not_placeholder,
    ),
    # ... or after ``-AsPlainText`` (``ConvertTo-SecureString -AsPlainText "…" -Force``)
    _rule(
        "secure-string-after",
        r"(?i)\bConvertTo-SecureString\b[^\r\n\"']*?-AsPlainText[ \t]+[\"']([^\"'\r\n]{4,})[\"']",
        1,
        not_placeholder,
    ),
    _rule(
        "redis-auth",
        r"(?m)(?:^|>[ \t]*)AUTH[ \t]+(?:[A-Za-z0-9_.-]+[ \t]+)?([^\s\"']{6,})[ \t]*$",
        1,
        _secret_like,
    ),
    # ... or written to the server by code, a string of its own (``send("AUTH …\r\n")``).
    _rule(
        "redis-auth-sent",
        r"[\"']AUTH[ \t]+(?:[A-Za-z0-9_.-]+[ \t]+)?([^\s\"'\\]{6,})(?:\\r)?(?:\\n)?[\"']",
        1,
        _secret_like,
        r"[\"']AUTH[ \t]",
    ),
    # A value written to the standard input of a command that reads a secret there, by ``echo`` or
    # ``printf`` or a here-string (``gh auth login --with-token <<< …``). ``base64 -d`` is one: a
    # value decoded at a shell is most often a Kubernetes Secret's, and its text is not a lesson.
    _rule(
        "password-stdin",
        r"\b(?:echo[ \t]+(?:-[neE]{1,3}[ \t]+)?|printf[ \t]+(?:[\"']%s(?:\\n)?[\"'][ \t]+)?)"
        r"[\"']?([^\s\"'|$]{6,})[\"']?[ \t]*\|[^\n]*?" + _READS_A_SECRET,
        1,
        _stdin_value,
    ),
    # A credential given to a statement as a keyword and a string, as SQL writes its options
    # (Redshift's ``UNLOAD … SECRET_ACCESS_KEY '…'``, Snowflake's ``AWS_SECRET_KEY = '…'``, ``PASSWORD
    # '…'``): the keyword in capitals, as SQL's are.
    _rule(
        "sql-credential-option",
        r"\b(?:[A-Z]+_)*(?:SECRET_ACCESS_KEY|SECRET_KEY|SESSION_TOKEN|PASSWORD|SECRET|TOKEN)[ \t]+"
        r"'([^'\r\n]{8,})'",
        1,
        lambda value: not_placeholder(value) and (password_value(value) or looks_random(value, 16)),
        r"(?:SECRET_ACCESS_KEY|SECRET_KEY|SESSION_TOKEN|PASSWORD|SECRET|TOKEN)[ \t]+'",
    ),
    # A value written into a secret's file by ``echo`` or ``printf`` (``echo '…' > ~/.vault_pass``,
    # ``printf '%s' '…' > .pgpass``): the file's name holds a secret's word.
    _rule(
        "written-to-secret-file",
        r"\b(?:echo[ \t]+(?:-[neE]{1,3}[ \t]+)?|printf[ \t]+(?:[\"']%s(?:\\n)?[\"'][ \t]+)?)"
        r"[\"']([^\"'\r\n]{6,})[\"'][ \t]*>>?[ \t]*[^\s;&|]*(?:pass|secret|token|key|cred|auth)[^\s;&|]*",
        1,
        lambda value: not_placeholder(value) and not value.startswith(SSH_KEY_TYPES),  # a public key's line
        r"(?i)[\"'][ \t]*>>?[ \t]*[^\s;&|]*(?:pass|secret|token|key|cred|auth)",
    ),
    # ... or by a heredoc (``cat > .vault_pass <<'EOF'``, ``sudo tee /etc/openvpn/auth.txt <<EOF``): its
    # one to four lines of one word each (a password, a user and a password) up to the closing word.
    _rule(
        "heredoc-to-secret-file",
        r"\b(?:cat|tee)\b[^\r\n<]*?[^\s<>]*(?i:pass|secret|token|cred|auth)[^\s<>]*[^\r\n<]*"
        r"<<-?[ \t]*[\"']?[A-Za-z_]+[\"']?[ \t]*\r?\n((?:[^\s]{1,200}\r?\n){1,4})"
        r"[ \t]*[A-Z_]+[ \t]*(?:\r?\n|$)",
        1,
        _heredoc_secret,
        r"(?i)(?:pass|secret|token|cred|auth)[^\s<>]*[^\r\n<]*<<",
    ),
    # An SNMP community given to net-snmp's tools (``snmpwalk -v2c -c <community> host``): the v1 and
    # v2c password; not the defaults ``public`` and ``private``.
    _rule(
        "snmp-community",
        r"\bsnmp(?:walk|bulkwalk|get|getnext|bulkget|set|table|trap|check)\b[^\r\n]*?[ \t]-c[ \t]*"
        r"[\"']?([^\s\"']{6,})",
        1,
        lambda value: not_placeholder(value) and value.lower() not in ("public", "private"),
        r"\bsnmp(?:walk|bulkwalk|get|getnext|bulkget|set|table|trap|check)\b",
    ),
    # Tools given a password by a flag of their own: macOS's keychains (``security create-keychain -p``,
    # ``unlock-keychain -p``, ``import … -P``, ``set-key-partition-list … -k``), Kerberos's ``kadmin
    # -w``, Mosquitto's clients' ``-P``.
    _rule(
        "tool-password-flag",
        r"\b(?:security[ \t]+(?:create-keychain|unlock-keychain|import|set-key-partition-list)\b"
        r"[^\n|;&]{0,200}?[ \t]-[pPk]|kadmin(?:\.local)?\b[^\n|;&]{0,200}?[ \t]-w"
        r"|mosquitto_(?:pub|sub|rr)\b[^\n|;&]{0,200}?[ \t]-P)"
        r"[ \t]+[\"']?([^\s\"']{6,})",
        1,
        lambda value: (
            not_placeholder(value) and not value.startswith("-") and not value.endswith(".keychain")
        ),
        r"\b(?:security[ \t]+(?:create|unlock|import|set-key)|kadmin|mosquitto_(?:pub|sub|rr))",
    ),
    # ... and by position: ``mosquitto_passwd -b FILE USER PASSWORD``, Samba's ``-U user%password``,
    # SAP HANA's ``hdbuserstore SET KEY HOST USER PASSWORD``.
    _rule(
        "positional-password",
        r"\b(?:mosquitto_passwd[ \t]+-b[ \t]+\S+[ \t]+\S+"
        r"|hdbuserstore[ \t]+(?:-\S+[ \t]+)*SET[ \t]+\S+[ \t]+\S+[ \t]+\S+)[ \t]+[\"']?([^\s\"']{6,})",
        1,
        not_placeholder,
        r"\b(?:mosquitto_passwd|hdbuserstore)\b",
    ),
    _rule(
        "samba-user-password",
        r"(?:^|\s)-U[ \t]+[\"']?[^\s%\"']+%([^\s\"']{4,})",
        1,
        not_placeholder,
        r"-U[ \t]+\S+%",
    ),
    # Redis's ``ACL SETUSER name on >password``: each ``>`` adds a password.
    _rule(
        "redis-acl-password",
        r"(?i)\bACL[ \t]+SETUSER[ \t]+\S+[^\n]*?[ \t]>([^\s>]{4,})",
        1,
        not_placeholder,
        r"(?i)\bACL[ \t]+SETUSER\b",
    ),
    # A CLI's ``login`` given its password by ``-p`` or ``--password`` (``tabcmd login … -p '…'``).
    _rule(
        "login-password-flag",
        r"\blogin\b[^\n|;&]{0,160}?[ \t](?:-p|--password)(?:[ \t]+|=)[\"']?([^\s\"']{6,})",
        1,
        lambda value: (
            not value.startswith("-")
            and not_placeholder(value)
            and (password_value(value) or looks_random(value, 12))
        ),
        r"\blogin\b[^\n|;&]*?[ \t](?:-p|--password)\b",
    ),
    # What Elasticsearch's password reset prints: ``New value: …``.
    _rule(
        "elastic-reset-password",
        r"(?i)\belasticsearch-reset-password\b[^\n]*(?:\r?\n[^\n]*){0,3}?\r?\nNew value:[ \t]*(\S{6,})",
        1,
        not_placeholder,
        r"(?i)elasticsearch-reset-password",
    ),
    # A secret's constructor given its literal (Prefect's ``Secret(value="…")``, pydantic's
    # ``SecretStr("…")``, ``SecretBytes(b"…")``): what the type exists to hide.
    _rule(
        "secret-constructor",
        r"\bSecret(?:Str|String|Bytes)?\((?:[ \t]*value[ \t]*=)?[ \t]*b?[\"']([^\"'\r\n]{6,})[\"']",
        1,
        lambda value: not_placeholder(value) and not plain_words(value),
        r"\bSecret(?:Str|String|Bytes)?\(",
    ),
    _rule(
        "here-string-secret",
        _READS_A_SECRET + r"[^\n|;&]*?<<<[ \t]*[\"']?([^\s\"'$]{6,})",
        1,
        not_placeholder,
    ),
    # Code: a setter, builder or call named for a secret, given a literal (``setPassword("…")``,
    # ``.apiKey("…")``, ``withToken("…")``, ``SecretStr("…")``; Redis's ``red:auth("…")``, its one
    # literal shaped as a password or random); a user and a password given to a login or basic-auth
    # call or tuple (``.login("u", "…")``, ``SetBasicAuth("u", "…")``, JDBC's ``getConnection(url,
    # "u", "…")``, ``HTTPBasicAuth("u", "…")``, ``auth=("u", "…")``, ``NetworkCredential("u", "…")``).
    _rule(
        "secret-call",
        r"(?i)(?:\.|\b(?:set|with)_?|\b)(?:password|passwd|passphrase|secret(?:_?key)?|secretstr|token"
        r"|api_?key|access_?key|auth_?token|client_?secret|bearer(?:_?auth)?)"
        r"[ \t]*\([ \t]*b?[\"']([^\"'\r\n]{4,})[\"']",
        1,
        _not_words,
    ),
    # ... ``Credentials("…")`` too, whose first literal may name a realm (sbt's ``Credentials("Sonatype
    # Nexus Repository Manager", host, user, password)``): one word, then; and the fourth of four
    # literals, sbt's password.
    _rule(
        "credentials-call",
        r"(?i)(?:\.|\b(?:set|with)_?|\b)credentials?[ \t]*\([ \t]*b?[\"']([^\"'\r\n]{4,})[\"']",
        1,
        lambda value: _not_words(value) and not any(c.isspace() for c in value),
    ),
    # A value given to a CLI's secret command by its data flag (``drone secret add … --data '…'``,
    # ``… secrets set NAME --value …``, ``gh secret set NAME --body …``): not a file (``@file``).
    _rule(
        "secret-command-data",
        r"(?i)\bsecrets?[ \t]+(?:add|set|create|put|update)\b[^\r\n|;&]*?[ \t]--?(?:data|value|body|b"
        r"|secret-string|string-data)(?:[ \t]+|=)[\"']?([^\s\"'@][^\s\"']{5,})",
        1,
        lambda value: not_placeholder(value) and not value.startswith(("file://", "fileb://", "-")),
        r"(?i)\bsecrets?[ \t]+(?:add|set|create|put|update)\b",
    ),
    # A password sent in a mail session: after the server's ``334 UGFzc3dvcmQ6`` ("Password:" in
    # base64) the client's next line, in base64; an IMAP ``LOGIN`` command's password.
    _rule(
        "smtp-auth-password",
        r"(?m)334[ \t]+UGFzc3dvcmQ6[ \t]*\r?\n[^\r\n]*?([A-Za-z0-9+/]{8,}={0,2})[ \t]*\r?$",
        1,
        None,
        r"334[ \t]+UGFzc3dvcmQ6",
    ),
    _rule(
        "imap-login",
        r"(?m)^[ \t]*[A-Za-z0-9.]{1,8}[ \t]+(?-i:LOGIN)[ \t]+\S+[ \t]+\"?([^\s\"]{6,})\"?[ \t]*\r?$",
        1,
        lambda value: password_value(value) or looks_random(value, 12),
        r"[ \t](?-i:LOGIN)[ \t]",
    ),
    # A debugger asked for a secret's value (lldb's ``po self.adminKey``, gdb's ``p cfg->password``):
    # what it prints on the next line (``"…"``, ``$1 = 0x55… "…"``, ``(NSString *) $0 = "…"``).
    _rule(
        "debugger-print",
        r"(?i)\((?:lldb|gdb)\)[ \t]+(?:po|p|print|expr|frame[ \t]+variable)[ \t]+[\w.>\[\]*-]*"
        r"(?:passw|secret|token|api_?key|key\b|credential)[\w.\[\]]*[ \t]*\r?\n[ \t]*"
        r"(?:\$\d+[ \t]*=[ \t]*)?(?:\([^)\r\n]*\)[ \t]*(?:\$\d+[ \t]*=[ \t]*)?)?(?:0x[0-9a-f]+[ \t]+)?@?"
        r"\"([^\"\r\n]{6,})\"",
        1,
        not_placeholder,
        r"(?i)\((?:lldb|gdb)\)[ \t]+(?:po|p|print|expr|frame)",
    ),
    # C's constant named for a secret (``#define SECRET_PASS "…"``, Arduino's ``arduino_secrets.h``).
    _rule(
        "c-define",
        r"(?i)#[ \t]*define[ \t]+\w*(?:pass(?:word)?|pwd|secret|token|api_?key|psk)[ \t]+\"([^\"\r\n]{4,})\"",
        1,
        lambda value: not_placeholder(value) and (password_value(value) or looks_random(value, 12)),
        r"#[ \t]*define[ \t]",
    ),
    _rule(
        "credentials-fourth",
        r"\bCredentials[ \t]*\((?:[ \t]*\"[^\"\r\n]*\"[ \t]*,){3}[ \t]*\"([^\"\r\n]{4,})\"[ \t]*\)",
        1,
        not_placeholder,
    ),
    _rule(
        "auth-call",
        r"(?i)(?:\.|:|\b)auth[ \t]*\([ \t]*[\"']([^\"'\r\n]{4,})[\"'][ \t]*\)",
        1,
        lambda value: (
            not_placeholder(value)
            and not plain_words(value.replace(":", "-"))  # ``auth("username:password")``: words
            and (password_value(value) or looks_random(value, 12))
        ),
    ),
    _rule(
        "login-call",
        r"(?i)(?:\b(?:login|authenticate|set_?basic_?auth|basic_?auth|http(?:basic|digest)auth"
        r"|passwordauthentication|usernamepasswordcredentials|getconnection)[ \t]*\("
        r"|\bauth[ \t]*=[ \t]*[(\[])"
        r"[ \t]*(?:(?:[\w.]+|\"[^\"\r\n]*\")[ \t]*,[ \t]*)?[\"'][^\"'\r\n]*[\"'][ \t]*,[ \t]*"
        r"[\"']([^\"'\r\n]{4,})[\"']",
        1,
        _not_words,
    ),
    # .NET's ``NetworkCredential(user, password[, domain])``: the password is always the second.
    _rule(
        "network-credential",
        r"(?i)\bnetworkcredential[ \t]*\([ \t]*(?:[\w.]+|\"[^\"\r\n]*\")[ \t]*,[ \t]*\"([^\"\r\n]{4,})\"",
        1,
        _not_words,
    ),
    # A directory bind's password given as a literal after the bound name, whatever that is
    # (``ldap.simple_bind_s(dn, "…")``, ``conn.bind_s(who, "…")``), and JNDI's
    # ``env.put(Context.SECURITY_CREDENTIALS, "…")``.
    _rule(
        "directory-bind",
        r"(?i)(?:\b(?:simple_bind(?:_s)?|bind_s)[ \t]*\([ \t]*(?:[\w.]+|\"[^\"\r\n]*\"|'[^'\r\n]*')[ \t]*,"
        r"|\bsecurity_credentials[ \t]*,)[ \t]*[\"']([^\"'\r\n]{4,})[\"']",
        1,
        _not_words,
    ),
    # A cloud SDK's static credentials, the key id a variable or a literal and the secret a literal:
    # ``BasicAWSCredentials(accessKey, "…")``, ``AwsBasicCredentials.create(id, "…")``, Go's
    # ``credentials.NewStaticCredentials(id, "…", "")``, ``new AWS.Credentials(id, "…")``.
    _rule(
        "static-credentials",
        r"(?i)\b(?:basicawscredentials|awsbasiccredentials\.create|newstaticcredentials(?:provider)?"
        r"|aws\.credentials)[ \t]*\([ \t]*(?:[\w.]+|\"[^\"\r\n]*\"|'[^'\r\n]*')[ \t]*,[ \t]*"
        r"[\"']([^\"'\r\n]{4,})[\"']",
        1,
        _not_words,
    ),
    # A signing key given to a JWT or HMAC call as a literal: ``jwt.encode(payload, "…")``,
    # ``jwt.sign(claims, '…')``, Python's ``hmac.new(b"…", msg, …)``, Ruby's ``OpenSSL::HMAC.hexdigest(
    # 'SHA256', '…', data)``, Node's ``createHmac('sha256', '…')``, Go's ``hmac.New(sha256.New,
    # []byte("…"))`` and ``SignedString([]byte("…"))``, Rust's ``new_from_slice(b"…")``, .NET's
    # ``new HMACSHA256(Encoding.UTF8.GetBytes("…"))``, Java's ``new SecretKeySpec("…".getBytes(), …)``;
    # a cookie or session signer's secret (``cookieParser('…')``, ``URLSafeTimedSerializer('…')``).
    # The literal must end its argument (a payload's ``"role": …`` is followed by a colon); lower-case
    # words are an example's (``createHmac('sha256', 'a secret')``).
    _rule(
        "signing-key",
        r"(?:\bjwt\.(?:encode|decode|sign|verify)[ \t]*\([^\n]*?,"
        r"|\b(?i:hmac)\.(?:new|digest|hexdigest|base64digest)[ \t]*\((?:[ \t]*[\"']?[\w:.-]+[\"']?[ \t]*,)?"
        r"|\bcreateHmac[ \t]*\([ \t]*[\"'][\w-]+[\"'][ \t]*,"
        r"|\bhmac\.New[ \t]*\([ \t]*[\w.]+[ \t]*,"
        r"|\b(?:cookieParser|cookieSession|CookieStore|TimestampSigner|URLSafe(?:Timed)?Serializer)[ \t]*\("
        r"|\b(?:new_from_slice|new_varkey|HMACSHA\d+|HMACMD5|SecretKeySpec|SignedString)[ \t]*\()"
        r"[ \t]*(?:b|\[\]byte\(|(?:Encoding\.\w+\.)?GetBytes\()?[\"']([^\"'\r\n]{4,})[\"']"
        r"[ \t]*(?:\)[ \t]*)?(?:[,)]|\.getBytes|\.encode)",
        1,
        _signing_key,
    ),
    # A client of an API given a generated literal as its only or first argument: ``Client::new("…")``,
    # ``new ApiClient("…")``, ``OpenAI::Client.new("…")``, ``SdkClient.create('…')``. The constructor
    # names no secret, so only a random value of 20 characters or more is one, and no UUID (a
    # project's or a tenant's id).
    _rule(
        "client-literal",
        r"(?i)\b\w*(?:client|api|sdk)\w*(?:::new|\.new|\.create|\.from_key|\.with_key)?[ \t]*\([ \t]*"
        r"[\"']([A-Za-z0-9_+/=.~-]{20,})[\"'][ \t]*[,)]",
        1,
        lambda value: looks_random(value, 20) and not uuid_shaped(value),
    ),
    # A value given first and named after, in prose: "use `…` as the API token for staging".
    _rule(
        "used-as-secret",
        r"(?i)\buse[ \t]+[\"'`]?([^\s\"'`]{6,}?)[\"'`]?[ \t]+as[ \t]+(?:(?:the|your|our|a|an)[ \t]+)?"
        r"(?:[\w-]+[ \t]+){0,2}(?:password|passphrase|token|api[ _-]?key|secret|credentials?)\b",
        1,
        _banner_value,
    ),
    # A name for a secret given a quoted literal with no operator, as Groovy and Ruby call a method
    # (Gradle's ``keyPassword "…"``, ``storePassword '…'``) and prose quotes one ("the password "…"").
    _rule(
        "named-literal",
        r"(?i)\b[A-Za-z_]*(?:password|passwd|passphrase|secret|token|api_?key)[ \t]+"
        r"[\"']([^\"'\r\n]{4,})[\"']",
        1,
        lambda value: (
            not_placeholder(value)
            and not plain_words(value)
            and (generated_value(value) or password_value(value))
        ),
    ),
    # A Markdown label in bold ("- **Password:** …", "**API key**: …").
    _rule(
        "markdown-label",
        r"(?i)\*\*[ \t]*(?:[A-Za-z0-9]+[ _.-])*(?:password|passwd|passphrase|secret|token|api[ _-]?key"
        rf"|access[ _-]?key|secret[ _-]?key|credentials?|{KEY_NOUNS})[ \t]*:?[ \t]*\*\*[ \t]*:?[ \t]*"
        r"[\"'`]?([^\s\"'`]{6,})",
        1,
        lambda value: not_placeholder(value) and not number_like(value) and not plain_words(value),
    ),
    # Forty-seventh session: a password given to libcurl (``CURLOPT_USERPWD, "user:…"``, in C and
    # PHP alike), and Redis's ``AUTH`` as ``MONITOR`` prints it (``"AUTH" "default" "…"``).
    _rule(
        "curl-option-password",
        r"\bCURLOPT_(?:PROXY)?(?:USERPWD[ \t]*,[ \t]*\"[^:\"\r\n]*:|PASSWORD[ \t]*,[ \t]*\")"
        r"([^\"\r\n]{4,})\"",
        1,
        not_placeholder,
    ),
    _rule(
        "redis-monitor-auth",
        r"\"(?i:auth)\"[ \t]+(?:\"[^\"\r\n]*\"[ \t]+)?\"([^\"\r\n]{4,})\"",
        1,
        _not_words,
    ),
    # A placeholder named for a secret replaced with the value by ``sed`` (``sed -i
    # 's/__REPLICATION_PASSWORD__/…/' recovery.conf``): the replacement.
    _rule(
        "sed-secret",
        r"\bs/[^/\r\n]*(?i:passw(?:or)?d|passphrase|secret|token|api_?key)[^/\r\n]*/([^/\s'\"]{6,})/",
        1,
        _not_words,
    ),
    # keyring's Python call: set_password(service, user, password).
    _rule(
        "keyring-password",
        r"\bset_password[ \t]*\([^)\n]*?,[^)\n]*?,[ \t]*(?:password[ \t]*=[ \t]*)?[\"']([^\"'\r\n]{4,})[\"']",
        1,
        not_placeholder,
    ),
    # A sentence about a password that ends in a colon, then the value alone at the end of the line
    # or on the next line or the one after (first-run banners: Jenkins' "Please use the following
    # password to proceed to installation:", Elasticsearch's "Password for the elastic user …:",
    # MySQL's "A temporary password is generated for root@localhost: …"; "API key:" and the key two
    # lines down): a generated or password-like value only. Not a word right after a colon: an ARN's
    # resource type (``…:secret:prod/db/password-ytN6zM`` names a secret, and holds none). The next
    # line may start with the prefix Compose gives a container's log (``es01  | ``).
    _rule(
        "password-after-label",
        r"(?im)(?:^|[^:])\b(?:password|passphrase|passwd|api[ _-]?key|token|secret)\b[^\n:]*:[ \t]*"
        r"(?:\r?\n(?:[\w.-]+[ \t]*\|)?[ \t]*){0,2}[\"'`]?([^\s\"'`]{7,}[^\s\"'`,;])[,;]?[\"'`]?[ \t]*$",
        1,
        _banner_value,
    ),
)
