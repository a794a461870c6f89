/**
 * `await handler.federate({ services })`: pull every member's ER introspection (and DTO
 * introspection), validate every remote relationship against it, materialize remote types
 * under their bare names, add the remote fields to the schema, and freeze. Every problem is a
 * `FederationError` here, never at query time.
 */
import type { AnyModelClass } from '../../er/model.js';
import { ConfigError } from '../../er/errors.js';
import { modelFields } from '../../er/model.js';
import { provideFederation, type Federator, type GraphQLHandler } from '../../graphql/handler.js';
import { scalarFor } from '../../graphql/scalars.js';
import { DEFAULT_BUDGET } from '../../graphql/budget.js';
import { FederationError } from '../errors.js';
import {
  DTO_INTROSPECTION_PATH,
  ER_INTROSPECTION_PATH,
  PROTOCOL,
  type DtoIntrospection,
  type ErIntrospection,
} from '../protocol.js';
import { remoteRelationshipsOf } from '../remote.js';
import { applyContributions, serviceNameOf, stateOf, type Mounted, type MountedService } from '../state.js';

export type { Mounted, MountedService } from '../state.js';
import { dtoClasses, reachedHandles } from './dtos.js';
import { remoteEdgeFields, type MountedEdge } from './fields.js';
import { memberBreaker, type CircuitBreakerOptions } from './breaker.js';
import { callMember, DEFAULT_MAX_RESPONSE_BYTES, defaultMemberTimeout, MemberCallError, type Member } from './http.js';
import type { Catalog } from './types.js';

export interface FederateOptions {
  /** Member base addresses by service name: `{ reviews: 'http://127.0.0.1:4002' }`. */
  services: Record<string, string>;
  /**
   * Per member request, at mount time and at query time. Default 5 s, or half the handler's
   * `limits.timeout` when that is shorter: a hung member then costs its own fields (null, with a
   * `FEDERATION_MEMBER_UNAVAILABLE` error) and the operation still answers with the rest. A value
   * as long as the operation's timeout loses the whole operation to one hung member.
   */
  timeoutMs?: number;
  /**
   * The largest answer read from a member, in bytes (default 16 MiB): past it the member's fields
   * are null with a `FEDERATION_MEMBER_BAD_RESPONSE` error, as for an answer that is not JSON.
   */
  maxResponseBytes?: number;
  /**
   * Per member: after `failures` consecutive unreachable calls (default 3), query-time calls fail
   * fast for `halfOpenAfterMs` (default 10 s), then one call probes the member. `false` turns it off.
   */
  circuitBreaker?: CircuitBreakerOptions | false;
  /**
   * Views whose remote DTO fields (`ref(() => reviews.ReviewDTO)`) use a handle that neither
   * the diagram's remote relationships nor its reachable models mention: only reached handles
   * get this mounter's DTO classes.
   */
  dtos?: readonly AnyModelClass[];
}

const SCALAR_KEYS = new Set(['Int', 'Float', 'String', 'ID', 'BigInt']);

function members(options: FederateOptions, operationTimeout: number | false | undefined): Member[] {
  if (!options || typeof options.services !== 'object' || options.services === null) {
    throw new FederationError("federate() takes { services: { <name>: 'http://host:port' } }");
  }
  const timeoutMs = options.timeoutMs ?? defaultMemberTimeout(operationTimeout);
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new FederationError(`federate(): timeoutMs must be positive, got ${timeoutMs}`);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes <= 0) throw new FederationError(`federate(): maxResponseBytes must be a positive integer, got ${maxResponseBytes}`);
  return Object.entries(options.services).map(([service, address]) => {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new FederationError(`Service '${service}': ${JSON.stringify(address)} is not an http(s) address`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FederationError(`Service '${service}': ${address} is not an http(s) address`);
    return { service, address: address.replace(/\/+$/, ''), timeoutMs, maxResponseBytes, breaker: memberBreaker(options.circuitBreaker) };
  });
}

