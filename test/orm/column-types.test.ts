/**
 * Columns whose values are not plain Int/Float/String: bigint in both Drizzle modes, json and
 * jsonb, uuid, varchar(n), and string-mode date/timestamp. Rows go in through GraphQL
 * arguments and come back through queries and relationship loaders, on both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relations, sql } from 'drizzle-orm';
import { bigint, bigserial, date, integer, json, jsonb, pgTable, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { Entity, ErDiagram, GraphQLHandler, MutationConfig, QueryConfig, ref } from 'ergraph';
import { AutoQueryConfig, buildRelationship, tableModel } from 'ergraph/orm';
import { databaseTargets, type TestDatabase } from './databases.js';

const accounts = pgTable('ct_accounts', {
  id: bigserial('id', { mode: 'bigint' }).primaryKey(),
  handle: varchar('handle', { length: 8 }).notNull(),
  settings: jsonb('settings').notNull(),
  raw: json('raw'),
  visits: bigint('visits', { mode: 'number' }).notNull(),
  joined: date('joined').notNull(),
  seenAt: timestamp('seen_at', { mode: 'string' }),
});
const events = pgTable('ct_events', {
  id: uuid('id').primaryKey(),
  accountId: bigint('account_id', { mode: 'bigint' }).notNull().references(() => accounts.id),
  seq: integer('seq').notNull(),
  payload: jsonb('payload').notNull(),
});
const accountsRelations = relations(accounts, ({ many }) => ({ events: many(events) }));
const eventsRelations = relations(events, ({ one }) => ({ account: one(accounts, { fields: [events.accountId], references: [accounts.id] }) }));
const schema = { accounts, events, accountsRelations, eventsRelations };

const DDL = `
CREATE TABLE ct_accounts (
  id bigserial PRIMARY KEY, handle varchar(8) NOT NULL, settings jsonb NOT NULL, raw json, visits bigint NOT NULL,
  joined date NOT NULL, seen_at timestamp
);
CREATE TABLE ct_events (id uuid PRIMARY KEY, account_id bigint NOT NULL REFERENCES ct_accounts(id), seq integer NOT NULL, payload jsonb NOT NULL);
`;
/** 2^53 + 1: a JavaScript number cannot hold it, so every hop must keep it a bigint or a string. */
const BIG = '9007199254740993';
const SEED = `
INSERT INTO ct_accounts (id, handle, settings, raw, visits, joined, seen_at) VALUES
  (${BIG}, 'big', '{"theme": "dark", "tags": ["a", "b"], "limits": {"n": 2.5}}', '[1, "x", null]', 3000000, '2024-02-29', '2024-05-01 12:30:00'),
  (2, 'nulljs', 'null', NULL, 0, '1999-12-31', NULL);
INSERT INTO ct_events (id, account_id, seq, payload) VALUES
  ('00000000-0000-0000-0000-000000000001', ${BIG}, 2, '{"kind": "login"}'),
  ('00000000-0000-0000-0000-000000000002', ${BIG}, 1, '{"kind": "signup", "via": ["web"]}'),
  ('c0ffee00-1234-4abc-8def-0123456789ab', 2, 1, '[]');
`;

class Account extends tableModel(accounts) {}
class Event extends tableModel(events) {}

const targets = await databaseTargets();

