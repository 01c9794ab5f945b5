"""Forty-eighth session: secrets four more blind sets found leaking, and look-alikes they found
changed (docs/security.md, "Forty-eighth session").

Set B (the developer's workstation, and prose in sixteen languages) was read first: a value said
to be a secret after it, with the noun in English inside another language's sentence ("Der Wert …
ist SSH key passphrase"), a key's noun in another language right before it, a secret's name and
its value as two columns of a table, the second passphrase of one ``ssh-keygen`` line, a quoted
password after curl's user, a stored secret printed at a prompt. Set A (data and operations
tooling) was measured held out, then read: SQL's credential options, Redis ACL passwords, a CLI's
``login -p``, Elasticsearch's password reset, secrets' constructors, a password element with
attributes, Japanese and Korean particles, Turkish possessives, an English key's noun with another
language's verb. Sets D (incidents and conversations) and C (enterprise, mobile and IoT) were each
measured held out, then read: provider keys, key nouns in more languages before a colon, tools'
password flags and positions, device configs, app passwords, literals joined into a secret's
name. The values here are fresh, not the sets'.
"""

from __future__ import annotations

import pytest

from tests.memory.redaction_checks import assert_kept, assert_redacted

# (text, the secret in it): the forms each rule reads.
REDACTED_16 = [
    ("Notiz: Der Wert Xq7rT2vLp9sKw4Mz ist SSH key passphrase und bleibt lokal.", "Xq7rT2vLp9sKw4Mz"),
    ("Заметка: `Birch-meadow5521%` — это MySQL root password, не коммитить.", "Birch-meadow5521%"),
    (
        "Nota: el valor 9c1e55d0a7b3f24e8d6a0c9b1f2e3d4a es Twilio auth token.",
        "9c1e55d0a7b3f24e8d6a0c9b1f2e3d4a",
    ),
    ("Catatan: nilai Maple.heron7731# adalah SMTP password, jangan di-commit.", "Maple.heron7731#"),
    (
        "Note: the value 4e8f1a2b3c9d0e7f6a5b4c3d2e1f0a9b is a Twilio auth token.",
        "4e8f1a2b3c9d0e7f6a5b4c3d2e1f0a9b",
    ),
    ("ユーザーのトークン Zr8Kq2Lm5Np7Wx3Vb9Tc4Yd6 で publish しました。", "Zr8Kq2Lm5Np7Wx3Vb9Tc4Yd6"),
    (
        "Sohbete yapıştırılan anahtar 0b7c2e9f4a1d6b3e8c5f2a9d4b1e7c3f hâlâ geçerli.",
        "0b7c2e9f4a1d6b3e8c5f2a9d4b1e7c3f",
    ),
    ("refresh_token    Hq3Zk9Wm2Xp7Lr5Tv8Nc1Bd4Gf6Js0Ya", "Hq3Zk9Wm2Xp7Lr5Tv8Nc1Bd4Gf6Js0Ya"),
    ("secret_id             5d1c9a7e-2b4f-4e8a-9c3d-7f1e2a6b8c0d", "5d1c9a7e-2b4f-4e8a-9c3d-7f1e2a6b8c0d"),
    ("    HTTP_Passwd     Qv^7mKp2+Lz9x", "Qv^7mKp2+Lz9x"),
    ("$ ssh-keygen -p -f ~/.ssh/id_ed25519 -P 'Old9pass!x' -N 'Nw5Tq8Zr2Lk7Vb3M'", "Nw5Tq8Zr2Lk7Vb3M"),
    ("curl -s -u dana:'p#Q8v*Lm2_Tz9Kx' https://ci.example.org/api/json", "p#Q8v*Lm2_Tz9Kx"),
    (
        "$ secret-tool lookup service git host git.example.org\nKx7Zq2.Vm9Lp4Ts\nThe helper is fine.",
        "Kx7Zq2.Vm9Lp4Ts",
    ),
    (
        '$ bw get password "Grafana admin"\n7f3a9c1e5b2d8f4a6c0e9b3d7a1f5c2e',
        "7f3a9c1e5b2d8f4a6c0e9b3d7a1f5c2e",
    ),
    (
        "echo 'Zq7#Lp2*Vx9=Km' | sudo openconnect --user=svc --passwd-on-stdin vpn.example.org",
        "Zq7#Lp2*Vx9=Km",
    ),
    (
        "printf '%s' 'Tq8Zr3Lm6Np1Vx4Kb7Wc0Yd2Jf5Hs9Ga' | bin/elasticsearch-keystore add --stdin"
        " s3.client.default.secret_key",
        "Tq8Zr3Lm6Np1Vx4Kb7Wc0Yd2Jf5Hs9Ga",
    ),
    (
        "UNLOAD ('SELECT 1') TO 's3://b/x_'\nSECRET_ACCESS_KEY 'Rm4Tq9Zx2Lp7Vk3Nb8Wc5Yd1Jf6Hs0Ga/Qe'",
        "Rm4Tq9Zx2Lp7Vk3Nb8Wc5Yd1Jf6Hs0Ga/Qe",
    ),
    ("127.0.0.1:6379> ACL SETUSER reporting on >Vq8Zr3Lm6Np1Wx ~report:* +get", "Vq8Zr3Lm6Np1Wx"),
    ("$ tabcmd login -s https://bi.example.org -u svc -p 'Lz8Qv3Km7Np2Wx5T'", "Lz8Qv3Km7Np2Wx5T"),
    (
        "$ bin/elasticsearch-reset-password -u elastic -b\n"
        "Password for the [elastic] user successfully reset.\nNew value: Gk7Tq2Zr9Lm4Vx1P",
        "Gk7Tq2Zr9Lm4Vx1P",
    ),
    ('Secret(value="lichen-Harbor-ember-42").save("warehouse-password")', "lichen-Harbor-ember-42"),
    ("api_key = SecretStr('Wq9Zr2Lm7Np4Vx1Kb8T')", "Wq9Zr2Lm7Np4Vx1Kb8T"),
    ('<Password encoding="base64">UXo4cjJMbTdOcDRWeDFL</Password>', "UXo4cjJMbTdOcDRWeDFL"),
    (
        "EXEC sp_addlinkedsrvlogin @rmtuser = N'reader', @rmtpassword = N'Tz8Qv3Lm7Np2Wx5K';",
        "Tz8Qv3Lm7Np2Wx5K",
    ),
    ("grafana 사용자 비밀번호를 'Qz+Lm=Vx8Tp2Kw9'(으)로 재설정했습니다.", "Qz+Lm=Vx8Tp2Kw9"),
    ("Yeni SMTP parolasi: Kq7*Zr2Lm9!Vx4Tp (panele girildi)", "Kq7*Zr2Lm9!Vx4Tp"),
    (
        "La secret key corretta dell'utente è Vb7Qz2Lm9Tx4Kp1Wr8Nc3Yd6 (quella nel Vault era vecchia).",
        "Vb7Qz2Lm9Tx4Kp1Wr8Nc3Yd6",
    ),
    (
        '{"id": "password", "type": "CONCEALED", "label": "password", "value": "Bq8=Zr2_Lm7Tx"}',
        "Bq8=Zr2_Lm7Tx",
    ),
    (
        "<property>\n  <name>fs.s3a.secret.key</name>\n"
        "  <value>Kp7Qz2Lm9Tx4Vb1Wr8Nc3Yd6Hs0Ga5Jf/Ue+Rt</value>\n</property>",
        "Kp7Qz2Lm9Tx4Vb1Wr8Nc3Yd6Hs0Ga5Jf/Ue+Rt",
    ),
    ('<Server><Pass encoding="base64">VHo4UXYzTG03TnAyV3g1Sw==</Pass></Server>', "VHo4UXYzTG03TnAyV3g1Sw=="),
    (
        "spark.hadoop.fs.azure.account.key.acct01.dfs.core.windows.net "
        "Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8rT2vLp9sKw4MzNb7Xc1Vd5==",
        "Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8rT2vLp9sKw4MzNb7Xc1Vd5==",
    ),
    (
        '-d \'{"routing_key": "3c9e1a7f5b2d8e4a6c0f9b3d7e1a5c2f", "event_action": "trigger"}\'',
        "3c9e1a7f5b2d8e4a6c0f9b3d7e1a5c2f",
    ),
    (
        "Nytt lösenord för användaren acme_drop: 6e1f9c3a7b5d2e8f4a0c9b1d3e5f7a2c",
        "6e1f9c3a7b5d2e8f4a0c9b1d3e5f7a2c",
    ),
    (
        "[19:18] maria: host `db-ro` user `dba_break_glass` pass `9c4e1a7f3b5d2e8f6a0c4b1d`",
        "9c4e1a7f3b5d2e8f6a0c4b1d",
    ),
    (
        "client = SearchClient.create('QW7ER2TY9U', '8e4a6c0f9b3d7e1a5c2f3c9e1a7f5b2d')",
        "8e4a6c0f9b3d7e1a5c2f3c9e1a7f5b2d",
    ),
    (
        "conn = Connection(server, 'cn=svc_bi,ou=services,dc=example,dc=com', 'r=Lq8_Tz2-Vm9x',"
        " auto_bind=True)",
        "r=Lq8_Tz2-Vm9x",
    ),
    (
        "password: \"{{ env_var('WAREHOUSE_PASSWORD', '9f3a1c7e5b2d8f4a6c0e9b3d7a1f5c2e8b4d6a0c') }}\"",
        "9f3a1c7e5b2d8f4a6c0e9b3d7a1f5c2e8b4d6a0c",
    ),
]

