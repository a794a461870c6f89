import DataLoader from 'dataloader';
import { Resolver } from 'ergraph';
interface Task { id: number; ownerId: number; title: string }
declare function loadTasks(ownerIds: readonly number[], status: string, context?: { tenant: string }): Promise<Task[][]>;
declare const views: object[];
declare const context: { tenant: string };
