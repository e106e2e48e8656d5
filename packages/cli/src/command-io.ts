// Where a command writes and from where it resolves paths: the process's, or a test's.

export interface CommandIo {
  readonly out: { write(text: string): unknown };
  readonly err: { write(text: string): unknown };
  readonly cwd: string;
  /** Where an interactive command (call, chat) reads the person's answers. @defaultValue process.stdin */
  readonly in?: NodeJS.ReadableStream;
  /**
   * The `roundtrip` launcher script that call and chat start a module's server with (`node <launcher> serve <module>`),
   * for a command run from a bundle, whose own file is not beside the package's bin/.
   * @defaultValue this package's bin/roundtrip.mjs
   */
  readonly launcher?: string;
}
