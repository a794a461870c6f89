import { afterEach, describe, expect, it, vi } from 'vitest';
import { compatApp, createCompatHandler, SunsetConfigError, type CompatAppOptions } from 'ergraph/compat';
import { createV6Handler } from './helpers.js';

const SUNSET = new Date('2027-06-30T00:00:00Z');
const BEFORE = new Date('2027-03-01T12:00:00Z');

/** The app as it runs at `now` (the clock is faked, timers are not). */
function appAt(now: Date, options: CompatAppOptions & { random?: () => number } = {}) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  if (options.random) vi.spyOn(Math, 'random').mockImplementation(options.random);
  let calls = 0;
  const v6 = createV6Handler();
  const compat = createCompatHandler({ schema: v6.schema, execute: (q, o) => (calls++, v6.execute(q, o)) });
  const app = compatApp(compat, { sunset: SUNSET, link: 'https://example.com/v6', ...options });
  return { app, calls: () => calls };
}

const post = (app: ReturnType<typeof compatApp>, body: unknown, client?: string) =>
  app.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(client ? { 'x-client-name': client } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const QUERY = { query: '{ userById(id: 1) { name } userGetAll { id } }' };
const REPLACEMENTS = 'Query.userById → { User { byId } } (User.byId); Query.userGetAll → { User { getAll } } (User.getAll)';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('sunset enforcement', () => {
  it('before the Sunset date: headers only, the request is served', async () => {
    const { app } = appAt(BEFORE);
    const res = await post(app, QUERY);
    expect(res.status).toBe(200);
    expect(res.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(res.headers.get('deprecation')).toMatch(/^@\d+$/);
    expect((await res.json()).data.userById).toEqual({ name: 'Ada' });
  });

  it('in a configured brownout window: a GraphQL error naming each v6 replacement, nothing executed', async () => {
    const { app, calls } = appAt(BEFORE, { brownouts: [{ start: '2027-03-01T11:00:00Z', end: '2027-03-01T13:00:00Z' }] });
    const res = await post(app, QUERY);
    expect(res.status).toBe(200);
    expect(res.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(await res.json()).toEqual({
      data: null,
      errors: [
        {
          message: `Brownout: the v5 GraphQL endpoint is switched off for this request, as it will be for good on 2027-06-30. Use the v6 schema instead: ${REPLACEMENTS}. Migration guide: https://example.com/v6`,
          extensions: {
            code: 'V5_BROWNOUT',
            sunset: '2027-06-30T00:00:00.000Z',
            replacements: [
              { field: 'Query.userById', replacement: 'User.byId', usage: '{ User { byId } }' },
              { field: 'Query.userGetAll', replacement: 'User.getAll', usage: '{ User { getAll } }' },
            ],
          },
        },
      ],
    });
    expect(calls()).toBe(0);
  });

  it('outside the windows the same app serves', async () => {
    const { app } = appAt(new Date('2027-03-01T13:00:00Z'), { brownouts: [{ start: '2027-03-01T11:00:00Z', end: '2027-03-01T13:00:00Z' }] });
    expect((await (await post(app, QUERY)).json()).data).not.toBeNull();
  });

  it('browns out a share of requests, decided per request', async () => {
    const dice = [0.05, 0.5, 0.09, 0.95];
    const { app } = appAt(BEFORE, { brownoutShare: 0.1, random: () => dice.shift()! });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await (await post(app, QUERY)).json()).errors?.[0]?.extensions?.code ?? 'served');
    expect(codes).toEqual(['V5_BROWNOUT', 'served', 'V5_BROWNOUT', 'served']);
  });

  it('after the Sunset date: 410 Gone with the same replacements, for POST, GET and GraphiQL alike', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { app, calls } = appAt(new Date('2027-07-01T00:00:00Z'));
    const res = await post(app, QUERY);
    expect(res.status).toBe(410);
    expect(res.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    const body = await res.json();
    expect(body.errors[0].message).toBe(`The v5 GraphQL endpoint was retired on 2027-06-30. Use the v6 schema instead: ${REPLACEMENTS}. Migration guide: https://example.com/v6`);
    expect(body.errors[0].extensions.code).toBe('V5_GONE');
    const get = await app.request(`/graphql?${new URLSearchParams({ query: '{ taskById(id: 1) { id } }' })}`);
    expect(get.status).toBe(410);
    expect((await get.json()).errors[0].message).toContain('Query.taskById → { Task { byId } } (Task.byId)');
    expect((await app.request('/graphql', { headers: { accept: 'text/html' } })).status).toBe(410);
    // A body that is not GraphQL still gets the 410, with the general hint.
    const bad = await post(app, '{"query": ');
    expect(bad.status).toBe(410);
    expect((await bad.json()).errors[0].message).toContain('a v5 field such as userGetAll is now { User { getAll } }');
    expect(calls()).toBe(0);
    // The report stays available to the operator (a loopback peer by default): the team still needs it.
    expect((await app.request('/graphql/usage', {}, { incoming: { socket: { remoteAddress: '127.0.0.1' } } })).status).toBe(200);
  });

  it('exempts the requests the app says, by a function of the request, before and after the date', async () => {
    const seen: string[] = [];
    // What an app does: check a credential it issued, not a name any client can send.
    const exempt = async (c: { req: { header(name: string): string | undefined } }) => {
      seen.push(c.req.header('x-client-name') ?? '');
      return c.req.header('authorization') === 'Bearer batch-token';
    };
    const options = { exempt, brownoutShare: 1 };
    const batch = { authorization: 'Bearer batch-token' };
    const send = (app: ReturnType<typeof compatApp>, headers: Record<string, string>) =>
      app.request('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(QUERY) });
    const during = appAt(BEFORE, options).app;
    expect((await (await send(during, batch)).json()).data).not.toBeNull();
    expect((await (await send(during, { 'x-client-name': 'web' })).json()).errors[0].extensions.code).toBe('V5_BROWNOUT');
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const after = appAt(new Date('2027-08-01T00:00:00Z'), options).app;
    expect((await send(after, batch)).status).toBe(200);
    expect((await send(after, { 'x-client-name': 'web' })).status).toBe(410);
    // The client header is a label, never a pass.
    expect((await send(after, { 'x-client-name': 'billing-batch' })).status).toBe(410);
    expect(seen).toContain('billing-batch');
  });

  it('takes no list of client names: a list is refused at startup, with why', () => {
    expect(() => appAt(BEFORE, { exempt: ['billing-batch'] as never })).toThrow(
      new SunsetConfigError('exempt must be a function of the request (c) => boolean: name no clients here, a header is not a credential'),
    );
  });

  it('warns at startup when the Sunset date has already passed, and enforces it from the first request', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { app } = appAt(new Date('2028-01-01T00:00:00Z'), { exempt: () => false });
    expect(warn).toHaveBeenCalledWith(
      'ergraph compat: the Sunset date 2027-06-30T00:00:00.000Z has passed: the v5 endpoint answers 410 Gone to every request not exempted',
    );
    expect((await post(app, QUERY)).status).toBe(410);
  });

  it('refuses bad configuration at startup, naming the setting', () => {
    expect(() => appAt(BEFORE, { brownouts: [{ start: 'tomorrow', end: '2027-03-02' }] })).toThrow(
      new SunsetConfigError('brownouts[0].start is not a valid date: "tomorrow"'),
    );
    expect(() => appAt(BEFORE, { brownouts: [{ start: '2027-03-02', end: '2027-03-01' }] })).toThrow(/brownouts\[0\] ends .* before it starts/);
    expect(() => appAt(BEFORE, { brownoutShare: 2 })).toThrow(/brownoutShare must be a number from 0 to 1, got 2/);
  });
});

describe('sunset gate bounds', () => {
  it('names no replacement rather than read more than 1 MB of a refused body', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { app } = appAt(new Date('2027-07-01T00:00:00Z'));
    const huge = JSON.stringify({ ...QUERY, padding: 'x'.repeat(2 * 1024 * 1024) });
    const res = await post(app, huge);
    expect(res.status).toBe(410);
    expect((await res.json()).errors[0].extensions.replacements).toEqual([]);
  });
});
