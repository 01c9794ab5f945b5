"""Secret redaction: every credential a scanner knows becomes ``[redacted]``.

Rules are the formats maintained scanners (gitleaks, detect-secrets)
recognise, written as general shapes, not as examples: private-key blocks
across lines, provider tokens with a fixed prefix, credentials in URLs and
HTTP headers, and values assigned to secret-like names (``DB_PASSWORD=``,
``"password": "…"``, ``--token …``: :mod:`osmia.memory.secret_names`). Names that only
weakly suggest a secret (``*_KEY``, ``auth``, ``session``…) are redacted only when the value
looks random (the high-entropy fallback). Only the secret itself is replaced, so
``DB_PASSWORD=[redacted]`` still says what was there. This module runs the steps in order.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time on any input.
Redaction is idempotent: ``[redacted]`` matches no rule.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from osmia.memory.linear import LinearPattern, Match, PatternSet, linear
from osmia.memory.secret_assembled import assembled_steps, random_literal, token_piece
from osmia.memory.secret_calls import CALL_STEPS
from osmia.memory.secret_cuts import CUT_SHORT_RULE
from osmia.memory.secret_decoding import decoded_text, private_key_head
from osmia.memory.secret_elements import ELEMENT_STEPS
from osmia.memory.secret_flags import FLAGS_GATE, flags_sub
from osmia.memory.secret_formats import GLUED_RULE, RULES
from osmia.memory.secret_inserts import INSERT_GATE, insert_sub
from osmia.memory.secret_joined import JOINED, joined_sub
from osmia.memory.secret_mnemonic import MNEMONIC_GATE, mnemonic_sub
from osmia.memory.secret_name_values import STRONG_NAME, key_named
from osmia.memory.secret_names import NAMED_STEPS, redacted_group
from osmia.memory.secret_nearby import NEARBY_GATE, nearby_sub
from osmia.memory.secret_placeholders import REDACTED, filler_token, masked
from osmia.memory.secret_quoted import QUOTED, quoted_sub
from osmia.memory.secret_rule import Rule
from osmia.memory.secret_tables import (
    ALIGNED_GATE,
    CSV_GATE,
    FOREIGN_TABLE_GATE,
    HTML_GATE,
    ROW_GATE,
    TABLE_GATE,
    aligned_sub,
    csv_sub,
    html_sub,
    row_sub,
    table_sub,
)
from osmia.memory.secret_tails import (
    GLUED,
    NEXT_LINE,
    REST_TOLD,
    TAIL,
    glued_sub,
    next_line_sub,
    rest_told_sub,
    tail_sub,
)
from osmia.memory.secret_told import TOLD_AFTER, told_after_sub
from osmia.memory.secret_unnamed import UNNAMED, unnamed_sub
from osmia.memory.secret_values import entropy, long_hex, looks_random, password_value
from osmia.memory.secret_views import VIEWS, joins, view_sub

__all__ = [
    "CANDIDATES",
    "REDACTED",
    "RULES",
    "contains_secret",
    "entropy",
    "looks_random",
    "redact",
    "redact_name",
]


# A long base64 or hex run (base64 standard or URL-safe, possibly wrapped across whole lines): the
# encoding of a token (24 bytes and more), a key file, a credentials file, a kubeconfig or a
# service-account JSON, with no name to say so.
_ENCODED = r"(?m)[A-Za-z0-9+/_-]{32,}={0,2}(?:[ \t]*\r?\n[ \t]*[A-Za-z0-9+/_-]{8,}={0,2}[ \t]*$)*"


def _encoded_sub() -> Callable[[str], str]:
    """Redact a base64 run whose decoding is text :func:`redact` would change, or a key's header.

    Each decoding is shorter than its run, so the recursion ends, and the work stays linear.
    """
    pattern = linear(_ENCODED)

    def secret(run: str, start: int, whole: str) -> bool:
        text = decoded_text(run)
        if text is None:
            return False
        return private_key_head(text) or redact(text) != text or _named_value(whole, start, text)

    def replace(m: Match, whole: str) -> str:
        run = m.group(0) or ""
        if secret(run, m.start(0), whole):
            return REDACTED + run[len(run.rstrip()) :]
        if "\n" not in run:
            return run
        # Lines read as one wrapped run that is none: a path over a dump (``$ xxd -p
        # /run/secrets/api_token`` then its hex), each line is read as a run of its own.
        out, at = [], m.start(0)
        for line in run.splitlines(keepends=True):
            body = line.strip()
            lead = len(line) - len(line.lstrip())
            if len(body) >= 32 and secret(body, at + lead, whole):
                out.append(line[:lead] + REDACTED + line[lead + len(body) :])
            else:
                out.append(line)
            at += len(line)
        return "".join(out)

    return lambda text: pattern.sub(lambda m: replace(m, text), text)


# A literal given to a decoding call (``bytes.fromhex("…")``, ``Hex.decodeHex("…")``, ``atob('…')``,
# ``Buffer.from("…", "base64")``): code that decodes a constant into text it uses.
_DECODING_CALL = linear(
    r"(?i)(?:fromhex|decodehex|unhexlify|hex2bin|hexdecode|b64decode|atob|decodestring|frombase64string"
    r"|decode64|base64decode|buffer\.from)\([ \t]*[bru]?[\"'`]$"
)


_NAME_REACH = 160


def _named_value(text: str, start: int, decoded: str) -> bool:
    """Whether the run at ``start`` decodes to a value shaped as a secret (random, or a password's
    mix) after a name of one earlier on its line (``TWILIO_AUTH_TOKEN (hex-encoded): 6565…``,
    ``LDAP bind password (hex): 414B…``): a secret encoded once, with its name beside it; or given
    to a call that decodes it (``new String(Hex.decodeHex("4367…"))``): nobody encodes a constant
    that decodes to a random or password-like value in code but to keep a scanner from reading it."""
    # The line before the run, up to a few words' length: a long line of many runs is read once per
    # run, and a name or a call further back is no longer this run's. A run that starts its line
    # is read with the line above (``$ xxd -p /run/secrets/api_token`` over its dump).
    begin = text.rfind("\n", 0, start)
    if not text[begin + 1 : start].strip() and begin > 0:
        begin = text.rfind("\n", 0, begin - 1)
    line = text[max(begin, start - _NAME_REACH, 0) : start]
    if STRONG_NAME.search(line) is None and _DECODING_CALL.search(line) is None:
        return False
    value = decoded.strip()
    words = value.replace("_", "-").replace(".", "-").split("-")
    worded = sum(w.isalpha() and w.islower() and len(w) >= 3 for w in words)
    if any(c.isspace() or c in "{}[]\"'<>" for c in value) or worded >= 3 or len(value) > 128:
        return False  # words, a name made of them (``token-cache-key-for-users-v1``), a document
    return looks_random(value, 12) or password_value(value)


# A token split over string literals joined by ``+`` (or ``.``, ``..``), perhaps assigned to a name:
# ``TOKEN = "xoxb-" + "2278…-" + "ABH0…"``. Each literal alone is too short for a rule, or only the
# first is a prefix a rule knows; together they are the token.
_LITERAL = r"""(?:"[^"\\\r\n]*"|'[^'\\\r\n]*')"""
# The operator (``&`` in VB, ``||`` in SQL too), a line break before or after it (VB's ``_`` before
# the break too), or literals side by side (Python, C), on a line or over lines (inside Python's
# brackets, after a ``\``), or appended
# (``.append("…").append("…")``, ``"…".concat("…")``); or a list of
# literals joined by an empty one (``"".join(["xoxb-", "…"])``, JavaScript's
# ``["xoxb-", "…"].join("")``, over lines too) or given to a concatenating call
# (``CONCAT('sk_live_', '…')``, Rust's ``concat!``, ``"".concat("…", "…")``, PowerShell's ``-join``, Go's
# ``strings.Join``, Terraform's ``join("", […])``).
# A comment may sit in the join (``"xoxb-…" /* split for the scanner */ + "…"``, Python's
# ``"sk-…"  # split for line length`` before the next line's literal): a block comment on the line,
# a line comment before the break.
_BLOCK = r"(?:[ \t]*/\*[^*\r\n]*\*/)?"
_BREAK = r"[ \t]*(?:(?:#|//)[^\r\n]*)?\r?\n[ \t]*"
_JOIN = (
    rf"(?:{_BLOCK}(?:{_BREAK})?[ \t]*(?:\+|\.{{1,2}}|&|\|\|){_BLOCK}[ \t]*(?:_[ \t]*)?(?:{_BREAK})?"
    rf"|[ \t]*(?:\\[ \t]*)?{_BREAK}|[ \t]+|[ \t]*\)?[ \t]*(?:\r?\n[ \t]*)?\.(?:append|concat)\([ \t]*)"
)
_NEXT_ITEM = r"[ \t]*,[ \t]*(?:\r?\n[ \t]*)?"
_ITEMS = rf"[ \t]*(?:\r?\n[ \t]*)?{_LITERAL}(?:{_NEXT_ITEM}{_LITERAL})+"
_LISTED = (
    rf"""(?:""|'')\.join\([\[(]{_ITEMS}"""
    rf"""|\[{_ITEMS},?\s*\]\.join\([ \t]*(?:""|'')[ \t]*\)"""
    rf"""|(?i:concat)!?\({_ITEMS}"""
    # ... PowerShell's ``-join ('…', '…')`` and ``-join @("…", "…")``, Go's ``strings.Join([]string{…}, "")``
    rf"""|-join[ \t]*@?\({_ITEMS}|strings\.Join\(\[\]string\{{{_ITEMS}"""
    # ... and a join whose separator comes first: Terraform's ``join("", ["…", "…"])``, Java's and
    # C#'s ``String.join("", "…", "…")``
    rf"""|\bjoin\([ \t]*(?:""|'')[ \t]*,[ \t]*\[?{_ITEMS}"""
)
# The name may carry its type in words (``Dim pwd As String = "…" & "…"``, Go's ``var pwd string =``),
# and the literals may open a bracket (Python's ``KEY = ("…" "…")``).
_CONCAT = (
    rf"""(?:([A-Za-z_][A-Za-z0-9_.-]*)["']?(?:[ \t]+(?:[Aa][Ss][ \t]+[A-Za-z_][\w.]*|string))?"""
    rf"""[ \t]*(?::=|=|:)[ \t]*(?:\([ \t]*(?:\r?\n[ \t]*)?)?)?"""
    rf"""({_LISTED}|{_LITERAL}(?:{_JOIN}{_LITERAL})+)"""
)
_PIECE = linear(_LITERAL)
# What every concatenation holds, for redaction's one scan: a closing quote, a join and an opening
# quote, or the list join (the whole pattern's optional name in front cost that scan ~20 % more).
_CONCAT_GATE = (
    rf"""["']{_JOIN}["']|\.join\([\[(]|["']\s*\]\.join\(|(?i:concat)!?\([ \t]*["']|-join[ \t]*@?\("""
    r"""|strings\.Join\(|\bjoin\([ \t]*(?:""|'')[ \t]*,"""
)


