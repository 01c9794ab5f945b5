"""How a learning is read: the identifiers, words, versions and settings the lesson matcher compares.

:func:`lesson` turns a learning's text into a :class:`Lesson`
(:mod:`osmia.memory.lessons` decides when two of them state one lesson). A lesson's
**identifiers** are code spans, commands, paths, environment variables, flags,
versions, dotted and snake/camel-case names; its **words** are the English stems of
its content words.

Extraction parses every stored learning of a repository it compares a new one with, so
parsing is kept cheap without changing its result: a pattern whose required character
is absent is not run (:func:`_may_match`), and the words and the path, variable, flag and
code-word atoms of ASCII text come from cached per-run results (a store's learnings
are made of a small vocabulary of runs). Tests check each fast path against the whole-text
form it stands for (``tests/memory/test_lesson_fast_paths.py``).
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from osmia.memory.linear import LinearPattern, linear
from osmia.memory.short_forms import lesson_stems
from osmia.memory.text import STOPWORDS, TEMPLATE_WORDS

# Words that carry no lesson on their own: with nothing else, a learning is not worth storing.
_GENERIC_TEXT = (
    "test tests tested testing pass passes passed passing green good looks look looked fine ok okay "
    "done works worked work working lgtm ran run running all everything nothing code build builds built "
    "ci fixed fix fixes issue ticket pr merged pushed push pushing committed commit verified verify checked "
    "check again locally suite now still really well great correct correctly went smoothly smooth "
    "successful successfully complete completed finished finish straightforward simple easy change changes "
    "changed updated update before after it this that things thing stuff as expected problem problems "
    "no none worked first try all green nice clean cleanly found implemented implement feature features "
    "requested request task tasks required needed without error errors any "
    # What an agent says of its own work, not of the repository ("Resolved. Investigated the issue.",
    # "Addressed all review comments", "Refactored the code for readability", "Added unit tests").
    "resolved resolve resolving investigated investigate investigation addressed address review reviews "
    "reviewed comment comments feedback followed follow instructions instruction refactored refactor "
    "refactoring readability added add adding unit minor small tweak tweaked polish polished "
    "cleanup cleaned improved improve improvement handled handle handling "
    "described solved solve"
)
GENERIC_WORDS = frozenset(_GENERIC_TEXT.split())
# Compared by stem too: "issues", "implementing" and "requests" say no more than the words above.
GENERIC_STEMS = lesson_stems(_GENERIC_TEXT)
# Command heads shared by many lessons: an identifier made only of these is not distinctive.
_COMMON_HEADS_TEXT = (
    "make run go npm npx yarn pnpm cargo python python3 pip poetry uv git test tests build install "
    "docker kubectl helm mvn gradle gradlew ./gradlew bash sh sudo node java rustc pytest tox nox"
)
_COMMON_HEADS = frozenset(_COMMON_HEADS_TEXT.split())
# English that follows a command word and is no subcommand: "make sure", "make certain", "make sense".
_ENGLISH_AFTER_HEADS = frozenset(("sure", "certain", "sense"))
_NOT_SUBCOMMANDS = GENERIC_WORDS | STOPWORDS | _COMMON_HEADS | _ENGLISH_AFTER_HEADS
_RUNTIMES_TEXT = (
    "node nodejs python go golang java jdk ruby rust rustc php dotnet kotlin scala elixir erlang deno bun "
    "terraform helm kubernetes k8s postgres postgresql mysql redis"
)
RUNTIMES = frozenset(_RUNTIMES_TEXT.split())
# Tools whose releases are named by a whole number ("React 18", "pnpm 9", "webpack 5"): for them,
# as for a runtime, a bare number after the name is a version. Anywhere else a bare number is a
# count, a port or a ticket ("retry 3 times", "PR 123") unless written as a version is
# (:data:`_MARKS`).
_WHOLE_VERSIONS_TEXT = (
    "openjdk temurin corretto graalvm npm pnpm yarn pip poetry gradle maven composer bundler "
    "react vue angular svelte nuxt django rails laravel symfony spring ember flask fastapi "
    "eslint prettier webpack vite babel jest mocha typescript storybook tailwind bootstrap jquery "
    "ubuntu debian alpine centos rhel fedora windows macos ios android xcode swift perl lua dart "
    "flutter mongodb mongo elasticsearch opensearch kafka cassandra mariadb rabbitmq nginx tomcat "
    "ansible airflow spark hadoop celery sqlite"
)
WHOLE_VERSIONS = RUNTIMES | frozenset(_WHOLE_VERSIONS_TEXT.split())

# RE2 (osmia/memory/linear.py): learnings are text a run wrote, so every pattern runs in linear
# time. RE2 has no look-around: a "not preceded by" becomes a consumed boundary before the token
# (group 1), a "not followed by" a consumed boundary after it.
_SPAN = linear(r"`([^`]{1,200})`")
_PATH = linear(r"((?:\.{0,2}/)?(?:[\w.-]+/)+[\w.*-]*|\b[\w-]+\.(?:[a-z]{1,5})\b)")
_ENV = linear(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b")
_FLAG = linear(r"(?:^|[^\w-])(--?[a-zA-Z][\w-]*)")
_CODE_WORD = linear(
    r"\b([a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|[a-z0-9]+(?:_[a-z0-9]+)+|\w+(?:::\w+)+|[a-z]{3,}(?:-[a-z0-9]{3,})+)\b"
    r"|(?:^|[^\w/])(\.[a-z][\w.-]+)"  # dotfiles: .nvmrc, .sqlx (group 2)
)
# A tool's subcommand is an identifier even without a code span: "make links", "terraform fmt".
_COMMAND = linear(
    r"(?i)\b(?:make|cargo(?:\s+\+\w+)?|npm\s+run|pnpm|yarn|npx|\./gradlew|gradlew|gradle|mvn|poetry|uv|"
    r"terraform|helm|kubectl|tflint|alembic|mockery|vale|pre-commit)\s+([a-z][\w:-]+)"
)
_VERSION = linear(
    r"(?i)\b([a-z][\w+-]*?)(?:\s+(?:to|at|on|is|of|version|v|must\s+be|should\s+be|needs|requires))?\s*"
    r"(?:@|==|>=|<=|~=|~>|<|>|\^|~|\s|v)\s*"
    r"v?(\d+(?:\.(?:\d+|x|\*))+|\d+)(?:[^\w.]|\.(?:[^\w]|$)|$)"
)
# A version glued to its tool, with a dot: "net8.0", "python3.11", "go1.21" (group 1 the tool).
_GLUED_VERSION = linear(r"(?i)\b([a-z]{2,})(\d+(?:\.\d+)+)(?:[^\w.]|\.(?:[^\w]|$)|$)")
# What marks a bare number as a version whatever the tool: a package's `@` or pin
# (`actions/checkout@v4`, `pnpm@9`, `eslint==9`, `^18`, `~> 5`), a `v` before it, the word.
_MARKS = ("@", "==", "^", "~")
# Verbs that report a version or value changed ("Redis was upgraded to 7.2", "pool_size raised to
# 20"): the setting or tool is named before them, and a learning with one reports a change
# (:mod:`osmia.memory.subjects`).
CHANGE_VERBS = frozenset(
    {"upgraded", "downgraded", "bumped", "raised", "lowered", "increased", "decreased", "reduced"}
    | {"dropped", "changed", "updated"}
)
# A configuration key (dotted, snake or camel case) is also set in words: "java.version is 17",
# "maximumPoolSize to 20", "max_retries at 5".
_SETTING = linear(
    r"\b([A-Za-z_][\w.-]*[A-Za-z0-9_])\s*[=:]\s*([\w./:@-]+)"
    r"|\b([A-Za-z][\w-]*[._][\w.-]*[A-Za-z0-9]|[a-z]+[A-Z][A-Za-z0-9]*)"
    rf"\s+(?:(?:was\s+|were\s+|is\s+)?(?:{'|'.join(sorted(CHANGE_VERBS))})\s+)?"
    r"(?:is\s+(?:now\s+|set\s+to\s+)?|to\s+|at\s+)(\d[\w./:@-]*)"
)
# A quantity written in prose ("a memory limit of 512Mi", "timeout raised to 45 minutes", "runs
# with 8 replicas"): a value of what its unit measures. Two learnings that give one measure
# different values are two statements (the newer may replace the older), however alike their
# words; the measure is the setting's name, in parentheses (no configuration key is written so).
_QUANTITY = linear(
    r"(?i)(?:^|[^\w.])((\d+(?:\.\d+)?)\s?"
    r"(?:(?:(kib|mib|gib|tib|ki|mi|gi|ti|kb|mb|gb|tb|bytes)"
    r"|(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|days?)"
    r"|(replicas?|workers?|threads?|cores?|v?cpus?|gpus?|nodes?|shards?|partitions?|retries|attempts?|pods?"
    r"|instances?|connections?|processes|runners?|executors?|consumers?|brokers?)"
    r"|(rps|qps|rpm|req(?:uest)?s?\s?/\s?(?:s|sec|second|m|min|minute)|requests?\s+(?:per|an?)\s+(?:second|minute)))"
    r"\b|(%)))"
)
_POWERS = "kmgt"
_SECONDS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def quantities(text: str) -> tuple[tuple[str, str], ...]:
    """The quantities ``text`` gives in prose, each as ``("(measure)", as written)``: a size, a
    duration, a request rate, a share, or a count of replicas, workers, retries and the like by its noun
    (``"(replica)"``). :func:`magnitude` reads the value back (``512Mi`` and ``0.5Gi`` are one)."""
    out = []
    for m in _QUANTITY.finditer(text):
        size, duration, noun, rate, share = (m.group(i) for i in range(3, 8))
        if size:
            measure = "(size)"
        elif duration:
            measure = "(duration)"
        elif rate:
            measure = "(rate)"
        elif share:
            measure = "(share)"
        else:
            measure = f"({_singular((noun or '').lower())})"
        out.append((measure, " ".join((m.group(1) or "").lower().split())))
    # A port is a number after its noun ("listens on port 3000", "localhost:8080").
    out.extend(("(port)", m.group(1) or m.group(2) or "") for m in _PORT.finditer(text))
    return tuple(dict.fromkeys(out))


_PORT = linear(r"(?i)\bports?\s+(?:number\s+)?(\d{2,5})\b|\blocalhost:(\d{2,5})\b")


def _singular(noun: str) -> str:
    return {"retries": "retry", "processes": "process", "vcpu": "cpu", "vcpus": "cpu"}.get(
        noun, noun.removesuffix("s")
    )


@functools.lru_cache(maxsize=1 << 12)
def magnitude(written: str) -> float | None:
    """The value of a quantity as :func:`quantities` gives it, in one unit per measure (bytes,
    seconds, percent, a count); None for text that is no quantity. Cached: a stored learning's
    quantities are compared with every new learning of its repository."""
    if written.isdigit():
        return float(written)  # a port: a number alone
    m = _QUANTITY.search(written)
    if m is None:
        return None
    number = float(m.group(2) or "0")
    size, duration, rate = (m.group(3) or "").lower(), (m.group(4) or "").lower(), (m.group(6) or "").lower()
    if rate:  # requests a second
        return number / 60 if rate == "rpm" or rate.rstrip().endswith(("m", "min", "minute")) else number
    if size == "bytes":
        return number
    if size:
        power = _POWERS.index(size[0]) + 1
        return number * (1000.0**power if size.endswith("b") and not size.endswith("ib") else 1024.0**power)
    if duration:
        if duration.startswith("ms") or duration.startswith("milli"):
            return number / 1000
        return number * _SECONDS[duration[0]]
    return number


# A name given a value right after what a label's colon seemed to give ("Kafka consumer config:
# max.poll.records=500" names ``max.poll.records``, not ``config``; "LOG_LEVEL=info: debug …"
# gives ``info``).
_RELABELLED = linear(r"^\s*[=:]\s*[\w./@-]")
# A configuration file named before what it holds ("config/db.json: maxConnections is 10",
# "gradle/libs.versions.toml: kotlin = 2.0.0"): the file is no setting, the line after it is.
_FILE_LABEL = linear(r"\b[\w./-]+\.(?:json|toml|ya?ml|properties|xml|ini|conf|cfg|env)[ \t]*:(?:\s|$)")
# Words that stand between a tool and its version ("hashicorp/aws provider pinned to ~> 4.67"): the
# version is the nearest thing named before them.
_VERSION_VERBS_TEXT = (
    "pinned pins pin pinning bumped bump upgraded upgrade moved move requires require required needs "
    "uses use using constraint constrained locked lock set now stays kept keep provider"
)
VERSION_VERBS = frozenset(_VERSION_VERBS_TEXT.split())
# How many words before a verb of versions its tool is looked for when no dotted name stands there.
_TOOL_REACH = 4
_NAMED_BEFORE = linear(r"([A-Za-z][\w+-]*(?:[./][\w+-]+)+)[^\w./]+(?:[A-Za-z]+\s+){0,4}$")
_WORD = linear(r"[A-Za-z][A-Za-z0-9'-]*")
# Every compiled pattern of this module (tests check that each is an RE2 one).
PATTERNS: tuple[LinearPattern, ...] = (
    _SPAN, _PATH, _ENV, _FLAG, _CODE_WORD, _COMMAND, _VERSION, _SETTING, _WORD, _NAMED_BEFORE, _FILE_LABEL,
    _GLUED_VERSION, _RELABELLED, _QUANTITY, _PORT,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Lesson:
    """What the matcher compares: identifiers, stems, versions and settings of one learning."""

    text: str
    identifiers: frozenset[str]  # identifier atoms, lower-case
    # The unmistakable ones (a path, flag, variable, version, dotted or mixed-case name): a lesson
    # naming one the other lacks is about something else. Plain words in a code span and
    # hyphenated words ("hand-edit") are identifiers for matching, not for telling lessons apart.
    strong: frozenset[str]
    words: frozenset[str]  # English stems of the content words (identifier parts included)
    versions: tuple[tuple[str, str], ...]  # (tool, version)
    settings: tuple[tuple[str, str], ...]  # (name, value)

    @property
    def configured(self) -> bool:
        """Whether the learning gives a setting a value (a quantity in prose, ``"(duration)"``, is
        none: "Tests passed in 30s" names nothing)."""
        return any(name[:1] != "(" for name, _value in self.settings)

    @property
    def specific(self) -> bool:
        """True when the learning says something: an identifier, a version or a setting's value, or
        two words beyond the generic ones."""
        if self.identifiers or self.versions or self.configured:
            return True
        content = [w.lower() for w in _WORD.findall(self.text)]
        return len({w for w in content if not generic_word(w)}) >= 2


def generic_word(word: str) -> bool:
    """A lower-case word that says nothing on its own: short, a stopword, or generic (by stem too)."""
    return len(word) <= 2 or word in STOPWORDS or word in GENERIC_WORDS or lesson_stems(word) <= GENERIC_STEMS


_STRONG_MARK = linear(r"[/._:@=]|\d|^-|[a-z][A-Z]|^[A-Z]{2,}")
PATTERNS += (_STRONG_MARK,)


# What each pattern cannot match without: a learning is mostly plain words, and a pattern skipped
# by a character test costs nothing (an RE2 pass from Python costs microseconds, matches or not).
# Each entry is the set of characters one of which must occur in the text. _COMMAND needs one of
# its command words, tested on the lower-cased text, and only for ASCII text, where lower-casing is
# all that ``(?i)`` folds (outside ASCII it also folds, for instance, KELVIN SIGN to k).
_NEEDS: dict[int, frozenset[str]] = {
    id(_SPAN): frozenset("`"),
    id(_PATH): frozenset("/."),
    id(_ENV): frozenset("_"),
    id(_FLAG): frozenset("-"),
    id(_VERSION): frozenset("0123456789"),
    id(_GLUED_VERSION): frozenset("."),
    id(_SETTING): frozenset("=:0123456789"),
    id(_QUANTITY): frozenset("0123456789"),
}
_COMMAND_HEADS = (
    "make", "cargo", "npm", "yarn", "npx", "gradle", "mvn", "poetry", "uv", "terraform", "helm", "kubectl",
    "tflint", "alembic", "mockery", "vale", "pre-commit",
)  # fmt: skip


def _may_match(pattern: LinearPattern, text: str) -> bool:
    """False when ``pattern`` cannot match ``text`` (a character or word it needs is absent)."""
    if pattern is _COMMAND:
        return not text.isascii() or any(map(text.lower().__contains__, _COMMAND_HEADS))
    needs = _NEEDS.get(id(pattern))
    return needs is None or not needs.isdisjoint(text)


@functools.lru_cache(maxsize=1 << 14)
def _marked_strong(token: str) -> bool:
    """Whether an identifier as written is unmistakable (cached: tokens recur from lesson to lesson)."""
    return _STRONG_MARK.search(token) is not None


def _atoms(text: str, versions: tuple[tuple[str, str], ...]) -> tuple[set[str], set[str]]:
    """Identifier atoms (code-span tokens, paths, env vars, flags, code-style words) and the strong ones.

    ``versions`` are the text's :func:`_versions` (an atom ``tool@version`` each).
    """
    found: set[str] = set()
    strong: set[str] = set()

    def add(token: str, original: str) -> None:
        found.add(token)
        if _marked_strong(original):
            strong.add(token)

    rest = text
    for span in _SPAN.findall(text) if _may_match(_SPAN, text) else ():
        for token in span.split():
            raw = token.strip(",;:'\"()")
            token = raw.lower()
            if token and token not in _COMMON_HEADS and token not in STOPWORDS and len(token) > 1:
                add(token, raw)
        rest = rest.replace(f"`{span}`", " ")
    for token, raw in _run_atoms(rest):
        add(token, raw)
    for m in _COMMAND.finditer(rest) if _may_match(_COMMAND, rest) else ():
        raw = m.group(1) or ""
        token = raw.lower()
        if token not in _NOT_SUBCOMMANDS:
            add(token, raw)
    for tool, version in versions:
        add(f"{tool}@{version}", "@")
    return found, strong


_RUN_PATTERNS = (_PATH, _ENV, _FLAG, _CODE_WORD)


def _pattern_atoms(text: str) -> tuple[tuple[str, str], ...]:
    """(atom, as written) for each match of the path, variable, flag and code-word patterns."""
    out = []
    for pattern in _RUN_PATTERNS:
        if not _may_match(pattern, text):
            continue
        for m in pattern.finditer(text):
            raw = (m.group(1) or m.group(2) or "").rstrip(".,;:")
            token = raw.lower()
            if len(token) > 2 and token not in _COMMON_HEADS and not token.replace(".", "").isdigit():
                out.append((token, raw))
    return tuple(out)


# No match of those four patterns holds whitespace (a flag or dotfile may take the character
# before it, which is whitespace or nothing at a run's start, alike to their ``^``/``[^\w-]``), so
# in ASCII text their matches are those of the whitespace-separated runs taken one by one, and the
# runs of a store's learnings recur: each is matched once per process.
_cached_pattern_atoms = functools.lru_cache(maxsize=1 << 15)(_pattern_atoms)


def _run_atoms(text: str) -> tuple[tuple[str, str], ...]:
    """:func:`_pattern_atoms` of ``text``, from cached runs when ``text`` is ASCII."""
    if not text.isascii():
        return _pattern_atoms(text)
    return tuple(itertools.chain.from_iterable(map(_cached_pattern_atoms, text.split())))


def _versions(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    if not _may_match(_VERSION, text):
        return ()
    plain = text.replace("`", " ")
    for m in _VERSION.finditer(plain):
        tool, version = (m.group(1) or "").lower(), m.group(2) or ""
        if tool in VERSION_VERBS or tool in CHANGE_VERBS:
            named = _NAMED_BEFORE.search(plain[: m.start(1)])
            if named is not None:  # "hashicorp/aws … pinned to ~> 4.67": the version of aws
                tool = (named.group(1) or "").rsplit("/", 1)[-1].lower()
            else:  # "Go toolchain is pinned to 1.21", "Redis was upgraded to 7.2"
                tool = _tool_before(plain[: m.start(1)]) or tool
        if tool in STOPWORDS or tool in GENERIC_WORDS or tool.isdigit() or len(tool) < 2:
            continue
        tool = _tool_of(tool)
        if "." in version or tool in WHOLE_VERSIONS or _marked_version(plain[m.end(1) : m.start(2)]):
            out.append((tool, version.lower()))
    if _may_match(_GLUED_VERSION, plain):
        for m in _GLUED_VERSION.finditer(plain):
            tool = (m.group(1) or "").lower()
            if tool not in STOPWORDS and tool not in GENERIC_WORDS:
                out.append((tool, m.group(2) or ""))
    return tuple(dict.fromkeys(out))


def _tool_of(name: str) -> str:
    """The tool a name of its version stands for: ``rust-version``, ``python_version``,
    ``java.version`` give ``rust``, ``python``, ``java`` (a tool named by its version, as
    :data:`WHOLE_VERSIONS` knows them); any other name as it is."""
    for suffix in ("-version", "_version", ".version"):
        if name.endswith(suffix) and name[: -len(suffix)] in WHOLE_VERSIONS:
            return name[: -len(suffix)]
    return name


def _marked_version(between: str) -> bool:
    """Whether what stands between a tool and a bare number makes the number a version."""
    between = between.lower()
    return any(mark in between for mark in _MARKS) or between.endswith("v") or "version" in between


def _tool_before(text: str) -> str:
    """The tool a verb of versions refers to, from the few words before it: a runtime if one is
    named there, else the nearest word that is neither a stopword nor generic ("" if none)."""
    near = [w.lower() for w in _WORD.findall(text)[-_TOOL_REACH:]]
    named = [w for w in near if w not in STOPWORDS and w not in GENERIC_WORDS and w not in VERSION_VERBS]
    runtimes = [w for w in named if w in RUNTIMES]
    return (runtimes or named or [""])[-1]


def _settings(text: str) -> tuple[tuple[str, str], ...]:
    out = []
    if not _may_match(_SETTING, text):
        return _flag_values(text)
    rest = _FILE_LABEL.sub(" ", text.replace("`", " "))
    while (m := _SETTING.search(rest)) is not None:
        name, value = m.group(1) or m.group(3) or "", m.group(2) or m.group(4) or ""
        after = value[-1:] + rest[m.end(0) :] if value.endswith(":") else rest[m.end(0) :]
        label = m.group(2) is not None and ":" in rest[m.end(1) : m.start(2)]  # "config: …", not "X=…"
        if label and _RELABELLED.search(after) is not None:
            rest = rest[m.start(2) :]  # the value is the name of what follows: read on from it
            continue
        if value.startswith("-") and rest[m.end(2) : m.end(2) + 1] == "=":
            rest = rest[m.start(2) :]  # "GOFLAGS=-mod=vendor": the value is a flag given its own value
            continue
        rest = rest[m.end(0) :]
        if name.lower() in STOPWORDS or name.startswith("http"):
            continue
        # A sentence's full stop or a list's comma is no part of the value ("prefetch_count=10.").
        out.append((name.lower().lstrip("-"), value.lower().rstrip(".,:")))
    return tuple(dict.fromkeys([*out, *_flag_values(text)]))


# A flag and the word after it in a code span (``go test -tags integration``, ``pytest -n auto``,
# ``--workers 4``): the flag's value. Not a path or a file (``-x tests/unit``, ``-c setup.cfg``: an
# argument, which a paraphrase may name otherwise), nor another flag.
_FLAG_VALUE = linear(r"(?:^|[\s(])(--?[A-Za-z][\w-]*)[ \t]+([A-Za-z0-9][\w:@+-]*)(?:[\s)]|$)")
PATTERNS += (_FLAG_VALUE,)


def _flag_values(text: str) -> tuple[tuple[str, str], ...]:
    """Each flag given a value in the text's code spans, as a setting (the name without its dashes)."""
    if "`" not in text or "-" not in text:
        return ()
    out = []
    for span in _SPAN.finditer(text):
        code = span.group(1) or ""
        at = 0
        while (m := _FLAG_VALUE.search(code[at:])) is not None:
            flag, value = m.group(1) or "", m.group(2) or ""
            out.append((flag.lstrip("-").lower(), value.lower()))
            at += m.start(2)  # the value may itself be followed by a flag
    return tuple(out)


