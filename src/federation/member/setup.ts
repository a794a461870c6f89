/**
 * Turning a handler into a federation member: read its keyed entities, pick a key source for
 * each, add the batch roots to its schema. Done once per handler, at startup.
 */
import { ConfigError } from '../../er/errors.js';
import type { GraphQLHandler } from '../../graphql/handler.js';
import type { AnyModelClass } from '../../er/model.js';
import { applyContributions, serviceNameOf, stateOf, type MemberSetup } from '../state.js';

export type { MemberSetup } from '../state.js';
import { memberEntities } from './declared.js';
import { batchRoots } from './roots.js';
import { keySourceFor, type KeyLoader, type KeySource, type SessionFactory } from './sources.js';
import { publicDtos } from './dtos.js';

export interface MemberOptions {
  /** Key loaders for entities that are not table models: `{ Review: (key, values, context) => rows }`. */
  keyLoaders?: Record<string, KeyLoader>;
  /**
   * Public DTO classes to publish in addition to those found automatically (subclasses that no
   * query of the member returns; see docs/federation.md).
   */
  dtos?: readonly AnyModelClass[];
}


export function setupMember(handler: GraphQLHandler, options: MemberOptions = {}): MemberSetup {
  const state = stateOf(handler);
  if (state.member) return state.member;
  const service = serviceNameOf(handler);
  if (!service) throw new ConfigError('A federation member needs a name: new GraphQLHandler(diagram, { serviceName: "reviews", ... })');
  const entities = memberEntities(handler.diagram);
  for (const name of Object.keys(options.keyLoaders ?? {})) {
    if (!entities.has(name)) throw new ConfigError(`keyLoaders.${name}: ${name} is not an entity with __federation_keys__ in service '${service}'`);
  }
  const session = (handler.options as { sessionFactory?: SessionFactory }).sessionFactory;
  const sources = new Map<string, KeySource>();
  for (const [name, member] of entities) sources.set(name, keySourceFor(member.info.kls, session, options.keyLoaders?.[name]));
  const dtos = publicDtos(handler.diagram, entities, options.dtos ?? []);
  const setup: MemberSetup = { service, entities, sources, dtos, contribution: { groupFields: batchRoots(entities, sources) } };
  state.member = setup;
  applyContributions(handler);
  return setup;
}