def _concatenated_sub() -> Callable[[str], str]:
    """Redact every literal of a concatenation whose joined text is a secret: a token redaction
    knows by itself (``"sk_live_" + "51Hx…"``), or the value of the name it is assigned to
    (``DB_PASSWORD = "Sum" + "mer2024!"`` is judged as ``DB_PASSWORD="Summer2024!"``; a name that
    only suggests a secret, ``long_auth``, is not read: its rule takes any random value), or random
    pieces that join into a random token (no word, name or digest among them). Text with a
    space in it is a message, not a token (``"Hello, " + name``): of it only the literals a rule
    takes from the joined text go (``"Bearer " + "…"``)."""
    pattern = linear(_CONCAT)

    def replace(m: Match) -> str:
        whole, chain, name = m.group(0) or "", m.group(2) or "", m.group(1)
        pieces = [(p.start(0), p.end(0)) for p in _PIECE.finditer(chain)]
        texts = [chain[a + 1 : b - 1] for a, b in pieces]
        joined = "".join(texts)
        if len(joined) < 8 or REDACTED in joined:
            return whole
        if any(c.isspace() for c in joined):
            # A message, or a scheme and its token (``"Bearer " + "…"``): only the literals a rule
            # takes from the joined text go.
            out = redact(joined)
            gone = [out != joined and len(t) >= 4 and t.strip() not in out for t in texts]
            return (
                _pieces_redacted(whole, m.start(2) - m.start(0), chain, pieces, gone) if any(gone) else whole
            )
        if name and STRONG_NAME.search(name) is not None:
            assigned = f'{name}="{joined}"'
            secret = redact(assigned) != assigned
        else:
            # (A URL is no random token: an access log's referer and user agent, ``"https://…/"
            # "Mozilla/5.0"``, side by side; a token inside one is its own rules'.)
            secret = len(joined) >= 16 and (
                ("://" not in joined and random_literal(joined) and all(token_piece(t) for t in texts if t))
                or redact(joined) != joined
                # ... or hex of an API key's length given in pieces to a key's name (``SS_KEY``)
                or (name is not None and long_hex(joined) and key_named(name, joined, ""))
            )
        if not secret:
            return whole
        return _pieces_redacted(whole, m.start(2) - m.start(0), chain, pieces, [True] * len(pieces))

    return lambda text: pattern.sub(replace, text)


