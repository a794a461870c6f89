/**
 * One OpenTelemetry span per SQL statement of the ORM integration (issue 16.3), recorded with
 * the SDK's in-memory exporter: named `SELECT <table>`, the statement text without parameter
 * values, the row count, nested under whatever span is active when the loader batch runs (the
 * executor's loader-batch span), and an error kind without the failing query's parameters.
 */
import { context, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { relations } from 'drizzle-orm';
import { integer, pgTable, serial } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ErDiagram, GraphQLHandler, type Page } from 'ergraph';
import { AutoQueryConfig, buildRelationship, SqlRelationship, tableModel } from 'ergraph/orm';
import { databaseTargets, type TestDatabase } from './databases.js';
import { DDL, schema, seedSql, taskRows, tasks, users } from './fixture.js';

class User extends tableModel(users) {}
class Task extends tableModel(tasks) {}

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const contextManager = new AsyncLocalStorageContextManager().enable();
let tracer: Tracer;

beforeAll(() => {
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  tracer = trace.getTracer('ergraph-test');
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

const sqlSpans = () => exporter.getFinishedSpans().filter((s) => s.instrumentationScope.name === 'ergraph' && s.name.startsWith('SELECT '));
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

const targets = await databaseTargets();

describe.each(targets)('SQL statement spans on $name', (target) => {
  let t: TestDatabase;
  let rel: (name: string) => SqlRelationship;
  let handler: GraphQLHandler;

  beforeAll(async () => {
    t = await target.open();
    await t.exec(DDL);
    await t.exec(seedSql());
    const entities = buildRelationship({ db: t.db, schema, models: [User, Task], orderBy: { 'users.tasks': tasks.rank, 'users.reviews': tasks.id } });
    rel = (name) => entities.flatMap((e) => e.relationships).find((r) => r.name === name) as SqlRelationship;
    handler = new GraphQLHandler(new ErDiagram({ entities }), {
      enablePagination: true,
      base: schema,
      sessionFactory: () => t.db,
      autoQueryConfig: new AutoQueryConfig(),
    });
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => exporter.reset());

  it('records each statement under the active loader-batch span: text without values, and the row count', async () => {
    const keys = [5, 1, 987_654];
    const pages = (await tracer.startActiveSpan('loader batch users.tasks', async (batch) => {
      try {
        return await rel('tasks').pageLoader!(keys, { limit: 2, offset: 0, withTotal: true });
      } finally {
        batch.end();
      }
    })) as Page<Task>[];
    const batch = exporter.getFinishedSpans().find((s) => s.name === 'loader batch users.tasks')!;
    const [span, ...more] = sqlSpans();
    expect(more).toEqual([]);
    expect(span!.name).toBe('SELECT tasks');
    expect(parentOf(span!)).toBe(batch.spanContext().spanId);
    expect(span!.spanContext().traceId).toBe(batch.spanContext().traceId);
    const text = span!.attributes['db.query.text'] as string;
    expect(text).toMatch(/unnest\(\$1::integer\[\]\).*lateral/s);
    expect(text).not.toMatch(/987654|987_654/); // the keys travel as a parameter, not in the text
    const rows = pages.reduce((n, p) => n + Math.max(p.items.length, 1) + (p.hasMore ? 1 : 0), 0);
    expect(span!.attributes).toMatchObject({
      'db.system.name': 'postgresql',
      'db.operation.name': 'SELECT',
      'db.collection.name': 'tasks',
      'db.response.returned_rows': rows,
      'ergraph.loader': 'users.tasks (page)',
    });
  });

  it('gives every statement of a GraphQL request a span in the request trace', async () => {
    const result = await tracer.startActiveSpan('request', async (root) => {
      try {
        return await handler.execute('{ User { getAll(limit: 3) { id tasks(limit: 2) { items { title owner { name } } } } } }');
      } finally {
        root.end();
      }
    });
    expect(result.errors).toBeNull();
    const root = exporter.getFinishedSpans().find((s) => s.name === 'request')!;
    const spans = sqlSpans();
    // getAll is a root query (no loader span); then the tasks page and the owners, one statement each
    expect(spans.map((s) => [s.name, s.attributes['ergraph.loader'] ?? null])).toEqual([
      ['SELECT users', null],
      ['SELECT tasks', 'users.tasks (page)'],
      ['SELECT users', 'tasks.owner (by users.id)'],
    ]);
    for (const span of spans) expect(span.spanContext().traceId).toBe(root.spanContext().traceId);
    const ownerRows = new Set(taskRows().filter((x) => [1, 2, 3].includes(x.ownerId)).map((x) => x.ownerId)).size;
    expect(spans[2]!.attributes['db.response.returned_rows']).toBe(ownerRows);
  });

  it('marks a failed statement with its error kind, without the parameters', async () => {
    // A relationship to a table the database does not have: its statement fails.
    const ghosts = pgTable('ghosts', { id: serial('id').primaryKey(), userId: integer('user_id').notNull() });
    const ghostSchema = {
      users,
      ghosts,
      usersGhosts: relations(users, ({ many }) => ({ ghosts: many(ghosts) })),
      ghostsUser: relations(ghosts, ({ one }) => ({ user: one(users, { fields: [ghosts.userId], references: [users.id] }) })),
    };
    const entities = buildRelationship({ db: t.db, schema: ghostSchema, models: [User, tableModel(ghosts)] });
    const ghostsOf = entities.flatMap((e) => e.relationships).find((r) => r.name === 'ghosts')!;
    await expect((ghostsOf.loader as unknown as (keys: number[]) => Promise<unknown>)([424_242])).rejects.toThrow(/ghosts/);
    const [span] = sqlSpans();
    expect(span!.name).toBe('SELECT ghosts');
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: '42P01' }); // undefined_table
    expect(span!.attributes['error.type']).toBe('42P01');
    expect(JSON.stringify([span!.attributes, span!.status, span!.events])).not.toMatch(/424242/);
  });
});
