/**
 * The project's code, run only to find the v6 schema, in a child process under Node's permission
 * model: it may read files, but not write any, start processes or load native addons (the probe
 * of issue 27 had a `graphql.config.js` and a module of the scanned tree each write a file
 * outside it). Worker threads stay allowed: Node runs module hooks in one, and a worker has the
 * same permissions. The child answers with the schemas as SDL over its IPC channel.
 */
import { spawn } from 'node:child_process';
import { SchemaLoadError } from './schema.js';
import { ts } from '../lib/parse.js';
import { HOOKS_URL, settingsOf } from './sandbox-hooks.js';

export interface SandboxRequest {
  cwd: string;
  app?: string;
  /** Modules to load for their graphs, and those registering entities, loaded first. */
  candidates: string[];
  registering: string[];
  /** The temporary copy holding the migrated texts: where each candidate is loaded from. */
  overlay?: { root: string; dir: string };
  /** The tsconfig's options and `paths` (sandbox-hooks.ts `Settings`), as JSON. */
  settings: string;
  timeoutMs: number;
}

export interface SandboxReply {
  result?: { sdls: string[]; source: string };
  error?: { name: string; message: string; source?: string };
  logs: string[];
}

/** Node 20 has the permission model behind `--experimental-permission`; 22.13+ as `--permission`. */
export function permissionFlags(): string[] {
  const on = process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission';
  return [on, '--allow-fs-read=*', '--allow-worker', '--no-warnings'];
}

const CHILD = new URL(`./sandbox-child.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url);

/**
 * Runs the lookup in the child. Each module keeps its own time bound there; this one ends a
 * child that outlives all of them together (a module that blocks its event loop).
 */
export async function inSandbox(lookup: Omit<SandboxRequest, 'settings'>, tsconfig: string | undefined): Promise<SandboxReply> {
  const request: SandboxRequest = { ...lookup, settings: JSON.stringify(settingsOf(ts, tsconfig)) };
  const boot = [
    "import { register } from 'node:module';",
    `register(${JSON.stringify(HOOKS_URL)}, { data: { from: ${JSON.stringify(import.meta.url)}, settings: ${JSON.stringify(request.settings)} } });`,
    `await import(${JSON.stringify(CHILD.href)});`,
  ].join('\n');
  const child = spawn(process.execPath, [...permissionFlags(), '--input-type=module', '-e', boot], {
    cwd: request.cwd,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4000)));
  const limit = (request.candidates.length + request.registering.length + 2) * request.timeoutMs + 30_000;
  return new Promise<SandboxReply>((resolve, reject) => {
    let reply: SandboxReply | undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), limit);
    child.on('message', (message) => (reply = message as SandboxReply));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new SchemaLoadError('schema lookup', `the sandboxed child process failed: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (reply) return resolve(reply);
      const why = signal === 'SIGKILL' ? `did not finish within ${limit / 1000} s` : `ended (${signal ?? `exit ${code}`}) without an answer: ${stderr.trim().split('\n').slice(-3).join(' ') || 'no message'}`;
      reject(new SchemaLoadError('schema lookup', `the sandboxed child process ${why}`));
    });
    child.send(request);
  });
}