def _words_of_stems(text: str) -> frozenset[str]:
    """The stems of ``text`` (short forms as the word they stand for) less stopwords, template
    words, numbers and single letters."""
    return frozenset(
        w
        for w in lesson_stems(text)
        if w not in STOPWORDS and w not in TEMPLATE_WORDS and not w.isdigit() and len(w) > 1
    )


# Every match of the word patterns behind :func:`osmia.memory.text.stems` (``words``: runs of
# letters and digits joined by ``.``, ``_`` or ``-``; ``search_terms``: ASCII letters and digits)
# lies inside one run of ``[A-Za-z0-9_.-]``, and each word is stemmed alone, so the stems of an
# ASCII text are the union of the stems of those runs. The runs of a store's learnings are a small
# vocabulary (file names, tools, English words): each is stemmed once per process.
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_SEPARATE = str.maketrans({chr(c): " " for c in range(128) if chr(c) not in _TOKEN_CHARS})
_token_words = functools.lru_cache(maxsize=1 << 16)(_words_of_stems)


def lesson_words(text: str) -> frozenset[str]:
    """:attr:`Lesson.words` of ``text``: its stems, less stopwords, template words and numbers.

    An ASCII text is cut into runs of word characters by one ``str.translate`` and the runs' words
    come from a cache: a quarter of what stemming the whole text costs.
    """
    if not text.isascii():
        return _words_of_stems(text)
    return frozenset().union(*map(_token_words, text.translate(_SEPARATE).split()))


@functools.lru_cache(maxsize=1 << 14)
def lesson(text: str) -> Lesson:
    """The comparable form of a learning (cached: the same stored learnings are compared again and again)."""
    settings = _settings(text) + (quantities(text) if _may_match(_QUANTITY, text) else ())
    # A setting that holds a tool's version ("node-version: 18", "java.version=17") gives it.
    versions = tuple(
        dict.fromkeys(
            _versions(text)
            + tuple(
                (tool, value)
                for name, value in settings
                if (tool := _tool_of(name)) != name and value[:1].isdigit()
            )
        )
    )
    found, strong = _atoms(text, versions)
    return Lesson(
        text=text,
        identifiers=frozenset(found),
        strong=frozenset(strong),
        words=lesson_words(text),
        versions=versions,
        settings=settings,
    )
