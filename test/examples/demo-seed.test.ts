/**
 * The demo's seed: the same rows wherever it runs (examples/demo/README.md promises PGlite and a
 * server hold the same data), the same rows as before it was made faster, and the progress it
 * reports while it fills the tables.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlDatabase } from 'ergraph/orm';
import { ensureSeeded } from '../../examples/demo/seed.js';
import { databaseTargets, type DatabaseTarget, type TestDatabase } from '../orm/databases.js';

const SMALL = { users: 30, projects: 60, tasks: 600, comments: 1800, tags: 24 };
const TABLES = ['users', 'projects', 'tasks', 'comments', 'tags', 'task_tags'];

/** Every row of every table as PostgreSQL prints it to JSON, so drivers' type parsing plays no part. */
async function fingerprint(db: SqlDatabase): Promise<string> {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    const result = (await db.execute(sql.raw(`select json_agg(t order by t::text)::text as dump from ${table} t`))) as unknown as {
      rows: { dump: string }[];
    };
    hash.update(`${table}\n${result.rows[0]!.dump}\n`);
  }
  // Later inserts continue after the seeded ids.
  const next = (await db.execute(sql.raw(`select nextval('comments_id_seq')::int as id`))) as unknown as { rows: { id: number }[] };
  hash.update(`next comment ${next.rows[0]!.id}`);
  return hash.digest('hex');
}

// The digest of the rows the seed gave before it sent each table as one JSON parameter (1,000-row
// inserts through Drizzle): a change of the data is a change of this line, made on purpose.
const SMALL_SEED = '193ae9b10b8ee0434a5337dc6d6b5d96602128f19748b38ad1a52c0e60c77b73';

// The demo runs on PGlite or, with DATABASE_URL, on a server through node-postgres.
const targets = (await databaseTargets()).filter((t): t is DatabaseTarget => t.name === 'pglite' || t.name === 'postgres');

describe.each(targets)('the demo seed on $name', (target) => {
  let database: TestDatabase;
  const progress: [string, number][] = [];
  beforeAll(async () => {
    database = await target.open();
    expect(await ensureSeeded(database.db, SMALL, (table, rows) => progress.push([table, rows]))).toBe(true);
  });
  afterAll(() => database?.close());

  it('gives the same rows as on every other database, and as before', async () => {
    expect(await fingerprint(database.db)).toBe(SMALL_SEED);
  });

  it('reports each table as it is filled, in order, with its row count', () => {
    expect(progress.slice(0, 5)).toEqual([
      ['users', 30],
      ['projects', 60],
      ['tasks', 600],
      ['comments', 1800],
      ['tags', 24],
    ]);
    expect(progress[5]![0]).toBe('task_tags');
    expect(progress[5]![1]).toBeGreaterThan(600); // 0-3 tags per task
    expect(progress).toHaveLength(6);
  });

  it('keeps the foreign keys and indexes the tables are read by', async () => {
    const result = (await database.db.execute(
      sql.raw(`select string_agg(indexname, ' ' order by indexname) as names from pg_indexes where schemaname = current_schema()`),
    )) as unknown as { rows: { names: string }[] };
    expect(result.rows[0]!.names.split(' ')).toEqual(expect.arrayContaining(['comments_author', 'comments_task', 'projects_owner', 'task_tags_tag', 'tasks_assignee', 'tasks_project']));
    await expect(database.db.execute(sql.raw(`insert into comments (task_id, author_id, body, created_at) values (999999, 1, 'x', now())`))).rejects.toThrow();
  });
});
