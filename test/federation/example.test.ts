/**
 * The example federation as separate processes: `examples/federation/start.ts` spawns users,
 * reviews and products on their own ports; the test queries the mounter, then stops them all.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Ports free right now on 127.0.0.1 (held together, so all differ): fixed ports collide with anything else on the machine. */
async function freePorts(count: number): Promise<string[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((s) => String((s.address() as AddressInfo).port));
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

let ports: Record<'PRODUCTS_PORT' | 'REVIEWS_PORT' | 'USERS_PORT', string>;
let products: string;
let child: ChildProcess;
let output = '';

beforeAll(async () => {
  const [p, r, u] = await freePorts(3);
  ports = { PRODUCTS_PORT: p!, REVIEWS_PORT: r!, USERS_PORT: u! };
  products = `http://127.0.0.1:${ports.PRODUCTS_PORT}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'examples/federation/start.ts'], {
    cwd: root,
    env: { ...process.env, ...ports, READY_TIMEOUT_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so the three services go down with it
  });
  // Ready is what the example says, or its exit: no guess of how long three processes take to
  // start on a loaded machine (a 90 s one failed in full runs). The hook's own timeout only
  // catches a child that hangs without either.
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('federation ready')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`federation example exited with ${code}:\n${output}`)));
  });
}, 900_000);

afterAll(async () => {
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  process.kill(-child.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
});

const graphql = async (query: string) => {
  const response = await fetch(`${products}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as { data: Record<string, unknown> | null; errors: unknown[] | null };
};

describe('examples/federation (three processes)', () => {
  it('answers a query across products → reviews → users', async () => {
    const result = await graphql(
      '{ Product { getAll(limit: 10) { id name reviews(limit: 2, order: best) { items { rating author { name } } pagination { has_more total_count } } } } }',
    );
    expect(result.errors).toBeNull();
    const list = (result.data!.Product as { getAll: { reviews: { items: { rating: number; author: { name: string } }[]; pagination: { has_more: boolean; total_count: number } } }[] }).getAll;
    expect(list).toHaveLength(10);
    for (const product of list) {
      expect(product.reviews.items).toHaveLength(2);
      expect(product.reviews.items[0]!.rating).toBeGreaterThanOrEqual(product.reviews.items[1]!.rating);
      expect(product.reviews.pagination).toEqual({ has_more: true, total_count: 3 });
      expect(typeof product.reviews.items[0]!.author.name).toBe('string');
    }
  });

  it('serves DTO federation cards with member-computed fields', async () => {
    const cards = (await (await fetch(`${products}/cards`)).json()) as { name: string; reviews: { stars: string }[]; headline: string }[];
    expect(cards).toHaveLength(10);
    expect(cards[0]!.reviews).toHaveLength(2);
    expect(cards[0]!.reviews[0]!.stars).toMatch(/^★+$/);
    expect(cards[0]!.headline).toContain('★');
  });

  it('publishes the mounter graph, including what it reached transitively', async () => {
    const body = (await (await fetch(`${products}/ergraph/er-introspection`)).json()) as { entities: { name: string; service: string }[] };
    expect(body.entities.map((e) => [e.name, e.service])).toEqual([
      ['Product', 'products'],
      ['Review', 'reviews'],
      ['User', 'users'],
    ]);
  });
});