def _pieces_redacted(
    whole: str, offset: int, chain: str, pieces: list[tuple[int, int]], gone: list[bool]
) -> str:
    """``whole`` with the text of each literal of ``chain`` (at ``offset`` in it) that is ``gone``
    replaced by the marker, its quotes and the joins kept."""
    out, last = [], 0
    for (a, b), lost in zip(pieces, gone, strict=True):
        out.append(chain[last : a + 1] + (REDACTED if lost and b - a > 2 else chain[a + 1 : b - 1]))
        last = b - 1
    out.append(chain[last:])
    return whole[:offset] + "".join(out)


def _rule_sub(rule: Rule) -> Callable[[str], str]:
    check = rule.check

    def replace(m: Match) -> str:
        whole = m.group(0) or ""
        secret = m.group(rule.group)
        if secret is None or secret == REDACTED or (check is not None and not check(secret)):
            return whole
        if masked(secret) or filler_token(secret):
            return whole  # a format's prefix and a mask or a placeholder (``ghp_xxxx…``): a template
        return redacted_group(m, rule.group)

    return lambda text: rule.pattern.sub(replace, text)


# The steps a view's undone run is not given to (set below, once the steps are numbered).
_IN_A_VIEW: frozenset[int]

# Each step with the pattern it acts on: a step whose pattern matches nowhere in the text leaves
# it as it is.
_STEPS: tuple[tuple[str, Callable[[str], str]], ...] = (
    # First a token split over string literals: a view that read the first literal as a token cut
    # short (``"xoxb-…" /* … */ + "…"``) would leave the rest.
    (_CONCAT_GATE, _concatenated_sub()),
    # Then the disguises (:mod:`osmia.memory.secret_views`): a rule that took the first line of a
    # wrapped token would leave the rest.
    *(
        (
            view.gate,
            view_sub(view, lambda seen: _redact(seen, _IN_A_VIEW), REDACTED, lambda s, r, w: _news(s, r, w)),
        )
        for view in VIEWS
    ),
    # Then strings built from literals at run time: interpolated, formatted, listed in pieces
    # (:mod:`osmia.memory.secret_assembled`).
    *assembled_steps(lambda seen: redact(seen)),
    # Then a wallet's recovery words, which its own words say are one wherever they stand.
    (MNEMONIC_GATE, mnemonic_sub()),
    # Then every format's own rule, a token written onto a word, and a token cut short.
    *((rule.gate or rule.pattern.pattern, _rule_sub(rule)) for rule in (*RULES, GLUED_RULE)),
    (CUT_SHORT_RULE.gate or "", _rule_sub(CUT_SHORT_RULE)),
    (TABLE_GATE, table_sub),
    (ROW_GATE, row_sub),
    (FOREIGN_TABLE_GATE, lambda text: row_sub(table_sub(text))),
    (CSV_GATE, csv_sub),
    (INSERT_GATE, insert_sub),
    (HTML_GATE, html_sub),
    (ALIGNED_GATE, aligned_sub),
    *NAMED_STEPS,
    *ELEMENT_STEPS,
    *CALL_STEPS,
    # Then what no name says in a form the rules above read: a password's flag after a user's
    # flag, a value a few words after a secret's name in any language, a quoted literal shaped
    # as a password on its own, and a random run that nothing names.
    (FLAGS_GATE, flags_sub()),
    (NEARBY_GATE, nearby_sub()),
    (QUOTED, quoted_sub()),
    (UNNAMED, unnamed_sub()),
    (_ENCODED, _encoded_sub()),
    # Last: the rest of a value that a step above redacted only the start of (cut by a blank, or
    # the first of a list), after what is glued to a marker: :mod:`osmia.memory.secret_tails`.
    (GLUED, glued_sub()),
    (TAIL, tail_sub()),
    # ... wrapped onto the next line by a terminal or a logger,
    (NEXT_LINE, next_line_sub()),
    # ... or assigned to variables that code joins where it uses them (``f"{p1}{p2}"``),
    (JOINED, joined_sub(lambda seen: redact(seen))),
    # ... or said to be a secret after it, under a label that says otherwise ("… actually the key"),
    (TOLD_AFTER, told_after_sub()),
    # ... and the rest of a secret told after its redacted start ("second half: …").
    (REST_TOLD, rest_told_sub()),
)
# The views' steps (the concatenation's comes first): a rule is any other.
_VIEW_STEPS = frozenset(range(1, 1 + len(VIEWS)))
# What a view's undone run is not given to: a token cut short, and the rest told after one. A view
# joins a run's pieces, and a whole token joined to the words after it reads as a longer one cut
# short (``AKIA…76`` and the next line's ``aws_secret_access_key``, read as one run, took the name
# the next rule needs). Nor is the unnamed run's step: pieces joined read as random where none is
# (a UUID's groups and the words after it).
_IN_A_VIEW = frozenset(
    i
    for i, (pattern, _step) in enumerate(_STEPS)
    if pattern in (CUT_SHORT_RULE.gate, REST_TOLD, NEXT_LINE, UNNAMED)
)
# A redaction can join what a rule split (a key block ending a value); a few passes settle it.
_MAX_PASSES = 4


