"""Forty-ninth session: secrets three more blind sets found leaking, and look-alikes they changed
(docs/security.md, "Forty-ninth session").

Set E (application source code and its configuration) was measured and read first: an access key
id and its secret as two literals; look-alikes that are placeholders (Symfony's ``%env(…)%``, a
mask of ``●``), references (``settings.STRIPE_SECRET_KEY``, a Secret Manager path), a .NET public
key token, a key's fingerprint, a Maven coordinate, a Sealed Secret's ciphertext. Set F
(delivery, infrastructure, Kubernetes) was measured on the session's start, then read:
Honeycomb's keys, a Cloud Storage HMAC id, a Confluent key as a JAAS user name, an ACL token's
secret id, a heredoc into a password file, a Kubernetes Secret's value decoded;
``--password-stdin`` takes no value, a Key Vault reference and Pulumi's ciphertext are none. Set G
(logs, traffic, observability) was measured held out after both rounds, then read: an SNMP
community, Opsgenie's ``GenieKey``; a list, a cookie's placeholder, a consent cookie, a digest's
name, a CAPTCHA's site key are no secrets. The values here are fresh, not the sets'.
"""

from __future__ import annotations

import pytest

from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret in it): the forms each rule reads.
REDACTED_17 = [
    (
        'creds := credentials.NewStaticV4("Q7ZK2MNB4XWT8RLC5VYD", '
        '"Lq8Tz2Vm9xKp4Rb7Wn3Yc6Hd1Fg5Js0Ae2Qu8Zo7", "")',
        "Lq8Tz2Vm9xKp4Rb7Wn3Yc6Hd1Fg5Js0Ae2Qu8Zo7",
    ),
    (
        "export AIRFLOW_CONN_DW='mssql://etl:Rq7Lm%2F%40Tz%23Kp9%3F@mssql-01.internal:1433/dw'",
        "Rq7Lm%2F%40Tz%23Kp9%3F",
    ),
    (
        "      x-honeycomb-team: hcaik_01hq7zk2mnb4xwt8rlc5vydq7zk2mnb4xwt8rlc5vydq7zk2mnb4xwt8rl",
        "hcaik_01hq7zk2mnb4xwt8rlc5vydq7zk2mnb4xwt8rlc5vydq7zk2mnb4xwt8rl",
    ),
    (
        "accessId: GOOG1EQ7ZK2MNB4XWT8RLC5VYDQ7ZK2MNB4XWT8RLC5VYDQ7ZK2MNB4XWT8R",
        "GOOG1EQ7ZK2MNB4XWT8RLC5VYDQ7ZK2MNB4XWT8RLC5VYDQ7ZK2MNB4XWT8R",
    ),
    (
        "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
        'username="Q7ZK2MNB4XWT8RLC" password="Lq8Tz2Vm9xKp4Rb7Wn3Yc6Hd1Fg5Js0A";',
        "Q7ZK2MNB4XWT8RLC",
    ),
    (
        "Accessor ID  = 0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f\n"
        "Secret ID    = 7e1a9c3d-5b2f-4d8e-a6c0-f9b3d7e1a5c2",
        "7e1a9c3d-5b2f-4d8e-a6c0-f9b3d7e1a5c2",
    ),
    (
        "cat > .vault_pass <<'EOF'\nCopper_lantern8817!\nEOF\nchmod 600 .vault_pass",
        "Copper_lantern8817!",
    ),
    (
        "sudo tee /etc/openvpn/client/auth.txt >/dev/null <<EOF\nsvc-vpn\nBasalt.ember.harbor.61\nEOF",
        "Basalt.ember.harbor.61",
    ),
    (
        "$ kubectl -n shop get secret shop-db -o jsonpath='{.data.password}' | base64 -d\n"
        "Tz8.Qv3Lm7Np2Wx5K\n",
        "Tz8.Qv3Lm7Np2Wx5K",
    ),
    ("$ snmpwalk -v2c -c Kq7Zr2Lm9Vx4Tp 10.0.0.1 IF-MIB::ifOperStatus", "Kq7Zr2Lm9Vx4Tp"),
    (
        "Authorization: GenieKey 3f2a9c1e-5b7d-4e8f-a0c6-9b3d7e1a5c2f\\r\\n",
        "3f2a9c1e-5b7d-4e8f-a0c6-9b3d7e1a5c2f",
    ),
    # The session's second round, on what E, F and G still leaked.
    (
        'send: "GET /v2/ping HTTP/1.1\\r\\nAuthorization: GenieKey '
        '7e1a9c3d-5b2f-4d8e-a6c0-f9b3d7e1a5c2\\r\\n"',
        "7e1a9c3d-5b2f-4d8e-a6c0-f9b3d7e1a5c2",
    ),
    (
        '{"cache_auth":{"sensitive":false,"type":"string","value":"Gk7Tq2Zr9Lm4Vx1Pq8Wn"}}',
        "Gk7Tq2Zr9Lm4Vx1Pq8Wn",
    ),
    (
        "USERNAME     PASSWORD                  PASSWORD2\n"
        "-----------  ------------------------  ------------------------\n"
        "acmeacr      Lq8Tz2Vm9xKp4Rb7Wn3Yc6Hd  Zq8rT2vLp9sKw4MzNb7Xc1Vd",
        "Zq8rT2vLp9sKw4MzNb7Xc1Vd",
    ),
    (
        "| Сервіс | Ключ |\n|---|---|\n| Nova Poshta | 5c2f3c9e1a7f5b2d8e4a6c0f9b3d7e1a |",
        "5c2f3c9e1a7f5b2d8e4a6c0f9b3d7e1a",
    ),
    (
        'client.get(url).bearer_auth("Tq8Zr3Lm6Np1Vx4Kb7Wc0Yd2Jf5Hs9Ga").send()',
        "Tq8Zr3Lm6Np1Vx4Kb7Wc0Yd2Jf5Hs9Ga",
    ),
    (
        'credentials += Credentials("Sonatype Nexus Repository Manager", "nexus.example.net", "ci", '
        '"Wq9Zr2Lm7Np4Vx")',
        "Wq9Zr2Lm7Np4Vx",
    ),
    ("10.20.4.17:5432:ledger:ledger_ro:Kq7Zr2.Lm9Vx4Tp", "Kq7Zr2.Lm9Vx4Tp"),
    (
        '  "type": "random_password",\n  "instances": [{"attributes": {"length": 24,\n'
        '    "result": "x!)0kB]%z&7sq:Uf00NW6{SA"}}]',
        "x!)0kB]%z&7sq:Uf00NW6{SA",
    ),
    ("$ drone secret add --repository acme/api --name docker_password --data 'Vb7Qz2Lm9Tx4'", "Vb7Qz2Lm9Tx4"),
    (
        "<-  334 UGFzc3dvcmQ6\n -> S3pPeEZBNTBHbm90ZEpW\n<-  235 2.7.0 Authentication successful",
        "S3pPeEZBNTBHbm90ZEpW",
    ),
    ('a1 LOGIN support@example.io "Juniper_Quartz7499"\na1 OK Logged in', "Juniper_Quartz7499"),
    (
        "es01  | Password for the elastic user (reset with `bin/elasticsearch-reset-password -u elastic`):\n"
        "es01  |   Q_WaXEHs+V9ot*NKvwCM",
        "Q_WaXEHs+V9ot*NKvwCM",
    ),
    (
        "Le mot de passe du compte `svc_backup` est désormais « Basalt.lantern4959* » (provisoire).",
        "Basalt.lantern4959*",
    ),
    (
        "#0 /var/www/inc/db.php(12): "
        "PDO->__construct('mysql:host=db;dbname=wp', 'wp', '-7uhQUC3XEuLdaG_s4BqTz')",
        "-7uhQUC3XEuLdaG_s4BqTz",
    ),
    (
        "+++ b/config/master.key\n@@ -0,0 +1 @@\n+9d3e1a7f5b2c8e4a6c0f9b3d7e1a5c2f",
        "9d3e1a7f5b2c8e4a6c0f9b3d7e1a5c2f",
    ),
    (
        "curl -s localhost:8081/actuator/env/spring.datasource.password | jq .\n"
        '{\n  "property": {\n    "source": "application.yml",\n    "value": "qZ8rT2vLp9sKw4MzNb7X"\n  }\n}',
        "qZ8rT2vLp9sKw4MzNb7X",
    ),
    (
        '(lldb) po self.adminKey\n"7c0e9b3d7e1a5c2f3c9e1a7f5b2d8e4a"\n(lldb) continue',
        "7c0e9b3d7e1a5c2f3c9e1a7f5b2d8e4a",
    ),
    (
        '$1 = {user = 0x5555557a8320 "collector", password = 0x5555557a8340 "H.UejuOMBj9Zsy~m~u7B~q"}',
        "H.UejuOMBj9Zsy~m~u7B~q",
    ),
    # Sets H, I and J's rounds.
    (
        '{"login":{"username":"ops@example.io","password":"cobalt.willow.harbor47","totp":"x"}}',
        "cobalt.willow.harbor47",
    ),
    ("    trust-store-password: Orbit=RkKZLynx58", "Orbit=RkKZLynx58"),
    ('{"type" : "secret", "value" : "Qz7rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6J"}', "Qz7rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6J"),
    (
        "-AccountPassword (ConvertTo-SecureString 'Lynx-Orbit-7306-' -AsPlainText -Force) -Enabled $true",
        "Lynx-Orbit-7306-",
    ),
    (
        "Set-ADAccountPassword -Identity ak -Reset -NewPassword "
        '(ConvertTo-SecureString -AsPlainText "maple.velvet.ash43" -Force)',
        "maple.velvet.ash43",
    ),
    ("<transactionKey>q4tnGeyh5lxsheXZ</transactionKey>", "q4tnGeyh5lxsheXZ"),
    (
        "La clé de production Cohere (UBhuZ6HnKbsPi0rOF3aU84xRsBb0ulAnhjenA26b) avait été remplacée.",
        "UBhuZ6HnKbsPi0rOF3aU84xRsBb0ulAnhjenA26b",
    ),
    (
        "el secreto de la app en producción era «E1u97oPhQ0y3jqybJwxxyXWgnVNSeMboi8QeHNjl19kPM9»",
        "E1u97oPhQ0y3jqybJwxxyXWgnVNSeMboi8QeHNjl19kPM9",
    ),
    (
        "curl -u 73d5d0c1ec01680712b3ace3a7d3ce1f: https://data.example.com/api/2.0/export",
        "73d5d0c1ec01680712b3ace3a7d3ce1f",
    ),
    ('#define SECRET_PASS "Quartzjuniper972$"', "Quartzjuniper972$"),
    ('os.environ["KAGGLE_KEY"] = "87991a8275712fcd24d95d1704acf8d2"', "87991a8275712fcd24d95d1704acf8d2"),
    ('client.username_pw_set("edge-fleet", "p8OYvPPFxik^tcvzQ")', "p8OYvPPFxik^tcvzQ"),
    (
        "key,type,encoding,value\nssid,data,string,Factory\npass,data,string,lB38G8#DejN*_DQ",
        "lB38G8#DejN*_DQ",
    ),
    (
        "| file | variable | value |\n|---|---|---|\n"
        "| a.yaml | wandb_key | efcdc333ca362dbbd94dd343d63a2491df709925 |",
        "efcdc333ca362dbbd94dd343d63a2491df709925",
    ),
    (
        " user_id | algorithm |              secret\n---------+-----------+---------------------\n"
        "    1042 | SHA1      | RXTDZNPRIXCW6ODKMK6J3B7ON5LFVNEQ",
        "RXTDZNPRIXCW6ODKMK6J3B7ON5LFVNEQ",
    ),
    (
        "$ cat /tmp/seed.txt\nVUMSOHLCU2PXUXD6FUY3YD5D74DZVDVYGEL33334DCGTAVN2CZD6JL4VX4YSGTXQ\n",
        "VUMSOHLCU2PXUXD6FUY3YD5D74DZVDVYGEL33334DCGTAVN2CZD6JL4VX4YSGTXQ",
    ),
]

