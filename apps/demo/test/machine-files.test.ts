// The demo's machines as exported files: the JSON of each, parsed and given to createMachine with the
// machine's own implementations (for declared flows, the shared setup), has the structure hash of the
// machine the server runs.
import { describeDefinition, ProblemList } from '@roundtrip/engine';
import { compileMachine, internalsOf } from '@roundtrip/engine/internal';
import { flowMachineFrom } from '@roundtrip/tools/internal';
import { exportMachine } from '@roundtrip/visualize';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, createMachine } from 'xstate';
import { prompts, resources, tools } from '../src/demo-machines.ts';

const definitions = [...tools, ...prompts, ...resources];

/** The engine's structure hash of `machine`, asking the questions `definition` asks. */
function hashOf(definition: object, machine: AnyStateMachine): string {
  const questions = new Map([...internalsOf(definition).machine.asksByState.values()].flat().map((q) => [q.key, q]));
  const problems = new ProblemList();
  const compiled = compileMachine(machine, 'rebuilt', questions, problems);
  problems.throwIfAny();
  return Buffer.from(compiled.hash).toString('base64url');
}

describe('the exported JSON of every demo machine', () => {
  it.each(definitions.map((d) => [`${d.kind} ${d.name}`, d] as const))(
    '%s: rebuilt from its parsed JSON, has the served structure hash',
    (_, definition) => {
      const exported = exportMachine(definition);
      expect(exported.inline).toEqual([]);
      const json = JSON.parse(JSON.stringify(exported.config)) as Record<string, unknown>;
      let rebuilt: AnyStateMachine;
      try {
        rebuilt = flowMachineFrom(definition, json);
      } catch {
        rebuilt = createMachine(json as never, describeDefinition(definition).machine.implementations as never) as AnyStateMachine;
      }
      expect(hashOf(definition, rebuilt)).toBe(describeDefinition(definition).structureHash);
    },
  );
});
