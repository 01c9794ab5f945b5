"""The one redaction step: a whole parsed TaskRun with every stored text field redacted.

Memory calls :func:`sanitized` once, where a run is ingested
(:meth:`osmia.memory.service.Memory.ingest`), so nothing downstream (the
extractor's facts, the runs table, patterns and profiles built from it, the
CLI printing them) sees a secret, and no extraction rule needs a redaction
call of its own. Fields are redacted whole, across lines, after invisible
characters and the markup inside a word are dropped (a zero-width space or an ``<i>`` inside a
token must not hide it) and a token that mixes in look-alike letters is written in Latin ones
(nor must a Cyrillic ``һ``).

Not redacted: the run's identity (namespace, name, uid: Kubernetes names that
key exactly-once extraction; redacting them could make two runs one), its
enums (flow, phase, task type, execution mode), numbers and timestamps.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from osmia.memory.cleaning import MAX_LINE, drop_invisible, drop_markup, settled
from osmia.memory.hostile import looks_hostile
from osmia.memory.linear import linear
from osmia.memory.redaction import redact, redact_name
from osmia.memory.secret_views import latin_tokens
from osmia.taskrun import Repository, Result, TaskRun, Ticket

_MAX_FOLDS = 3
# Up to four words of letters, digits and the marks language names use (c++, c#, objective-c, .net).
_LANGUAGE = linear(r"^[a-z0-9.+#-]+(?: [a-z0-9.+#-]+){0,3}$")


def redacted(text: str) -> str:
    """One field's text as it may be stored: invisible characters dropped, and formatting tags and
    comments inside a word (cleaning drops them too: :func:`~osmia.memory.cleaning.drop_markup`),
    tokens that mix in look-alike letters written in Latin ones
    (:func:`~osmia.memory.secret_views.latin_tokens`), secrets redacted.

    Line breaks are kept; cleaning for the prompt (one line, no markup) is
    :func:`stored_text` / :func:`osmia.memory.cleaning.clean_text`.
    """
    if not text:
        return text
    out = redact(latin_tokens(drop_markup(drop_invisible(text))))
    # A marker can end a token that mixed too many look-alike letters to be folded whole; the
    # shorter token left before it may fold now (``…пароль→[redacted]``). Again until it holds,
    # so that what is stored gives itself back (ASCII text, nearly all of it, passes at once).
    for _ in range(_MAX_FOLDS):
        folded = latin_tokens(out)
        if folded == out:
            break
        out = redact(folded)
    return out


def stored_text(text: str, max_len: int = MAX_LINE) -> str:
    """Text from an untrusted source made fit to store and to render: redacted, then cleaned.

    What ``import`` applies to each node's content (and what extraction gives
    every fact): secrets redacted on the whole text first, then
    :func:`~osmia.memory.cleaning.clean_text` to one safe line of at most
    ``max_len`` characters. Idempotent: cleaning can join what redaction saw apart (markup
    between two halves of a token, brackets that ended a token of mixed letters), so the two are
    applied again until the line gives itself back; a clean line does so at the first try.
    """
    return settled(text, max_len, redacted, passes=2 + _MAX_FOLDS)


def redacted_name(text: str) -> str:
    """A name's text as it may be stored (engine, language, branch): see :func:`redact_name`."""
    return redact_name(latin_tokens(drop_invisible(text))) if text else text


def _language(text: str) -> str:
    """A repository's language as stored: a name ("go", "c++", "objective-c"); anything else,
    such as text that gives orders, is no language at all ("")."""
    name = redacted_name(text)
    if not _LANGUAGE.match(name) or looks_hostile(name):
        return ""
    return name


def _all(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(redacted(v) for v in values)


def _names(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(redacted_name(v) for v in values)


def _ticket(ticket: Ticket) -> Ticket:
    return replace(
        ticket,
        id=redacted(ticket.id),
        description=redacted(ticket.description),
        title=redacted(ticket.title),
        labels=_all(ticket.labels),
        url=redacted(ticket.url),
    )


def _result(result: Result) -> Result:
    tool_calls: dict[str, int] = {}
    for tool, count in result.tool_calls.items():
        name = redacted_name(tool)
        tool_calls[name] = tool_calls.get(name, 0) + count
    return replace(
        result,
        summary=redacted(result.summary),
        failure_reason=redacted(result.failure_reason),
        merge_request_url=redacted(result.merge_request_url),
        branch_name=redacted_name(result.branch_name),
        files_changed=_all(result.files_changed),
        tests_failed=_all(result.tests_failed),
        flaky_tests=_all(result.flaky_tests),
        tool_calls=tool_calls,
        learnings=_all(result.learnings),
    )


def sanitized(run: TaskRun) -> TaskRun:
    """``run`` with every free-text field redacted; identity, enums and numbers unchanged."""
    return replace(
        run,
        engine=redacted_name(run.engine),
        ticket=_ticket(run.ticket),
        fallback_engines=_names(run.fallback_engines),
        repository=Repository(url=redacted(run.repository.url), language=_language(run.repository.language)),
        instructions=redacted(run.instructions),
        engine_attempts=_names(run.engine_attempts),
        result=_result(run.result) if run.result is not None else None,
    )
