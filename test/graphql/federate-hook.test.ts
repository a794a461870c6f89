/**
 * `handler.federate()` is an extension point: the core does not import federation (no
 * `graphql/handler ↔ federation` import circle); `ergraph/federation` plugs itself in on load.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, Entity, ErDiagram, GraphQLHandler, model } from 'ergraph';

class Thing extends model({ id: z.int() }) {}

describe('handler.federate()', () => {
  it('says which module provides it when federation is not loaded, then works once it is', async () => {
    const handler = new GraphQLHandler(new ErDiagram({ entities: [new Entity({ kls: Thing })] }), { serviceName: 'things' });
    const call = () => handler.federate({ services: {} } as never);
    await expect(call()).rejects.toThrow(ConfigError);
    await expect(call()).rejects.toThrow("handler.federate() is provided by ergraph/federation: import it first (import 'ergraph/federation')");
    const { FederationError } = await import('ergraph/federation');
    // Loaded: the same method now runs federation's federate (which validates its options).
    await expect(handler.federate({ services: { things: 'http://127.0.0.1:1' } })).rejects.toThrow(FederationError);
    await expect(handler.federate({ services: { things: 'http://127.0.0.1:1' } })).rejects.toThrow(/Service 'things' cannot mount itself/);
  });
});
