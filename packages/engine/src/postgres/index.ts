// @roundtrip/engine/postgres: the effect ledger and the task store in PostgreSQL, for servers on several machines (uses pg).
// This file is the subpath's API contract: every export here is a decision. The engine's root entry
// never imports it, so code that does not use PostgreSQL does not load Node-only modules.

export type { PostgresLedger, PostgresLedgerOptions } from './postgres-ledger.ts';
export { createPostgresLedger } from './postgres-ledger.ts';
export type { PostgresTaskStore, PostgresTaskStoreOptions } from './postgres-task-store.ts';
export { createPostgresTaskStore } from './postgres-task-store.ts';
export type { PostgresTransactionClient } from './postgres-transaction.ts';
export { postgresTransaction } from './postgres-transaction.ts';
