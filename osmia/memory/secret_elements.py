"""A secret's value as an XML element's text, its name given by an attribute or a sibling element.

:mod:`osmia.memory.secret_names` reads an element named for a secret (``<password>…</password>``),
``<add key="…" value="…"/>`` and Hadoop's ``<name>`` then ``<value>``. Java, .NET and Windows
configurations also name the secret elsewhere than the element holding its value:

- in a ``name`` or ``key`` attribute of the element itself (Hibernate's and Spring's
  ``<property name="hibernate.connection.password">…</property>``, a Java properties file's
  ``<entry key="jdbc.password">…</entry>``);
- in the element's name, its value in a ``<Value>`` child (Windows answer files'
  ``<AdministratorPassword><Value>…</Value>``), or in an attribute of an element whose ``<value>``
  child holds it (.NET settings' ``<setting name="SmtpPassword"><value>…</value></setting>``);
- in a ``<Key>`` element before a ``<Value>`` (KeePass's XML export).

The value is taken as a strong name's is (:func:`~osmia.memory.secret_name_values.strong_value`: not a
placeholder, reference, boolean or word), unless the name only names, counts or points at a secret.
"""

from __future__ import annotations

from collections.abc import Callable

from osmia.memory.linear import Match
from osmia.memory.secret_name_values import name_allowed, strong_value
from osmia.memory.secret_name_words import IDENT, STRONG
from osmia.memory.secret_names import element_replace, redacted_group, substitution

__all__ = ["ELEMENT_STEPS"]

_NAME = rf"({IDENT}{STRONG}{IDENT})"
_TEXT = r"[ \t]*([^<\r\n]{1,400}?)[ \t]*"
_VALUE_CHILD = rf"\s*<value(?:[ \t][^<>]*)?>{_TEXT}</value>"
# The name in an attribute, the value the element's text (not a self-closed element's).
_ATTRIBUTE = (
    rf"(?i)<[\w:.-]+[ \t][^<>]*?\b(?:name|key)[ \t]*=[ \t]*[\"']{_NAME}[\"'](?:[^<>]*[^/<>])?>{_TEXT}</"
)
_ATTRIBUTE_GATE = r"(?i)\b(?:name|key)[ \t]*=[ \t]*[\"'][^\"'<>]*(?:pass|pwd|secret|token|key|cred)"
# The name in the element, an attribute of it or a key element before; the value in a value child.
_CHILD = (
    rf"(?i)(?:<{_NAME}(?:[ \t][^<>]*)?>|<[\w:.-]+[ \t][^<>]*?\b(?:name|key)[ \t]*=[ \t]*[\"']{_NAME}[\"']"
    rf"[^<>]*>|<key>[ \t]*{_NAME}[ \t]*</key>){_VALUE_CHILD}"
)
_CHILD_GATE = r"(?i)<value[ \t>]"


def _child_replace(m: Match) -> str:
    name = m.group(1) or m.group(2) or m.group(3) or ""
    value = m.group(4) or ""
    if not name_allowed(name) or not strong_value(value, True, "=", name):
        return m.group(0) or ""
    return redacted_group(m, 4)


# Each step's gate and the step.
ELEMENT_STEPS: tuple[tuple[str, Callable[[str], str]], ...] = (
    (_ATTRIBUTE_GATE, substitution(_ATTRIBUTE, element_replace)),
    (_CHILD_GATE, substitution(_CHILD, _child_replace)),
)
