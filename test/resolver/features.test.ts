import DataLoader from 'dataloader';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AncestorContext, Annotated, AutoLoad, buildList, buildObject, Collector, ConfigError, configResolver, Context,
  DefineSubset, Entity, ErDiagram, Loader, LoaderError, model, Parent, query, QueryConfig, ref, Relationship,
  Resolver, SubsetConfig,
} from 'ergraph';

class Dept extends model({ id: z.int(), code: z.string(), name: z.string() }) {}
class Emp extends model({ id: z.int(), deptCode: z.string().nullable(), name: z.string(), status: z.string() }) {}

const depts = [new Dept({ id: 1, code: 'ENG', name: 'Engineering' }), new Dept({ id: 2, code: 'OPS', name: 'Ops' })];
const emps = [
  new Emp({ id: 1, deptCode: 'eng', name: 'ann', status: 'open' }),
  new Emp({ id: 2, deptCode: null, name: 'bob', status: 'closed' }),
  new Emp({ id: 3, deptCode: 'ops', name: 'cyd', status: 'open' }),
];

const deptByCode = async (codes: readonly string[]) => buildObject(depts, codes, (d) => d.code);

class EmpsByDept extends DataLoader<string, Emp[]> {
  status!: string; // a declared param: filled from loaderParams / globalLoaderParam
  _context?: { tenant: string };
  seen: string[] = [];
  constructor() {
    super(async (codes) => {
      this.seen.push(`${this._context?.tenant}:${this.status}`);
      const rows = emps.filter((e) => e.status === this.status);
      return buildList(rows, codes, (e) => (e.deptCode ?? '').toUpperCase());
    });
  }
}

const diagram = new ErDiagram({
  entities: [
    new Entity({
      kls: Emp,
      relationships: [
        new Relationship({
          fk: 'deptCode',
          target: 'models/dept:Dept',
          name: 'dept',
          loader: deptByCode,
          fkFn: (v) => String(v).toUpperCase(),
          fkNoneDefaultFactory: () => new Dept({ id: 0, code: '-', name: 'Unassigned' }),
        }),
      ],
    }),
    new Entity({
      kls: Dept,
      relationships: [new Relationship({ fk: 'code', target: [Emp], name: 'emps', loader: EmpsByDept })],
      queries: [
        new QueryConfig({
          method: async function all() {
            return depts;
          },
          returns: () => [Dept],
          description: 'every department',
        }),
      ],
    }),
  ],
});
const R = configResolver('HR', diagram);

describe('relationship options', () => {
  it('applies fkFn, resolves forward references, and uses fkNoneDefaultFactory for null keys', async () => {
    class EmpView extends DefineSubset(Emp, ['id', 'name'], { dept: ref(() => Dept) }) {}
    const out = await new R().resolve(emps.map((e) => new EmpView(e)));
    expect(out.map((e) => e.dept.name)).toEqual(['Engineering', 'Unassigned', 'Ops']);
  });

  it('gives class loaders their declared params and the context, and reports a missing param', async () => {
    class DeptView extends DefineSubset(Dept, ['code'], { emps: z.array(ref(() => Emp)) }) {}
    const params = new Map([[EmpsByDept, { status: 'open' }]]);
    const out = await new R({ loaderParams: params, context: { tenant: 't1' } }).resolve(depts.map((d) => new DeptView(d)));
    expect(out.map((d) => d.emps.map((e) => e.name))).toEqual([['ann'], ['cyd']]);

    const global = await new R({ globalLoaderParam: { status: 'closed' } }).resolve(depts.map((d) => new DeptView(d)));
    expect(global.map((d) => d.emps.length)).toEqual([0, 0]);

    await expect(new R().resolve([new DeptView(depts[0]!)])).rejects.toThrow(
      /DeptView\.emps: Loader EmpsByDept needs param 'status'/,
    );
  });

  it('collects external QueryConfig operations', () => {
    expect(diagram.entityOf(Dept)!.queries.map((q) => [q.name, q.description])).toEqual([['all', 'every department']]);
  });
});

