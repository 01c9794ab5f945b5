"""A secret's value said a few words after its name, in prose of any language.

The named rules (:mod:`osmia.memory.secret_names`, :mod:`osmia.memory.secret_prose`) read a value
after a label (``password: …``, ``DB_PASSWORD=…``) or after the verbs they know ("the key is …",
"das Passwort lautet …"). A run's note says it in words they do not know: "I set WANDB_API_KEY to
the new value 1ed1…", "mật khẩu MQTT thành hRh6…", "正确的 storePassword 是 WJQt…", "заменил
project_secret_key на d90a…", "de nieuwe pre-shared key is …". This step reads, after a secret's
name (an identifier holding a strong secret word, or the word for a password, key, secret or token
in the languages the hostility check reads), the rest of its clause (at most 90 characters; a
sentence's end, a line's end or a label's or code's punctuation ends it), and redacts the first
word there that is shaped as a generated secret or a password on its own:

- random (:func:`~osmia.memory.secret_values.looks_random`, 16 characters or more, not words
  joined by separators or run together: ``configurationManagerV2``), or a password with a digit
  and a sign, 10 characters or more;
- or hex of 32 digits or more within four words of the name (an API key as tools print one), or
  ten when the value is presented (after ``:``, a dash or an opening quote); hex of 20-31 digits
  two words after a password's, secret's or token's word (never a key's: a key's short hex is
  its id);
- never a placeholder, a published or sample value, a UUID, a number or version, a path, URL or
  e-mail address, text encoded in hex or base64 (the encoded run's step reads it), a camel-case
  name, a dotted name, shorter hex (a key's id), or anything after a word saying the value is
  something else (an id, commit, hash, fingerprint, prefix, ARN…).

A name followed by a label's or code's punctuation (``:``, ``=``, a quote, a bracket) is left to the
named rules, which know those forms and their exceptions (ciphertext, references), except the
value itself in parentheses right after the name ("API 인증키(…)") and a colon after a name no
named rule reads (a non-Latin one: "秘密鍵: …"); a name inside a URL, a variable's reference
(``$PGPASSWORD``) or a dotted name is not a name here.
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.english import holds_common_word
from osmia.memory.linear import linear
from osmia.memory.secret_decoding import decoded_text
from osmia.memory.secret_name_words import NAME_ONLY
from osmia.memory.secret_placeholders import (
    REDACTED,
    file_path,
    is_placeholder,
    published_or_sample,
    uuid_shaped,
)
from osmia.memory.secret_values import (
    SIGNS,
    camel_word,
    joined_words,
    long_hex,
    looks_random,
    number_like,
    plain_words,
    spoken_password,
)

__all__ = ["NEARBY_GATE", "nearby_sub"]

# The words for a secret: strong ones inside an identifier, and the nouns of other languages.
_WORDS = (
    r"passw(?:or)?d|passphrase|pwd|secret|token|api[_ .-]?key|apikey|access[_.-]?key|private[_.-]?key"
    r"|psk|pre-shared[ _-]key|_pass\b|_pw\b"
    r"|passwort|kennwort|contrase|senha|mot de passe|parola|has[łl]o|wachtwoord|l[öo]senord|adgangskode"
    r"|salasana|heslo|jelsz|mật khẩu|kata sandi|şifre|sifre|пароль|ключ|токен|секрет"
    r"|密码|密碼|口令|密钥|秘钥|令牌|パスワード|キー|シークレット|トークン|비밀번호|키|토큰|시크릿"
    r"|clave|chave|clé|chiave|schlüssel|sleutel|klucz|anahtar"
    # A key named for what it signs, opens or licenses ("the HMAC key", "la licencia", "the product
    # key"), and the words for a key, a password or a token of more languages.
    r"|(?:hmac|signing|encryption|licen[cs]e|activation|product|master|application|admin|webhook"
    r"|integration|partner|merchant|account|consumer|shared|signature|routing)[ _-]key"
    r"|licen[cs]e|licencia|licença|licenza|lizenz|licentie|licencja|лицензи|ライセンス|许可证|授权码"
    r"|라이선스|라이센스|activation[ _-]code|authori[sz]ation[ _-]code|autorizaci[oó]n"
    r"|passord|nøgle|nyckel|nøkkel|avain|kulcs|klíč|ključ|cheie|kunci|khóa|κωδικ|κλειδ"
    r"|segredo|secreto|segreto|geheimnis|sekret|秘密鍵|秘密キー|鍵|비밀 ?키"
    r"|مفتاح|كلمة المرور|كلمة السر|رمز الدخول|رمز عبور|کلید|توکن|סיסמ|מפתח|טוקן"
    r"|पासवर्ड|कुंजी|टोकन|รหัสผ่าน|คีย์|โทเค็น"
)
# The step's gate in redaction's one scan: a superset of the words, short (each word's states add to
# the scan's automaton), case folded for the Latin ones only.
NEARBY_GATE = (
    r"(?i:passw|pwd|secret|token|api.?key|apikey|(?:ss|te)[_.-]?key|psk|pre-shared|_pass|_pw|kennwort"
    r"|contrase|senha|mot de|parola|has[łl]o|wachtwoord|l[öo]senord|adgangskode|salasana|heslo|jelsz"
    r"|mật khẩu|kata sandi|[şs]ifre|clave|chave|clé|chiave|schlüssel|sleutel|klucz|anahtar"
    r"|[ _-]key|licen[cçsz]|lizenz|activation|autori[sz]|passord|n[øo]gle|nyckel|n[øo]kkel|avain|kulcs"
    r"|kl[íi][čc]|klju[čc]|cheie|kunci|khóa|κωδικ|κλειδ|segredo|secreto|segreto|geheimnis|sekret)"
    r"|秘密鍵|秘密キー|鍵"
    r"|[Пп]ароль|[Кк]люч|[Тт]окен|[Сс]екрет|[Лл]ицензи|密码|密碼|口令|密钥|秘钥|令牌|パスワード|キー|シークレット"
    r"|トークン|ライセンス|许可证|授权码|비밀번호|키|토큰|시크릿|라이[선센]스"
    r"|مفتاح|كلمة المرور|كلمة السر|رمز الدخول|رمز عبور|کلید|توکن|סיסמ|מפתח|טוקן|पासवर्ड|कुंजी|टोकन"
    r"|รหัสผ่าน|คีย์|โทเค็น"
)
_NAME = linear(rf"(?i)[A-Za-z0-9_.-]*(?:{_WORDS})[A-Za-z0-9_.-]*")
# The nouns of a password (a chosen secret: one without a sign or past 16 characters is still one).
_PASSWORD = linear(
    r"(?i)passw|pwd|passphrase|kennwort|contrase|senha|mot de passe|parola|has[łl]o|wachtwoord"
    r"|l[öo]senord|adgangskode|salasana|heslo|jelsz|mật khẩu|kata sandi|[şs]ifre|пароль|密码|密碼|口令"
    r"|パスワード|비밀번호"
)
# What a name ends with when it names, counts or points at a secret instead of holding one: the
# named rules' list, and what prose says of a secret besides (its hash, its manager, its reset).
_NAME_ONLY = (*NAME_ONLY, "hash", "hashes", "less", "manager", "protected", "reset", "tokens")
_HOLDS = ("password", "passwd", "token", "secret", "key", "pwd")
# A word between the name and a value that says the value is something else.
_SOMETHING_ELSE = linear(
    r"(?i)коміт|коммит|コミット|提交|\b(?:named|called|commit[a-z]*|accessor|arn|prefix|hashed"
    r"|identifier|header|last|ending|ends|policy|example|sha\d*|hash|digest|checksum|fingerprint|revision"
    r"|rev|build|request|trace|span|run|job|id|uuid|kid|thumbprint|serial|version|image|tag"
    r"|pipeline|issue|ticket|pr)\b"
)
# Where the clause after a name ends: a sentence's end, a line's, or a label's or code's punctuation
# (a colon before a blank is a label in prose: 'Neues Kennwort für "Administrator": …').
_CLAUSE_END = linear(r"[.!?](?:\s|$)|:[^ \t]|[。！？；\n=\[\]{}<>|,;/\\]")
_WORD = linear(r"[^\s\"'„“”«»「」『』‘’`,，、。()（）\[\]{}<>]+")
_DOTTED = linear(r"^[A-Za-z][\w-]*(?:\.[\w-]+)+$")
_HEX = frozenset("0123456789abcdef")
_WINDOW = 90
# A name of a key (whose shorter hex is its id) rather than of a password, a secret or a token.
_KEYED = linear(
    r"(?i)key|ключ|キー|키|鍵|clave|chave|clé|chiave|schlüssel|sleutel|klucz|anahtar|licen|lizenz"
)
_UNKEYED = linear(r"(?i)passw|pwd|secret|token|пароль|токен|секрет|密码|令牌|トークン|비밀번호|토큰")
# A value given in parentheses right after the name, bare or in prose's quotes ("the API key
# (« 321b… »)", "API 인증키(fa3c…)를"): an aside that is the value itself.
_ASIDE = linear(r"^[ \t]?[(（][ \t]*[«“„\"'「『]?[ \t]*[A-Za-z0-9]")
# What ends the words before a value that presents it ("now set: …", "… für den Import — …", a
# quote: "la clé API NCBI du labo (« … »)").
_PRESENTED = (":", "—", "–", " -", "«", "“", "„", '"')


def _secret_word(value: str, between: str, password: bool, keyed: bool) -> bool:
    """Whether ``value``, after ``between`` (the words since the name), reads as the secret itself."""
    if len(value) < 10 or len(value) > 200 or REDACTED in value or "..." in value or "…" in value:
        return False
    if ":" in value or "=" in value.rstrip("=") or value.startswith(("/", "./", "~", "$", "%", "-")):
        return False  # a URL, a label, an assignment, a path, a reference or a flag
    user, at, host = value.rpartition("@")
    if at and user and "." in host:
        return False  # an e-mail address
    if is_placeholder(value) or published_or_sample(value) or uuid_shaped(value) or number_like(value):
        return False
    if plain_words(value) or camel_word(value) or file_path(value) or _DOTTED.match(value) is not None:
        return False
    if _NAME.fullmatch(value) is not None or _SOMETHING_ELSE.search(between) is not None:
        return False
    if decoded_text(value) is not None:
        return False  # text in hex or base64: the encoded run's own step reads what it says
    if set(value.lower()) <= _HEX:
        # Shorter hex is a key's id or a digest; further from the name, only a value presented.
        words = len(between.split())
        if not long_hex(value):
            # ... but 20 digits or more right after a password's, a secret's or a token's word, whose
            # id nobody writes there ("đổi sang secret mới 21e9…": Pusher's secret is 20 digits).
            near = words <= 2 or (words <= 6 and between.rstrip().endswith(_PRESENTED))
            return not keyed and len(value) >= 20 and near and any(c.isalpha() for c in value)
        return words <= 4 or (words <= 10 and between.rstrip().endswith(_PRESENTED))
    if looks_random(value, 16) and not joined_words(value) and not holds_common_word(value):
        return True  # not words joined by separators (``prod-db_backup``) or run together
    if not spoken_password(value):
        return False
    return password or (len(value) >= 10 and any(c in SIGNS for c in value))


def _holds_secret(name: str) -> bool:
    """Whether a name holds a secret rather than naming or counting one (``password_file``)."""
    low = name.lower().rstrip("_.-")
    return low.endswith(_HOLDS) or not low.endswith(_NAME_ONLY)


def nearby_sub() -> Callable[[str], str]:
    """The step: after each secret's name, the first word of its clause that reads as the secret."""

    def step(text: str) -> str:
        spans: list[tuple[int, int]] = []
        names = list(_NAME.finditer(text))
        for i, m in enumerate(names):
            name = m.group(0) or ""
            start, end = m.start(0), m.end(0)
            if not _holds_secret(name):
                continue
            password = _PASSWORD.search(name) is not None
            keyed = _KEYED.search(name) is not None and _UNKEYED.search(name) is None
            if start and text[start - 1] in ":/@$%{.\\":
                continue  # in a URL, a variable's reference, a dotted name
            # The clause ends where the next name begins: what follows that is said of it.
            stop = min(end + _WINDOW, names[i + 1].start(0) if i + 1 < len(names) else len(text))
            after = text[end:stop]
            first = after.lstrip(" \t")[:1]
            label = first == ":" and not name.isascii()  # a label no named rule reads ("秘密鍵: …")
            if first and first in ":=[{(\"'<>|,;/.-_@$" and _ASIDE.match(after) is None and not label:
                continue  # a label or code: the named rules read those
            clause = _CLAUSE_END.search(after)
            if clause is not None:
                after = after[: clause.start(0)]
            for word in _WORD.finditer(after):
                at = end + word.start(0)
                value = word.group(0) or ""
                if word.end(0) == len(after) and end + len(after) == stop < len(text):
                    whole = _WORD.match(text[at : at + 300])  # a word the window cut: read it whole
                    value = whole.group(0) or "" if whole is not None else value
                value = value.rstrip(".,:;!?)")
                if text[at - 1] in "(（" and after[: word.start(0)].strip(" \t(（"):
                    continue  # an aside in parentheses after other words: "the token header (c274…)"
                if len(value) >= 10 and _secret_word(value, after[: word.start(0)], password, keyed):
                    spans.append((at, at + len(value)))
                    break
        for a, b in sorted(set(spans), reverse=True):
            text = text[:a] + REDACTED + text[b:]
        return text

    return step
