/**
 * Per-handler federation state. A handler can be a member (batch roots) and a mounter (remote
 * fields) at once; both add schema contributions, and `extendSchema` takes the whole list, so
 * it lives here and every change re-applies all of it.
 */
import type { GraphQLHandler } from '../graphql/handler.js';
import type { SchemaContribution } from '../graphql/schema.js';
import type { AnyModelClass } from '../er/model.js';
import type { MemberEntity } from './member/declared.js';
import type { PublicDto } from './member/dtos.js';
import type { KeySource } from './member/sources.js';
import type { MountedEdge } from './mount/fields.js';
import type { Member } from './mount/http.js';
import type { Catalog } from './mount/types.js';
import type { DtoIntrospection, EntityDescription, ErIntrospection } from './protocol.js';

// The shapes live here, beside the state holding them, so neither setup.ts nor federate.ts
// (which both change the state) is imported by it: no import circles.
export interface MemberSetup {
  service: string;
  entities: Map<string, MemberEntity>;
  sources: Map<string, KeySource>;
  dtos: Map<string, PublicDto>;
  contribution: SchemaContribution;
}

export interface MountedService {
  member: Member;
  introspection: ErIntrospection;
  dtos: DtoIntrospection | null;
}

export interface Mounted {
  services: Map<string, MountedService>;
  /** Remote entities now part of this handler's graph (listed in its own introspection). */
  entities: EntityDescription[];
  edges: Map<AnyModelClass, MountedEdge[]>;
  catalog: Catalog;
  contribution: SchemaContribution;
}

export interface FederationState {
  member?: MemberSetup;
  mounted?: Mounted;
}

const states = new WeakMap<GraphQLHandler, FederationState>();

export function stateOf(handler: GraphQLHandler): FederationState {
  let state = states.get(handler);
  if (!state) states.set(handler, (state = {}));
  return state;
}

export function applyContributions(handler: GraphQLHandler): void {
  const state = stateOf(handler);
  const contributions: SchemaContribution[] = [];
  if (state.member) contributions.push(state.member.contribution);
  if (state.mounted) contributions.push(state.mounted.contribution);
  handler.extendSchema(contributions);
}

/** The handler's service name (`serviceName` option), if it has one. */
export function serviceNameOf(handler: GraphQLHandler): string | undefined {
  const name = (handler.options as { serviceName?: unknown }).serviceName;
  return typeof name === 'string' && name ? name : undefined;
}
