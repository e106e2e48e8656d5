// Where a command writes and from where it resolves paths: the process's, or a test's.

export interface CommandIo {
  readonly out: { write(text: string): unknown };
  readonly err: { write(text: string): unknown };
  readonly cwd: string;
  /** Where an interactive command (call, chat) reads the person's answers. @defaultValue process.stdin */
  readonly in?: NodeJS.ReadableStream;
}
