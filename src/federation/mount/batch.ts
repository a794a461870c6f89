/**
 * One HTTP request per member per level. Every remote field of a level asks its DataLoader;
 * each DataLoader batch becomes one *part* (a batch root call with all keys of the level), and
 * the parts for one member that arrive before the next macrotask travel in one document:
 *
 *   query ergraph_federation($p0_keys: [Int!]!) {
 *     p0: Review { r: by_productId_in(values: $p0_keys) { _ergraph_key: productId ... } }
 *   }
 */
import { memberError } from '../errors.js';
import { guarded } from './breaker.js';
import { callMember, MemberCallError, type Member } from './http.js';

export interface Part {
  /**
   * This part inside the member document, under the alias `prefix`: the field text
   * (`Review { r: by_productId_in(values: $p0_keys) { ... } }`), its variable definitions and values.
   */
  render(prefix: string): { field: string; definitions: string[]; variables: Record<string, unknown> };
}

interface Pending {
  part: Part;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Collects the parts for one member within one run and sends them together. */
export class MemberBatcher {
  private pending: Pending[] = [];
  private scheduled = false;
  /** Requests sent so far (tests and diagnostics read it). */
  requests = 0;

  constructor(readonly member: Member) {}

  request(part: Part): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.pending.push({ part, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.scheduled = false;
    const definitions: string[] = [];
    const variables: Record<string, unknown> = {};
    const fields = batch.map(({ part }, i) => {
      const rendered = part.render(`p${i}`);
      definitions.push(...rendered.definitions);
      Object.assign(variables, rendered.variables);
      return `p${i}: ${rendered.field}`;
    });
    const query = `query ergraph_federation(${definitions.join(', ')}) { ${fields.join(' ')} }`;
    this.requests++;
    const { service, address } = this.member;
    let json: unknown;
    try {
      ({ json } = await guarded(this.member, () => callMember(this.member, '/graphql', { query, variables })));
    } catch (error) {
      const reported = error instanceof MemberCallError ? error.toGraphQLError() : error;
      for (const p of batch) p.reject(reported);
      return;
    }
    const body = json as { data?: Record<string, { r?: unknown } | null> | null; errors?: { message?: string; path?: unknown[]; extensions?: Record<string, unknown> }[] };
    if (!body || typeof body !== 'object' || !('data' in body || 'errors' in body)) {
      const error = memberError('FEDERATION_MEMBER_BAD_RESPONSE', service, address, 'the /graphql answer has neither data nor errors');
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach(({ resolve, reject }, i) => {
      const prefix = `p${i}`;
      // Errors without a path (a document the member rejected) concern every part.
      const errors = (body.errors ?? []).filter((e) => !Array.isArray(e.path) || e.path[0] === prefix);
      if (errors.length) {
        const first = errors[0]!;
        reject(
          memberError('FEDERATION_MEMBER_ERROR', service, address, first.message ?? 'unknown error', {
            memberErrors: errors.map((e) => ({ message: e.message, extensions: e.extensions })),
          }),
        );
        return;
      }
      const value = body.data?.[prefix]?.r;
      if (value === undefined) {
        reject(memberError('FEDERATION_MEMBER_BAD_RESPONSE', service, address, `the answer lacks ${prefix}.r`));
        return;
      }
      resolve(value);
    });
  }
}
