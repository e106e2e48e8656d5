// The answer relay an HTTP server opens beside its effect ledger: with the ledger in PostgreSQL, the instances
// sharing it pass 2025-era clients' answers to the instance holding the call (LISTEN/NOTIFY on that database,
// @roundtrip/engine/postgres loaded only then); otherwise this process's own relay (one instance).
import { type AnswerRelay, createLocalAnswerRelay } from '@roundtrip/engine';
import { RoundtripConfigError } from '../config-error.ts';
import { isPostgresUrl } from './resolve-ledger-path.ts';

/** The relay for a server whose ledger is at `location` (ROUNDTRIP_LEDGER, or the code's path); the server closes it. */
export async function openAnswerRelay(location: string | undefined): Promise<AnswerRelay> {
  if (location === undefined || !isPostgresUrl(location)) return createLocalAnswerRelay();
  try {
    const { createPostgresAnswerRelay } = await import('@roundtrip/engine/postgres');
    return await createPostgresAnswerRelay({ url: location });
  } catch (error) {
    throw new RoundtripConfigError(
      'ROUNDTRIP_LEDGER',
      `${(error as Error).message} 2025-era clients' answers are passed between instances through the database of ROUNDTRIP_LEDGER.`,
      { code: 'unavailable', cause: error },
    );
  }
}
