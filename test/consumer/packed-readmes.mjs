// Each packed package as the registry shows it (issue 44.5): every link of its README works —
// a relative one names a file in the tarball, one into this repository names a file that exists
// here (and a heading there, for `#anchor`), an anchor of its own a heading of the README — and it
// ships its LICENSE and says where it comes from (repository, homepage, bugs).
//   node test/consumer/packed-readmes.mjs <repository root> <tarball>...
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { FILES, links } from '../../scripts/readme-links.mjs';

const [root, ...tarballs] = process.argv.slice(2);

/** GitHub's anchors of a Markdown text's headings. */
function anchors(text) {
  const seen = new Map();
  return new Set(
    [...text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map(([, heading]) => {
      const slug = heading.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
      const n = seen.get(slug) ?? 0;
      seen.set(slug, n + 1);
      return n ? `${slug}-${n}` : slug;
    }),
  );
}

let failures = 0;
const fail = (what) => {
  console.error(`   ${what}`);
  failures++;
};

for (const tarball of tarballs) {
  const dir = mkdtempSync(join(tmpdir(), 'ergraph-packed-'));
  try {
    execFileSync('tar', ['xzf', tarball, '-C', dir]);
    const pkg = join(dir, 'package');
    const name = basename(tarball);
    const readme = readFileSync(join(pkg, 'README.md'), 'utf8');
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8'));
    if (!existsSync(join(pkg, 'LICENSE')) || !/^MIT License/.test(readFileSync(join(pkg, 'LICENSE'), 'utf8'))) fail(`${name}: no MIT LICENSE file`);
    for (const field of ['repository', 'homepage', 'bugs']) if (!manifest[field]) fail(`${name}: package.json has no ${field}`);
    let count = 0;
    for (const target of links(readme)) {
      count++;
      const [path, anchor] = target.split('#');
      let text;
      if (target.startsWith(FILES)) {
        const file = join(root, decodeURIComponent(path.slice(FILES.length)));
        if (!existsSync(file)) fail(`${name}: ${target}: no such file in the repository`);
        else if (anchor) text = readFileSync(file, 'utf8');
      } else if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
        continue; // another site: not checked offline
      } else if (!path) {
        text = readme;
      } else if (!existsSync(join(pkg, path))) {
        fail(`${name}: ${target}: a relative link to a file the package does not ship`);
      } else if (anchor) text = readFileSync(join(pkg, path), 'utf8');
      if (text !== undefined && anchor && !anchors(text).has(anchor)) fail(`${name}: ${target}: no heading with that anchor`);
    }
    console.log(`   ${name}: ${count} links, LICENSE, repository/homepage/bugs checked`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(failures ? 1 : 0);
