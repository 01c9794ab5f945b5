"""Prompt cleaning: stored text becomes one safe line of data, repeated until nothing changes.

Everything an agent reports is untrusted and is replayed into another agent's
prompt. :func:`clean_text` removes what could break out of the
``## Prior Knowledge`` section or speak as a role: invisible, bidirectional
and control characters, HTML comments and tags, markdown links and images
(their text is kept), role markers, injection phrases, code fences and
headings, and secrets (:func:`osmia.memory.redaction.redact`, again: removing
a tag can join the halves of a token). Each step can uncover something an
earlier one already passed (``sys<<b>b>tem:``), so the whole pipeline runs
to a fixed point: cleaning cleaned text changes nothing.

All patterns are RE2 (:mod:`osmia.memory.linear`): linear time per pass, and
the input is cut to :data:`MAX_INPUT` characters first, so the passes are
bounded too.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from osmia.memory.confusables import latin_skeleton
from osmia.memory.linear import LinearPattern, any_of, encodable, linear
from osmia.memory.redaction import CANDIDATES, redact

MAX_LINE = 300
# Cleaning never returns more than ``max_len`` characters; what lies this far beyond it cannot
# reach the output, and cutting first bounds the work on hostile input.
MAX_INPUT = 8192
MAX_PASSES = 32
REMOVED = "[removed]"
ELLIPSIS = "…"

# Characters that render as nothing or reorder text: controls (C0, DEL, C1), format characters
# (zero-width space/joiners, bidi embeddings/overrides/isolates, BOM, soft hyphen, tag characters),
# surrogates, private use, line/paragraph separators, variation selectors, the combining grapheme
# joiner and the blank "letters" (Hangul fillers, braille blank, Khmer vowel inherents).
# Removed with str.translate (no regex: one C pass over the text, however many there are).
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
_INVISIBLE_EXTRA = frozenset(
    [
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
        *range(0x180B, 0x1810),
        *(0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x17B4, 0x17B5, 0xFFFC),
    ]
)
_LINE_BREAK_CHARS = "\t\n\v\f\r\x85\u2028\u2029"
_WHITESPACE = linear(r"[\s\p{Z}\x{0085}]+")
_HTML_COMMENT = linear(r"(?s)<!--.*?(?:-->|$)|<!\[CDATA\[.*?(?:\]\]>|$)|<![A-Za-z][^<>]*>|<\?[^<>]*\?>")
# Innermost tags first ([^<>] inside), so ``<<b>b>`` takes two passes and never rebuilds a tag.
_HTML_TAG = linear(r"</?[A-Za-z][^<>]*>")
# A link target may hold one level of parentheses (``javascript:alert(1)``, Wikipedia-style URLs).
_MD_TARGET = r"\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\)"
_MD_IMAGE = linear(rf"!\[([^\[\]]*)\]{_MD_TARGET}")
_MD_LINK = linear(rf"\[([^\[\]]*)\]{_MD_TARGET}")
_MD_REFERENCE = linear(r"\[[^\[\]]+\]:[ \t]*<?[A-Za-z][A-Za-z0-9+.-]*:[^\s>]*>?")
_MD_REF_LINK = linear(r"\[([^\[\]]+)\]\[[^\[\]]*\]")
_ROLE_MARKERS = linear(
    r"(?i)(?:<\|[a-z_ ]*\|>|</?s>|\[/?INST\]|<<\s*/?SYS\s*>>|</?(?:system|assistant|user|human|tool)>"
    r"|\b(?:system|assistant|user|human|developer)\s*:)"
)
_INJECTION = linear(
    r"(?i)\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+)?"
    r"(?:previous|prior|above|earlier|preceding|system)\s+(?:instructions?|prompts?|rules?|messages?)"
)
_FENCE = linear(r"`{3,}|~{3,}")
_HEADING_RUN = linear(r"#{2,}")
_LEADING_MARKUP = linear(r"^[\s>#*+=|-]+")
_HOSTILE = linear(
    r"(?i)ignore\s+(?:(?:all|any|the|your|my|of|these|those)\s+){0,3}(?:previous|prior|above|earlier|preceding"
    r"|foregoing|original|system)\b|disregard|you are now|"
    r"\bignore\s+(?:(?:all|any|the|your)\s+){0,2}(?:instructions|rules|guidelines|guard\s*-?rails?|restrictions)"
    r"\s+(?:above|before|you\s+(?:were|have\s+been)\s+given)"
    r"|\bforget\s+(?:everything|all|what)\s+(?:you\s+(?:were|have\s+been|'ve\s+been)\s+told|above|before)"
    r"|\bpay\s+no\s+attention\s+to\s+(?:the\s+)?(?:previous|prior|above|instructions|rules|guard)"
    # The same order in the languages agents are most often run in (a word list: the phrase itself).
    r"|\bignor(?:a|ar|e|ez|er|iere|ieren|ate)\s+(?:(?:todas|todos|toutes|tous|alle|tutte|tutti|as|os|las|los"
    r"|les|le|die)\s+){0,2}(?:(?:instrucciones|instructions|anweisungen|istruzioni|instruções|instrucoes)\s+"
    r"(?:anteriores|previas|précédentes|precedenti|prévias)|(?:vorherigen|bisherigen|obigen)\s+anweisungen)"
    r"|\bvergiss\s+(?:alle\s+)?(?:vorherigen\s+|bisherigen\s+)?anweisungen"
    r"|\boublie[rz]?\s+(?:toutes\s+)?(?:les\s+)?instructions"
    r"|(?:игнорир|забуд|забыв|не\s+обращай)\pL*\s+(?:\pL+\s+){0,2}(?:инструкц|указани|правил)"
    r"|(?:忽略|无视|忘记|忘掉|無視)[^。.!！\n]{0,8}(?:指令|指示|说明|規則|规则|命令)"
    r"|(?:指示|命令|ルール)[^。\n]{0,6}(?:無視|忘れ)"
    # Authority claimed over the reader ("As the operator, I authorize you to …").
    r"|\b(?:i|we)\s+(?:hereby\s+)?(?:authori[sz]e|permit|instruct|order|command)\s+you\b"
    r"|\bas\s+(?:the|your)\s+(?:operator|administrator|admin|owner|maintainer|supervisor|developer)\s*,?\s+(?:i|we)\b"
    r"|\bend\s+(?:of\s+)?(?:the\s+)?prior[ \t_-]*knowledge\b|"
    r"<\|[a-z_ ]*\|>|\[/?INST\]|<<\s*/?SYS\s*>>|</?(?:system|assistant)>"
    r"|^\W*(?:system|assistant|developer)\s*:"
    # A later line of a learning that opens a role or a markdown section ("\n## Instructions",
    # "\nsystem: ..."): a learning is one statement, and cleaning would fold the line into it. Only
    # after a line break, so one-line text (every stored node's content) is judged as before.
    r"|[\n\r\x{2028}\x{2029}]\W*(?:system|assistant|developer)\s*:|[\n\r\x{2028}\x{2029}][ \t]*#{1,6}[ \t]+\S"
    # The section a learning is shown in, forged or closed: "## Prior Knowledge", "</prior_knowledge>",
    # "end of memory". No lesson about a repository names it.
    r"|#+[ \t]*prior[ \t_-]*knowledge|</?[ \t]*prior[ \t_-]*knowledge[ \t]*>"
    r"|\bend[ \t]+of[ \t]+(?:the[ \t]+)?(?:prior[ \t]+knowledge|memory|recalled[ \t]+data)\b"
    # A prompt of its own ("New system prompt:", "Updated instructions:"), or the reader addressed
    # as the model ("as an AI agent you should", "note to the assistant").
    r"|\b(?:new|updated|real|actual|true|hidden)[ \t]+(?:system[ \t]+)?(?:prompt|instructions)[ \t]*:"
    r"|\bas[ \t]+(?:an?|the)[ \t]+(?:ai|llm|language[ \t]+model)(?:[ \t]+(?:agent|assistant|model))?\b"
    r"|\bnote[ \t]+(?:to|for)[ \t]+(?:the[ \t]+)?(?:ai|llm|assistant|agent|model)\b"
)
# What no lesson tells to do, unless it warns against it ("never print secrets"): wipe a disk or a
# home, send keys or credentials away, print the secrets, run a downloaded script, force-push the
# main branch (judged per clause, see ``_acts``).
_SECRET_FILES = (
    r"(?:~/\.ssh|\bid_rsa\b|\bid_ed25519\b|\.aws/credentials|/etc/shadow|/etc/passwd|\.netrc\b|\.kube/config"
    r"|\.docker/config\.json|\.git-credentials|\.npmrc\b|\.pypirc\b|\.gnupg\b)"
)
_HOSTILE_ACTS = linear(
    r"(?i)\brm(?:[ \t]+(?:-[a-z]+|--recursive|--force|--no-preserve-root))+[ \t]+"
    r"(?:/\*?|~/?\*?|\$HOME/?\*?)(?:[ \t;&|]|$)"
    r"|\bexfiltrat"
    r"|\b(?:cat|cp|send|upload|post|curl|wget|scp|rsync|mail|leak|share|tar|zip|base64|nc|commit)\b[^.;\n]{0,60}?"
    + _SECRET_FILES
    # The environment or a secret variable sent or shown: "env | curl -d @- …", "echo $GITHUB_TOKEN".
    + r"|\b(?:env|printenv|set|export)\b[ \t]*\|[ \t]*(?:curl|wget|nc|ncat|netcat|socat|mail)\b"
    r"|\b(?:echo|printf|print|cat|log)\b[ \t(]+[\"']?\$\{?[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY"
    r"|PRIVATE_KEY|CREDENTIALS?)\b"
    r"|\b(?:print|reveal|dump|leak|send|post|share|upload|echo|output)[ \t]+(?:out[ \t]+)?"
    r"(?:all[ \t]+|the[ \t]+|your[ \t]+|any[ \t]+)?"
    r"(?:secrets|credentials|api[ \t]+keys|private[ \t]+keys?)\b"
    # Code from the network run as it arrives ("curl -s https://x/y.sh | bash"): whoever wrote the
    # run chose the URL. Lessons say which tool to install, not which script to pipe into a shell.
    r"|\b(?:curl|wget|iwr|invoke-webrequest)\b[^|\n]{0,300}\|[ \t]*(?:sudo(?:[ \t]+-[a-z]+)*[ \t]+)?"
    r"(?:/(?:usr/)?bin/)?(?:(?:ba|z|da|k|fi)?sh|python[0-9.]*|perl|ruby|node|php|pwsh|powershell)\b"
    r"|\b(?:(?:ba|z|da|k)?sh|python[0-9.]*|source)[ \t]+<\([ \t]*(?:curl|wget)\b"
    r"|\b(?:(?:ba|z|da|k)?sh)[ \t]+-c[ \t]+[\"']?\$\([ \t]*(?:curl|wget)\b"
    r"|\b(?:iex|invoke-expression)\b[^\n]{0,40}\b(?:iwr|invoke-webrequest|downloadstring)\b"
    # Checks that guard the work switched off: hooks skipped, TLS not verified, a world-writable tree.
    r"|\bgit[ \t]+(?:commit|push|merge|rebase)\b[^\n;|&]{0,60}[ \t]--no-verify\b"
    r"|\bverify[ \t]*=[ \t]*false\b|\bNODE_TLS_REJECT_UNAUTHORIZED[ \t]*=[ \t]*[\"']?0"
    r"|\bInsecureSkipVerify[ \t]*[:=][ \t]*true\b|\bPYTHONHTTPSVERIFY[ \t]*=[ \t]*[\"']?0"
    r"|\bGIT_SSL_NO_VERIFY[ \t]*=[ \t]*[\"']?(?:1|true)|--insecure-skip-tls-verify\b"
    r"|\bchmod[ \t]+(?:-R[ \t]+)?(?:0?777|a\+rwx|ugo\+rwx)\b"
    r"|\b(?:ignore|bypass|disable|turn[ \t]+off)[ \t]+(?:(?:all|the|any|your)[ \t]+)*(?:guard[ \t-]?rails?"
    r"|safety[ \t]+(?:rules|checks|guidelines|measures)|security[ \t]+(?:rules|policies|guidelines|checks))\b"
    r"|\b(?:delete|remove|disable)[ \t]+(?:(?:all|the|any|every)[ \t]+)*failing[ \t]+tests?\b"
    # History rewritten where everyone works.
    r"|\bforce[ \t-]?push(?:ed|es|ing)?[ \t]+(?:directly[ \t]+)?(?:to[ \t]+)?(?:origin[ \t]+)?"
    r"(?:main|master)\b"
    r"|\bgit[ \t]+push\b[^\n;|&]{0,40}(?:--force\b|-f\b)[^\n;|&]{0,40}\b(?:main|master)\b"
    # The reader told, as the model or the agent, to switch off what guards the work.
    r"|\b(?:(?:the|this)[ \t]+(?:ai|assistant|llm|model|language[ \t]+model|(?:ai|coding)[ \t]+agent|agent)"
    r"|you)[ \t]+(?:must|should|shall|needs?[ \t]+to|has[ \t]+to|have[ \t]+to|can|may"
    r"|is[ \t]+required[ \t]+to)[ \t]+"
    r"(?:now[ \t]+|always[ \t]+|first[ \t]+|just[ \t]+|simply[ \t]+)?"
    r"(?:disable|skip|bypass|ignore|turn[ \t]+off|remove|delete|comment[ \t]+out)[ \t]+"
    r"(?:all[ \t]+|the[ \t]+|any[ \t]+|every[ \t]+)?"
    r"(?:tests?|test[ \t]+suite|checks?|ci|reviews?|guard[ \t-]?rails?|safety|hooks?|verification|linters?)\b"
)
_WARNING = linear(
    r"(?i)\b(?:never|don't|do[ \t]+not|avoid|must[ \t]+not|mustn't|shouldn't|should[ \t]+not|no)\b"
)
# A warning word that tells to do it after all ("never forget to …", "don't hesitate to …").
_NOT_A_WARNING = linear(
    r"(?i)\b(?:never|don't|do[ \t]+not|no[ \t]+need[ \t]+to)[ \t]+"
    r"(?:forget|fail|neglect|hesitate|wait|miss)\b"
)
# A clause that is only a warning, governing the clauses after it ("Never, under any circumstances, …").
_ONLY_A_WARNING = linear(
    r"(?i)^[ \t]*(?:please[ \t]+)?(?:never(?:[ \t]+ever)?|don't|do[ \t]+not|avoid|no)[ \t]*$"
)
_CLAUSE_MARKS = ".;!?\n,:"
_SENTENCE_MARKS = ".;!?\n"
_CLAUSE_WINDOW = 200


def _sub(pattern: LinearPattern, replacement: str) -> Callable[[str], str]:
    return lambda text: pattern.sub(replacement, text)


def _until_stable(step: Callable[[str], str]) -> Callable[[str], str]:
    """Apply ``step`` until it changes nothing (each application shortens the text, so this ends)."""

    def run(text: str) -> str:
        for _ in range(len(text) + 1):
            after = step(text)
            if after == text:
                break
            text = after
        return text

    return run


def drop_invisible(text: str) -> str:
    """Drop invisible, bidirectional and control characters, keeping tabs and line breaks.

    For multi-line text that is redacted before it is cleaned: a zero-width
    character inside a token must not hide it from :func:`~osmia.memory.redaction.redact`.
    """
    return text.translate(_invisible_table(text, keep="\t\n\r"))


def _invisible_table(text: str, keep: str = "", space: str = "") -> dict[int, str | None]:
    """A ``str.translate`` table for the invisible characters that occur in ``text``.

    Built from the distinct characters only, so it is small whatever the text's length.
    """
    table: dict[int, str | None] = {}
    if text.isascii():
        chars = {c for c in text if c < " " or c == "\x7f"} if not text.isprintable() else set()
    else:
        chars = set(text)
    for char in chars:
        if char in keep:
            continue
        if char in space:
            table[ord(char)] = " "
        elif unicodedata.category(char) in _INVISIBLE_CATEGORIES or ord(char) in _INVISIBLE_EXTRA:
            table[ord(char)] = None
    return table


def _nfkc(text: str) -> str:
    """NFKC, except for ``…`` (the truncation mark, which NFKC would turn into three dots)."""
    if text.isascii():
        return text
    return ELLIPSIS.join(unicodedata.normalize("NFKC", part) for part in text.split(ELLIPSIS))


def strip_invisible(text: str) -> str:
    """Drop invisible, bidirectional and control characters; line breaks and tabs become spaces.

    NFKC first, so full-width and compatibility forms (``ｓｙｓｔｅｍ：``) read as what they show.
    """
    text = _nfkc(encodable(text))
    return text.translate(_invisible_table(text, space=_LINE_BREAK_CHARS))


def _markdown_links(text: str) -> str:
    text = _MD_IMAGE.sub(lambda m: m.group(1) or "", text)
    text = _MD_LINK.sub(lambda m: m.group(1) or "", text)
    text = _MD_REF_LINK.sub(lambda m: m.group(1) or "", text)
    return _MD_REFERENCE.sub("", text)


_STEPS: tuple[Callable[[str], str], ...] = (
    strip_invisible,
    _until_stable(_sub(_HTML_COMMENT, "")),
    _until_stable(_sub(_HTML_TAG, "")),
    _until_stable(_markdown_links),
    _sub(_WHITESPACE, " "),
    _sub(_FENCE, "'"),
    _until_stable(_sub(_ROLE_MARKERS, "")),
    _sub(_INJECTION, REMOVED),
    _sub(_HEADING_RUN, "#"),
    redact,
    lambda text: _LEADING_MARKUP.sub("", text).strip(),
)


# Where any step of a pass could change the text: a text none of these match is already clean,
# which one search tells (most stored facts are), instead of a dozen searches and substitutions.
_TRIGGERS = any_of(
    [
        p.pattern
        for p in (
            _HTML_COMMENT,
            _HTML_TAG,
            _MD_IMAGE,
            _MD_LINK,
            _MD_REF_LINK,
            _MD_REFERENCE,
            _FENCE,
            _ROLE_MARKERS,
            _INJECTION,
            _HEADING_RUN,
            _LEADING_MARKUP,
            CANDIDATES,
        )
    ]
    + [
        r"[\s\p{Z}\x{0085}]{2,}",  # a whitespace run
        r"[\t\n\v\f\r\x{0085}\p{Zl}\p{Zp}\x{A0}\x{1680}\x{2000}-\x{200A}\x{202F}\x{205F}\x{3000}]",
        r"[\s\p{Z}]$",  # a trailing space
    ]
)


def _needs_pass(text: str) -> bool:
    """False when one pass of cleaning would certainly leave ``text`` as it is."""
    if not text.isascii() and not unicodedata.is_normalized("NFKC", text.replace(ELLIPSIS, "")):
        return True
    if _invisible_table(text, space=_LINE_BREAK_CHARS):
        return True
    return _TRIGGERS.search(text) is not None


def _one_pass(text: str) -> str:
    for step in _STEPS:
        text = step(text)
    return text


def _fixed_point(text: str) -> str:
    for _ in range(MAX_PASSES):
        if not _needs_pass(text):
            return text
        after = _one_pass(text)
        if after == text:
            return text
        text = after
    # Not settled after MAX_PASSES full passes: hostile beyond any real text. Keep nothing of it.
    return REMOVED


def clean_text(text: str, max_len: int = MAX_LINE) -> str:
    """One safe line of data: no invisible or control characters, tags, links, role markers,
    injections, headings, fences or secrets; at most ``max_len`` characters; idempotent."""
    text = _fixed_point(encodable(text[: max(MAX_INPUT, 4 * max_len)]))
    for _ in range(MAX_PASSES):
        if len(text) <= max_len:
            return text
        text = _fixed_point(text[: max_len - 1].rstrip() + ELLIPSIS)
    return text[:max_len]


def looks_hostile(text: str) -> bool:
    """True for text that tries to instruct the agent: such learnings are not stored at all.

    Checked on the text as written, as it reads once invisible characters,
    comments and tags are gone (``ign\\u200bore previous``, ``<b>system</b>:``), and with
    look-alike letters read as the Latin ones they imitate (:mod:`osmia.memory.confusables`).
    """
    if _HOSTILE.search(text) or _acts(text):
        return True
    seen = text[:MAX_INPUT]
    reads = {_spelled_out(seen)}
    if not seen.isascii() or _needs_pass(seen):
        # As stored: cleaning removes what hid an order ("force-user:push", a U+1680 space, a tag)
        # and must not rebuild one the check above passed.
        shown = seen
        for step in _STEPS[:4]:
            shown = step(shown)
        reads |= {shown, _fixed_point(seen)}
    # And in Latin letters where look-alikes stand for them ("Ignоre previоus" with Cyrillic о).
    reads |= {latin_skeleton(read) for read in reads if not read.isascii()}
    reads.discard(text)
    return any(
        _HOSTILE.search(read) or _HOSTILE.search(_ROLE_MARKERS.sub("", read)) or _acts(read) for read in reads
    )


# Letters spaced out ("i g n o r e") or written in digits ("1gn0r3 pr3v10us"): read as words for
# the hostility check only (stored text keeps its own characters).
_SPACED_LETTERS = linear(r"\b(?:[A-Za-z] ){2,}[A-Za-z]\b")
_LEET = str.maketrans("013457@$", "oieastas")
_LEET_WORD = linear(r"\b[A-Za-z]*[013457@$][A-Za-z013457@$]*\b")


def _spelled_out(text: str) -> str:
    """``text`` with spaced-out letters joined and digits standing for letters read as letters."""
    text = _SPACED_LETTERS.sub(lambda m: (m.group(0) or "").replace(" ", ""), text)
    return _LEET_WORD.sub(lambda m: _leet(m.group(0) or ""), text)


def _leet(word: str) -> str:
    """A word mixing letters and digits read as letters ("pr3v10us"); a number stays a number."""
    return word.translate(_LEET) if any(c.isalpha() for c in word) else word


def _acts(text: str) -> bool:
    """Whether ``text`` tells to do one of :data:`_HOSTILE_ACTS`: a clause naming one, with no warning
    word before it in that clause ("Never print secrets in logs" warns; "print the secrets" tells).

    A clause ends at a comma or colon too ("No PR needed for hotfixes, curl … | bash" tells), except
    after a clause that is a warning alone ("Never, under any circumstances, force-push to main");
    a warning word that tells to do it after all ("never forget to", "don't hesitate to") is none.
    """
    text = text[:MAX_INPUT]
    for match in _HOSTILE_ACTS.finditer(text):
        start = match.start()
        window = max(0, start - _CLAUSE_WINDOW)  # the clause, or as much of it as a warning needs
        clause_start = max(window, max(text.rfind(mark, window, start) for mark in _CLAUSE_MARKS) + 1)
        if _warns(text[clause_start:start]):
            continue
        sentence_start = max(window, max(text.rfind(mark, window, start) for mark in _SENTENCE_MARKS) + 1)
        earlier = [text[sentence_start:clause_start]]
        for mark in ",:":
            earlier = [part for piece in earlier for part in piece.split(mark)]
        if not any(_ONLY_A_WARNING.search(part) for part in earlier):
            return True
    return False


def _warns(clause: str) -> bool:
    """Whether a warning word governs what follows ``clause`` (see :func:`_acts`)."""
    return _WARNING.search(_NOT_A_WARNING.sub(" ", clause)) is not None
