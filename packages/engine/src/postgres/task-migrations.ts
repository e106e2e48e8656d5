// The PostgreSQL task store's table, as numbered migrations of its own (recorded in
// roundtrip_task_migrations, taken in turns under an advisory lock of its own), so a task store and an
// effect ledger in one database migrate apart. A migration once released is never edited, only followed.
import type { PoolClient } from 'pg';
import { applyMigrations, type MigrationSet } from './ledger-migrations.ts';

const TASK_MIGRATIONS: MigrationSet = {
  table: 'roundtrip_task_migrations',
  // the ASCII of 'RtTasks1' as an int8
  lock: '5941466585933509425',
  migrations: [
    {
      version: 1,
      name: 'roundtrip_tasks: one row per task, replaced at a version (compare-and-set)',
      // times from the engine's clock (milliseconds); JSON as json (its text kept as written: keys keep their order)
      sql: `
        CREATE TABLE roundtrip_tasks (
          task_id          text    PRIMARY KEY,
          principal_tag    bytea   NOT NULL,
          tool             text    NOT NULL,
          args             json    NOT NULL,
          capabilities     json,
          run              text    NOT NULL,
          status           text    NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled')),
          status_message   text,
          created_at       bigint  NOT NULL,
          last_updated_at  bigint  NOT NULL,
          ttl_ms           bigint  NOT NULL,
          poll_interval_ms bigint  NOT NULL,
          expires_at       bigint  NOT NULL,
          sealed           text,
          pending          json    NOT NULL,
          next_key         integer NOT NULL,
          result           json,
          error            json,
          cancel_requested boolean NOT NULL,
          version          integer NOT NULL
        );
        CREATE INDEX roundtrip_tasks_expires_at ON roundtrip_tasks (expires_at);
      `,
    },
  ],
};

/** Brings the task store's table to the newest version (see applyMigrations). */
export function migrateTasks(client: PoolClient, lockWaitMs: number): Promise<void> {
  return applyMigrations(client, lockWaitMs, TASK_MIGRATIONS);
}
