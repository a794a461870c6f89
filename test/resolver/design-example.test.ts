import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Annotated, AutoLoad, baseEntity, buildList, buildObject, configGlobalResolver, Context, DefineSubset,
  model, mutation, query, ref, Relationship, Resolver,
} from 'ergraph';

const users = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Grace' },
];
const tasks = [
  { id: 10, ownerId: 1, title: 'compile' },
  { id: 11, ownerId: 2, title: 'debug' },
  { id: 12, ownerId: 1, title: 'ship' },
];
const calls: string[] = [];

async function usersById(keys: readonly number[]) {
  calls.push(`usersById(${keys.join(',')})`);
  return buildObject(users.map((u) => new User(u)), keys, (u) => u.id);
}
async function tasksByOwner(keys: readonly number[]) {
  calls.push(`tasksByOwner(${keys.join(',')})`);
  return buildList(tasks.map((t) => new Task(t)), keys, (t) => t.ownerId);
}

const Base = baseEntity();

@Base.entity
class User extends model({ id: z.int(), name: z.string() }) {
  static __relationships__ = [new Relationship({ fk: 'id', target: () => [Task], name: 'tasks', loader: tasksByOwner })];
  @query({ args: { limit: z.int().default(20) }, returns: () => [User], description: 'All users' })
  static async getAll({ limit }: { limit: number }) {
    return users.slice(0, limit).map((u) => new User(u));
  }
}

@Base.entity
class Task extends model({ id: z.int(), ownerId: z.int(), title: z.string() }) {
  static __relationships__ = [
    new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: usersById }),
    new Relationship({ fk: 'ownerId', target: User, name: 'reviewer', loader: usersById }),
  ];
  @mutation({ args: { title: z.string(), ownerId: z.int() }, returns: () => Task })
  static async create(args: { title: string; ownerId: number }) {
    return new Task({ id: 99, ...args });
  }
}

configGlobalResolver(Base.getDiagram());

class UserView extends DefineSubset(User, ['id', 'name']) {}
class TaskView extends DefineSubset(Task, ['id', 'title'], {
  owner: ref(() => UserView).nullable(),
  author: Annotated(ref(() => UserView).nullable(), AutoLoad({ origin: 'reviewer' })),
  label: z.string().default(''),
}) {
  postLabel(ctx = Context<{ lang: string }>()) {
    return `${this.title} (${this.owner?.name}) [${ctx.lang}]`;
  }
}

class OwnerView extends DefineSubset(User, ['id', 'name'], { tasks: z.array(ref(() => TaskView)).default([]) }) {}

describe('the DESIGN.md example', () => {
  it('loads implicit and explicit AutoLoad fields with one call per loader, and runs post hooks with context', async () => {
    calls.length = 0;
    const views = await new Resolver({ context: { lang: 'en' } }).resolve(tasks.map((t) => new TaskView(new Task(t))));
    expect(calls).toEqual(['usersById(1,2)']);
    expect(views.map((v) => JSON.parse(JSON.stringify(v)))).toEqual([
      { id: 10, title: 'compile', owner: { id: 1, name: 'Ada' }, author: { id: 1, name: 'Ada' }, label: 'compile (Ada) [en]' },
      { id: 11, title: 'debug', owner: { id: 2, name: 'Grace' }, author: { id: 2, name: 'Grace' }, label: 'debug (Grace) [en]' },
      { id: 12, title: 'ship', owner: { id: 1, name: 'Ada' }, author: { id: 1, name: 'Ada' }, label: 'ship (Ada) [en]' },
    ]);
    expect(views[0]!.owner).toBeInstanceOf(UserView);
    // the FK the subset did not list is not part of the output
    expect(Object.keys(views[0]!)).not.toContain('ownerId');
  });

  it('descends into loaded lists: users -> tasks -> owner, one call per level', async () => {
    calls.length = 0;
    const out = await new Resolver({ context: { lang: 'fr' } }).resolve(users.map((u) => new OwnerView(u)));
    expect(calls).toEqual(['tasksByOwner(1,2)', 'usersById(1,2)']);
    expect(out[0]!.tasks.map((t) => t.label)).toEqual(['compile (Ada) [fr]', 'ship (Ada) [fr]']);
  });

  it('collects operations declared with decorators on the diagram', () => {
    const diagram = Base.getDiagram();
    expect(diagram.entityOf(User)!.queries.map((q) => [q.name, q.description])).toEqual([['getAll', 'All users']]);
    expect(diagram.entityOf(Task)!.mutations.map((m) => m.name)).toEqual(['create']);
    expect([...diagram.entityOf(Task)!.relationships.keys()]).toEqual(['owner', 'reviewer']);
  });
});
