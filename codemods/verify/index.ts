/**
 * `ergraph-migrate verify <paths..> (--app <module> | --url <base>)`: for every v5 document
 * `v5-to-v6` would migrate, run the document as it stands through the compat layer and its
 * migrated form through v6, compare the answers (the v6 one re-keyed to v5 paths), and say per
 * operation: same, differs (at the first differing path), or not run (and why).
 *
 * Two ways to run it: on the tree before `v5-to-v6` writes (each document is migrated in memory,
 * exactly as the step would write it), or on the migrated tree with `--base <ref>` naming the
 * commit before the migration (base.ts: the PR's own documents run through v6). Persisted-query
 * manifests are verified through the `.v6-map.json` a migration wrote beside them.
 * Loaded by `cli.ts` only when `verify` runs: it pulls in TypeScript's parser and the user's app.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { CommandIO } from '../../src/cli-kit/io.js';
import { UsageError } from '../../src/cli-kit/usage.js';
import { EXIT } from '../exit.js';
import { pairWithBase } from './base.js';
import { casesOf, isCase, type NotRun, type VerifyCase } from './cases.js';
import { compareAnswers, valueAt, type Answer } from '../../compat/v6-form/answers.js';
import { DEFAULT_MAX_RESPONSE_BYTES, EndpointError } from './endpoint.js';
import { findDocuments } from './find.js';
import { checkMutationTarget } from './guard.js';
import { summarize, summaryLine, toJson, toMarkdown, unprovenLine, verdictLine, type DocumentVerdict, type Verdict } from './report.js';
import { appTarget, urlTarget, type Target } from './targets.js';

export interface VerifyArgs {
  paths: string[];
  ignore: string[];
  app?: string;
  url?: string;
  mutations: boolean;
  targetEnv?: string;
  /** A JSON file: `{ "<operation name>": { ...variables } }`. */
  variables?: string;
  report?: string;
  /** A git ref holding the documents before the migration; the work tree holds them after. */
  base?: string;
  /** As `v5-to-v6 --no-keep-response-keys` migrated (or will migrate) them. */
  keepResponseKeys: boolean;
  /** `--url`: the largest answer read (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxResponseBytes?: number;
}

type Variables = Record<string, Record<string, unknown>>;

function readVariables(file: string | undefined, cwd: string): Variables {
  if (!file) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(resolve(cwd, file), 'utf8'));
  } catch (error) {
    throw new UsageError(`--variables ${file}: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError(`--variables ${file}: must be an object of operation name → variables`);
  return value as Variables;
}

function checkArgs(args: VerifyArgs): void {
  if (args.paths.length === 0) throw new UsageError('no paths given');
  if (!args.app === !args.url) throw new UsageError('give the app to run against: --app <module> (in this process) or --url <base> (a running server)');
  if (args.url && !/^https?:\/\//i.test(args.url)) throw new UsageError(`--url must be an http(s) URL: ${args.url}`);
  // The endpoints are <url>/graphql[/v5]: a query or fragment would swallow that path, and fetch refuses credentials.
  if (args.url && !URL.canParse(args.url)) throw new UsageError(`--url is not a URL: ${args.url}`);
  if (args.url && ((u) => u.username || u.password || u.search || u.hash)(new URL(args.url)))
    throw new UsageError(`--url names the server's base address, without credentials, query or fragment: ${args.url}`);
  if (args.maxResponseBytes !== undefined) {
    if (!args.url) throw new UsageError('--max-response-bytes bounds the answers of a --url server: with --app there are none');
    if (!Number.isSafeInteger(args.maxResponseBytes) || args.maxResponseBytes < 1) throw new UsageError(`--max-response-bytes must be a whole number of bytes, at least 1: ${args.maxResponseBytes}`);
  }
  if (args.report && !/\.(json|md)$/.test(args.report)) throw new UsageError(`--report must end in .json or .md: ${args.report}`);
  checkMutationTarget({ mutations: args.mutations, targetEnv: args.targetEnv, url: args.url });
}

async function run(c: VerifyCase, target: Target, args: VerifyArgs, variables: Variables): Promise<Verdict> {
  if (c.kind === 'subscription') return { verdict: 'not run', cause: 'subscription', reason: 'a subscription: verify runs queries and mutations' };
  if (c.kind === 'mutation' && !args.mutations)
    return { verdict: 'not run', cause: 'mutation', reason: 'a mutation: run only with --mutations --target-env <non-production target>' };
  const given = (c.operation !== null ? variables[c.operation] : undefined) ?? {};
  const missing = c.required.filter((v) => !(v in given));
  if (missing.length > 0)
    return { verdict: 'not run', cause: 'variables', reason: `needs ${missing.map((v) => `$${v}`).join(', ')}: give ${missing.length === 1 ? 'it' : 'them'} in --variables <file.json> under "${c.operation ?? '(name the operation)'}"` };
  const request = { variables: given, ...(c.operation !== null ? { operationName: c.operation } : {}) };
  try {
    const v5 = await target.v5({ ...request, query: c.v5, ...(c.persistedId ? { persistedId: c.persistedId } : {}) }, c.schema);
    const v6 = await target.v6({ ...request, query: c.v6 }, c.schema);
    // An answer without data is a request refused (the document does not validate, an unknown
    // fragment…): both sides refusing alike would compare "same" and prove nothing.
    const refused = refusal(v5) ?? refusal(v6);
    if (refused) return { verdict: 'not run', cause: 'refused', reason: refused };
    const compared = compareAnswers(v5, v6, c.moves);
    if (!compared.path) return { verdict: 'same' };
    return { verdict: 'differs', path: compared.path, v5: valueAt(compared.v5, compared.path), v6: valueAt(compared.v6, compared.path) };
  } catch (error) {
    return { verdict: 'not run', cause: error instanceof EndpointError ? error.fault : 'failed', reason: (error as Error).message.split('\n')[0]! };
  }
}

/**
 * Why an answer is a refusal of the request, else undefined: no data and no error at a field's
 * path (a field's error that nulls the whole data has one) — the document did not validate or run.
 */
