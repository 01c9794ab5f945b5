"""Fifty-second session: hex keys under a key's name, a wallet's recovery words and keys, and the
forms two new blind sets leaked (docs/security.md, "Fifty-second session").

The values are fresh, not the sets'; each form leaked on the session's base (``8ee23fe``). The
look-alikes are what the new rules would take first: a cache's hex key, a digest's length under a
bare ``key``, prose of the recovery list's words, Solana addresses, secret managers' references
with blanks, resource names, placeholders above prose, ordinary values piped to base64.
"""

from __future__ import annotations

import pytest

from osmia.memory.secret_mnemonic import mnemonic_sub
from osmia.memory.secret_wallets import base58check
from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret in it): hex of an API key's length given to a key's name, or said near a word
# for a key, a licence, a secret or a token, in any language.
HEX_KEYS = [
    ('gi = GalaxyInstance(url="https://galaxy.example", key="3b1cfa4cef28677315d92d554c204b8a")',
     "3b1cfa4cef28677315d92d554c204b8a"),
    ("newrelic:\n  license_key: a9612242afa386ef8c6d732225067c2cded24674",
     "a9612242afa386ef8c6d732225067c2cded24674"),
    ("VALUES ('acme_license_key', 'dfb7ca0662a2df68386a0037ec433f7c', 'no'),",
     "dfb7ca0662a2df68386a0037ec433f7c"),
    ("API token of the admin user for the shop's import — 57cabdf91654ae665e4b6c6bc17c9cf2.",
     "57cabdf91654ae665e4b6c6bc17c9cf2"),
    ("Activé el plugin con la licencia f637671a042573a6a84cdcec48748784 en producción.",
     "f637671a042573a6a84cdcec48748784"),
    ("Live HMAC key now set: EB183FB1D3D33E5D183F819A63F8437DFD5ECED0217501D199A171886370010C",
     "EB183FB1D3D33E5D183F819A63F8437DFD5ECED0217501D199A171886370010C"),
    ("j'ai mis la clé API du labo (« ec2a3fdcc468fae7ac1c06a36a51bb32bf82 ») dans ~/.ncbirc",
     "ec2a3fdcc468fae7ac1c06a36a51bb32bf82"),
    ("API 인증키(fdb03fb15a1299797366b1d2579da23d)를 넣었습니다.", "fdb03fb15a1299797366b1d2579da23d"),
    ("- المفتاح المستخدم مؤقتًا: 09be21a00b571877e4155984fb3f2948939269c1",
     "09be21a00b571877e4155984fb3f2948939269c1"),
    ("Mình đã đổi sang secret mới f3649c28c906b3b9e4de (app_id 68593).", "f3649c28c906b3b9e4de"),
    ("Segredo de produção configurado: 473dfd8088ed890edb140cbf764f43", "473dfd8088ed890edb140cbf764f43"),
    ("テスト時に設定した秘密鍵: dea8d9188b842d65b1c0d5a079cb5aac1894a47599b8ff4b8e052fbf634502da",
     "dea8d9188b842d65b1c0d5a079cb5aac1894a47599b8ff4b8e052fbf634502da"),
    ("const SHOP_KEY = '45765505cbc4b35a' +\n  '564edb7ed484da8d';", "564edb7ed484da8d"),
]  # fmt: skip

# A wallet's recovery words (random picks from the list: no checksum is read), an extended private
# key and a WIF key (valid checksums), a Solana keypair's 64 bytes.
_TWELVE = "rather bind unlock flame cool correct science comfort case happy brain equip"
_OTHER_TWELVE = "edge foam welcome swallow essay absent toss oven refuse abstract autumn two"
_XPRV = (
    "xprv9s21ZrQH143K4GSd3TVvvyAuMjAZZqBp9HbJAEMQ1aMEyHDhomGBf3VSozctRALiZ2"
    "CRqMgzumTKk9yDpX2KjkmTAjh4YtVzrphfMci483t"
)
_WIF = "L4q6YhsrA3bqnXcYwPxRQ3R5LC5j5pDfPJR1fyGWiAB77dePWTGr"
_KEYPAIR = (
    "[103, 228, 111, 160, 43, 209, 94, 65, 74, 219, 84, 224, 89, 37, 251, 189, 126, 116, 123, 201, 202, "
    "173, 57, 202, 210, 94, 57, 144, 134, 210, 61, 85, 7, 3, 221, 62, 255, 23, 74, 173, 241, 100, 251, "
    "171, 39, 34, 4, 194, 158, 242, 67, 66, 248, 89, 74, 232, 145, 16, 230, 5, 150, 230, 121, 28]"
)
_EVM_KEY = "0x6aa64ef8155da6823a61e849e82dd0acdae735afa109bd890e1da7138c570cf8"
_NSEC = "nsec16kk2kupdldue0urxmut8s04kjwfka295gx4r3d0ncy9snxqpxwsgj80evt"
_SUI = "suiprivkey1ylawcl6a9xy4c63u0kgqsfdz5ysr44lqkwuzlmxc2vjer4u7jdkt3a75f6y"

