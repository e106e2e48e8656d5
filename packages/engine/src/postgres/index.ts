// @roundtrip/engine/postgres: the effect ledger, the task store, the task queue and the answer relay in PostgreSQL,
// for servers on several machines (uses pg; the task queue uses pg-boss, loaded only when it is opened).
// This file is the subpath's API contract: every export here is a decision. The engine's root entry
// never imports it, so code that does not use PostgreSQL does not load Node-only modules.

export type { PostgresAnswerRelayOptions } from './postgres-answer-relay.ts';
export { createPostgresAnswerRelay } from './postgres-answer-relay.ts';
export type { PostgresLedger, PostgresLedgerOptions } from './postgres-ledger.ts';
export { createPostgresLedger } from './postgres-ledger.ts';
export type { PostgresTaskQueue, PostgresTaskQueueOptions } from './postgres-task-queue.ts';
export { createPostgresTaskQueue } from './postgres-task-queue.ts';
export type { PostgresTaskStore, PostgresTaskStoreOptions } from './postgres-task-store.ts';
export { createPostgresTaskStore } from './postgres-task-store.ts';
export type { PostgresTransactionClient } from './postgres-transaction.ts';
export { postgresTransaction } from './postgres-transaction.ts';
