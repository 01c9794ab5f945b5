"""The secret formats scanners know, as RE2 rules: key blocks, provider tokens, URL and header credentials.

Each :class:`Rule` names a format, its pattern, the group that is the secret
(0: the whole match) and an optional check that may veto a candidate
(:mod:`osmia.memory.secret_values`). Shapes, not examples: a prefix and the
alphabet and length that follow it, as gitleaks and detect-secrets describe them. Where the
prefix alone is unmistakable (``npm_``, ``lin_api_``, ``AGE-SECRET-KEY-1``), the length is a
minimum: a token one character longer than the format says is still that secret, never text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from osmia.memory.linear import LinearPattern, linear
from osmia.memory.secret_values import (
    basic_credentials,
    generated_value,
    key_shaped,
    mixed_value,
    not_placeholder,
    number_like,
    plain_words,
    random_value,
    url_password,
)


@dataclass(frozen=True)
class Rule:
    """One secret format: ``group`` is the part replaced; ``check`` may veto a candidate."""

    name: str
    pattern: LinearPattern
    group: int = 0
    check: Callable[[str], bool] | None = None


def _rule(name: str, pattern: str, group: int = 0, check: Callable[[str], bool] | None = None) -> Rule:
    return Rule(name, linear(pattern), group, check)


_BLOCK_KEY = r"[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?"

RULES: tuple[Rule, ...] = (
    # Private keys (PEM, OpenSSH, PGP, PKCS#8, encrypted): the whole block, across lines; an
    # unterminated block is redacted to the end of the text.
    _rule(
        "private-key",
        rf"(?is)-----BEGIN {_BLOCK_KEY}-----.*?(?:-----END {_BLOCK_KEY}-----|$)",
    ),
    _rule("putty-key", r"(?s)PuTTY-User-Key-File-\d+:.*?(?:Private-MAC:[ \t]*[0-9a-fA-F]+|$)"),
    _rule("age-key", r"\bAGE-SECRET-KEY-1[0-9A-Z]{58,}"),
    # Source hosts and registries.
    _rule("github", r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}"),
    _rule("github-fine-grained", r"\bgithub_pat_[A-Za-z0-9_]{40,}"),
    _rule("gitlab", r"\bgl(?:pat|ptt|dt|rt|cbt|ft|soat|oas|imt|agent|ffct)-[A-Za-z0-9_-]{20,}"),
    _rule("gitlab-runner", r"\bGR1348941[A-Za-z0-9_-]{20,}"),
    _rule("bitbucket", r"\bATBB[A-Za-z0-9_=.-]{28,}"),
    _rule("atlassian", r"\bATATT3[A-Za-z0-9_=.-]{40,}"),
    _rule("npm", r"\bnpm_[A-Za-z0-9]{36,}"),
    _rule("pypi", r"\bpypi-AgE[A-Za-z0-9_-]{50,}"),
    _rule("docker-hub", r"\bdckr_pat_[A-Za-z0-9_-]{24,}"),
    _rule("hugging-face", r"\b(?:hf_|api_org_)[A-Za-z0-9]{30,}"),
    _rule("artifactory", r"\b(?:AKCp[A-Za-z0-9]{60,}|cmVmdGtu[A-Za-z0-9]{50,})"),
    _rule("rubygems", r"\brubygems_[a-f0-9]{48,}"),
    _rule("vault", r"\bhv[sbr]\.[A-Za-z0-9_-]{24,}"),
    _rule("terraform", r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}"),
    _rule("doppler", r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
    _rule("pulumi", r"\bpul-[a-f0-9]{40,}"),
    # Clouds.
    # Real key ids use base32 ([A-Z2-7]); any digit is accepted, as in older scanner rules: a
    # 20-character upper-case token with one of these prefixes is a key id in practice.
    _rule(
        "aws-access-key",
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}\b",
    ),
    _rule("gcp-api-key", r"\bAIza[0-9A-Za-z_-]{35}"),
    _rule("gcp-oauth", r"\b(?:ya29\.[0-9A-Za-z_-]{30,}|GOCSPX-[A-Za-z0-9_-]{20,}|1//0[A-Za-z0-9_-]{40,})"),
    _rule("azure-key", r"(?i)\b(?:AccountKey|SharedAccessKey|SharedSecret)=([A-Za-z0-9+/=]{20,})", 1),
    _rule("azure-sas", r"(?i)[?&]sig=([A-Za-z0-9%+/=]{20,})", 1),
    _rule("azure-client-secret", r"\b[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}"),
    _rule("digitalocean", r"\bdo[opr]_v1_[a-f0-9]{64,}"),
    _rule("alibaba", r"\bLTAI[A-Za-z0-9]{20}\b"),
    _rule(
        "ibm-cloud",
        r"(?i)\b(?:ibm|cloudant|softlayer)[A-Za-z0-9_.-]*(?:key|pass|secret)[A-Za-z0-9_.-]*"
        r"[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9_-]{32,})",
        1,
    ),
    # AI providers.
    _rule("anthropic", r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
    _rule("openai", r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}", 0, key_shaped),
    _rule("groq", r"\bgsk_[A-Za-z0-9]{48,}"),
    _rule("replicate", r"\br8_[A-Za-z0-9]{37,}"),
    # Payments, messaging, mail, observability.
    _rule("stripe", r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{16,}"),
    _rule("stripe-webhook", r"\bwhsec_[A-Za-z0-9+/=]{24,}"),
    _rule("square", r"\b(?:sq0atp|sq0csp|sq0idp)-[A-Za-z0-9_-]{22,}|\bEAAA[A-Za-z0-9_-]{60}\b"),
    _rule("shopify", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32,}"),
    _rule("slack-token", r"\bxox[abporsce]-[A-Za-z0-9-]{10,}|\bxoxe\.xox[bp]-[A-Za-z0-9-]{10,}"),
    _rule("slack-app-token", r"\bxapp-\d-[A-Za-z0-9-]{10,}"),
    _rule("slack-webhook", r"(?i)hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/_-]{20,}"),
    _rule("discord-webhook", r"(?i)discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}"),
    _rule("discord-bot", r"\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}\b"),
    _rule("teams-webhook", r"(?i)\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{40,}"),
    _rule("telegram", r"\b\d{5,16}:AA[A-Za-z0-9_-]{32,33}\b"),
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
    _rule("linear", r"\blin_(?:api|oauth)_[A-Za-z0-9]{40,}"),
    # SaaS tokens with a prefix of their own.
    _rule("planetscale", r"\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.-]{32,}"),
    _rule("figma", r"\bfigd_[A-Za-z0-9_-]{40,}"),
    _rule("notion", r"\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,})\b"),
    _rule("airtable", r"\bpat[A-Za-z0-9]{14}\.[a-f0-9]{64}\b"),
    _rule("mapbox-secret", r"\bsk\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{20,}"),
    _rule("okta", r"(?i)\bSSWS[ \t]+([A-Za-z0-9_-]{40,})", 1),
    _rule("nuget", r"\boy2[a-z0-9]{43}\b"),
    _rule("databricks", r"\bdapi[a-f0-9]{32}(?:-\d)?\b"),
    # Web credentials: JWTs, HTTP auth headers and bearer tokens, credentials in URLs.
    _rule("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*"),
    _rule(
        "authorization-header",
        r"(?i)\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?(?:(?:basic|bearer|token|digest|negotiate|apikey|"
        r"sso-key|key)[ \t]+)?([A-Za-z0-9._~+/=:-]{8,})",
        1,
        not_placeholder,
    ),
    _rule(
        "api-key-header",
        r"(?i)\bx-(?:api|auth|access)-(?:key|token)[\"']?\s*:\s*[\"']?([A-Za-z0-9._~+/=-]{12,})",
        1,
    ),
    _rule("bearer", r"(?i)\bbearer[ \t]+([A-Za-z0-9._~+/-]{16,}=*)", 1),
    _rule("basic-auth", r"(?i)\bbasic[ \t]+([A-Za-z0-9+/]{8,}={0,2})", 1, basic_credentials),
    # scheme://user:password@host — the password may hold '/', the user may be empty.
    _rule(
        "url-password",
        r"(?i)\b[a-z][a-z0-9+.-]{1,20}://[^\s:/@?#]*:([^\s@]+)@[A-Za-z0-9\[]",
        1,
        url_password,
    ),
    # scheme://TOKEN@host: a user name that is a random token is a credential too.
    _rule(
        "url-token", r"(?i)\b[a-z][a-z0-9+.-]{1,20}://([^\s:/@?#]{16,})@[A-Za-z0-9\[]", 1, random_value(16)
    ),
    _rule("curl-user", r"(?:^|\s)(?:-u|--user)[ \t]+[\"']?[^\s:\"']+:([^\s\"']{3,})", 1, not_placeholder),
    # .netrc: machine HOST login USER password SECRET
    _rule("netrc", r"(?i)\blogin[ \t]+\S+[ \t]+password[ \t]+(\S+)", 1, not_placeholder),
    # A Docker config, base64: {"auths": ... } in a Kubernetes Secret or a CI variable.
    _rule("docker-config", r"(?i)\.?dockerconfigjson[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9+/=]{20,})", 1),
    # Prose: "the password is Tr0ub4dor&3", "token was 8f9a…". Only values that are no plain word.
    _rule(
        "prose",
        r"(?i)\b(?:password|passphrase|passwd|pwd|secret|token|api[ _-]?key)[ \t]+(?:is|was|=|of)[ \t]+"
        r"[\"'`]?([^\s\"'`,;]{6,})",
        1,
        lambda value: not_placeholder(value) and not number_like(value) and not plain_words(value),
    ),
    # ... with a few words between ("the password for the admin UI is Summer2024!"): a value that
    # mixes letters with digits or signs, as a password does and a word or size does not.
    _rule(
        "prose-apart",
        r"(?i)\b(?:password|passphrase|passwd|secret|token|api[ _-]?key)(?:[ \t]+[A-Za-z][\w.-]{0,30}){1,4}?"
        r"[ \t]+(?:is|was)[ \t]+[\"'`]?([^\s\"'`,;]{8,})",
        1,
        mixed_value,
    ),
    # ... or right after the noun ("with secret wJalrXUtnFEMI/K7MDENG…", "auth token 0123…-…"): only a
    # value shaped like a generated one (random, or a UUID).
    _rule(
        "prose-adjacent",
        r"(?i)\b(?:password|passphrase|secret|token|api[ _-]?key|access[ _-]?key|secret[ _-]?key|pat"
        r"|personal[ _-]access[ _-]token)"
        r"[ \t]+[\"'`]?([A-Za-z0-9_+/=.~!@#$%^&*-]{16,})",
        1,
        generated_value,
    ),
    # ... or quoted: "with password 'Tr0ub4dor&3'" (a password-like value, not "the password reset
    # email says 'Reset your password'"), "the passphrase for the GPG key is 'correct horse battery
    # staple'" (a passphrase is words).
    _rule(
        "prose-quoted",
        r"(?i)\b(?:password|passwd)(?:[ \t]+[A-Za-z][\w.-]{0,30}){0,3}?[ \t]+"
        r"(?:is[ \t]+|was[ \t]+)?[\"'`]([^\"'`\r\n]{4,})[\"'`]",
        1,
        mixed_value,
    ),
    _rule(
        "prose-passphrase",
        r"(?i)\bpassphrase(?:[ \t]+[A-Za-z][\w.-]{0,30}){0,5}?[ \t]+(?:is[ \t]+|was[ \t]+)?"
        r"[\"'`]([^\"'`\r\n]{4,})[\"'`]",
        1,
        not_placeholder,
    ),
    # A .pgpass line: host:port:database:user:password.
    _rule("pgpass", r"\b[A-Za-z*][\w.*-]*:(?:\d{2,5}|\*):[\w.*-]+:[\w.*-]+:([^\s:]{3,})", 1, not_placeholder),
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
        r"|helm[ \t]+registry[ \t]+login)\b[^\n|;&]{0,120}?[ \t]-p[ \t]+[\"']?([^\s\"']{3,})",
        1,
        not_placeholder,
    ),
    _rule(
        "redis-password",
        r"\b(?i:redis-cli)\b[^\n|;&]{0,120}?[ \t]-a[ \t]+[\"']?([^\s\"']{3,})",
        1,
        not_placeholder,
    ),
    # Password hashes (htpasswd, /etc/shadow, bcrypt): offline cracking material.
    _rule("password-hash", r"\$(?:apr1|2[abxy]|1|5|6|y|argon2(?:id|i|d))\$[./A-Za-z0-9$=,+]{16,}"),
)