# (text, the secret in it): a wallet's recovery words, keys and endpoints.
WALLETS = [
    (f'accounts: {{ mnemonic: "{_TWELVE}" }},', _TWELVE),
    (f"Tohum kelimeleri: {_OTHER_TWELVE}", _OTHER_TWELVE),
    ("Seed phrase from the recovery card:\n  row 1: reveal dress chief tomorrow movie problem\n"
     "  row 2: outside roast warfare decorate acoustic bubble", "warfare decorate acoustic"),
    (f"importdescriptors '[{{\"desc\":\"wpkh({_XPRV}/84h/0h/0h/0/*)\"}}]'", _XPRV),
    (f"bitcoin-cli importprivkey {_WIF} refunds", _WIF),
    (f"[nostr]\nnsec = {_NSEC}", _NSEC),
    (f'sui keytool import "{_SUI}" ed25519', _SUI),
    (f"$ cat ~/.config/solana/id.json\n{_KEYPAIR}", "126, 116, 123, 201"),
    (f"export const RELAYER = new Wallet(\n  '{_EVM_KEY}',", _EVM_KEY),
    ("rpc: https://eth-mainnet.g.alchemy.com/v2/yD6Le-jZgScOg6nc4jOAQC0F7ww6v5TJ",
     "yD6Le-jZgScOg6nc4jOAQC0F7ww6v5TJ"),
    ("OUT 8=FIX.4.4|9=112|35=A|34=1|49=ACME_OMS|56=VENUE|553=trader|554=yINQNs9zbP1EKbb|10=106|",
     "yINQNs9zbP1EKbb"),
]  # fmt: skip

# (text, the secret in it): general forms the sets leaked.
FORMS = [
    ("$ echo -n 'yINQNs9zbP1EKbbgAUWrmpHAM7l41DvS' | base64", "yINQNs9zbP1EKbbgAUWrmpHAM7l41DvS"),
    ("curl --user :3b1cfa4cef28677315d92d554c204b8a https://rpc.example/v3/x",
     "3b1cfa4cef28677315d92d554c204b8a"),
    ("$ cat /var/lib/geth/password.txt\nlUr?xqB9fw*6c1a7Yr\n$ geth --unlock 0x4f15", "lUr?xqB9fw*6c1a7Yr"),
    ('127.0.0.1:6379> GET vc:session_token\n"yINQNs9zbP1EKbbgAUWrmpHAM7l41DvSJCyXUteG"',
     "yINQNs9zbP1EKbbgAUWrmpHAM7l41DvSJCyXUteG"),
    ("<key>CodePushDeploymentKey</key>\n<string>yINQNs9zbP1EKbbgAUWrmpHAM7l41DvSJ</string>",
     "yINQNs9zbP1EKbbgAUWrmpHAM7l41DvSJ"),
    ('protection.SetPassword(level, ToSecureString("~jQFChvvAiJp8hXKR*WY"));', "~jQFChvvAiJp8hXKR*WY"),
    ("xcrun altool --upload-app -f App.ipa -t ios -u ci@example.com -p qzvh-ewic-rmtk-lyxp",
     "qzvh-ewic-rmtk-lyxp"),
]  # fmt: skip

