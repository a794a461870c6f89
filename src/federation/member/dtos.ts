/**
 * DTO federation, member side: which subsets are published, how they are described
 * (`GET /ergraph/dto-introspection`) and how a batch is answered (`POST /ergraph/dto-batch`):
 * rows by join key (top-N per key in SQL when the mounter's field is `Paged`), turned into the
 * DTO class, resolved with the member's own resolver so `resolveX` / `postX` and nested edges
 * run here, then sent as plain JSON.
 */
import { ConfigError } from '../../er/errors.js';
import type { ErDiagram } from '../../er/diagram.js';
import { isExcluded, isModelInstance, modelFields, type AnyModelClass } from '../../er/model.js';
import { refTarget } from '../../er/schema.js';
import { scalarFor } from '../../graphql/scalars.js';
import { LoaderPool } from '../../resolver/pool.js';
import { resolveTree } from '../../resolver/resolver.js';
import { publicSubsets, subsetOf } from '../../resolver/subset.js';
import { keyId } from '../../orm/queries.js';
import type { Direction } from '../../er/orders.js';
import { PROTOCOL, type DtoBatchRequest, type DtoBatchResponse, type DtoDescription, type DtoFieldDescription } from '../protocol.js';
import type { FederationKey, MemberEntity } from './declared.js';
import { termFor } from '../../graphql/orders.js';
import { MAX_KEYS, MAX_PAGE_SIZE } from './roots.js';
import type { KeySource } from './sources.js';
import { classLabel, className } from '../../er/names.js';

export interface PublicDto {
  name: string;
  kls: AnyModelClass;
  entity: MemberEntity;
  key: FederationKey;
}

/** Model classes reachable from the diagram: operation results and entity fields, recursively. */
function reachableModels(diagram: ErDiagram): Set<AnyModelClass> {
  const seen = new Set<AnyModelClass>();
  const visit = (kls: AnyModelClass) => {
    if (seen.has(kls)) return;
    seen.add(kls);
    for (const { info } of modelFields(kls)) if (info.model) visit(info.model());
  };
  for (const entity of diagram.entityInfos().values()) {
    visit(entity.kls);
    for (const op of [...entity.queries, ...entity.mutations]) {
      const target = refTarget(op.returns()) ?? refTarget(unwrapList(op.returns()));
      if (target) visit(target());
    }
  }
  return seen;
}

function unwrapList(schema: unknown): never {
  const def = (schema as { _zod?: { def?: { element?: unknown } } })._zod?.def;
  return (def?.element ?? schema) as never;
}

const inherits = (kls: AnyModelClass, base: AnyModelClass) => kls !== base && base.isPrototypeOf(kls);

/**
 * The DTOs a member publishes: classes made by `DefineSubset` with `federationPublic: true`
 * (a registry `DefineSubset` fills), replaced by their subclass when one is reachable from the
 * diagram or listed in `extra` — `class ReviewDTO extends DefineSubset(...)` is what carries the
 * name and the `resolveX` methods.
 */
export function publicDtos(diagram: ErDiagram, entities: ReadonlyMap<string, MemberEntity>, extra: readonly AnyModelClass[]): Map<string, PublicDto> {
  const known = [...reachableModels(diagram), ...extra];
  const chosen = new Set<AnyModelClass>(extra.filter((k) => subsetOf(k)?.federationPublic));
  for (const base of publicSubsets) {
    const sub = known.filter((k) => inherits(k, base));
    if (sub.length) sub.forEach((k) => chosen.add(k));
    else if (![...chosen].some((k) => inherits(k, base))) chosen.add(base);
  }
  const out = new Map<string, PublicDto>();
  for (const kls of chosen) {
    const config = subsetOf(kls)!;
    const entity = [...entities.values()].find((e) => e.info.kls === config.kls);
    if (!entity) {
      if (diagram.entityOf(config.kls)) {
        throw new ConfigError(`${classLabel(kls)} is federationPublic, but its entity ${classLabel(config.kls)} declares no __federation_keys__`);
      }
      continue; // a subset of another service's entity
    }
    if (!kls.name || kls.name === 'Model') continue; // an unnamed base whose subclass is not reachable: nothing to call it by
    const keyName = config.federationKey ?? (entity.keys.length === 1 ? entity.keys[0]!.field : undefined);
    if (!keyName) {
      throw new ConfigError(
        `${classLabel(kls)}: ${entity.info.name} has several federation keys (${entity.keys.map((k) => k.field).join(', ')}); choose one with SubsetConfig({ federationKey })`,
      );
    }
    const key = entity.keys.find((k) => k.field === keyName);
    if (!key) throw new ConfigError(`${classLabel(kls)}: federationKey '${keyName}' is not one of ${entity.info.name}.__federation_keys__`);
    const name = className(kls);
    const other = out.get(name);
    if (other) throw new ConfigError(`Two public DTOs are named ${name}; DTO names must be unique in a service`);
    out.set(name, { name, kls, entity, key });
  }
  return out;
}

function describeFields(kls: AnyModelClass, queue: AnyModelClass[]): DtoFieldDescription[] {
  return modelFields(kls)
    .filter(({ info }) => !isExcluded(info))
    .map(({ key, info }) => {
      const nested = info.model?.();
      if (nested) queue.push(nested);
      const scalar = nested ? undefined : scalarFor(info.base);
      return {
        name: key,
        type: nested ? null : (scalar?.name === 'DateTime' ? 'DateTime' : scalar?.name) ?? 'JSON',
        model: nested ? className(nested) : null,
        list: info.list,
        nullable: info.nullable || info.optional,
      };
    });
}

