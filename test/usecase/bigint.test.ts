import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model, mutation, query, ref } from 'ergraph';
import { createUseCaseRouter, UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';

// Past 2^53: a JSON number would lose the last digit.
const BIG = 9007199254740993n;

class Counter extends model({
  id: z.bigint(),
  total: z.bigint().nullable(),
  history: z.array(z.bigint()),
  label: z.string(),
}) {}

class Ledger extends model({ counter: ref(() => Counter), owner: z.bigint().optional() }) {}

const calls: unknown[] = [];

class CounterService extends UseCaseService {
  @query({ args: { id: z.bigint() }, returns: () => Counter })
  static async getCounter({ id }: { id: bigint }) {
    calls.push(id);
    return new Counter({ id, total: id * 2n, history: [1n, BIG], label: '42' });
  }

  @query({ args: { ids: z.array(z.bigint()), label: z.string(), max: z.bigint().max(10n).optional() }, returns: z.array(z.bigint()) })
  static async echo({ ids, label }: { ids: bigint[]; label: string }) {
    calls.push(label);
    return ids;
  }

  @mutation({ args: { ledger: ref(() => Ledger) }, returns: () => Ledger })
  static async saveLedger({ ledger }: { ledger: Ledger }) {
    calls.push(ledger);
    return ledger;
  }

  @query({ args: {}, returns: z.object({ big: z.bigint(), nested: z.union([z.bigint(), z.string()]) }) })
  static async plain() {
    return { big: BIG, nested: -5n };
  }
}

const app = createUseCaseRouter(new UseCaseAppConfig({ name: 'Counters', services: [CounterService], onError: () => {} }));

async function post(path: string, body: unknown) {
  const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as any };
}

describe('bigint in use-case routes', () => {
  it('writes bigint results as decimal strings, like the GraphQL BigInt scalar', async () => {
    calls.length = 0;
    const res = await post('/api/counter_service/getCounter', { id: BIG.toString() });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: '9007199254740993', total: '18014398509481986', history: ['1', '9007199254740993'], label: '42' });
    expect(calls).toEqual([BIG]);
    expect((await post('/api/counter_service/plain', {})).json).toEqual({ big: '9007199254740993', nested: '-5' });
  });

  it('reads bigint args from decimal strings or safe integers, and only bigint-typed fields', async () => {
    calls.length = 0;
    const res = await post('/api/counter_service/echo', { ids: ['-12', 7, ' 3 '], label: '99' });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(['-12', '7', '3']);
    // the string field stays a string
    expect(calls).toEqual(['99']);
  });

  it('coerces bigint fields inside model-typed args', async () => {
    calls.length = 0;
    const res = await post('/api/counter_service/saveLedger', {
      ledger: { counter: { id: '5', total: null, history: ['1', 2], label: 'x' }, owner: '77' },
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ counter: { id: '5', total: null, history: ['1', '2'], label: 'x' }, owner: '77' });
    const ledger = calls[0] as Ledger;
    expect(ledger).toBeInstanceOf(Ledger);
    expect(ledger.counter.id).toBe(5n);
    expect(ledger.owner).toBe(77n);
  });

  it('answers 400 for values that are not integers, including bigint bounds in the issues', async () => {
    for (const id of ['12.5', 'abc', 1.5, 2 ** 60, true]) {
      const res = await post('/api/counter_service/getCounter', { id });
      expect(res.status, String(id)).toBe(400);
      expect(res.json.error).toBe('validation_error');
    }
    const res = await post('/api/counter_service/echo', { ids: [], label: 'x', max: '11' });
    expect(res.status).toBe(400);
    expect(res.json.issues[0]).toMatchObject({ path: ['max'], maximum: '10' });
  });

  it('documents bigint as a decimal string in OpenAPI, in args, results and model components', async () => {
    const doc = (await (await app.request('/openapi.json')).json()) as any;
    const big = { type: 'string', pattern: '^-?\\d+$', format: 'int64' };
    const op = (name: string) => doc.paths[`/api/counter_service/${name}`].post;
    const body = (name: string) => op(name).requestBody.content['application/json'].schema;
    const ok = (name: string) => op(name).responses['200'].content['application/json'].schema;
    expect(body('getCounter').properties.id).toEqual(big);
    expect(body('echo').properties.ids).toEqual({ type: 'array', items: big });
    expect(body('echo').properties.label).toEqual({ type: 'string' });
    // the router answers null for a null result, so every 200 schema admits null
    expect(ok('echo')).toEqual({ anyOf: [{ type: 'array', items: big }, { type: 'null' }] });
    expect(ok('plain').anyOf[0].properties.big).toEqual(big);
    const counter = doc.components.schemas.Counter.properties;
    expect(counter.id).toEqual(big);
    expect(counter.total).toEqual({ anyOf: [big, { type: 'null' }] });
    expect(counter.history).toEqual({ type: 'array', items: big });
    expect(counter.label).toEqual({ type: 'string' });
    expect(doc.components.schemas.Ledger.properties.owner).toEqual({ anyOf: [big, { type: 'null' }] });
  });
});
