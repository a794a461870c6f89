/** The relationships `buildRelationship` makes: built from SQL metadata, they know whether they can be paginated. */
import type { ErDiagram } from '../er/diagram.js';
import { ConfigError } from '../er/errors.js';
import { classLabel } from '../er/names.js';
import { Relationship, type FieldSelectingRelationship, type LoaderRef } from '../er/relationship.js';
import type { ListSource } from './queries.js';
import type { EdgeKind } from './relations.js';
import type { NormalizedOrder } from './types.js';

/** A relationship built from SQL metadata; knows whether it can be paginated. */
export class SqlRelationship extends Relationship implements FieldSelectingRelationship {
  readonly kind: EdgeKind;
  /** `'<tableKey>.<relationName>'` of the Drizzle relation (or of the many-to-many declaration). */
  readonly relation: string;
  readonly ordered: boolean;

  readonly loaderFor: (fields: readonly string[]) => LoaderRef;
  /**
   * Lists: where the rows come from, and the orders pages can take (`orderBy` as `default`,
   * then the target's profiles by name). `ergraph doctor` checks each has an index.
   */
  readonly listSource?: ListSource;
  readonly pageOrders: ReadonlyMap<string, NormalizedOrder>;

  constructor(
    options: Omit<ConstructorParameters<typeof Relationship>[0], 'loader'> & {
      kind: EdgeKind;
      relation: string;
      ordered: boolean;
      /** The loader reading every column, and the loader reading a sorted field list (plus keys). */
      loaders: { all: LoaderRef; loaderFor(fields: readonly string[]): LoaderRef };
      listSource?: ListSource;
      pageOrders?: ReadonlyMap<string, NormalizedOrder>;
    },
  ) {
    const { kind, relation, ordered, loaders, listSource, pageOrders, ...rest } = options;
    super({ ...rest, loader: loaders.all });
    this.kind = kind;
    this.relation = relation;
    this.ordered = ordered;
    this.loaderFor = loaders.loaderFor;
    this.listSource = listSource;
    this.pageOrders = pageOrders ?? new Map();
  }

  /**
   * Pages are only stable over a total order, so a list without `orderBy` cannot be paginated.
   * A handler with `enablePagination` calls this for every relationship at startup.
   */
  assertPaginable(where: string): void {
    if (this.ordered || this.kind === 'many-to-one' || this.kind === 'one-to-one') return;
    throw new ConfigError(
      `${where}: the ${this.kind} relation ${this.relation} has no orderBy, so it cannot be paginated; ` +
        `give buildRelationship an orderBy for '${this.relation}'`,
    );
  }
}

/** Throw `ConfigError` naming `Entity.relationship` for the first list relationship that cannot be paginated. */
export function assertPaginable(diagram: ErDiagram): void {
  for (const entity of diagram.entities) {
    for (const rel of entity.relationships) {
      if (rel instanceof SqlRelationship) rel.assertPaginable(`${classLabel(entity.kls)}.${rel.name}`);
    }
  }
}
