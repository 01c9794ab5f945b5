"""Secrets in disguise: wrapped, spelled out, split by markup, percent- or hex-encoded, written with
a look-alike letter, or in a form no rule named before (an XML element, SQL, keytool, ssh-keygen,
a key's body without its header). A red-team pass found each of these stored; none may be now,
from any field, and the near misses (ordinary text with the same shapes) stay as written.

Values are generated per test run (fixed seed), never committed.
"""

from __future__ import annotations

import base64
import random
import sqlite3
import string
from pathlib import Path

import pytest

from osmia.memory.cleaning import clean_text
from osmia.memory.linear import linear
from osmia.memory.redaction import REDACTED
from osmia.memory.sanitize import redacted, stored_text
from osmia.memory.secret_cuts import CUT_FORMATS
from osmia.memory.secret_views import VIEWS
from osmia.memory.service import Memory, MemorySettings
from osmia.taskrun import parse_taskrun
from tests.fixtures.secrets.clean import clean_corpus
from tests.fixtures.secrets.corpus import secret_corpus
from tests.memory.conftest import Clock

ALNUM = string.ascii_letters + string.digits


def _token(rng: random.Random, n: int) -> str:
    while True:
        value = "".join(rng.choice(ALNUM) for _ in range(n))
        if (
            any(c.isdigit() for c in value)
            and any(c.isupper() for c in value)
            and any(c.islower() for c in value)
        ):
            return value


def _password(rng: random.Random) -> str:
    return _token(rng, 6) + rng.choice("!#%*&$") + _token(rng, 5)


def _wrapped(body: str, width: int = 64) -> str:
    return "\n".join(body[i : i + width] for i in range(0, len(body), width))


