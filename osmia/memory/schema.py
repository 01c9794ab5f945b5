"""The Osmia schema as an ordered list of forward migrations.

``MIGRATIONS[i]`` takes a database from ``user_version`` ``i`` to ``i + 1``;
the schema version is the length of the list. A new migration is appended,
never inserted or edited: files in the field were created by the old ones.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # v1: the initial schema.
    """
    CREATE TABLE nodes (
        seq         INTEGER PRIMARY KEY,
        id          TEXT NOT NULL UNIQUE,
        type        TEXT NOT NULL,
        tenant      TEXT NOT NULL,
        kind        TEXT NOT NULL,
        key         TEXT NOT NULL,
        content     TEXT NOT NULL,
        terms       TEXT NOT NULL DEFAULT '',
        repository  TEXT NOT NULL DEFAULT '',
        engine      TEXT NOT NULL DEFAULT '',
        task_type   TEXT NOT NULL DEFAULT '',
        language    TEXT NOT NULL DEFAULT '',
        confidence  REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        decay_rate  REAL NOT NULL CHECK (decay_rate >= 0 AND decay_rate < 1),
        valid_from  REAL NOT NULL,
        valid_to    REAL,
        last_seen   REAL NOT NULL,
        occurrences INTEGER NOT NULL DEFAULT 1,
        sources     TEXT NOT NULL DEFAULT '[]',
        UNIQUE (tenant, key)
    );
    CREATE INDEX nodes_repository ON nodes (tenant, repository, confidence);
    CREATE INDEX nodes_engine ON nodes (tenant, engine, confidence);
    CREATE INDEX nodes_type ON nodes (type);
    CREATE TABLE edges (
        src        TEXT NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
        dst        TEXT NOT NULL REFERENCES nodes (id) ON DELETE CASCADE,
        relation   TEXT NOT NULL CHECK (relation IN ('relates_to', 'contradicts', 'supersedes')),
        weight     REAL NOT NULL DEFAULT 1.0,
        created_at REAL NOT NULL,
        PRIMARY KEY (src, dst, relation)
    );
    CREATE INDEX edges_dst ON edges (dst, src);
    CREATE VIRTUAL TABLE nodes_fts USING fts5 (
        content, terms, content='nodes', content_rowid='seq',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER nodes_fts_insert AFTER INSERT ON nodes BEGIN
        INSERT INTO nodes_fts (rowid, content, terms) VALUES (new.seq, new.content, new.terms);
    END;
    CREATE TRIGGER nodes_fts_delete AFTER DELETE ON nodes BEGIN
        INSERT INTO nodes_fts (nodes_fts, rowid, content, terms)
        VALUES ('delete', old.seq, old.content, old.terms);
    END;
    CREATE TRIGGER nodes_fts_update AFTER UPDATE OF content, terms ON nodes BEGIN
        INSERT INTO nodes_fts (nodes_fts, rowid, content, terms)
        VALUES ('delete', old.seq, old.content, old.terms);
        INSERT INTO nodes_fts (rowid, content, terms) VALUES (new.seq, new.content, new.terms);
    END;
    CREATE TABLE runs (
        run_key     TEXT PRIMARY KEY,
        ref         TEXT NOT NULL,
        tenant      TEXT NOT NULL,
        repository  TEXT NOT NULL,
        language    TEXT NOT NULL,
        engine      TEXT NOT NULL,
        task_type   TEXT NOT NULL,
        success     INTEGER NOT NULL,
        failure_class TEXT NOT NULL,
        duration    REAL,
        finished_at REAL NOT NULL,
        nodes       INTEGER NOT NULL DEFAULT 0,
        edges       INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX runs_engine ON runs (tenant, engine, task_type, language);
    CREATE INDEX runs_repository ON runs (tenant, repository);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # v2: run statistics kept as running aggregates (maintained by triggers on ``runs``), so that
    # recomputing patterns after an extraction costs O(1) instead of a scan of the run history.
    """
    CREATE TABLE run_stats (
        tenant TEXT NOT NULL, engine TEXT NOT NULL, task_type TEXT NOT NULL, language TEXT NOT NULL,
        runs INTEGER NOT NULL, successes INTEGER NOT NULL, duration_sum REAL NOT NULL,
        duration_n INTEGER NOT NULL,
        PRIMARY KEY (tenant, engine, task_type, language)
    ) WITHOUT ROWID;
    CREATE TABLE run_durations (
        tenant TEXT NOT NULL, task_type TEXT NOT NULL, minutes INTEGER NOT NULL, runs INTEGER NOT NULL,
        PRIMARY KEY (tenant, task_type, minutes)
    ) WITHOUT ROWID;
    CREATE TABLE run_failures (
        tenant TEXT NOT NULL, repository TEXT NOT NULL, failure_class TEXT NOT NULL, runs INTEGER NOT NULL,
        PRIMARY KEY (tenant, repository, failure_class)
    ) WITHOUT ROWID;
    INSERT INTO run_stats
        SELECT tenant, engine, task_type, language, count(*), sum(success), coalesce(sum(duration), 0),
               count(duration)
        FROM runs GROUP BY tenant, engine, task_type, language;
    INSERT INTO run_durations
        SELECT tenant, task_type, CAST(ceil(duration / 60.0) AS INTEGER) AS m, count(*)
        FROM runs WHERE success = 1 AND duration IS NOT NULL GROUP BY tenant, task_type, m;
    INSERT INTO run_failures
        SELECT tenant, repository, failure_class, count(*) FROM runs WHERE success = 0
        GROUP BY tenant, repository, failure_class;
    CREATE TRIGGER runs_stats_insert AFTER INSERT ON runs BEGIN
        INSERT INTO run_stats VALUES (new.tenant, new.engine, new.task_type, new.language, 1, new.success,
                                      coalesce(new.duration, 0), new.duration IS NOT NULL)
        ON CONFLICT DO UPDATE SET runs = runs + 1, successes = successes + excluded.successes,
            duration_sum = duration_sum + excluded.duration_sum,
            duration_n = duration_n + excluded.duration_n;
        INSERT INTO run_durations
            SELECT new.tenant, new.task_type, CAST(ceil(new.duration / 60.0) AS INTEGER), 1
            WHERE new.success = 1 AND new.duration IS NOT NULL
        ON CONFLICT DO UPDATE SET runs = runs + 1;
        INSERT INTO run_failures SELECT new.tenant, new.repository, new.failure_class, 1 WHERE new.success = 0
        ON CONFLICT DO UPDATE SET runs = runs + 1;
    END;
    CREATE TRIGGER runs_stats_delete AFTER DELETE ON runs BEGIN
        UPDATE run_stats SET runs = runs - 1, successes = successes - old.success,
            duration_sum = duration_sum - coalesce(old.duration, 0),
            duration_n = duration_n - (old.duration IS NOT NULL)
        WHERE tenant = old.tenant AND engine = old.engine AND task_type = old.task_type
            AND language = old.language;
        DELETE FROM run_stats WHERE runs <= 0;
        UPDATE run_durations SET runs = runs - 1
        WHERE old.success = 1 AND old.duration IS NOT NULL AND tenant = old.tenant
            AND task_type = old.task_type AND minutes = CAST(ceil(old.duration / 60.0) AS INTEGER);
        DELETE FROM run_durations WHERE runs <= 0;
        UPDATE run_failures SET runs = runs - 1
        WHERE old.success = 0 AND tenant = old.tenant AND repository = old.repository
            AND failure_class = old.failure_class;
        DELETE FROM run_failures WHERE runs <= 0;
    END;
    """,
    # v3: indexes the candidate queries can range-scan: general knowledge about an engine
    # (repository = '') and patterns (a partial index: decay updates every confidence, and a
    # full (tenant, kind, confidence) index made that 60 % slower), instead of a whole tenant;
    # and the FTS row of a node is rewritten only when its text changed (a reinforcement
    # rewrites the node row, and rewriting its FTS row too was most of an extraction's writes).
    """
    DROP INDEX nodes_engine;
    CREATE INDEX nodes_engine ON nodes (tenant, engine, repository, confidence);
    CREATE INDEX nodes_patterns ON nodes (tenant, confidence) WHERE kind = 'pattern';
    DROP TRIGGER nodes_fts_update;
    CREATE TRIGGER nodes_fts_update AFTER UPDATE OF content, terms ON nodes
    WHEN old.content IS NOT new.content OR old.terms IS NOT new.terms BEGIN
        INSERT INTO nodes_fts (nodes_fts, rowid, content, terms)
        VALUES ('delete', old.seq, old.content, old.terms);
        INSERT INTO nodes_fts (rowid, content, terms) VALUES (new.seq, new.content, new.terms);
    END;
    """,
    # v4: no automatic FTS segment merging inside writes: merging is housekeeping
    # (Store.maintain), run by the operator between extractions and on close.
    """
    INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('automerge', 0);
    """,
    # v5: the reverse edge index covers the one-hop query (dst, relation → src) without reading
    # the table row: ranking asks for the neighbours of its strongest candidates on every query.
    """
    DROP INDEX edges_dst;
    CREATE INDEX edges_dst ON edges (dst, relation, src);
    """,
    # v6: decay as arithmetic on read, and provenance per (node, run). ``confidence`` now refers to
    # the decay epoch in ``epoch`` (meta ``decay_epoch`` counts the cycles applied); ``prune_at`` is
    # the epoch at which the node falls below the prune threshold recorded in meta (NULL: never, or
    # not computed yet: the next decay pass computes it). ``node_runs`` holds what each run did to
    # each fact (osmia/memory/provenance.py); ``forgotten_runs`` the runs an admin unlearned.
    # Existing nodes keep their state as one baseline event (run 0), so replaying a node's events
    # after a run is forgotten starts from what the store knew before the upgrade.
    """
    ALTER TABLE nodes ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE nodes ADD COLUMN prune_at INTEGER;
    CREATE INDEX nodes_prune_at ON nodes (prune_at) WHERE prune_at IS NOT NULL;
    CREATE TABLE node_runs (
        step  INTEGER PRIMARY KEY,
        node  INTEGER NOT NULL REFERENCES nodes (seq) ON DELETE CASCADE,
        run   INTEGER NOT NULL,
        event INTEGER NOT NULL,
        epoch INTEGER NOT NULL,
        at    REAL NOT NULL,
        value REAL,
        other INTEGER
    );
    CREATE INDEX node_runs_node ON node_runs (node, step);
    CREATE INDEX node_runs_run ON node_runs (run);
    CREATE TABLE run_refs (run INTEGER PRIMARY KEY, ref TEXT NOT NULL);
    CREATE TABLE forgotten_runs (
        run_key TEXT PRIMARY KEY, ref TEXT NOT NULL, tenant TEXT NOT NULL, forgotten_at REAL NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX runs_ref ON runs (ref);
    INSERT INTO node_runs (node, run, event, epoch, at, value, other)
        SELECT seq, 0, 4, 0, last_seen, confidence, occurrences FROM nodes;
    INSERT INTO node_runs (node, run, event, epoch, at, value, other)
        SELECT seq, 0, 1, 0, valid_to, NULL, NULL FROM nodes WHERE valid_to IS NOT NULL;
    INSERT OR REPLACE INTO meta (key, value) VALUES ('decay_epoch', '0');
    DELETE FROM meta WHERE key = 'prune_threshold';
    """,
    # v7 (retrieval v2): the ticket of each run (a retry is told about earlier attempts first),
    # the engines a fallback rescued it from (each counts as a failure of that engine in the
    # statistics, kept by the triggers below), and an index of the valid lessons and test facts
    # of a repository (extraction compares a new learning or test name with them).
    """
    ALTER TABLE runs ADD COLUMN ticket_id TEXT NOT NULL DEFAULT '';
    ALTER TABLE runs ADD COLUMN failed_engines TEXT NOT NULL DEFAULT '[]';
    CREATE INDEX runs_ticket ON runs (tenant, ticket_id) WHERE ticket_id != '';
    CREATE INDEX nodes_lessons ON nodes (tenant, repository, kind)
        WHERE valid_to IS NULL AND kind IN ('learning', 'flaky_test', 'failing_test', 'test_fixed');
    CREATE TRIGGER runs_attempts_insert AFTER INSERT ON runs WHEN new.failed_engines != '[]' BEGIN
        INSERT INTO run_stats
            SELECT new.tenant, value, new.task_type, new.language, 1, 0, 0, 0
            FROM json_each(new.failed_engines) WHERE value != new.engine
        ON CONFLICT DO UPDATE SET runs = runs + 1;
    END;
    CREATE TRIGGER runs_attempts_delete AFTER DELETE ON runs WHEN old.failed_engines != '[]' BEGIN
        UPDATE run_stats SET runs = runs - 1
        WHERE tenant = old.tenant AND task_type = old.task_type AND language = old.language
            AND engine IN (SELECT value FROM json_each(old.failed_engines) WHERE value != old.engine);
        DELETE FROM run_stats WHERE runs <= 0;
    END;
    """,
    # v8: a deleted run (``forget --run``) updates its aggregates by key and deletes only the rows
    # it emptied: the v2/v7 delete triggers swept whole aggregate tables (``runs <= 0``), and
    # ``run_failures`` grows with the number of repositories, so forgetting a run cost more in a
    # larger graph.
    """
    DROP TRIGGER runs_stats_delete;
    CREATE TRIGGER runs_stats_delete AFTER DELETE ON runs BEGIN
        UPDATE run_stats SET runs = runs - 1, successes = successes - old.success,
            duration_sum = duration_sum - coalesce(old.duration, 0),
            duration_n = duration_n - (old.duration IS NOT NULL)
        WHERE tenant = old.tenant AND engine = old.engine AND task_type = old.task_type
            AND language = old.language;
        DELETE FROM run_stats WHERE tenant = old.tenant AND engine = old.engine
            AND task_type = old.task_type AND language = old.language AND runs <= 0;
        UPDATE run_durations SET runs = runs - 1
        WHERE old.success = 1 AND old.duration IS NOT NULL AND tenant = old.tenant
            AND task_type = old.task_type AND minutes = CAST(ceil(old.duration / 60.0) AS INTEGER);
        DELETE FROM run_durations WHERE tenant = old.tenant AND task_type = old.task_type
            AND minutes = CAST(ceil(old.duration / 60.0) AS INTEGER) AND runs <= 0;
        UPDATE run_failures SET runs = runs - 1
        WHERE old.success = 0 AND tenant = old.tenant AND repository = old.repository
            AND failure_class = old.failure_class;
        DELETE FROM run_failures WHERE tenant = old.tenant AND repository = old.repository
            AND failure_class = old.failure_class AND runs <= 0;
    END;
    DROP TRIGGER runs_attempts_delete;
    CREATE TRIGGER runs_attempts_delete AFTER DELETE ON runs WHEN old.failed_engines != '[]' BEGIN
        UPDATE run_stats SET runs = runs - 1
        WHERE tenant = old.tenant AND task_type = old.task_type AND language = old.language
            AND engine IN (SELECT value FROM json_each(old.failed_engines) WHERE value != old.engine);
        DELETE FROM run_stats WHERE tenant = old.tenant AND task_type = old.task_type
            AND language = old.language AND runs <= 0
            AND engine IN (SELECT value FROM json_each(old.failed_engines) WHERE value != old.engine);
    END;
    """,
    # v9: the tenant's vocabulary kept as nodes are written (osmia/memory/vocabulary.py), so a query
    # reads a learning's word counts and sentence spread instead of counting them in the full-text
    # index. ``words`` is the JSON array of a fact's word stems, led by '' (NULL for an attempt,
    # which quotes its run's learnings: counted, a lesson would look commoner each time it is
    # reported); triggers keep ``vocabulary`` (tenant, word) → facts holding it, so the word ''
    # counts the tenant's facts. ``sentence`` is a learning's sentence key, indexed with its
    # repository (the spread). Existing rows are filled by functions the store registers on its
    # connection (``osmia_words``, ``osmia_sentence``) before the triggers exist, then counted.
    """
    ALTER TABLE nodes ADD COLUMN words TEXT;
    ALTER TABLE nodes ADD COLUMN sentence INTEGER;
    CREATE TABLE vocabulary (
        tenant TEXT NOT NULL, word TEXT NOT NULL, nodes INTEGER NOT NULL, PRIMARY KEY (tenant, word)
    ) WITHOUT ROWID;
    UPDATE nodes SET words = CASE WHEN kind != 'attempt' THEN osmia_words(content) END,
        sentence = CASE WHEN kind = 'learning' THEN osmia_sentence(content) END;
    INSERT INTO vocabulary (tenant, word, nodes)
        SELECT n.tenant, w.value, count(*) FROM nodes n, json_each(n.words) w GROUP BY n.tenant, w.value;
    CREATE INDEX nodes_sentence ON nodes (tenant, sentence, repository) WHERE kind = 'learning';
    -- The tenant-wide patterns are read through nodes_engine (engine = '', repository = ''); a
    -- repository's own come with its facts: nothing reads this index any more.
    DROP INDEX nodes_patterns;
    -- A repository's valid facts without its attempts (one per run: ~800 of a busy repository's
    -- ~930 valid nodes), which only the same ticket's candidate set reads, by their own key range.
    CREATE INDEX nodes_repository_facts ON nodes (tenant, repository, confidence)
        WHERE valid_to IS NULL AND kind != 'attempt';
    CREATE TRIGGER nodes_vocabulary_insert AFTER INSERT ON nodes WHEN new.words IS NOT NULL BEGIN
        INSERT INTO vocabulary (tenant, word, nodes)
            SELECT new.tenant, value, 1 FROM json_each(new.words) WHERE true
        ON CONFLICT DO UPDATE SET nodes = nodes + 1;
    END;
    CREATE TRIGGER nodes_vocabulary_delete AFTER DELETE ON nodes WHEN old.words IS NOT NULL BEGIN
        UPDATE vocabulary SET nodes = nodes - 1
        WHERE tenant = old.tenant AND word IN (SELECT value FROM json_each(old.words));
        DELETE FROM vocabulary
        WHERE tenant = old.tenant AND nodes <= 0 AND word IN (SELECT value FROM json_each(old.words));
    END;
    CREATE TRIGGER nodes_vocabulary_update AFTER UPDATE OF words ON nodes
    WHEN old.words IS NOT new.words BEGIN
        UPDATE vocabulary SET nodes = nodes - 1
        WHERE tenant = old.tenant AND word IN (SELECT value FROM json_each(coalesce(old.words, '[]')));
        DELETE FROM vocabulary WHERE tenant = old.tenant AND nodes <= 0
            AND word IN (SELECT value FROM json_each(coalesce(old.words, '[]')));
        INSERT INTO vocabulary (tenant, word, nodes)
            SELECT new.tenant, value, 1 FROM json_each(coalesce(new.words, '[]')) WHERE true
        ON CONFLICT DO UPDATE SET nodes = nodes + 1;
    END;
    """,
    # v10: each valid learning's parsed form (osmia/memory/lesson_forms.py), so extraction compares
    # a new learning with its repository's lessons without parsing them again. A cache keyed by the
    # node's seq: a form of another text or parser version reads as missing and is parsed again.
    # Learnings are given their form as they are written; those of an older store here, by a
    # function the store registers on its connection (``osmia_lesson_form``; 1.4 s at 100k nodes).
    """
    CREATE TABLE lesson_forms (seq INTEGER PRIMARY KEY, form TEXT NOT NULL);
    INSERT INTO lesson_forms (seq, form)
        SELECT seq, osmia_lesson_form(content) FROM nodes WHERE kind = 'learning' AND valid_to IS NULL;
    CREATE TRIGGER nodes_lesson_forms_delete AFTER DELETE ON nodes WHEN old.kind = 'learning' BEGIN
        DELETE FROM lesson_forms WHERE seq = old.seq;
    END;
    -- A repository's valid facts, with what their effective confidence is computed from and the
    -- tie-break: a query picks its strongest 60 from the index and reads only their rows (it read
    -- all ~150 of a busy repository's rows to sort them).
    DROP INDEX nodes_repository_facts;
    CREATE INDEX nodes_repository_facts ON nodes (tenant, repository, confidence, decay_rate, epoch, id)
        WHERE valid_to IS NULL AND kind != 'attempt';
    """,
    # v11: a fact's provenance events in one place. ``forget --run`` replays the whole history of
    # every fact the run touched (an engine's facts: thousands of events), and read each event as
    # a row of ``node_runs`` found through this index: scattered by when it was written, ~2,000
    # pages for the largest run of the 1M-node benchmark (docs/performance.md §14). The index now
    # holds every column replaying reads, so a history is one range of it. Each extraction still
    # adds one entry per fact it touched, as before, only a longer one.
    """
    DROP INDEX node_runs_node;
    CREATE INDEX node_runs_node ON node_runs (node, step, run, event, epoch, at, value, other);
    """,
    # v12: FTS5 still merged inside writes when a level reached 16 segments ('crisismerge', its
    # default), whatever v4 said: a decay pass commits a few hundred small transactions between two
    # maintenance passes, and the merge landed in one of them (a 62-89 ms commit at 1M nodes). At
    # 64 the maintenance pass's own merges do that work (docs/performance.md §20).
    """
    INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('crisismerge', 64);
    """,
    # v13: each line's stamp that the prompt's second cleaning cannot change it (a keyed hash of
    # content and sources, osmia/memory/clean_stamp.py): such a line is shown without cleaning it
    # again. Existing rows are stamped by the maintenance loop, a batch a pass (``restamp``).
    """
    ALTER TABLE nodes ADD COLUMN clean_stamp INTEGER;
    """,
    # v14: a node whose text changed counts only the words it lost and gained. A pattern, an engine
    # profile or an outcome is rewritten with new figures at nearly every extraction ("… 85% of the
    # time (5107 runs)"): one or two of its ~10 words change, and the trigger took every old word out
    # and put every new one back, ~30 vocabulary writes a row (docs/performance.md §36). The counts
    # it leaves are the same (``tests/memory/test_vocabulary.py`` recounts them). A row moved to
    # another tenant (nothing does that) would still have every word moved: the shared words are
    # only left alone when the tenant is the same.
    """
    DROP TRIGGER nodes_vocabulary_update;
    CREATE TRIGGER nodes_vocabulary_update AFTER UPDATE OF words ON nodes
    WHEN old.words IS NOT new.words BEGIN
        UPDATE vocabulary SET nodes = nodes - 1
        WHERE tenant = old.tenant AND word IN (
            SELECT value FROM json_each(coalesce(old.words, '[]'))
            EXCEPT SELECT value FROM json_each(coalesce(new.words, '[]')) WHERE new.tenant = old.tenant);
        DELETE FROM vocabulary WHERE tenant = old.tenant AND nodes <= 0 AND word IN (
            SELECT value FROM json_each(coalesce(old.words, '[]'))
            EXCEPT SELECT value FROM json_each(coalesce(new.words, '[]')) WHERE new.tenant = old.tenant);
        INSERT INTO vocabulary (tenant, word, nodes)
            SELECT new.tenant, value, 1 FROM (
                SELECT value FROM json_each(coalesce(new.words, '[]'))
                EXCEPT SELECT value FROM json_each(coalesce(old.words, '[]')) WHERE new.tenant = old.tenant)
            WHERE true
        ON CONFLICT DO UPDATE SET nodes = nodes + 1;
    END;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
"""The ``PRAGMA user_version`` a database has once every migration ran."""
