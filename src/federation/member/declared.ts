/**
 * What a member publishes per entity: `static __federation_keys__` (one `by_<key>_in` root
 * each) and `static __pagination_orders__` (adds `page_by_<key>_in`). Read and validated once,
 * at member startup, so a bad declaration never reaches a request.
 */
import type { GraphQLScalarType } from 'graphql';
import type { EntityInfo, ErDiagram } from '../../er/diagram.js';
import { ConfigError } from '../../er/errors.js';
import { modelFields, type AnyModelClass } from '../../er/model.js';
import type { FieldInfo } from '../../er/schema.js';
import { scalarFor } from '../../graphql/scalars.js';
import { BatchPageConfig, paginationOrdersOf } from '../../er/orders.js';
import { classLabel } from '../../er/names.js';

export interface FederationKey {
  field: string;
  info: FieldInfo;
  scalar: GraphQLScalarType;
}

export interface MemberEntity {
  info: EntityInfo;
  keys: FederationKey[];
  orders: BatchPageConfig | undefined;
}

/** Scalars whose values compare by identity after parsing: a JSON or DateTime key would not group. */
const KEY_SCALARS = new Set(['Int', 'Float', 'String', 'ID', 'BigInt']);

type Declaring = { __federation_keys__?: unknown };

function keysOf(kls: AnyModelClass): FederationKey[] {
  const declared = (kls as Declaring).__federation_keys__;
  if (declared === undefined) return [];
  if (!Array.isArray(declared) || declared.some((k) => typeof k !== 'string')) {
    throw new ConfigError(`${classLabel(kls)}.__federation_keys__ must be a list of field names`);
  }
  const fields = new Map(modelFields(kls).map((f) => [f.key, f.info]));
  const seen = new Set<string>();
  return (declared as string[]).map((field) => {
    const where = `${classLabel(kls)}.__federation_keys__`;
    if (seen.has(field)) throw new ConfigError(`${where} lists '${field}' twice`);
    seen.add(field);
    const info = fields.get(field);
    if (!info) throw new ConfigError(`${where}: '${field}' is not a field of ${classLabel(kls)}`);
    const scalar = info.list || info.model ? undefined : scalarFor(info.base);
    if (!scalar || !KEY_SCALARS.has(scalar.name)) {
      throw new ConfigError(`${where}: '${field}' must be an Int, Float, String, ID or BigInt field to be a join key`);
    }
    return { field, info, scalar: scalar as GraphQLScalarType };
  });
}

/** Every entity of the diagram that declares federation keys, validated. */
export function memberEntities(diagram: ErDiagram): Map<string, MemberEntity> {
  const out = new Map<string, MemberEntity>();
  for (const info of diagram.entityInfos().values()) {
    const keys = keysOf(info.kls);
    const orders = paginationOrdersOf(info.kls);
    if (orders && !keys.length) {
      throw new ConfigError(`${info.name} declares __pagination_orders__ but no __federation_keys__ to page by`);
    }
    if (keys.length) out.set(info.name, { info, keys, orders });
  }
  return out;
}
