/**
 * Hints name the project's package manager: its package.json `packageManager` or lockfile in the
 * nearest folder up that has one, before the manager running the command (`npx` in a pnpm
 * project is still a pnpm project), then npm.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { packageManager } from '../../src/peers/package-manager.js';

const root = mkdtempSync(join(tmpdir(), 'ergraph-pm-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const NPX = { npm_config_user_agent: 'npm/10.9.2 node/v22.12.0 linux x64 workspaces/false' };

function project(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

it('reads the lockfile, also from a workspace package below it, whatever manager started the command', () => {
  expect(packageManager(NPX, project('p', { 'pnpm-lock.yaml': '', 'package.json': '{}' }))).toMatchObject({ name: 'pnpm', add: 'pnpm add', install: 'pnpm install', dedupe: 'pnpm dedupe' });
  const workspace = project('y', { 'yarn.lock': '', 'package.json': '{}', 'packages/app/package.json': '{}' });
  expect(packageManager(NPX, join(workspace, 'packages', 'app')).name).toBe('yarn');
  const bun = packageManager({}, project('b', { 'bun.lock': '' }));
  expect([bun.name, bun.add, bun.dedupe]).toEqual(['bun', 'bun add', undefined]);
  expect(packageManager({ npm_config_user_agent: 'pnpm/9.15.0' }, project('n', { 'package-lock.json': '{}' })).name).toBe('npm');
});

it("package.json's packageManager (Corepack) comes before a lockfile", () => {
  expect(packageManager(NPX, project('c', { 'package.json': '{"packageManager":"yarn@4.5.0"}', 'package-lock.json': '{}' })).name).toBe('yarn');
});

it('without either, the manager that runs the command; npm when none says', () => {
  const bare = project('none', { 'README.md': '' });
  expect(packageManager({ npm_config_user_agent: 'pnpm/10.0.0 npm/? node/v22' }, bare).name).toBe('pnpm');
  expect(packageManager({ npm_config_user_agent: 'yarn/1.22.22 npm/? node/v20' }, bare).name).toBe('yarn');
  expect(packageManager({}, bare).name).toBe('npm');
});
