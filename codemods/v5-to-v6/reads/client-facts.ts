/**
 * The run's clients of the project's own (`clients.ts`) as the scans of their files recorded them:
 * what a call of each gives, those through another file's client settled once that one is.
 */
import type { Project } from '../../lib/project.js';
import { sameShape } from './clients.js';
import { originKey, originOf, type CrossFact, type Origin } from './cross.js';
import type { Shape } from './types.js';

type ClientFact = Extract<CrossFact, { kind: 'client' }>;

const clientKey = (o: Origin, member: string | undefined, index: number) => `${originKey(o)}\0${member ?? ''}\0${index}`;
/** `file\0name\0member\0index` → what a call of that client gives, once per run's facts. */
const indexes = new WeakMap<readonly CrossFact[], Map<string, Shape>>();

function clientsOfRun(facts: readonly CrossFact[]): Map<string, Shape> {
  let clients = indexes.get(facts);
  if (clients) return clients;
  clients = new Map();
  indexes.set(facts, clients);
  const open: ClientFact[] = [];
  for (const f of facts) {
    if (f.kind !== 'client') continue;
    if (f.returns) clients.set(clientKey(f, f.member, f.index), f.returns);
    else if (f.via) open.push(f);
  }
  // A wrapper of a wrapper, at any depth: each settled once the one it calls is.
  for (let settled = open.length > 0; settled; ) {
    settled = false;
    for (const f of open) {
      const key = clientKey(f, f.member, f.index);
      const gives = clients.has(key) ? undefined : clients.get(clientKey(f.via!.target, f.via!.member, f.via!.index));
      const row = gives && f.via!.table.find(([given]) => sameShape(given, gives));
      if (!row) continue;
      clients.set(key, row[1]);
      settled = true;
    }
  }
  return clients;
}

/** The declaration the name `local` a file imports stands for. */
export function importedOrigin(project: Project, file: string, local: string): Origin | undefined {
  const imported = project.facts(file)?.imports[local];
  return imported && originOf(project, file, imported.module, imported.name);
}

/** What a call of the client `file` imports as `local` (its method `member`) gives, when the scans proved it one. */
export function importedClient(project: Project, facts: readonly CrossFact[], file: string, local: string, member: string | undefined, index: number): Shape | undefined {
  const clients = clientsOfRun(facts);
  if (clients.size === 0) return undefined;
  const origin = importedOrigin(project, file, local);
  return origin ? clients.get(clientKey(origin, member, index)) : undefined;
}
