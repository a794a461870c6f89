/**
 * Creates the demo's tables and fills them with a few thousand deterministic rows on first
 * start (same seed, same data, on PGlite and on a server). Everything happens in one
 * transaction, so an interrupted first start leaves an empty database, not half of one.
 */
import { sql } from 'drizzle-orm';
import type { SqlDatabase } from 'ergraph/orm';
import { comments, projects, tags, taskTags, tasks, users } from './schema.js';

export interface Sizes {
  users: number;
  projects: number;
  tasks: number;
  comments: number;
  tags: number;
}

export const SIZES: Sizes = { users: 300, projects: 600, tasks: 6000, comments: 18000, tags: 24 };

const DDL = `
CREATE TYPE role AS ENUM ('admin', 'member', 'guest');
CREATE TYPE task_status AS ENUM ('todo', 'doing', 'done');
CREATE TABLE users (id serial PRIMARY KEY, name text NOT NULL, email text NOT NULL UNIQUE, role role NOT NULL, created_at timestamp NOT NULL);
CREATE TABLE projects (
  id serial PRIMARY KEY, owner_id integer NOT NULL REFERENCES users(id), name text NOT NULL, description text,
  created_at timestamp NOT NULL
);
CREATE INDEX projects_owner ON projects (owner_id, created_at);
CREATE TABLE tasks (
  id serial PRIMARY KEY, project_id integer NOT NULL REFERENCES projects(id), assignee_id integer REFERENCES users(id),
  title text NOT NULL, status task_status NOT NULL, priority integer NOT NULL, estimate_hours numeric(5,1),
  due_date date, created_at timestamp NOT NULL
);
CREATE INDEX tasks_project ON tasks (project_id, priority);
CREATE INDEX tasks_assignee ON tasks (assignee_id, priority);
CREATE TABLE comments (
  id serial PRIMARY KEY, task_id integer NOT NULL REFERENCES tasks(id), author_id integer NOT NULL REFERENCES users(id),
  body text NOT NULL, created_at timestamp NOT NULL
);
CREATE INDEX comments_task ON comments (task_id, created_at);
CREATE INDEX comments_author ON comments (author_id, created_at);
CREATE TABLE tags (id serial PRIMARY KEY, label text NOT NULL UNIQUE);
CREATE TABLE task_tags (
  task_id integer NOT NULL REFERENCES tasks(id), tag_id integer NOT NULL REFERENCES tags(id), PRIMARY KEY (task_id, tag_id)
);
CREATE INDEX task_tags_tag ON task_tags (tag_id);
`;

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
      role: i < 5 ? ('admin' as const) : r.next() < 0.1 ? ('guest' as const) : ('member' as const),
      createdAt: new Date(EPOCH + r.int(0, 90) * DAY),
    };
  });
  const projectRows = Array.from({ length: sizes.projects }, (_, i) => ({
    id: i + 1,
    ownerId: r.int(1, sizes.users),
    name: `${r.pick(NOUNS)} ${['revamp', 'v2', 'cleanup', 'launch', 'audit'][i % 5]}`,
    description: r.next() < 0.3 ? null : `Everything about ${r.pick(NOUNS)}.`,
    createdAt: new Date(EPOCH + r.int(30, 200) * DAY),
  }));
  const taskRows = Array.from({ length: sizes.tasks }, (_, i) => ({
    id: i + 1,
    projectId: r.int(1, sizes.projects),
    assigneeId: r.next() < 0.15 ? null : r.int(1, sizes.users),
    title: `${r.pick(VERBS)} ${r.pick(THINGS)}`,
    status: r.pick(['todo', 'doing', 'done'] as const),
    priority: r.int(1, 5),
    estimateHours: r.next() < 0.2 ? null : String(r.int(1, 80) / 2),
    dueDate: r.next() < 0.4 ? null : new Date(EPOCH + r.int(100, 400) * DAY),
    createdAt: new Date(EPOCH + r.int(200, 365) * DAY + r.int(0, DAY - 1)),
  }));
  const commentRows = Array.from({ length: sizes.comments }, (_, i) => ({
    id: i + 1,
    taskId: r.int(1, sizes.tasks),
    authorId: r.int(1, sizes.users),
    body: r.pick(REMARKS),
    createdAt: new Date(EPOCH + r.int(200, 400) * DAY + r.int(0, DAY - 1)),
  }));
  const tagRows = TAGS.slice(0, sizes.tags).map((label, i) => ({ id: i + 1, label }));
  const taskTagRows = taskRows.flatMap((task) => {
    const chosen = new Set(Array.from({ length: r.int(0, 3) }, () => r.int(1, sizes.tags)));
    return [...chosen].map((tagId) => ({ taskId: task.id, tagId }));
  });
  return { userRows, projectRows, taskRows, commentRows, tagRows, taskTagRows };
}

async function insertAll<T extends Record<string, unknown>>(
  insert: (batch: T[]) => Promise<unknown>,
  all: T[],
): Promise<void> {
  // PostgreSQL allows 65535 parameters per statement: stay well below with any column count.
  for (let i = 0; i < all.length; i += 1000) await insert(all.slice(i, i + 1000));
}

/** Create and fill the tables unless they exist; returns whether it seeded. Tests pass smaller sizes. */
export async function ensureSeeded(db: SqlDatabase, sizes: Sizes = SIZES): Promise<boolean> {
  // Both drivers (PGlite, node-postgres) answer `execute` with `{ rows }`.
  const found = (await db.execute(sql`select to_regclass('users')::text as found`)) as unknown as { rows: { found: string | null }[] };
  if (found.rows[0]?.found) return false;
  const data = rows(sizes);
  await db.transaction(async (tx) => {
    // One statement per call: drivers prepare what they send, and a prepared statement holds one command.
    for (const statement of DDL.split(';').map((s) => s.trim()).filter(Boolean)) await tx.execute(sql.raw(statement));
    await insertAll((b) => tx.insert(users).values(b), data.userRows);
    await insertAll((b) => tx.insert(projects).values(b), data.projectRows);
    await insertAll((b) => tx.insert(tasks).values(b), data.taskRows);
    await insertAll((b) => tx.insert(comments).values(b), data.commentRows);
    await insertAll((b) => tx.insert(tags).values(b), data.tagRows);
    await insertAll((b) => tx.insert(taskTags).values(b), data.taskTagRows);
    // Rows were inserted with explicit ids: move the sequences past them for later inserts.
    for (const table of ['users', 'projects', 'tasks', 'comments', 'tags']) {
      await tx.execute(sql.raw(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`));
    }
  });
  return true;
}
