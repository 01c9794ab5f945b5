"""Secrets in Markdown tables: a column whose header names a secret, and its cells the values.

An agent's summary often tabulates what it set up (``| user | password |`` then ``| admin | … |``):
no cell names its value, so no assignment rule sees one. A table is a header row, a separator row
(``| --- | :-: |``, a dash or more a cell) and the rows up to the first line that is not one; in
each column whose header is a secret's name (``Password``, ``API key``, ``Token``, ``Client
secret``), a cell that holds a password-like or generated value is redacted. Words
(``required``, ``see vault``), placeholders and numbers stay: a table about settings is not a
table of secrets.

A table of names and values (``| Variable | Value |`` then ``| DB_PASSWORD | … |``, or such a row
alone) holds its secret in the cell after the one that names it: :func:`row_sub` redacts a cell
that follows a cell naming a secret, on any line with bars, when it holds such a value.

A CSV or TSV file pasted with its header (``email,role,password`` then a row a line) holds its
secrets the same way: :func:`csv_sub` redacts, in each column whose header names a secret, the
cells of the rows below that have as many fields as the header, up to the first that has not.

A table a CLI prints aligned in columns (``USERNAME   PASSWORD`` then a row a line) holds them the
same way: :func:`aligned_sub` redacts, in each column whose header names a secret, the word that
starts where the header's name does.

An HTML table (a report an agent rendered, ``<tr><td>password</td><td>…</td></tr>``) holds them
both ways, and a definition list (``<dt>Password</dt><dd>…</dd>``) the second: :func:`html_sub`
redacts a cell after a cell that names a secret, and the cells under a header cell that names one,
up to the table's end.

Linear in the text: one pass over its lines, each cut at its bars (or commas, or tabs) once; an
HTML text is cut at its rows' tags once, and each row read for its cells once.
"""

from __future__ import annotations

from osmia.memory.linear import linear
from osmia.memory.secret_placeholders import REDACTED, is_placeholder, spans_redacted
from osmia.memory.secret_values import generated_value, long_hex, password_value

__all__ = [
    "ALIGNED_GATE",
    "CSV_GATE",
    "FOREIGN_TABLE_GATE",
    "HTML_GATE",
    "ROW_GATE",
    "TABLE_GATE",
    "aligned_sub",
    "csv_sub",
    "html_sub",
    "row_sub",
    "table_sub",
]

# A password's, a key's or a token's noun in the languages redaction's prose rules read.
_FOREIGN_NOUNS = (
    r"(?:пароль|ключ|токен|passwort|kennwort|schlüssel|contraseña|clave|mot de passe|clé|senha|chave"
    r"|hasło|klucz|wachtwoord|sleutel|şifre|parola|anahtar|mật khẩu|密码|密碼|密钥|口令|令牌|パスワード"
    r"|キー|トークン|비밀번호|키|토큰)"
)
_NOUNS = r"(?:passw|passphrase|pwd|secret|token|key|credential)"

# What redaction's one scan looks for: a secret's name in a row, then the next line a separator row.
TABLE_GATE = rf"(?i)(?:{_NOUNS}|\bvalue\b)[^\n]*(?:\|[ \t]*|[ \t]*)\r?\n[ \t]*[|+]?[ \t]*:?-"

# ... and for :func:`row_sub`: a secret's name in a cell, then a bar and another cell.
ROW_GATE = rf"(?i){_NOUNS}[^|\n]*\|[ \t]*[^|\s]"
# ... and for both, a noun of another language's in a row (a pattern apart: in the two above, the
# nouns cost the scan's automaton ~0.05 MB).
FOREIGN_TABLE_GATE = rf"(?i){_FOREIGN_NOUNS}[^\n]*\|"

# A header cell that names a secret (after its emphasis and code marks): the whole cell.
_SECRET_HEADER = linear(
    r"(?i)^(?:[a-z0-9 _.-]*[ _.-])?(?:password|passwd|passphrase|pwd|secret|token|api[ _.-]?key"
    r"|access[ _.-]?key|private[ _.-]?key|credentials?)s?$"
    # ... or, in another language, a password's, a key's or a token's noun (``| Сервіс | Ключ |``).
    rf"|^(?:[a-z0-9 _.-]*[ _.-])?{_FOREIGN_NOUNS}$"
)
# (``|---|:-:|``, or psql's ``----+----`` and MySQL's ``+----+----+``, whose rows have bars too)
_SEPARATOR = linear(r"^[ \t]*[|+]?(?:[ \t]*:?-+:?[ \t]*[|+])+[ \t]*(?::?-+:?[ \t]*)?$")
_MARKS = "*_` \t"


