/**
 * Per-handler federation state. A handler can be a member (batch roots) and a mounter (remote
 * fields) at once; both add schema contributions, and `extendSchema` takes the whole list, so
 * it lives here and every change re-applies all of it.
 */
import type { GraphQLHandler } from '../graphql/handler.js';
import type { SchemaContribution } from '../graphql/schema.js';
import type { MemberSetup } from './member/setup.js';
import type { Mounted } from './mount/federate.js';

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
