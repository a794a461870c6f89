/**
 * Five entities in a grid of three columns (A B C / D E) with edges that skip a box: A -> C
 * passes B on the straight line, so it has to bend around it.
 */
import { z } from 'zod';
import { Entity, ErDiagram, model, QueryConfig, Relationship, type AnyModelClass } from 'ergraph';

const load = async (keys: readonly number[]) => keys.map(() => null);
const classes = Object.fromEntries(['A', 'B', 'C', 'D', 'E'].map((name) => [name, class extends model({ id: z.int(), refId: z.int() }) {}])) as Record<string, AnyModelClass>;
const edges: Record<string, string[]> = { A: ['C', 'E', 'B'], B: [], C: ['A'], D: ['C'], E: [] };

export const chain = new ErDiagram({
  entities: Object.entries(classes).map(
    ([name, kls]) =>
      new Entity({
        kls,
        name,
        relationships: edges[name]!.map((to) => new Relationship({ fk: 'refId', target: classes[to]!, name: `to${to}`, loader: load })),
        queries: name === 'A' ? [new QueryConfig({ name: 'ping', returns: z.int(), method: async () => 1 })] : [],
      }),
  ),
});
