/**
 * vitest globalSetup: clears the skip log before the run and, after it, prints every suite or
 * variant that was skipped and why (test/support/skips.ts). A skip that its variable
 * (ERGRAPH_REQUIRE_PG, ERGRAPH_REQUIRE_CHROMIUM) or CI requires fails the run.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { SKIPS_FILE, type Skip } from './skips.js';

export default function setup(): () => void {
  rmSync(SKIPS_FILE, { force: true });
  return () => {
    if (!existsSync(SKIPS_FILE)) return;
    const lines = readFileSync(SKIPS_FILE, 'utf8').trim().split('\n').filter(Boolean);
    rmSync(SKIPS_FILE, { force: true }); // each project's teardown runs this: the first one reports
    const skips = [...new Map(lines.map((l) => [l, JSON.parse(l) as Skip])).values()];
    if (!skips.length) return;
    const required = skips.filter((s) => process.env.CI || process.env[s.requiredBy]);
    const out = [`\nSkipped here (${skips.length}):`];
    for (const s of skips) out.push(`  - ${s.file}: ${s.what} — ${s.why}${required.includes(s) ? ` [required: ${process.env.CI ? 'CI' : s.requiredBy}]` : ` (set ${s.requiredBy}=1 to require it)`}`);
    console.log(out.join('\n'));
    if (required.length) {
      // A throw here is only logged by vitest ("error during close"); the exit code is what CI reads.
      console.error(`${required.length} required suite(s) or variant(s) did not run (see the list above): the run fails`);
      process.exitCode = 1;
    }
  };
}
