// The machines an inspector page draws: for each definition of the module, its name, kind, machine id
// and SVG (with its question messages), drawn once at start. A machine that cannot be drawn is listed
// with the reason instead of its SVG.
import { exportMachine, toSvg } from '@roundtrip/visualize';
import type { Definition } from '../find-definitions.ts';

export interface InspectedMachine {
  readonly name: string;
  readonly kind: Definition['kind'];
  /** The machine's id: what each round reports as `machine`, and the SVG's `data-machine`. */
  readonly machine: string;
  readonly svg?: string;
  /** Why there is no SVG. */
  readonly problem?: string;
}

async function machineOf(definition: Definition): Promise<InspectedMachine> {
  const exported = exportMachine(definition);
  const machine = typeof exported.config.id === 'string' ? exported.config.id : exported.name;
  const questions = Object.fromEntries(
    Object.entries(exported.questions).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  try {
    return {
      name: exported.name,
      kind: exported.kind,
      machine,
      svg: await toSvg(exported.config, { questions, conditions: exported.conditions }),
    };
  } catch (error) {
    return { name: exported.name, kind: exported.kind, machine, problem: (error as Error).message };
  }
}

/** Every definition's machine, drawn, in the order given. */
export function drawMachines(definitions: readonly Definition[]): Promise<InspectedMachine[]> {
  return Promise.all(definitions.map(machineOf));
}
