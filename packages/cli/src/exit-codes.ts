// The exit codes of every `roundtrip` command, named once, and the table that every help text ends with.

/** What a `roundtrip` command's exit code means; the same for every command. */
export const EXIT = {
  /** Done (chat: you quit; serve: the host closed the connection). */
  ok: 0,
  /** Failed at run time: a module, setting or file cannot be used, or (call) the result is an error. */
  failed: 1,
  /** The command line is wrong. */
  usage: 2,
  /** (call, chat) The server could not start (or, at --url, be reached), or stopped. */
  server: 3,
  /** Interrupted (Ctrl-C), as a shell reports SIGINT. */
  interrupted: 130,
} as const;

/** The table closing `roundtrip --help` and every command's help. */
export const EXIT_CODES_HELP = `Exit codes (the same for every command):
  0    done (chat: you quit; serve: the host closed the connection)
  1    failed at run time: the module, a setting or a file cannot be used, visualize --check found stale
       files, or (call) the result is an error or the server refused the request
  2    the command line is wrong: an unknown command, option or name, a missing argument, a bad value
  3    (call, chat) the server could not start (or, at --url, be reached), or stopped
  130  interrupted (Ctrl-C)`;
