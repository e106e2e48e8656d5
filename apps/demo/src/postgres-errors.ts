// What the demo's PostgreSQL stores say when something fails: the database as the URL names it (never
// its password), what failed, and what to do. The codes are PostgreSQL's SQLSTATEs and Node's socket codes.

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
function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') {
    const first: unknown = error.errors[0];
    return first instanceof Error ? first.message : (codeOf(error) ?? 'connection failed');
  }
  return error instanceof Error ? error.message : String(error);
}

/** The timeouts every connection of the stores runs with, named in the hints. */
export interface PostgresTimeouts {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
}

/** What to do about an error, by its code. */
function hintFor(error: unknown, timeouts: PostgresTimeouts): string {
  const code = codeOf(error);
  switch (code) {
    case 'ECONNREFUSED':
      return 'Nothing accepts connections there: start PostgreSQL (e.g. `pg_ctlcluster 15 main start` on Debian, `brew services start postgresql` on macOS), or correct the host and port in ROUNDTRIP_DB.';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The host name does not resolve: correct the host in ROUNDTRIP_DB.';
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'The host cannot be reached: check the host in ROUNDTRIP_DB, the network and any firewall between.';
    case '28P01':
    case '28000':
      return 'PostgreSQL refused the login: check the user and password in ROUNDTRIP_DB, and the server’s pg_hba.conf.';
    case '3D000':
      return 'The database does not exist: create it (`createdb NAME`), or name an existing database in ROUNDTRIP_DB.';
    case '42501':
      return 'The user may not do this: grant it CREATE on the schema (for the migrations) and SELECT, INSERT, UPDATE on the demo’s tables (orders, refunds, meetings, incidents), or connect as their owner.';
    case '42P07':
      return 'A table the demo creates (orders, refunds, meetings or incidents) already exists without its migration record: give the demo a database or schema of its own.';
    case '57014':
      return `The statement ran past its ${timeouts.statementTimeoutMs} ms: check the server’s load and long transactions (pg_stat_activity).`;
    case '53300':
      return 'The server has no connection slots left: raise its max_connections, or run fewer demo servers against it.';
    case '57P01':
    case '57P02':
    case '57P03':
      return 'The server is shutting down or starting up: try again when it is up.';
    default:
      if (/timeout exceeded when trying to connect|timeout expired/.test(messageOf(error)))
        return `No connection was had within ${timeouts.connectTimeoutMs} ms: check that the server is up and reachable, and that it has free connection slots.`;
      if (code === 'ECONNRESET' || /Connection terminated/.test(messageOf(error)))
        return 'The connection was closed under the call: check that the server is up (its log says why it closed the connection), then try again.';
      return 'Check the server’s log for this error.';
  }
}

/** `(CODE: message). What to do.`: the part of an error message after what failed. */
export function explain(error: unknown, timeouts: PostgresTimeouts): string {
  const code = codeOf(error);
  return `(${code ? `${code}: ` : ''}${messageOf(error)}). ${hintFor(error, timeouts)}`;
}
