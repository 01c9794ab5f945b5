"""A stored line's mark that the prompt's second cleaning cannot change it.

The prompt cleans every recalled line again where it is written (``prompt.render_line``: defence
in depth, so that a line an older Osmia stored, under fewer redaction rules, is shown as today's
rules clean it). For a line this version stored, that cleaning is an identity, yet the first time
a process meets the line it costs what cleaning costs: 5-40 µs, and 0.5-2.5 ms for the 1 % of
lines whose words wake the redaction rules ("Password handling in …", a test named for a coupon).
A query meets ~7 such lines in its section and prices ~2 sources for each candidate it weighs:
at 100k nodes that first visit was most of the query's tail (docs/performance.md §34).

So a node row carries ``clean_stamp``: a keyed hash of its content and of the sources its line
shows (the newest two), written only when the content renders as it is stored (cleaning gives
:func:`~osmia.memory.prompt.as_stored`: itself, or a long one cut) and so does each of those
sources (:func:`~osmia.memory.prompt.cleaned_source`). A line whose stamp :func:`holds` is shown
without cleaning it again; any other line is cleaned, as before. The hash's key is
:func:`cleaning_version`, a digest of the cleaning and redaction code and of the libraries and
Unicode tables it uses, so:

- a row whose content or shown sources change without a stamp computed for them (any writer but
  ``upsert_nodes``, a copy made with SQL) fails the check, and is cleaned;
- a store written by another version of the rules has stamps that fail the check until its rows
  are stamped again (:meth:`~osmia.memory.store.nodes.NodeQueries.restamp`, the maintenance loop);
- a line is stamped as it is written only where that is cheap (a reinforced fact whose stamp
  holds, :func:`written_stamp`); new lines are stamped by the maintenance loop or a closing writer
  (the store's ``stamp_written``), so no extraction waits for a cleaning pass;
- nothing a run wrote decides a stamp: Osmia computes it from what the cleaning gave back.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import importlib.util
import os
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from osmia.memory.cleaning import clean_text
from osmia.memory.prompt import MAX_SOURCES_SHOWN, SOURCE_CHARS, as_stored, cleaned_source, shown_length

# Every module whose code decides what cleaning a stored line gives (``cleaning.clean_text`` and
# what it imports, and the prompt's use of it); tests/memory/test_clean_stamp.py checks that the
# import closure of ``cleaning`` and ``prompt`` is listed here.
CLEANING_MODULES = (
    "osmia.memory.cleaning",
    "osmia.memory.clean_stamp",
    "osmia.memory.confusables",
    "osmia.memory.english",
    "osmia.memory.hostile",
    "osmia.memory.hostile_acts",
    "osmia.memory.hostile_backdoors",
    "osmia.memory.hostile_deceit",
    "osmia.memory.hostile_evasion",
    "osmia.memory.hostile_guards",
    "osmia.memory.hostile_harms",
    "osmia.memory.hostile_misuse",
    "osmia.memory.hostile_orders",
    "osmia.memory.hostile_packages",
    "osmia.memory.hostile_oversight",
    "osmia.memory.hostile_reach",
    "osmia.memory.hostile_rules",
    "osmia.memory.hostile_settings",
    "osmia.memory.hostile_stories",
    "osmia.memory.hostile_tongues",
    "osmia.memory.linear",
    "osmia.memory.payloads",
    "osmia.memory.prompt",
    "osmia.memory.redaction",
    "osmia.memory.secret_assembled",
    "osmia.memory.secret_calls",
    "osmia.memory.secret_codes",
    "osmia.memory.secret_commands",
    "osmia.memory.secret_configs",
    "osmia.memory.secret_cuts",
    "osmia.memory.secret_decoding",
    "osmia.memory.secret_elements",
    "osmia.memory.secret_escapes",
    "osmia.memory.secret_flags",
    "osmia.memory.secret_formats",
    "osmia.memory.secret_inserts",
    "osmia.memory.secret_joined",
    "osmia.memory.secret_mnemonic",
    "osmia.memory.secret_name_values",
    "osmia.memory.secret_name_words",
    "osmia.memory.secret_names",
    "osmia.memory.secret_nearby",
    "osmia.memory.secret_pins",
    "osmia.memory.secret_placeholders",
    "osmia.memory.secret_prefixed",
    "osmia.memory.secret_prose",
    "osmia.memory.secret_providers",
    "osmia.memory.secret_quoted",
    "osmia.memory.secret_rule",
    "osmia.memory.secret_spelled",
    "osmia.memory.secret_tables",
    "osmia.memory.secret_tails",
    "osmia.memory.secret_told",
    "osmia.memory.secret_unnamed",
    "osmia.memory.secret_values",
    "osmia.memory.secret_views",
    "osmia.memory.secret_wallets",
    "osmia.memory.secret_web",
    "osmia.memory.text",
    "osmia.memory.types",
)
# The installed libraries the cleaning runs on (RE2's engine, the look-alike letter table, English's
# word list, BIP-39's word list).
CLEANING_LIBRARIES = ("google-re2", "confusable-homoglyphs", "wordfreq", "mnemonic")


@functools.cache
def cleaning_version() -> bytes:
    """A digest of what decides how a line is cleaned: the sources of :data:`CLEANING_MODULES`, the
    versions of :data:`CLEANING_LIBRARIES`, Python's and its Unicode tables' versions.

    Where a module's file cannot be read, a random value: no stamp written by another process
    then holds in this one (every line is cleaned, as before stamps existed).
    """
    digest = hashlib.blake2b(digest_size=16)
    try:
        for name in CLEANING_MODULES:
            spec = importlib.util.find_spec(name)
            if spec is None or spec.origin is None:
                raise OSError(f"no file for {name}")
            digest.update(name.encode() + b"\0" + Path(spec.origin).read_bytes() + b"\0")
    except OSError:
        return os.urandom(16)
    for library in CLEANING_LIBRARIES:
        try:
            version = importlib.metadata.version(library)
        except importlib.metadata.PackageNotFoundError:
            version = "absent"
        digest.update(f"{library}={version}\0".encode())
    digest.update(f"{sys.version}\0{unicodedata.unidata_version}".encode())
    return digest.digest()


def _digest(content: str, sources: Sequence[str]) -> int:
    """The keyed hash of a line's content and shown sources (the newest few: ``format_sources``),
    as a signed 64-bit integer (what an SQLite INTEGER holds)."""
    text = "\0".join((content, *sources[-MAX_SOURCES_SHOWN:])).encode("utf-8", "surrogatepass")
    raw = hashlib.blake2b(text, digest_size=8, key=cleaning_version()).digest()
    return int.from_bytes(raw, "big", signed=True)


def holds(content: str, sources: Sequence[str], stamp: int | None) -> bool:
    """Whether ``stamp`` is this version's for ``content`` and ``sources``: the content and the
    sources a line shows render unchanged."""
    return stamp is not None and stamp == _digest(content, sources)


def written_stamp(
    content: str, sources: Sequence[str], before: tuple[str, Sequence[str], int | None] | None
) -> tuple[int | None, bool]:
    """``(stamp, later)`` for a line being written. A rewrite of a line whose stamp holds (a
    reinforced fact) is stamped at once: only the sources it did not show are cleaned (its new
    run's reference, a cached first cleaning of ~5 µs). Any other line is ``later``: no stamp now,
    :func:`stamp_for` off the write's path (the store's ``stamp_written``, the maintenance loop),
    as a line's first cleaning costs 10-40 µs, and 0.5-2.5 ms for ~1 % of lines."""
    if before is not None and before[0] == content and holds(*before):
        return _with_sources(content, sources, before[1]), False
    return None, True


def _with_sources(content: str, sources: Sequence[str], shown_before: Sequence[str]) -> int | None:
    """The stamp of ``content`` (known to render as stored) if its shown sources render as they are
    (those it showed before are known to)."""
    known = shown_before[-MAX_SOURCES_SHOWN:]
    for source in sources[-MAX_SOURCES_SHOWN:]:
        if source not in known and cleaned_source(source) != source:
            return None
    return _digest(content, sources)


def stamp_for(content: str, sources: Sequence[str]) -> int | None:
    """The stamp of a stored line, or None when cleaning would change what it shows (its content,
    or a source it shows). Cleaned without the prompt's caches: lines stamped in bulk (maintenance,
    a copied store) would push out the ones queries show."""
    if clean_text(content, shown_length(content)) != as_stored(content):
        return None
    if any(clean_text(source, SOURCE_CHARS) != source for source in sources[-MAX_SOURCES_SHOWN:]):
        return None
    return _digest(content, sources)
