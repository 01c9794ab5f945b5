"""Secret redaction: every credential a scanner knows becomes ``[redacted]``.

Rules are the formats maintained scanners (gitleaks, detect-secrets)
recognise, written as general shapes, not as examples: private-key blocks
across lines, provider tokens with a fixed prefix, credentials in URLs and
HTTP headers, and values assigned to secret-like names (``DB_PASSWORD=``,
``"password": "…"``, ``--token …``). Names that only weakly suggest a secret
(``*_KEY``, ``auth``, ``session``…) are redacted only when the value looks
random (the high-entropy fallback). Only the secret itself is replaced, so
``DB_PASSWORD=[redacted]`` still says what was there.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
Redaction is idempotent: ``[redacted]`` matches no rule.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from osmia.memory.linear import LinearPattern, Match, any_of, linear

REDACTED = "[redacted]"


def entropy(text: str) -> float:
    """Shannon entropy of ``text`` in bits per character."""
    if not text:
        return 0.0
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def looks_random(value: str, min_len: int = 16) -> bool:
    """True for a value shaped like a generated secret rather than a word, id or number.

    Long enough, several character classes, high entropy. Plain hex needs more
    length and entropy (commit hashes are hex and are not secrets when quoted in
    prose; hex assigned to a secret-like name is caught by the name rules).
    """
    if len(value) < min_len or value == REDACTED:
        return False
    if value.isdigit() or _plain_words(value):
        return False  # numbers, and words joined by separators (kebab-case phrases, paths)
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


def _placeholder(value: str) -> bool:
    """A reference or template, not a value: ``${VAR}``, ``$VAR``, ``<token>``, ``{{ x }}``, ``***``."""
    v = value.strip("'\"")
    if not v or v == REDACTED or v.startswith(REDACTED):
        return True
    if v[0] in "$<{%" or v.startswith("[redact"):
        return True
    if set(v) <= set("*xX.-_#•"):
        return True
    return v.lower() in _NOT_VALUES


_NOT_VALUE_TEXT = (
    "none null nil true false yes no required optional empty unset redacted masked hidden "
    "undefined string str int bool secret password token value example changeit"
)
_NOT_VALUES = frozenset(_NOT_VALUE_TEXT.split())


@dataclass(frozen=True)
class Rule:
    """One secret format: ``group`` is the part replaced; ``check`` may veto a candidate."""

    name: str
    pattern: LinearPattern
    group: int = 0
    check: Callable[[str], bool] | None = None


def _rule(name: str, pattern: str, group: int = 0, check: Callable[[str], bool] | None = None) -> Rule:
    return Rule(name, linear(pattern), group, check)


def _random(min_len: int) -> Callable[[str], bool]:
    return lambda value: looks_random(value, min_len)


def _key_shaped(value: str) -> bool:
    """A generated key: random, or one unbroken run of 20+ letters and digits (``sk-live-aaaa…``);
    not a hyphenated phrase such as ``sk-learn-compatible-pipelines``."""
    return looks_random(value, 20) or any(len(part) >= 20 for part in value.replace("_", "-").split("-"))


def _not_placeholder(value: str) -> bool:
    return not _placeholder(value)


def _basic_credentials(value: str) -> bool:
    """An HTTP Basic value: base64 of ``user:password``."""
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded and all(32 <= b < 127 for b in decoded)


def _url_password(value: str) -> bool:
    """A password in ``scheme://user:PASSWORD@host``; ``host:5000/app@sha256`` is a port and a path."""
    port, slash, _rest = value.partition("/")
    return not _placeholder(value) and not (slash and port.isdigit())


# A secret-like name. The keyword may sit anywhere in an identifier (DB_PASSWORD, app.secret.key,
# x-api-token, clientSecret), which is what a word boundary before the keyword used to miss.
_IDENT = r"[A-Za-z0-9_.-]*"
_STRONG = (
    r"(?:passw(?:or)?d|passphrase|pwd|secret|token|api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key"
    r"|client[_.-]?key|credentials?|creds|auth[_.-]?key|signing[_.-]?key|encryption[_.-]?key"
    r"|master[_.-]?key|account[_.-]?key|service[_.-]?key|webhook[_.-]?url|dsn)"
)
_WEAK = r"(?:key|auth|session|cookie|salt|seed|sig|signature|hmac|cert|license|pass|jwt|bearer)"
# What a name must not end with to be a secret itself: it names, counts or points at one.
_NAME_ONLY = (
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
)
_OPERATOR = r"""["']?[ \t]*(:=|=>|==?|:|\+=)[ \t]*"""
_VALUE = (
    r"""(?:"((?:[^"\\\r\n]|\\.)+)"|'([^'\r\n]+)'|`([^`\r\n]+)`"""
    r"""|([^\s'"`,;)\]}>:=][^\s'"`,;)\]}>]*))"""
)