# Which steps' patterns match a text, in one scan: a text that matches one (most engineering text
# that names a token, a password, a key or an auth service) is given to those steps only, not to
# all of them, each an RE2 call (docs/performance.md §23: 75 → 16 µs a line of such text). Each of the
# set's automata is kept to a budget (below); text that needs more states (many secret
# formats at once) has them rebuilt as it is scanned, slower, and should RE2 give up, every step
# runs. The base64 run is searched apart from the others (linear.AnyOf: a long identifier in a
# union cost 2-4 ms the first time, docs/performance.md §31), and so are twelve short words in a
# row (the recovery words' gate: in a union, prose's every word is a state of it, and the scan of
# a new run took twice the time, §59); the union is two, the steps that
# ignore case and the others (linear.AnyOf's ``by_case``: a new text's states cost a third less to
# build, with less than half of the memory, docs/performance.md §46). The set itself is five, of at
# most 64 steps each, for the same reason: half the time at the tail of a first pass over new runs.
# Each keeps 3 MB (its program ~1-1.5 MB, the rest for states): at 8 MB each, a process serving
# 100k nodes whose every shown line was cleaned again held ~10 MB more than with one set, at 3 MB
# ~5 MB more; serving 1M restamped nodes, 192.7 MB against 192.3 (docs/performance.md §52).
_STEP_SET = PatternSet(
    (pattern for pattern, _step in _STEPS),
    apart=[index for index, (pattern, _step) in enumerate(_STEPS) if pattern in (_ENCODED, MNEMONIC_GATE)],
    max_mem=3 << 20,
    by_case=True,
    most=64,
)
# ... and whether any matches at all: most text matches none, and then one search decides.
CANDIDATES = _STEP_SET.prefilter


