import { beforeEach, describe, expect, it } from 'vitest';
import { printType, type GraphQLNamedType } from 'graphql';
import { Entity, ErDiagram, GraphQLHandler, QueryConfig, Relationship, SchemaBuilder } from 'ergraph';
import { z } from 'zod';
import { ref } from 'ergraph';
import { calls, callsOf, Comment, commentPages, commentsByTask, pageRequests, Task, TASKS, User, USERS, usersById, tasksByOwner } from './domain.js';

// The same classes as domain.ts (their decorated operations included), registered externally with page settings.
const paged = new ErDiagram({
  entities: [
    new Entity({
      kls: User,
      relationships: [new Relationship({ fk: 'id', target: () => [Task], name: 'tasks', loader: tasksByOwner, defaultPageSize: 2, maxPageSize: 2 })],
      queries: [new QueryConfig({ name: 'all', args: { limit: z.int().default(300) }, returns: z.array(ref(() => User)), method: async ({ limit }: { limit: number }) => USERS.slice(0, limit).map((u) => new User(u)) })],
    }),
    new Entity({
      kls: Task,
      relationships: [
        new Relationship({ fk: 'ownerId', target: User, name: 'owner', loader: usersById }),
        new Relationship({ fk: 'id', target: () => [Comment], name: 'comments', loader: commentsByTask, pageLoader: commentPages }),
      ],
    }),
    new Entity({ kls: Comment }),
  ],
});
const handler = new GraphQLHandler(paged, { enablePagination: true });
beforeEach(() => {
  calls.length = 0;
  pageRequests.length = 0;
});
const ok = async (query: string, variables?: Record<string, unknown>) => {
  const result = await handler.execute(query, { variables });
  expect(result.errors).toBeNull();
  return result.data as Record<string, any>;
};

describe('pagination schema (spec 2.6)', () => {
  const schema = handler.schema;
  const print = (name: string) => printType(schema.getType(name) as GraphQLNamedType).replace(/\s+/g, ' ');

  it('wraps one-to-many fields in <Entity>Result! with limit/offset; single relationships stay as they are', () => {
    expect(print('TaskResult')).toBe('type TaskResult { items: [Task!]! pagination: Pagination! }');
    expect(print('Pagination')).toContain('has_more: Boolean!');
    expect(print('Pagination')).toContain('total_count: Int }');
    expect(print('User')).toMatch(/tasks\( """Page size \(default 2, at most 2\)""" limit: Int """Items to skip \(default 0\)""" offset: Int \): TaskResult!/);
    expect(print('Task')).toContain('owner: User ');
    expect(new SchemaBuilder(paged, { enablePagination: true }).buildSchema()).toContain('type CommentResult {');
    expect(new SchemaBuilder(paged).buildSchema()).not.toContain('Result');
  });
});

describe('paginated execution', () => {
  it('pages each parent independently, default page size from the relationship, capped at maxPageSize', async () => {
    const data = await ok('{ User { all(limit: 3) { id d: tasks { items { id } pagination { has_more total_count } } big: tasks(limit: 50, offset: 1) { items { id } pagination { has_more } } } } }');
    expect(data.User.all[1]).toEqual({
      id: 2,
      d: { items: [{ id: 20 }, { id: 21 }], pagination: { has_more: true, total_count: 3 } },
      big: { items: [{ id: 21 }, { id: 22 }], pagination: { has_more: false } },
    });
    expect(callsOf('tasksByOwner')).toEqual(['tasksByOwner(3)']); // one list load serves both windows
  });

  it('returns only items when pagination is not selected, and limit 0 gives an empty page', async () => {
    const data = await ok('{ User { all(limit: 1) { tasks(limit: 0) { items { id } pagination { has_more } } t: tasks { items { id } } } } }');
    expect(data.User.all[0]).toEqual({ tasks: { items: [], pagination: { has_more: true } }, t: { items: [{ id: 10 }, { id: 11 }] } });
  });

  it('rejects negative limit and offset with a clear error at the field', async () => {
    const result = await handler.execute('{ User { all(limit: 1) { id tasks(limit: -1) { items { id } } } } }');
    expect(result.errors![0]).toMatchObject({
      message: 'User.tasks: limit must be a non-negative integer, got -1',
      path: ['User', 'all', 0, 'tasks'],
      extensions: { code: 'BAD_USER_INPUT', argument: 'limit' },
    });
    const offset = await handler.execute('{ User { all(limit: 1) { tasks(offset: -5) { items { id } } } } }');
    expect(offset.errors![0]!.message).toBe('User.tasks: offset must be a non-negative integer, got -5');
  });

  it('asks the page loader for total_count only when it is selected', async () => {
    const query = (pagination: string) =>
      `{ Task { byIds(ids: [10, 11, 20]) { id comments(limit: 1) { items { id } ${pagination} } } } }`;
    const both = await ok(query('pagination { has_more total_count }'));
    expect(both.Task.byIds[0].comments).toEqual({ items: [{ id: 100 }], pagination: { has_more: true, total_count: 2 } });
    const hasMore = await ok(query('pagination { has_more }'));
    expect(hasMore.Task.byIds[0].comments.pagination).toEqual({ has_more: true });
    const total = await ok(query('p: pagination { n: total_count }'));
    expect(total.Task.byIds[2].comments.p).toEqual({ n: 2 });
    const none = await ok(query(''));
    expect(none.Task.byIds[1].comments).toEqual({ items: [{ id: 110 }] });
    const skipped = await ok(`query($t: Boolean!) { Task { byIds(ids: [10]) { comments { pagination { has_more total_count @include(if: $t) } } } } }`, { t: false });
    expect(skipped.Task.byIds[0].comments.pagination).toEqual({ has_more: false });
    expect(pageRequests.map((r) => r.withTotal)).toEqual([true, false, true, false, false]);
    expect(pageRequests[0]).toEqual({ limit: 1, offset: 0, withTotal: true });
    expect(callsOf('commentPages')).toEqual(['commentPages(3)', 'commentPages(3)', 'commentPages(3)', 'commentPages(3)', 'commentPages(1)']);
    expect(callsOf('commentsByTask')).toEqual([]);
  });

  it('propagates through many-to-one hops: task → owner → tasks → comments, one call per level', async () => {
    const ids = TASKS.slice(0, 60).map((t) => t.id);
    const data = await ok(`query($ids: [Int!]!) { Task { byIds(ids: $ids) { owner { tasks(limit: 1, offset: 2) { items { id comments(limit: 1) { items { body } pagination { total_count } } } pagination { has_more } } } } } }`, { ids });
    expect(data.Task.byIds[0].owner.tasks).toEqual({
      items: [{ id: 12, comments: { items: [{ body: 'c12' }], pagination: { total_count: 2 } } }],
      pagination: { has_more: false },
    });
    expect(calls).toEqual(['usersById(20)', 'tasksByOwner(20)', 'commentPages(20)']);
  });

  it('different windows of one page loader at one level are one call per window', async () => {
    await ok('{ Task { byIds(ids: [10, 11]) { a: comments(limit: 1) { items { id } } b: comments(limit: 1, offset: 1) { items { id } } } } }');
    expect(callsOf('commentPages')).toEqual(['commentPages(2)', 'commentPages(2)']);
    expect(pageRequests.map((r) => r.offset).sort()).toEqual([0, 1]);
  });
});