# (text, the secret in it): what sets Q and R leaked, in forms of their own kinds: PINs after a
# card tool's flags or in a URI, signing tools' passwords, an object's members under a key's name,
# a SQL row under its columns, stream keys, an application password in groups, an HMAC's key.
READ_LATER = [
    ("ykman piv access change-puk -p 50318842 -n 77120593", "77120593"),
    ("yubico-piv-tool -a verify-pin -P 483920 -a import-certificate -s 9c -i sig.pem "
     "-k 4AA84708ADBF1D73D24391D5654DE3CF2EF9E73E9907C0AD",
     "4AA84708ADBF1D73D24391D5654DE3CF2EF9E73E9907C0AD"),
    ("$ pkcs11-tool --module opensc-pkcs11.so --login --pin 73015529 --list-objects", "73015529"),
    ('ssl_certificate_key "engine:pkcs11:pkcs11:token=hsm;object=tls;type=private;pin-value=559104";',
     "559104"),
    ("softwarePin=48213\ntestSetId=17b0a03e", "48213"),
    ("Softwaretoken /srv/token/office.p12, PIN 615027. Versand erfolgreich.", "615027"),
    ('signtool.exe sign /f "code.pfx" /p lBC2nLYnYEddy8Ja /fd SHA256 App.exe', "lBC2nLYnYEddy8Ja"),
    ('signtool sign /csp "eToken Base Cryptographic Provider" /kc "[{{q7Rt**Wx2p}}]=p11#8a1b" App.msi',
     "q7Rt**Wx2p"),
    (" <user>library</user>\n <pass>sW4r1UON6M@dA8</pass>", "sW4r1UON6M@dA8"),
    ('<entry key="1.keyStorePassword">G-Tb#9xQ21mWv</entry>', "G-Tb#9xQ21mWv"),
    ('etherscan: {\n  apiKey: {\n    mainnet: "JXBNG72E1ZU5NM2GI67N8WP6YN6298I9FE",\n  },\n},',
     "JXBNG72E1ZU5NM2GI67N8WP6YN6298I9FE"),
    ("INSERT INTO integrations (provider, client_id, client_secret) VALUES "
     "('spotify', '432438785c0da7673a74c3b82a89b28d', '809dadef662c87168a7f9b5d0024cc7c');",
     "809dadef662c87168a7f9b5d0024cc7c"),
    ('-f flv "rtmp://b.rtmp.youtube.com/live2?backup=1/gruk-xmlh-czqh-3h37-4beo"',
     "gruk-xmlh-czqh-3h37-4beo"),
    ("rtmp://live.twitch.tv/app/live_481920337_1CNkik5yklkcbmPyPNaW20eF5LvUuj",
     "1CNkik5yklkcbmPyPNaW20eF5LvUuj"),
    ("La contraseña de aplicación es «gQhv VP9f zvzN JjaQ GpPk Gbvc».", "gQhv VP9f zvzN JjaQ GpPk Gbvc"),
    ('set v = digest.hmac_sha256_base64("n9RCAZHFnBiOZ8Q0ev+Zi/wUP9gRLgbFePr6Mvvr4To=", req.url.path);',
     "n9RCAZHFnBiOZ8Q0ev+Zi/wUP9gRLgbFePr6Mvvr4To="),
]  # fmt: skip

KEPT = [
    # (hex that reads as random enough is taken under any key's name, as before: these do not)
    "cache miss key=4b47fec141c4a546e6e498577bb4c668, fetching from origin",
    'cacheKey = "4b47fec141c4a546e6e498577bb4c668"',
    "VALUES ('cache_key', '4b47fec141c4a546e6e498577bb4c668'),",
    'key = "4b47fec141c4a546e6e498577bb4c668aabbccdd"',
    "Released under the licence MIT; see LICENSE for details.",
    "We should fix the build error, update the test file and run the code again after that.",
    "program:  9fQKkgc3HpE7yERaivoo5AJXHVxgon8eQHB1DKDgzN7g",
    'ALPACA_API_SECRET_KEY="op://Trading-Dev/Alpaca Paper/secret key"',
    "Gave them the key name (an identifier, not the secret):\n"
    "organizations/384ab660-c710-4303-a517-0d87d75d51eb/apiKeys/accd81a1-d840-41c2-9a54-9e330e2b66f4",
    "ALPACA_SECRET_KEY=changeme\nReal values live in the team vault.",
    "echo -n 'admin' | base64",
    "echo -n 'https://example.com/callback?x=1' | base64",
    '127.0.0.1:6379> GET user:42:name\n"Alice Example"',
    "<key>CFBundleIdentifier</key>\n<string>com.acme.DriverApp</string>",
    "See /blog/pour-vous-avec-nous and take-your-time-back.",
    'balance = await wallet.getBalance("0x4f156cf6a75a2bc3f2d353ff952ad54365ecd2cf")',
    "OUT 8=FIX.4.4|9=71|35=A|34=1|49=VENUE|56=ACME_OMS|98=0|108=30|10=188|",
    "ssh -p 2222 deploy@host; echo 17 > /sys/class/gpio/export (gpio pin=17)",
    "rtmp://ingest.example.com/app/ep01-1080p-final and rtmp://localhost/live/stream",
    'password: { required: "true", minLength: 12, type: "string", pattern: "^[a-z]+$" }',
    'tokenStyles = { keyword: "#ff0000bb", comment: "italic gray" }',
    'The failing token: {"alg":"RS256","kid":"X4BRV7ONJHKJG7D4A82I"} is not in our JWKS.',
    '"node_modules/jsonwebtoken": {\n  "integrity": "sha512-CB/rrhqCbYrcW0eEbT73kWWrKo=="\n}',
    "INSERT INTO settings (name, value) VALUES ('theme', 'dark');",
    'curl "https://api.example.gov/v4/documents?api_key=DEMO_KEY"',
    "We were there, this that with from have were some.",
    "Record 0015000000VALDtAAP was merged; channel UCtSTPymmPe9aQWlqjWJwUso.",
    "urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1",
]