# Look-alikes: what the same forms must leave alone.
KEPT_16 = [
    "The token endpoint is https://auth.example.org/oauth2/token and the key id is 7c1e9a.",
    "Les commits sont signés avec la clé ECC5BE42C9B95031 ; `git verify-commit HEAD` est bon.",
    "A impressão digital da chave SSH adicionada é SHA256:o5GYWu+pSuKzUA/sKSQ/EmFtbA+fnsp3+u6Fr0pDx/w.",
    '    <add key="ClearTextPassword" value="%NUGET_PAT%" />',
    '    "hashed_secret": "4f42150ac22dd7ecafa2f3ab53032e04252e3a59",',
    '{"client_token": "hmac-sha256:7e1c6c7bdc8a50a390203fdadcc4fcd20c1ce474a81ef263093fd6a4235071a6"}',
    "  public key: Yjl89/nwUHRKOWTDBIuTQgKQX9wg866D5XUBr+pBVGU=",
    "ALTER USER SVC SET RSA_PUBLIC_KEY='MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEArGfiqwDVaKKtYvv7GjFW';",
    "  CREDENTIALS = (AWS_KEY_ID = '{{ conn.aws_s3.login }}' AWS_SECRET_KEY = '{{ conn.aws_s3.password }}')",
    "  secretKeys:\n    adminPasswordKey: postgres-password",
    "$ aws s3api head-object --bucket lake-prod --key exports/daily/part-0000.parquet",
    "    monkeypatch.setenv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')",
    "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n"
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n"
    "These are the placeholder keys from the AWS docs, not real credentials.",
    "NAME          TYPE     DATA   AGE\ndb-password   Opaque   1      3d",
    "Secret.load('warehouse-password') reads it at run time.",
    "$ docker login ghcr.io -u bot --password-stdin < token.txt",
    '{"exchange": "orders", "routing_key": "orders.created.eu", "payload": {}}',
    'const searchClient = algoliasearch("KX9Q2PL7WM", "f533ae35e6056337846ceaf09fab7368");',
    "spark.sql.sources.partitionOverwriteMode dynamic",
    "CI: all checks pass 4f42150ac22dd7ecafa2f3ab53032e04252e3a59 (the merge commit).",
    "password md5 check: compare against the sha256 in checksums.txt",
    "<property><name>hive.metastore.uris</name><value>thrift://metastore:9083</value></property>",
    "conn.search('ou=groups,dc=example,dc=com', '(cn=bi-*)')",
    '{"slack_alerts_webhook": "https://hooks.slack.com/services/XXXXXXXXX/YYYYYYYYY/ZZZZZZZZZZZZZZZZZZZZZZZZ"}',
    "npm 令牌现在从 Vault 读取（字段 token），.npmrc 里只有 `_authToken=${NPM_TOKEN}`。",
]


