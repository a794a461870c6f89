// The resolver options pydantic-resolve 6.2 users rely on (issue 16.4): pre-built loader instances,
// DataLoader options per loader, SubsetConfig omitFields / excludedFields / exposeAs / sendTo,
// and Collector({ flat }). Each test counts batch calls or reads output a missing option would change.
import DataLoader from 'dataloader';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AncestorContext, buildList, buildObject, Collector, configResolver, DefineSubset, describeField, Entity,
  ErDiagram, exclude, model, ref, Relationship, serialization, SubsetConfig,
} from 'ergraph';
import { isExcluded } from '../../src/er/model.js';
import { LoaderPool } from '../../src/resolver/pool.js';

class User extends model({ id: z.int(), name: z.string(), managerId: z.int().nullable(), secret: z.string().default('s3cret') }) {}
class Task extends model({ id: z.int(), ownerId: z.int(), title: z.string(), tags: z.array(z.string()).default([]) }) {}

const users = [1, 2, 3, 4, 5].map((id) => new User({ id, name: `u${id}`, managerId: id === 1 ? 2 : 1 }));
const tasks = [1, 2, 3, 4, 5].map((id) => new Task({ id, ownerId: id, title: `t${id}`, tags: [`a${id}`, `b${id}`] }));

/** A batch function that remembers the keys of every call. */
function spyUsersById() {
  const calls: number[][] = [];
  const fn = async function usersById(ids: readonly number[]) {
    calls.push([...ids]);
    return buildObject(users, ids, (u) => u.id);
  };
  return { fn, calls };
}

function setup() {
  const spy = spyUsersById();
  const tasksByOwner = async (ids: readonly number[]) => buildList(tasks, ids, (t) => t.ownerId);
  const diagram = new ErDiagram({
    entities: [
      new Entity({
        kls: User,
        relationships: [
          new Relationship({ fk: 'managerId', target: User, name: 'manager', loader: spy.fn }),
          new Relationship({ fk: 'id', target: [Task], name: 'tasks', loader: tasksByOwner }),
        ],
      }),
      new Entity({ kls: Task, relationships: [new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: spy.fn })] }),
    ],
  });
  const Resolver = configResolver('OptionsResolver', diagram);
  class ManagerView extends DefineSubset(User, ['id', 'name']) {}
  class OwnerView extends DefineSubset(User, ['id', 'name'], { manager: ref(() => ManagerView).nullable() }) {}
  class TaskView extends DefineSubset(Task, ['id', 'title'], { owner: ref(() => OwnerView).nullable() }) {}
  return { spy, Resolver, TaskView, OwnerView, tasksByOwner };
}

describe('loaderInstances', () => {
  it('uses a primed DataLoader: primed keys cost no batch call, the rest go in one', async () => {
    const { spy, Resolver, TaskView } = setup();
    const primed = new DataLoader<number, User | null>(spy.fn);
    for (const u of users.slice(0, 3)) primed.prime(u.id, u);
    const views = tasks.slice(0, 3).map((t) => new TaskView(t));
    await new Resolver({ loaderInstances: new Map([[spy.fn, primed as DataLoader<unknown, unknown>]]) }).resolve(views);
    expect(views.map((v) => v.owner?.name)).toEqual(['u1', 'u2', 'u3']);
    // Level 2 (managers 2 and 1) is primed as well: not a single call.
    expect(spy.calls).toEqual([]);
    expect(views[0]!.owner?.manager?.name).toBe('u2');

    const more = tasks.map((t) => new TaskView(t));
    await new Resolver({ loaderInstances: new Map([[spy.fn, primed as DataLoader<unknown, unknown>]]) }).resolve(more);
    expect(spy.calls).toEqual([[4, 5]]); // only the keys the instance does not hold
    expect(more[4]!.owner?.name).toBe('u5');
  });

  it('without the option, the same tree loads every key', async () => {
    const { spy, Resolver, TaskView } = setup();
    await new Resolver().resolve(tasks.slice(0, 3).map((t) => new TaskView(t)));
    expect(spy.calls).toEqual([[1, 2, 3]]); // managers 2 and 1 come from the run's own cache
  });

  it('takes instances of DataLoader subclasses, and refuses an instance of another class', async () => {
    class UserLoader extends DataLoader<number, User | null> {
      calls = 0;
      constructor() {
        super(async (ids) => {
          this.calls++;
          return buildObject(users, ids, (u) => u.id);
        });
      }
    }
    class Other extends DataLoader<number, User | null> {
      constructor() {
        super(async (ids) => ids.map(() => null));
      }
    }
    const diagram = new ErDiagram({
      entities: [
        new Entity({ kls: User, relationships: [] }),
        new Entity({ kls: Task, relationships: [new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: UserLoader })] }),
      ],
    });
    const Resolver = configResolver('ClassInstances', diagram);
    class View extends DefineSubset(Task, ['id'], { owner: ref(() => DefineSubset(User, ['name'])).nullable() }) {}
    const mine = new UserLoader();
    mine.prime(1, users[0]!);
    const views = [new View(tasks[0]!), new View(tasks[1]!)];
    await new Resolver({ loaderInstances: new Map([[UserLoader, mine]]) }).resolve(views);
    expect(views.map((v) => v.owner?.name)).toEqual(['u1', 'u2']);
    expect(mine.calls).toBe(1); // key 2 only, through the given instance
    expect(() => new Resolver({ loaderInstances: new Map([[UserLoader, new Other()]]) })).toThrow(
      /loaderInstances: the instance given for UserLoader is not a UserLoader/,
    );
  });
});

