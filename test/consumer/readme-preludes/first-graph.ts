// The in-memory "database" the first-graph example reads.
const db = {
  users: [{ id: 1, name: 'Ada' }, { id: 2, name: 'Grace' }],
  async usersWhereIdIn(ids: readonly number[]) { return db.users.filter((u) => ids.includes(u.id)); },
  async tasksWhereOwnerIn(ids: readonly number[]) { return tasks.filter((t) => ids.includes(t.ownerId)); },
};
const tasks = [{ id: 1, ownerId: 1, title: 'Write' }, { id: 2, ownerId: 2, title: 'Debug' }];
