// @roundtrip/engine/postgres: the effect ledger, the task store and the task queue in PostgreSQL, for servers on
// several machines (uses pg; the task queue uses pg-boss, loaded only when it is opened).
// This file is the subpath's API contract: every export here is a decision. The engine's root entry
// never imports it, so code that does not use PostgreSQL does not load Node-only modules.

export type { PostgresLedger, PostgresLedgerOptions } from './postgres-ledger.ts';
export { createPostgresLedger } from './postgres-ledger.ts';
export type { PostgresTaskQueue, PostgresTaskQueueOptions } from './postgres-task-queue.ts';
export { createPostgresTaskQueue } from './postgres-task-queue.ts';
export type { PostgresTaskStore, PostgresTaskStoreOptions } from './postgres-task-store.ts';
export { createPostgresTaskStore } from './postgres-task-store.ts';
export type { PostgresTransactionClient } from './postgres-transaction.ts';
export { postgresTransaction } from './postgres-transaction.ts';
