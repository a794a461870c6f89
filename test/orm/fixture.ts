/** A small schema covering every relation kind, its DDL, and deterministic rows. */
import { relations } from 'drizzle-orm';
import { boolean, integer, numeric, pgEnum, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const role = pgEnum('ergraph_test_role', ['admin', 'member']);

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  role: role('role').notNull(),
  nickname: text('nickname'),
});

export const profiles = pgTable('profiles', {
  id: serial('id').primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id),
  bio: text('bio').notNull(),
});

export const tasks = pgTable('tasks', {
  id: serial('id').primaryKey(),
  ownerId: integer('owner_id').notNull().references(() => users.id),
  reviewerId: integer('reviewer_id').references(() => users.id),
  title: text('title').notNull(),
  /** Deliberately full of ties: the primary key must break them for pages to be stable. */
  rank: integer('rank').notNull(),
  done: boolean('done').notNull(),
  estimate: numeric('estimate'),
  createdAt: timestamp('created_at').notNull(),
});

export const comments = pgTable('comments', {
  id: serial('id').primaryKey(),
  taskId: integer('task_id').notNull().references(() => tasks.id),
  body: text('body').notNull(),
});

export const tags = pgTable('tags', {
  id: serial('id').primaryKey(),
  label: text('label').notNull(),
});

export const taskTags = pgTable(
  'task_tags',
  {
    taskId: integer('task_id').notNull().references(() => tasks.id),
    tagId: integer('tag_id').notNull().references(() => tags.id),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.tagId] })],
);

export const usersRelations = relations(users, ({ many, one }) => ({
  tasks: many(tasks, { relationName: 'owner' }),
  reviews: many(tasks, { relationName: 'reviewer' }),
  profile: one(profiles),
}));
export const profilesRelations = relations(profiles, ({ one }) => ({
  user: one(users, { fields: [profiles.userId], references: [users.id] }),
}));
export const tasksRelations = relations(tasks, ({ one, many }) => ({
  owner: one(users, { fields: [tasks.ownerId], references: [users.id], relationName: 'owner' }),
  reviewer: one(users, { fields: [tasks.reviewerId], references: [users.id], relationName: 'reviewer' }),
  comments: many(comments),
  links: many(taskTags),
}));
export const taskTagsRelations = relations(taskTags, ({ one }) => ({
  task: one(tasks, { fields: [taskTags.taskId], references: [tasks.id] }),
  tag: one(tags, { fields: [taskTags.tagId], references: [tags.id] }),
}));
export const commentsRelations = relations(comments, ({ one }) => ({
  task: one(tasks, { fields: [comments.taskId], references: [tasks.id] }),
}));

export const schema = {
  users,
  profiles,
  tasks,
  comments,
  tags,
  taskTags,
  usersRelations,
  profilesRelations,
  tasksRelations,
  taskTagsRelations,
  commentsRelations,
};

export const DDL = `
CREATE TYPE ergraph_test_role AS ENUM ('admin', 'member');
CREATE TABLE users (id serial PRIMARY KEY, name text NOT NULL, role ergraph_test_role NOT NULL, nickname text);
CREATE TABLE profiles (id serial PRIMARY KEY, user_id integer NOT NULL REFERENCES users(id), bio text NOT NULL);
CREATE TABLE tasks (
  id serial PRIMARY KEY, owner_id integer NOT NULL REFERENCES users(id), reviewer_id integer REFERENCES users(id),
  title text NOT NULL, rank integer NOT NULL, done boolean NOT NULL, estimate numeric(6,2), created_at timestamp NOT NULL
);
CREATE INDEX tasks_owner ON tasks (owner_id, rank, id);
CREATE TABLE comments (id serial PRIMARY KEY, task_id integer NOT NULL REFERENCES tasks(id), body text NOT NULL);
CREATE TABLE tags (id serial PRIMARY KEY, label text NOT NULL);
CREATE TABLE task_tags (task_id integer NOT NULL REFERENCES tasks(id), tag_id integer NOT NULL REFERENCES tags(id), PRIMARY KEY (task_id, tag_id));
`;

/** Tasks per user: uneven on purpose (user 3 has none). */
export const TASKS_PER_USER: Record<number, number> = { 1: 7, 2: 3, 3: 0, 4: 1, 5: 12 };

export interface TaskRow {
  id: number;
  ownerId: number;
  reviewerId: number | null;
  title: string;
  rank: number;
  done: boolean;
  estimate: number | null;
  createdAt: Date;
}

export function taskRows(): TaskRow[] {
  const rows: TaskRow[] = [];
  let id = 0;
  for (const [owner, count] of Object.entries(TASKS_PER_USER)) {
    for (let i = 0; i < count; i++) {
      id++;
      rows.push({
        id,
        ownerId: Number(owner),
        reviewerId: id % 3 === 0 ? null : ((id % 5) + 1),
        title: `task ${id}`,
        rank: (id * 7) % 4, // only four distinct ranks
        done: id % 2 === 0,
        estimate: id % 4 === 0 ? null : id + 0.5,
        createdAt: new Date(Date.UTC(2024, 0, id)),
      });
    }
  }
  return rows;
}

/** Tags of a task: tags 1..4, task n gets the tags whose id divides n+1. */
export const tagIdsOf = (taskId: number) => [1, 2, 3, 4].filter((t) => (taskId + 1) % t === 0);

const q = (s: string) => `'${s.replaceAll("'", "''")}'`;

export function seedSql(): string {
  const lines: string[] = [];
  for (let u = 1; u <= 5; u++) {
    lines.push(`INSERT INTO users (id, name, role, nickname) VALUES (${u}, ${q(`user ${u}`)}, ${q(u === 1 ? 'admin' : 'member')}, ${u % 2 ? q(`u${u}`) : 'NULL'});`);
    if (u !== 4) lines.push(`INSERT INTO profiles (user_id, bio) VALUES (${u}, ${q(`bio of ${u}`)});`);
  }
  for (let t = 1; t <= 4; t++) lines.push(`INSERT INTO tags (id, label) VALUES (${t}, ${q(`tag ${t}`)});`);
  for (const r of taskRows()) {
    lines.push(
      `INSERT INTO tasks (id, owner_id, reviewer_id, title, rank, done, estimate, created_at) VALUES (${r.id}, ${r.ownerId}, ${r.reviewerId ?? 'NULL'}, ${q(r.title)}, ${r.rank}, ${r.done}, ${r.estimate ?? 'NULL'}, ${q(r.createdAt.toISOString())});`,
    );
    for (const tag of tagIdsOf(r.id)) lines.push(`INSERT INTO task_tags (task_id, tag_id) VALUES (${r.id}, ${tag});`);
    lines.push(`INSERT INTO comments (task_id, body) VALUES (${r.id}, ${q(`on ${r.id}`)});`);
  }
  return lines.join('\n');
}

/** The order every test expects for a user's tasks: rank, then id. */
export const byRankThenId = (a: TaskRow, b: TaskRow) => a.rank - b.rank || a.id - b.id;
