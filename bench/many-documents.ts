/**
 * One file of many small tagged documents (issue 45.2: persisted-query manifests and generated
 * operation files reach 95,000 documents, 5-6 MB): `ergraph-migrate v5-to-v6 --schema … --dry-run`
 * on such a file at two sizes, each in a process of its own, as users run the CLI (the built
 * bin). Its subject is the large file, its baseline the small one, both in CPU ms per 1,000
 * documents: a run that grows linearly with documents reads ~1.0x (target: at most 1.5x). The
 * note gives documents/s, wall seconds and peak RSS of each (issue 45.2's goal for 95,528
 * documents: within 60 s and 1 GB on the project's 2-core machine).
 *
 * Before the fix (2026-12-07) 9,500 documents took 29 s and 95,528 did not finish in 500 s: the
 * version check split the text before every literal, and every TODO marker walked the whole file
 * and searched every edit and every manual item before it; later each exported document's note
 * looked its declaration up by walking every statement (docs/benchmarks.md).
 *
 * Takes one to two minutes (the large file's run). Run alone: `npx tsx bench/many-documents.ts
 * [small] [large]` (document counts; default 9552 95528).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import buildIfStale from '../test/support/build-if-stale.js';
import { runAlone, type BenchRow } from './report.js';

const BIN = fileURLToPath(new URL('../codemods/bin/ergraph-migrate.js', import.meta.url));
const alone = process.argv[1] === fileURLToPath(import.meta.url);
const SMALL = Number((alone && process.argv[2]) || 9552);
const LARGE = Number((alone && process.argv[3]) || 95528);

/** The v6 schema the documents' flat `userGetAll` resolves against (`User { getAll }`). */
const SCHEMA = 'type User { id: Int! name: String! }\ntype UserQuery { getAll: [User!]! byId(id: Int!): User }\ntype Query { User: UserQuery! }\n';

/** A project of one file of `count` exported v5 documents, as a generator writes them. */
export function generate(root: string, count: number): number {
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'schema.graphql'), SCHEMA);
  const lines = ["import { gql } from '@apollo/client';", ''];
  for (let i = 0; i < count; i++) lines.push(`export const Q${i} = gql\`query Q${i} { userGetAll { id name } }\`;`);
  const text = `${lines.join('\n')}\n`;
  writeFileSync(join(root, 'src', 'operations.ts'), text);
  return text.length;
}

/** Printed by the CLI's process as it exits: its own CPU time and peak RSS, no other process's. */
const USAGE = 'data:text/javascript,process.on("exit",()=>{const u=process.resourceUsage();console.error("USAGE "+JSON.stringify({cpuMs:(u.userCPUTime+u.systemCPUTime)/1000,maxRssKb:u.maxRSS}))})';

interface Measured {
  documents: number;
  bytes: number;
  cpuMs: number;
  wallMs: number;
  rssMb: number;
}

function measure(documents: number): Measured {
  const root = mkdtempSync(join(tmpdir(), 'ergraph-many-documents-'));
  try {
    const bytes = generate(root, documents);
    const started = performance.now();
    const run = spawnSync(process.execPath, ['--import', USAGE, BIN, 'v5-to-v6', '--schema', 'schema.graphql', '--dry-run', 'src'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
    const wallMs = performance.now() - started;
    const usage = /^USAGE (.*)$/m.exec(run.stderr)?.[1];
    // A run that quietly did less (an error, no rewrite) would look fast. Every document is
    // rewritten, and each is an export nothing in the run imports: a note, not a marker.
    const summary = '1 files scanned, 1 would change, 0 manual, 0 errors';
    const rewritten = run.stdout.split('User { userGetAll: getAll { id name } }').length - 1;
    if (rewritten !== documents) throw new Error(`${rewritten} of ${documents} documents rewritten`);
    if (run.status !== 0 || !usage || !run.stdout.includes(summary)) throw new Error(`unexpected run at ${documents} documents (exit ${run.status}): ${run.stderr.slice(-2000)}${run.stdout.slice(-500)}`);
    const { cpuMs, maxRssKb } = JSON.parse(usage) as { cpuMs: number; maxRssKb: number };
    return { documents, bytes, cpuMs, wallMs, rssMb: maxRssKb / 1024 };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const said = (m: Measured) =>
  `${m.documents.toLocaleString('en-US')} documents (${(m.bytes / 1e6).toFixed(1)} MB): ${Math.round(m.documents / (m.wallMs / 1000)).toLocaleString('en-US')} documents/s, ${(m.wallMs / 1000).toFixed(1)} s wall, ${(m.cpuMs / 1000).toFixed(1)} s CPU, ${Math.round(m.rssMb)} MB RSS`;

export async function run(): Promise<BenchRow[]> {
  buildIfStale();
  const small = measure(SMALL);
  const large = measure(LARGE);
  for (const m of [small, large]) console.log(said(m));
  const perThousand = (m: Measured) => m.cpuMs / (m.documents / 1000);
  console.log(`ratio of CPU time per document, large / small: ${(perThousand(large) / perThousand(small)).toFixed(2)}x (linear: ~1.0x)`);
  return [
    {
      bench: 'many-documents',
      case: 'v5-to-v6 --dry-run, one file of tagged documents: CPU ms per 1,000 documents',
      subject: `${LARGE.toLocaleString('en-US')} documents`,
      subjectMs: perThousand(large),
      baseline: `${SMALL.toLocaleString('en-US')} documents`,
      baselineMs: perThousand(small),
      target: 1.5,
      rounds: 1,
      note: `${said(large)}; ${said(small)}`,
    },
  ];
}

await runAlone(import.meta, run, 120_000);
