/**
 * `GET /ergraph/er-introspection`: the member's ER graph (not SDL). Entities with their fields
 * and GraphQL types, federation keys with their batch roots, order profiles, relationships
 * (local ones and the remote edges the member mounted itself), plus every object and enum type
 * a mounter must materialize to forward selections. Entities the member mounted are listed
 * with their owning service, which is how reach is transitive.
 */
import {
  getNamedType,
  isEnumType,
  isObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { isExcluded, modelFields } from '../../er/model.js';
import type { GraphQLHandler } from '../../graphql/handler.js';
import { remoteRelationshipsOf } from '../remote.js';
import { PROTOCOL, type EntityDescription, type ErIntrospection, type FieldDescription, type TypeDescription } from '../protocol.js';
import { stateOf, type MemberSetup } from '../state.js';
import { orderEnumName } from '../../graphql/orders.js';
import { byRootName, pageRootName } from './roots.js';
import { className } from '../../er/names.js';

function fieldDescription(field: GraphQLField<unknown, unknown>): FieldDescription {
  const out: FieldDescription = { name: field.name, type: String(field.type) };
  if (field.args.length) out.args = field.args.map((a) => ({ name: a.name, type: String(a.type) }));
  return out;
}

/** Object and enum types reachable from `roots`, fields and arguments included. */
function reachableTypes(schema: GraphQLSchema, roots: readonly string[]): TypeDescription[] {
  const out: TypeDescription[] = [];
  const seen = new Set<string>();
  const visit = (type: GraphQLNamedType | undefined) => {
    if (!type || seen.has(type.name)) return;
    seen.add(type.name);
    if (isEnumType(type)) out.push({ kind: 'ENUM', name: type.name, values: type.getValues().map((v) => v.name) });
    if (!isObjectType(type)) return;
    const fields = Object.values(type.getFields());
    out.push({ kind: 'OBJECT', name: type.name, fields: fields.map(fieldDescription) });
    for (const field of fields) {
      visit(getNamedType(field.type));
      for (const arg of field.args) visit(getNamedType(arg.type));
    }
  };
  for (const name of roots) visit(schema.getType(name) ?? undefined);
  return out;
}

export function erIntrospection(handler: GraphQLHandler, member: MemberSetup): ErIntrospection {
  const schema = handler.schema;
  const paginated = handler.options.enablePagination ?? false;
  const entities: EntityDescription[] = [];
  for (const info of handler.diagram.entityInfos().values()) {
    const type = schema.getType(info.name);
    const gqlFields = isObjectType(type) ? type.getFields() : {};
    const keyed = member.entities.get(info.name);
    const entry = handler.diagram.entities.find((e) => e.kls === info.kls);
    const remote = remoteRelationshipsOf(entry?.relationships);
    entities.push({
      name: info.name,
      service: member.service,
      fields: modelFields(info.kls)
        .filter(({ info: f }) => !isExcluded(f))
        .map(({ key }) => ({ name: key, type: gqlFields[key] ? String(gqlFields[key].type) : 'JSON' })),
      keys: (keyed?.keys ?? []).map((k) => ({
        field: k.field,
        type: k.scalar.name,
        root: byRootName(k.field),
        pageRoot: keyed?.orders ? pageRootName(k.field) : null,
      })),
      orders: keyed?.orders
        ? {
            default: keyed.orders.defaultOrder,
            enum: orderEnumName(info.name),
            profiles: Object.entries(keyed.orders.orders).map(([name, order]) => {
              const term = order.terms[0]!;
              return { name, column: term.column, direction: term.direction, nulls: term.nullsPlacement() };
            }),
          }
        : null,
      relationships: [
        ...[...info.relationships.values()].map((rel) => ({
          name: rel.relationship.name,
          target: className(rel.target, 'entity'),
          list: rel.list,
          paginated: rel.list && paginated,
          service: null,
        })),
        ...remote.map((rel) => ({
          name: rel.name,
          target: rel.remote.name,
          list: rel.list,
          paginated: rel.pagination,
          service: rel.remote.service,
        })),
      ],
    });
  }
  // Entities this member mounted from others: reachable through it, owned elsewhere.
  for (const remote of stateOf(handler).mounted?.entities ?? []) {
    if (!entities.some((e) => e.name === remote.name)) entities.push(remote);
  }
  return {
    protocol: PROTOCOL,
    service: member.service,
    entities,
    types: reachableTypes(
      schema,
      entities.map((e) => e.name),
    ),
    dtos: member.dtos.size > 0,
  };
}