describe('dependencies', () => {
  it('gives Parent, AncestorContext and Collector to resolve and post methods', async () => {
    class Leaf extends model({ name: z.string(), path: z.string().default(''), parentName: z.string().default('') }) {
      static __collect__ = { name: 'names' };
      resolvePath(ctx = AncestorContext<{ root: string }>()) {
        return `${ctx.root}/${this.name}`;
      }
      resolveParentName(parent = Parent<Mid>()) {
        return parent.name;
      }
    }
    class Mid extends model({ name: z.string(), leaves: z.array(ref(() => Leaf)) }) {}
    class Root extends model({
      name: z.string(),
      mids: z.array(ref(() => Mid)),
      allNames: z.array(z.string()).default([]),
    }) {
      static __expose__ = { name: 'root' };
      postAllNames(names = Collector<string>('names')) {
        return names.values();
      }
    }
    const root = new Root({
      name: 'r',
      mids: [{ name: 'm1', leaves: [{ name: 'a' }, { name: 'b' }] }, { name: 'm2', leaves: [{ name: 'c' }] }],
    });
    await new Resolver().resolve(root);
    expect(root.mids[0]!.leaves[1]!.path).toBe('r/b');
    expect(root.mids[1]!.leaves[0]!.parentName).toBe('m2');
    expect(root.allNames).toEqual(['a', 'b', 'c']);
  });

  it('refuses dependency helpers outside a resolver call', () => {
    expect(() => Loader(deptByCode)).toThrow(/only be used as a default parameter/);
    expect(() => Context()).toThrow(ConfigError);
  });

  it('says which field used Context() when the resolver has none', async () => {
    class NeedsCtx extends model({ x: z.string().default('') }) {
      resolveX(ctx = Context<{ a: string }>()) {
        return ctx.a;
      }
    }
    await expect(new Resolver().resolve(new NeedsCtx())).rejects.toThrow(/NeedsCtx\.x/);
  });
});

describe('bad input', () => {
  it('names the model and field when a loader returns the wrong number of values', async () => {
    class A extends model({ id: z.int() }) {}
    class B extends model({ id: z.int(), aId: z.int() }) {}
    const broken = async function aById(keys: readonly number[]) {
      return keys.slice(1).map((id) => new A({ id }));
    };
    const d = new ErDiagram({
      entities: [new Entity({ kls: A }), new Entity({ kls: B, relationships: [new Relationship({ fk: 'aId', target: A, name: 'a', loader: broken })] })],
    });
    class BView extends DefineSubset(B, ['id'], { a: ref(() => A).nullable() }) {}
    const run = new (configResolver('Broken', d))().resolve([new BView(new B({ id: 1, aId: 1 })), new BView(new B({ id: 2, aId: 2 }))]);
    await expect(run).rejects.toThrow(LoaderError);
    await expect(run).rejects.toThrow(/BView\.a: Loader aById returned 1 values for 2 keys/);
  });

  it('rejects non-models passed to resolve()', async () => {
    await expect(new Resolver().resolve([{ id: 1 }])).rejects.toThrow(/got a plain object at index 0/);
  });

  it('validates with Model.parse but constructs without validating', () => {
    expect(() => Dept.parse({ id: 'x', code: 'A', name: 'n' })).toThrow();
    expect(Dept.parse({ id: 1, code: 'A', name: 'n' })).toBeInstanceOf(Dept);
  });
});