/** `dtos` of the dto-introspection payload: public DTOs, then the model fragments nested in them. */
export function describeDtos(dtos: ReadonlyMap<string, PublicDto>): DtoDescription[] {
  const out: DtoDescription[] = [];
  const described = new Set<AnyModelClass>();
  const queue: AnyModelClass[] = [];
  for (const dto of dtos.values()) {
    described.add(dto.kls);
    out.push({
      name: dto.name,
      public: true,
      entity: dto.entity.info.name,
      key: dto.key.field,
      keyType: dto.key.scalar.name,
      fields: describeFields(dto.kls, queue),
    });
  }
  for (let kls = queue.shift(); kls; kls = queue.shift()) {
    if (described.has(kls)) continue;
    described.add(kls);
    out.push({ name: className(kls), public: false, entity: null, key: null, keyType: null, fields: describeFields(kls, queue) });
  }
  return out;
}

/**
 * Plain JSON of a resolved DTO: declared, non-excluded fields only; nested models recursively.
 * `dto` is the published DTO being answered, so the depth error says which one to look at.
 */
function plain(value: unknown, dto: string, depth = 0): unknown {
  if (depth > 64) throw new ConfigError(`DTO ${dto}: value nests deeper than 64 levels (a cycle?)`);
  if (Array.isArray(value)) return value.map((v) => plain(v, dto, depth + 1));
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (!isModelInstance(value)) return value;
  const out: Record<string, unknown> = {};
  for (const { key, info } of modelFields(value.constructor as AnyModelClass)) {
    if (!isExcluded(info)) out[key] = plain((value as Record<string, unknown>)[key], dto, depth + 1);
  }
  return out;
}

export class DtoBatchError extends Error {
  override name = 'DtoBatchError';
}

function checkRequest(body: unknown, dtos: ReadonlyMap<string, PublicDto>): { request: DtoBatchRequest; dto: PublicDto } {
  const request = body as DtoBatchRequest;
  if (!request || typeof request !== 'object') throw new DtoBatchError('body must be a JSON object');
  if (request.protocol !== PROTOCOL) throw new DtoBatchError(`protocol must be '${PROTOCOL}', got ${JSON.stringify(request.protocol)}`);
  const dto = dtos.get(request.dto);
  if (!dto) throw new DtoBatchError(`unknown DTO ${JSON.stringify(request.dto)} (published: ${[...dtos.keys()].join(', ') || 'none'})`);
  if (!Array.isArray(request.keys)) throw new DtoBatchError('keys must be an array');
  if (request.keys.length > MAX_KEYS) throw new DtoBatchError(`at most ${MAX_KEYS} keys per batch, got ${request.keys.length}`);
  const limit = request.limit;
  if (limit !== undefined && limit !== null && (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_PAGE_SIZE)) {
    throw new DtoBatchError(`limit must be an integer in 0..${MAX_PAGE_SIZE}, got ${JSON.stringify(limit)}`);
  }
  if (request.order !== undefined && request.order !== null && typeof request.order !== 'string') {
    throw new DtoBatchError(`order must be the name of an order profile, got ${JSON.stringify(request.order)}`);
  }
  if (request.direction !== undefined && request.direction !== null && request.direction !== 'ASC' && request.direction !== 'DESC') {
    throw new DtoBatchError(`direction must be ASC or DESC, got ${JSON.stringify(request.direction)}`);
  }
  let keys: unknown[];
  try {
    // Keys arrive as JSON (BigInt ones as strings): parse them like by_<key>_in would, so key
    // loaders see one value type whichever endpoint asked.
    keys = request.keys.map((k) => dto.key.scalar.parseValue(k));
  } catch (error) {
    throw new DtoBatchError(`keys of ${dto.name} must be ${dto.key.scalar.name} values: ${(error as Error).message}`);
  }
  return { request: { ...request, keys }, dto };
}

/** Answer one dto-batch request. Bad requests throw `DtoBatchError` (HTTP 400). */
export async function dtoBatch(
  body: unknown,
  dtos: ReadonlyMap<string, PublicDto>,
  sources: ReadonlyMap<string, KeySource>,
  diagram: ErDiagram,
  context: Record<string, unknown>,
): Promise<DtoBatchResponse> {
  const { request, dto } = checkRequest(body, dtos);
  const source = sources.get(dto.entity.info.name)!;
  const field = dto.key.field;
  const orders = dto.entity.orders;
  let term;
  try {
    term = orders ? termFor(dto.entity.info.name, orders, request.order, request.direction as Direction | null | undefined) : undefined;
  } catch (error) {
    throw new DtoBatchError((error as Error).message);
  }
  if (!orders && request.order) throw new DtoBatchError(`${dto.entity.info.name} publishes no order profiles`);
  let lists: unknown[][];
  if (request.limit !== undefined && request.limit !== null) {
    const pages = await source.pagesByKey(field, request.keys, { limit: request.limit, offset: 0, withTotal: false, term }, context);
    lists = pages.map((p) => p.items);
  } else {
    // Every match: pages as large as the largest group, still one statement.
    const rows = await source.byKey(field, request.keys, context);
    const byKey = new Map<string, unknown[]>();
    for (const row of rows) {
      const id = keyId((row as Record<string, unknown>)[field]);
      const list = byKey.get(id);
      if (list) list.push(row);
      else byKey.set(id, [row]);
    }
    lists = request.keys.map((k) => byKey.get(keyId(k)) ?? []);
  }
  const Dto = dto.kls as unknown as new (data: unknown) => unknown;
  const built = lists.map((items) => items.map((item) => new Dto(item)));
  const all = built.flat();
  if (all.length) await resolveTree(all, diagram, new LoaderPool({ context }));
  return { protocol: PROTOCOL, items: built.map((items) => items.map((item) => plain(item, dto.name)) as unknown[]) };
}
