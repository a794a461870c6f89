// README examples against the installed package (issue 11.7), run by run.sh inside the consumer
// project: every ```ts block of README.md becomes readme/block-NN.ts and is type-checked with
// tsc; blocks marked `run` are also run with tsx. A block that uses names it does not declare
// gets them from a prelude, named by an HTML comment right above the block:
//   <!-- readme-check: prelude NAME -->   prepend test/consumer/readme-preludes/NAME.ts
//   <!-- readme-check: prelude NAME run -->   ... and run it
//   <!-- readme-check: skip REASON -->    not checked (explicit and rare; the reason is printed)
// A block with no comment is checked on its own, so a new section must compile as written.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [readme, preludes, out] = process.argv.slice(2);
const text = readFileSync(readme, 'utf8');
const blocks = [...text.matchAll(/(?:<!--\s*readme-check:([^>]*)-->\s*\n)?```ts\n([\s\S]*?)```/g)];
mkdirSync(out, { recursive: true });
const plan = [];
blocks.forEach((match, i) => {
  const line = text.slice(0, match.index).split('\n').length;
  const words = (match[1] ?? '').trim().split(/\s+/).filter(Boolean);
  const name = `block-${String(i + 1).padStart(2, '0')}`;
  if (words[0] === 'skip') {
    console.log(`README.md:${line} ${name} skipped: ${words.slice(1).join(' ') || '(no reason given)'}`);
    if (words.length < 2) process.exitCode = 1; // a skip must say why
    return;
  }
  const prelude = words[0] === 'prelude' ? readFileSync(join(preludes, `${words[1]}.ts`), 'utf8') : '';
  const code = `${prelude}\n// ---- README.md line ${line} ----\n${match[2]}\nexport {};\n`;
  writeFileSync(join(out, `${name}.ts`), code);
  plan.push({ file: `${name}.ts`, line, run: words.includes('run') });
});
writeFileSync(join(out, 'plan.json'), JSON.stringify(plan, null, 2));
console.log(`README.md: ${plan.length} TypeScript blocks to check, ${plan.filter((p) => p.run).length} to run`);
