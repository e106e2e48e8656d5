// The URL every PostgreSQL part of the engine is opened with (the ledger, the task store, the task queue):
// checked to be a PostgreSQL one before anything connects, with what it got said when it is not.

/** `text` as a URL, if it is a postgres: or postgresql: one; otherwise an error saying what `fn` needs and got. */
export function parsePostgresUrl(text: string, fn: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  if (typeof text !== 'string' || !url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')) {
    const got = url ? `a ${url.protocol} URL` : typeof text === 'string' && text !== '' ? 'a value that is not a URL' : 'nothing';
    throw new Error(`${fn} needs the URL of a PostgreSQL database, such as postgres://user:password@host:5432/database; it got ${got}.`);
  }
  return url;
}