def test_the_sessions_blind_sets() -> None:
    """benchmarks/data/secrets16a.jsonl … d: B's misses were read and shaped this session's rules,
    A was held out while they were written (38 leaked, 9 look-alikes changed before; 37 and 9 after
    B's rules), then read; D was held out through A's and B's rounds (22 and 5 before, 22 and 4
    after), then read; C through all three (28 and 8 before, 26 and 7 after), then read. What leaks
    and what ordinary lines change is no more than the session left (docs/security.md,
    forty-eighth session)."""
    from benchmarks.redteam_sets import secrets_16

    sizes = {"a": (250, 150), "b": (250, 150), "c": (200, 100), "d": (200, 100)}
    for name, (leaked, changed) in {"a": (11, 0), "b": (6, 1), "c": (10, 2), "d": (9, 2)}.items():
        figures = secrets_16(name)
        assert (figures["leaked"][1], figures["changed"][1]) == sizes[name]
        assert figures["leaked"][0] <= leaked, (name, figures)
        assert figures["changed"][0] <= changed, (name, figures)


@pytest.mark.parametrize(
    "text",
    [
        "İndirilen arşivin özeti eşleşti, imza doğrulandı.",
        "Frontend'de yalnızca yayımlanabilir anahtar kullanılıyor.",
        "Zmiany wdrożone; użytkownik zalogował się poprawnie.",
        "Đã cập nhật cấu hình và khởi động lại dịch vụ thành công.",
    ],
)
def test_a_word_with_its_languages_latin_letters_is_stored_as_written(text: str) -> None:
    """Turkish ``ı``, Polish ``ł``, Vietnamese ``đ`` imitate ASCII letters, but they are their
    languages' letters: the look-alike step folds only other scripts' (``latin_tokens``)."""
    from osmia.memory.sanitize import redacted

    assert redacted(text) == text


