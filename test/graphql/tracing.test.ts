/**
 * Tracing (issue 16 item 3): OpenTelemetry spans for the operation, each level and each loader
 * batch (with its key count), read back with the SDK's in-memory exporter; and the timings a
 * handler (`debug`) and a Resolver (`debug: true`) give when asked.
 */
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import DataLoader from 'dataloader';
import { baseEntity, configResolver, DefineSubset, GraphQLHandler, model, query, ref, Relationship } from 'ergraph';
import { diagram, Task, User } from './domain.js';

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  await provider.shutdown();
});
beforeEach(() => exporter.reset());

const parentOf = (span: ReadableSpan, spans: readonly ReadableSpan[]) =>
  spans.find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId);

const QUERY = 'query Owners { User { getAll(limit: 300) { tasks { owner { name } } } } }';

describe.each(['compiled', 'graphql-js'] as const)('spans on the %s executor', (executor) => {
  it('one span per operation, named after it, with every loader batch and its key count below', async () => {
    const handler = new GraphQLHandler(diagram, { executor });
    expect((await handler.execute(QUERY)).errors).toBeNull();
    const spans = exporter.getFinishedSpans();
    const operation = spans.find((s) => s.name === 'query Owners')!;
    expect(operation.attributes).toMatchObject({ 'graphql.operation.type': 'query', 'graphql.operation.name': 'Owners', 'ergraph.executor': executor });
    expect(operation.parentSpanContext).toBeUndefined();
    const batches = spans.filter((s) => s.name === 'ergraph.loader.batch');
    expect(batches.map((s) => [s.attributes['ergraph.loader'], s.attributes['ergraph.loader.keys']])).toEqual([
      ['tasksByOwner', 300],
      ['usersById', 300],
    ]);
    for (const batch of batches) expect(batch.spanContext().traceId).toBe(operation.spanContext().traceId);
  });
});

describe('class loaders', () => {
  it('a DataLoader subclass gets batch spans with its name and key count, like a function loader', async () => {
    class Person extends model({ id: z.int(), name: z.string() }) {}
    class PeopleById extends DataLoader<number, Person> {
      constructor() {
        super(async (keys) => keys.map((id) => new Person({ id, name: `p${id}` })));
      }
    }
    const Base = baseEntity();
    class Note extends model({ id: z.int(), personId: z.int() }) {
      static __relationships__ = [new Relationship({ fk: 'personId', target: Person, name: 'person', loader: PeopleById })];
      @query({ returns: () => [Note] })
      static async all() {
        return [1, 2, 3].map((id) => new Note({ id, personId: id }));
      }
    }
    Base.entity(Note, { name: 'Note' });
    Base.entity(Person, { name: 'Person' });
    const handler = new GraphQLHandler(Base.getDiagram(), { executor: 'compiled', debug: true });
    const result = await handler.execute('{ Note { all { id person { name } } } }');
    expect(result.errors).toBeNull();
    const batches = exporter.getFinishedSpans().filter((s) => s.name === 'ergraph.loader.batch');
    expect(batches.map((s) => [s.attributes['ergraph.loader'], s.attributes['ergraph.loader.keys']])).toEqual([['PeopleById', 3]]);
  });
});

describe('spans of the compiled executor', () => {
  it('levels under the operation, each batch under the level that sent it', async () => {
    const handler = new GraphQLHandler(diagram, { executor: 'compiled' });
    await handler.execute(QUERY);
    const spans = exporter.getFinishedSpans();
    const operation = spans.find((s) => s.name === 'query Owners')!;
    const levels = spans.filter((s) => s.name === 'ergraph.level');
    expect(levels.map((s) => [s.attributes['ergraph.level'], s.attributes['ergraph.level.fields'], parentOf(s, spans)?.name])).toEqual([
      [1, 1, 'query Owners'], // getAll
      [2, 300, 'query Owners'], // tasks of 300 users
      [3, 900, 'query Owners'], // owners of 900 tasks
    ]);
    const batches = spans.filter((s) => s.name === 'ergraph.loader.batch');
    expect(batches.map((s) => parentOf(s, spans)?.attributes['ergraph.level'])).toEqual([2, 3]);
    expect(operation.status.code).toBe(0);
  });

  it('a failing operation marks its span as an error', async () => {
    await new GraphQLHandler(diagram, { executor: 'compiled' }).execute('{ User { broken { id } } }');
    const operation = exporter.getFinishedSpans().find((s) => s.name === 'query')!;
    expect(operation.status).toMatchObject({ code: 2, message: 'database is down' });
    expect(operation.attributes['graphql.errors']).toBe(1);
  });
});

describe('timings when asked (compiled executor; graphql-js mode reports loaders only)', () => {
  it('a handler with debug returns per-level and per-loader timings in extensions', async () => {
    const handler = new GraphQLHandler(diagram, { debug: true, executor: 'compiled' });
    const result = await handler.execute(QUERY);
    const timings = result.extensions!.timings;
    expect(timings.levels.map((l) => [l.level, l.fields])).toEqual([
      [1, 1],
      [2, 300],
      [3, 900],
    ]);
    expect(timings.loaders).toEqual([
      { loader: 'tasksByOwner', batches: 1, keys: 300, ms: expect.any(Number) },
      { loader: 'usersById', batches: 1, keys: 300, ms: expect.any(Number) },
    ]);
    for (const t of [timings.ms, ...timings.levels.map((l) => l.ms), ...timings.loaders.map((l) => l.ms)]) expect(t).toBeGreaterThanOrEqual(0);
    // not asked: no extensions, the wire shape stays { data, errors }
    expect(Object.keys(await new GraphQLHandler(diagram).execute(QUERY))).toEqual(['data', 'errors']);
    expect((await handler.execute(QUERY, { debug: false })).extensions).toBeUndefined();
  });

  it('new Resolver({ debug: true }) keeps the timings of its last resolve', async () => {
    const Resolver = configResolver('TracedResolver', diagram);
    class TaskView extends DefineSubset(Task, ['id'], { owner: ref(() => User).nullable() }) {}
    class UserView extends DefineSubset(User, ['id'], { tasks: z.array(ref(() => TaskView)) }) {}
    const resolver = new Resolver({ debug: true });
    await resolver.resolve([1, 2, 3].map((id) => new UserView({ id, name: `user${id}`, email: null })));
    expect(resolver.timings!.levels.map((l) => [l.level, l.fields])).toEqual([
      [1, 3],
      [2, 9],
    ]);
    expect(resolver.timings!.loaders.map((l) => [l.loader, l.batches, l.keys])).toEqual([
      ['tasksByOwner', 1, 3],
      ['usersById', 1, 3],
    ]);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toContain('ergraph.resolve');
    expect(new Resolver().timings).toBeUndefined();
  });
});