# Look-alikes the sets found changed: placeholders, references, ids, names and ciphertext.
KEPT_17 = [
    "password: '%env(file:DB_PASSWORD_FILE)%'",
    "STRIPE_SECRET_KEY=sk_live_●●●●●●●●",
    "DATABASE_URL=postgresql://app:●●●●●●@db:5432/app",
    "stripe.api_key = settings.STRIPE_SECRET_KEY  # loaded from the environment",
    "gcloud run deploy api --set-secrets=OPENAI_API_KEY=projects/acme/secrets/openai-key/versions/latest",
    "DB_PASSWORD = @Microsoft.KeyVault(SecretUri=https://kv-weu.vault.azure.net/secrets/sql-admin/)",
    '<assemblyIdentity name="Newtonsoft.Json" publicKeyToken="30ad4fe6b2a6aeed" culture="neutral" />',
    "the app logs key_fingerprint=sha256:c125e279ca84420a at start-up",
    "- io.jsonwebtoken:jjwt-api 0.11.5 -> 0.12.6",
    "Der Schlüssel für die JWT-Signatur wurde rotiert. Neuer Key-ID (kid): 511334bf84b1d864.",
    "docker login --username AWS --password-stdin 570877576952.dkr.ecr.eu-west-1.amazonaws.com",
    "    DB_PASSWORD: Ag" + "BZGg3e8eBdLBgy4YCXKTWb2kmonSo7sat0pAdWvhk6N1TmO9A0Ljoz" * 4,
    "encryptionsalt: v1:ewR7jZj3p+8=:v1:O1x4kfiy5hICFIQw:t+fiFlE8rSWnCl7iVGNKhKvDa+sWtgyT",
    '<div class="g-recaptcha" data-sitekey="6L1B4Xwfek9Z-G5BOLuqnMUaxfgrQXt22H7PGYBB"></div>',
    "INFO auth: jwks refreshed, keys=[2025-10-rsa-1f84, 2025-10-rsa-ac59]",
    "Cookie: theme=dark; cookie_consent=analytics:1|marketing:0; locale=de-DE",
    "DEBUG http.in 200 set-cookie=session=<redacted>; Path=/; HttpOnly",
    "SA token projected at /var/run/secrets/kubernetes.io/serviceaccount/token (expirationSeconds 3607)",
    '"Bundle":{"SignedEntryTimestamp":"JDg4Z7A1t5GLMlkoysd1fpCIkN+4WYCHAUW8poP4ae0fR5jfYesQXgp4Ws5M=="}',
    "curl 'https://api.example.com/cb?state=ok&next=%2Fhome%2Fdashboard'",
    "KEY_ID                                    CREATED_AT            DISABLED\n"
    "675167653dfa42b380c436f14351c85b017553d1  2025-02-06T09:12:44Z  False",
    "NAME       TYPE     SECRET_NAME\ndb-creds   Opaque   db-creds-v2",
    'Credentials.from_service_account_file("sa.json")',
    "Authorization: Negotiate",
    "2024-05-01 10:20:33:441 INFO started",
    '$1 = {host = 0x5555557a8300 "db.internal", port = 5433, timeout_ms = 0}',
    "+++ b/docs/password-policy.md\n@@ -0,0 +1 @@\n+Passwords rotate every ninety days.",
    '203.0.113.9 - - [15/Feb/2025:13:15:31 +0000] "GET /tiles HTTP/2.0" 200 48211 '
    '"https://stores.example.de/" "Mozilla/5.0"',
    '{"response":{"data":{"password":"hmac-sha256:44a98666456d5b13d8fff41603cd5d9694a2341db80f17fe493c79624ae2df45"}}}',
    '"requestParameters": {"secretId": "prod/payments/stripe", '
    '"secretString": "HIDDEN_DUE_TO_SECURITY_REASONS"}',
    '  secrets.rotate_on_deploy = "shadow"',
    '#define MQTT_PASS_KEY   "mqtt_pass"    /* NVS key name */',
    "X-Hub-Signature-256: sha256=4df011ab5f125a1e64b54e76b45562ea7fc4f2daf4ea098e3dfe355c64b78f40",
    "Cookie: _ga=GA1.1.573028132.1757425034; theme=dark",
    "keycloak[2291]: type=LOGIN_ERROR, realmId=corp, clientId=grafana",
    'CACHE_KEY = "87991a8275712fcd24d95d1704acf8d1"',
    "<key>CFBundleURLSchemes</key>",
    "The kid in the token header (c274cc3931aa3102b88bcd770a03a4b327cf1f88) was not in the JWKS.",
    "| file | variable | value |\n|---|---|---|\n| a.yaml | wandb_key | [redacted] |\n"
    "| b.yaml | lr | 0.0003 |",
    " user_id | algorithm | enrolled\n---------+-----------+---------------------\n"
    "    1042 | SHA1      | 2025-06-01T09:12:44",
    "rejouée avec la même clé d'idempotence (b522bc6b-4c54-481f-9ec5-efce63585b0d), sans double débit",
]


