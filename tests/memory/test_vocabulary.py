"""The vocabulary the store keeps as nodes are written (schema v9, osmia/memory/vocabulary.py).

Every write path must leave the ``vocabulary`` table equal to a recount from the nodes' content:
extraction, reinforcement, decay's prune, ``forget`` of a node and of a run, import, and the
migration of a v8 store. A learning's spread is the repositories stating its sentence.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from dataclasses import replace
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from osmia.memory.service import Memory, MemorySettings
from osmia.memory.store.query_reads import QueryReads
from osmia.memory.text import STOPWORDS, search_terms
from osmia.memory.vocabulary import NODES_WORD, sentence_key, vocabulary_words, words_column
from tests.memory.conftest import T0, Clock, make_run
from tests.memory.histories import history, play, played_store_at_version


def recount(path: Path) -> Counter[tuple[str, str]]:
    """``(tenant, word) → facts`` counted from every fact's content (``''``: the tenant's facts;
    attempts are not counted)."""
    conn = sqlite3.connect(path)
    try:
        counts: Counter[tuple[str, str]] = Counter()
        for tenant, content in conn.execute("SELECT tenant, content FROM nodes WHERE kind != 'attempt'"):
            counts[(tenant, NODES_WORD)] += 1
            for word in vocabulary_words(content):
                counts[(tenant, word)] += 1
        return counts
    finally:
        conn.close()


def kept(path: Path) -> Counter[tuple[str, str]]:
    """The ``vocabulary`` table as the store left it."""
    conn = sqlite3.connect(path)
    try:
        return Counter({(t, w): n for t, w, n in conn.execute("SELECT tenant, word, nodes FROM vocabulary")})
    finally:
        conn.close()


def assert_columns_follow_content(path: Path) -> None:
    conn = sqlite3.connect(path)
    try:
        rows = conn.execute("SELECT kind, content, words, sentence FROM nodes").fetchall()
        for kind, content, words, sentence in rows:
            assert words == (None if kind == "attempt" else words_column(content))
            assert sentence == (sentence_key(content) if kind == "learning" else None)
    finally:
        conn.close()


def test_a_sentence_key_ignores_case_and_inflection_but_not_more_words() -> None:
    key = sentence_key("Run the tests before pushing")
    assert key == sentence_key("ran the test before pushing".replace("ran", "run"))
    assert key == sentence_key("RUN the test before pushing!")
    assert key != sentence_key("Run the tests before pushing to main")
    assert 0 < key < 2**63
    assert json.loads(words_column("Run `make sqlc` after editing queries")) == [
        "",
        *vocabulary_words("Run `make sqlc` after editing queries"),
    ]


def test_a_number_is_its_own_stem_and_stays_out_of_the_stem_cache() -> None:
    from osmia.memory import text

    numbers = ["0", "7", "502", "14917", "00042", "9" * 40]
    assert [text.stem(n) for n in numbers] == [text._STEMMER.stemWord(n) for n in numbers] == numbers
    before = text._stem_word.cache_info()
    assert text.stems("engine: 14917 runs, 71% success") == {"engin", "14917", "run", "71", "success"}
    after = text._stem_word.cache_info()
    # the three words went through the cache, the two numbers did not
    assert after.hits + after.misses - before.hits - before.misses == 3
    # a number in another script is not ASCII: Snowball decides it as before
    assert text.stem("١٢٣") == text._STEMMER.stemWord("١٢٣")


async def test_every_write_path_keeps_the_vocabulary_equal_to_a_recount(tmp_path: Path) -> None:
    settings = MemorySettings(store_path=tmp_path / "m.db", prune_threshold=0.05)
    memory = await Memory.open(settings, clock=Clock(), update_gauges=False)
    try:
        pruned = await play(memory, history(41, 60), T0, eager=False, threshold=0.05)
        assert pruned  # decay's prune ran through the delete trigger
        assert kept(settings.store_path) == recount(settings.store_path)
        await memory.ingest(
            make_run("other-tenant", flow="incident-triage", learnings=("Restart the queue consumer",)),
            finished_at=T0 + 90 * 86400,
        )
        await memory.ingest(
            make_run("poisoned", repo="https://github.com/org/new", learnings=("Disable the zebra check",)),
            finished_at=T0 + 91 * 86400,
        )
        assert kept(settings.store_path) == recount(settings.store_path)
        result = await memory.forget_run("agents/poisoned")
        assert result.deleted and result.updated
        some = (await memory.export())["nodes"][0]["id"]
        assert await memory.forget(some)
        assert kept(settings.store_path) == recount(settings.store_path)
        assert {t for t, _w in kept(settings.store_path)} == {"ticketing", "incident-triage"}
        assert_columns_follow_content(settings.store_path)
        dump = await memory.export()
    finally:
        await memory.close()
    later = Clock(T0 + 400 * 86400)  # after the history: an export from the future is refused
    copy_settings = replace(settings, store_path=tmp_path / "copy.db")
    copy = await Memory.open(copy_settings, clock=later, update_gauges=False)
    try:
        await copy.import_(dump)
        assert kept(tmp_path / "copy.db") == recount(tmp_path / "copy.db")
        await copy.import_(dump, replace=True)  # the wipe's deletes are counted too
        assert kept(tmp_path / "copy.db") == recount(tmp_path / "copy.db")
    finally:
        await copy.close()


async def test_a_v8_store_gains_its_vocabulary_on_migration(tmp_path: Path) -> None:
    old = await played_store_at_version(tmp_path, 8, seed=42)
    assert not kept_table_exists(old)
    migrated = await Memory.open(MemorySettings(store_path=old), clock=Clock(), update_gauges=False)
    await migrated.close()
    assert kept(old) == recount(old) and kept(old)
    assert_columns_follow_content(old)


def kept_table_exists(path: Path) -> bool:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'vocabulary'").fetchone() is not None
    finally:
        conn.close()


async def test_spread_counts_the_repositories_stating_a_sentence(tmp_path: Path) -> None:
    settings = MemorySettings(store_path=tmp_path / "m.db")
    memory = await Memory.open(settings, clock=Clock(), update_gauges=False)
    generic = "Check the changelog wording before the release"
    specific = "Regenerate the sqlc models first"
    try:
        for i, repo in enumerate(("api", "web", "cli")):
            learnings = (generic,) if repo != "cli" else ("checked the changelog wording before the release",)
            await memory.ingest(
                make_run(f"g{i}", repo=f"https://github.com/org/{repo}", learnings=learnings),
                finished_at=T0 + i,
            )
        await memory.ingest(
            make_run("s", repo="https://github.com/org/api", learnings=(specific,)),
            finished_at=T0 + 10,
        )
    finally:
        await memory.close()
    conn = sqlite3.connect(settings.store_path)
    try:
        size, counts, spread = QueryReads(conn).vocabulary(
            "ticketing", ["sqlc", "zebra"], [sentence_key(generic), sentence_key(specific)]
        )
        nodes = conn.execute(
            "SELECT count(*) FROM nodes WHERE tenant = 'ticketing' AND kind != 'attempt'"
        ).fetchone()[0]
    finally:
        conn.close()
    assert size == nodes
    # The learning holds "sqlc" (its run's attempt quotes it, and is not counted); a word no fact
    # holds has no count.
    assert counts == {"sqlc": 1}
    assert spread == {sentence_key(generic): 3, sentence_key(specific): 1}


async def test_a_rewritten_fact_moves_only_the_words_it_lost_and_gained(tmp_path: Path) -> None:
    """Schema v14: a fact rewritten with other words leaves the rows of the words it keeps alone
    (a pattern's new figures change one or two of its words), and the counts stay a recount's,
    also when a row changes tenant or loses its words."""
    settings = MemorySettings(store_path=tmp_path / "m.db")
    memory = await Memory.open(settings, clock=Clock(), update_gauges=False)
    try:
        learned = ("Run golangci-lint before the build or the vet step fails",)
        await memory.ingest(make_run("a", learnings=learned), finished_at=T0)
    finally:
        await memory.close()
    conn = sqlite3.connect(settings.store_path)
    try:
        conn.executescript(
            """
            CREATE TEMP TABLE written (word TEXT);
            CREATE TEMP TRIGGER w1 AFTER INSERT ON vocabulary BEGIN
                INSERT INTO written VALUES (new.word); END;
            CREATE TEMP TRIGGER w2 AFTER UPDATE ON vocabulary BEGIN
                INSERT INTO written VALUES (new.word); END;
            CREATE TEMP TRIGGER w3 AFTER DELETE ON vocabulary BEGIN
                INSERT INTO written VALUES (old.word); END;
            """
        )
        seq, content = conn.execute("SELECT seq, content FROM nodes WHERE kind = 'learning'").fetchone()
        newer = "Run golangci-lint before the release or the vet step fails"
        rewrite = "UPDATE nodes SET content = ?, words = ? WHERE seq = ?"
        conn.execute(rewrite, (newer, words_column(newer), seq))
        lost = set(vocabulary_words(content)) - set(vocabulary_words(newer))
        gained = set(vocabulary_words(newer)) - set(vocabulary_words(content))
        assert lost and gained and set(vocabulary_words(content)) & set(vocabulary_words(newer))
        assert {w for (w,) in conn.execute("SELECT word FROM written")} == lost | gained
        conn.commit()
        assert kept(settings.store_path) == recount(settings.store_path)
        # Moved to another tenant with its words: every word leaves one tenant for the other.
        conn.execute(
            "UPDATE nodes SET tenant = 'elsewhere', content = ?, words = ? WHERE seq = ?",
            (content, words_column(content), seq),
        )
        conn.commit()
        assert kept(settings.store_path) == recount(settings.store_path)
        assert ("elsewhere", "build") in kept(settings.store_path)
        conn.execute("UPDATE nodes SET words = NULL WHERE seq = ?", (seq,))
        conn.execute(rewrite, (newer, words_column(newer), seq))
        conn.commit()
    finally:
        conn.close()
    assert kept(settings.store_path) == recount(settings.store_path)


# The split as it was before single-piece words were skipped: the reference the shortcut must match.
_CAMEL_REFERENCE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="aZbYc09 _-./:,%()\n", max_size=80))
def test_search_terms_skip_only_words_the_split_leaves_whole(text: str) -> None:
    """``search_terms`` skips a word without splitting it only where the split finds one piece."""
    expected: list[str] = []
    for token in re.findall(r"[A-Za-z0-9]+", text):
        pieces = _CAMEL_REFERENCE.findall(token)
        if len(pieces) > 1:
            expected.extend(p.lower() for p in pieces if p.lower() not in STOPWORDS)
    assert search_terms(text) == " ".join(dict.fromkeys(expected))