def _cells(row: str) -> list[tuple[int, int]]:
    """The spans of a row's cells (between its bars; an escaped ``\\|`` is text), outer bars aside."""
    bars = [i for i, c in enumerate(row) if c == "|" and (i == 0 or row[i - 1] != "\\")]
    if not bars:
        return []
    edges = [-1, *bars, len(row)]
    spans = [(edges[k] + 1, edges[k + 1]) for k in range(len(edges) - 1)]
    if not row[: bars[0]].strip():
        spans = spans[1:]  # a leading bar
    if spans and not row[bars[-1] + 1 :].strip():
        spans = spans[:-1]  # a trailing bar
    return spans


def _secret_cell(value: str) -> bool:
    """A cell that holds a password or a generated value: one token (a cell with blanks is prose:
    "stored in Vault at secret/prod/api"), not a word, number or placeholder."""
    if not value or is_placeholder(value) or any(c.isspace() for c in value):
        return False
    return password_value(value) or generated_value(value) or long_hex(value)


# A table of names and values by column (``| variable | value |``, an ESP32 NVS partition's
# ``key,type,encoding,value``): the header of the names' column, the values', and a name in a row
# that says its value is a secret (``wandb_key``, ``pass``, ``cloud_token``).
_NAME_HEADER = linear(r"(?i)^(?:name|key|variable|var|setting|field|env|parameter|property)s?$")
_VALUE_HEADER = linear(r"(?i)^values?$")
_SECRET_NAME_CELL = linear(
    r"(?i)(?:passw|passphrase|pwd|secret|token|credential|api[_.-]?key|(?:^|[_.-])(?:pass|key|psk|pin)$)"
)


def _name_value_columns(headers: list[str]) -> tuple[int, int] | None:
    """The columns of names and of values of a table whose header has both, else None."""
    names = [k for k, h in enumerate(headers) if _NAME_HEADER.match(h) is not None]
    values = [k for k, h in enumerate(headers) if _VALUE_HEADER.match(h) is not None]
    return (names[0], values[0]) if names and values and names[0] != values[0] else None


def _row_columns(
    columns: set[int], pair: tuple[int, int] | None, row: str, cells: list[tuple[int, int]], marks: str
) -> set[int]:
    """``columns``, and the value's column of a row whose name's cell names a secret."""
    if pair is None or max(pair) >= len(cells):
        return columns
    start, end = cells[pair[0]]
    named = _SECRET_NAME_CELL.search(row[start:end].strip(marks)) is not None
    return columns | {pair[1]} if named else columns


def _redacted_row(
    row: str, columns: set[int], cells: list[tuple[int, int]] | None = None, marks: str = _MARKS
) -> str:
    """``row`` with the secret cells of ``columns`` redacted (``cells``: their spans, a Markdown
    row's by default; ``marks``: what around a cell's value is not part of it)."""
    out, last = [], 0
    for k, (start, end) in enumerate(_cells(row) if cells is None else cells):
        if k not in columns:
            continue
        cell = row[start:end]
        value = cell.strip(marks)
        if not _secret_cell(value):
            continue
        at = start + cell.index(value)
        out.append(row[last:at] + REDACTED)
        last = at + len(value)
    return "".join(out) + row[last:] if out else row


def table_sub(text: str) -> str:
    """Redact the secret cells of every Markdown table in ``text`` (a redaction step)."""
    lines = text.split("\n")
    changed = False
    i = 0
    while i + 1 < len(lines):
        header, separator = lines[i], lines[i + 1].rstrip("\r")
        if "|" not in header or _SEPARATOR.search(separator) is None:
            i += 1
            continue
        heads = [header[start:end].strip(_MARKS) for start, end in _cells(header.rstrip("\r"))]
        columns = {k for k, head in enumerate(heads) if _SECRET_HEADER.search(head) is not None}
        pair = _name_value_columns(heads)
        i += 2
        while i < len(lines) and "|" in lines[i] and lines[i].strip():
            cells = _cells(lines[i].rstrip("\r"))
            wanted = _row_columns(columns, pair, lines[i], cells, _MARKS)
            if wanted:
                row = _redacted_row(lines[i], wanted, cells)
                changed = changed or row != lines[i]
                lines[i] = row
            i += 1
    return "\n".join(lines) if changed else text