def test_a_token_with_another_scripts_letters_is_still_read_in_latin() -> None:
    # A GitHub token with a Cyrillic "о" and a Greek "Ι" in it: folded, then redacted.
    token = "ghp_" + "Zq8rT2vLp9sKw4Mz" + "\u043e" + "Nb7Xc1Vd5" + "\u0399" + "Rf3Gh6Jk0L"
    assert_redacted(f"pushed with {token} by mistake", token)


def test_literals_joined_into_a_secrets_name_are_redacted() -> None:
    # Split to pass a scanner, joined where used: the first half is a token redaction knows, so the
    # second is the same secret's.
    head = "ghp_" + "Qz8rT2vLp9sKw4MzNb7X"
    tail = "Vd5Rf3Gh6Jk0Lq8rT2vL"
    code = f'_a = "{head}"\n_b = "{tail}"\nGITHUB_TOKEN = _a + _b\n'
    assert_redacted(code, tail)
    # ... or, in a shell, two random halves joined into a secret's name.
    first, second = "Kp7Qz2Lm9Tx4/Vb1Wr8+", "Nc3Yd6Hs0Ga5Jf2Ue7Rt"
    shell = f"export SK_A='{first}'\nexport SK_B='{second}'\nexport AWS_SECRET_ACCESS_KEY=\"$SK_A$SK_B\"\n"
    assert_redacted(shell, first)
    assert_redacted(shell, second)