def disguised(seed: int = 20261203) -> list[tuple[str, str, tuple[str, ...]]]:
    """(form, text, pieces): ``text`` plants a secret; no piece of it may survive redaction."""
    rng = random.Random(seed)
    extra = random.Random(seed + 42)
    out: list[tuple[str, str, tuple[str, ...]]] = []

    def add(form: str, text: str, *pieces: str) -> None:
        out.append((form, text, pieces))

    for _ in range(3):
        gh = "ghp_" + _token(rng, 36)
        cut = rng.randrange(10, 30)
        head, rest = gh[:cut], gh[cut:]
        add("wrapped", f"CI bot authenticates as {head}\n{rest} and needs repo scope", head, rest)
        add("wrapped-assigned", f"GITHUB_TOKEN={head}\n    {rest}\nthen rerun", head, rest)
        stripe = "sk_live_" + _token(rng, 24)
        add("spelled", f"Sandbox key spelled out: {' '.join(stripe)} for the runbook", stripe[8:20])
        add("marked", f"Renovate uses {head}**{rest} in locals", head, rest)
        add("hex", f"decode the credential from {gh.encode().hex()} in testdata", gh.encode().hex())
        npm = base64.b64encode(("npm_" + _token(rng, 36)).encode()).decode()
        add("base64-unpadded", f"The .npmrc is rendered from {npm}", npm[:40])
        glpat = base64.b64encode(("glpat-" + _token(rng, 20)).encode()).decode()
        add("base64-short", f"mirror pulls with {glpat} decoded", glpat)
        add("base64-after-slash", f"failing: TestRegistryAuth/{glpat}", glpat)
        add("lookalike", f"Mirror cron reads g\u04bbp_{gh[4:]} from vars", gh[4:])
        pw = _password(rng)
        escaped = pw.replace("%", "%25")
        add("percent-url", f"REDIS=redis%3A%2F%2F%3A{escaped}%40cache.internal%3A6379 down", pw[:6])
        add("xml-element", f"settings.xml: <server><id>nexus</id><password>{pw}</password></server>", pw)
        add("json-pass", f'config is {{"user": "mailer", "pass": "{pw}"}} in staging.json', pw)
        add("sql-identified-by", f"ALTER USER reporting IDENTIFIED BY '{pw}'; before migrate", pw)
        add("keytool", f"keytool -list -keystore certs/a.jks -storepass {pw}", pw)
        add("ssh-keygen", f"ssh-keygen -t ed25519 -N '{pw}' -f testdata/id_fixture", pw)
        user = "".join(rng.choice("0123456789abcdef") for _ in range(40))
        add("url-token-user", f"clone https://{user}:x-oauth-basic@github.com/acme/fork.git", user)
        der = b"\x30\x82\x04\xbe\x02\x01\x00\x30\x0d\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x01\x01\x05\x00"
        body = _wrapped(base64.b64encode(der + rng.randbytes(180)).decode())
        add("key-body", f"Webhook fixture in testdata/webhook.pem:\n{body}", *body.split("\n"))
        tail = _wrapped(base64.b64encode(rng.randbytes(150)).decode())
        add("key-tail", f"the end of it:\n{tail}\n-----END RSA PRIVATE KEY-----\nthen", *tail.split("\n"))
        # Twenty-second session's red team: a token written onto a word, coloured for a terminal,
        # cut by a lone carriage return, or with an accent on one of its letters.
        add("glued-subtest", f"failed: TestAuth/valid_token_{gh}", gh[4:])
        add("glued-test-name", f"flaky: TestCharge_{stripe} on retries", stripe[8:])
        add("glued-digit", f"published by build1npm_{_token(rng, 36)}", "npm_")
        key_id = "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))
        add("key-id-suffix", f"rotated {key_id}_backup yesterday", key_id)
        add("coloured", f"auth rejected for \x1b[31m{gh}\x1b[0m in the log", gh[4:])
        add("carriage-return", f"token {head}\r{rest} printed by the tool", head, rest)
        add("combining-accent", f"key {gh[:20]}\u0301{gh[20:]} leaked", gh[4:20], gh[20:])
        add("accented-letter", f"key {stripe[:14]}\u00e9{stripe[15:]} leaked", stripe[8:14], stripe[15:])
        # Twenty-third session: a prefixed token cut by a separator, with no name before it.
        sep = rng.choice("-.:~+/,;")
        add("separated", f"see {head}{sep}{rest} in the logs", head[4:], rest)
        add("separated-key-id", f"use {key_id[:10]}{sep}{key_id[10:]} now", key_id[4:10], key_id[10:])
        twice = f"paste {stripe[:14]}-{stripe[14:22]}.{stripe[22:]} here"
        add("separated-twice", twice, stripe[8:14], stripe[22:])
        # Twenty-fourth session: ... or by spaces, with prose after it.
        gap = rng.choice([" ", "  ", "\t"])
        add("spaced", f"see {head}{gap}{rest} was leaked", head[4:], rest)
        spaced_twice = f"paste {stripe[:14]} {stripe[14:22]} {stripe[22:]} here"
        add("spaced-twice", spaced_twice, stripe[8:14], stripe[22:])
        # Forty-second session (values from a generator of their own, so the forms above keep
        # theirs): spelled out as a list, a character and a comma, semicolon or bar.
        mark = extra.choice([", ", ",", "; ", " | ", "|"])
        listed = mark.join(gh)
        add("listed", f"the token, one character at a time: {listed}.", listed[len(mark.join(gh[:8])) :])
        # ... and a token cut short: its prefix and a dozen characters or more, the rest elsewhere.
        for short in (gh[: extra.randrange(16, 30)], stripe[: extra.randrange(20, 30)], key_id[:17]):
            add("cut-short", f"first half {short}, the other half later", short[4:])
        npm = "npm_" + _token(extra, 36)
        add("cut-short-npm", f"paste ended at {npm[:20]}\nthen", npm[4:20])
        # ... with its rest told after it, on the same line or the next.
        cut = extra.randrange(18, 26)
        add("rest-told", f"first half {gh[:cut]}, second half {gh[cut:]}", gh[4:cut], gh[cut:])
        add("rest-told-lines", f"msg 1: {npm[:cut]}\nmsg 2 (the rest): {npm[cut:]} ok", npm[4:cut], npm[cut:])
    return out


