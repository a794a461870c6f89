import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relations } from 'drizzle-orm';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { configResolver, ConfigError, DefineSubset, ErDiagram, model, ref, Relationship, type Page, type PageRequest } from 'ergraph';
import { assertPaginable, AutoQueryConfig, buildRelationship, SqlRelationship, tableModel } from 'ergraph/orm';
import { databaseTargets, type TestDatabase } from './databases.js';
import {
  byRankThenId, comments, DDL, profiles, schema, seedSql, tagIdsOf, tags, taskRows, tasks, TASKS_PER_USER, taskTags, users,
} from './fixture.js';

class User extends tableModel(users) {}
class Profile extends tableModel(profiles) {}
class Task extends tableModel(tasks) {}
class Comment extends tableModel(comments) {}
class Tag extends tableModel(tags) {}

const targets = await databaseTargets();
const expectedTasks = taskRows();
const tasksOf = (owner: number) => expectedTasks.filter((t) => t.ownerId === owner).sort(byRankThenId);

describe.each(targets)('SQL integration on $name', (target) => {
  let t: TestDatabase;
  let diagram: ErDiagram;

  beforeAll(async () => {
    t = await target.open();
    await t.exec(DDL);
    await t.exec(seedSql());
    diagram = new ErDiagram({
      entities: buildRelationship({
        db: t.db,
        schema,
        models: [User, Profile, Task, Comment, Tag],
        orderBy: { 'users.tasks': tasks.rank, 'users.reviews': { column: tasks.createdAt, direction: 'desc' } },
        manyToMany: [
          { source: tasks, name: 'tags', target: tags, through: taskTags, sourceKey: taskTags.taskId, targetKey: taskTags.tagId, orderBy: tags.label },
        ],
        defaultPageSize: 5,
        maxPageSize: 50,
      }),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const rel = (kls: Function, name: string) => {
    const found = diagram.entities.find((e) => e.kls === kls)!.relationships.find((r) => r.name === name);
    if (!(found instanceof SqlRelationship)) throw new Error(`no relationship ${kls.name}.${name}`);
    return found;
  };
  const page = (kls: Function, name: string, keys: number[], request: Partial<PageRequest> = {}) => {
    t.reset();
    return rel(kls, name).pageLoader!(keys, { limit: 3, offset: 0, withTotal: false, ...request }) as Promise<Page<Task>[]>;
  };

  it('derives every relation kind from the Drizzle relations and the manyToMany declaration', () => {
    const kinds = diagram.entities.flatMap((e) => e.relationships.map((r) => `${e.kls.name}.${r.name}:${(r as SqlRelationship).kind}:${r.fk}`));
    expect(kinds.sort()).toEqual([
      'Comment.task:many-to-one:taskId',
      'Profile.user:many-to-one:userId',
      'Task.comments:one-to-many:id',
      'Task.owner:many-to-one:ownerId',
      'Task.reviewer:many-to-one:reviewerId',
      'Task.tags:many-to-many:id',
      'User.profile:one-to-one:id',
      'User.reviews:one-to-many:id',
      'User.tasks:one-to-many:id',
    ]);
    const tasksRel = rel(User, 'tasks');
    expect([tasksRel.defaultPageSize, tasksRel.maxPageSize]).toEqual([5, 50]);
    expect(tasksRel.pageLoader).toBeTypeOf('function');
    expect(rel(Task, 'comments').pageLoader).toBeUndefined();
    expect(() => diagram.validate()).not.toThrow();
  });

  it('loads a three-level tree with one statement per relationship per level', async () => {
    class TagView extends DefineSubset(Tag, ['label']) {}
    class OwnerView extends DefineSubset(User, ['id', 'name', 'role']) {}
    class ProfileView extends DefineSubset(Profile, ['bio']) {}
    class TaskView extends DefineSubset(Task, ['id', 'title', 'estimate', 'createdAt'], {
      owner: ref(() => OwnerView).nullable(),
      reviewer: ref(() => OwnerView).nullable(),
      tags: z.array(ref(() => TagView)).default([]),
    }) {}
    class UserView extends DefineSubset(User, ['id', 'name', 'nickname'], {
      tasks: z.array(ref(() => TaskView)).default([]),
      profile: ref(() => ProfileView).nullable(),
    }) {}
    const Bound = configResolver('SqlResolver', diagram);
    const roots = [1, 2, 3, 4, 5].map((id) => new UserView({ id, name: `user ${id}`, nickname: null }));
    t.reset();
    const out = await new Bound().resolve(roots);
    // level 1: tasks + profile; level 2: owner + reviewer (same loader? no: two relations) + tags
    expect(t.statements).toHaveLength(5);
    // Each statement takes the whole level's keys: `in (...)` (rows by key) or `= any($1)` (lists).
    expect(t.statements.every((s) => /\bin\s*\(|= any\(\$1/i.test(s))).toBe(true);
    expect(out[0]!.tasks.map((x) => x.id)).toEqual(tasksOf(1).map((x) => x.id));
    expect(out[2]!.tasks).toEqual([]);
    expect(out[3]!.profile).toBeNull();
    expect(out[0]!.profile).toBeInstanceOf(ProfileView);
    expect(out[0]!.profile!.bio).toBe('bio of 1');
    const first = out[0]!.tasks[0]!;
    const row = expectedTasks.find((x) => x.id === first.id)!;
    expect(first.owner!.name).toBe('user 1');
    expect(out[0]!.tasks[0]!.owner!.role).toBe('admin');
    expect(out[1]!.tasks[0]!.owner!.role).toBe('member');
    expect(first.reviewer?.name ?? null).toBe(row.reviewerId === null ? null : `user ${row.reviewerId}`);
    expect(first.estimate).toBe(row.estimate);
    expect(first.createdAt).toEqual(row.createdAt);
    expect(first.tags.map((x) => x.label)).toEqual(tagIdsOf(first.id).map((x) => `tag ${x}`).sort());
  });

  it('pages per parent in one statement, stable and without overlap', async () => {
    const keys = [1, 2, 3, 4, 5];
    const seen = new Map<number, number[]>(keys.map((k) => [k, []]));
    for (let offset = 0; offset < 15; offset += 3) {
      const pages = await page(User, 'tasks', keys, { offset, limit: 3 });
      expect(t.statements).toHaveLength(1);
      pages.forEach((p, i) => {
        const all = tasksOf(keys[i]!);
        expect(p.items.map((x) => x.id)).toEqual(all.slice(offset, offset + 3).map((x) => x.id));
        expect(p.hasMore).toBe(all.length > offset + 3);
        expect(p.total).toBeNull();
        seen.get(keys[i]!)!.push(...p.items.map((x) => x.id));
      });
    }
    for (const k of keys) {
      expect(seen.get(k)).toEqual(tasksOf(k).map((x) => x.id)); // every row exactly once, in order
    }
    const [p] = await page(User, 'tasks', [1]);
    expect(p!.items[0]).toBeInstanceOf(Task);
  });

  it('counts only when the total is wanted, and past the last row keeps the right total', async () => {
    const keys = [5, 1, 3, 2, 4];
    await page(User, 'tasks', keys, { offset: 0, limit: 2 });
    expect(t.statements.join('\n')).not.toMatch(/count\(/i);
    // PostgreSQL cuts each parent's page: a lateral subquery with LIMIT, no numbering of every child
    expect(t.statements[0]).toMatch(/unnest\(\$1::integer\[\]\).*cross join lateral \(select .* order by .* limit \$\d+( offset \$\d+)?\) \"__page\"$/i);
    expect(t.statements[0]).not.toMatch(/row_number|over \(/i);

    const pages = await page(User, 'tasks', keys, { offset: 6, limit: 2, withTotal: true });
    expect(t.statements).toHaveLength(1);
    expect(t.statements[0]).toMatch(/cross join lateral \(select count\(\*\)::int .*left join lateral/i);
    expect(pages.map((p) => p.total)).toEqual(keys.map((k) => TASKS_PER_USER[k]));
    expect(pages.map((p) => p.items.map((x) => x.id))).toEqual(keys.map((k) => tasksOf(k).slice(6, 8).map((x) => x.id)));
    expect(pages.map((p) => p.hasMore)).toEqual([true, false, false, false, false]);

    const beyond = await page(User, 'tasks', keys, { offset: 100, limit: 5, withTotal: true });
    expect(beyond).toEqual(keys.map((k) => ({ items: [], hasMore: false, total: TASKS_PER_USER[k] })));
    expect(t.statements).toHaveLength(1);
  });

  it('tells an empty page from a row of nulls with total_count, on a table without primary key', async () => {
    // Every column nullable and no primary key: only the parent key marks a real row.
    const notes = pgTable('task_notes', { taskId: integer('task_id'), body: text('body') });
    await t.exec(`CREATE TABLE task_notes (task_id integer, body text);
      INSERT INTO task_notes VALUES (1, 'b'), (1, NULL), (2, NULL), (NULL, 'orphan');`);
    const noteSchema = {
      tasks,
      notes,
      tasksNotes: relations(tasks, ({ many }) => ({ notes: many(notes) })),
      notesTask: relations(notes, ({ one }) => ({ task: one(tasks, { fields: [notes.taskId], references: [tasks.id] }) })),
    };
    const entities = buildRelationship({ db: t.db, schema: noteSchema, orderBy: { 'tasks.notes': notes.body } });
    const notesRel = entities.find((e) => e.kls.name === 'Tasks')!.relationships.find((r) => r.name === 'notes')!;
    const load = (offset: number) =>
      notesRel.pageLoader!([1, 2, 3], { limit: 5, offset, withTotal: true }) as Promise<Page<{ taskId: number; body: string | null }>[]>;
    expect((await load(0)).map((p) => [p.items.map((x) => [x.taskId, x.body]), p.total])).toEqual([
      [[[1, 'b'], [1, null]], 2],
      [[[2, null]], 1],
      [[], 0],
    ]);
    expect((await load(1)).map((p) => [p.items.map((x) => x.body), p.total])).toEqual([[[null], 2], [[], 1], [[], 0]]);
  });

  it('sets an integer parent key from the number a row was found by, and reads it back for other keys', async () => {
    const outerList = (statement: string) => statement.slice(0, statement.indexOf(' from unnest('));
    const pages = await page(User, 'tasks', [5, 1], { limit: 20 });
    expect(outerList(t.statements[0]!)).toMatch(/"__page"\."id"/);
    expect(outerList(t.statements[0]!)).not.toMatch(/owner_id/);
    expect(pages.map((p) => p.items.map((x) => x.ownerId))).toEqual([5, 1].map((k) => tasksOf(k).map(() => k)));
    expect(pages.flatMap((p) => p.items).map((x) => ({ ...x }))).toEqual([5, 1].flatMap((k) => tasksOf(k)).map((x) => ({ ...new Task(x) })));
    // Keys that are not all numbers: the column is read back, as the database has it.
    t.reset();
    const byText = await rel(User, 'tasks').pageLoader!(['5', 1], { limit: 20, offset: 0, withTotal: false });
    expect(outerList(t.statements[0]!)).toMatch(/owner_id/);
    expect(byText.map((p) => p.items.map((x) => (x as Task).ownerId))).toEqual([5, 1].map((k) => tasksOf(k).map(() => k)));

    // A text key is read back: the column holds what the database has, whatever the key's spelling.
    const codes = pgTable('codes', { code: text('code').primaryKey() });
    const uses = pgTable('code_uses', { id: integer('id').primaryKey(), code: text('code').notNull() });
    await t.exec(`CREATE TABLE codes (code text PRIMARY KEY); CREATE TABLE code_uses (id integer PRIMARY KEY, code text NOT NULL);
      INSERT INTO codes VALUES ('a'), ('b'); INSERT INTO code_uses VALUES (1, 'a'), (2, 'b'), (3, 'a');`);
    const codeSchema = {
      codes,
      uses,
      codesUses: relations(codes, ({ many }) => ({ uses: many(uses) })),
      usesCode: relations(uses, ({ one }) => ({ code: one(codes, { fields: [uses.code], references: [codes.code] }) })),
    };
    const entities = buildRelationship({ db: t.db, schema: codeSchema, orderBy: { 'codes.uses': uses.id } });
    const usesRel = entities.find((e) => e.kls.name === 'Codes')!.relationships.find((r) => r.name === 'uses')!;
    t.reset();
    const byCode = (await usesRel.pageLoader!(['a', 'b'], { limit: 5, offset: 0, withTotal: false })) as Page<{ id: number; code: string }>[];
    expect(outerList(t.statements[0]!)).toMatch(/"__page"\."code"/);
    expect(byCode.map((p) => p.items.map((x) => [x.id, x.code]))).toEqual([[[1, 'a'], [3, 'a']], [[2, 'b']]]);
  });

  it('decodes page rows the same without compiled code (zod jitless)', async () => {
    const load = (entities: ReturnType<typeof buildRelationship>) =>
      entities.find((e) => e.kls === User)!.relationships.find((r) => r.name === 'tasks')!.pageLoader!([5, 1], { limit: 20, offset: 0, withTotal: false });
    const build = () => buildRelationship({ db: t.db, schema, models: [User, Task], orderBy: { 'users.tasks': tasks.rank } });
    const compiled = await load(build());
    z.config({ jitless: true });
    let looped;
    try {
      looped = await load(build());
    } finally {
      z.config({ jitless: false });
    }
    expect(looped).toEqual(compiled);
    const items = compiled.flatMap((p) => p.items) as Task[];
    expect(items.map((x) => [x.id, x.ownerId, x.createdAt, x.estimate])).toEqual(
      [5, 1].flatMap((k) => tasksOf(k)).map((x) => [x.id, x.ownerId, x.createdAt, x.estimate]), // timestamps decoded into Dates, numeric into numbers
    );
    expect(items[0]!.createdAt).toBeInstanceOf(Date);
  });

  it('keys the same page request for several parents to the parents in key order, including duplicates and unknown keys', async () => {
    const pages = await page(User, 'tasks', [2, 99, 2], { limit: 1, withTotal: true });
    expect(pages.map((p) => [p.items.map((x) => x.id), p.hasMore, p.total])).toEqual([
      [[tasksOf(2)[0]!.id], true, 3],
      [[], false, 0],
      [[tasksOf(2)[0]!.id], true, 3],
    ]);
  });

  it('puts list rows back per key in key order: a key asked twice gets its own list, an unknown one an empty list', async () => {
    const list = rel(User, 'tasks').loader as unknown as (keys: unknown[]) => Promise<Task[][]>;
    const lists = await list([2, 99, 5, 2]);
    expect(lists.map((l) => l.map((x) => x.id))).toEqual([tasksOf(2), [], tasksOf(5), tasksOf(2)].map((l) => l.map((x) => x.id)));
    expect(lists[0]).not.toBe(lists[3]);
    expect(lists[0]![0]).toBeInstanceOf(Task);
    // Keys that spell an integer key another way still find its rows (as the driver's values are matched by text).
    expect((await list(['5', 2n])).map((l) => l.map((x) => x.id))).toEqual([tasksOf(5), tasksOf(2)].map((l) => l.map((x) => x.id)));
  });

  it('splits a batch too large for one statement (PostgreSQL caps parameters at 65,535)', async () => {
    const keys = [...Array.from({ length: 70_000 }, (_, i) => 1000 + i), 5, 1];
    const pages = await page(User, 'tasks', keys, { limit: 1, withTotal: true });
    expect(t.statements).toHaveLength(3);
    expect(pages.slice(-2).map((p) => [p.items[0]!.id, p.total])).toEqual([
      [tasksOf(5)[0]!.id, 12],
      [tasksOf(1)[0]!.id, 7],
    ]);
    expect(pages.slice(0, 70_000).every((p) => p.items.length === 0 && p.total === 0)).toBe(true);
  });

  it('gives each batch its own shape when consecutive batches differ in one thing (total, offset, direction, key type)', async () => {
    // The statement of the last shape is reused without building its key (queries.ts): a batch that
    // differs from the one before in any one of these must still get its own statement.
    const shapes: { withTotal: boolean; offset: number; direction?: 'DESC'; strings?: boolean }[] = [
      { withTotal: false, offset: 0 },
      { withTotal: true, offset: 0 },
      { withTotal: true, offset: 2 },
      { withTotal: false, offset: 2 },
      { withTotal: false, offset: 2, direction: 'DESC' },
      { withTotal: false, offset: 2 },
      { withTotal: false, offset: 2, strings: true },
      { withTotal: false, offset: 2 },
      { withTotal: true, offset: 2 },
    ];
    const keys = [3, 1, 5];
    for (const { withTotal, offset, direction, strings } of shapes) {
      const pages = await page(User, 'tasks', strings ? keys.map(String) as never : keys, { withTotal, offset, limit: 2, direction });
      pages.forEach((p, i) => {
        const all = direction ? [...tasksOf(keys[i]!)].reverse() : tasksOf(keys[i]!);
        expect(p.items.map((x) => x.id)).toEqual(all.slice(offset, offset + 2).map((x) => x.id));
        expect(p.items.every((x) => x.ownerId === keys[i])).toBe(true);
        expect(p.hasMore).toBe(all.length > offset + 2);
        expect(p.total).toBe(withTotal ? TASKS_PER_USER[keys[i]!] : null);
      });
    }
  });

  it('flips the order, nulls included, when the other direction is asked for', async () => {
    const asc = await page(User, 'tasks', [5], { limit: 50 });
    const desc = await page(User, 'tasks', [5], { limit: 50, direction: 'DESC' });
    expect(desc[0]!.items.map((x) => x.id)).toEqual(asc[0]!.items.map((x) => x.id).reverse());
    // users.reviews is declared descending: asking DESC keeps it, ASC reverses it
    const reviews = await page(User, 'reviews', [2], { limit: 50, direction: 'DESC' });
    const times = reviews[0]!.items.map((x) => x.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    await expect(page(User, 'tasks', [1], { order: 'hot' })).rejects.toThrow(/users\.tasks has no order profile 'hot' \(profiles: none\)/);
    await expect(page(User, 'tasks', [1], { limit: -1 })).rejects.toThrow(/limit must be a non-negative integer/);
  });

  it('pages many-to-many relationships through the join table', async () => {
    t.reset();
    const pages = (await rel(Task, 'tags').pageLoader!([11, 1, 2], { limit: 2, offset: 1, withTotal: true })) as Page<Tag>[];
    expect(t.statements).toHaveLength(1);
    expect(pages.map((p) => p.items.map((x) => x.label))).toEqual(
      [11, 1, 2].map((id) => tagIdsOf(id).map((x) => `tag ${x}`).sort().slice(1, 3)),
    );
    expect(pages.map((p) => p.total)).toEqual([11, 1, 2].map((id) => tagIdsOf(id).length));
  });

  it("pages by the target's published order profiles when the relation has no orderBy", async () => {
    // The shape of a BatchPageConfig (ergraph/federation), which the SQL integration reads by shape.
    class RankedTask extends tableModel(tasks) {
      static __pagination_orders__ = {
        defaultOrder: 'newest',
        orders: { newest: { terms: [{ column: 'createdAt', direction: 'DESC' as const }] }, byRank: { terms: [{ column: 'rank' }] } },
      };
    }
    const [user] = buildRelationship({ db: t.db, schema, models: [User, RankedTask] });
    const tasksRel = user!.relationships.find((r) => r.name === 'tasks') as SqlRelationship;
    expect(tasksRel.ordered).toBe(true);
    const load = (request: Partial<PageRequest>) =>
      tasksRel.pageLoader!([5], { limit: 4, offset: 0, withTotal: false, ...request }) as Promise<Page<Task>[]>;
    const newest = expectedTasks.filter((x) => x.ownerId === 5).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    expect((await load({}))[0]!.items.map((x) => x.id)).toEqual(newest.slice(0, 4).map((x) => x.id));
    expect((await load({ direction: 'ASC' }))[0]!.items.map((x) => x.id)).toEqual(newest.reverse().slice(0, 4).map((x) => x.id));
    expect((await load({ order: 'byRank' }))[0]!.items.map((x) => x.id)).toEqual(tasksOf(5).slice(0, 4).map((x) => x.id));
    await expect(load({ order: 'hot' })).rejects.toThrow(/no order profile 'hot' \(profiles: newest, byRank\)/);
  });

  it('handles a join table as an entity of its own: composite key as tiebreaker, getAll without byId', async () => {
    const all = buildRelationship({ db: t.db, schema, orderBy: { 'tasks.links': taskTags.tagId } });
    const links = all.find((e) => e.kls.name === 'Tasks')!.relationships.find((r) => r.name === 'links')!;
    t.reset();
    const [p] = (await links.pageLoader!([11], { limit: 10, offset: 0, withTotal: false })) as Page<{ tagId: number }>[];
    expect(p!.items.map((x) => x.tagId)).toEqual(tagIdsOf(11));
    expect(t.statements[0]).toMatch(/"task_tags"\."task_id" asc, "task_tags"\."tag_id" asc/);
    const past = (await links.pageLoader!([11, 3], { limit: 10, offset: tagIdsOf(11).length, withTotal: true })) as Page<unknown>[];
    expect(past.map((x) => [x.items, x.total])).toEqual([[[], tagIdsOf(11).length], [[], tagIdsOf(3).length]]);
    const extended = new AutoQueryConfig().extend(new ErDiagram({ entities: all }), { base: schema, sessionFactory: () => t.db });
    const joinEntity = extended.entities.find((e) => e.kls.name === 'TaskTags')!;
    expect(joinEntity.queries.map((q) => q.operation.name)).toEqual(['getAll']);
    const rows = (await joinEntity.queries[0]!.operation.fn({ limit: 3, offset: 0 })) as { taskId: number; tagId: number }[];
    expect(rows.map((r) => [r.taskId, r.tagId])).toEqual([[1, 1], [1, 2], [2, 1]]);
  });

  it('refuses pagination over a list without an order, naming Entity.relationship', () => {
    expect(() => assertPaginable(diagram)).toThrow(ConfigError);
    expect(() => assertPaginable(diagram)).toThrow(/Task\.comments: the one-to-many relation tasks\.comments has no orderBy/);
  });

  it('generates getAll and byId root queries through AutoQueryConfig.extend', async () => {
    const extended = new AutoQueryConfig({ defaultLimit: 2 }).extend(diagram, { base: schema, sessionFactory: () => t.db });
    const ops = extended.entityOf(Task)!.queries;
    expect(ops.map((q) => q.name)).toEqual(['getAll', 'byId']);
    const getAll = ops[0]!;
    const args = z.object(getAll.args).parse({});
    expect(args).toEqual({ limit: 2, offset: 0 });
    const rows = (await getAll.fn.call(Task, { limit: 2, offset: 3 })) as Task[];
    expect(rows.map((r) => r.id)).toEqual([4, 5]);
    expect(rows[0]).toBeInstanceOf(Task);
    expect(z.object(getAll.args).safeParse({ limit: -1 }).success).toBe(false);
    const byId = ops[1]!;
    expect(((await byId.fn.call(Task, { id: 7 })) as Task).title).toBe('task 7');
    expect(await byId.fn.call(Task, { id: 9999 })).toBeNull();
    // the relationships are carried over untouched
    expect(extended.entityOf(User)!.relationships.get('tasks')!.relationship).toBe(rel(User, 'tasks'));
  });
});

describe('buildRelationship configuration errors', () => {
  const db = {} as never;
  it('rejects an orderBy naming no relation, and an order on a single-row relation', () => {
    expect(() => buildRelationship({ db, schema, orderBy: { 'users.task': tasks.rank } })).toThrow(/orderBy names 'users\.task'/);
    expect(() => buildRelationship({ db, schema, orderBy: { 'tasks.owner': users.name } })).toThrow(/tasks\.owner.*takes no order/);
  });
  it('rejects classes that are not table models, and two classes for one table', () => {
    class Plain extends model({ id: z.int() }) {}
    expect(() => buildRelationship({ db, schema, models: [User, Plain] })).toThrow(/Plain is not a table model/);
    expect(() => buildRelationship({ db, schema, models: [User, class Other extends User {}] })).toThrow(/both stand for the table users/);
  });
  it('leaves out relations to tables that are not entities', () => {
    const entities = buildRelationship({ db, schema, models: [User, Task] });
    expect(entities.map((e) => [e.kls.name, e.relationships.map((r) => r.name)])).toEqual([
      ['User', ['tasks', 'reviews']],
      ['Task', ['owner', 'reviewer']],
    ]);
  });
  it('keeps relationships a model class declares itself, after the derived ones', async () => {
    const loader = async (keys: readonly unknown[]) => keys.map(() => []);
    class Member extends tableModel(users) {
      static __relationships__ = [new Relationship({ fk: 'id', target: () => [Member], name: 'friends', loader })];
    }
    const [member] = buildRelationship({ db, schema, models: [Member, Task] });
    expect(member!.relationships.map((r) => r.name)).toEqual(['tasks', 'reviews', 'friends']);
  });

  it('rejects page sizes that contradict each other', () => {
    expect(() => buildRelationship({ db, schema, defaultPageSize: 50, maxPageSize: 10 })).toThrow(/defaultPageSize \(50\) <= maxPageSize \(10\)/);
    expect(() => buildRelationship({ db, schema, maxPageSize: 0 })).toThrow(ConfigError);
  });

  it('gives the default page sizes of the specification', () => {
    const [user] = buildRelationship({ db, schema, models: [User, Task], orderBy: { 'users.tasks': tasks.id } });
    const r = user!.relationships[0]!;
    expect([r.defaultPageSize, r.maxPageSize]).toEqual([20, 100]);
  });
});
