"""Secrets told in prose and after labels: "the password is …", "PIN: 4821", "with secret …".

What an engineer writes in a sentence rather than in a file or on a command line: a password
said to be one (in English and in the languages the hostility check reads), a value right after
its noun, a key with a note on its encoding, key material decoded from a literal, a passphrase of
words, a PIN, a user and password pair, a password changed from one value to another, and, spliced
in from :mod:`osmia.memory.secret_codes`, one-time-password seeds and recovery codes. Each rule
asks a check of its value (:mod:`osmia.memory.secret_values`): prose names many things a value
would stand where ("the password is stored in Vault", "pin the version to 3.2"), so only a value
shaped as a secret is one.
:data:`PROSE_RULES` are applied where :mod:`osmia.memory.secret_formats` lists them, after the web
credentials and before the command lines and files.
"""

from __future__ import annotations

from osmia.memory.linear import linear
from osmia.memory.secret_codes import CODE_RULES
from osmia.memory.secret_decoding import HEX_DIGITS, decoded_text
from osmia.memory.secret_placeholders import (
    code_value,
    content_key,
    env_name,
    file_path,
    not_placeholder,
    resource_name,
    uuid_shaped,
)
from osmia.memory.secret_rule import KEY_NOUNS, Rule
from osmia.memory.secret_rule import rule as _rule
from osmia.memory.secret_values import (
    SSH_KEY_TYPES,
    camel_word,
    decodes_to_secret,
    fragment_value,
    generated_value,
    hex_password,
    long_hex,
    looks_random,
    memorable_password,
    mixed_value,
    number_like,
    password_value,
    plain_words,
    spoken_password,
)

__all__ = ["PROSE_RULES"]

# A name where prose would give a value: a word in camel case (``True``, ``Punctuation``) or a
# dotted attribute (``Name.Variable``): "if previous_token is Name.Variable" is code.
_ATTRIBUTE = linear(r"^[A-Za-z_]+(?:\.[A-Za-z_]+)+$")


def _random_key(value: str) -> bool:
    """A bare key's value: random, and no UUID or content hash (an idempotency or cache key) or
    placeholder, nor a pair of its own (``kid=7d5d…``: a name, then its value)."""
    bare = value.rstrip(".,:;")
    if "=" in bare.rstrip("="):
        return False
    return (
        looks_random(bare, 20)
        and not uuid_shaped(bare)
        and not content_key(bare)
        and not file_path(bare)
        and not_placeholder(value)
    )


# What the rules that name a password after its value hold, for redaction's one scan.
_NOUN_GATE = r"(?i)(?:password|passphrase|passwd|passcode|pwd)"


def _signed(value: str) -> bool:
    """A sign a password holds inside the value (``M&LyY#…``), not a path's ``-``: a branch or a path
    after ``admin/`` (``admin/feature-X2``) is none."""
    return any(c in "!@#$%^&*?~+=" for c in value.rstrip(".,:;!?)"))


def _gpg_key_id(value: str) -> bool:
    """A key's id or fingerprint as gpg prints it: 8, 16 or 40 hex digits in capitals."""
    bare = value.rstrip(".,:;)")
    return len(bare) in (8, 16, 40) and all(c in "0123456789ABCDEF" for c in bare)


def _named_value(value: str) -> bool:
    return (
        (value.isalpha() and camel_word(value))
        or _ATTRIBUTE.search(value) is not None
        or env_name(value)
        or resource_name(value)
    )


# A piece of a secret, as prose tells it ("the last 12 chars of the secret were …", "the token began
# with …", "partial key from the dump: ...…", "part 1 …, part 2 …"): a secret's noun and a word that
# says a piece of it is given, in either order, in one sentence (a key file's armour, ``-----BEGIN …
# KEY-----``, in capitals, is no such word). The sentence bounds the gaps: a gap bounded by a count
# is as many automaton states as its count (docs/performance.md §44).
_SECRET_NOUN = r"(?:secret|token|key|password|passphrase|credential)s?"
_PIECE_WORD = (
    r"(?:first|last|(?-i:[Bb]eg[ai]n(?:s|ning)?|[Ee]nd(?:s|ed|ing)?)|start(?:s|ed|ing)?|part(?:ial|s)?|prefix"
    r"|suffix|half|halves|piece|pieces|fragment|truncated|split|chars|characters)"
)
_PIECE_TOLD = rf"\b{_SECRET_NOUN}\b[^.\n]*?\b{_PIECE_WORD}\b|\b{_PIECE_WORD}\b[^.\n]*?\b{_SECRET_NOUN}\b"
# A password given as what opens something, with no noun for it ("unlock it with …", "the magic word
# for staging is …", "what you type at the vault prompt is …", "use … to get into the admin panel").
_OPENS = (
    r"(?:unlock(?:s|ed|ing)?|opens?|opened|get(?:s|ting)?[ \t]+(?:in|into|past)|got[ \t]+(?:in|into|past)"
    r"|log(?:s|ged|ging)?[ \t]*(?:in(?:to)?|on)(?:[ \t]+to)?|sign(?:s|ed)?[ \t]+in(?:to)?"
    r"|(?:magic|secret|code)[ \t]*words?|combination|combo|door[ \t]+code|prompt)"
)