NEAR_MISSES = (
    "Run the tests\nwith make test and then\ncommit a3f9c2d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c0 to main",
    "list: a b c d e f g h i j k l m n o p in order",
    "options a, b, c, d, e, f, g, h, i, j, k, l, m, n in order; grades A|B|C|D|E|F|A|B|C|D|E|F|A",
    # A format's prefix before a name with a number, a word and a number, or a mask, cut short.
    "ghp_prefix_checks_2, hf_transformers2024release, glpat-projectAccessToken2, ghp_xxxxxxxxxxxxxxxx1",
    "npm_install_v18 and AKIA prefixes, hf_ModelCardTemplateForUsers and ghp_prefixChecksHelper",
    # The rest of something after a marker that is a name, a duration or a path, not a secret's.
    "password: [redacted] then the rest of the build took 4m12s in TestRefundWebhookRetries; the"
    " second part of the migration is 20240312_add_index_on_orders, the remainder in config/x.yaml;"
    " the rest of the fix is in commit 3f9a2b7c1d4e5f6a7b8c",
    "use x**2 for the square and a|b for either",
    "the query is foo%20bar%20baz and path%2Fto%2Ffile",
    "the digest 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d08c1a4c8ef60 matched",
    "the Größenordnung of the naïve café μs timings and привет мир",
    "<password>${env.NEXUS_PASSWORD}</password> reads it from the environment",
    "ssh-keygen -t ed25519 -N '' -f testdata/id_fixture makes a key without a passphrase",
    "IDENTIFIED BY clause is needed for the reporting user",
    "keytool -list -storepass:env STOREPASS reads the variable",
    "the CA bundle starts MIIDdzCCAl+gAwIBAgIEbL3ZfDANBgkqhkiG9w0BAQsFADBsMRAwDgYDVQQGEwdV",
    # A format's prefix inside a name that is not random: a test, a config loader, a pipeline.
    "TestRisk_test_configurationLoader and TestDisk_live_migrationRunner pass again",
    "the chunk_test_fixturesDirectoryLayout helper and ghp_ prefix checks in the scanner",
    # A format's prefix before pieces that are words, a version or a path, not a token.
    "the key-value-store and SKU-12/a, key-rotation-2024-policy.md and AKIA-style ids",
    "see ghp_ prefix-checks in the scanner; npm_config-cache.v2 and sk_test_fixtures-v2.3/data",
    "Die Übertragungsgeschwindigkeitsmessung läuft über die Qualitätssicherungsabteilung",
    # ... or before words and versions after a space.
    "sk-learn 1.24.2 and sk-learn-intelex 2024.1.0 are pinned; ghp_ Prefix Checks README",
    # ... and a common word after them, which could be a token's end only by its length.
    "sk-learn-intelex 2024 and the tests pass; sk-learn-intelex 2024 Release notes say so",
    "the xoxb- prefix Means a bot token, AKIA Keys rotate, glpat- tokens EXPIRE yearly",
)


@pytest.mark.parametrize(
    ("form", "text", "pieces"), disguised(), ids=lambda v: v if isinstance(v, str) and len(v) < 20 else ""
)
def test_a_disguised_secret_is_redacted(form: str, text: str, pieces: tuple[str, ...]) -> None:
    out = redacted(text)
    assert REDACTED in out, (form, out)
    for piece in pieces:
        assert piece not in out, (form, piece, out)
        assert piece not in clean_text(out, 10_000), (form, piece)
    assert redacted(out) == out  # idempotent
    assert stored_text(stored_text(text)) == stored_text(text)


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_a_near_miss_is_kept(text: str) -> None:
    assert redacted(text) == text


def test_a_wrapped_token_keeps_its_name_and_the_lines_around_it() -> None:
    gh = "ghp_" + _token(random.Random(3), 36)
    assert redacted(f"first line\nGITHUB_TOKEN={gh[:15]}\n{gh[15:]} and more") == (
        f"first line\nGITHUB_TOKEN={REDACTED} and more"
    )