def row_sub(text: str) -> str:
    """Redact the cell after each cell that names a secret, on every line with bars (a redaction step)."""
    lines = text.split("\n")
    changed = False
    for i, line in enumerate(lines):
        if "|" not in line:
            continue
        cells = _cells(line.rstrip("\r"))
        named = {
            k + 1
            for k, (start, end) in enumerate(cells[:-1])
            if _SECRET_HEADER.search(line[start:end].strip(_MARKS)) is not None
        }
        if named:
            row = _redacted_row(line, named)
            changed = changed or row != line
            lines[i] = row
    return "\n".join(lines) if changed else text


# What redaction's one scan looks for: a field that names a secret at the end of a line, or before
# a comma or a tab, with a comma or a tab before it on the same line (a CSV or TSV header).
CSV_GATE = (
    r"(?i)[,\t][ \t\"']*(?:[\w .-]*(?:passw(?:or)?d|passphrase|pwd|secret|token|api[ _.-]?key|credentials?)"
    r"|value)"
    r"[ \t\"']*(?:[,\t]|\r?\n)"
)
_CSV_QUOTES = " \t\"'"


def _fields(line: str, separator: str) -> list[tuple[int, int]]:
    """The spans of ``line``'s fields between ``separator`` (no quoted separators: a CSV whose cells
    hold commas is read as far as its header's count still matches)."""
    spans, start = [], 0
    for i, c in enumerate(line):
        if c == separator:
            spans.append((start, i))
            start = i + 1
    spans.append((start, len(line.rstrip("\r"))))
    return spans


def csv_sub(text: str) -> str:
    """Redact the secret cells of every CSV or TSV table in ``text`` (a redaction step)."""
    lines = text.split("\n")
    changed = False
    i = 0
    while i < len(lines):
        header = lines[i]
        separator = "\t" if "\t" in header else ","
        if separator not in header:
            i += 1
            continue
        spans = _fields(header, separator)
        heads = [header[start:end].strip(_CSV_QUOTES) for start, end in spans]
        columns = {k for k, head in enumerate(heads) if _SECRET_HEADER.search(head) is not None}
        pair = _name_value_columns(heads)
        i += 1
        if not columns and pair is None:
            continue
        while i < len(lines):
            cells = _fields(lines[i], separator)
            if len(cells) != len(spans):
                break
            wanted = _row_columns(columns, pair, lines[i], cells, _CSV_QUOTES)
            row = _redacted_row(lines[i], wanted, cells, _CSV_QUOTES) if wanted else lines[i]
            changed = changed or row != lines[i]
            lines[i] = row
            i += 1
    return "\n".join(lines) if changed else text


# What redaction's one scan looks for: a table cell or a defined term whose text names a secret
# (after the opening tags of its emphasis, ``<td><b>Password``).
HTML_GATE = (
    r"(?i)<(?:t[hd]|dt)\b[^<>]*>(?:[^<]|<[a-z][^<>]*>)*(?:passw|passphrase|pwd|secret|token|key|credential)"
)

# A row's start, a table's end, a cell (its tag's name and what is inside), a term and its definition.
_ROW_START = linear(r"(?i)<tr\b[^<>]*>|</table\s*>")
_CELL = linear(r"(?is)<(t[hd])\b[^<>]*>(.*?)</t[hd]\s*>")
_TERM = linear(r"(?is)<dt\b[^<>]*>(.*?)</dt\s*>\s*<dd\b[^<>]*>(.*?)</dd\s*>")
_TAG = linear(r"<[^<>]*>")
_HTML_MARKS = _MARKS + ":"


def _html_text(inner: str) -> str:
    """A cell's text: its tags dropped, the marks around it stripped."""
    return _TAG.sub("", inner).strip(_HTML_MARKS)


