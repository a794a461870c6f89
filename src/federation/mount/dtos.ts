/**
 * DTO federation, mounter side: classes for a member's public DTOs (built from its
 * dto-introspection, bound to the `RemoteService` handles of that service), and the loading
 * behind `Paged({ limit })` fields: one dto-batch request per DTO field per resolver level,
 * top-N per parent done by the member in SQL. Member values arrive frozen: a mounter adds
 * fields only through its own `resolveX` / `postX`.
 */
import { z } from 'zod';
import type { ErDiagram } from '../../er/diagram.js';
import { ConfigError } from '../../er/errors.js';
import { model, modelFields, SOURCE, type AnyModelClass } from '../../er/model.js';
import { ref, refTarget } from '../../er/schema.js';
import { Loader } from '../../resolver/depends.js';
import { FederationError } from '../errors.js';
import { PROTOCOL, DTO_BATCH_PATH, type DtoBatchResponse, type DtoDescription, type DtoFieldDescription } from '../protocol.js';
import { probeRef, remoteRelationshipsOf, stateOfHandle, type RemoteServiceState } from '../remote.js';
import { guarded } from './breaker.js';
import { isPlainName } from './types.js';
import { callMember, MemberCallError, type Member } from './http.js';
import { classLabel } from '../../er/names.js';

interface Binding {
  member: Member;
  description: DtoDescription;
}

const bindings = new WeakMap<AnyModelClass, Binding>();

function fieldSchema(field: DtoFieldDescription, classes: Map<string, AnyModelClass>, where: string): z.ZodType {
  let base: z.ZodType;
  if (field.model) {
    const name = field.model;
    if (!classes.has(name)) throw new FederationError(`${where}: refers to ${name}, which the member does not describe`);
    base = ref(() => classes.get(name)!);
  } else {
    switch (field.type) {
      case 'Int':
        base = z.int();
        break;
      case 'Float':
        base = z.number();
        break;
      case 'Boolean':
        base = z.boolean();
        break;
      case 'String':
      case 'ID':
      case 'DateTime': // arrives as an ISO string over JSON
        base = z.string();
        break;
      case 'BigInt': // arrives as a decimal string over JSON; the mounter gets the bigint back
        base = z.coerce.bigint();
        break;
      default:
        base = z.unknown();
    }
  }
  let schema: z.ZodType = field.list ? z.array(base) : base;
  if (field.nullable) schema = schema.nullable();
  return schema;
}

/** One class per described DTO (and nested fragment), named as on the member. */
export function dtoClasses(member: Member, dtos: readonly DtoDescription[]): Map<string, AnyModelClass> {
  const classes = new Map<string, AnyModelClass>();
  for (const dto of dtos) {
    if (!dto || typeof dto.name !== 'string' || !Array.isArray(dto.fields)) {
      throw new FederationError(`Service '${member.service}' (${member.address}) sent a malformed DTO description`);
    }
    // Shapes refer to each other lazily through `ref`, so every class exists before any is used.
    const shape: Record<string, z.ZodType> = {};
    const kls = model(shape) as unknown as AnyModelClass;
    Object.defineProperty(kls, 'name', { value: dto.name });
    classes.set(dto.name, kls);
    bindings.set(kls, { member, description: dto });
  }
  for (const dto of dtos) {
    const shape = classes.get(dto.name)!.shape as Record<string, z.ZodType>;
    for (const field of dto.fields) {
      // A member's names become object keys here: `__proto__` would replace the prototype.
      if (!isPlainName(field.name)) throw new FederationError(`${member.service}.${dto.name}: field name ${JSON.stringify(field.name)} is not a GraphQL name`);
      shape[field.name] = fieldSchema(field, classes, `${member.service}.${dto.name}.${field.name}`);
    }
  }
  return classes;
}

/**
 * The `RemoteService` handles one mounter's `federate()` binds DTO classes to: targets of the
 * diagram's remote relationships, and remote `ref` markers in models reachable from the
 * diagram (entities, operation results, nested models) or listed in `extra` — JavaScript cannot
 * enumerate a view such as `class ProductCard extends DefineSubset(...)` otherwise.
 */
