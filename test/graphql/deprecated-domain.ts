/** A small graph with something deprecated of every kind (issue 16.2), shared by the deprecation tests. */
import { z } from 'zod';
import { baseEntity, buildList, buildObject, Entity, ErDiagram, model, mutation, MutationConfig, query, QueryConfig, Relationship } from 'ergraph';

export const calls = { byName: 0 };

const rows = {
  users: [
    { id: 1, name: 'ann', fullName: 'Ann A.', legacyCode: 'A1' },
    { id: 2, name: 'bob', fullName: 'Bob B.', legacyCode: null },
  ],
  tasks: [
    { id: 10, ownerId: 1, title: 'write' },
    { id: 11, ownerId: 1, title: 'read' },
    { id: 12, ownerId: 2, title: 'sleep' },
  ],
};

async function tasksByOwner(ids: readonly number[]) {
  return buildList(rows.tasks.map((t) => new Task(t)), ids, (t) => t.ownerId);
}
async function usersById(ids: readonly number[]) {
  return buildObject(rows.users.map((u) => new User(u)), ids, (u) => u.id);
}

export const Base = baseEntity();

@Base.entity
export class User extends model({
  id: z.int(),
  name: z.string(),
  // zod metadata is the carrier: `deprecated` is zod's (and JSON Schema's) own key.
  fullName: z.string().meta({ deprecated: true, deprecationReason: 'Use name' }),
  legacyCode: z.string().meta({ deprecated: true }).nullable(),
}) {
  static __relationships__ = [
    new Relationship({ fk: 'id', target: () => [Task], name: 'tasks', loader: tasksByOwner }),
    new Relationship({ fk: 'id', target: () => [Task], name: 'todo', loader: tasksByOwner, deprecationReason: 'Use tasks' }),
  ];

  @query({ returns: () => [User], description: 'All users' })
  static async getAll() {
    return rows.users.map((u) => new User(u));
  }

  @query({
    args: { name: z.string(), exact: z.boolean().optional().meta({ deprecated: true, deprecationReason: 'Always exact now' }) },
    returns: () => User,
    description: 'One user by name',
    deprecationReason: 'Use User.getAll',
  })
  static async byName({ name }: { name: string }) {
    calls.byName++;
    const row = rows.users.find((u) => u.name === name);
    return row ? new User(row) : null;
  }

  @mutation({ args: { id: z.int() }, returns: z.boolean(), deprecationReason: 'Use Task.archive' })
  static async retire() {
    return true;
  }
}

@Base.entity
export class Task extends model({ id: z.int(), ownerId: z.int(), title: z.string() }) {
  static __relationships__ = [new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: usersById })];
}

/** External operations, as `QueryConfig` / `MutationConfig` attach them. */
export function externalDiagram(): ErDiagram {
  class Note extends model({ id: z.int(), text: z.string() }) {}
  return new ErDiagram({
    entities: [
      new Entity({
        kls: Note,
        name: 'Note',
        queries: [
          new QueryConfig({ method: async function oldest() { return [new Note({ id: 1, text: 'x' })]; }, returns: () => [Note], deprecationReason: 'Use Note.all' }),
          new QueryConfig({ method: async function all() { return [new Note({ id: 1, text: 'x' })]; }, returns: () => [Note] }),
        ],
        mutations: [
          new MutationConfig({ method: async function wipe() { return true; }, returns: z.boolean(), deprecationReason: 'Never wipe' }),
        ],
      }),
    ],
  });
}
