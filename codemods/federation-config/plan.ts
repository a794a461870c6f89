/**
 * Deciding, from the facts of every file, what moves where: each entity's keys and orders, and
 * for each old declaration site whether it can go (and why not). Every file computes the same
 * plan, so a removal in one file and the matching insertion in another always happen together.
 */
import { sameText, type FederationFact, type PortableText } from './facts.js';

type ClassFact = Extract<FederationFact, { kind: 'class' }>;

export interface EntityPlan {
  file: string;
  keys?: string[];
  orders?: string;
  addKeys?: string[];
  /** Comments above the batchKeys entry the keys come from. */
  addKeyComments?: string[];
  addOrders?: PortableText;
}

export interface Plan {
  entities: Map<string, EntityPlan>;
  /** `file:start` of an AutoQueryConfig or DTO orders site → why it stays. */
  problems: Map<string, string>;
  /** Comments that move with keys or orders to an entity: removed at the old site, written at the new. */
  carried: Set<string>;
}

export const siteKey = (file: string, start: number) => `${file}:${start}`;

/** Every file of a run gets the same facts array: plan once per array, not once per file. */
const plans = new WeakMap<readonly FederationFact[], Plan>();

export function planFederation(facts: readonly FederationFact[]): Plan {
  let plan = plans.get(facts);
  if (!plan) plans.set(facts, (plan = buildPlan(facts)));
  return plan;
}

function buildPlan(facts: readonly FederationFact[]): Plan {
  const byName = new Map<string, ClassFact[]>();
  for (const f of facts)
    if (f.kind === 'class' && !f.subsetOf) byName.set(f.name, [...(byName.get(f.name) ?? []), f]);
  const entities = new Map<string, EntityPlan>();
  const problems = new Map<string, string>();
  const carried = new Set<string>();
  const entity = (name: string): EntityPlan | string => {
    const decls = byName.get(name) ?? [];
    if (decls.length === 0) return `entity class ${name} not found among the migrated files`;
    if (decls.length > 1) return `entity class ${name} is declared in several files: ${decls.map((d) => d.file).join(', ')}`;
    let plan = entities.get(name);
    if (!plan) entities.set(name, (plan = { file: decls[0].file, keys: decls[0].keys, orders: decls[0].orders }));
    return plan;
  };
  const ordered = [...facts].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const f of ordered) {
    if (f.kind !== 'autoQuery') continue;
    const site = siteKey(f.file, f.start);
    if (f.unsafe) {
      problems.set(site, f.unsafe);
      continue;
    }
    const reasons: string[] = [];
    for (const { entity: name, keys } of f.keys) {
      const plan = entity(name);
      if (typeof plan === 'string') reasons.push(plan);
      else if (plan.keys && plan.keys.join('\0') !== keys.join('\0'))
        reasons.push(`${name} already declares __federation_keys__ [${plan.keys.join(', ')}], batchKeys says [${keys.join(', ')}]`);
    }
    for (const { entity: name, orders } of f.pages) {
      const plan = entity(name);
      if (typeof plan === 'string') reasons.push(plan);
      else if (plan.orders && !sameText(plan.orders, orders.text))
        reasons.push(`${name} already declares different __pagination_orders__`);
    }
    if (reasons.length > 0) {
      problems.set(site, [...new Set(reasons)].join('; '));
      continue;
    }
    for (const { entity: name, keys, comments } of f.keys) {
      const plan = entities.get(name)!;
      if (!plan.keys) {
        plan.keys = plan.addKeys = keys;
        plan.addKeyComments = comments;
        for (const c of comments ?? []) carried.add(c);
      }
    }
    for (const { entity: name, orders } of f.pages) {
      const plan = entities.get(name)!;
      if (!plan.orders) {
        plan.orders = orders.text;
        plan.addOrders = orders;
        for (const c of orders.comments ?? []) carried.add(c);
      }
    }
  }
  for (const f of ordered) {
    if (f.kind !== 'dtoOrders') continue;
    const site = siteKey(f.file, f.start);
    const plan = entity(f.entity);
    if (typeof plan === 'string') problems.set(site, `DTO-level __pagination_orders__ on ${f.dto}: ${plan}`);
    else if (plan.orders) {
      if (!f.orders || !sameText(plan.orders, f.orders.text))
        problems.set(site, `__pagination_orders__ on ${f.dto} conflicts with those of ${f.entity}; orders are read from the entity`);
    } else if (!f.orders) problems.set(site, `__pagination_orders__ on ${f.dto} uses local values: move it to ${f.entity} by hand`);
    else {
      plan.orders = f.orders.text;
      plan.addOrders = f.orders;
      for (const c of f.orders.comments ?? []) carried.add(c);
    }
  }
  return { entities, problems, carried };
}
