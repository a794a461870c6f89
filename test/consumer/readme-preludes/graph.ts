import { z } from 'zod';
import { baseEntity, model, query } from 'ergraph';
const Base = baseEntity();
class User extends model({ id: z.int() }) {
  @query({ returns: () => [User] }) static async getAll() { return [new User({ id: 1 })]; }
}
Base.entity(User, { name: 'User' });