@functools.cache
def _step_pattern(index: int) -> LinearPattern:
    """The pattern of step ``index``, compiled on first use (:func:`_news` needs few of them)."""
    return linear(_STEPS[index][0])


def _news(seen: str, run: str, where: list[int]) -> bool:
    """Whether a rule matches ``seen`` (a view of ``run``; ``where`` maps it back) where it cannot
    match ``run`` as written: a rule the run lacks, or a match that spans a place the view
    joined. A rule that matched the run's first line alone (``sk-ant-…`` wrapped after 60
    characters) would leave the rest of the token; the view takes it whole."""
    now = _STEP_SET.matching(seen)
    before = _STEP_SET.matching(run)
    rules = [index for index in now if index not in _VIEW_STEPS]
    if not rules:
        return False  # most runs: two words either side of a line break
    if any(index not in before for index in rules):
        return True
    joined = joins(where[: len(seen)])
    return any(
        m.start(0) < k < m.end(0)
        for index in rules
        for m in _step_pattern(index).finditer(seen)
        for k in joined
    )


def _one_pass(text: str, skip: frozenset[int] = frozenset()) -> str:
    """Every step in order but those in ``skip``, as ``for step in _STEPS: text = step(text)``
    computes it, skipping the steps whose pattern matches nowhere in the text as it is when their
    turn comes."""
    todo = [index for index in _STEP_SET.matching(text) if index not in skip]
    while todo:
        index, todo = todo[0], todo[1:]
        after = _STEPS[index][1](text)
        if after != text:
            text = after
            todo = [later for later in _STEP_SET.matching(text) if later > index and later not in skip]
    return text