@pytest.mark.parametrize(
    "text",
    [
        'prefix = "Bearer "\nauth_token = prefix + token\n',
        'env_tokens = "alpha beta"\ncmd_params = "gamma"\ntokens = env_tokens + cmd_params\n',
        'HINT = "see the vault"\nSUFFIX = "prod"\npassword_label = HINT + SUFFIX\n',
        'A = "TestLoginRetry"\nB = "TestLogoutRace"\nSECRET_TESTS = "$A$B"\n',
    ],
)
def test_words_joined_into_a_secrets_name_are_kept_by_the_join_step(text: str) -> None:
    # The join step alone (a bare word given to a secret's name is the assignment rules' to judge).
    from osmia.memory.redaction import redact
    from osmia.memory.secret_assembled import _joined_vars_sub

    assert _joined_vars_sub(redact)(text) == text


# Sets C (enterprise, mobile, IoT) and D (incidents and conversations): each form, fresh values.
REDACTED_CD = [
    (
        "Token: 2/1204958820011234/1209934411223344:5f2c9a1e7b3d8f4a6c0e9b1d3a5f7c2e",
        "5f2c9a1e7b3d8f4a6c0e9b1d3a5f7c2e",
    ),
    (
        "Key: xnd_production_" + "Qz8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8rT2",
        "Qz8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8rT2",
    ),
    (
        "keys ck_" + "4e8f1a2b3c9d0e7f6a5b4c3d2e1f0a9b8c7d6e5f" + " sent",
        "4e8f1a2b3c9d0e7f6a5b4c3d2e1f0a9b8c7d6e5f",
    ),
    (
        "key dùng chung: tgp_v1_" + "Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8rT2vLp",
        "Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8rT2vLp",
    ),
    (
        "-----BEGIN OpenVPN Static key V1-----\n6e1f9c3a7b5d2e8f4a0c9b1d3e5f7a2c\n"
        "-----END OpenVPN Static key V1-----",
        "6e1f9c3a7b5d2e8f4a0c9b1d3e5f7a2c",
    ),
    ("connecting to mysql://svc:k%40Zq8r%23Tv2Lp9sKw@db.example.internal:3306/app", "Zq8r%23Tv2Lp9sKw"),
    ("- المفتاح المستخدم مؤقتًا: 7Hq2Zr9Lm4Vx1PkT8Nc3Yd6Wb5", "7Hq2Zr9Lm4Vx1PkT8Nc3Yd6Wb5"),
    ("יצרתי טוקן חדש: 00Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8", "00Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0Lq8"),
    (
        "Ich habe den Cloud-Token „Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6J“ erstellt.",
        "Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6J",
    ),
    ("$ echo 'Zq8#Lp2*Vx9=Km4!' > ~/.vault_pass && chmod 600 ~/.vault_pass", "Zq8#Lp2*Vx9=Km4!"),
    ("*/30 * * * * echo 'Walrus-Heron4471?' | kinit svc_etl@AD.EXAMPLE.LOCAL", "Walrus-Heron4471?"),
    (
        'const p1 = "[redacted]";\nconst p2 = "Vd5Rf3Gh6Jk0Lq8rT2vLpQ";\nnew OpenAI({ apiKey: p1 + p2 });',
        "Vd5Rf3Gh6Jk0Lq8rT2vLpQ",
    ),
    ('security unlock-keychain -p "7vQ_9eZk4Yd!Ovf" build.keychain', "7vQ_9eZk4Yd!Ovf"),
    ("kadmin -p admin/admin@EXAMPLE.LAN -w 'Y9Q6pWzXXlLn#!!' -q \"listprincs\"", "Y9Q6pWzXXlLn#!!"),
    ("mosquitto_pub -h mqtt.example.io -u gh-07 -P 'nm-jQ5Yqz.Yr=s1W' -t t -m 1", "nm-jQ5Yqz.Yr=s1W"),
    ("sudo mosquitto_passwd -b /etc/mosquitto/passwd line3 ZephyrGorge2281!", "ZephyrGorge2281!"),
    ("root@fs02:~# net ads join -U Administrator%OrchidKite7131! createcomputer=Servers", "OrchidKite7131!"),
    ("hdbuserstore SET BACKUPKEY hana01:30013 BACKUP_OPERATOR 'lPQ7*I6J5a5RsRNz'", "lPQ7*I6J5a5RsRNz"),
    ("line vty 0 4\n password 7 0822455D0A16544541", "0822455D0A16544541"),
    (" security wpa psk set-key ascii 0 GlacierHeron6940*", "GlacierHeron6940*"),
    ("\toption key 'ThistleWaltz4918*'", "ThistleWaltz4918*"),
    ("rootpw    KestrelLime751#", "KestrelLime751#"),
    ("Backlog SSID1 Shop; Password1 TundraLark2274!; MqttHost 192.168.50.10", "TundraLark2274!"),
    ("wpasupplicant.profile.1.network.1.psk=76quJeQXFWm3msCjhDZC", "76quJeQXFWm3msCjhDZC"),
    ("Uygulama şifresi: rcgq xxrp ljfn njob", "rcgq xxrp ljfn njob"),
    (
        "Okta の API トークン「00Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0L」を使いました",
        "00Zq8rT2vLp9sKw4MzNb7Xc1Vd5Rf3Gh6Jk0L",
    ),
    (
        "User: my recovery words so you can check: "
        '"coconut chief cart bulb crime amateur casino crane castle animal brief crazy"',
        "coconut chief cart bulb crime amateur casino crane castle animal brief crazy",
    ),
    (
        'curl -u "sfapi@COMPANYT1:HarborQuartz1968+" "https://api.example.com/odata/v2/User"',
        "HarborQuartz1968+",
    ),
]

