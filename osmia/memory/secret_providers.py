"""Provider credentials: each provider's formats, most with a prefix of their own (``ghp_``, ``xoxb-``,
``AKIA``, ``sk-ant-``), a few by the name the provider gives them (Azure's ``AccountKey=``, a SAS
``sig=``, an AWS secret key next to its key id).

Part of :data:`osmia.memory.secret_formats.RULES`, in this order, between the private-key blocks
and the web credentials. Shapes, not examples: a prefix and the alphabet and length that follow it,
as the providers document them and public scanner rules read them. Where the prefix alone is
unmistakable (``npm_``, ``lin_api_``, ``AGE-SECRET-KEY-1``), the length is a minimum: a token one
character longer than the format says is still that secret, never text. A short or common prefix
(``API-``, ``ico-``) takes only a value that looks generated.
"""

from __future__ import annotations

from osmia.memory.secret_placeholders import not_placeholder
from osmia.memory.secret_rule import Rule
from osmia.memory.secret_rule import rule as _rule
from osmia.memory.secret_values import (
    aws_secret_key,
    base32_token,
    key_shaped,
    mixed_token,
    path_token,
    random_value,
    vault_legacy,
)

__all__ = ["PROVIDER_RULES"]

# An AWS key id, and what may stand between it and its secret key: a few signs (" / ", ",", ":",
# a line break), or up to three short words ("and", "secret key:").
_AWS_ID = r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)[A-Z0-9]{16}"
_AWS_GAP = r"(?:[^A-Za-z0-9+]{1,6}|[^A-Za-z0-9+\r\n]{1,4}(?:[A-Za-z]{1,16}[^A-Za-z0-9+\r\n]{1,4}){1,3})"


def _bitlocker(value: str) -> bool:
    """Every group of a BitLocker recovery password is a multiple of 11 (a checksum of the format)."""
    return all(int(group) % 11 == 0 for group in value.split("-"))


def _filled_in(path: str) -> bool:
    """A template's path, each part one letter repeated after its first (Slack's documented
    ``XXXXXXXXX/YYYYYYYYY/ZZZZ…``, ``TXXXXXXXX/BXXXXXXXX/XXXX…``): no hook's."""
    return all(len(set(part[1:])) == 1 for part in path.split("/") if len(part) > 1)


