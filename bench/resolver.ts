/**
 * Resolve 10,000 parents through two relationship levels (user -> tasks -> project) with
 * ergraph's Resolver, and with hand-written DataLoader code on the same in-memory data.
 * Run alone: npx tsx bench/resolver.ts (or all benches: npm run bench)
 */
import DataLoader from 'dataloader';
import { z } from 'zod';
import { configResolver, DefineSubset, Entity, ErDiagram, model, ref, Relationship } from 'ergraph';
import { alternate, runAlone, type BenchRun } from './report.js';

const PARENTS = 10_000;
const users = Array.from({ length: PARENTS }, (_, i) => ({ id: i, name: `user${i}` }));
const projects = Array.from({ length: 500 }, (_, i) => ({ id: i, title: `project${i}` }));
const tasks = Array.from({ length: PARENTS * 3 }, (_, i) => ({ id: i, ownerId: i % PARENTS, projectId: i % 500, title: `task${i}` }));

// Both sides index the rows the same way, so the comparison is about the loading machinery.
const tasksByOwnerIndex = new Map<number, (typeof tasks)[number][]>();
for (const t of tasks) tasksByOwnerIndex.set(t.ownerId, [...(tasksByOwnerIndex.get(t.ownerId) ?? []), t]);
const projectIndex = new Map(projects.map((p) => [p.id, p]));

class User extends model({ id: z.int(), name: z.string() }) {}
class Task extends model({ id: z.int(), ownerId: z.int(), projectId: z.int(), title: z.string() }) {}
class Project extends model({ id: z.int(), title: z.string() }) {}

async function tasksByOwner(keys: readonly number[]) {
  return keys.map((k) => tasksByOwnerIndex.get(k) ?? []);
}
async function projectById(keys: readonly number[]) {
  return keys.map((k) => projectIndex.get(k) ?? null);
}

const diagram = new ErDiagram({
  entities: [
    new Entity({ kls: User, relationships: [new Relationship({ fk: 'id', target: [Task], name: 'tasks', loader: tasksByOwner })] }),
    new Entity({ kls: Task, relationships: [new Relationship({ fk: 'projectId', target: Project, name: 'project', loader: projectById })] }),
    new Entity({ kls: Project }),
  ],
});
const BenchResolver = configResolver('BenchResolver', diagram);

class ProjectView extends DefineSubset(Project, ['id', 'title']) {}
class TaskView extends DefineSubset(Task, ['id', 'title'], { project: ref(() => ProjectView).nullable() }) {}
class UserView extends DefineSubset(User, ['id', 'name'], { tasks: z.array(ref(() => TaskView)).default([]) }) {}

async function viaErgraph() {
  const roots = users.map((u) => new UserView(u));
  await new BenchResolver().resolve(roots);
  return roots;
}

async function handWritten() {
  const taskLoader = new DataLoader(tasksByOwner);
  const projectLoader = new DataLoader(projectById);
  return Promise.all(
    users.map(async (u) => ({
      id: u.id,
      name: u.name,
      tasks: await Promise.all(
        (await taskLoader.load(u.id)).map(async (t) => ({ id: t.id, title: t.title, project: await projectLoader.load(t.projectId) })),
      ),
    })),
  );
}

// Same output, checked once before timing.
const [a, b] = await Promise.all([viaErgraph(), handWritten()]);
if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error('ergraph and the hand-written version disagree');

export const run: BenchRun = async ({ budgetMs }) => {
  const { ms, rounds } = await alternate({ 'ergraph Resolver': viaErgraph, 'hand-written DataLoader': handWritten }, { budgetMs });
  return [
    {
      bench: 'resolver',
      case: '10,000 parents x 2 levels',
      subject: 'ergraph Resolver',
      subjectMs: ms['ergraph Resolver']!,
      baseline: 'hand-written DataLoader',
      baselineMs: ms['hand-written DataLoader']!,
      target: 1.3,
      rounds,
    },
  ];
};

await runAlone(import.meta, run, 6_000);
