// @roundtrip/cli: the `roundtrip` command, also callable in-process (tests, scripts).

export type { CommandIo } from './command-io.ts';
export { main } from './main.ts';
