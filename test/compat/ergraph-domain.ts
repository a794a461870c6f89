/**
 * The same kind of domain declared with ergraph itself, so the compat layer and the codemod are
 * also checked against the real v6 `GraphQLHandler`, not only the graphql-js stand-in.
 */
import { z } from 'zod';
import { GraphQLHandler, baseEntity, buildList, buildObject, model, mutation, query, ref, Relationship } from 'ergraph';

export function createErgraphHandler(): { handler: GraphQLHandler; log: string[] } {
  const log: string[] = [];
  const users = [
    { id: 1, name: 'Ada', email: 'ada@example.com' },
    { id: 2, name: 'Brian', email: null },
    { id: 3, name: 'Cleo', email: 'cleo@example.com' },
  ];
  const tasks = [
    { id: 1, ownerId: 1, title: 'Write spec' },
    { id: 2, ownerId: 1, title: 'Port engine' },
    { id: 3, ownerId: 2, title: 'Review' },
  ];
  const Base = baseEntity();

  async function tasksByOwner(keys: readonly number[]) {
    return buildList(tasks.map((t) => new Task(t)), keys, (t) => t.ownerId);
  }
  async function usersById(keys: readonly number[]) {
    return buildObject(users.map((u) => new User(u)), keys, (u) => u.id);
  }

  @Base.entity
  class User extends model({ id: z.int(), name: z.string(), email: z.string().nullable() }) {
    static __relationships__ = [new Relationship({ fk: 'id', target: () => [Task], name: 'tasks', loader: tasksByOwner })];

    @query({ args: { limit: z.int().default(20) }, returns: () => [User], description: 'All users' })
    static async getAll({ limit }: { limit: number }) {
      return users.slice(0, limit).map((u) => new User(u));
    }

    @query({ args: { id: z.int() }, returns: () => ref(() => User).nullable() })
    static async byId({ id }: { id: number }) {
      const u = users.find((x) => x.id === id);
      return u ? new User(u) : null;
    }

    @query({ returns: z.array(z.string()) })
    static async list_items_2fa() {
      return ['totp', 'sms'];
    }

    @query({ returns: () => [User] })
    static async broken(): Promise<User[]> {
      throw new Error('database is down');
    }

    @mutation({ args: { id: z.int(), name: z.string() }, returns: () => ref(() => User).nullable() })
    static async rename({ id, name }: { id: number; name: string }) {
      log.push(`User.rename ${id}`);
      const u = users.find((x) => x.id === id);
      if (!u) return null;
      u.name = name;
      return new User(u);
    }
  }

  @Base.entity
  class Task extends model({ id: z.int(), ownerId: z.int(), title: z.string() }) {
    static __relationships__ = [new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: usersById })];

    @query({ args: { limit: z.int().default(20) }, returns: () => [Task] })
    static async getAll({ limit }: { limit: number }) {
      return tasks.slice(0, limit).map((t) => new Task(t));
    }

    @query({ args: { id: z.int() }, returns: () => ref(() => Task).nullable() })
    static async byId({ id }: { id: number }) {
      const t = tasks.find((x) => x.id === id);
      return t ? new Task(t) : null;
    }

    @mutation({ args: { title: z.string(), ownerId: z.int() }, returns: () => Task, description: 'Create a task' })
    static async create({ title, ownerId }: { title: string; ownerId: number }) {
      await new Promise((r) => setTimeout(r, 5 - tasks.length));
      log.push(`Task.create ${title}`);
      const task = { id: tasks.length + 1, ownerId, title };
      tasks.push(task);
      return new Task(task);
    }
  }

  return { handler: new GraphQLHandler(Base.getDiagram()), log };
}
