/**
 * Creates the demo's tables and fills them with a few thousand deterministic rows on first
 * start (same seed, same data, on PGlite and on a server). Everything happens in one
 * transaction, so an interrupted first start leaves an empty database, not half of one.
 */
import { sql } from 'drizzle-orm';
import type { SqlDatabase } from 'ergraph/orm';

export interface Sizes {
  users: number;
  projects: number;
  tasks: number;
  comments: number;
  tags: number;
}

export const SIZES: Sizes = { users: 300, projects: 600, tasks: 6000, comments: 18000, tags: 24 };

// Foreign keys and secondary indexes come after the rows: one validating join and one sort per
// index instead of a trigger and an index insert per row.
const TABLES = `
CREATE TYPE role AS ENUM ('admin', 'member', 'guest');
CREATE TYPE task_status AS ENUM ('todo', 'doing', 'done');
CREATE TABLE users (id serial PRIMARY KEY, name text NOT NULL, email text NOT NULL UNIQUE, role role NOT NULL, created_at timestamp NOT NULL);
CREATE TABLE projects (id serial PRIMARY KEY, owner_id integer NOT NULL, name text NOT NULL, description text, created_at timestamp NOT NULL);
CREATE TABLE tasks (
  id serial PRIMARY KEY, project_id integer NOT NULL, assignee_id integer,
  title text NOT NULL, status task_status NOT NULL, priority integer NOT NULL, estimate_hours numeric(5,1),
  due_date date, created_at timestamp NOT NULL
);
CREATE TABLE comments (id serial PRIMARY KEY, task_id integer NOT NULL, author_id integer NOT NULL, body text NOT NULL, created_at timestamp NOT NULL);
CREATE TABLE tags (id serial PRIMARY KEY, label text NOT NULL UNIQUE);
CREATE TABLE task_tags (task_id integer NOT NULL, tag_id integer NOT NULL, PRIMARY KEY (task_id, tag_id));
`;

const KEYS_AND_INDEXES = `
ALTER TABLE projects ADD FOREIGN KEY (owner_id) REFERENCES users(id);
ALTER TABLE tasks ADD FOREIGN KEY (project_id) REFERENCES projects(id);
ALTER TABLE tasks ADD FOREIGN KEY (assignee_id) REFERENCES users(id);
ALTER TABLE comments ADD FOREIGN KEY (task_id) REFERENCES tasks(id);
ALTER TABLE comments ADD FOREIGN KEY (author_id) REFERENCES users(id);
ALTER TABLE task_tags ADD FOREIGN KEY (task_id) REFERENCES tasks(id);
ALTER TABLE task_tags ADD FOREIGN KEY (tag_id) REFERENCES tags(id);
CREATE INDEX projects_owner ON projects (owner_id, created_at);
CREATE INDEX tasks_project ON tasks (project_id, priority);
CREATE INDEX tasks_assignee ON tasks (assignee_id, priority);
CREATE INDEX comments_task ON comments (task_id, created_at);
CREATE INDEX comments_author ON comments (author_id, created_at);
CREATE INDEX task_tags_tag ON task_tags (tag_id);
`;

/** One statement per call: drivers prepare what they send, and a prepared statement holds one command. */
const statements = (text: string) => text.split(';').map((s) => s.trim()).filter(Boolean);

