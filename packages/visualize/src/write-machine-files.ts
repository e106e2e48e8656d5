// Writes (or, with `check`, compares) the files of every machine: JSON for Stately, TypeScript for
// Stately's code import, a Mermaid diagram and an SVG drawn offline.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { toMachineCode } from './machine-code.ts';
import { type Definition, exportMachine } from './machine-export.ts';
import { toMermaid } from './mermaid.ts';
import { toSvg } from './svg.ts';

/** What one run did: files written (or stale, with `check`), and what kept a machine from being written. */
export interface MachineFilesReport {
  /** Files written, or (with `check`) files whose content differs from what would be written, or that are missing. */
  readonly files: readonly string[];
  /** Files in the folder that no definition writes any more (with `check`: they count as stale). */
  readonly leftover: readonly string[];
  /** Machines that could not be written, each with why and the fix. */
  readonly refused: readonly string[];
  /** Parts left out of an exported config because they map data (context, output, input, params). */
  readonly notes: readonly string[];
}

const EXTENSIONS = ['.machine.json', '.machine.ts', '.mmd', '.svg'] as const;

/** The files of one machine, by name. */
async function filesOf(
  definition: Definition,
  stem: string,
  allEdges: boolean,
): Promise<{ files: Map<string, string>; refused?: string; notes: string[] }> {
  const exported = exportMachine(definition);
  const label = `${definition.kind} '${definition.name}'`;
  if (exported.inline.length > 0) {
    const where = exported.inline.map((p) => `${p.path} (${p.what})`).join(', ');
    return {
      files: new Map(),
      refused: `${label}: its machine has inline code where a name belongs: ${where}. Name it in setup({ guards, actions, actors }) and refer to it by name (with params for values), so the machine can be written as JSON.`,
      notes: [],
    };
  }
  const notes =
    exported.omitted.length > 0
      ? [`${label}: left out of the JSON (they map data, they are not structure): ${exported.omitted.map((p) => p.path).join(', ')}`]
      : [];
  const questions = Object.fromEntries(
    Object.entries(exported.questions).map(([key, message]) => [key, message ?? '(message written in code)']),
  );
  // the diagrams are for people: the engine's internal edges only when asked for
  const drawn = allEdges ? exported.config : exported.userView;
  const files = new Map<string, string>([
    [`${stem}.machine.json`, `${JSON.stringify(exported.config, null, 2)}\n`],
    [`${stem}.machine.ts`, toMachineCode(exported.config, { name: definition.name })],
    [`${stem}.mmd`, toMermaid(drawn, { questions, fields: exported.fields, conditions: exported.conditions })],
    [`${stem}.svg`, await toSvg(drawn, { questions, fields: exported.fields, conditions: exported.conditions })],
  ]);
  return { files, notes };
}

/**
 * Writes the machine files of `definitions` into `out` (created if missing); with `check`, writes nothing
 * and reports every file that is missing or differs, and every leftover file of a machine no longer there.
 * The diagrams (.mmd, .svg) draw the user's view (see MachineExport.userView); `allEdges` draws every edge.
 * The JSON and TypeScript files are always the whole machine.
 */
export async function writeMachineFiles(
  definitions: readonly Definition[],
  options: { out: string; check?: boolean; allEdges?: boolean },
): Promise<MachineFilesReport> {
  const names = definitions.map((d) => d.name);
  const stemOf = (d: Definition) => (names.filter((n) => n === d.name).length > 1 ? `${d.kind}.${d.name}` : d.name);
  const files: string[] = [];
  const refused: string[] = [];
  const notes: string[] = [];
  const wanted = new Set<string>();
  if (!options.check) await mkdir(options.out, { recursive: true });
  for (const definition of definitions) {
    const made = await filesOf(definition, stemOf(definition), options.allEdges === true);
    if (made.refused) refused.push(made.refused);
    notes.push(...made.notes);
    for (const [name, content] of made.files) {
      wanted.add(name);
      const path = join(options.out, name);
      if (options.check) {
        const current = await readFile(path, 'utf8').catch(() => undefined);
        if (current !== content) files.push(path);
      } else {
        await writeFile(path, content);
        files.push(path);
      }
    }
  }
  const present = await readdir(options.out).catch(() => [] as string[]);
  const leftover = present
    .filter((name) => EXTENSIONS.some((ext) => name.endsWith(ext)) && !wanted.has(name))
    .map((name) => join(options.out, name));
  return { files, leftover, refused, notes };
}
