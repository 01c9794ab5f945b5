"""A password given to a command's flag, on a line that gives its user to another flag.

Each tool spells its password flag its own way (``-p``, ``-P``, ``-pd``, ``-pw``, ``/P``), and most
of those letters mean something else elsewhere (a port, a path, a profile). A user's flag on the
same line (``-u``, ``-U``, ``-un``, ``--user``, ``/user``) settles it: ``pmcmd … -u etl -p …``,
``ipmitool … -U ADMIN -P …``, ``infacmd … -un Administrator -pd …`` give a password after it, as
the many command rules of :mod:`osmia.memory.secret_commands` do for the tools they name. The
value (bare or quoted) is redacted unless it is a placeholder, a published or sample value, a
variable's reference, another flag, lower-case words, or a port (a number after ``-P``).
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.linear import Match, linear
from osmia.memory.secret_placeholders import REDACTED, env_name, is_placeholder, published_or_sample
from osmia.memory.secret_values import plain_words

__all__ = ["FLAGS_GATE", "flags_sub"]

_USER = r"(?:-u|-U|-un|-usr|--user|--username|/u|/U|/user|/usr)"
_PASS = r"(?:-p|-P|-pd|-pw|-pwd|-pass|--pass|--password|--pw|/p|/P|/pw|/pwd|/pass|/password)"
# The step's gate in redaction's one scan: a user's flag, then on its line a password's flag.
FLAGS_GATE = rf"(?:^|[ \t]){_USER}[ \t=][^\n]*[ \t]{_PASS}[ \t=]"
_FLAGS = linear(
    rf"(?m)(?:^|[ \t]){_USER}[ \t=]+[^\s-][^\n]*?[ \t]({_PASS})[ \t=]+('[^'\n]+'|\"[^\"\n]+\"|[^\s'\"]+)"
)


def _password(flag: str, value: str) -> bool:
    """Whether what a password's flag is given reads as the password."""
    bare = value[1:-1] if value[:1] in "'\"" and value[-1:] == value[:1] else value
    if len(bare) < 6 or REDACTED in bare or bare.startswith(("-", "$", "%", "<", "{", "/")):
        return False  # short, redacted, another flag, a reference, a placeholder or a path
    if flag == "-P" and bare.isdigit():
        return False  # a port (mysql, scp)
    if plain_words(bare):
        return False  # a word ("the --username and --password options")
    return not (is_placeholder(bare) or published_or_sample(bare) or env_name(bare))


def flags_sub() -> Callable[[str], str]:
    """The step: the value of a password's flag after a user's flag on the same line."""

    def replace(m: Match) -> str:
        whole = m.group(0) or ""
        value = m.group(2) or ""
        if not _password(m.group(1) or "", value):
            return whole
        quoted = value[:1] in "'\"" and value[-1:] == value[:1] and len(value) > 1
        start = m.start(2) - m.start(0) + (1 if quoted else 0)
        end = m.end(2) - m.start(0) - (1 if quoted else 0)
        return whole[:start] + REDACTED + whole[end:]

    return lambda text: _FLAGS.sub(replace, text)
