import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, ErDiagram, GraphQLHandler } from 'ergraph';
import { AutoQueryConfig, buildRelationship, tableModel } from 'ergraph/orm';
import { databaseTargets, type TestDatabase } from './databases.js';
import { byRankThenId, comments, DDL, schema, seedSql, tags, taskRows, tasks, TASKS_PER_USER, taskTags, users } from './fixture.js';

class User extends tableModel(users) {}
class Task extends tableModel(tasks) {}
class Comment extends tableModel(comments) {}
class Tag extends tableModel(tags) {}

const targets = await databaseTargets();
const tasksOf = (owner: number) => taskRows().filter((t) => t.ownerId === owner).sort(byRankThenId);

describe.each(targets)('GraphQLHandler over SQL on $name', (target) => {
  let t: TestDatabase;
  const entities = (orderComments: boolean) =>
    buildRelationship({
      db: t.db,
      schema,
      models: [User, Task, Comment, Tag],
      orderBy: { 'users.tasks': tasks.rank, 'users.reviews': tasks.id, ...(orderComments ? { 'tasks.comments': comments.id } : {}) },
      manyToMany: [{ source: tasks, name: 'tags', target: tags, through: taskTags, sourceKey: taskTags.taskId, targetKey: taskTags.tagId, orderBy: tags.label }],
      defaultPageSize: 2,
    });
  let handler: GraphQLHandler;
  const contexts: unknown[] = [];

  beforeAll(async () => {
    t = await target.open();
    await t.exec(DDL);
    await t.exec(seedSql());
    handler = new GraphQLHandler(new ErDiagram({ entities: entities(true) }), {
      enablePagination: true,
      base: schema,
      sessionFactory: (context) => {
        contexts.push(context);
        return t.db;
      },
      autoQueryConfig: new AutoQueryConfig({ defaultLimit: 10 }),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses at startup to paginate a list relation without an order, naming Entity.relationship', () => {
    const diagram = new ErDiagram({ entities: entities(false) });
    expect(() => new GraphQLHandler(diagram, { enablePagination: true })).toThrow(ConfigError);
    expect(() => new GraphQLHandler(diagram, { enablePagination: true })).toThrow(/^Task\.comments: /);
    expect(() => new GraphQLHandler(diagram)).not.toThrow();
  });

  it('serves generated root queries and nested per-parent pages, one statement per level', async () => {
    t.reset();
    const result = await handler.execute(`{
      User { getAll(limit: 5) { id tasks(limit: 2, offset: 1) { items { id owner { name } tags(limit: 1) { items { label } pagination { has_more } } } pagination { has_more } } } }
    }`);
    expect(result.errors).toBeNull();
    // getAll; tasks page; owner + tags page at the next level
    expect(t.statements).toHaveLength(4);
    expect(t.statements.join('\n')).not.toMatch(/count\(/i);
    const got = (result.data!.User as { getAll: { id: number; tasks: { items: { id: number }[]; pagination: { has_more: boolean } } }[] }).getAll;
    expect(got.map((u) => u.id)).toEqual([1, 2, 3, 4, 5]);
    for (const u of got) {
      expect(u.tasks.items.map((x) => x.id)).toEqual(tasksOf(u.id).slice(1, 3).map((x) => x.id));
      expect(u.tasks.pagination).toEqual({ has_more: TASKS_PER_USER[u.id]! > 3 });
    }
  });

  it('counts only when total_count is selected, and uses defaultPageSize', async () => {
    const reviewsOf5 = taskRows().filter((x) => x.reviewerId === 5).map((x) => x.id).sort((a, b) => a - b);
    t.reset();
    const result = await handler.execute(`{ User { byId(id: 5) { tasks(offset: 40) { items { id } pagination { total_count has_more } } reviews { items { id } } } } }`);
    expect(result.errors).toBeNull();
    expect(result.data).toEqual({
      User: {
        byId: {
          tasks: { items: [], pagination: { total_count: 12, has_more: false } },
          reviews: { items: reviewsOf5.slice(0, 2).map((id) => ({ id })) },
        },
      },
    });
    expect(reviewsOf5.length).toBeGreaterThan(2);
    expect(t.statements.filter((s) => /count\(\*\)/i.test(s))).toHaveLength(1);
  });

  it('reads only the columns the selection needs, one statement per relationship per level whatever the aliases ask', async () => {
    const columns = (statement: string, table: string) => {
      // the select list of the statement's subquery (page) or of the statement itself
      const inner = statement.match(/lateral \(select (.*?) from "?(\w+)"?/i) ?? statement.match(/^select (.*?) from "?(\w+)"?/i);
      expect(inner?.[2]).toBe(table);
      return [...inner![1]!.matchAll(/"(\w+)"(?:,|$)/g)].map((m) => m[1]).sort();
    };
    t.reset();
    const result = await handler.execute(`{
      User { getAll(limit: 3) { id
        a: tasks(limit: 2) { items { title owner { name } } }
        b: tasks(limit: 2) { items { rank } pagination { has_more } }
      } }
    }`);
    expect(result.errors).toBeNull();
    const [, tasksSql, ownersSql, ...rest] = t.statements;
    expect(rest).toEqual([]);
    // a and b share one statement reading the union of their fields, the FK owner needs, and the key
    expect(columns(tasksSql!, 'tasks')).toEqual(['id', 'owner_id', 'rank', 'title']);
    expect(columns(ownersSql!, 'users')).toEqual(['id', 'name']);
    const users = (result.data!.User as { getAll: { id: number; a: { items: { title: string; owner: { name: string } }[] }; b: { items: { rank: number }[] } }[] }).getAll;
    for (const u of users) {
      const expected = tasksOf(u.id).slice(0, 2);
      expect(u.a.items).toEqual(expected.map((x) => ({ title: x.title, owner: { name: `user ${u.id}` } })));
      expect(u.b.items).toEqual(expected.map((x) => ({ rank: x.rank })));
    }
  });

  it('asks sessionFactory for the database of each request, with the request context', async () => {
    contexts.length = 0;
    const result = await handler.execute(`{ Task { byId(id: 2) { title } } }`, { context: { tenant: 'acme' } });
    expect(result).toEqual({ data: { Task: { byId: { title: 'task 2' } } }, errors: null });
    expect(contexts).toEqual([{ tenant: 'acme' }]);
  });

  it('turns a negative limit into a GraphQL error, not a query', async () => {
    t.reset();
    const result = await handler.execute(`{ User { byId(id: 1) { tasks(limit: -1) { items { id } } } } }`);
    expect(result.errors?.[0]?.message).toMatch(/limit must be a non-negative integer/);
    expect(t.statements).toHaveLength(1); // only byId ran
  });
});