def _name_allowed(name: str) -> bool:
    """False for names that hold a name, count or pointer of a secret (``secretName``, ``token_usage``)."""
    return not name.lower().strip("'\"").endswith(_NAME_ONLY)


def _plain_words(value: str) -> bool:
    """Lower-case words joined by separators: ``stored``, ``test_token_refresh``, ``read-only``."""
    return all(c.islower() or c in "-_./" for c in value.rstrip(".,:;!?)"))


def _number_like(value: str) -> bool:
    """A number, version or size (``1.2.3``, ``4096``, ``12k``), trailing punctuation aside."""
    core = value.rstrip(".,:;!?)").lower().removesuffix("k").removesuffix("m")
    return core.replace(".", "").replace("_", "").isdigit() and len(core) < 12


def _strong_value(value: str, quoted: bool, operator: str) -> bool:
    """Whether a value assigned to a strong secret name is a secret.

    Placeholders, counts (``max_tokens=4096``) and versions are not. An unquoted
    lower-case word after ``:`` is prose ("token: expired"), while
    ``DB_PASSWORD=postgres`` or ``password: "postgres"`` are leaked passwords.
    """
    if _placeholder(value) or len(value) < 4:
        return False
    if value.replace(".", "").isdigit() and (len(value) < 6 or "." in value):
        return False
    if quoted or "=" in operator:
        return True
    return not (value.isalpha() and value.islower() and len(value) < 12)


# A name and its value given apart: Kubernetes env entries (``- name: DB_PASSWORD`` then
# ``value: …``, across lines), .NET ``<add key="ApiSecret" value="…"/>``, JSON name/value pairs.
_NAME_VALUE = linear(
    rf"""(?i)\b(?:name|key)["']?[ \t]*[:=][ \t]*["']?({_IDENT}{_STRONG}{_IDENT})["']?[\s,]*"""
    rf"""["']?value{_OPERATOR}{_VALUE}"""
)

_ASSIGNMENTS = (
    # Strong names: any value that is not a placeholder, count, version or prose word.
    linear(rf"(?i)({_IDENT}{_STRONG}{_IDENT}){_OPERATOR}{_VALUE}"),
    # Weak names: only values that look random (the high-entropy fallback).
    linear(rf"(?i)({_IDENT}{_WEAK}{_IDENT}){_OPERATOR}{_VALUE}"),
)


def _assignment_sub(pattern: LinearPattern, strong: bool) -> Callable[[str], str]:
    """Redact the value of ``name <op> value`` when the name is secret-like and the value a secret."""

    def replace(m: Match) -> str:
        whole = m.group(0) or ""
        if not _name_allowed(m.group(1) or ""):
            return whole
        for g in (3, 4, 5, 6):
            value = m.group(g)
            if value is None:
                continue
            if strong:
                ok = _strong_value(value, g != 6, m.group(2) or "")
            else:
                ok = looks_random(value, 16) or (len(value) >= 8 and _basic_credentials(value))
            if not ok:
                return whole
            start, end = m.start(g) - m.start(0), m.end(g) - m.start(0)
            return whole[:start] + REDACTED + whole[end:]
        return whole

    return lambda text: pattern.sub(replace, text)


# CLI flags: --password hunter2, --token=abc, -p is too ambiguous to take.
_FLAG = rf"(?i)(--{_IDENT}{_STRONG}{_IDENT})(?:[ \t]+|=)" + (
    r"""(?:"([^"\r\n]+)"|'([^'\r\n]+)'|([^\s'"`-][^\s'"`]*))"""
)

_BLOCK_KEY = r"[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?"

