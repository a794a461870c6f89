import { z } from 'zod';
import { model } from 'ergraph';
class User extends model({ id: z.int(), name: z.string(), email: z.string(), passwordHash: z.string() }) {}
class Task extends model({ id: z.int(), ownerId: z.int(), title: z.string(), tags: z.array(z.string()) }) {}
declare function usersById(ids: readonly number[]): Promise<(User | null)[]>;
declare function tasksByOwner(ids: readonly number[]): Promise<Task[][]>;
declare const currentUser: User;
