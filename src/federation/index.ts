/**
 * `ergraph/federation`: members publish batch roots and their ER graph; mounters declare
 * `RemoteService` handles and `RemoteRelationship` edges and call `handler.federate(...)`.
 * Wire shapes: docs/federation.md.
 */
export { BatchPageConfig, PageOrder, OrderTerm, Paged } from './declarations.js';
export type { BatchPageConfigOptions, Direction, PagedMarker } from './declarations.js';
export { RemoteService, RemoteRelationship } from './remote.js';
export type { RemoteType, RemoteRelationshipOptions } from './remote.js';
export { FederationError } from './errors.js';
export type { MemberErrorCode } from './errors.js';
export { buildFederableApp } from './member/app.js';
export type { FederableAppOptions } from './member/app.js';
export type { MemberOptions } from './member/setup.js';
export type { KeyLoader } from './member/sources.js';
export { federate } from './mount/federate.js';
export type { FederateOptions } from './mount/federate.js';
export type { CircuitBreakerOptions } from './mount/breaker.js';
export { memberRequests } from './mount/fields.js';
export * from './protocol.js';
