/** The demo's tables: a small project tracker. */
import { relations } from 'drizzle-orm';
import { date, index, integer, numeric, pgEnum, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const role = pgEnum('role', ['admin', 'member', 'guest']);
export const taskStatus = pgEnum('task_status', ['todo', 'doing', 'done']);

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  role: role('role').notNull(),
  createdAt: timestamp('created_at').notNull(),
});

export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id').notNull().references(() => users.id),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('projects_owner').on(t.ownerId, t.createdAt)],
);

export const tasks = pgTable(
  'tasks',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id').notNull().references(() => projects.id),
    assigneeId: integer('assignee_id').references(() => users.id),
    title: text('title').notNull(),
    status: taskStatus('status').notNull(),
    priority: integer('priority').notNull(),
    estimateHours: numeric('estimate_hours', { precision: 5, scale: 1 }),
    dueDate: date('due_date', { mode: 'date' }),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('tasks_project').on(t.projectId, t.priority), index('tasks_assignee').on(t.assigneeId, t.priority)],
);

export const comments = pgTable(
  'comments',
  {
    id: serial('id').primaryKey(),
    taskId: integer('task_id').notNull().references(() => tasks.id),
    authorId: integer('author_id').notNull().references(() => users.id),
    body: text('body').notNull(),
    createdAt: timestamp('created_at').notNull(),
  },
  (t) => [index('comments_task').on(t.taskId, t.createdAt), index('comments_author').on(t.authorId, t.createdAt)],
);

export const tags = pgTable('tags', {
  id: serial('id').primaryKey(),
  label: text('label').notNull().unique(),
});

export const taskTags = pgTable(
  'task_tags',
  {
    taskId: integer('task_id').notNull().references(() => tasks.id),
    tagId: integer('tag_id').notNull().references(() => tags.id),
  },
  (t) => [primaryKey({ columns: [t.taskId, t.tagId] }), index('task_tags_tag').on(t.tagId)],
);

export const usersRelations = relations(users, ({ many }) => ({
  projects: many(projects),
  assignedTasks: many(tasks),
  comments: many(comments),
}));

export const projectsRelations = relations(projects, ({ one, many }) => ({
  owner: one(users, { fields: [projects.ownerId], references: [users.id] }),
  tasks: many(tasks),
}));

export const tasksRelations = relations(tasks, ({ one, many }) => ({
  project: one(projects, { fields: [tasks.projectId], references: [projects.id] }),
  assignee: one(users, { fields: [tasks.assigneeId], references: [users.id] }),
  comments: many(comments),
}));

export const commentsRelations = relations(comments, ({ one }) => ({
  task: one(tasks, { fields: [comments.taskId], references: [tasks.id] }),
  author: one(users, { fields: [comments.authorId], references: [users.id] }),
}));

/** Drizzle relations cannot say "many-to-many"; `graph.ts` declares tasks ↔ tags through `taskTags`. */
export const schema = {
  users,
  projects,
  tasks,
  comments,
  tags,
  taskTags,
  usersRelations,
  projectsRelations,
  tasksRelations,
  commentsRelations,
};
