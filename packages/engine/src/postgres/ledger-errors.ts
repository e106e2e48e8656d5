// What the PostgreSQL ledger says when something fails: the server as the URL names it (never its
// password), what failed, and what to do. The codes are PostgreSQL's SQLSTATEs and Node's socket codes.

/** The URL with its password removed (from the user part and from a `password` query parameter). */
export function redactUrl(url: URL): string {
  const shown = new URL(url.href);
  shown.password = '';
  shown.searchParams.delete('password');
  return shown.href;
}

export function codeOf(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

/** The message of an error; a connection refused on every address (an AggregateError) has an empty one. */
export function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    const first: unknown = error.errors[0];
    return first instanceof Error ? first.message : (codeOf(error) ?? 'connection failed');
  }
  return error instanceof Error ? error.message : String(error);
}

/** What to do about an error, by its code. */
export function hintFor(error: unknown, settings: { statementTimeoutMs: number; lockTimeoutMs: number; connectTimeoutMs: number }): string {
  const code = codeOf(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'Nothing accepts connections there: start PostgreSQL (e.g. `pg_ctlcluster 15 main start` on Debian, `brew services start postgresql` on macOS), or correct the host and port in the URL.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name does not resolve: correct the host in the URL.';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host cannot be reached: check the host in the URL, the network and any firewall between.';
    case '28P01':
    case '28000':
      return 'PostgreSQL refused the login: check the user and password in the URL, and the server’s pg_hba.conf.';
    case '3D000':
      return 'The database does not exist: create it (`createdb NAME`), or name an existing database in the URL.';
    case '42501':
      return 'The user may not do this: grant it CREATE on the schema (for the migration) and SELECT, INSERT, UPDATE, DELETE on roundtrip_effects, or connect as the table’s owner.';
    case '42P07':
      return 'A table the ledger creates already exists without its migration record: rename that table, or keep the ledger in another database or schema.';
    case '25P02':
      return 'A statement of an effect running in the ledger’s transaction failed and the effect went on: a failed statement aborts the transaction, so let its error propagate (or take a SAVEPOINT of its own around it).';
    case '57014':
      return `The statement ran past statementTimeoutMs (${settings.statementTimeoutMs} ms): check the server’s load and long transactions (pg_stat_activity), or raise statementTimeoutMs.`;
    case '55P03':
      return `A lock stayed held past lockTimeoutMs (${settings.lockTimeoutMs} ms): find the session that holds it (pg_locks, pg_stat_activity), or raise lockTimeoutMs.`;
    case '53300':
      return 'The server has no connection slots left: raise its max_connections, or lower maxConnections of the servers that share it.';
    case '57P01':
    case '57P02':
    case '57P03':
      return 'The server is shutting down or starting up: try again when it is up.';
    default:
      if (/timeout exceeded when trying to connect|timeout expired/.test(messageOf(error)))
        return `No connection was had within connectTimeoutMs (${settings.connectTimeoutMs} ms): check that the server is up and reachable, that it has free connection slots, or raise connectTimeoutMs or maxConnections.`;
      if (code === 'ECONNRESET' || /Connection terminated/.test(messageOf(error)))
        return 'The connection was closed under the call: check that the server is up (its log says why it closed the connection), then try again.';
      return 'Check the server’s log for this error.';
  }
}
