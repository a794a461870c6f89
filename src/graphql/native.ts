/**
 * What the compiled executor knows about the fields ergraph builds itself. Each such field
 * carries one of these in `extensions.ergraph`; the graphql-js resolver of the same field is
 * written over the same functions, so both executors load, check and shape values alike.
 * Fields without it (federation's, other contributions) run through their `resolve`.
 */
import type DataLoader from 'dataloader';
import type { GraphQLField, GraphQLResolveInfo } from 'graphql';
import type { Relationship } from '../er/relationship.js';
import type { Narrow } from './levels.js';
import type { Run } from './run.js';

/** What a load field reads from its selection. Computed once per compiled plan. */
export interface FieldSelection {
  /** Whether the selection reaches `path` (field names; fragments flattened, `@skip`/`@include` applied). */
  selects(path: readonly string[]): boolean;
  /**
   * Field names the selection reads at `path` below the field (`[]`: on the field's own type;
   * `['items']`: on the items of a page). The seam for column pruning: a SQL loader needs these
   * columns, plus the keys its relationships use.
   */
  fieldsAt(path: readonly string[]): ReadonlySet<string>;
}

/** Where one run gets the values of a load field, for one set of argument values. */
export interface LoadSource {
  loader: DataLoader<unknown, unknown>;
  /** What the loader's `null` (or `undefined`) for a key stands for. */
  missing: unknown;
  /** The field's value from the loaded one (a page from a list, for instance). */
  finish?: (value: unknown) => unknown;
  /**
   * Column pruning (narrow.ts): the target fields this field's selection reads, and the loader
   * for a union of such lists. Both executors union the lists per loader per level.
   */
  narrow?: Narrow;
}

export type NativeField =
  /** A root group (`Query.User`); its value carries no data. Mutation groups run their methods serially. */
  | { kind: 'group'; mutation: boolean }
  /** A query/mutation method: arguments checked, the method called, response models resolved. */
  | {
      kind: 'operation';
      /** `stable`: `rawArgs` is a plan's own (literal arguments), the same object on every run. */
      invoke(rawArgs: Record<string, unknown>, run: Run, stable?: boolean): Promise<unknown>;
    }
  /** A relationship field, plain or paginated: one key of the parent, loaded with every key of the level. */
  | {
      kind: 'load';
      relationship: Relationship;
      /** The value for a parent without a key (null FK). */
      empty(): unknown;
      /**
       * Once per field and run (`info`: the field's, for any parent). May throw (bad page
       * arguments): then every parent's field fails with that error.
       */
      source(run: Run, args: Record<string, unknown>, selection: FieldSelection, info: GraphQLResolveInfo): LoadSource;
    };

export const nativeExtensions = (native: NativeField) => ({ ergraph: native });

export function nativeOf(field: GraphQLField<unknown, unknown>): NativeField | undefined {
  return (field.extensions as { ergraph?: NativeField } | undefined)?.ergraph;
}
