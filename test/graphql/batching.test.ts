/**
 * The guarantee: one loader call per relationship per tree level, for any query shape. The
 * `reviews` loader is slower than `tasks` on purpose: with plain DataLoader resolvers the
 * comments under each branch would be batched separately.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { calls, callsOf, diagram, TASKS, USERS } from './domain.js';

const handler = new GraphQLHandler(diagram);
beforeEach(() => {
  calls.length = 0;
});

const ok = async (query: string, variables?: Record<string, unknown>) => {
  const result = await handler.execute(query, { variables });
  expect(result.errors).toBeNull();
  return result.data as Record<string, any>;
};

describe('one loader call per relationship per level', () => {
  it('300 parents, 3 levels, mixed single and list relationships', async () => {
    const data = await ok(`{ User { getAll(limit: 300) { id
      tasks { id owner { id } comments { id author { name } task { title } } }
    } } }`);
    const users = data.User.getAll;
    expect(users).toHaveLength(300);
    expect(users[4].tasks).toHaveLength(3);
    expect(users[4].tasks[1].comments[0]).toEqual({ id: 510, author: { name: 'user7' }, task: { title: 't5.1' } });
    expect(calls).toEqual([
      'tasksByOwner(300)', // level 3
      'usersById(300)', // level 4: owner
      'commentsByTask(900)', // level 4
      'tasksById(900)', // level 5: comment.task; comment.author hits the level-4 cache
    ]);
  });

  it('the same relationship reached from two branches that finish at different times', async () => {
    // Users 1, 5, 9, ...: the tasks they own and the tasks they review are disjoint (the
    // reviewer of a task is its owner + 1..3), so the late branch brings keys of its own and the
    // DataLoader cache cannot hide a second call.
    const ids = Array.from({ length: 25 }, (_, i) => 1 + 4 * i);
    const owned = new Set(TASKS.filter((t) => ids.includes(t.ownerId)).map((t) => t.id));
    const reviewed = new Set(TASKS.filter((t) => ids.includes(t.reviewerId)).map((t) => t.id));
    expect(owned.size).toBe(75);
    expect(reviewed.size).toBe(75);
    expect([...reviewed].filter((id) => owned.has(id))).toEqual([]);
    const data = await ok(`{ User { ${ids.map((id) => `u${id}: byId(id: ${id}) { tasks { comments { id } } reviews { comments { id } } }`).join(' ')} } }`);
    expect(data.User.u5.reviews.map((t: { comments: { id: number }[] }) => t.comments[0]!.id)).toEqual([220, 310, 400]) // tasks 22, 31, 40: owners 2, 3, 4;
    expect(callsOf('tasksByOwner')).toEqual(['tasksByOwner(25)']);
    expect(callsOf('tasksByReviewer')).toEqual(['tasksByReviewer(25)']);
    // both branches' comments in one call, though `reviews` resolved three event-loop turns later
    expect(callsOf('commentsByTask')).toEqual(['commentsByTask(150)']);
  });

  it('two root groups meeting at the same level share the call', async () => {
    const ids = TASKS.slice(0, 50).map((t) => t.id);
    await ok(`query($ids: [Int!]!) {
      User { getAll(limit: 100) { tasks { owner { name } } } }
      Task { byIds(ids: $ids) { comments { author { name } } } }
    }`, { ids });
    expect(callsOf('tasksByOwner')).toHaveLength(1);
    expect(callsOf('commentsByTask')).toHaveLength(1);
    // level 4: the owners of the users' tasks and the authors of the tasks' comments
    expect(callsOf('usersById')).toHaveLength(1);
  });

  it('aliases, fragments, inline fragments, variables and @skip/@include', async () => {
    const query = `query($deep: Boolean!, $n: Int!) {
      User {
        a: getAll(limit: $n) { ...Tasks }
        b: getAll(offset: 150, limit: 150) { id ... on User { tasks @include(if: $deep) { reviewer { id } c: comments { id } } } }
        c: byId(id: 7) { tasks @skip(if: $deep) { id } }
      }
    }
    fragment Tasks on User { tasks { id owner { ...Name } comments { author { ...Name } } } }
    fragment Name on User { name }`;
    const data = await ok(query, { deep: true, n: 150 });
    expect(data.User.a).toHaveLength(150);
    expect(data.User.b[0].tasks[0].c).toHaveLength(2);
    expect(data.User.c).toEqual({});
    expect(callsOf('tasksByOwner')).toEqual(['tasksByOwner(300)']);
    expect(callsOf('commentsByTask')).toEqual(['commentsByTask(900)']);
    // level 4: owners (a) and reviewers (b) together; level 5: the one comment author not cached yet
    expect(callsOf('usersById')).toEqual(['usersById(299)', 'usersById(1)']);
    calls.length = 0;
    const shallow = await ok(query, { deep: false, n: 10 });
    expect(shallow.User.c.tasks).toHaveLength(3);
    expect(callsOf('tasksByOwner')).toEqual(['tasksByOwner(10)']); // users 1-10 of a, and c's user 7 deduplicated
  });

  it('serves each user their own tasks (batching keeps keys apart)', async () => {
    const data = await ok('{ User { getAll(limit: 300) { id tasks { ownerId } } } }');
    for (const user of data.User.getAll) for (const task of user.tasks) expect(task.ownerId).toBe(user.id);
    expect(data.User.getAll).toHaveLength(USERS.length);
  });

  it('a failing loader errors its fields only and does not stall other levels', async () => {
    const { Entity, ErDiagram, model, QueryConfig, Relationship } = await import('ergraph');
    const { z } = await import('zod');
    class Leaf extends model({ id: z.int() }) {}
    class Root extends model({ id: z.int() }) {
      static list = new QueryConfig({ name: 'list', returns: z.array(z.any()).transform((x) => x) as never, method: async () => [] });
    }
    const logged: Array<[unknown, string]> = [];
    const failing = new Relationship({
      fk: 'id',
      target: () => Leaf,
      name: 'leaf',
      loader: async () => {
        throw new Error('leaf store offline');
      },
    });
    const h = new GraphQLHandler(
      new ErDiagram({
        entities: [
          new Entity({
            kls: Root,
            relationships: [failing],
            queries: [new QueryConfig({ name: 'all', returns: z.array((await import('ergraph')).ref(() => Root)), method: async () => [new Root({ id: 1 }), new Root({ id: 2 })] })],
          }),
          new Entity({ kls: Leaf }),
        ],
      }),
      { onError: (error, id) => logged.push([error, id]) },
    );
    const result = await h.execute('{ Root { all { id leaf { id } } } }');
    expect(result.data).toEqual({ Root: { all: [{ id: 1, leaf: null }, { id: 2, leaf: null }] } });
    // The loader's own text goes to the server's log (onError); clients get an id (issue 13.4).
    expect(result.errors!.map((e) => [e.message.replace(/error id \w+/, 'error id …'), e.path])).toEqual([
      ['Internal server error (error id …)', ['Root', 'all', 0, 'leaf']],
      ['Internal server error (error id …)', ['Root', 'all', 1, 'leaf']],
    ]);
    expect(logged.map(([error, id]) => [(error as Error).message, `Internal server error (error id ${id})`])).toEqual(
      result.errors!.map((e) => ['leaf store offline', e.message]),
    );
  });
});