export function reachedHandles(diagram: ErDiagram, extra: readonly AnyModelClass[]): Set<RemoteServiceState> {
  const found = new Set<RemoteServiceState>();
  const seen = new Set<AnyModelClass>();
  const visit = (kls: AnyModelClass | undefined) => {
    if (!kls || seen.has(kls)) return;
    seen.add(kls);
    for (const { info } of modelFields(kls)) if (info.model) visit(probeRef(info.model, found));
  };
  for (const entity of diagram.entities) {
    for (const rel of remoteRelationshipsOf(entity.relationships)) {
      const state = stateOfHandle(rel.remote.handle);
      if (state) found.add(state);
    }
  }
  for (const info of diagram.entityInfos().values()) {
    visit(info.kls);
    for (const op of [...info.queries, ...info.mutations]) {
      const returns = op.returns();
      const element = (returns as { _zod?: { def?: { element?: z.ZodType } } })._zod?.def?.element;
      const target = refTarget(returns) ?? (element ? refTarget(element) : undefined);
      if (target) visit(probeRef(target, found));
    }
  }
  for (const kls of extra) visit(kls);
  return found;
}

function deepFreeze<T>(value: T, depth = 0): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || depth > 64) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key], depth + 1);
  return Object.freeze(value);
}

/** The batch function for one DTO class and limit: stable, so the resolver keeps one DataLoader per run. */
const batchFns = new WeakMap<AnyModelClass, Map<number | null, (keys: readonly unknown[]) => Promise<unknown[][]>>>();

function batchFn(kls: AnyModelClass, limit: number | null) {
  let byLimit = batchFns.get(kls);
  if (!byLimit) batchFns.set(kls, (byLimit = new Map()));
  let fn = byLimit.get(limit);
  if (!fn) {
    const { member, description } = bindings.get(kls)!;
    const Kls = kls as unknown as new (data: unknown) => unknown;
    fn = async (keys) => {
      let answer: { status: number; json: unknown };
      try {
        answer = await guarded(member, () => callMember(member, DTO_BATCH_PATH, { protocol: PROTOCOL, dto: description.name, keys, limit }));
      } catch (error) {
        throw error instanceof MemberCallError ? error.toGraphQLError() : error;
      }
      const body = answer.json as Partial<DtoBatchResponse> & { error?: string };
      if (answer.status !== 200 || !Array.isArray(body?.items) || body.items.length !== keys.length) {
        throw new MemberCallError(
          answer.status === 200 ? 'FEDERATION_MEMBER_BAD_RESPONSE' : 'FEDERATION_MEMBER_ERROR',
          member.service,
          member.address,
          `dto-batch ${description.name}: ${body?.error ?? `expected ${keys.length} lists of items`}`,
          answer.status,
        ).toGraphQLError();
      }
      return body.items.map((items) => deepFreeze((items as unknown[]).map((item) => new Kls(item))));
    };
    Object.defineProperty(fn, 'name', { value: `dto-batch ${member.service}.${description.name}` });
    byLimit.set(limit, fn);
  }
  return fn;
}

/** The `resolveX` a `Paged` field gets: load through the source entity's remote relationship of the same name. */
export function pagedResolver(
  limit: number,
  target: { owner: AnyModelClass; source: AnyModelClass | undefined; field: string; info: { model?: () => AnyModelClass; list: boolean }; diagram: ErDiagram | undefined },
): (this: unknown) => unknown {
  const where = `${target.owner.name}.${target.field}`;
  if (!target.info.model || !target.info.list) {
    throw new ConfigError(`${where}: Paged goes on a list of a remote DTO, z.array(ref(() => service.DTO))`);
  }
  const kls = target.info.model();
  const binding = bindings.get(kls);
  if (!binding) throw new ConfigError(`${where}: ${classLabel(kls)} is not a remote DTO materialized by federate()`);
  const entry = target.diagram?.entities.find((e) => e.kls === target.source);
  const rel = remoteRelationshipsOf(entry?.relationships).find((r) => r.name === target.field);
  if (!rel) {
    throw new ConfigError(
      `${where}: a Paged DTO field loads through a RemoteRelationship named '${target.field}' on ${target.source?.name ?? 'its source entity'}, ` +
        `whose fk holds the join value; declare one (target [${binding.member.service}.${binding.description.entity}], joinRemote '${binding.description.key}')`,
    );
  }
  if (rel.joinRemote !== binding.description.key) {
    throw new ConfigError(`${where}: ${classLabel(kls)} is joined by ${binding.description.key}, but RemoteRelationship ${rel.name} joins by ${rel.joinRemote}`);
  }
  const fn = batchFn(kls, limit);
  const fk = rel.fk;
  return function (this: unknown) {
    const obj = this as Record<string | symbol, unknown>;
    const value = obj[fk] !== undefined ? obj[fk] : (obj[SOURCE] as Record<string, unknown> | undefined)?.[fk];
    if (value === null || value === undefined) return Object.freeze([]);
    return Loader(fn).load(value);
  };
}