RULES: tuple[Rule, ...] = (
    # Private keys (PEM, OpenSSH, PGP, PKCS#8, encrypted): the whole block, across lines; an
    # unterminated block is redacted to the end of the text.
    _rule(
        "private-key",
        rf"(?is)-----BEGIN {_BLOCK_KEY}-----.*?(?:-----END {_BLOCK_KEY}-----|$)",
    ),
    _rule("putty-key", r"(?s)PuTTY-User-Key-File-\d+:.*?(?:Private-MAC:[ \t]*[0-9a-fA-F]+|$)"),
    _rule("age-key", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b"),
    # Source hosts and registries.
    _rule("github", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}"),
    _rule("github-fine-grained", r"\bgithub_pat_[A-Za-z0-9_]{40,}"),
    _rule("gitlab", r"\bgl(?:pat|ptt|dt|rt|cbt|ft|soat|oas|imt|agent|ffct)-[A-Za-z0-9_-]{20,}"),
    _rule("gitlab-runner", r"\bGR1348941[A-Za-z0-9_-]{20,}"),
    _rule("bitbucket", r"\bATBB[A-Za-z0-9_=.-]{28,}"),
    _rule("atlassian", r"\bATATT3[A-Za-z0-9_=.-]{40,}"),
    _rule("npm", r"\bnpm_[A-Za-z0-9]{36}\b"),
    _rule("pypi", r"\bpypi-AgE[A-Za-z0-9_-]{50,}"),
    _rule("docker-hub", r"\bdckr_pat_[A-Za-z0-9_-]{24,}"),
    _rule("hugging-face", r"\b(?:hf_|api_org_)[A-Za-z0-9]{30,}"),
    _rule("artifactory", r"\b(?:AKCp[A-Za-z0-9]{60,}|cmVmdGtu[A-Za-z0-9]{50,})"),
    _rule("rubygems", r"\brubygems_[a-f0-9]{48}\b"),
    _rule("vault", r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}"),
    _rule("terraform", r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}"),
    _rule("doppler", r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
    _rule("pulumi", r"\bpul-[a-f0-9]{40}\b"),
    # Clouds.
    _rule(
        "aws-access-key",
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z2-7]{16}\b",
    ),
    _rule("gcp-api-key", r"\bAIza[0-9A-Za-z_-]{35}"),
    _rule("gcp-oauth", r"\b(?:ya29\.[0-9A-Za-z_-]{30,}|GOCSPX-[A-Za-z0-9_-]{20,}|1//0[A-Za-z0-9_-]{40,})"),
    _rule("azure-key", r"(?i)\b(?:AccountKey|SharedAccessKey|SharedSecret)=([A-Za-z0-9+/=]{20,})", 1),
    _rule("azure-sas", r"(?i)[?&]sig=([A-Za-z0-9%+/=]{20,})", 1),
    _rule("azure-client-secret", r"\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}"),
    _rule("digitalocean", r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    _rule("alibaba", r"\bLTAI[A-Za-z0-9]{20}\b"),
    _rule(
        "ibm-cloud",
        r"(?i)\b(?:ibm|cloudant|softlayer)[A-Za-z0-9_.-]*(?:key|pass|secret)[A-Za-z0-9_.-]*"
        r"[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9_-]{32,})",
        1,
    ),
    # AI providers.
    _rule("anthropic", r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
    _rule("openai", r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}", 0, _key_shaped),
    _rule("groq", r"\bgsk_[A-Za-z0-9]{48,}"),
    _rule("replicate", r"\br8_[A-Za-z0-9]{37,}"),
    # Payments, messaging, mail, observability.
    _rule("stripe", r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{16,}"),
    _rule("stripe-webhook", r"\bwhsec_[A-Za-z0-9+/=]{24,}"),
    _rule("square", r"\b(?:sq0atp|sq0csp|sq0idp)-[A-Za-z0-9_-]{22,}|\bEAAA[A-Za-z0-9_-]{60}\b"),
    _rule("shopify", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    _rule("slack-token", r"\bxox[abporsce]-[A-Za-z0-9-]{10,}|\bxoxe\.xox[bp]-[A-Za-z0-9-]{10,}"),
    _rule("slack-app-token", r"\bxapp-\d-[A-Za-z0-9-]{10,}"),
    _rule("slack-webhook", r"(?i)hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}"),
    _rule("discord-webhook", r"(?i)discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}"),
    _rule("discord-bot", r"\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}\b"),
    _rule("teams-webhook", r"(?i)\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{40,}"),
    _rule("telegram", r"\b\d{8,10}:AA[A-Za-z0-9_-]{33}"),
    _rule("twilio", r"\bSK[0-9a-fA-F]{32}\b"),
    _rule("sendgrid", r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),
    _rule("mailgun", r"\bkey-[0-9a-f]{32}\b"),
    _rule("mailchimp", r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    _rule("postman", r"\bPMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}\b"),
    _rule("grafana", r"\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})"),
    _rule("sentry", r"\bsntr[ysu]_[A-Za-z0-9+/=_-]{30,}"),
    _rule("new-relic", r"\bNR(?:AK|II|JS)-[A-Za-z0-9]{20,}"),
    _rule(
        "datadog",
        r"(?i)\b(?:dd|datadog)[_-]?(?:api|app)[_-]?key[\"']?\s*[:=]\s*[\"']?([a-f0-9]{32,40})",
        1,
    ),
    _rule("linear", r"\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b"),
    _rule("databricks", r"\bdapi[a-f0-9]{32}(?:-\d)?\b"),
    # Web credentials: JWTs, HTTP auth headers and bearer tokens, credentials in URLs.
    _rule("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    _rule(
        "authorization-header",
        r"(?i)\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:(?:basic|bearer|token|digest|negotiate|apikey|"
        r"sso-key|key)[ \t]+)?([A-Za-z0-9._~+/=:-]{8,})",
        1,
        _not_placeholder,
    ),
    _rule(
        "api-key-header",
        r"(?i)\bx-(?:api|auth|access)-(?:key|token)[\"']?\s*:\s*[\"']?([A-Za-z0-9._~+/=-]{12,})",
        1,
    ),
    _rule("bearer", r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)", 1),
    _rule("basic-auth", r"(?i)\bbasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})", 1, _basic_credentials),
    # scheme://user:password@host — the password may hold '/', the user may be empty.
    _rule(
        "url-password",
        r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@?#]*:([^\s@]+)@[A-Za-z0-9\[]",
        1,
        _url_password,
    ),
    # scheme://TOKEN@host: a user name that is a random token is a credential too.
    _rule("url-token", r"(?i)\b[a-z][a-z0-9+.-]{1,20}://([^\s:/@?#]{16,})@[A-Za-z0-9\[]", 1, _random(16)),
    _rule("curl-user", r"(?:^|\s)(?:-u|--user)[ \t]+[\"']?[^\s:\"']+:([^\s\"']{3,})", 1, _not_placeholder),
    # .netrc: machine HOST login USER password SECRET
    _rule("netrc", r"(?i)\blogin[ \t]+\S+[ \t]+password[ \t]+(\S+)", 1, _not_placeholder),
    # A Docker config, base64: {"auths": ... } in a Kubernetes Secret or a CI variable.
    _rule("docker-config", r"(?i)\.?dockerconfigjson[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9+/=]{20,})", 1),
    # Prose: "the password is Tr0ub4dor&3", "token was 8f9a…". Only values that are no plain word.
    _rule(
        "prose",
        r"(?i)\b(?:password|passphrase|passwd|pwd|secret|token|api[ _-]?key)[ \t]+(?:is|was|=|of)[ \t]+"
        r"[\"'`]?([^\s\"'`,;]{6,})",
        1,
        lambda value: _not_placeholder(value) and not _number_like(value) and not _plain_words(value),
    ),
)


def _rule_sub(rule: Rule) -> Callable[[str], str]:
    check = rule.check

    def replace(m: Match) -> str:
        whole = m.group(0) or ""
        secret = m.group(rule.group)
        if secret is None or secret == REDACTED or (check is not None and not check(secret)):
            return whole
        start, end = m.start(rule.group) - m.start(0), m.end(rule.group) - m.start(0)
        return whole[:start] + REDACTED + whole[end:]

    return lambda text: rule.pattern.sub(replace, text)


def _flag_sub() -> Callable[[str], str]:
    pattern = linear(_FLAG)

    def replace(m: Match) -> str:
        whole = m.group(0) or ""
        for g in (2, 3, 4):
            value = m.group(g)
            if value is not None and _name_allowed(m.group(1) or "") and _strong_value(value, g != 4, "="):
                start, end = m.start(g) - m.start(0), m.end(g) - m.start(0)
                return whole[:start] + REDACTED + whole[end:]
        return whole

    return lambda text: pattern.sub(replace, text)


_STEPS: tuple[Callable[[str], str], ...] = (
    *(_rule_sub(rule) for rule in RULES),
    _assignment_sub(_NAME_VALUE, strong=True),
    _assignment_sub(_ASSIGNMENTS[0], strong=True),
    _assignment_sub(_ASSIGNMENTS[1], strong=False),
    _flag_sub(),
)
# A redaction can join what a rule split (a key block ending a value); a few passes settle it.
_MAX_PASSES = 4


# Every rule's pattern in one: most text matches none of them, and then one search decides.
CANDIDATES = any_of(
    [rule.pattern.pattern for rule in RULES] + [p.pattern for p in (*_ASSIGNMENTS, _NAME_VALUE)] + [_FLAG]
)


def redact(text: str) -> str:
    """``text`` with every credential replaced by ``[redacted]``; multi-line; idempotent."""
    if CANDIDATES.search(text) is None:
        return text
    for _ in range(_MAX_PASSES):
        before = text
        for step in _STEPS:
            text = step(text)
        if text == before:
            break
    return text


_TOKEN = linear(r"[A-Za-z0-9_+/=.~-]{16,}")


def redact_name(text: str) -> str:
    """A name (engine, language, branch): :func:`redact`, and any random-looking run of 16+ characters.

    Names are words; a token in one is a secret whatever its format, even one
    the parser lower-cased (``spec.repository.language``).
    """
    return _TOKEN.sub(
        lambda m: REDACTED if looks_random(m.group(0) or "", 16) else m.group(0) or "", redact(text)
    )


def contains_secret(text: str) -> bool:
    """True when :func:`redact` would change ``text``."""
    return redact(text) != text


# The name callers have used since the first release.
redact_secrets = redact