def test_the_sessions_blind_sets() -> None:
    """benchmarks/data/secrets17e.jsonl … g: E was held out until it was read (6 leaked, 9
    look-alikes changed before); F too (17 and 8: it arrived before E's round was written); G was
    held out through both rounds (13 and 15 before, 12 and 14 after). H (security and identity), I
    (SaaS APIs) and J (machine learning, devices, games) came after E, F and G's rounds: H 38 and 13
    before, 36 and 12 held out; I 16 and 9, 16 and 8; J 35 and 5, 33 and 5 (after part of I's round
    too). What leaks and what ordinary lines change is no more than the session left
    (docs/security.md, forty-ninth session), but for one look-alike each in G, H and I that the
    fifty-first session's step for unnamed random runs changes (tests/memory/test_redaction_s51.py)."""
    from benchmarks.redteam_sets import secrets_17

    for name, (leaked, changed) in {
        "e": (0, 0),
        "f": (6, 3),
        "g": (5, 5),  # the fifty-first session's unnamed step: a Kafka cluster's ids (below)
        "h": (28, 10),  # ... Okta ids in an import listing
        "i": (6, 8),  # ... Google place ids
        "j": (28, 5),
    }.items():
        figures = secrets_17(name)
        assert (figures["leaked"][1], figures["changed"][1]) == (200, 100)
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)


def test_an_escaped_url_in_a_query_is_still_read_whole() -> None:
    """A URL escaped whole inside another's query (``?next=https%3A%2F%2Fu%3Apw%40h``) is decoded:
    its password is redacted, as before the plain URL's delimiters were kept escaped."""
    assert_redacted(
        "curl 'https://api.example.com/cb?redirect=https%3A%2F%2Fuser%3AHunter2Zx9q%40evil.com%2F&x=1'",
        "Hunter2Zx9q",
    )


@pytest.mark.parametrize(("text", "secret"), REDACTED_17)
def test_a_form_the_blind_sets_found_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", KEPT_17)
def test_a_look_alike_the_blind_sets_found_is_kept(text: str) -> None:
    assert_kept(text)
