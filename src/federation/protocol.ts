/**
 * Wire shapes of the `/ergraph/` endpoints (documented in docs/federation.md). Every payload
 * carries `protocol`; a mounter refuses a member speaking another version.
 */
export const PROTOCOL = 'ergraph-federation/1';
export const ER_INTROSPECTION_PATH = '/ergraph/er-introspection';
export const DTO_INTROSPECTION_PATH = '/ergraph/dto-introspection';
export const DTO_BATCH_PATH = '/ergraph/dto-batch';

/** A field of a published type: its GraphQL type as SDL text (`Int!`, `[Review!]!`). */
export interface FieldDescription {
  name: string;
  type: string;
  args?: { name: string; type: string }[];
}

export interface OrderProfileDescription {
  name: string;
  column: string;
  direction: 'ASC' | 'DESC';
  nulls: 'FIRST' | 'LAST';
}

export interface KeyDescription {
  field: string;
  /** Named scalar type of the key (`Int`, `String`, ...). */
  type: string;
  /** `by_<key>_in` inside the entity's `<Entity>Query` group. */
  root: string;
  /** `page_by_<key>_in`, when the entity publishes order profiles. */
  pageRoot: string | null;
}

export interface RelationshipDescription {
  name: string;
  target: string;
  list: boolean;
  paginated: boolean;
  /** Set when the edge is a remote relationship the member mounted itself. */
  service: string | null;
}

export interface EntityDescription {
  name: string;
  /** The service that owns the entity: the member itself, or one it mounted (transitive reach). */
  service: string;
  /** Model fields with their GraphQL types (relationships are listed separately). */
  fields: FieldDescription[];
  keys: KeyDescription[];
  orders: { default: string; enum: string; profiles: OrderProfileDescription[] } | null;
  relationships: RelationshipDescription[];
}

export interface TypeDescription {
  kind: 'OBJECT' | 'ENUM';
  name: string;
  /** OBJECT: every field a client may select (model fields, relationships, remote edges). */
  fields?: FieldDescription[];
  /** ENUM: its values. */
  values?: string[];
}

export interface ErIntrospection {
  protocol: typeof PROTOCOL;
  service: string;
  entities: EntityDescription[];
  /** Every named non-scalar type reachable from the entities' types, ready to be materialized. */
  types: TypeDescription[];
  /** Whether `/ergraph/dto-introspection` and `/ergraph/dto-batch` are served. */
  dtos: boolean;
}

/** A field of a public DTO. `type` is a scalar name, or `model` names another DTO fragment. */
export interface DtoFieldDescription {
  name: string;
  type: string | null;
  model: string | null;
  list: boolean;
  nullable: boolean;
}

export interface DtoDescription {
  name: string;
  /** Whether mounters may batch-fetch it by key (`false` for fragments nested in public DTOs). */
  public: boolean;
  entity: string | null;
  /** The join key (`federationKey`, or the entity's single federation key). */
  key: string | null;
  keyType: string | null;
  fields: DtoFieldDescription[];
}

export interface DtoIntrospection {
  protocol: typeof PROTOCOL;
  service: string;
  dtos: DtoDescription[];
}

export interface DtoBatchRequest {
  protocol: typeof PROTOCOL;
  dto: string;
  keys: unknown[];
  /** Top-N per key (the mounter field's `Paged({ limit })`); all matches when absent. */
  limit?: number | null;
  order?: string | null;
  direction?: 'ASC' | 'DESC' | null;
}

export interface DtoBatchResponse {
  protocol: typeof PROTOCOL;
  /** One list per requested key, in request order. */
  items: unknown[][];
}
