/**
 * Reads a Drizzle schema module (tables + `relations(...)`) into plain edge descriptions:
 * which table points where, through which columns, and with which cardinality.
 */
import type { One, TablesRelationalConfig } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { core, getTableName, is, pgCore } from './drizzle.js';
import { ConfigError } from '../er/errors.js';

export type EdgeKind = 'many-to-one' | 'one-to-one' | 'one-to-many' | 'many-to-many';

export interface Edge {
  kind: EdgeKind;
  /** `<tableKey>.<relationName>`: how options address this edge. */
  id: string;
  name: string;
  source: PgTable;
  target: PgTable;
  /** Column of the source row whose value is the loader key. */
  sourceKey: PgColumn;
  /** Column of the target (or of the join table for many-to-many) matched against the keys. */
  targetKey: PgColumn;
  through?: { table: PgTable; targetKey: PgColumn; targetRef: PgColumn };
}

export interface SchemaTables {
  /** TypeScript key of each table in the schema module. */
  keyOf: Map<PgTable, string>;
  tables: PgTable[];
  edges: Edge[];
}

function single(columns: PgColumn[], id: string, side: string): PgColumn {
  if (columns.length !== 1) {
    throw new ConfigError(`Relation ${id}: ${columns.length}-column ${side} keys are not supported (one column per key)`);
  }
  return columns[0]!;
}

export function readSchema(schema: Record<string, unknown>): SchemaTables {
  const { createTableRelationsHelpers, extractTablesRelationalConfig, Many, normalizeRelation, One } = core();
  const { PgTable } = pgCore();
  const { tables, tableNamesMap } = extractTablesRelationalConfig<TablesRelationalConfig>(
    schema,
    createTableRelationsHelpers,
  );
  const keyOf = new Map<PgTable, string>();
  for (const value of Object.entries(schema)) {
    if (is(value[1], PgTable)) keyOf.set(value[1] as PgTable, value[0]);
  }
  const edges: Edge[] = [];
  for (const [tableKey, config] of Object.entries(tables)) {
    for (const [name, relation] of Object.entries(config.relations)) {
      const id = `${tableKey}.${name}`;
      let normalized;
      try {
        normalized = normalizeRelation(tables, tableNamesMap, relation);
      } catch (error) {
        throw new ConfigError(`Relation ${id}: ${(error as Error).message}`, { cause: error });
      }
      const sourceKey = single(normalized.fields as PgColumn[], id, 'source');
      const targetKey = single(normalized.references as PgColumn[], id, 'target');
      const kind: EdgeKind = is(relation, Many)
        ? 'one-to-many'
        : is(relation, One) && (relation as One).config
          ? 'many-to-one'
          : 'one-to-one';
      edges.push({
        kind,
        id,
        name,
        source: relation.sourceTable as PgTable,
        target: relation.referencedTable as PgTable,
        sourceKey,
        targetKey,
      });
    }
  }
  return { keyOf, tables: [...keyOf.keys()], edges };
}

export const tableLabel = (table: PgTable) => getTableName(table);