def test_a_prefixed_token_cut_by_a_space_anywhere_leaves_no_piece() -> None:
    """Every cut position of one token of each prefixed format, inside its prefix too (``gh p_…``):
    no eight characters of the token survive (a fixed-length token's last letters, ``AKIA…LNB BI``,
    too; Slack's ``xapp-1-…`` cut after the digit of its prefix, which leaked until the twenty-fifth
    session). Then the same cut by a separator and a space."""
    formats, cuts, leaks = set(), 0, []
    for plant in secret_corpus():
        secret = plant.secret
        heads = (m.end(0) for prefix, tok in CUT_FORMATS if (m := prefix.match(secret)) and tok.match(secret))
        head = next(heads, None)
        if head is None or plant.fmt in formats:
            continue
        formats.add(plant.fmt)
        body = secret[head:]
        for cut in range(1, len(secret) - 1):
            for between in (" ", ", "):
                out = redacted(f"see {secret[:cut]}{between}{secret[cut:]} in the logs").replace(" ", "")
                if any(body[i : i + 8] in out for i in range(len(body) - 7)):
                    leaks.append((plant.fmt, cut, between))
                cuts += 1
    assert len(formats) >= 30 and cuts > 3000, (len(formats), cuts)
    assert not leaks, leaks


def test_the_cut_token_views_are_rarely_asked_about_ordinary_text() -> None:
    """The gates of the views of a cut token (what redaction's one scan looks for before a view
    runs) pass little ordinary engineering text: each view's run costs a call. A gate of the
    prefix's characters before a cut and a blank alone (``1`` + blank, of Google's ``1//0``)
    passed 15 % of the stored lines of a benchmark store (twenty-fifth session)."""
    clean = clean_corpus()
    for view in VIEWS:
        if view.name in ("gapped", "spaced", "separated"):
            gate = linear(view.gate)
            passed = sum(1 for text in clean if gate.search(text) is not None)
            assert passed <= 0.03 * len(clean), (view.name, passed)


def test_a_token_cut_by_a_space_is_redacted_whole_and_the_words_after_it_kept() -> None:
    gh = "ghp_" + _token(random.Random(4), 36)
    assert redacted(f"see {gh[:14]} {gh[14:]} was Rotated in README today") == (
        f"see {REDACTED} was Rotated in README today"
    )
    # A whole token before a word that is no piece of one: the rule takes the token alone.
    assert redacted(f"see {gh} Yesterday") == f"see {REDACTED} Yesterday"


def test_a_token_before_a_separator_and_prose_or_another_token_is_redacted_alone() -> None:
    rng = random.Random(5)
    gh, other = "ghp_" + _token(rng, 36), "ghp_" + _token(rng, 36)
    assert redacted(f"see {gh}, Rotated in README today") == f"see {REDACTED}, Rotated in README today"
    assert redacted(f"old {gh}, new {other}; both revoked") == f"old {REDACTED}, new {REDACTED}; both revoked"
    assert redacted(f"tokens: {gh}, {other}") == f"tokens: {REDACTED}, {REDACTED}"
    # Cut by a separator and a space, the token is redacted whole and the prose after it kept.
    assert redacted(f"see {gh[:20]}, {gh[20:]} - was Rotated") == f"see {REDACTED} - was Rotated"


def test_markdown_links_that_nest_or_space_or_quote_are_reduced_to_their_text() -> None:
    cases = {
        "docs in [the [design] handbook](javascript:alert(document.cookie))": "docs in the [design] handbook",
        "refresh via [pnpm docs](javascript:fetch((location)))": "refresh via pnpm docs",
        "quirks in [notes]( javascript:alert(1) )": "quirks in notes",
        "colours ![brand [palette]](https://attacker.example/p.png?d=1) here": "colours brand [palette] here",
        "traces to [viewer](https://attacker.example/t 'viewer') nightly": "traces to viewer nightly",
        "see [x](<javascript:alert(1)>) now": "see x now",
    }
    for raw, expected in cases.items():
        assert clean_text(raw, 300) == expected


