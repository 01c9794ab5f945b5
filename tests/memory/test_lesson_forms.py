"""Stored parsed forms of learnings (schema v10, osmia/memory/lesson_forms.py).

A form must read back as exactly the lesson the parser makes, must never be trusted when it is
of another text or parser version, and must change nothing extraction decides: a store that
keeps forms and one that never does end with the same graph.
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import replace
from pathlib import Path

from benchmarks.lesson_pairs import pairs
from osmia.memory.lesson_forms import FORM_VERSION, form_of, lesson_from_form
from osmia.memory.lessons import lesson
from osmia.memory.service import Memory, MemorySettings
from tests.memory.conftest import T0, Clock, make_run
from tests.memory.histories import history, play, played_store_at_version

# The digest of the forms of every text of the labelled pairs, as FORM_VERSION reads them. When a
# change to osmia/memory/lesson_parse.py makes this test fail, bump FORM_VERSION (stores then parse
# their learnings again) and set both values here.
PINNED = (9, "ef52187c")


def corpus() -> list[str]:
    return sorted({text for pair in pairs() for text in (pair.a, pair.b)})


def test_a_form_reads_back_as_the_parsed_lesson() -> None:
    texts = corpus()
    assert len(texts) > 200
    for text in [*texts, "Run `make sqlc` after editing queries", "Ünïcode `ruff check --fix` ✓"]:
        assert lesson_from_form(text, form_of(text)) == lesson(text)


def test_a_form_of_another_text_version_or_shape_is_not_trusted() -> None:
    text = "Pin numpy 1.26 in requirements.txt"
    form = form_of(text)
    assert lesson_from_form("Pin numpy 2.0 in requirements.txt", form) is None
    assert lesson_from_form(text, str(FORM_VERSION + 1) + form[len(str(FORM_VERSION)) :]) is None
    assert lesson_from_form(text, form + "\x1e") is None  # a field too many
    fields = form.split("\x1e")
    versions = fields[5]
    assert versions  # numpy 1.26
    for damaged_versions in (versions + "\x1d1", versions.replace("\x1d", "")):  # a pair that is not one
        assert lesson_from_form(text, "\x1e".join([*fields[:5], damaged_versions, fields[6]])) is None
    for damaged in ("", None, "{", "1", form[: form.rindex("\x1e")]):  # ... and a field too few
        assert lesson_from_form(text, damaged) is None


def test_the_parser_has_not_changed_under_the_same_form_version() -> None:
    digest = hashlib.sha256("\n".join(form_of(t) for t in corpus()).encode()).hexdigest()[:8]
    assert (FORM_VERSION, digest) == PINNED, (
        "lesson parsing changed: bump FORM_VERSION in osmia/memory/lesson_forms.py and set PINNED"
    )


def forms(path: Path) -> dict[str, str]:
    """Each learning's stored form, by node id; and checks none is left of a deleted node."""
    conn = sqlite3.connect(path)
    try:
        orphans = conn.execute(
            "SELECT count(*) FROM lesson_forms WHERE seq NOT IN (SELECT seq FROM nodes)"
        ).fetchone()[0]
        assert orphans == 0
        rows = conn.execute(
            "SELECT n.id, f.form FROM lesson_forms f JOIN nodes n ON n.seq = f.seq"
        ).fetchall()
        return dict(rows)
    finally:
        conn.close()


def valid_learnings(path: Path) -> dict[str, str]:
    conn = sqlite3.connect(path)
    try:
        return dict(
            conn.execute("SELECT id, content FROM nodes WHERE kind = 'learning' AND valid_to IS NULL")
        )
    finally:
        conn.close()


async def test_extraction_keeps_a_form_for_every_valid_learning_and_decides_as_without(
    tmp_path: Path,
) -> None:
    kept = MemorySettings(store_path=tmp_path / "kept.db", prune_threshold=0.05)
    never = replace(kept, store_path=tmp_path / "never.db")
    exports = []
    for settings in (kept, never):
        memory = await Memory.open(settings, clock=Clock(), update_gauges=False)
        try:
            if settings is never:  # every form written is dropped at once: each learning is parsed
                conn = sqlite3.connect(settings.store_path)
                conn.execute(
                    "CREATE TRIGGER drop_forms AFTER INSERT ON lesson_forms "
                    "BEGIN DELETE FROM lesson_forms WHERE seq = new.seq; END"
                )
                conn.commit()
                conn.close()
            pruned = await play(memory, history(43, 60), T0, eager=False, threshold=0.05)
            assert pruned  # decay's prune deleted learnings: their forms went with them
            exports.append(await memory.export())
        finally:
            await memory.close()
    assert exports[0] == exports[1]
    memory = await Memory.open(kept, clock=Clock(), update_gauges=False)
    try:  # unlearning deletes through the same trigger: no form is left behind (``forms`` checks)
        await memory.ingest(
            make_run(
                "poisoned",
                repo="https://github.com/org/new",
                learnings=("Run the zebra check twice before merging",),
            ),
            finished_at=T0 + 91 * 86400,
        )
        assert any("zebra" in content for content in valid_learnings(kept.store_path).values())
        assert (await memory.forget_run("agents/poisoned")).deleted
    finally:
        await memory.close()
    stored = forms(kept.store_path)
    learnings = valid_learnings(kept.store_path)
    assert learnings and set(learnings) <= set(stored)
    for node_id, content in learnings.items():
        assert lesson_from_form(content, stored[node_id]) == lesson(content)
    assert forms(never.store_path) == {}


async def test_a_missing_or_damaged_form_is_parsed_and_written_back(tmp_path: Path) -> None:
    settings = MemorySettings(store_path=tmp_path / "m.db")
    memory = await Memory.open(settings, clock=Clock(), update_gauges=False)
    repo = "https://github.com/org/api"
    first = ("Run `make sqlc` after editing queries", "Pin numpy 1.26 in requirements.txt")
    try:
        await memory.ingest(make_run("a", repo=repo, learnings=first), finished_at=T0)
        conn = sqlite3.connect(settings.store_path)
        conn.execute("UPDATE lesson_forms SET form = '[' WHERE rowid = (SELECT min(seq) FROM lesson_forms)")
        conn.execute("DELETE FROM lesson_forms WHERE rowid = (SELECT max(seq) FROM lesson_forms)")
        conn.commit()
        conn.close()
        assert len(forms(settings.store_path)) == 1
        # A restatement of the first lesson reinforces it, read from the damaged row's text.
        await memory.ingest(
            make_run("b", repo=repo, learnings=("After editing queries, run `make sqlc`",)),
            finished_at=T0 + 60,
        )
    finally:
        await memory.close()
    stored = forms(settings.store_path)
    learnings = valid_learnings(settings.store_path)
    assert set(stored) == set(learnings) and len(learnings) == 2
    for node_id, content in learnings.items():
        assert lesson_from_form(content, stored[node_id]) == lesson(content)


async def test_a_v9_store_gains_a_form_for_every_valid_learning_on_migration(tmp_path: Path) -> None:
    old = await played_store_at_version(tmp_path, 9, seed=44)
    migrated = await Memory.open(MemorySettings(store_path=old), clock=Clock(), update_gauges=False)
    await migrated.close()
    stored = forms(old)
    learnings = valid_learnings(old)
    assert len(learnings) > 1 and set(stored) == set(learnings)
    for node_id, content in learnings.items():
        assert lesson_from_form(content, stored[node_id]) == lesson(content)
