// A consumer's app, compiled and run by test/consumer/run.sh against the packed package:
// entities with Base.entity(C, { name }) and in the external form, a DataLoader subclass from
// the consumer's own `dataloader`, GraphQL, the v5 compat layer and MCP in one Hono app.
import DataLoader from 'dataloader';
import { Hono } from 'hono';
import { z } from 'zod';
import { baseEntity, buildList, buildObject, Entity, ErDiagram, GraphQLHandler, model, mutation, query, QueryConfig, Relationship } from 'ergraph';
import { compatApp, createCompatHandler } from 'ergraph/compat';
import { graphqlApp } from 'ergraph/http';
import { createMcpServer, mcpApp } from 'ergraph/mcp';

const users = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Grace' },
];
const tasks = [
  { id: 1, ownerId: 1, title: 'Write the compiler' },
  { id: 2, ownerId: 1, title: 'Test it' },
  { id: 3, ownerId: 2, title: 'Find the bug' },
];

export const calls: string[] = [];

class UsersById extends DataLoader<number, (typeof users)[number] | null> {
  constructor() {
    super(async (ids) => {
      calls.push(`usersById(${ids.join(',')})`);
      return buildObject(users.filter((u) => ids.includes(u.id)), ids, (u) => u.id);
    });
  }
}
async function tasksByOwner(ids: readonly number[]) {
  calls.push(`tasksByOwner(${ids.join(',')})`);
  return buildList(tasks.filter((t) => ids.includes(t.ownerId)), ids, (t) => t.ownerId);
}

export const Base = baseEntity();

// Each class's decorators mention the class: esbuild (tsx, vitest) renames it to _User unless named.
export class User extends model({ id: z.int(), name: z.string() }) {
  static __relationships__ = [new Relationship({ fk: 'id', target: () => [Task], name: 'tasks', loader: tasksByOwner })];
  @query({ args: { limit: z.int().default(10) }, returns: () => [User], description: 'All users' })
  static async getAll({ limit }: { limit: number }) {
    return users.slice(0, limit).map((u) => new User(u));
  }
}
export class Task extends model({ id: z.int(), ownerId: z.int(), title: z.string() }) {
  static __relationships__ = [new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: UsersById })];
  @mutation({ args: { title: z.string().min(1) }, returns: () => Task })
  static async create({ title }: { title: string }) {
    const task = { id: tasks.length + 1, ownerId: 1, title };
    tasks.push(task);
    return new Task(task);
  }
}
Base.entity(User, { name: 'User' });
Base.entity(Task, { name: 'Task' });

export const handler = new GraphQLHandler(Base.getDiagram(), { enablePagination: true });

// The external form: a separate diagram, entity named explicitly.
export class Note extends model({ id: z.int(), text: z.string() }) {}
export const notes = new GraphQLHandler(
  new ErDiagram({
    entities: [
      new Entity({
        kls: Note,
        name: 'Note',
        queries: [new QueryConfig({ name: 'all', returns: () => [Note], method: async () => [new Note({ id: 1, text: 'hi' })] })],
      }),
    ],
  }),
);

export function createApp(): Hono {
  const app = new Hono();
  app.route('/', compatApp(createCompatHandler(handler), { path: '/graphql/v5' }));
  app.route('/', graphqlApp(handler, { path: '/graphql' }));
  app.route('/', graphqlApp(notes, { path: '/notes/graphql' }));
  app.route('/', mcpApp(() => createMcpServer({ apps: [{ name: 'app', handler, description: 'users and tasks' }] })));
  return app;
}
