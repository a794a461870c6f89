/**
 * A small domain for the GraphQL tests: users own tasks, tasks have comments by users, with
 * loaders that record every call so tests can count batches.
 */
import { z } from 'zod';
import { baseEntity, buildList, buildObject, model, mutation, query, ref, Relationship, type PageRequest, type Page } from 'ergraph';

export const calls: string[] = [];
export const callsOf = (name: string) => calls.filter((c) => c.startsWith(`${name}(`));

export const USERS = Array.from({ length: 300 }, (_, i) => ({ id: i + 1, name: `user${i + 1}`, email: i % 2 ? null : `u${i + 1}@x.io` }));
export const TASKS = USERS.flatMap((u) =>
  Array.from({ length: 3 }, (_, j) => ({ id: u.id * 10 + j, ownerId: u.id, reviewerId: ((u.id + j) % USERS.length) + 1, title: `t${u.id}.${j}`, done: j === 0 })),
);
export const COMMENTS = TASKS.flatMap((t) => [
  { id: t.id * 10, taskId: t.id, authorId: t.reviewerId, body: `c${t.id}` },
  { id: t.id * 10 + 1, taskId: t.id, authorId: t.ownerId, body: `d${t.id}` },
]);

export async function usersById(keys: readonly number[]) {
  calls.push(`usersById(${keys.length})`);
  return buildObject(USERS.map((u) => new User(u)), keys, (u) => u.id);
}
export async function tasksByOwner(keys: readonly number[]) {
  calls.push(`tasksByOwner(${keys.length})`);
  return buildList(TASKS.map((t) => new Task(t)), keys, (t) => t.ownerId);
}
export async function tasksByReviewer(keys: readonly number[]) {
  calls.push(`tasksByReviewer(${keys.length})`);
  // Finishes later than tasksByOwner: three turns of the event loop (counted, not timed).
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  return buildList(TASKS.map((t) => new Task(t)), keys, (t) => t.reviewerId);
}
export async function commentsByTask(keys: readonly number[]) {
  calls.push(`commentsByTask(${keys.length})`);
  return buildList(COMMENTS.map((c) => new Comment(c)), keys, (c) => c.taskId);
}
export const pageRequests: PageRequest[] = [];
export async function commentPages(keys: readonly number[], page: PageRequest): Promise<Page[]> {
  calls.push(`commentPages(${keys.length})`);
  pageRequests.push(page);
  return keys.map((key) => {
    const all = COMMENTS.filter((c) => c.taskId === key).map((c) => new Comment(c));
    return {
      items: all.slice(page.offset, page.offset + page.limit),
      hasMore: page.offset + page.limit < all.length,
      total: page.withTotal ? all.length : null,
    };
  });
}

export const Role = z.enum(['ADMIN', 'MEMBER']).meta({ id: 'Role' });

const Base = baseEntity();
export const family = Base;

@Base.entity
export class User extends model({ id: z.int(), name: z.string(), email: z.string().nullable() }) {
  static __relationships__ = [
    new Relationship({ fk: 'id', target: () => [Task], name: 'tasks', loader: tasksByOwner }),
    new Relationship({ fk: 'id', target: () => [Task], name: 'reviews', loader: tasksByReviewer }),
  ];

  @query({ args: { limit: z.int().default(20), offset: z.int().min(0).optional() }, returns: () => [User], description: 'All users' })
  static async getAll({ limit, offset }: { limit: number; offset?: number }) {
    return USERS.slice(offset ?? 0, (offset ?? 0) + limit).map((u) => new User(u));
  }

  @query({ args: { id: z.int() }, returns: () => ref(() => User).nullable() })
  static async byId({ id }: { id: number }) {
    const u = USERS.find((x) => x.id === id);
    return u ? new User(u) : null;
  }

  @query({ args: { role: Role.optional() }, returns: z.string() })
  static async whoami({ role }: { role?: string }, context?: Record<string, unknown>) {
    return `${this.name}:${String(context?.user ?? 'anonymous')}:${role ?? '-'}`;
  }

  @query({ args: { q: z.string().min(2) }, returns: () => z.array(ref(() => User)).nullable() })
  static async search({ q }: { q: string }) {
    return USERS.filter((u) => u.name.includes(q)).map((u) => new User(u));
  }

  @query({ returns: () => z.array(ref(() => User)).nullable() })
  static async broken(): Promise<User[]> {
    throw new Error('database is down');
  }
}

@Base.entity
export class Task extends model({ id: z.int(), ownerId: z.int(), reviewerId: z.int(), title: z.string(), done: z.boolean() }) {
  static __relationships__ = [
    new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: usersById }),
    new Relationship({ fk: 'reviewerId', target: User, name: 'reviewer', loader: usersById }),
    new Relationship({ fk: 'id', target: () => [Comment], name: 'comments', loader: commentsByTask }),
  ];

  @query({ args: { ids: z.array(z.int()) }, returns: () => [Task] })
  static async byIds({ ids }: { ids: number[] }) {
    return TASKS.filter((t) => ids.includes(t.id)).map((t) => new Task(t));
  }

  @mutation({ args: { title: z.string().min(1), ownerId: z.int() }, returns: () => Task, description: 'Create a task' })
  static async create(args: { title: string; ownerId: number }) {
    const task = { id: 100_000 + TASKS.length, reviewerId: args.ownerId, done: false, ...args };
    TASKS.push(task);
    return new Task(task);
  }
}

@Base.entity
export class Comment extends model({ id: z.int(), taskId: z.int(), authorId: z.int(), body: z.string() }) {
  static __relationships__ = [
    new Relationship({ fk: 'authorId', target: User, name: 'author', loader: usersById }),
    new Relationship({ fk: 'taskId', target: Task, name: 'task', loader: async (keys: readonly number[]) => {
      calls.push(`tasksById(${keys.length})`);
      return buildObject(TASKS.map((t) => new Task(t)), keys, (t) => t.id);
    } }),
  ];
}

export const diagram = Base.getDiagram();