@pytest.mark.parametrize(("text", "secret"), HEX_KEYS + WALLETS + FORMS + READ_LATER)
def test_the_secret_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", KEPT)
def test_the_look_alike_is_kept(text: str) -> None:
    assert_kept(text)


def test_the_recovery_words_step_alone() -> None:
    """Twelve of the list's words in a row go wherever they stand; seven do not, nor six with no
    word for a seed before them, nor words of mixed case, nor one word repeated."""
    step = mnemonic_sub()
    twelve = "rather bind unlock flame cool correct science comfort case happy brain equip"
    assert step(f"seed: {twelve}.") == "seed: [redacted]."
    assert step(f"log {twelve.upper()}; next") == "log [redacted]; next"
    seven = "rather bind unlock flame cool correct science"
    assert step(f"note: {seven}") == f"note: {seven}"
    assert step(f"recovery phrase row: {seven}") == "recovery phrase row: [redacted]"
    six = "rather bind unlock flame cool correct"
    assert step(f"the plan: {six}") == f"the plan: {six}"
    mixed = "Rather bind unlock flame cool correct science comfort case happy brain equip"
    assert step(mixed) == mixed  # eleven listed as written: "Rather" is not
    repeated = "word " * 40  # listed, but repeated: no phrase drawn at random
    assert step(repeated) == repeated


def test_base58check_reads_only_a_valid_checksum() -> None:
    """A WIF key's checksum holds; one character changed, it does not, and the text is no key."""
    wif = "L4q6YhsrA3bqnXcYwPxRQ3R5LC5j5pDfPJR1fyGWiAB77dePWTGr"
    payload = base58check(wif)
    assert payload is not None and payload[:1] == b"\x80" and len(payload) == 34
    assert base58check(wif[:-1] + ("s" if wif[-1] != "s" else "t")) is None
    assert base58check("0OIl") is None


def test_the_sessions_blind_sets() -> None:
    """benchmarks/data/secrets20o.jsonl (finance, trading and crypto) … …r, each written by a
    helper who read nothing else. O and P measured held out after the session's hex-key steps: O 30
    leaked and 8 look-alikes changed before them, 29 and 8 with them; P 22 and 5, 22 and 5. Q
    (public sector, legal, non-profit) and R (media, streaming, marketing) measured held out after
    every step written for O and P: Q 17 and 7, R 21 and 7, as at the session's start. Each read
    afterwards: O 9 and 4, P 18 and 5 (a hex key wrongly joined to the next line's word had hidden
    one leak), Q 7 and 5, R 11 and 6 at most."""
    from benchmarks.redteam_sets import secrets_20

    for name, (leaked, changed) in {"o": (9, 4), "p": (18, 5), "q": (7, 5), "r": (11, 6)}.items():
        figures = secrets_20(name)
        assert (figures["leaked"][1], figures["changed"][1]) == (200, 100)
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)


def test_the_earlier_sets_moved() -> None:
    """The fifty-first session's sets after this session's steps: M 20 → 17 leaked, N 32 → 29
    (hex keys named in prose and code); no look-alike more changed."""
    from benchmarks.redteam_sets import secrets_19

    for name, (leaked, changed) in {"m": (17, 2), "n": (29, 6)}.items():
        figures = secrets_19(name)
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)
