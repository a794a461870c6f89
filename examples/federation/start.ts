/**
 * Start the federation example: users, then reviews (mounts users), then products (mounts
 * reviews), each a separate process on 127.0.0.1. Waits until each is ready; Ctrl-C stops all.
 *
 *   npx tsx examples/federation/start.ts
 *   curl -s localhost:4101/graphql -H 'content-type: application/json' \
 *     -d '{"query":"{ Product { getAll(limit: 3) { name reviews(limit: 2) { items { rating author { name } } pagination { has_more total_count } } } } }"}'
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
// 0: wait for each service's READY line or its exit, however long (the tests: a loaded machine).
const READY_TIMEOUT_MS = Number(process.env.READY_TIMEOUT_MS ?? 30_000);
const children: ChildProcess[] = [];

function startService(name: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', here(`./${name}.ts`)], {
    cwd: here('../..'),
    env: process.env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = READY_TIMEOUT_MS > 0 ? setTimeout(() => reject(new Error(`${name} was not ready within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS) : undefined;
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      process.stdout.write(chunk);
      const match = /READY \S+ (\S+)/.exec(buffer);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited with code ${code} before it was ready`));
    });
  });
}

function stopAll() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

process.on('SIGINT', () => {
  stopAll();
  process.exit(0);
});
process.on('SIGTERM', () => {
  stopAll();
  process.exit(0);
});

try {
  for (const name of ['users', 'reviews', 'products']) await startService(name);
  console.log('federation ready: products (mounter) at http://127.0.0.1:%s/graphql', process.env.PRODUCTS_PORT ?? 4101);
} catch (error) {
  console.error((error as Error).message);
  stopAll();
  process.exit(1);
}