async function pull(member: Member): Promise<MountedService> {
  const fail = (detail: string) => new FederationError(`Cannot mount service '${member.service}' at ${member.address}: ${detail}`);
  let answer;
  try {
    answer = await callMember(member, ER_INTROSPECTION_PATH);
  } catch (error) {
    throw fail(error instanceof MemberCallError ? error.detail : (error as Error).message);
  }
  const body = answer.json as Partial<ErIntrospection>;
  if (answer.status !== 200) throw fail(`${ER_INTROSPECTION_PATH} answered HTTP ${answer.status} (is it an ergraph member? buildFederableApp(handler))`);
  if (body?.protocol !== PROTOCOL) throw fail(`it speaks protocol ${JSON.stringify(body?.protocol)}, this mounter ${PROTOCOL}`);
  if (!Array.isArray(body.entities) || !Array.isArray(body.types) || typeof body.service !== 'string') {
    throw fail('the ER introspection is malformed (entities, types and service expected)');
  }
  if (body.service !== member.service) {
    throw fail(`the member calls itself '${body.service}'; mount it under that name`);
  }
  let dtos: DtoIntrospection | null = null;
  if (body.dtos) {
    try {
      const d = await callMember(member, DTO_INTROSPECTION_PATH);
      const dBody = d.json as Partial<DtoIntrospection>;
      if (d.status !== 200 || dBody?.protocol !== PROTOCOL || !Array.isArray(dBody.dtos)) throw fail('the DTO introspection is malformed');
      dtos = dBody as DtoIntrospection;
    } catch (error) {
      if (error instanceof FederationError) throw error;
      throw fail(error instanceof MemberCallError ? error.detail : (error as Error).message);
    }
  }
  return { member, introspection: body as ErIntrospection, dtos };
}

/** Remote entities and types by bare name; one name exposed by two owners is an error. */
function catalogOf(self: string | undefined, localNames: ReadonlySet<string>, services: Map<string, MountedService>): Catalog {
  const catalog: Catalog = { entities: new Map(), types: new Map() };
  const selfOwned = new Set<string>();
  for (const { introspection } of services.values()) {
    for (const entity of introspection.entities) {
      if (entity.service === self) {
        selfOwned.add(entity.name); // our own entity, seen through a member that mounted us
        continue;
      }
      const existing = catalog.entities.get(entity.name);
      if (existing && existing.description.service !== entity.service) {
        throw new FederationError(
          `Type ${entity.name} is exposed by two services: '${existing.description.service}' (via '${existing.via}') and '${entity.service}' (via '${introspection.service}'); one flat schema needs one owner per bare name`,
        );
      }
      if (localNames.has(entity.name)) {
        throw new FederationError(`Type ${entity.name} of service '${entity.service}' clashes with this service's own ${entity.name}`);
      }
      // Prefer the description from the owner itself: it lists the batch roots.
      if (!existing || introspection.service === entity.service) catalog.entities.set(entity.name, { description: entity, via: introspection.service });
    }
  }
  for (const { introspection } of services.values()) {
    for (const type of introspection.types) {
      if (selfOwned.has(type.name) || localNames.has(type.name)) continue;
      const existing = catalog.types.get(type.name);
      if (existing && JSON.stringify(existing.description) !== JSON.stringify(type)) {
        throw new FederationError(
          `Type ${type.name} is exposed by services '${existing.via}' and '${introspection.service}' with different shapes; one flat schema needs one owner per bare name`,
        );
      }
      if (!existing) catalog.types.set(type.name, { description: type, via: introspection.service });
    }
  }
  return catalog;
}