def redact(text: str) -> str:
    """``text`` with every credential replaced by ``[redacted]``; multi-line; idempotent.

    A value redacted once is redacted wherever else the text repeats it: a rule that reads it in
    one place (``hmac.new(b"…"``) says what it is in every other ("the secret on the hook is …").
    """
    out = _redact(text, frozenset())
    return out if out == text else _elsewhere(text, out)


# What a value taken out must be for its other occurrences to go too: a run of 8 or more
# characters without blanks (a word or a phrase a rule took with its value is not repeated alone);
# the longest 32 of a text's values are looked for (each a scan of the text: a text of thousands of
# secrets costs 32 scans, not thousands).
_REPEATED = 8
_REPEATED_AT_MOST = 32


def _elsewhere(text: str, out: str) -> str:
    """``out`` (``text`` redacted) with every other occurrence of a value it took out redacted too.

    The values are read back from where the markers stand: ``out`` is ``text`` with spans replaced
    by the marker, so the literal text between two markers is found in ``text`` in order, and what
    lies between is what was taken. Linear in the text's length for each of the (at most
    :data:`_REPEATED_AT_MOST`) values looked for.
    """
    pieces = out.split(REDACTED)
    if not text.startswith(pieces[0]) or not text.endswith(pieces[-1]):
        return out  # not a plain replacement of spans: leave it as it is
    taken: set[str] = set()
    pos = len(pieces[0])
    for k, nxt in enumerate(pieces[1:], start=1):
        end = len(text) - len(nxt) if k == len(pieces) - 1 else text.find(nxt, pos + 1)
        if end < pos:
            return out
        value = text[pos:end]
        if len(value) >= _REPEATED and not any(c.isspace() for c in value):
            taken.add(value)
        pos = end + len(nxt)
    for value in sorted(taken, key=lambda v: (-len(v), v))[:_REPEATED_AT_MOST]:
        out = _replaced_apart(out, value)
    return out


def _replaced_apart(out: str, value: str) -> str:
    """``out`` with each occurrence of ``value`` that no marker touches replaced by the marker (one
    beside a marker is what the rule left of the same match: ``password=`` before its value)."""
    parts, last, at = [], 0, out.find(value)
    while at >= 0:
        end = at + len(value)
        if not out.startswith(REDACTED, end) and not out.endswith(REDACTED, 0, at):
            parts.append(out[last:at] + REDACTED)
            last = end
        at = out.find(value, end)
    return "".join(parts) + out[last:] if parts else out


def _redact(text: str, skip: frozenset[int]) -> str:
    """:func:`redact` without the steps in ``skip``."""
    if CANDIDATES.search(text) is None:
        return text
    for _ in range(_MAX_PASSES):
        before = text
        text = _one_pass(text, skip)
        if text == before:
            break
    return text


_TOKEN = linear(r"[A-Za-z0-9_+/=.~-]{16,}")


def redact_name(text: str) -> str:
    """A name (engine, language, branch): :func:`redact`, and any random-looking run of 16+ characters.

    Names are words; a token in one is a secret whatever its format, even one
    the parser lower-cased (``spec.repository.language``).
    """
    return _TOKEN.sub(
        lambda m: REDACTED if looks_random(m.group(0) or "", 16) else m.group(0) or "", redact(text)
    )


def contains_secret(text: str) -> bool:
    """True when :func:`redact` would change ``text``."""
    return redact(text) != text


# The name callers have used since the first release.
redact_secrets = redact
