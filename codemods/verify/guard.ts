/**
 * Mutations change data, and `verify` runs each one twice (once per endpoint): only with
 * `--mutations`, and only against a target the user names as not production (`--target-env`).
 * A URL whose host does not look like a test machine must be named itself, so a staging name
 * given by habit cannot aim the run at a production host.
 */
import { UsageError } from '../../src/cli-kit/usage.js';

const PRODUCTION = /(?:^|[^a-z])(?:prod|production|live)(?:[^a-z]|$)/i;
/** Hosts that are a developer's or a test environment's by their name. */
const TEST_HOST = /(?:^|[.-])(?:localhost|local|dev|develop|development|test|testing|staging|stage|stg|qa|uat|preview|sandbox|ci|internal)(?:[.-]|$)/i;

function privateHost(host: string): boolean {
  if (host === 'localhost' || host === '::1' || host === '[::1]') return true;
  const ip = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (!ip) return false;
  const [a, b] = [Number(ip[1]), Number(ip[2])];
  return a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31);
}

export interface MutationPolicy {
  mutations: boolean;
  targetEnv?: string;
  url?: string;
}

/** Throws a usage error when mutations are asked for a target that is not a named non-production one. */
export function checkMutationTarget({ mutations, targetEnv, url }: MutationPolicy): void {
  if (!mutations) return;
  if (!targetEnv) throw new UsageError('--mutations runs every mutation twice (v5, then v6): name the non-production target it may change with --target-env <name>');
  if (PRODUCTION.test(targetEnv)) throw new UsageError(`--target-env ${targetEnv} names production: verify never runs mutations there`);
  if (!url) return;
  const host = new URL(url).hostname;
  if (PRODUCTION.test(host)) throw new UsageError(`--url ${url}: ${host} looks like production: verify never runs mutations there`);
  if (!privateHost(host) && !TEST_HOST.test(host) && targetEnv !== host)
    throw new UsageError(
      `--url ${url}: ${host} does not look like a test host (localhost, a private address, or a name with dev/test/staging/qa/preview): ` +
        `if it is one, say so with --target-env ${host}`,
    );
}
