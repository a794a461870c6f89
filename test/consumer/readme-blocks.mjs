// The documentation's examples against the installed package (issue 11.7), run by run.sh inside
// the consumer project: every ```ts block of README.md and of the manual pages beside it
// (docs/*.md) becomes <out>/<page>-NN.ts and is type-checked with tsc; blocks marked `run` are also
// run with tsx. A block that uses names it does not declare gets them from a prelude, named by an
// HTML comment right above the block:
//   <!-- readme-check: prelude NAME -->   prepend test/consumer/readme-preludes/NAME.ts
//   <!-- readme-check: prelude NAME run -->   ... and run it
//   <!-- readme-check: run -->            run it, with no prelude
//   <!-- readme-check: skip REASON -->    not checked (explicit and rare; the reason is printed)
// A block with no comment is checked on its own, so a new section must compile as written.
// `bash test/consumer/readme-blocks-local.sh` runs this step alone against the checkout's dist/.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const [readme, preludes, out] = process.argv.slice(2);
if (!readme || !preludes || !out) {
  console.error('usage: node readme-blocks.mjs <README.md> <preludes dir> <out dir>');
  process.exit(2);
}
const root = dirname(readme);
const docs = join(root, 'docs');
// The README first, then the manual pages in name order, so block files sort as the pages do, then
// ergraph-migrate's README.
const migrate = join(root, 'codemods', 'README.md');
const pages = [readme, ...(existsSync(docs) ? readdirSync(docs).filter((f) => f.endsWith('.md')).sort().map((f) => join(docs, f)) : []), ...(existsSync(migrate) ? [migrate] : [])];

mkdirSync(out, { recursive: true });
const plan = [];
for (const page of pages) {
  const where = relative(root, page);
  const text = readFileSync(page, 'utf8');
  const blocks = [...text.matchAll(/(?:<!--\s*readme-check:([^>]*)-->\s*\n)?```ts\n([\s\S]*?)```/g)];
  const stem = where === 'README.md' ? 'readme' : where === 'codemods/README.md' ? 'migrate-readme' : `docs-${where.replace(/^docs\//, '').replace(/\.md$/, '').toLowerCase()}`;
  blocks.forEach((match, i) => {
    const line = text.slice(0, match.index).split('\n').length;
    const words = (match[1] ?? '').trim().split(/\s+/).filter(Boolean);
    const name = `${stem}-${String(i + 1).padStart(2, '0')}`;
    if (words[0] === 'skip') {
      console.log(`${where}:${line} ${name} skipped: ${words.slice(1).join(' ') || '(no reason given)'}`);
      if (words.length < 2) process.exitCode = 1; // a skip must say why
      return;
    }
    if (words.length > 0 && words[0] !== 'prelude' && words[0] !== 'run') {
      console.error(`${where}:${line}: unknown readme-check marker "${words.join(' ')}" (prelude NAME [run], run, skip REASON)`);
      process.exitCode = 1;
      return;
    }
    const preludeFile = words[0] === 'prelude' ? join(preludes, `${words[1]}.ts`) : undefined;
    if (preludeFile && !existsSync(preludeFile)) {
      console.error(`${where}:${line}: no prelude ${preludeFile}`);
      process.exitCode = 1;
      return;
    }
    const prelude = preludeFile ? readFileSync(preludeFile, 'utf8') : '';
    const code = `${prelude}\n// ---- ${where} line ${line} ----\n${match[2]}\nexport {};\n`;
    writeFileSync(join(out, `${name}.ts`), code);
    plan.push({ file: `${name}.ts`, page: where, line, run: words.includes('run') });
  });
}
writeFileSync(join(out, 'plan.json'), JSON.stringify(plan, null, 2));
const count = (page) => plan.filter((p) => p.page === page).length;
console.log(
  `${plan.length} TypeScript blocks to check (${pages.map((p) => `${relative(root, p)} ${count(relative(root, p))}`).join(', ')}), ` +
    `${plan.filter((p) => p.run).length} to run`,
);
