import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  bigint, bigserial, char, customType, date, doublePrecision, integer, interval, json, jsonb, numeric, pgEnum, pgTable, real, serial, text, time, timestamp, uuid, varchar,
} from 'drizzle-orm/pg-core';
import { GraphQLBoolean, GraphQLFloat, GraphQLID, GraphQLInt, GraphQLString } from 'graphql';
import { ConfigError, describeField, GraphQLDateTime, modelFields } from 'ergraph';
import { scalarFor } from '../../src/graphql/scalars.js';
import { tableModel, tableOf } from 'ergraph/orm';

const mood = pgEnum('table_model_mood', ['happy', 'sad']);
const things = pgTable('odd_things', {
  id: serial('id').primaryKey(),
  count: integer('count').notNull(),
  ratio: real('ratio').notNull(),
  weight: doublePrecision('weight'),
  label: varchar('label', { length: 20 }).notNull(),
  size: text('size', { enum: ['s', 'm', 'l'] }),
  mood: mood('mood').notNull(),
  at: timestamp('at').notNull(),
  day: date('day', { mode: 'date' }),
  extra: jsonb('extra'),
});

const kind = (schema: z.ZodType) => {
  const info = describeField(schema);
  return `${(info.base as unknown as { _zod: { def: { type: string; check?: string } } })._zod.def.type}${info.nullable ? '?' : ''}`;
};

describe('tableModel', () => {
  const Thing = tableModel(things);

  it('maps column types to zod types, keyed by TypeScript column keys, nullable columns nullable', () => {
    expect(Object.fromEntries(modelFields(Thing).map((f) => [f.key, kind(f.info.schema)]))).toEqual({
      id: 'number',
      count: 'number',
      ratio: 'number',
      weight: 'number?',
      label: 'string',
      size: 'enum?',
      mood: 'enum',
      at: 'date',
      day: 'date?',
      extra: 'union?', // z.json(): a lazy union of the JSON value kinds
    });
    expect(Thing.shape.id.safeParse(1.5).success).toBe(false); // serial is an integer
    expect(Thing.shape.ratio.safeParse(1.5).success).toBe(true);
  });

  it('names enums for GraphQL: the pgEnum name, or table + column for text enums', () => {
    expect(z.globalRegistry.get(describeField(Thing.shape.mood).base)?.id).toBe('TableModelMood');
    expect(z.globalRegistry.get(describeField(Thing.shape.size).base)?.id).toBe('OddThingsSize');
    expect(Thing.shape.mood.safeParse('sad').success).toBe(true);
    expect(Thing.shape.mood.safeParse('angry').success).toBe(false);
  });

  it('makes one class per table, and remembers the table of every class extending it', () => {
    expect(tableModel(things)).toBe(Thing);
    expect(Thing.name).toBe('OddThings');
    class Special extends Thing {}
    expect(tableOf(Special)).toBe(things);
    expect(new Special({ id: 1, count: 2 }).count).toBe(2);
  });

  it('refuses columns it has no type for, naming the column', () => {
    const point = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
    const blobs = pgTable('blobs', { id: serial('id').primaryKey(), data: point('data') });
    expect(() => tableModel(blobs)).toThrow(ConfigError);
    expect(() => tableModel(blobs)).toThrow(/blobs\.data/);
  });

  it('maps bigint by its Drizzle mode, json/jsonb to JSON, uuid to ID, varchar/char lengths to max, string-mode dates to String', () => {
    const wide = pgTable('table_model_wide', {
      small: bigint('small', { mode: 'number' }).notNull(),
      huge: bigint('huge', { mode: 'bigint' }).notNull(),
      seq: bigserial('seq', { mode: 'bigint' }),
      seq53: bigserial('seq53', { mode: 'number' }),
      doc: json('doc').notNull(),
      docb: jsonb('docb'),
      key: uuid('key').notNull(),
      code: char('code', { length: 3 }).notNull(),
      name: varchar('name', { length: 5 }).notNull(),
      free: varchar('free').notNull(),
      day: date('day').notNull(),
      dayAsDate: date('day_as_date', { mode: 'date' }).notNull(),
      at: timestamp('at', { mode: 'string' }).notNull(),
      atTz: timestamp('at_tz', { withTimezone: true }).notNull(),
      clock: time('clock').notNull(),
      span: interval('span').notNull(),
      amount: numeric('amount', { mode: 'number' }).notNull(),
      exact: numeric('exact', { mode: 'bigint' }).notNull(),
      flag: text('flag').notNull(),
      ratio: real('ratio').notNull(),
      n: integer('n').notNull(),
    });
    const Wide = tableModel(wide);
    const graphql = Object.fromEntries(
      modelFields(Wide).map((f) => {
        const info = describeField(f.info.schema);
        return [f.key, `${String(scalarFor(info.base))}${info.nullable ? '?' : ''}`];
      }),
    );
    expect(graphql).toEqual({
      small: 'Int', huge: 'BigInt', seq: 'BigInt', seq53: 'Int', doc: 'JSON', docb: 'JSON?', key: 'ID', code: 'String', name: 'String',
      free: 'String', day: 'String', dayAsDate: 'DateTime', at: 'String', atTz: 'DateTime', clock: 'String', span: 'String',
      amount: 'Float', exact: 'BigInt', flag: 'String', ratio: 'Float', n: 'Int',
    });
    // The leaves are the shared graphql-js / ergraph instances, not look-alikes.
    expect(scalarFor(describeField(Wide.shape.key).base)).toBe(GraphQLID);
    expect(scalarFor(describeField(Wide.shape.small).base)).toBe(GraphQLInt);
    expect(scalarFor(describeField(Wide.shape.atTz).base)).toBe(GraphQLDateTime);
    expect([GraphQLString, GraphQLFloat, GraphQLBoolean]).toContain(scalarFor(describeField(Wide.shape.flag).base));

    const s = Wide.shape;
    expect(s.name.safeParse('abcde').success).toBe(true);
    expect(s.name.safeParse('abcdef').success).toBe(false); // varchar(5)
    expect(s.code.safeParse('abcd').success).toBe(false); // char(3)
    expect(s.free.safeParse('x'.repeat(10_000)).success).toBe(true); // varchar without a length
    expect(s.huge.safeParse(2n ** 63n - 1n).success).toBe(true);
    expect(s.huge.safeParse(1).success).toBe(false);
    expect(s.small.safeParse(2 ** 53).success).toBe(false); // number mode: safe integers only
    expect(s.doc.safeParse({ a: [1, null, 'x'] }).success).toBe(true);
    expect(s.doc.safeParse(null).success).toBe(true); // a JSON null stored in a NOT NULL column
    expect(s.doc.safeParse(new Date()).success).toBe(false);
    // PostgreSQL accepts any 8-4-4-4-12 hex value, including ones without RFC version bits.
    expect(s.key.safeParse('00000000-0000-0000-0000-000000000001').success).toBe(true);
    expect(s.key.safeParse('not-a-uuid').success).toBe(false);
    expect(s.day.safeParse('2024-05-01').success).toBe(true);
  });
});
