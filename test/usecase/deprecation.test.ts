/** Deprecation in the use-case OpenAPI (issue 16.2): `deprecated: true` on methods, arguments and model fields. */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { model, mutation, query, ref } from 'ergraph';
import { createUseCaseRouter, UseCaseAppConfig, UseCaseService } from 'ergraph/usecase';

class Account extends model({
  id: z.int(),
  email: z.string(),
  login: z.string().meta({ deprecated: true, deprecationReason: 'Use email' }),
}) {}

class AccountService extends UseCaseService {
  @query({ args: { id: z.int() }, returns: () => ref(() => Account).nullable(), description: 'One account' })
  static async getAccount({ id }: { id: number }) {
    return new Account({ id, email: 'a@b.c', login: 'ab' });
  }

  @query({
    args: { login: z.string(), caseSensitive: z.boolean().optional().meta({ deprecated: true, deprecationReason: 'Always true' }) },
    returns: () => ref(() => Account).nullable(),
    deprecationReason: 'Use getAccount',
  })
  static async findByLogin({ login }: { login: string }) {
    return new Account({ id: 1, email: 'a@b.c', login });
  }

  @mutation({ args: { id: z.int() }, returns: z.boolean(), description: 'Close it', deprecationReason: 'Accounts are never closed now' })
  static async close() {
    return true;
  }
}

const app = createUseCaseRouter(new UseCaseAppConfig({ name: 'Accounts', services: [AccountService] }));

describe('deprecation in the use-case OpenAPI', () => {
  it('marks deprecated methods, arguments and model fields, and the document stays valid', async () => {
    const doc = await (await app.request('/openapi.json')).json();
    expect(await new Validator().validate(doc)).toEqual({ valid: true });
    const op = (name: string) => doc.paths[`/api/account_service/${name}`].post;
    expect(op('getAccount').deprecated).toBeUndefined();
    expect(op('getAccount').description).toBe('One account');
    expect(op('findByLogin')).toMatchObject({ deprecated: true, description: 'Deprecated: Use getAccount' });
    expect(op('close')).toMatchObject({ deprecated: true, description: 'Close it\n\nDeprecated: Accounts are never closed now' });

    const body = op('findByLogin').requestBody.content['application/json'].schema;
    expect(body.properties.caseSensitive).toMatchObject({ type: 'boolean', deprecated: true });
    expect(body.properties.caseSensitive.deprecationReason).toBeUndefined(); // no JSON Schema keyword: folded into `deprecated`
    expect(body.properties.login.deprecated).toBeUndefined();

    const account = doc.components.schemas.Account;
    expect(account.properties.login).toMatchObject({ type: 'string', deprecated: true });
    expect(account.properties.login.deprecationReason).toBeUndefined();
    expect(account.properties.email.deprecated).toBeUndefined();
  });

  it('deprecated routes still answer', async () => {
    const res = await app.request('/api/account_service/findByLogin', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'zed' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, email: 'a@b.c', login: 'zed' });
  });
});
