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
    aws_secret_key,
    basic_credentials,
    flag_token,
    generated_value,
    key_shaped,
    looks_random,
    mixed_token,
    mixed_value,
    not_placeholder,
    number_like,
    password_value,
    plain_words,
    random_value,
    spoken_password,
    url_password,
    vault_legacy,
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


_BLOCK_KEY = r"[A-Z0-9 ]*PRIVATE[ \t]+KEY(?:[ \t]+BLOCK)?"
# Keys that are secrets by what they do ("the signing key is …", "encryption key …"), as prose names them.
_KEY_NOUNS = r"(?:signing|encryption|decryption|license|licence|master|hmac|webhook|session|deploy)[ _-]?key"
# An AWS key id, and what may stand between it and its secret key: a few signs (" / ", ",", ":",
# a line break), or up to three short words ("and", "secret key:").
_AWS_ID = r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}"
_AWS_GAP = r"(?:[^A-Za-z0-9+]{1,6}|[^A-Za-z0-9+\r\n]{1,4}(?:[A-Za-z]{1,16}[^A-Za-z0-9+\r\n]{1,4}){1,3})"

RULES: tuple[Rule, ...] = (
    # Private keys (PEM, OpenSSH, PGP, PKCS#8, encrypted): the whole block, across lines; an
    # unterminated block is redacted to the end of the text.
    # The dashes may be set apart by spaces (``----- BEGIN RSA PRIVATE KEY -----``).
    _rule(
        "private-key",
        rf"(?is)-{{3,}}[ \t]*BEGIN[ \t]+{_BLOCK_KEY}[ \t]*-{{3,}}.*?"
        rf"(?:-{{3,}}[ \t]*END[ \t]+{_BLOCK_KEY}[ \t]*-{{3,}}|$)",
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
    # Vault's older service tokens: s. and 24 characters (a random mix of cases and digits).
    _rule("vault-legacy", r"\bs\.[A-Za-z0-9]{24}\b", 0, vault_legacy),
    _rule("sonarqube", r"\bsq[pua]_[a-f0-9]{40,}"),
    _rule("terraform", r"\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,}"),
    _rule("doppler", r"\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,}"),
    _rule("pulumi", r"\bpul-[a-f0-9]{40,}"),
    # Clouds.
    # Real key ids use base32 ([A-Z2-7]); any digit is accepted, as in older scanner rules: a
    # 20-character upper-case token with one of these prefixes is a key id in practice.
    # A secret access key written right after (or before) its key id with no name of its own
    # (``AKIA… / wJalr…``, a credentials.csv line): a run of base64 (40 characters in the format, 30 or
    # more taken) a few signs or words away.
    _rule(
        "aws-secret-after-id",
        rf"\b{_AWS_ID}{_AWS_GAP}([A-Za-z0-9/+]{{30,}})(?:[^A-Za-z0-9/+]|$)",
        1,
        aws_secret_key,
    ),
    _rule(
        "aws-secret-before-id",
        rf"(?:^|[^A-Za-z0-9/+])([A-Za-z0-9/+]{{30,}}){_AWS_GAP}{_AWS_ID}\b",
        1,
        aws_secret_key,
    ),
    _rule(
        "aws-access-key",
        r"\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}\b",
    ),
    _rule("gcp-api-key", r"\bAIza[0-9A-Za-z_-]{35}"),
    _rule("gcp-oauth", r"\b(?:ya29\.[0-9A-Za-z_-]{30,}|GOCSPX-[A-Za-z0-9_-]{20,}|1//0[A-Za-z0-9_-]{40,})"),
    _rule("azure-key", r"(?i)\b(?:AccountKey|SharedAccessKey|SharedSecret)=([A-Za-z0-9+/=]{20,})", 1),
    _rule("azure-sas", r"(?i)[?&]sig=([A-Za-z0-9%+/=]{20,})", 1),
    # A function key or authorisation code in a URL's query (Azure Functions' ?code=…, OAuth codes):
    # any host, a long random value.
    _rule(
        "url-code",
        r"(?i)[?&;](?:code|auth_?code|access_?code)=([A-Za-z0-9%_+/=.~-]{20,})",
        1,
        mixed_token(20),
    ),
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
    # A bot token, also inside its API URL (https://api.telegram.org/bot123…:AA…/sendMessage).
    _rule("telegram", r"(?:\b|(?i:bot))(\d{5,16}:AA[A-Za-z0-9_-]{32,})", 1),
    _rule("twilio", r"\bSK[0-9a-fA-F]{32}\b"),
    _rule("sendgrid", r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),
    _rule("mailgun", r"\bkey-[0-9a-f]{32}\b"),
    _rule("mailchimp", r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    _rule("postman", r"\bPMAK-[A-Fa-f0-9]{24}-[A-Fa-f0-9]{34}\b"),
    _rule("grafana", r"\b(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2})"),
    _rule("sentry", r"\bsntry[su]_[A-Za-z0-9+/=_-]{30,}"),
    _rule("new-relic", r"\bNR(?:AK|II|JS)-[A-Za-z0-9]{20,}"),
    _rule(
        "datadog",
        r"(?i)\b(?:dd|datadog)[_ -]?(?:api|app|application)[_ -]?key[\"']?(?:\s*[:=]\s*|[ \t]+(?:is[ \t]+)?)"
        r"[\"']?([a-f0-9]{32,40})\b",
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
    # More tokens with a prefix of their own (twenty-fifth session: each of these passed redaction
    # written bare in a sentence). Each format as its provider documents it or as public scanner
    # rules read it; counts kept short where the format is long (a repeat of n characters is n
    # instructions of the step set's program; the prefix is what tells).
    _rule("xai", r"\bxai-[A-Za-z0-9]{60,}"),
    _rule("perplexity", r"\bpplx-[A-Za-z0-9]{40,}"),
    _rule("langsmith", r"\blsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}\b"),
    _rule("pinecone", r"\bpcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}"),
    _rule("elevenlabs", r"\bsk_[a-f0-9]{48}\b"),
    _rule("supabase", r"\b(?:sbp_[a-f0-9]{40}\b|sb_secret_[A-Za-z0-9_-]{20,})"),
    _rule("neon", r"\bnapi_[a-z0-9]{40,}"),
    _rule("fly-io", r"\b(?:fo1_[A-Za-z0-9_-]{40,}|fm[12][ar]?_[A-Za-z0-9+/]{60,}={0,3})"),
    _rule("heroku", r"\bHRKU-AA[A-Za-z0-9_-]{50,}"),
    _rule("netlify", r"\bnfp_[A-Za-z0-9]{30,}"),
    _rule("render", r"\brnd_[A-Za-z0-9]{30,}"),
    _rule("tailscale", r"\btskey-(?:[a-z]+-)?[A-Za-z0-9]{6,}-[A-Za-z0-9]{16,}"),
    _rule("cloudflare-origin-ca", r"\bv1\.0-[a-f0-9]{24}-[a-f0-9]{60,}"),
    _rule("circleci", r"\bCCI(?:PAT|PRJ)_[A-Za-z0-9]{20,}_[a-f0-9]{40}\b"),
    _rule("harness", r"\b(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}\b"),
    _rule("octopus-deploy", r"\bAPI-[A-Z0-9]{26}\b", 0, random_value(26)),
    _rule("infracost", r"\bico-[A-Za-z0-9]{32}\b", 0, random_value(32)),
    _rule("dynatrace", r"\bdt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{60,}"),
    _rule("defined-networking", r"\bdnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{40,}"),
    _rule("scalingo", r"\btk-us-[A-Za-z0-9_-]{40,}"),
    _rule("frameio", r"\bfio-u-[A-Za-z0-9_=-]{60,}"),
    _rule("readme", r"\brdme_[a-z0-9]{60,}"),
    _rule("prefect", r"\bpnu_[A-Za-z0-9]{36}\b"),
    _rule("typeform", r"\btfp_[A-Za-z0-9_.=-]{50,}"),
    _rule("clojars", r"(?i)\bCLOJARS_[a-z0-9]{60}\b"),
    _rule("contentful", r"\bCFPAT-[A-Za-z0-9_-]{43}\b"),
    _rule("adafruit", r"\baio_[A-Za-z0-9]{28}\b", 0, random_value(28)),
    _rule("adobe", r"\bp8e-[A-Za-z0-9]{32}\b", 0, random_value(32)),
    _rule("clickup", r"\bpk_\d{6,9}_[A-Z0-9]{32}\b"),
    _rule("openshift", r"\bsha256~[A-Za-z0-9_-]{43}"),
    _rule("dropbox", r"\bsl\.[A-Za-z0-9_=-]{60,}"),
    _rule("firebase-fcm", r"\bAAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{60,}"),
    _rule(
        "onepassword",
        r"\bops_eyJ[A-Za-z0-9+/]{60,}={0,3}|\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b",
    ),
    _rule("yandex", r"\b(?:AQVN[A-Za-z0-9_-]{35,38}\b|t1\.[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]{60,}={0,2})"),
    # Payments, mail and travel APIs.
    _rule("shippo", r"\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b"),
    _rule("easypost", r"\bEZ[AT]K[A-Za-z0-9]{54}\b"),
    _rule("flutterwave", r"\bFLW(?:SECK|PUBK)_TEST-?[a-hA-H0-9]{12,32}(?:-X)?\b"),
    _rule("duffel", r"\bduffel_(?:test|live)_[A-Za-z0-9_=-]{43}"),
    _rule("brevo", r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b"),
    _rule("maxmind", r"\b[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk\b"),
    _rule("clickhouse", r"\b4b1d[A-Za-z0-9]{38}\b", 0, random_value(38)),
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
    # ... also when a password follows it (``https://<40 hex>:x-oauth-basic@github.com``).
    _rule(
        "url-token-user",
        r"(?i)\b[a-z][a-z0-9+.-]{1,20}://([^\s:/@?#]{16,}):[^\s@]*@[A-Za-z0-9\[]",
        1,
        random_value(16),
    ),
    _rule("curl-user", r"(?:^|\s)(?:-u|--user)[ \t]+[\"']?[^\s:\"']+:([^\s\"']{3,})", 1, not_placeholder),
    # .netrc: machine HOST login USER password SECRET
    _rule("netrc", r"(?i)\blogin[ \t]+\S+[ \t]+password[ \t]+(\S+)", 1, not_placeholder),
    # A Docker config, base64: {"auths": ... } in a Kubernetes Secret or a CI variable.
    _rule("docker-config", r"(?i)\.?dockerconfigjson[\"']?\s*[:=]\s*[\"']?([A-Za-z0-9+/=]{20,})", 1),
    # Prose: "the password is Tr0ub4dor&3", "token was 8f9a…". Only values that are no plain word.
    _rule(
        "prose",
        rf"(?i)\b(?:password|passphrase|passwd|pwd|secret|token|api[ _-]?key|{_KEY_NOUNS})"
        r"[ \t]+(?:is|was|=|of|to)[ \t]+"
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
        r"|personal[ _-]access[ _-]token|private[ _-]key|app(?:lication)?[ _-]key|subscription[ _-]key"
        rf"|{_KEY_NOUNS})"
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
    # A password after a label of its own (``PASS=Summer2024!``, ``pw: Winter2025#``), or in prose
    # right after the noun ("with password Summer2024!", "passphrase zDTn7qLWaYyD"): a value that mixes
    # letters with digits or signs, as a password does and "password reset" or "pw: see vault" does not.
    _rule(
        "password-label",
        r"(?i)\b(?:password|passwd|passphrase|passcode|pwd|pass|pw)[\"']?"
        r"(?:[ \t]*(?:[:=]|=>|->)|[ \t]+[–—-])[ \t]*"
        r"[\"'`]?([^\s\"'`;]{8,})",
        1,
        password_value,
    ),
    _rule(
        "password-adjacent",
        r"(?i)\b(?:password|passwd|passphrase|passcode)[ \t]+[\"'`]?([^\s\"'`;]{8,})",
        1,
        password_value,
    ),
    # ... after the loosest labels ("user admin pass Summer2024!", "pw Winter2025#"), and in a user and
    # password pair ("credentials admin/Summer2024!", "login with admin / xopv152!"), only a value with a
    # digit and a sign or a random mix of cases ("pass the tests" and "tests pass TestLogin2" are prose).
    # ("pass max_attempts=4 to the client" passes a setting: a value holding "=" is none).
    _rule(
        "pass-adjacent", r"(?i)\b(?:pass|pw|pwd)[ \t]+[\"'`]?([^\s\"'`;=]{8,})(?:[^=]|$)", 1, spoken_password
    ),
    _rule(
        "user-password-pair",
        r"(?i)\b(?:creds?|credentials|logins?|log[ \t]+in|sign[ \t]+in|user(?:name)?)"
        r"(?:[ \t]+(?:are|is|was|were|with|as|using))*[ \t]*[:=]?[ \t]+[\"'`]?[A-Za-z0-9._@+-]{1,64}"
        r"[ \t]*[/:][ \t]*([^\s\"'`/:]{8,})",
        1,
        spoken_password,
    ),
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
    # A session cookie (``sessionid=…``, ``JSESSIONID=…``, ``connect.sid=…``): whoever has it is logged in.
    _rule(
        "session-cookie",
        r"(?i)\b(?:session(?:_?id|_?token|_?key)?|sid|connect\.sid|phpsessid|jsessionid|_session)=[\"']?"
        r"([A-Za-z0-9%_+/=.:-]{16,})",
        1,
        generated_value,
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
    # step set's program, times each command): zip -P,
    # 7z -p (glued), the MongoDB tools' -p/--password, sqlcmd -P, the OpenLDAP tools' -w, htpasswd -b
    # (the value after the user), macOS ``security add-generic-password -w``, smbclient -U user%pw,
    # and ``echo … | … --password-stdin``.
    _rule(
        "cli-password",
        r"\b(?:(?:zip|zipcloak)\b[^\n|;&]*?[ \t]-P[ \t]+"
        r"|7z[a-z]?\b[^\n|;&]*?[ \t]-p"
        r"|mongo(?:sh|dump|restore|export|import)?\b[^\n|;&]*?[ \t](?:-p|--password)(?:=|[ \t]+)"
        r"|sqlcmd\b[^\n|;&]*?[ \t]-P[ \t]*"
        r"|ldap(?:search|add|modify|delete|passwd|whoami|compare|modrdn)\b[^\n|;&]*?[ \t]-w[ \t]+"
        r"|htpasswd\b[^\n|;&]*?[ \t]-[A-Za-z]*b[A-Za-z]*[ \t]+\S+[ \t]+\S+[ \t]+"
        r"|security[ \t]+add-(?:generic|internet)-password\b[^\n|;&]*?[ \t]-w[ \t]+"
        r"|smbclient\b[^\n|;&]*?[ \t](?:-U|--user)(?:=|[ \t]+)[\"']?[^\s\"'%]+%"
        r")[\"']?([^\s\"'-][^\s\"']{2,})",
        1,
        not_placeholder,
    ),
    _rule(
        "password-stdin",
        r"\becho[ \t]+(?:-n[ \t]+)?[\"']?([^\s\"'|$]{6,})[\"']?[ \t]*\|[^\n]*?--password-stdin",
        1,
        not_placeholder,
    ),
    # A name that says secret, then its value on the next line (YAML: ``token:`` then an indented
    # value, or a block scalar ``secret: |``).
    _rule(
        "yaml-next-line",
        r"(?im)^[ \t]*-?[ \t]*[\w.-]*"
        r"(?:password|passwd|secret|token|api[_-]?key|private[_-]?key|credentials?)[\w.-]*"
        r"[ \t]*:[ \t]*(?:[|>][-+]?)?[ \t]*\r?\n[ \t]+([^\s#][^\s]{7,})",
        1,
        lambda value: not_placeholder(value) and (generated_value(value) or password_value(value)),
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
    _rule(
        "ssh-keygen-passphrase-bare",
        r"\bssh-keygen\b[^\n|;&]{0,120}?[ \t]-[NP][ \t]+([^\s\"'-]\S{2,})",
        1,
        not_placeholder,
    ),
    # Password hashes (htpasswd, /etc/shadow, bcrypt): offline cracking material.
    _rule("password-hash", r"\$(?:apr1|2[abxy]|1|5|6|y|argon2(?:id|i|d))\$[./A-Za-z0-9$=,+]{16,}"),
)

# Formats whose prefix no word ends in, and that a run may write onto a word: a Go subtest
# ("TestAuth/valid_token_ghp_…"), a test named after a key ("TestCharge_sk_live_…"), a key id
# with a suffix ("AKIA…_backup"), colour codes left around it ("[31mghp_…"). A word boundary
# before the prefix (or after a fixed-length token) missed each of these.
GLUED = frozenset(
    {
        "age-key", "github", "github-fine-grained", "gitlab", "gitlab-runner", "bitbucket", "atlassian",
        "npm", "pypi", "docker-hub", "hugging-face", "rubygems", "vault", "sonarqube", "doppler",
        "pulumi", "aws-access-key", "gcp-api-key", "gcp-oauth", "digitalocean", "alibaba", "anthropic",
        "groq", "replicate", "stripe", "stripe-webhook", "shopify", "slack-token", "slack-app-token",
        "twilio", "sendgrid", "mailgun", "postman", "grafana", "sentry", "new-relic", "linear",
        "planetscale", "figma", "nuget", "databricks", "jwt",
    }
)  # fmt: skip


def _generated(value: str) -> bool:
    """A token found inside a word must also look generated: a digit, and random
    (:func:`~osmia.memory.secret_values.looks_random`), so a snake-case name that happens to hold
    a prefix (``risk_test_configurationLoaded``) is not taken for one."""
    return any(c.isdigit() for c in value) and looks_random(value, 16)


def _secret_like(value: str) -> bool:
    """A value given on a command line that may be a secret: six characters or more, and no word,
    number or placeholder (``policies=default``, ``ttl=3600`` are settings)."""
    return len(value) >= 6 and not_placeholder(value) and not number_like(value) and not plain_words(value)


def unbounded(pattern: str) -> str:
    """A format's pattern without its word boundaries."""
    return pattern.removeprefix("\\b").removesuffix("\\b")


# One rule for all of them (one pattern more for redaction's scan, not forty): the token may
# follow a letter, digit or ``_`` and be followed by ``_``. Every format named above is a
# whole-match rule with no check of its own (tests hold it so).
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