def _value_span(text: str, start: int, end: int) -> tuple[int, int] | None:
    """Where in ``text[start:end]`` (a cell's inside) its value is written whole, when it holds a
    secret: a value split by tags inside it (``ab<i>cd``) is read by cleaning's markup step first."""
    value = _html_text(text[start:end])
    at = text.find(value, start, end) if value and _secret_cell(value) else -1
    return None if at < 0 else (at, at + len(value))


def html_sub(text: str) -> str:
    """Redact the secret cells of HTML tables and definition lists in ``text`` (a redaction step)."""
    spans: list[tuple[int, int]] = []
    # Rows from each ``<tr>`` (and cells before the first: a row pasted without its tag).
    starts = [*sorted({0, *(m.start(0) for m in _ROW_START.finditer(text))}), len(text)]
    columns: set[int] = set()
    for k, start in enumerate(starts[:-1]):
        if text.startswith("</", start):
            columns = set()  # a table's end: its header's columns end with it
            continue
        cells = [
            (m.group(1) or "", m.start(2), m.end(2)) for m in _CELL.finditer(text[start : starts[k + 1]])
        ]
        named = [
            _SECRET_HEADER.search(_html_text(text[start + a : start + b])) is not None for _t, a, b in cells
        ]
        if cells and all(tag.lower() == "th" for tag, _a, _b in cells):
            columns = {j for j, is_named in enumerate(named) if is_named}
            continue
        for j, (_tag, a, b) in enumerate(cells):
            if j in columns or (j > 0 and named[j - 1]):
                found = _value_span(text, start + a, start + b)
                if found is not None:
                    spans.append(found)
    for m in _TERM.finditer(text):
        if _SECRET_HEADER.search(_html_text(m.group(1) or "")) is not None:
            found = _value_span(text, m.start(2), m.end(2))
            if found is not None:
                spans.append(found)
    return spans_redacted(text, spans) if spans else text


# What redaction's one scan looks for: a header in capitals that names a secret, after another
# column's name and two blanks or more (a CLI's ``-o table``: ``USERNAME   PASSWORD   PASSWORD2``).
ALIGNED_GATE = r"[A-Z][A-Z0-9_]*[ \t]{2,}[A-Z0-9_ \t]*(?:PASSW|PASSPHRASE|PWD|SECRET|TOKEN|KEY|CREDENTIAL)"
_ALIGNED_HEADER = linear(r"^[ \t]*[A-Z][A-Z0-9_-]*(?:[ \t]{2,}[A-Z][A-Z0-9_-]*)+[ \t]*\r?$")
_ALIGNED_COLUMN = linear(r"[A-Z][A-Z0-9_-]*")
_DASHES = linear(r"^[ \t]*-{3,}(?:[ \t]+-{3,})*[ \t]*\r?$")


def aligned_sub(text: str) -> str:
    """Redact the secret cells of every table a CLI prints aligned in columns (``az acr credential show
    -o table``, ``… list --output table``): a header of names in capitals two blanks apart or more,
    dashes under it perhaps, then rows up to the first blank line. In each column whose name is a
    secret's (``PASSWORD``, ``PASSWORD2``, ``CLIENT_SECRET``; not ``KEY_ID`` or ``SECRET_NAME``), the
    word that starts where the name starts, when it holds a password or generated value (a redaction
    step)."""
    lines = text.split("\n")
    spans: list[tuple[int, int]] = []
    offset = 0
    starts = []
    for line in lines:
        starts.append(offset)
        offset += len(line) + 1
    i = 0
    while i < len(lines):
        header = lines[i]
        if _ALIGNED_HEADER.match(header) is None:
            i += 1
            continue
        columns = [
            m.start(0)
            for m in _ALIGNED_COLUMN.finditer(header)
            if _SECRET_HEADER.search((m.group(0) or "").rstrip("0123456789").replace("_", " ")) is not None
        ]
        i += 1
        if i < len(lines) and _DASHES.match(lines[i]) is not None:
            i += 1
        while columns and i < len(lines) and lines[i].strip():
            row = lines[i]
            for at in columns:
                if at >= len(row) or row[at].isspace() or (at > 0 and not row[at - 1].isspace()):
                    continue
                end = at
                while end < len(row) and not row[end].isspace():
                    end += 1
                if _secret_cell(row[at:end]):
                    spans.append((starts[i] + at, starts[i] + end))
            i += 1
    return spans_redacted(text, spans) if spans else text