describe('loaderOptions', () => {
  it('maxBatchSize 2 splits five keys into three calls', async () => {
    const { spy, Resolver, TaskView } = setup();
    const views = tasks.map((t) => new TaskView(t));
    await new Resolver({ loaderOptions: new Map([[spy.fn, { maxBatchSize: 2 }]]) }).resolve(views);
    expect(spy.calls.slice(0, 3)).toEqual([[1, 2], [3, 4], [5]]);
    expect(views.map((v) => v.owner?.name)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
  });

  it('cache: false loads keys again that an earlier level already loaded', async () => {
    const cached = setup();
    await new cached.Resolver().resolve(tasks.slice(0, 2).map((t) => new cached.TaskView(t)));
    expect(cached.spy.calls).toEqual([[1, 2]]); // managers 2 and 1 were cached

    const uncached = setup();
    const views = tasks.slice(0, 2).map((t) => new uncached.TaskView(t));
    await new uncached.Resolver({ loaderOptions: new Map([[uncached.spy.fn, { cache: false }]]) }).resolve(views);
    expect(uncached.spy.calls).toEqual([[1, 2], [2, 1]]);
    expect(views.map((v) => v.owner?.manager?.name)).toEqual(['u2', 'u1']);
  });

  it('applies to page loaders too (one DataLoader per page request)', async () => {
    const calls: number[][] = [];
    const pages = async function tasksPage(ids: readonly number[]) {
      calls.push([...ids]);
      return ids.map(() => ({ items: [], hasMore: false, total: null }));
    };
    const pool = new LoaderPool({ loaderOptions: new Map([[pages, { maxBatchSize: 2 }]]) });
    const loader = pool.page(pages, { limit: 5, offset: 0, withTotal: false });
    await Promise.all([1, 2, 3].map((id) => loader.load(id)));
    expect(calls).toEqual([[1, 2], [3]]);
  });

  it('refuses options it cannot apply, with one clear error', () => {
    const { spy, Resolver } = setup();
    expect(() => new Resolver({ loaderOptions: new Map([[spy.fn, { maxBatchSize: 0 }]]) })).toThrow(/maxBatchSize must be a positive integer/);
    expect(() => new Resolver({ loaderOptions: new Map([[spy.fn, { batch: false } as never]]) })).toThrow(/unknown option batch/);
    class UserLoader extends DataLoader<number, unknown> {
      constructor() {
        super(async (ids) => ids);
      }
    }
    expect(() => new Resolver({ loaderOptions: new Map([[UserLoader as never, { cache: false }]]) })).toThrow(
      /UserLoader is a DataLoader subclass; pass its options to super/,
    );
  });
});

describe('SubsetConfig', () => {
  it('omitFields keeps every source field but the omitted ones', () => {
    class Public extends DefineSubset(new SubsetConfig({ kls: User, omitFields: ['secret'] })) {}
    expect(Object.keys(Public.shape)).toEqual(['id', 'name', 'managerId']);
    const p = new Public(users[0]!);
    expect(Object.keys(p)).toEqual(['id', 'name', 'managerId']);
    expect(p.name).toBe('u1');
    // @ts-expect-error the omitted field is not on the subset's type either
    expect(p.secret).toBeUndefined();
    expect(() => new SubsetConfig({ kls: User, omitFields: ['nope' as 'id'] })).toThrow(/omitFields names 'nope'/);
    expect(() => new SubsetConfig({ kls: User, fields: ['id'], omitFields: ['secret'] } as never)).toThrow(/fields or omitFields, not both/);
  });

  it('excludedFields keeps a field for the resolver but out of output, leaving the entity alone', async () => {
    const { Resolver } = setup();
    @serialization
    class Row extends DefineSubset(
      new SubsetConfig({ kls: Task, fields: ['id', 'ownerId', 'title'], excludedFields: ['ownerId'] }),
      { label: z.string().default('') },
    ) {
      postLabel() {
        return `${this.title} by #${this.ownerId}`;
      }
    }
    const row = new Row(tasks[2]!);
    await new Resolver().resolve(row);
    expect(row.label).toBe('t3 by #3');
    expect(JSON.parse(JSON.stringify(row))).toEqual({ id: 3, title: 't3', label: 't3 by #3' });
    expect(Object.keys((Row as unknown as { jsonSchema(): { properties: object } }).jsonSchema().properties)).toEqual(['id', 'title', 'label']);
    expect(isExcluded(describeField(Task.shape.ownerId))).toBe(false);
    expect(() => DefineSubset(new SubsetConfig({ kls: Task, fields: ['id'], excludedFields: ['title'] }))).toThrow(
      /excludedFields names 'title', which the subset does not keep/,
    );
    // exclude() on a schema of its own is what excludedFields does to a copy
    expect(isExcluded(describeField(exclude(z.string())))).toBe(true);
  });

  it('exposeAs and sendTo work like __expose__ / __collect__, declared on the subset config', async () => {
    const { Resolver } = setup();
    class TaskLine extends DefineSubset(
      new SubsetConfig({ kls: Task, fields: ['id', 'title'], sendTo: { title: ['titles', 'everything'], id: 'everything' } }),
      { path: z.string().default('') },
    ) {
      resolvePath(ctx = AncestorContext<{ ownerName: string }>()) {
        return `${ctx.ownerName}/${this.title}`;
      }
    }
    class Owner extends DefineSubset(
      new SubsetConfig({ kls: User, fields: ['id', 'name'], exposeAs: { name: 'ownerName' } }),
      {
        tasks: z.array(ref(() => TaskLine)).default([]),
        titles: z.array(z.string()).default([]),
        everything: z.array(z.union([z.string(), z.int()])).default([]),
      },
    ) {
      postTitles(c = Collector<string>('titles')) {
        return c.values();
      }
      postEverything(c = Collector<string | number>('everything')) {
        return c.values();
      }
    }
    const owner = new Owner(users[1]!);
    await new Resolver().resolve(owner);
    expect(owner.tasks.map((t) => t.path)).toEqual(['u2/t2']);
    expect(owner.titles).toEqual(['t2']);
    expect(owner.everything).toEqual(['t2', 2]);
    expect(() => DefineSubset(new SubsetConfig({ kls: User, fields: ['id'], exposeAs: { name: 'n' } }))).toThrow(
      /exposeAs names 'name', which the subset does not have/,
    );
  });
});

describe('Collector flat', () => {
  it('spreads list values one level; without flat each list is one value', async () => {
    const { Resolver } = setup();
    class Line extends DefineSubset(new SubsetConfig({ kls: Task, fields: ['id', 'tags'], sendTo: { tags: 'tags' } })) {}
    class Owner extends DefineSubset(User, ['id'], {
      tasks: z.array(ref(() => Line)).default([]),
      flat: z.array(z.string()).default([]),
      nested: z.array(z.array(z.string())).default([]),
    }) {
      postFlat(c = Collector<string>('tags', { flat: true })) {
        return c.values();
      }
      postNested(c = Collector<string[]>('tags')) {
        return c.values();
      }
    }
    const owners = [new Owner(users[0]!), new Owner(users[1]!)];
    await new Resolver().resolve(owners);
    expect(owners[0]!.flat).toEqual(['a1', 'b1']);
    expect(owners[0]!.nested).toEqual([['a1', 'b1']]);
    expect(owners[1]!.flat).toEqual(['a2', 'b2']);
  });
});