# Well-known accounts no verb shares a name with ("sa", "operator" and "deploy" are the pairs' only:
# "deploy with …" is a verb).
_ACCOUNTS = (
    r"(?:admin|administrator|root|postgres|elastic|guest|ubuntu|ec2-user|oracle|superuser|jenkins|minioadmin)"
)
# What every memorable password holds, for redaction's one scan (the words of opening are common in
# lessons, a value so shaped is not): a sign between letters or digits, or a whole capitalised word
# beside a dash or a dot (not a class in a dotted name, ``com.acme.ModerationTest``).
_MEMORABLE_GATE = (
    r"\S[!@#$%^&*?~+]+\S|[-.][A-Z][a-z]{2,}\b(?:[^.]|$)|\b[A-Z][a-z]{2,}[-.](?:[A-Za-z]{3,}|\d{1,6})\b"
)


# What every password label and "the password is …" in the languages the rules read holds: the
# noun, then on its line an operator or a dash (a label), or a verb after a blank ("… is …"), for
# redaction's one scan (the words that may stand between a noun and its value, counted, made that
# scan's program too large; the noun alone, "Tests pass", let a third of run texts through).
_PASSWORD_NOUNS = (
    r"(?:pass|pw|kennwort|contrase|senha|mot[ \t]+de|parola|has[łl]o|wachtwoord|l[öo]senord"
    r"|adgangskode|salasana|heslo|jelsz|mật[ \t]+khẩu|kata[ \t]+sandi|sifre|şifre|пароль"
    r"|كلمة|סיסמה|पासवर्ड)"
)
_PASSWORD_LABEL_GATE = (
    rf"(?i){_PASSWORD_NOUNS}[^\r\n]*(?:[:=：(→⇒]|[ \t][–—-])|密码|密碼|口令|パスワード|비밀번호"
)
# ... and every such noun before a blank, for the rule of a value right after it (these words are
# rare in English text, so the gate passes little).
_PASSWORD_NOUN_GATE = (
    r"(?i)(?:passwort|kennwort|contrase|senha|mot[ \t]+de[ \t]+passe|parola|has[łl]o|wachtwoord|l[öo]senord"
    r"|adgangskode|salasana|heslo|jelsz|mật[ \t]+khẩu|kata[ \t]+sandi|sifre|şifre|пароль|密码|密碼|口令"
    r"|パスワード|비밀번호|كلمة[ \t]+المرور|סיסמה|पासवर्ड)[ \t\x{a0}]|パスワード[をはが]|비밀번호[를는가을]"
)
_PASSWORD_IS_GATE = (
    rf"(?i){_PASSWORD_NOUNS}[^\r\n]*[ \t](?:ist|lautet|heißt|heisst|es|est|é|è|is|jest|to|är|er|on|je|là"
    r"|adalah|—|–)[ \t]|密码|密碼|口令|パスワード|비밀번호"
)


def _key_value(value: str) -> bool:
    """A value said to be a key: generated, or hex of 32 digits or more (an API key's shape,
    whatever its entropy happens to be)."""
    bare = value.rstrip(".,;:")
    if bare.startswith(_FINGERPRINT_FORMS):
        return False  # a key's fingerprint as ssh and gpg print it: it names a key, and shows none
    return generated_value(value) or long_hex(bare)


_FINGERPRINT_FORMS = ("SHA256:", "SHA1:", "MD5:")
# How long a key's id, fingerprint or digest is in hex (gpg's short and long ids, its fingerprint;
# SHA-256's and SHA-512's digests, which a verification prints after a key's name).
_KEY_ID_LENGTHS = (8, 16, 40, 64, 128)


def _adjacent_key(value: str) -> bool:
    """A value right after a key's noun: :func:`_key_value`, and not hex as long as a key's id or
    fingerprint ("signés avec la clé ECC5BE42C9B95031" names the key that signed)."""
    bare = value.rstrip(".,;:")
    if len(bare) in _KEY_ID_LENGTHS and set(bare) <= HEX_DIGITS:
        return False
    if set(bare) <= HEX_DIGITS and decoded_text(bare) is not None:
        return False  # words written in hex ("token cache key (hex): 746f6b656e…", "token-cache-…")
    return _key_value(value)


# ... and every key said to be one in those languages ("key-is"), for the same reason.
_KEY_NOUN_GATE = (
    r"(?i)schl(?:ü|ue)ssel|\b(?:clave|cl[ée]|chave|chiave|klucz|sleutel|nyckel|n[øo]gle|avain)(?:[^A-Za-z]|$)"
    r"|\btoken[ \t]+(?:de|da|do|del|di|für)\b|ключ|токен|密钥|秘钥|令牌|キー|トークン|키|토큰"
    r"|\b(?:secreto|segredo|segreto|sekret|jeton)\b|секрет"
)


# What the value-first rule reads: a copula in the languages the rules read (English's, and those
# of German, Romance languages, Polish, Russian, Ukrainian, Indonesian, Vietnamese, Turkish and
# Arabic), an article, and a secret's noun phrase in English, as engineers write it in any language.
_COPULA = (
    r"(?:(?:which|that)[ \t]+(?:is|was)|is|was|ist|war|es|era|est|était|é|è|jest|to|это|є|це|adalah"
    r"|ialah|merupakan|là|olan|هي|هو)"
)
_ARTICLE = r"(?:the|our|your|my|its|their|a|an|un|una|uno|el|la|le|der|die|das|den|ein|eine|einen|o|um|uma)"
_SECRET_PHRASE = (
    rf"(?:password|passphrase|passwd|passcode|pwd|token|secret|credential|{KEY_NOUNS}"
    r"|(?:api|access|secret|auth|private|client|account|app(?:lication)?|subscription|admin)[ _-]?key)s?"
)
# The words after which a secret's noun still ends its phrase: English's prepositions, conjunctions
# and verbs, and the words for "not" and "and" of the languages above.
_PHRASE_ENDS = (
    r"for|on|of|to|in|at|that|which|and|but|so|when|from|now|here|there|is|was|will|works|worked|used"
    r"|und|nicht|kein|no|non|ne|nie|pas|não|nao|y|e|et|i|và|ve|dan|jangan|tidak"
)