function refusal(answer: Answer): string | undefined {
  if (answer.data !== undefined && answer.data !== null) return undefined;
  const errors = (Array.isArray(answer.errors) ? answer.errors : []) as { message?: unknown; path?: unknown }[];
  if (errors.some((e) => Array.isArray(e?.path))) return undefined;
  const first = typeof errors[0]?.message === 'string' ? `: ${errors[0].message}` : '';
  return `the endpoint answered no data${first}`;
}

function writeReport(path: string, text: string, cwd: string): void {
  const abs = resolve(cwd, path);
  mkdirSync(dirname(abs), { recursive: true });
  writeFileSync(abs, text);
}

/** The exit code: 4 when an operation differs (EXIT.differs), else 5 when one was not run or none was (EXIT.unproven), else 0. */
export async function verify(args: VerifyArgs, io: CommandIO): Promise<number> {
  checkArgs(args);
  const started = performance.now();
  const variables = readVariables(args.variables, io.cwd);
  const current = findDocuments(args.paths, io.cwd, args.ignore);
  const found = args.base ? pairWithBase(args.base, args.paths, io.cwd, args.ignore, current) : current;
  const target = args.app ? await appTarget(args.app, io.cwd, found.mapping) : await urlTarget(args.url!, args.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES);
  const verdicts: DocumentVerdict[] = [];
  try {
    for (const doc of found.documents) {
      for (const c of casesOf(doc, target.schemas, args.keepResponseKeys)) {
        const at = { file: c.file, line: c.line, operation: c.operation, ...(c.kind ? { kind: c.kind } : {}) };
        const verdict = isCase(c) ? await run(c, target, args, variables) : { verdict: 'not run' as const, cause: (c as NotRun).cause, reason: (c as NotRun).reason };
        const persisted = isCase(c) && c.persistedId ? { persistedId: c.persistedId } : {};
        verdicts.push({ ...at, ...persisted, ...verdict });
        io.stdout.write(`${verdictLine(verdicts[verdicts.length - 1]!)}\n`);
      }
    }
  } finally {
    await target.close();
  }
  for (const s of found.skipped) io.stderr.write(`skipped: ${s.file}: ${s.reason}\n`);
  const report = summarize(target.name, verdicts, found.skipped, (performance.now() - started) / 1000);
  if (verdicts.length === 0) io.stdout.write('no v5 documents found: nothing to verify (on a migrated tree, name the commit before the migration with --base <ref>)\n');
  io.stdout.write(`${summaryLine(report)}\n`);
  const unproven = unprovenLine(report);
  if (unproven) io.stdout.write(`${unproven}\n`);
  if (args.report) writeReport(args.report, args.report.endsWith('.json') ? toJson(report) : toMarkdown(report), io.cwd);
  return report.summary.differs > 0 ? EXIT.differs : unproven ? EXIT.unproven : EXIT.ok;
}
