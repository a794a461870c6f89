import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { model, ref } from 'ergraph';

// Model constructors are compiled per class with `new Function`, except where zod would not
// compile its own parsers (z.config({ jitless: true }), a CSP, Cloudflare Workers): both ways
// must build the same instances.
class Tag extends model({ label: z.string() }) {}

const shape = {
  id: z.int(),
  title: z.string(),
  draft: z.boolean().default(false),
  notes: z.string().nullable(),
  tags: z.array(ref(() => Tag)).default([]),
  parent: ref(() => Tag).nullable(),
  'odd key': z.string().optional(),
};

const inputs: object[] = [
  { id: 1, title: 'a', notes: 'n', tags: [{ label: 'x' }], parent: { label: 'p' }, 'odd key': 'o', extra: true },
  { id: 2, title: 'b' },
  {},
];

function build(jitless: boolean) {
  z.config({ jitless });
  const Function = vi.spyOn(globalThis, 'Function');
  try {
    const Kls = model(shape) as unknown as new (data?: object) => Record<string, unknown>;
    const made = [...inputs.map((data) => new Kls(data)), new Kls()];
    return { made, compiled: Function.mock.calls.length > 0 };
  } finally {
    Function.mockRestore();
    z.config({ jitless: false });
  }
}

describe('model construction', () => {
  it('compiles the field copy unless zod is jitless, and both copies build the same instances', () => {
    const compiled = build(false);
    const looped = build(true);
    expect(compiled.compiled).toBe(true);
    expect(looped.compiled).toBe(false);
    const entries = (made: Record<string, unknown>[]) => made.map((instance) => Object.entries(instance));
    expect(entries(compiled.made)).toEqual(entries(looped.made));
    for (const { made } of [compiled, looped]) {
      expect(Object.keys(made[0]!)).toEqual(Object.keys(shape)); // every field an own property, in order; extras left out
      expect(made[0]!.tags).toEqual([new Tag({ label: 'x' })]);
      expect((made[0]!.tags as unknown[])[0]).toBeInstanceOf(Tag);
      expect(made[0]!.parent).toBeInstanceOf(Tag);
      expect(made[1]).toMatchObject({ draft: false, notes: null, tags: [], parent: null });
      expect(made[2]!.tags).not.toBe(made[3]!.tags); // defaults are fresh per instance
      // A field with no value, default or null (an optional one, a column a pruned loader did not
      // read) is left off: it reads as undefined all the same.
      expect(Object.keys(made[1]!)).toEqual(['id', 'title', 'draft', 'notes', 'tags', 'parent']);
      expect(made[2]!.id).toBeUndefined();
    }
  });
});

describe('model construction by class', () => {
  // The constructor keeps the last class's copier: classes built in turn from one base must each
  // still copy their own fields, compiled or not.
  it.each([false, true])('copies each class its own fields when a base and its subclasses alternate (jitless: %s)', (jitless) => {
    z.config({ jitless });
    try {
      const Base = model({ a: z.string() }) as unknown as new (data?: object) => Record<string, unknown>;
      class Wider extends Base {}
      Object.defineProperty(Wider, 'shape', { value: { a: z.string(), b: z.string().default('b0') } });
      class Same extends Base {}
      const data = { a: 'x', b: 'y', c: 'z' };
      const made = [Base, Wider, Wider, Base, Same, Wider, Base].map((Kls) => new Kls(data));
      expect(made.map((instance) => instance.constructor)).toEqual([Base, Wider, Wider, Base, Same, Wider, Base]);
      expect(made.map((instance) => Object.keys(instance).join())).toEqual(['a', 'a,b', 'a,b', 'a', 'a', 'a,b', 'a']);
      expect({ ...new Wider({ a: 'w' }) }).toEqual({ a: 'w', b: 'b0' });
    } finally {
      z.config({ jitless: false });
    }
  });
});