async def test_no_disguised_secret_reaches_the_database_file(tmp_path: Path) -> None:
    """Each disguise in learnings, a failure reason, test names and changed files of real
    ingested runs: no piece in the SQLite file (its WAL included)."""
    plants = disguised()
    path = tmp_path / "memory.db"
    memory = await Memory.open(
        MemorySettings(store_path=path), clock=Clock(1_800_000_000.0), update_gauges=False
    )
    try:
        for i, (_form, text, _pieces) in enumerate(plants):
            doc = {
                "apiVersion": "osmia.dev/v1alpha1",
                "kind": "TaskRun",
                "metadata": {"name": f"run-{i}", "namespace": "agents", "uid": f"uid-{i}"},
                "spec": {
                    "flow": "ticketing",
                    "engine": "claude-code",
                    "ticket": {
                        "id": f"T-{i}",
                        "title": "Fix it",
                        "description": "Fix the thing",
                        "type": "bug",
                    },
                    "repository": {"url": "https://github.com/acme/api", "language": "go"},
                },
                "status": {
                    "phase": "Failed",
                    "result": {
                        "success": False,
                        "failureReason": text,
                        "learnings": [text],
                        "testsFailed": [text],
                        "filesChanged": [text],
                    },
                },
            }
            await memory.ingest(parse_taskrun(doc), finished_at=1_800_000_000.0 + i)
    finally:
        await memory.close()
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.name.startswith("memory.db"))
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM runs").fetchone()[0] == len(plants)
    for form, _text, pieces in plants:
        for piece in pieces:
            assert piece.encode() not in raw, (form, piece)


@pytest.mark.parametrize("cut_by", ["separator", "separator and space", "\n", "\r\n", "\r", " ", "  ", "\t"])
def test_every_prefixed_format_cut_in_two_is_redacted(cut_by: str) -> None:
    """Each planted token of the maintained corpus that is a token of a format with a prefix
    (:data:`~osmia.memory.secret_cuts.CUT_FORMATS`), cut halfway by a separator (each in turn)
    or a line break or spaces: no piece of it survives, whatever the format. Cut by a line break,
    a format whose first half is a token as written (``sk-ant-…``, ``xoxp-…``) leaked its second
    half; cut by a space, 120 of 120 leaked before the spaced view (twenty-fourth session); by a
    separator and a space (``…, …``, ``… - …``, ``…: …``), 64-120 of 120 a form before the spaced
    view read them (twenty-fifth session)."""
    cut_formats = set()
    for i, plant in enumerate(secret_corpus()):
        secret = plant.secret
        head = next(
            (
                m.end(0)
                for prefix, token in CUT_FORMATS
                if (m := prefix.match(secret)) and token.match(secret)
            ),
            None,
        )
        if head is None or len(secret) - head < 24:
            continue
        cut = head + (len(secret) - head) // 2
        if cut_by == "separator":
            between = "-.:~+/,;"[i % 8]
        elif cut_by == "separator and space":
            between = (", ", " - ", "- ", " -", ". ", "; ", ": ", " / ", " | ", "_ ", " ~ ")[i % 11]
        else:
            between = cut_by
        out = redacted(f"see {secret[:cut]}{between}{secret[cut:]} in the logs")
        for piece in (secret[head:cut], secret[cut:]):
            assert piece not in out, (plant.fmt, between, out)
        cut_formats.add(plant.fmt)
    assert len(cut_formats) >= 30, sorted(cut_formats)


def test_a_whole_token_before_a_name_on_the_next_line_keeps_the_name() -> None:
    """A view joins a run's lines; a whole key id joined to the next line's name is no token cut
    short, or the name the next rule needs would go with it (forty-second session's CI caught it)."""
    rng = random.Random(42)
    key_id = "AKIA" + "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(16))
    secret = _token(rng, 40)
    text = f"[default]\naws_access_key_id = {key_id}\naws_secret_access_key = {secret}"
    assert redacted(text) == f"[default]\naws_access_key_id = {REDACTED}\naws_secret_access_key = {REDACTED}"