PROVIDER_RULES: tuple[Rule, ...] = (
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
        0,
        not_placeholder,
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
    _rule("tencent", r"\bAKID[A-Za-z0-9]{32}\b", 0, mixed_token(32)),
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
    # Square's access tokens and application secrets (``sq0idp-`` is an application's public id).
    _rule("square", r"\b(?:sq0atp|sq0csp)-[A-Za-z0-9_-]{22,}|\bEAAA[A-Za-z0-9_-]{60}\b"),
    _rule("shopify", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32,}"),
    _rule("slack-token", r"\bxox[abporsce]-[A-Za-z0-9-]{10,}|\bxoxe\.xox[bp]-[A-Za-z0-9-]{10,}"),
    _rule("slack-app-token", r"\bxapp-\d-[A-Za-z0-9-]{10,}"),
    # Webhook URLs: the token in the path is the secret; the host and the fixed path words stay, and
    # the ids before the token where they name the hook and not its workspace (Discord's number,
    # Teams' group and tenant). Slack's workspace and channel ids go with the token.
    _rule(
        "slack-webhook",
        r"(?i)hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/_-]{20,})",
        1,
        lambda path: not _filled_in(path),
    ),
    _rule("discord-webhook", r"(?i)discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_-]{20,})", 1),
    _rule("discord-bot", r"\b[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}\b"),
    # Teams (and the older Office 365 connector host): ``…/webhookb2/<group>@<tenant>/IncomingWebhook/
    # <hex>/<guid>[/V2…]``; what follows ``IncomingWebhook/`` is the secret (all of the path when the
    # word is missing). Each ends where the path does: a marker after it is a redacted token, and the
    # segment before it an id (redaction is idempotent).
    _rule(
        "teams-webhook",
        r"(?i)\.(?:webhook\.office|outlook\.office(?:365)?)\.com/webhook(?:b2)?/"
        r"(?:[A-Za-z0-9@_-]{20,}/IncomingWebhook/)?([A-Za-z0-9@/_-]{30,})(?:$|[^\[A-Za-z0-9@/_-])",
        1,
    ),
    # A webhook on any host whose token is a path segment (Mattermost's and Rocket.Chat's
    # ``/hooks/<token>``, ``/webhooks/<id>/<token>``, ``/webhook/<token>``): the last segment when it
    # looks generated (``/hooks/412345678``, a hook's number, and ``/webhooks/github`` stay).
    _rule(
        "path-webhook",
        r"(?i)/(?:web)?hooks?/(?:[A-Za-z0-9_.-]+/){0,2}"
        r"([A-Za-z0-9_-]{16,})(?:$|[^A-Za-z0-9_/-]|/(?:$|[^\[]))",
        1,
        path_token,
    ),
    # A bot token, also inside its API URL (https://api.telegram.org/bot123…:AA…/sendMessage).
    _rule("telegram", r"(?:\b|(?i:bot))(\d{5,16}:AA[A-Za-z0-9_-]{32,})", 1),
    _rule("twilio", r"\bSK[0-9a-fA-F]{32}\b"),
    # A Twilio auth token (32 hex) written after its account SID with no name of its own
    # (``AC… / …``, ``Client('AC…', '…')``, ``AC…:…`` as basic auth): a few signs or words away.
    _rule("twilio-auth-after-sid", rf"\bAC[0-9a-f]{{32}}{_AWS_GAP}([0-9a-f]{{32}})\b", 1),
    _rule("sendgrid", r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"),
    _rule("mailgun", r"\bkey-[0-9a-f]{32}\b"),
    # ... and its private keys since 2022: 32 hex, then two groups of 8 hex.
    _rule(
        "mailgun-private",
        r"\b[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}\b",
        gate=r"[0-9a-f]-[0-9a-f]{8}-[0-9a-f]{8}\b",
    ),
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
    _rule("heroku", r"\bHRKU-(?:AA)?[A-Za-z0-9_-]{30,}"),
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
    _rule("typeform", r"\btfp_[A-Za-z0-9_.=-]{40,}"),
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
        r"\bops_eyJ[A-Za-z0-9+/_-]{60,}={0,3}|\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b",
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
    # Thirty-first session: formats a probe of 56 providers found unredacted.
    _rule("hubspot", r"\bpat-(?:na|eu|ap)\d-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}\b"),
    _rule("buildkite", r"\bbkua_[a-f0-9]{40}\b"),
    _rule("yandex-oauth", r"\by0_[A-Za-z0-9_-]{50,}"),
    _rule("launchdarkly", r"\b(?:sdk|api)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}\b"),
    # Thirty-fifth session: a probe of 315 secret lines found these unredacted.
    # Braintree's access token (``access_token$production$<merchant>$<32 hex>``).
    _rule("braintree", r"\baccess_token\$(?:production|sandbox|development)\$[a-z0-9]{16}\$[a-f0-9]{32}\b"),
    # An Azure DevOps personal access token: 52 characters of lower-case base32 (a hex digest has
    # 0, 1, 8 or 9 among them; a word has no digit), written bare after "PAT:".
    _rule("azure-devops-pat", r"\b[a-z2-7]{52}\b", 0, base32_token),
    # A Fernet key given to its constructor (32 bytes, url-safe base64).
    _rule("fernet", r"\bFernet\([ \t]*b?[\"']([A-Za-z0-9_-]{43}=)[\"']", 1),
    # Datadog's 32-hex API key written after the vendor's name and a colon ("Datadog: 5fe0…").
    _rule("datadog-named", r"(?i)\b(?:datadog|dd)\b[\"']?[ \t]*[:=][ \t]*[\"']?([a-f0-9]{32})\b", 1),
    # Forty-sixth session: formats a blind set found unredacted.
    # A BitLocker recovery password: eight groups of six digits, each a multiple of 11.
    _rule("bitlocker-recovery", r"\b\d{6}(?:-\d{6}){7}\b", 0, _bitlocker),
    # A Bitcoin private key in wallet import format: base58, 51 characters after ``5`` (uncompressed)
    # or 52 after ``K`` or ``L`` (an address is 26-35 characters; a transaction id is hex).
    _rule(
        "bitcoin-wif", r"\b(?:5[1-9A-HJ-NP-Za-km-z]{50}|[KL][1-9A-HJ-NP-Za-km-z]{51})\b", 0, random_value(40)
    ),
    # Resend's API key; Bundler's credentials for a gem server, named for its host
    # (``BUNDLE_GEMS__CONTRIBSYS__COM=user:password``).
    _rule("resend", r"\bre_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}\b"),
    _rule(
        "bundler-credentials",
        r"\bBUNDLE_[A-Z0-9_]+__[A-Z]{2,10}[\"']?[ \t]*[:=][ \t]*[\"']?([^\s\"':]+:[^\s\"']+)",
        1,
    ),
    # GitHub's recovery codes (five and five hex digits) on lines of their own, one or more a line.
    _rule(
        "github-recovery-codes",
        r"(?m)^[ \t]*(?:[-*+][ \t]+)?((?:[0-9a-f]{5}-[0-9a-f]{5}[ \t,]+)*[0-9a-f]{5}-[0-9a-f]{5})[ \t]*$",
        1,
        lambda value: any(c.isdigit() for c in value) and any(c.isalpha() for c in value),
        r"\b[0-9a-f]{5}-[0-9a-f]{5}\b",
    ),
    # A one-time link's token in its path (``/password/reset/<token>``, ``/invite/<token>``).
    _rule(
        "link-token",
        r"(?i)/(?:reset|reset-password|password-reset|verify|verify-email|confirm|invite|invitation|magic-link"
        r"|magic|activate|activation)/([A-Za-z0-9_-]{24,})",
        1,
        random_value(24),
    ),
    # An Alchemy node URL's key, a Sumo Logic HTTP source's URL token (the URL is the credential).
    _rule("alchemy", r"(?i)\balchemy(?:api)?\.(?:com|io)/v2/([A-Za-z0-9_-]{32})\b", 1),
    _rule(
        "sumologic-source",
        r"(?i)\bsumologic\.com/receiver/v1/(?:http|otlp|kinesis)/([A-Za-z0-9_=+/-]{20,})",
        1,
    ),
    # Forty-seventh session. Paddle's API key; the second half of an OpenAI key, whose middle is
    # ``T3BlbkFJ`` ("OpenAI" in base64), cut where code splits it into two literals.
    _rule("paddle", r"\bpdl_(?:live|sdbx)_apikey_[a-z0-9]{26}_[A-Za-z0-9]{27}\b"),
    _rule("openai-tail", r"\bT3BlbkFJ[A-Za-z0-9_-]{20,}"),
    # A NATS nkey seed (``SU…``, ``SA…``, ``SO…``: base32, 58 characters); Honeycomb's key in the
    # OpenTelemetry exporter's headers (``x-honeycomb-team=…``); the keys ``az storage account keys
    # list`` prints in its table (``key1  FULL  <88 characters>``). The seed's scan reads twelve of its
    # characters (the whole count cost redaction's first pass over new text ~0.03 ms a run).
    _rule("nats-seed", r"\bS[UAONCXP][A-Z2-7]{56}\b", 0, None, r"\bS[UAONCXP][A-Z2-7]{12}"),
    _rule("honeycomb-header", r"(?i)\bx-honeycomb-team[\"']?[ \t]*[:=][ \t]*[\"']?([A-Za-z0-9_]{20,})\b", 1),
    _rule("azure-storage-keys", r"(?m)^[ \t]*key[12][ \t]+(?:FULL|READ)[ \t]+([A-Za-z0-9+/]{86}==)", 1),
    # Forty-eighth session: Asana's personal access token, Xendit's and WooCommerce's keys, Together
    # AI's, a Salesforce session id (the org id, ``!``, the session).
    _rule("asana-pat", r"\b[12]/\d{14,18}(?:/\d{14,18})?:[a-f0-9]{32}\b"),
    _rule("xendit", r"\bxnd_(?:production|development)_[A-Za-z0-9]{40,}"),
    _rule("woocommerce", r"\bc[ks]_[a-f0-9]{40}\b"),
    _rule("together-ai", r"\btgp_v1_[A-Za-z0-9_-]{40,}"),
    _rule("salesforce-session", r"\b00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80,}"),
    # PagerDuty's Events API key, given as ``routing_key`` (32 hex: a message
    # broker's routing key is words and dots); Algolia's server client made with its app id and key
    # (a browser's ``algoliasearch(…)`` is given the search-only key, published by design).
    _rule(
        "pagerduty-routing-key",
        r"(?i)[\"']?routing_key[\"']?[ \t]*[:=][ \t]*[\"']?([a-f0-9]{32})\b",
        1,
        None,
        r"(?i)routing_key",
    ),
    _rule(
        "algolia-client",
        r"\bSearchClient(?:\.create)?\([ \t]*[\"'][A-Z0-9]{10}[\"'][ \t]*,[ \t]*"
        r"[\"']([a-f0-9]{32})[\"']",
        1,
        None,
        r"\bSearchClient\b",
    ),
    # Forty-ninth session. Adyen's API key: ``AQE``, base64 pieces joined by ``=-`` (its last piece
    # may hold a ``;``).
    _rule("adyen-key", r"\bAQE[A-Za-z0-9+/]{20,}={0,2}-[A-Za-z0-9+/]{20,}={0,2}-[A-Za-z0-9+/=;]{6,}"),
    # Honeycomb's ingest and configuration keys in their current format
    # (``hcaik_01…``, ``hcxik_…``: a kind, ``k_``, 58 lower-case letters and digits); a Cloud Storage
    # HMAC key's access id (``GOOG1`` and 56 more, as an AWS key id is redacted with its secret); a
    # Confluent Cloud API key given as the SASL user name of a JAAS ``PlainLoginModule`` (16 capitals
    # and digits: a person's or service's user name is written otherwise); the secret id of a Nomad
    # or Consul ACL token as their CLIs print it (``Secret ID = <uuid>``, ``SecretID: <uuid>``: the
    # token itself, where an ``Accessor ID`` names it); an access key id and its secret given as two
    # literals (``NewStaticV4("…", "…", "")``, ``new BasicAWSCredentials("AKIA…", "…")``).
    _rule("honeycomb-key", r"\bhc[a-z]{2}k_[0-9a-z]{50,70}\b"),
    _rule("gcs-hmac-id", r"\bGOOG1[A-Z0-9]{50,60}\b"),
    _rule(
        "jaas-api-key-user",
        r"(?i)PlainLoginModule[ \t]+required[^;\r\n]*?\busername[ \t]*=[ \t]*[\"']?((?-i:[A-Z0-9]{16}))\b",
        1,
        lambda value: any(c.isdigit() for c in value) and any(c.isalpha() for c in value),
        r"(?i)PlainLoginModule",
    ),
    _rule(
        "acl-secret-id",
        r"(?i)\bsecret[ \t]?id[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b",
        1,
        None,
        r"(?i)secret[ \t]?id[\"']?[ \t]*[:=]",
    ),
    _rule(
        "key-id-and-secret",
        r"[\"'](?:[A-Z0-9]{20})[\"'][ \t]*,[ \t]*[\"']([A-Za-z0-9/+]{40})[\"']",
        1,
        aws_secret_key,
        r"[\"'][A-Z0-9]{20}[\"'][ \t]*,",
    ),
    # Streaming: Twitch's stream key (``live_<channel id>_<key>``), Amazon IVS's (``sk_<region>_…``);
    # DeepL's API key (a UUID and ``:fx`` for the free plan).
    _rule("twitch-stream-key", r"\blive_\d{6,12}_[A-Za-z0-9]{20,}"),
    _rule("ivs-stream-key", r"\bsk_[a-z]{2}(?:-[a-z]+)+-\d_[A-Za-z0-9]{20,}"),
    _rule("deepl-key", r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:fx\b"),
)