KEPT_CD = [
    'headers = {"Authorization": "Bearer YOUR_ACCESS_TOKEN", "X-Api-Key": "YOUR_API_KEY_HERE"}',
    "SF_CONSUMER_SECRET=vault:secret/data/salesforce/prod#consumer_secret",
    '{"assignment_group": "8a2873089966c600fe8da0f27c6153bc"}',
    "[Push] didRegisterForRemoteNotificationsWithDeviceToken: "
    "54daac6b04a2ea7aec013aa6f1188a39052c72cae5f4ac68aca9a94075b03d15",
    "the proxy returns an opaque cursor, e.g. nextPageToken=eyJzdGFydEF0IjogMjAwfQ==",
    '"data": {"email": "[email]", "password": "[Filtered]"}',
    "the fixture contains `API_KEY=dummy`; false positive",
    "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/TXXXXXXXX/BXXXXXXXX/XXXXXXXXXXXXXXXXXXXXXXXX",
    "ED25519 key fingerprint is SHA256:nhT+GGTHVggbOec1cLXundwmqj5sSzjJ76LYPVm5Hd0.",
    "$ echo 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGfB7twF9D6hrdcipa1bQEG6g1KhjXF8 ci@bastion'"
    " >> ~/.ssh/authorized_keys",
    "$pwd = ConvertTo-SecureString -String $env:PFX_PASSWORD -AsPlainText -Force",
    "Set user.signingkey to 6387C43FC481C255.",
    "トークン「設定画面で確認してください」",
]


@pytest.mark.parametrize(("text", "secret"), REDACTED_16 + REDACTED_CD)
def test_a_form_the_blind_sets_found_is_redacted(text: str, secret: str) -> None:
    assert_redacted(text, secret)


@pytest.mark.parametrize("text", KEPT_16 + KEPT_CD)
def test_a_look_alike_the_blind_sets_found_is_kept(text: str) -> None:
    assert_kept(text)
