/**
 * Edges of other kinds than `Relationship` among an entity's `__relationships__` (federation's
 * `RemoteRelationship`): the diagram skips them, but they describe themselves through this
 * symbol so the ER picture can draw them without the ER layer knowing their module.
 */
export const DESCRIBE_EDGE: unique symbol = Symbol.for('ergraph.describeEdge') as never;

/** An edge to an entity of another service. */
export interface ForeignEdge {
  name: string;
  fk: string;
  /** The service that owns the target (a federation member). */
  service: string;
  /** The target's name inside that service. */
  target: string;
  /** The target's key the fk is matched against. */
  joinKey: string;
  list: boolean;
  paginated: boolean;
  description?: string;
}

export interface DescribedEdge {
  [DESCRIBE_EDGE](): ForeignEdge;
}

export const isDescribedEdge = (value: unknown): value is DescribedEdge =>
  !!value && typeof value === 'object' && typeof (value as Partial<DescribedEdge>)[DESCRIBE_EDGE] === 'function';