# A host name or a glob of them ("restricted to *.acme.io"): where a token works, not a token.
_HOST_GLOB = linear(r"^(?:\*\.)?(?:[a-z0-9-]+\.)+[a-z]{2,12}[.,;:)]*$")


PROSE_RULES: tuple[Rule, ...] = (
    # Prose: "the password is Tr0ub4dor&3", "token was 8f9a…", "my password's …", "DB_PASSWORD set to
    # …", "the API token is now …". Only values that are no plain word.
    _rule(
        "prose",
        r"(?i)\b(?:[A-Za-z0-9]+[_.-])*"
        rf"(?:password|passphrase|passwd|pwd|secret|token|api[ _-]?key|{KEY_NOUNS})"
        r"(?:[_.-]?key)?`?(?:['’]s|[ \t]+(?:is|was|=|of|to|being|->|=>|→)"
        r"|[ \t]+(?:(?:is|was|been|got|gets)[ \t]+)?"
        r"(?:(?:set|changed|updated|rotated|reset)[ \t]+to|now))[ \t]+"
        r"[\"'`]?([^\s\"'`,;]{6,})",
        1,
        lambda value: (
            not_placeholder(value)
            and not number_like(value)
            and not plain_words(value)
            and not code_value(value)
            and not value.endswith("(")  # a call's name (``[]byte(``): its literal is the assignments'
            and not _named_value(value.rstrip(".,:;!?)"))
            and not value.startswith(SSH_KEY_TYPES)  # "the deploy key is ssh-ed25519 …"
            and not (value.isalpha() and value.isupper())  # a word set in capitals ("the key's PUBLIC half")
            and not _gpg_key_id(value)  # "set user.signingkey to 6387C43FC481C255"
        ),
    ),
    # ... with a few words between ("the password for the admin UI is Summer2024!", "the password,
    # which is …,"): a value that mixes letters with digits or signs, as a password does and a word
    # or size does not.
    _rule(
        "prose-apart",
        r"(?i)\b(?:password|passphrase|passwd|secret|token|api[ _-]?key)"
        r"(?:,?[ \t]+[A-Za-z][\w.-]{0,30}){1,4}?"
        r"[ \t]+(?:is|was|to)[ \t]+[\"'`]?([^\s\"'`,;]{8,})",
        1,
        lambda value: (
            mixed_value(value)
            and not resource_name(value)
            and _HOST_GLOB.match(value) is None
            and "://" not in value
        ),
    ),
    # ... or right after the noun ("with secret wJalrXUtnFEMI/K7MDENG…", "auth token 0123…-…", a name in
    # camel case that ends in one: "AccessKeySecret …"): only a value shaped like a generated one
    # (random, or a UUID).
    _rule(
        "prose-adjacent",
        r"(?i)\b(?:password|passphrase|secret|token|api[ _-]?key|access[ _-]?key|secret[ _-]?key|pat"
        r"|personal[ _-]access[ _-]token|private[ _-]key|app(?:lication)?[ _-]key|subscription[ _-]key"
        rf"|{KEY_NOUNS}|[A-Za-z][A-Za-z0-9]*(?-i:Secret|Token|Password|Passphrase))"
        r"[ \t]+[\"'`(„“«‘]?([A-Za-z0-9_+/=.~!@#$%^&*-]{16,})",
        1,
        generated_value,
    ),
    # ... and right after a key's or token's noun in the languages the rules read ("トークン … で",
    # "anahtar … hâlâ geçerli", "токен …", "la clave …"): only a value shaped like a generated one.
    _rule(
        "key-adjacent",
        r"(?i)(?:\b(?:anahtar(?:ı|i)?|clave|chiave|chave|cl[ée]|[a-zäöüß]*schl(?:ü|ue)ssel|klucz|jeton|токен"
        r"|ключ)|トークン|令牌|密钥|秘钥|토큰|アクセスキー|APIキー)"
        r"[ \t\x{a0}]+[\"'`«「(]?([A-Za-z0-9_+/=.~-]{16,})",
        1,
        _adjacent_key,
        r"(?i)(?:\b(?:anahtar|clave|chiave|chave|cl[ée]|klucz|jeton)|schl(?:ü|ue)ssel|токен|ключ|トークン|令牌|密钥"
        r"|秘钥|토큰|キー)[ \t\x{a0}]",
    ),
    # ... a bare "key" ("the key was …", "use key … to sign"): only a random value that is no UUID (an
    # idempotency or cache key is one). A key a word before it says is no secret ("cache key …",
    # "partition key …", gpg's "using EDDSA key <fingerprint>": the first branch takes it, with no
    # value) is passed over.
    _rule(
        "prose-key",
        r"(?i)\b(?:(?:cache|idempotency|partition|sort|primary|foreign|object|routing|dedup\w*|lookup"
        r"|row|composite|index|shard|hash|public|host|gpg|pgp|rsa|dsa|eddsa|ecdsa|ed25519)[ \t]+key\b"
        r"|key(?:[ \t]+(?:is|was))?[ \t]+[\"'`]?([A-Za-z0-9_+/=.~-]{20,}))",
        1,
        _random_key,
    ),
    # ... a key with a note on its encoding or size between its name and its value ("encryption
    # key (base64): …", "AES-256 key (hex) = …", "master key [32 bytes]: …"): a generated value.
    _rule(
        "key-with-note",
        rf"(?i)\b(?:{KEY_NOUNS}|aes(?:[ _-]?\d{{3}})?[ _-]?key|secret[ _-]?key|data[ _-]?key|api[ _-]?key"
        r"|password|passphrase|secret|token)"
        r"[ \t]*[(\[][^()\[\]\r\n]+[)\]][ \t]*(?:[:=]|is|was)[ \t]*[\"'`]?([A-Za-z0-9_+/=~.-]{16,})",
        1,
        generated_value,
    ),
    # ... key material decoded from a literal in code and given to a name of a key (``aes_key =
    # bytes.fromhex('…')``, ``key = base64.b64decode("…")``, ``secret := hex.DecodeString("…")``,
    # ``Buffer.from('…', 'hex')``): a random literal (``bytes.fromhex('000102…0f')``, a test vector
    # counting up, is none).
    _rule(
        "decoded-key",
        r"(?i)\b[A-Za-z0-9_]*(?:key|secret|seed|salt|pepper|hmac|token|passw(?:or)?d|pwd)[A-Za-z0-9_]*"
        r"[ \t]*:?=[ \t]*"
        r"(?:[A-Za-z_][\w.]*\.)?(?:fromhex|unhexlify|a2b_hex|b64decode|urlsafe_b64decode|b32decode|atob"
        r"|decodebytes|DecodeString|decode64|strict_decode64|decodeHex|FromBase64String|FromHexString"
        r"|hex2bin|base64_decode|from)\([ \t]*b?[\"'`]([A-Za-z0-9+/=_-]{16,})[\"'`]",
        1,
        generated_value,
    ),
    # ... or decoded where a template uses it (Ansible's and Jinja's ``{{ '…' | b64decode }}``) after
    # a name of a password or key: a literal that decodes to a password or a generated value.
    _rule(
        "template-decoded",
        r"(?i)\b[A-Za-z0-9_]*(?:pass|secret|token|key|pwd)[A-Za-z0-9_]*[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"\{\{[ \t]*[\"']([A-Za-z0-9+/=_-]{8,})[\"'][ \t]*\|[ \t]*b64decode",
        1,
        decodes_to_secret,
        r"\|[ \t]*b64decode",
    ),
    *CODE_RULES,
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
    # A password after a label of its own (``PASS=Summer2024!``, ``pw: Winter2025#``, ``пароль: …``,
    # ``contraseña → …``: the word in the languages the hostility check reads, German's compounds
    # too, ``Datenbankpasswort``), in brackets after it ("the password (Summer2024!)"), or in prose right
    # after the noun ("with password Summer2024!", "passphrase zDTn7qLWaYyD"): a value that mixes
    # letters with digits or signs, as a password does and "password reset" or "pw: see vault" does not.
    _rule(
        "password-label",
        r"(?i)(?:\b(?:password|passwd|passphrase|passcode|pwd|pass|pw|[a-zäöüß]*(?:passwort|kennwort)"
        r"|contrase[ñn]a|senha"
        r"|mot[ \t]+de[ \t]+passe|parola|has[łl]o|wachtwoord|l[öo]senord|adgangskode|salasana|heslo|jelsz[óo]"
        r"|mật[ \t]+khẩu|kata[ \t]+sandi|sifre|parolas[ıi]|şifresi|sifresi)|şifre|пароль|密码|密碼|口令"
        r"|パスワード|비밀번호|كلمة[ \t]+المرور|סיסמה|पासवर्ड)[\"']?"
        r"(?:[ \t]*(?:[:=：(]|=>|->|→|⇒)|[ \t]+[–—-]|(?:[ \t]+[^\s:=：]+){1,7}?[ \t]*[:：])[ \t]*"
        r"(?:[\"'`“„‘]|«[ \t\x{a0}\x{202f}]?)?([^\s\"'`;»”“()]{8,})",
        1,
        lambda value: password_value(value) or hex_password(value),
        _PASSWORD_LABEL_GATE,
    ),
    # ... or right after the noun in those languages, with no label's sign ("логін buh_test, пароль
    # Kalyna_2023!", "パスワード sakura_2024_Kanri", "la contraseña `girasol_azul_58`", "le mot de passe
    # « Lyon2019Nas! »"): a password's shape (English's "with password …" is the prose rules').
    _rule(
        "password-after-noun",
        r"(?i)(?:(?:\b(?:[a-zäöüß]*(?:passwort|kennwort)|contrase[ñn]a|senha|mot[ \t]+de[ \t]+passe|parola"
        r"|has[łl]o|wachtwoord|l[öo]senord(?:et)?|adgangskode(?:n)?|salasana|heslo|jelsz[óo]|mật[ \t]+khẩu"
        r"|kata[ \t]+sandi|sifre)|şifre|пароль|密码|密碼|口令|パスワード|비밀번호|كلمة[ \t]+المرور|סיסמה"
        # ... Japanese and Korean with the particle that marks the noun ("비밀번호를 '…'(으)로")
        r"|पासवर्ड)[ \t\x{a0}]+|(?:パスワード[をはが]|비밀번호[를는가을])[ \t\x{a0}]*)"
        r"(?:[\"'`“„‘「]|«[ \t\x{a0}\x{202f}]?)?([^\s\"'`;»”“()」，、。]{8,})",
        1,
        password_value,
        _PASSWORD_NOUN_GATE,
    ),
    # ... or said to be one in prose, in the same languages ("das Passwort ist …", "la contraseña
    # es …", "le mot de passe est …", "密码是 …", "パスワードは …", and the English noun with their
    # verbs: "el password de la base es …"), in those languages' quotes too (« … », „…“, “…”);
    # English's "password is …" is the prose rules'.
    _rule(
        "password-is",
        r"(?i)(?:(?:\b(?:[a-zäöüß]*(?:passwort|kennwort)|contrase[ñn]a|senha"
        r"|mot[ \t]+de[ \t]+passe|parola|has[łl]o"
        r"|wachtwoord|l[öo]senord(?:et)?|adgangskode(?:n)?|salasana|heslo|jelsz[óo]|mật[ \t]+khẩu"
        r"|kata[ \t]+sandi|sifre)|şifre|пароль)[\"']?(?:[ \t]+[^\s:=]+){0,8}?[ \t]+"
        r"(?:ist|lautet|heißt|heisst|es|est|é|è|is|jest|to|är|er|on|je|là|adalah|—|–)[ \t]*:?[ \t]+"
        # ... "now" after the verb ("est désormais « … »", "ist jetzt …", "es ahora …")
        r"(?:(?:désormais|maintenant|jetzt|nun|ahora|agora|adesso|ora|teraz|sekarang|artık|теперь|сейчас)"
        r"[ \t]+)?"
        r"|\bpassword(?:[ \t]+[^\s:=]+){0,5}?[ \t]+(?:ist|lautet|es|est|é|è|jest|är|adalah)[ \t]+"
        r"|(?:密码|密碼|口令)(?:是|为|為)[ \t]*|パスワード(?:は|が)[ \t]*|비밀번호(?:는|가)[ \t]*)"
        r"(?:[\"'`「“„‘]|«[ \t\x{a0}\x{202f}]?)?([^\s\"'`;」，、。»”“]{8,})",
        1,
        password_value,
        _PASSWORD_IS_GATE,
    ),
    # A key said to be one in the languages above ("der API-Schlüssel lautet …", German's compounds,
    # "Zugriffsschlüssel: …", "la clave de API es …", "la clé API est …", "API-ключ: …", "o token
    # de autenticação da conta é …"), up to eight words after the noun: a value that looks generated.
    _rule(
        "key-is",
        r"(?i)(?:(?:\b(?:api[ \t-]?)?(?:[a-zäöüß]*(?:schlüssel|schluessel)|clave|clé|cle|chave|chiave"
        r"|klucz|sleutel|nyckel|nøgle|avain|token[ \t]+(?:de|da|do|del|di|für)"
        # ... a secret's or a token's noun ("el secreto de la app era «…»", "le jeton OAuth … était …",
        # "Sekret ustawiony w …: …")
        r"|secreto|segredo|segreto|sekret|jeton)"
        r"|(?:api[ \t-]?)?(?:ключ|токен|секрет))"
        # (Words that end no sentence: "Schlüssel … rotiert. Neuer Key-ID (kid): …" says two things.)
        r"(?:[ \t]+[^\s:=：]*[^\s:=：.!?]){0,8}?[\"']?"
        r"(?:[ \t]*[:=：]|[ \t]+(?:ist|lautet|es|est|é|è|is|jest|to|är|er|on|je|era|était|war|foi|fue|był|был"
        r"|—|–)(?:[ \t]*:)?)"
        # ... and in Chinese, Japanese and Korean, with no blank after the noun ("访问密钥：…", "키는 …")
        # ... or quoted in Japanese brackets right after it ("API トークン「…」を")
        r"|(?:密钥|秘钥|令牌|キー|トークン|키|토큰)(?:[:：]|(?:는|은|가|は|が|是|为)[ \t]*|「))"
        r"[ \t]*(?:[\"'`]|«[ \t\x{a0}\x{202f}]?)?([^\s\"'`;（）。，、「」«»]{16,})",
        1,
        _key_value,
        _KEY_NOUN_GATE,
    ),
    # ... or a key's or token's noun, a few words, and the value in parentheses ("la clé de production
    # Cohere (…) avait été remplacée", "the Mailgun key (…) was rotated"): a generated value.
    _rule(
        "key-in-parentheses",
        r"(?i)\b(?:cl[ée]|clave|chave|chiave|schl(?:ü|ue)ssel|klucz|key|token|jeton|secret|secreto|segredo|sekret)"
        r"(?:[ \t]+[^\s()]+){0,4}?[ \t]+\(([A-Za-z0-9_+/=.~-]{20,})\)",
        1,
        lambda value: _adjacent_key(value) and not uuid_shaped(value),
        r"(?i)(?:cl[ée]|clave|chave|chiave|ssel|klucz|key|token|jeton|secret|secreto|segredo|sekret)[^()\r\n]*\(",
    ),
    # ... and a key or token named in English inside another language's sentence, with that language's
    # verb ("La secret key corretta dell'utente backup è …", "der access key lautet …"): a value that
    # looks generated.
    _rule(
        "english-key-is",
        r"(?i)\b(?:(?:secret|access|api|private|auth|admin)[ \t_-]?key|token)(?:[ \t]+[^\s:=]+){0,6}?[ \t]+"
        r"(?:ist|lautet|es|est|é|è|jest|är|adalah|là|это|є|це)[ \t]+[\"'`]?([^\s\"'`;]{16,})",
        1,
        _key_value,
        r"(?i)(?:key|token)\b[^\r\n]*?[ \t](?:ist|lautet|es|est|é|è|jest|är|adalah|là|это|є|це)[ \t]",
    ),
    # ... or named with words after it, then a colon, then the value, in English or the languages the
    # rules read ("the API key for staging: …", "المفتاح المستخدم مؤقتًا: …", "คีย์ Shodan ของบริษัท: …",
    # "טוקן חדש: …"): a value that looks generated. Not a bare English "key" (a cache's, an
    # idempotency key, a site key: "Cache restored from key: …").
    _rule(
        "key-words-colon",
        r"(?i)(?:\b(?:token|(?:api|secret|access)[ \t-]?key)\b|المفتاح|مفتاح|توكن|คีย์|โทเค็น|טוקן|מפתח|कुंजी"
        r"|टोकन)"
        r"(?:[ \t]+[^\s:=：]+){0,6}?[ \t]*[:：][ \t]*[\"'`„“«]?([A-Za-z0-9_+=.~-][A-Za-z0-9_+/=.~-]{19,})",
        1,
        _adjacent_key,
        r"(?i)(?:\b(?:token|key)\b|المفتاح|مفتاح|توكن|คีย์|โทเค็น|טוקן|מפתח|कुंजी|टोकन)[^\r\n:：]*[:：]",
    ),
    # A secret's name and its value as two columns of a table (a browser's storage panel, a tool's
    # listing: ``refresh_token    KpgC5…``): the name alone at the line's start, a wide gap, one
    # generated value ending the line (a listing of more columns, ``aws configure list``, is none).
    _rule(
        "name-column",
        r"(?im)^[ \t]*(?:[A-Za-z0-9]+[_.-])*(?:password|passwd|secret|token|api[_.-]?key|apikey"
        r"|access[_.-]?key|private[_.-]?key|client[_.-]?secret|credentials?|secret[_-]id)"
        r"(?:[ \t]{2,}|\t)[ \t]*([^\s\"'`]{8,})[ \t]*$",
        1,
        lambda value: _key_value(value) or password_value(value),
        r"(?im)^[ \t]*[\w.-]*(?:password|passwd|secret|token|key|credential|secret[_-]id)s?(?:[ \t]{2,}|\t)",
    ),
    # An app password as Google writes one (four groups of four lower-case letters) after a password's
    # label in any of the rules' languages ("Uygulama şifresi: rcgl xxrp ljfn njoa").
    _rule(
        "app-password",
        rf"(?i)(?:{_PASSWORD_NOUNS}|şifre)[^\r\n:=]*[:=][ \t]*[\"']?"
        r"((?-i:[a-z]{4} [a-z]{4} [a-z]{4} [a-z]{4}))\b",
        1,
        None,
        rf"(?i)(?:{_PASSWORD_NOUNS}|şifre)[^\r\n:=]*[:=][ \t]*[\"']?(?-i:[a-z]{{4}} [a-z]{{4}} )",
    ),
    # A web form's password field with its value, in either order of the attributes.
    _rule(
        "password-input",
        r"(?i)<input\b[^>]*?\btype[ \t]*=[ \t]*[\"']?password\b[^>]*?\bvalue[ \t]*=[ \t]*"
        r"[\"']([^\"'\r\n>]{4,})[\"']",
        1,
        not_placeholder,
    ),
    _rule(
        "password-input-value-first",
        r"(?i)<input\b[^>]*?\bvalue[ \t]*=[ \t]*[\"']([^\"'\r\n>]{4,})[\"'][^>]*?\btype[ \t]*=[ \t]*"
        r"[\"']?password\b",
        1,
        not_placeholder,
    ),
    # A wallet's recovery words after their label and a colon (12 to 24 lower-case words).
    _rule(
        "seed-phrase",
        r"(?i)\b(?:seed|mnemonic|recovery|secret)[ \t]+(?:phrase|words)[\"']?(?:[ \t]+[^\s:=]+)*?"
        r"[ \t]*[:=][ \t]*[\"'“]?((?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})\b",
        1,
    ),
    # A passphrase of words joined by dashes, dots or underscores after its label
    # ("the backup passphrase is marble-cactus-violin-harbor", "passphrase: correct.horse.battery"):
    # a passphrase is words, so plain words are its value; three words at least, so that a state
    # ("is read-only", "is write-protected") is none.
    _rule(
        "passphrase-words",
        r"(?i)\b(?:passphrase|pass[ \t]+phrase)\b[\"']?[ \t]*(?:is|was|=|:)[ \t]*[\"'`]?"
        r"([a-z]{3,12}(?:[-_.][a-z0-9]{3,12}){2,11})\b",
        1,
    ),
    # A PIN or passcode of digits after its label ("the HSM admin PIN is 22809611", "PIN: 4821", "SIM
    # PIN for the lab phone: 4821", a PIN in capitals with words before the colon): four digits or
    # more, and not a length ("the PIN is 6 digits"); "pin the version to 3.2" is a verb.
    _rule(
        "pin-digits",
        r"(?i)\b(?:(?:pin|puk|pin[ \t-]?code|passcode|unlock[ \t]+code)\b[\"']?[ \t]*(?:is|was|=|:|[–—])"
        r"|(?-i:PIN|PUK)(?:[ \t]+(?i:code))?(?:[ \t]+[^\s:=]+){1,5}?(?:[ \t]*[:=]|[ \t]+(?:is|was)))"
        r"[ \t]*[\"'`]?"
        r"(\d{4,12})\b(?:[ \t]*(?:[^ \t\w]|$)|[ \t]+(?:to|for|and|on|in|so|but|which|that)\b)",
        1,
    ),
    # A service account key's id (40 hex): it names the key to revoke, and no lesson needs it.
    _rule("private-key-id", r"(?i)\bprivate_key_id[\"']?[ \t]*[:=][ \t]*[\"']?([a-f0-9]{40})\b", 1),
    # An API key in a query string under a name of its own (``?appid=…``, ``&apikey=…``, ``&key=…``).
    _rule(
        "query-key",
        r"(?i)[?&](?:appid|app_?key|api_?key|apikey|key|access_?key)=([A-Za-z0-9_.~-]{16,})",
        1,
        generated_value,
    ),
    _rule(
        "password-adjacent",
        r"(?i)\b(?:password|passwd|passphrase|passcode)[ \t]+[\"'`]?([^\s\"'`;]{8,})",
        1,
        password_value,
    ),
    # ... after the loosest labels ("user admin pass Summer2024!", "pw Winter2025#"), and in a user and
    # password pair ("credentials admin/Summer2024!", "login with admin / xopv152!", "log in with admin
    # and …"), only a value with a
    # digit and a sign or a random mix of cases ("pass the tests" and "tests pass TestLogin2" are prose).
    # ("pass max_attempts=4 to the client" passes a setting: a value holding "=" is none).
    _rule(
        "pass-adjacent",
        r"(?i)\b(?:pass|pw|pwd)(?:[ \t]+(?:is|was))?[ \t]+[\"'`]?([^\s\"'`;=]{8,})(?:[^=]|$)",
        1,
        lambda value: spoken_password(value) or hex_password(value),
    ),
    # ... logged in as a user with a password ("logged in as root with …"), and a password changed
    # from one value to another (both are secrets: "changed from … to …").
    _rule(
        "logged-in-with",
        r"(?i)\b(?:log(?:ged)?[ \t]+in|sign(?:ed)?[ \t]+in|authenticated)[ \t]+as[ \t]+"
        r"[\"'`]?[A-Za-z0-9._@+-]{1,64}[\"'`]?[ \t]+(?:with|using)[ \t]+"
        r"(?:(?:the[ \t]+)?password[ \t]+)?[\"'`]?([^\s\"'`]{8,})",
        1,
        lambda value: generated_value(value) or password_value(value),
    ),
    _rule(
        "password-from",
        r"(?i)\b(?:password|passphrase|passwd|token|secret)\b[^.\n]{0,40}?\bfrom[ \t]+[\"'`]?([^\s\"'`]{8,})"
        r"[\"'`]?[ \t]+to\b",
        1,
        lambda value: generated_value(value) or password_value(value),
    ),
    # A password named after its value ("… is the admin password on the CI box", "… (the new SFTP
    # password for …)", "use … as the root password"): the noun ends its phrase ("is the password
    # hashing scheme" names none); or quoted before the noun ("type the '…' passphrase for …").
    # The value is one as the loosest labels take it (a digit and a sign, or a random mix).
    _rule(
        "value-then-password",
        r"(?i)(?:^|[\s(\[,;:])[\"'`]?([^\s\"'`()\[\]]{8,}?)[\"'`]?[ \t]*(?:[,(:]|[–—-])?[ \t]*"
        r"(?:(?:(?:which|that)[ \t]+(?:is|was)|that['’]s|is|was|are|being|as|for)[ \t]+)?"
        r"(?:the|our|your|my|its|their|his|her|a|an)[ \t]+"
        r"(?:[\w-]+[ \t]+){0,4}?(?:password|passphrase|passwd|passcode|pwd)"
        r"(?:[ \t]*(?:[.,;:!?)]|$)|[ \t]+(?:for|on|of|to|in|at|that|which|and|but|so|when|from|now|here"
        r"|there|is|was|will|works|worked)\b)",
        1,
        spoken_password,
        _NOUN_GATE,
    ),
    # ... or said to be one after its value in any of the rules' languages, with the noun in English
    # as engineers write it inside them ("Der Wert … ist SSH key passphrase", "… — это MySQL root
    # password", "el valor … es Twilio auth token", "nilai … adalah SMTP password", "the value … is a
    # Twilio auth token"): a secret's noun that ends its phrase (punctuation, the line's end, or a
    # word that cannot continue an English compound: "is the token endpoint" names none), a bare
    # "key" only with a word that makes it a secret's (``api key``, ``access key``; a public, host or
    # cache key is none). The value is one as the loosest labels take it, or generated.
    _rule(
        "value-is-secret",
        r"(?i)(?:^|[\s(\[,;:])[\"'`«„“「]?([^\s\"'`()\[\]«»„“”「」]{8,}?)[\"'`»“”」]?[ \t]*"
        rf"(?:[,:]|[–—-])?[ \t]*{_COPULA}[ \t]+(?:{_ARTICLE}[ \t]+)?(?:[\w-]+[ \t]+){{0,4}}?{_SECRET_PHRASE}"
        rf"(?:[ \t]*(?:[.,;:!?)]|$)|[ \t]+(?:{_PHRASE_ENDS})(?:[^\w]|$)|[ \t]+[^\x00-\x7f])",
        1,
        lambda value: spoken_password(value) or generated_value(value) or _key_value(value),
        rf"(?i)[ \t]{_COPULA}[ \t][^\r\n]*?{_SECRET_PHRASE}",
    ),
    _rule(
        "quoted-then-password",
        r"(?i)[\"'`‘“]([^\"'`’”\r\n]{6,})[\"'`’”][ \t]+(?:[\w-]+[ \t]+){0,2}?"
        r"(?:password|passphrase|passwd|passcode)\b",
        1,
        spoken_password,
        _NOUN_GATE,
    ),
    # ... said after the noun and a pause ("prompts for a passphrase - it's …", "the password? It's
    # …", "the Wi-Fi password, which is …").
    _rule(
        "password-it-is",
        r"(?i)\b(?:password|passphrase|passwd|passcode)\b(?:[ \t]+[^\s.]+){0,4}?[ \t]*[-–—:,;?!]*[ \t]+"
        r"(?:it['’]s|it[ \t]+is|it[ \t]+was|that['’]s|which[ \t]+is)[ \t]+[\"'`]?([^\s\"'`]{8,})",
        1,
        password_value,
        _NOUN_GATE,
    ),
    # ... a well-known account and its password with no word before them ("accepts admin / …",
    # "`admin` / `…`", "root:…", "ops@example.com / …"): a value with a sign, or random.
    _rule(
        "account-pair",
        rf"(?i)(?:^|[\s(\[,;>*])[`\"']?(?:{_ACCOUNTS}|sa|operator|deploy|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)[`\"']?"
        r"(?:[ \t]*/[ \t]*|:)[`\"']?([^\s`\"'/]{8,})",
        1,
        lambda value: spoken_password(value) and (_signed(value) or looks_random(value.rstrip(".,:;)"), 12)),
        rf"(?i)(?:\b(?:{_ACCOUNTS}|sa|operator|deploy)|@[\w.-]+)[`\"']?[ \t]*[/:]",
    ),
    # ... and an account accepted or used with its password ("accepted root with …", "`admin` using
    # …"): the accounts no verb shares a name with ("deploy with …", "operator with …" are not), and
    # a value that sets nothing (``DB_PASSWORD=…`` is a name and its value: the assignment's rules').
    _rule(
        "account-with",
        rf"(?i)(?:^|[\s(\[,;>*])[`\"']?(?:{_ACCOUNTS}|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)[`\"']?"
        r"[ \t]+(?:with|using)[ \t]+"
        r"(?:(?:the[ \t]+)?password[ \t]+)?[`\"']?([^\s`\"'/=]{8,})",
        1,
        lambda value: spoken_password(value) and (_signed(value) or looks_random(value.rstrip(".,:;)"), 12)),
        rf"(?i)(?:\b(?:{_ACCOUNTS})|@[\w.-]+)[`\"']?[ \t]+(?:with|using)\b",
    ),
    _rule(
        "secret-piece",
        rf"(?i)(?:{_PIECE_TOLD})[^.\n]*?[ \t:,][\"'`(]?(?:\.\.\.|…)?([A-Za-z0-9_+/=-]{{10,}})",
        1,
        fragment_value,
        rf"(?i){_PIECE_TOLD}",
    ),
    _rule(
        "opens-with",
        rf"(?i)\b{_OPENS}\b[,:]?(?:[ \t]+[^\s]+){{0,5}}?[ \t]+(?:is|was|with|using|type|enter|:)[ \t]+"
        r"[\"'`“«]?([^\s\"'`,;”»]{8,})",
        1,
        memorable_password,
        _MEMORABLE_GATE,
    ),
    _rule(
        "use-to-open",
        r"(?i)\buse[ \t]+[\"'`“«]?([^\s\"'`,;”»]{8,})[\"'`”»]?[ \t]+to[ \t]+(?:get[ \t]+(?:in|into|past)"
        r"|log[ \t]*(?:in|on)|sign[ \t]+in|unlock|open|access|enter)\b",
        1,
        memorable_password,
        _MEMORABLE_GATE,
    ),
    # A licence or product key after its label: groups of letters and digits joined by dashes.
    _rule(
        "license-code",
        r"(?i)\b(?:licen[cs]e|product|serial|activation|registration)[ _-]?(?:key|code)s?\b[^:=\n]*?"
        r"(?:[:=]|[ \t]+(?:is|was))[ \t]*[\"'`]?((?-i:[A-Z0-9]{4,8}(?:-[A-Z0-9]{4,8}){2,}))",
        1,
        lambda value: any(c.isdigit() for c in value) and any(c.isalpha() for c in value),
        r"(?i)(?:licen[cs]e|product|serial|activation|registration)[ _-]?(?:key|code)",
    ),
    _rule(
        "user-password-pair",
        r"(?i)\b(?:creds?|credentials|logins?|log[ \t]+in|sign[ \t]+in|user(?:name)?)"
        r"(?:[ \t]+(?:are|is|was|were|with|as|using))*[ \t]*[:=]?[ \t]+[\"'`]?[A-Za-z0-9._@+-]{1,64}"
        r"(?:[ \t]*[/:]|[ \t]+and)[ \t]*([^\s\"'`/:]{8,})",
        1,
        spoken_password,
    ),
)
