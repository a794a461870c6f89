/**
 * Federation failures. Mount-time problems are `FederationError`s thrown by `federate()`;
 * query-time problems with a member become GraphQL errors on the affected field only.
 */
import { GraphQLError } from 'graphql';

/** A federation misconfiguration or an unreachable member, found at mount time. */
export class FederationError extends Error {
  override name = 'FederationError';
}

export type MemberErrorCode =
  /** The member could not be reached, or did not answer in time. */
  | 'FEDERATION_MEMBER_UNAVAILABLE'
  /** The member answered something that is not a federation response. */
  | 'FEDERATION_MEMBER_BAD_RESPONSE'
  /** The member answered with GraphQL errors. */
  | 'FEDERATION_MEMBER_ERROR';

/** A query-time failure of one member, reported on the field that needed it. */
export function memberError(
  code: MemberErrorCode,
  service: string,
  address: string,
  detail: string,
  extra: Record<string, unknown> = {},
): GraphQLError {
  const what =
    code === 'FEDERATION_MEMBER_UNAVAILABLE'
      ? 'is unavailable'
      : code === 'FEDERATION_MEMBER_BAD_RESPONSE'
        ? 'answered an invalid response'
        : 'answered with errors';
  return new GraphQLError(`Member service '${service}' (${address}) ${what}: ${detail}`, {
    extensions: { code, service, ...extra },
  });
}
