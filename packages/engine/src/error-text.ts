// A thrown value as a few words of a log line, so the line itself says what went wrong (its stack, if
// any, goes beneath it).

/** `Name: message` for an Error (the message alone when it has no name), the value as text otherwise. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.name ? `${error.name}: ${error.message}` : error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