/** mulberry32: small, fast, and the same sequence everywhere. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!,
  };
}

const FIRST = ['Ada', 'Grace', 'Alan', 'Barbara', 'Edsger', 'Frances', 'Donald', 'Margaret', 'Ken', 'Radia', 'Linus', 'Hedy', 'John', 'Katherine', 'Niklaus', 'Sophie'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Liskov', 'Dijkstra', 'Allen', 'Knuth', 'Hamilton', 'Thompson', 'Perlman', 'Torvalds', 'Lamarr', 'Backus', 'Johnson', 'Wirth', 'Wilson'];
const NOUNS = ['billing', 'search', 'onboarding', 'mobile app', 'data pipeline', 'design system', 'API gateway', 'reporting', 'auth', 'notifications', 'checkout', 'analytics'];
const VERBS = ['Fix', 'Refactor', 'Document', 'Test', 'Speed up', 'Design', 'Review', 'Migrate', 'Instrument', 'Clean up'];
const THINGS = ['the login form', 'flaky tests', 'the export job', 'error messages', 'the cache layer', 'pagination', 'the settings page', 'rate limits', 'the CSV import', 'dark mode', 'query plans', 'retry logic'];
const REMARKS = ['Looks good to me.', 'Can we split this?', 'Blocked on review.', 'Done in staging.', 'Needs a test.', 'Reproduced locally.', 'Ship it.', 'Which version?', 'See the design doc.', 'Moving to next sprint.'];
const TAGS = ['bug', 'feature', 'chore', 'docs', 'perf', 'security', 'ux', 'backend', 'frontend', 'infra', 'urgent', 'later', 'good-first-issue', 'tech-debt', 'api', 'db', 'mobile', 'design', 'research', 'ops', 'qa', 'i18n', 'a11y', 'billing'];

const DAY = 86_400_000;
const EPOCH = Date.UTC(2024, 0, 1);

function rows(sizes: Sizes) {
  const r = random(20240101);
  const userRows = Array.from({ length: sizes.users }, (_, i) => {
    const name = `${r.pick(FIRST)} ${r.pick(LAST)}`;
    return {
      id: i + 1,
      name,
      email: `${name.toLowerCase().replace(/\W+/g, '.')}.${i + 1}@example.com`,
      role: i < 5 ? 'admin' : r.next() < 0.1 ? 'guest' : 'member',
      created_at: timestamp(EPOCH + r.int(0, 90) * DAY),
    };
  });
  const projectRows = Array.from({ length: sizes.projects }, (_, i) => ({
    id: i + 1,
    owner_id: r.int(1, sizes.users),
    name: `${r.pick(NOUNS)} ${['revamp', 'v2', 'cleanup', 'launch', 'audit'][i % 5]}`,
    description: r.next() < 0.3 ? null : `Everything about ${r.pick(NOUNS)}.`,
    created_at: timestamp(EPOCH + r.int(30, 200) * DAY),
  }));
  const taskRows = Array.from({ length: sizes.tasks }, (_, i) => ({
    id: i + 1,
    project_id: r.int(1, sizes.projects),
    assignee_id: r.next() < 0.15 ? null : r.int(1, sizes.users),
    title: `${r.pick(VERBS)} ${r.pick(THINGS)}`,
    status: r.pick(['todo', 'doing', 'done']),
    priority: r.int(1, 5),
    estimate_hours: r.next() < 0.2 ? null : String(r.int(1, 80) / 2),
    due_date: r.next() < 0.4 ? null : timestamp(EPOCH + r.int(100, 400) * DAY).slice(0, 10),
    created_at: timestamp(EPOCH + r.int(200, 365) * DAY + r.int(0, DAY - 1)),
  }));
  const commentRows = Array.from({ length: sizes.comments }, (_, i) => ({
    id: i + 1,
    task_id: r.int(1, sizes.tasks),
    author_id: r.int(1, sizes.users),
    body: r.pick(REMARKS),
    created_at: timestamp(EPOCH + r.int(200, 400) * DAY + r.int(0, DAY - 1)),
  }));
  const tagRows = TAGS.slice(0, sizes.tags).map((label, i) => ({ id: i + 1, label }));
  const taskTagRows = taskRows.flatMap((task) => {
    const chosen = new Set(Array.from({ length: r.int(0, 3) }, () => r.int(1, sizes.tags)));
    return [...chosen].map((tagId) => ({ task_id: task.id, tag_id: tagId }));
  });
  // In insertion order: each table's references are filled before it.
  return { users: userRows, projects: projectRows, tasks: taskRows, comments: commentRows, tags: tagRows, task_tags: taskTagRows };
}

/** A `timestamp` column's text for a UTC instant (the column has no time zone: UTC is what is stored). */
const timestamp = (ms: number) => new Date(ms).toISOString().slice(0, 23).replace('T', ' ');

/** Called after each table is filled, with its name and row count: the demo prints it as it goes. */
export type SeedProgress = (table: string, rows: number) => void;

/**
 * Create and fill the tables unless they exist; returns whether it seeded. Tests pass smaller sizes.
 * Each table is one statement with its rows as one JSON parameter (`json_populate_recordset`):
 * 1,000-row multi-value inserts through Drizzle took 36 statements and ~166,000 parameters, which
 * PGlite encodes and decodes in JavaScript, and made seeding most of a first start's own work.
 */
export async function ensureSeeded(db: SqlDatabase, sizes: Sizes = SIZES, progress?: SeedProgress): Promise<boolean> {
  // Both drivers (PGlite, node-postgres) answer `execute` with `{ rows }`.
  const found = (await db.execute(sql`select to_regclass('users')::text as found`)) as unknown as { rows: { found: string | null }[] };
  if (found.rows[0]?.found) return false;
  const data = rows(sizes);
  await db.transaction(async (tx) => {
    for (const statement of statements(TABLES)) await tx.execute(sql.raw(statement));
    for (const [table, all] of Object.entries(data)) {
      // The table names are this module's own; the rows travel as one parameter.
      const name = sql.raw(table);
      await tx.execute(sql`insert into ${name} select * from json_populate_recordset(null::${name}, ${JSON.stringify(all)}::json)`);
      progress?.(table, all.length);
    }
    for (const statement of statements(KEYS_AND_INDEXES)) await tx.execute(sql.raw(statement));
    // Rows were inserted with explicit ids: move the sequences past them for later inserts.
    for (const table of ['users', 'projects', 'tasks', 'comments', 'tags']) {
      await tx.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`));
    }
  });
  return true;
}