describe('diagram validation', () => {
  const loader = async (keys: readonly number[]) => keys.map(() => null);
  class X extends model({ id: z.int(), yId: z.int() }) {}
  class Y extends model({ id: z.int() }) {}

  it.each([
    ['duplicate relationship names', [new Relationship({ fk: 'yId', target: Y, name: 'y', loader }), new Relationship({ fk: 'yId', target: Y, name: 'y', loader })], /X\.y is declared twice/],
    ['a relationship named like a field', [new Relationship({ fk: 'yId', target: Y, name: 'id', loader })], /X\.id clashes with the field id/],
    ['an unknown fk', [new Relationship({ fk: 'zId', target: Y, name: 'y', loader })], /fk 'zId', which is not a field of X/],
    ['an unknown forward reference', [new Relationship({ fk: 'yId', target: 'models:Nope', name: 'y', loader })], /'models:Nope' names no entity/],
  ])('rejects %s', (_, relationships, message) => {
    const d = new ErDiagram({ entities: [new Entity({ kls: X, relationships }), new Entity({ kls: Y })] });
    expect(() => d.validate()).toThrow(message);
  });

  it('rejects the v4 `configs` option and duplicate entities', () => {
    expect(() => new ErDiagram({ configs: [] } as never)).toThrow(/renamed in v5/);
    expect(() => new ErDiagram({ entities: [new Entity({ kls: Y }), new Entity({ kls: Y })] }).validate()).toThrow(/registered twice/);
  });

  it('disambiguates forward references with the same class name by module', () => {
    const make = () => class Y extends model({ id: z.int() }) {};
    const [Y1, Y2] = [make(), make()];
    const d = new ErDiagram({
      entities: [
        new Entity({ kls: X, relationships: [new Relationship({ fk: 'yId', target: 'app/billing:Y', name: 'y', loader })] }),
        new Entity({ kls: Y1, module: '/src/app/crm.ts' }),
        new Entity({ kls: Y2, module: '/src/app/billing.ts' }),
      ],
    });
    expect(d.entityOf(X)!.relationships.get('y')!.target).toBe(Y2);
    const ambiguous = new ErDiagram({
      entities: [
        new Entity({ kls: X, relationships: [new Relationship({ fk: 'yId', target: 'Y', name: 'y', loader })] }),
        new Entity({ kls: Y1, module: '/a.ts' }),
        new Entity({ kls: Y2, module: '/b.ts' }),
      ],
    });
    expect(() => ambiguous.validate()).toThrow(/ambiguous between 2 entities named Y/);
  });

  it('raises on ambiguous external registrations only when a subset needs the hidden fk', async () => {
    class Order extends model({ id: z.int(), buyerId: z.int(), sellerId: z.int() }) {}
    class Person extends model({ id: z.int() }) {}
    const byId = async (keys: readonly number[]) => keys.map((id) => new Person({ id }));
    const first = new ErDiagram({
      entities: [new Entity({ kls: Order, relationships: [new Relationship({ fk: 'buyerId', target: Person, name: 'person', loader: byId })] }), new Entity({ kls: Person })],
    });
    new ErDiagram({
      entities: [new Entity({ kls: Order, relationships: [new Relationship({ fk: 'sellerId', target: Person, name: 'person', loader: byId })] }), new Entity({ kls: Person })],
    });
    const R1 = configResolver('First', first);
    class Hidden extends DefineSubset(Order, ['id'], { person: ref(() => Person) }) {}
    await expect(new R1().resolve(new Hidden({ id: 1, buyerId: 2, sellerId: 3 }))).rejects.toThrow(
      /Order\.person is registered with different fks \(buyerId, sellerId\)/,
    );
    class Explicit extends DefineSubset(new SubsetConfig({ kls: Order, fields: ['id', 'buyerId'] }), {
      who: Annotated(ref(() => Person), AutoLoad({ origin: 'person' })),
    }) {}
    const ok = await new R1().resolve(new Explicit({ id: 1, buyerId: 2, sellerId: 3 }));
    expect(ok.who.id).toBe(2);
  });

  it('reports @query on an instance method', () => {
    expect(() => {
      class Bad extends model({ id: z.int() }) {
        @query({ returns: () => Bad }) notStatic() {}
      }
      return Bad;
    }).toThrow(/static method/);
  });
});

describe('startup checks in the plan', () => {
  it('refuses to auto-load through a relationship that has only a page loader, before any load', async () => {
    class P extends model({ id: z.int() }) {}
    class C extends model({ id: z.int(), pId: z.int() }) {}
    const d = new ErDiagram({
      entities: [
        new Entity({
          kls: P,
          relationships: [
            new Relationship({ fk: 'id', target: [C], name: 'children', pageLoader: async (keys) => keys.map(() => ({ items: [], hasMore: false, total: 0 })) }),
          ],
        }),
        new Entity({ kls: C }),
      ],
    });
    class PView extends DefineSubset(P, ['id'], { children: z.array(ref(() => C)) }) {}
    await expect(new (configResolver('PageOnly', d))().resolve(new PView({ id: 1 }))).rejects.toThrow(
      /PView\.children: relationship P\.children has only a page loader/,
    );
  });
});
