// stdout is the protocol's: anything else a stdio server's process writes there (console.log from a
// tool's code or a library, XState's `log` action, which holds the console.log of when XState loaded,
// a direct process.stdout.write) would corrupt the JSON-RPC stream a host reads.

type Write = (chunk: string) => boolean;

let protocolWrite: Write | undefined;

/**
 * Keeps process.stdout for the protocol: from now on every write to it goes to stderr instead, and
 * the write returned (the same on every call) is the one way left to stdout. Not undone.
 */
export function reserveStdout(): Write {
  if (protocolWrite) return protocolWrite;
  const stdout = process.stdout;
  const original = stdout.write.bind(stdout);
  protocolWrite = (chunk) => original(chunk);
  stdout.write = ((...args: Parameters<typeof process.stderr.write>) => process.stderr.write(...args)) as typeof stdout.write;
  return protocolWrite;
}
