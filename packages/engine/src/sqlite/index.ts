// @roundtrip/engine/sqlite: the effect ledger and the task store in one SQLite file, for Node (uses better-sqlite3).
// This file is the subpath's API contract: every export here is a decision. The engine's root entry
// never imports it, so code that does not use SQLite does not load Node-only modules.

export type { SqliteLedger, SqliteLedgerOptions } from './sqlite-ledger.ts';
export { createSqliteLedger } from './sqlite-ledger.ts';
export type { SqliteTaskStore, SqliteTaskStoreOptions } from './sqlite-task-store.ts';
export { createSqliteTaskStore } from './sqlite-task-store.ts';
export { sqliteTransaction } from './sqlite-transaction.ts';
// for your own connection to the ledger's file (your tables beside it): the same switch to WAL the ledger makes
export { useWalMode } from './wal-mode.ts';