function edgesOf(handler: GraphQLHandler, services: Map<string, MountedService>): Map<AnyModelClass, MountedEdge[]> {
  const edges = new Map<AnyModelClass, MountedEdge[]>();
  for (const entity of handler.diagram.entities) {
    const info = handler.diagram.entityOf(entity.kls)!;
    const fields = new Map(modelFields(entity.kls).map((f) => [f.key, f.info]));
    for (const rel of remoteRelationshipsOf(entity.relationships)) {
      const where = `${info.name}.${rel.name}`;
      const target = `${rel.remote.service}.${rel.remote.name}`;
      const mounted = services.get(rel.remote.service);
      if (!mounted) {
        throw new FederationError(
          `${where} targets ${target}, but service '${rel.remote.service}' is not in federate({ services }) (given: ${[...services.keys()].join(', ') || 'none'})`,
        );
      }
      const remote = mounted.introspection.entities.find((e) => e.name === rel.remote.name);
      if (!remote) {
        throw new FederationError(
          `${where} targets ${target}, but service '${rel.remote.service}' has no entity ${rel.remote.name} (has: ${mounted.introspection.entities.map((e) => e.name).join(', ') || 'none'})`,
        );
      }
      if (remote.service !== rel.remote.service) {
        throw new FederationError(`${where}: ${rel.remote.name} is owned by service '${remote.service}' (reached through '${rel.remote.service}'); mount '${remote.service}' and target ${remote.service}.${rel.remote.name}`);
      }
      if (fields.has(rel.name) || info.relationships.has(rel.name)) {
        throw new FederationError(`${where}: ${info.name} already has a field or relationship named ${rel.name}`);
      }
      const fkInfo = fields.get(rel.fk);
      if (!fkInfo) throw new FederationError(`${where}: fk '${rel.fk}' is not a field of ${info.name}`);
      const joinField = remote.fields.find((f) => f.name === rel.joinRemote);
      if (!joinField) throw new FederationError(`${where}: joinRemote '${rel.joinRemote}' is not a field of ${target}`);
      const joinType = joinField.type.replace(/!$/, '');
      if (!SCALAR_KEYS.has(joinType)) {
        throw new FederationError(`${where}: joinRemote ${target}.${rel.joinRemote} has type ${joinField.type}; a join key must be a scalar (Int, Float, String, ID, BigInt)`);
      }
      const key = remote.keys.find((k) => k.field === rel.joinRemote);
      if (!key) {
        throw new FederationError(
          `${where}: ${target} has no batch root by_${rel.joinRemote}_in; the member must list '${rel.joinRemote}' in ${rel.remote.name}.__federation_keys__ (keys: ${remote.keys.map((k) => k.field).join(', ') || 'none'})`,
        );
      }
      if (rel.pagination && !key.pageRoot) {
        throw new FederationError(`${where}: pagination needs ${target}'s page_by_${rel.joinRemote}_in root; the member must declare ${rel.remote.name}.__pagination_orders__`);
      }
      const fkScalar = fkInfo.list || fkInfo.model ? undefined : scalarFor(fkInfo.base)?.name;
      if (fkScalar !== key.type) {
        throw new FederationError(`${where}: fk ${info.name}.${rel.fk} is ${fkScalar ?? 'not a scalar'} but ${target}.${rel.joinRemote} is ${key.type}; join keys must have the same type`);
      }
      const list = edges.get(entity.kls) ?? [];
      list.push({ owner: info.name, rel, member: mounted.member, entity: remote, key });
      edges.set(entity.kls, list);
    }
  }
  return edges;
}

// `handler.federate(options)` takes these options and runs `federate` below.
declare module '../../graphql/handler.js' {
  interface FederationOptions extends FederateOptions {}
}

export async function federate(handler: GraphQLHandler, options: FederateOptions): Promise<void> {
  const state = stateOf(handler);
  const self = serviceNameOf(handler);
  if (state.mounted) {
    throw new FederationError(`This handler${self ? ` (service '${self}')` : ''} is already federated; federate() runs once, at startup`);
  }
  const list = members(options, handler.options.limits?.timeout ?? DEFAULT_BUDGET.timeout);
  if (options.dtos !== undefined && (!Array.isArray(options.dtos) || options.dtos.some((k) => typeof k !== 'function'))) {
    throw new FederationError('federate(): dtos must be a list of model classes');
  }
  for (const m of list) if (m.service === self) throw new FederationError(`Service '${self}' cannot mount itself`);
  const pulled = await Promise.all(list.map(pull));
  const services = new Map(pulled.map((s) => [s.member.service, s]));
  const localNames = new Set([...handler.diagram.entityInfos().values()].map((e) => e.name));
  const catalog = catalogOf(self, localNames, services);
  const edges = edgesOf(handler, services);
  const classes = new Map<string, Map<string, AnyModelClass>>();
  for (const s of pulled) if (s.dtos) classes.set(s.member.service, dtoClasses(s.member, s.dtos.dtos));
  const mounted: Mounted = {
    services,
    entities: [...catalog.entities.values()].map((e) => e.description),
    edges,
    catalog,
    contribution: { objectFields: remoteEdgeFields(edges, catalog) },
  };
  state.mounted = mounted;
  try {
    applyContributions(handler);
  } catch (error) {
    state.mounted = undefined;
    applyContributions(handler);
    if (error instanceof ConfigError) throw new FederationError(`Mounting ${[...services.keys()].join(', ')}: ${error.message}`, { cause: error });
    throw error;
  }
  // Only this mounter's handles: another mounter in the process may mount a different member
  // under the same service name.
  for (const handle of reachedHandles(handler.diagram, options.dtos ?? [])) {
    const dtos = classes.get(handle.serviceName);
    if (dtos) handle.bind(dtos);
  }
}

provideFederation(federate as Federator);