describe.each(targets)('json, bigint, uuid, varchar and string dates on $name', (target) => {
  let t: TestDatabase;
  let handler: GraphQLHandler;

  beforeAll(async () => {
    t = await target.open();
    await t.exec(DDL);
    await t.exec(SEED);
    // Keep the serial clear of the seeded ids.
    await t.exec(`SELECT setval('ct_accounts_id_seq', 100)`);
    const entities = buildRelationship({ db: t.db, schema, models: [Account, Event], orderBy: { 'accounts.events': events.seq }, defaultPageSize: 10 });
    const decorated = entities.map((e) =>
      e.kls !== Account
        ? e
        : new Entity({
            kls: Account,
            relationships: e.relationships,
            queries: [
              new QueryConfig({
                name: 'withSettings',
                description: 'Accounts whose settings contain the given JSON (jsonb @>)',
                args: { match: z.json() },
                returns: () => [Account],
                method: async ({ match }: { match: unknown }) => {
                  const rows = await t.db.select().from(accounts).where(sql`${accounts.settings} @> ${JSON.stringify(match)}::jsonb`).orderBy(accounts.id);
                  return rows.map((r) => new Account(r));
                },
              }),
            ],
            mutations: [
              new MutationConfig({
                name: 'create',
                args: {
                  handle: Account.shape.handle,
                  settings: Account.shape.settings,
                  raw: Account.shape.raw.optional(),
                  visits: Account.shape.visits,
                  joined: Account.shape.joined,
                  id: Account.shape.id.optional(),
                },
                returns: () => ref(() => Account),
                method: async (args: typeof accounts.$inferInsert) => {
                  const [row] = await t.db.insert(accounts).values(args).returning();
                  return new Account(row!);
                },
              }),
            ],
          }),
    );
    handler = new GraphQLHandler(new ErDiagram({ entities: decorated }), {
      enablePagination: true,
      base: schema,
      sessionFactory: () => t.db,
      autoQueryConfig: new AutoQueryConfig(),
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('declares BigInt, JSON and ID in the schema, and the id argument of byId by the key type', () => {
    const type = (name: string) => handler.schema.getType(name) as unknown as { getFields(): Record<string, { type: unknown; args?: { name: string; type: unknown }[] }> };
    const fields = (name: string) => Object.fromEntries(Object.entries(type(name).getFields()).map(([k, f]) => [k, String(f.type)]));
    expect(fields('Account')).toMatchObject({
      id: 'BigInt!', handle: 'String!', settings: 'JSON', raw: 'JSON', visits: 'Int!', joined: 'String!', seenAt: 'String', events: 'EventResult!',
    });
    expect(fields('Event')).toMatchObject({ id: 'ID!', accountId: 'BigInt!', payload: 'JSON', account: 'Account' });
    const byId = (group: string) => String(type(group).getFields().byId!.args!.find((a) => a.name === 'id')!.type);
    expect(byId('AccountQuery')).toBe('BigInt!');
    expect(byId('EventQuery')).toBe('ID!');
  });

  it('returns a bigint past 2^53 exactly, JSON documents as JSON, and string dates untouched, through nested loaders', async () => {
    t.reset();
    const result = await handler.execute(
      `query($id: BigInt!) { Account { byId(id: $id) {
        id handle settings raw visits joined seenAt
        events { items { id seq payload account { id handle } } pagination { has_more } }
      } } }`,
      { variables: { id: BIG } },
    );
    expect(result.errors).toBeNull();
    expect(result.data).toEqual({
      Account: {
        byId: {
          id: BIG,
          handle: 'big',
          settings: { theme: 'dark', tags: ['a', 'b'], limits: { n: 2.5 } },
          raw: [1, 'x', null],
          visits: 3_000_000,
          joined: '2024-02-29',
          seenAt: '2024-05-01 12:30:00',
          events: {
            items: [
              { id: '00000000-0000-0000-0000-000000000002', seq: 1, payload: { kind: 'signup', via: ['web'] }, account: { id: BIG, handle: 'big' } },
              { id: '00000000-0000-0000-0000-000000000001', seq: 2, payload: { kind: 'login' }, account: { id: BIG, handle: 'big' } },
            ],
            pagination: { has_more: false },
          },
        },
      },
    });
    expect(t.statements).toHaveLength(3); // byId, the events page, the accounts of the events
  });

  it('looks rows up by a uuid and by a bigint written as an integer literal; a JSON null comes back as null', async () => {
    const result = await handler.execute(`{
      Event { byId(id: "c0ffee00-1234-4abc-8def-0123456789ab") { payload account { id settings raw seenAt } } }
      Account { byId(id: 2) { handle settings } }
    }`);
    expect(result).toEqual({
      data: {
        Event: { byId: { payload: [], account: { id: '2', settings: null, raw: null, seenAt: null } } },
        Account: { byId: { handle: 'nulljs', settings: null } },
      },
      errors: null,
    });
  });

  it('passes JSON arguments from literals and variables to SQL', async () => {
    const literal = await handler.execute('{ Account { withSettings(match: { tags: ["b"] }) { id } } }');
    expect(literal).toEqual({ data: { Account: { withSettings: [{ id: BIG }] } }, errors: null });
    const variable = await handler.execute('query($m: JSON) { Account { withSettings(match: $m) { handle } } }', { variables: { m: { limits: { n: 2.5 } } } });
    expect(variable).toEqual({ data: { Account: { withSettings: [{ handle: 'big' }] } }, errors: null });
    const none = await handler.execute('{ Account { withSettings(match: { theme: "light" }) { id } } }');
    expect(none).toEqual({ data: { Account: { withSettings: [] } }, errors: null });
  });

  it('inserts rows from GraphQL arguments and reads them back the same', async () => {
    const create = await handler.execute(
      `mutation($settings: JSON, $visits: Int!) { Account {
        a: create(handle: "ada", settings: $settings, raw: { list: [1, 2] }, visits: $visits, joined: "2024-01-15") { id handle settings raw visits joined }
        b: create(id: "9223372036854775807", handle: "max", settings: [], visits: 1, joined: "2000-01-01") { id }
      } }`,
      { variables: { settings: { theme: 'light', nested: { deep: [true, null] } }, visits: 2_000_000_000 } },
    );
    expect(create.errors).toBeNull();
    const { a, b } = (create.data!.Account as { a: Record<string, unknown>; b: { id: string } });
    expect(a).toEqual({ id: '101', handle: 'ada', settings: { theme: 'light', nested: { deep: [true, null] } }, raw: { list: [1, 2] }, visits: 2_000_000_000, joined: '2024-01-15' });
    expect(b).toEqual({ id: '9223372036854775807' }); // the largest bigint PostgreSQL holds
    const back = await handler.execute('query($id: BigInt!) { Account { byId(id: $id) { handle settings } } }', { variables: { id: a.id } });
    expect(back).toEqual({ data: { Account: { byId: { handle: 'ada', settings: { theme: 'light', nested: { deep: [true, null] } } } } }, errors: null });
    const withMatch = await handler.execute('{ Account { withSettings(match: { nested: { deep: [true] } }) { handle } } }');
    expect(withMatch.data).toEqual({ Account: { withSettings: [{ handle: 'ada' }] } });
  });

  it('refuses a handle longer than varchar(8) before any SQL runs, naming the argument', async () => {
    t.reset();
    const result = await handler.execute('mutation { Account { create(handle: "far too long", settings: {}, visits: 1, joined: "2024-01-01") { id } } }');
    expect(result.errors![0]).toMatchObject({ path: ['Account', 'create'], extensions: { code: 'BAD_USER_INPUT', issues: [{ path: ['handle'], code: 'too_big' }] } });
    expect(t.statements).toHaveLength(0);
  });
});
