/**
 * The differential oracle: random ergraph worlds (oracle/world.ts), random valid documents
 * (oracle/documents.ts) and random resolver and loader behaviour (oracle/values.ts), each case
 * run on the compiled executor and on graphql-js, the answers compared (oracle/compare.ts).
 *
 * A run is one world and CASES_PER_WORLD cases over it, all read from fast-check's tapes; run
 * `i` of a CI run uses seed `ORACLE_SEED + i`. A failure prints the seed that reproduces it
 * alone, fast-check's shrunk counterexample (the world, document, variables and both answers):
 *   ORACLE_SEED=<seed> ORACLE_CASES=1 npx vitest run test/graphql/executor-differential.test.ts --project ergraph
 * ORACLE_CASES (default 10,000) is the number of cases: runs × CASES_PER_WORLD.
 */
import fc from 'fast-check';
import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { disagreement, normalize } from './oracle/compare.js';
import { makeDocument, type Doc } from './oracle/documents.js';
import { Dice, Tape } from './oracle/random.js';
import { makeWorld, state, type World } from './oracle/world.js';

const CASES_PER_WORLD = 20;
const CASES = Number(process.env.ORACLE_CASES ?? 10_000);
const SEED = process.env.ORACLE_SEED ? Number(process.env.ORACLE_SEED) : Date.now() % 1_000_000_007;
const RUNS = Math.max(1, Math.ceil(CASES / CASES_PER_WORLD));
const BLOCKS = Math.min(10, RUNS);
const RATES = [0, 0.05, 0.2, 0.5];

const tape = (length: number) => fc.array(fc.nat({ max: 0xffff }), { minLength: length, maxLength: length });

async function answer(world: World, executor: 'compiled' | 'reference', doc: Doc, dice: Dice, rate: number) {
  const env = { dice, rate, calls: [] as string[] };
  state.env = env;
  try {
    try {
      const result = await world[executor].execute(doc.text, { variables: doc.variables, operationName: doc.operationName });
      return { result, calls: env.calls };
    } catch (error) {
      // `execute` answers every request; a throw is a difference of its own (and a bug).
      return { result: { threw: String(error) }, calls: env.calls };
    }
  } finally {
    state.env = undefined;
  }
}

async function runCase(world: World, caseTape: readonly number[], index: number): Promise<void> {
  const t = new Tape(caseTape);
  const rate = RATES[t.pick(RATES.length)]!;
  const dice = new Dice(t.next() * 65536 + t.next());
  const doc = makeDocument(t, world.schema);
  const prepared = world.compiled.prepare(doc.text);
  if ('errors' in prepared && prepared.errors?.some((e) => !e.extensions?.code)) {
    throw new Error(`the generator made an invalid document:\n${doc.text}\n${JSON.stringify(prepared.errors, null, 1)}`);
  }
  const compiled = await answer(world, 'compiled', doc, dice, rate);
  const reference = await answer(world, 'reference', doc, dice, rate);
  const threw = [compiled, reference].find((a) => 'threw' in a.result);
  let why = threw ? `execute threw instead of answering` : disagreement(compiled.result, reference.result);
  if (!why && JSON.stringify(compiled.calls) !== JSON.stringify(reference.calls)) why = 'mutation methods ran in another order';
  if (why) {
    throw new Error(
      [
        `case ${index}: ${why} (rate ${rate}, dice ${dice.seed})`,
        `world:\n${world.summary}`,
        `document: ${doc.text}`,
        `variables: ${JSON.stringify(doc.variables)}  operationName: ${doc.operationName}`,
        `compiled:   ${JSON.stringify(normalize(compiled.result))}`,
        `graphql-js: ${JSON.stringify(normalize(reference.result))}`,
        `mutations: ${JSON.stringify(compiled.calls)} / ${JSON.stringify(reference.calls)}`,
      ].join('\n'),
    );
  }
}

const property = fc.asyncProperty(tape(300), fc.array(tape(200), { minLength: CASES_PER_WORLD, maxLength: CASES_PER_WORLD }), async (worldTape, caseTapes) => {
  const world = makeWorld(new Tape(worldTape));
  for (const [i, caseTape] of caseTapes.entries()) await runCase(world, caseTape, i);
});

async function run(seed: number): Promise<void> {
  // The run itself has no time limit: a slow machine takes longer, it does not fail.
  const found = await fc.check(property, { seed, numRuns: 1, endOnFailure: true });
  if (!found.failed) return;
  // A difference: shrink it (the same seed finds it again), for at most a minute — the smallest
  // counterexample by then is reported; the difference fails the run whatever the shrink does.
  let details = found;
  if (process.env.ORACLE_SHRINK !== '0') {
    const shrunk = await fc.check(property, { seed, numRuns: 1, interruptAfterTimeLimit: 60_000 });
    if (shrunk.failed) details = shrunk;
  }
  const why = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(`Reproduce alone: ORACLE_SEED=${seed} ORACLE_CASES=1 (shrunk ${details.numShrinks} times)\n${why}`);
}

/**
 * graphql-js 16 leaves the rejection of a pending list item unhandled when a later item fails
 * synchronously (completeListValue does not wait for it; graphql/graphql-js#3761): in the
 * graphql-js executor mode such a response crashes a Node process that has no handler. Here
 * those rejections — located GraphQLErrors, which only graphql-js's execution rejects with —
 * are counted; anything else goes to vitest's own handlers as before.
 */
let abandoned = 0;
const vitestHandlers = process.listeners('unhandledRejection');
const countAbandoned = (reason: unknown, promise: Promise<unknown>) => {
  if (reason instanceof GraphQLError && reason.path) abandoned++;
  else for (const handler of vitestHandlers) handler(reason, promise);
};
beforeAll(() => {
  process.removeAllListeners('unhandledRejection');
  process.on('unhandledRejection', countAbandoned);
});
afterAll(async () => {
  // Node tells of an unhandled rejection once the microtasks of its turn have run: let the last
  // case's turn end before vitest's handlers come back.
  await new Promise((resolve) => setImmediate(resolve));
  process.off('unhandledRejection', countAbandoned);
  for (const handler of vitestHandlers) process.on('unhandledRejection', handler);
  if (abandoned) console.log(`graphql-js left ${abandoned} rejections of abandoned list items unhandled`);
});

describe(`the compiled executor agrees with graphql-js (${RUNS * CASES_PER_WORLD} random cases, ORACLE_SEED=${SEED})`, () => {
  for (let block = 0; block < BLOCKS; block++) {
    const from = Math.floor((RUNS * block) / BLOCKS);
    const to = Math.floor((RUNS * (block + 1)) / BLOCKS);
    // No time limit (0): the worlds take what the machine needs; a hang is the CI job's to end.
    it(`worlds ${from}..${to - 1}`, { timeout: 0 }, async () => {
      for (let i = from; i < to; i++) await run((SEED + i) >>> 0);
    });
  }
});
