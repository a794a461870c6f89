/**
 * The published pages (README.md, docs/*.md, the folders' READMEs) name only what a reader of the
 * repository or the package has: every relative link resolves to a file inside the repository,
 * and no path in the text climbs out of it (`../shared/…` was a path of the authors' machine).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const folderReadmes = readdirSync(root, { withFileTypes: true })
  .filter((e) => e.isDirectory() && !/^(node_modules|dist|\.)/.test(e.name))
  .flatMap((e) => [join(e.name, 'README.md'), ...(e.name === 'examples' ? readdirSync(join(root, 'examples')).map((x) => join('examples', x, 'README.md')) : [])]);
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f)), ...folderReadmes].filter((p) =>
  existsSync(join(root, p)),
);

it.each(pages)('%s: relative links resolve inside the repository, and no path climbs out of it', (page) => {
  const text = readFileSync(join(root, page), 'utf8');
  const outside: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue;
    const file = resolve(root, dirname(page), target!.split('#')[0]!);
    if (relative(root, file).startsWith('..') || !existsSync(file)) outside.push(target!);
  }
  for (const [, path] of text.matchAll(/`(\.\.\/[^`\s]*)`/g)) outside.push(path!);
  expect(outside).toEqual([]);
});
