/**
 * End to end (issue 16.2): a method, a model field and a relationship deprecated through the v6
 * options are found by `deprecatedFields`, and every operation that selects them — over HTTP, MCP
 * or `execute` — is counted per client in the usage store, the way v5 fields are.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GraphQLHandler } from 'ergraph';
import { graphqlApp } from 'ergraph/http';
import {
  countDeprecatedUse, createCompatHandler, createUsageRecorder, deprecatedFields, memoryUsageStore, openUsageStore, retirementReport, type UsageRow,
} from 'ergraph/compat';
import { Base } from '../graphql/deprecated-domain.js';

const counts = (rows: UsageRow[]) =>
  Object.fromEntries([...rows].sort((a, b) => `${a.coordinate} ${a.client}`.localeCompare(`${b.coordinate} ${b.client}`)).map((r) => [`${r.coordinate} ${r.client}`, r.count]));

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('deprecated v6 fields in the usage store', () => {
  it('deprecatedFields finds what the v6 options declared', () => {
    const handler = new GraphQLHandler(Base.getDiagram());
    expect(deprecatedFields(handler.schema)).toEqual([
      { coordinate: 'User.fullName', replacement: 'Use name' },
      { coordinate: 'User.legacyCode', replacement: 'No longer supported' },
      { coordinate: 'User.todo', replacement: 'Use tasks' },
      { coordinate: 'UserQuery.byName', replacement: 'Use User.getAll' },
      { coordinate: 'UserMutation.retire', replacement: 'Use Task.archive' },
    ]);
  });

  it('counts each use per client, through graphqlApp and execute, into a durable store', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ergraph-deprecated-'));
    dirs.push(dir);
    const store = await openUsageStore(`pglite:${dir}`);
    const usage = createUsageRecorder(store);
    const handler = new GraphQLHandler(Base.getDiagram());
    countDeprecatedUse(handler, usage); // default: the client is `context.client`
    const app = graphqlApp(handler, { context: (c) => ({ client: c.req.header('x-client-name') }) });
    const post = (query: string, client: string) =>
      app.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', 'x-client-name': client }, body: JSON.stringify({ query }) });

    const res = await post('{ User { byName(name: "ann", exact: true) { fullName } } }', 'web');
    expect(await res.json()).toEqual({ data: { User: { byName: { fullName: 'Ann A.' } } }, errors: null });
    await post('{ User { byName(name: "bob") { name } } }', 'web');
    await post('{ User { getAll { id todo { title } } } }', 'ios');
    await post('{ User { getAll { id name } } }', 'ios'); // nothing deprecated: no row
    await post('{ User { nope } }', 'ios'); // invalid: never ran, not counted
    await handler.execute('mutation { User { retire(id: 1) } }', { context: { client: 'cron' } });
    await handler.execute('{ User { getAll { legacyCode } } }'); // no client: counted as unknown
    // Of a document with several operations, only the one that ran (and the fragments it spreads) counts.
    const several = 'query A { User { getAll { ...F } } } query B { User { byName(name: "ann") { fullName } } } fragment F on User { todo { title } }';
    await handler.execute(several, { operationName: 'A', context: { client: 'multi' } });
    await usage.close();

    const snapshot = await store.read('2000-01-01');
    expect(counts(snapshot.rows)).toEqual({
      'User.fullName web': 1,
      'User.legacyCode unknown': 1,
      'User.todo ios': 1,
      'User.todo multi': 1,
      'UserMutation.retire cron': 1,
      'UserQuery.byName web': 2,
      'UserQuery.byName.exact web': 1,
    });
    expect(snapshot.tracked.map((t) => t.coordinate).sort()).toEqual(['User.fullName', 'User.legacyCode', 'User.todo', 'UserMutation.retire', 'UserQuery.byName']);
    const report = await retirementReport(store);
    expect(report.fields.find((f) => f.coordinate === 'UserQuery.byName')).toMatchObject({ replacement: 'Use User.getAll', count: 2 });
    await store.close();
  });

  it('a v5 request reaching a deprecated v6 method is counted under the client the v5 request named', async () => {
    const store = memoryUsageStore();
    const usage = createUsageRecorder(store);
    const handler = new GraphQLHandler(Base.getDiagram());
    countDeprecatedUse(handler, usage);
    const compat = createCompatHandler(handler, { usage: createUsageRecorder(memoryUsageStore()) });
    const result = await compat.execute('{ userByName(name: "ann") { name } }', { client: 'legacy-web' });
    expect(result.errors).toBeNull();
    await usage.close();
    expect(counts((await store.read('2000-01-01')).rows)).toEqual({ 'UserQuery.byName legacy-web': 1 });
  });

  it('stops when told, and a failing observer never fails the request', async () => {
    const store = memoryUsageStore();
    const usage = createUsageRecorder(store);
    const logged: unknown[] = [];
    const handler = new GraphQLHandler(Base.getDiagram(), { onError: (error) => logged.push(error) });
    const stop = countDeprecatedUse(handler, usage, { client: (context) => String(context?.who) });
    await handler.execute('{ User { getAll { fullName } } }', { context: { who: 'a' } });
    stop();
    await handler.execute('{ User { getAll { fullName } } }', { context: { who: 'b' } });
    handler.onOperation(() => {
      throw new Error('observer broke');
    });
    expect(await handler.execute('{ User { getAll { name } } }')).toEqual({ data: { User: { getAll: [{ name: 'ann' }, { name: 'bob' }] } }, errors: null });
    expect(logged).toEqual([new Error('observer broke')]);
    await usage.close();
    expect(counts((await store.read('2000-01-01')).rows)).toEqual({ 'User.fullName a': 1 });
  });
});
