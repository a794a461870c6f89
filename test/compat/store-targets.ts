/** Every usage store a store test runs on: memory, and SQL on each database of test/orm/databases.ts. */
import { memoryUsageStore, sqlUsageStore, type UsageStore } from 'ergraph/compat';
import { databaseTargets, type TestDatabase } from '../orm/databases.js';

export interface StoreTarget {
  name: string;
  open(): Promise<{ store: UsageStore; close(): Promise<void> }>;
}

export async function usageStoreTargets(): Promise<StoreTarget[]> {
  return [
    { name: 'memory', open: async () => ({ store: memoryUsageStore(), close: async () => undefined }) },
    ...(await databaseTargets()).map((t) => ({
      name: t.name,
      async open() {
        const db: TestDatabase = await t.open();
        return { store: sqlUsageStore(db.db, { description: t.name }), close: () => db.close() };
      },
    })),
  ];
}
