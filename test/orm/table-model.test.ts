import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { date, doublePrecision, jsonb, pgEnum, pgTable, real, serial, text, timestamp, varchar, integer, customType } from 'drizzle-orm/pg-core';
import { ConfigError, describeField, modelFields } from 'ergraph';
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
      extra: 'unknown?',
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
});
