// A flow that loads, drawn: the load step is a state named after the step, its loader named on the
// transitions out of it (and inside its box in the SVG); an async check is a state of its own.

import { presentationOf } from '@roundtrip/engine';
import { ask, defineFlowTool, field, load } from '@roundtrip/tools';
import { flowMachineConfig } from '@roundtrip/tools/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { exportMachine } from '../src/machine-export.ts';
import { toMermaid } from '../src/mermaid.ts';
import { toSvg } from '../src/svg.ts';

const refund = defineFlowTool({
  name: 'refund_order',
  description: 'Refunds an order',
  input: z.object({ orderId: z.string() }),
  loaders: { findOrder: async () => ({ found: true, amount: 40 }) },
  steps: {
    order: load({
      run: 'findOrder',
      next: [{ if: { 'order.found': { eq: false } }, end: 'There is no order {{input.orderId}}.' }, { goto: 'why' }],
    }),
    why: ask({ message: 'Why refund {{order.amount}}?', fields: { reason: field.text() }, check: async () => undefined }),
  },
  final: () => ({ text: 'Refunded' }),
});

describe('the diagrams of a flow that loads', () => {
  it('draw the load step as a state whose ways out name its loader, and the async check as a state', () => {
    // what the tools package presents of its flow is what the diagram needs
    const shown = presentationOf(refund)!;
    const mermaid = toMermaid(shown.config, { questions: shown.questionTemplates, conditions: shown.conditions });
    expect(mermaid.split('\n')).toEqual(
      expect.arrayContaining([
        '  [*] --> order',
        '  order --> ended : done#58; findOrder [when(order.found = false)]',
        '  order --> why : done#58; findOrder',
        '  order --> ended : error#58; findOrder',
        '    why_asking --> why_checking : why.accept',
        '    why_checking --> why_asking : done#58; check#58;why [checkRefused]',
        '  why_checking --> finishing : done#58; check#58;why',
      ]),
    );
  });

  it('write the loader inside the load step’s box in the SVG, and export the config as it is', async () => {
    const svg = await toSvg(flowMachineConfig(refund));
    expect(svg).toContain('>invoke findOrder<');
    expect(svg).toContain('>invoke check<');
    const exported = exportMachine(refund);
    expect(exported.inline).toEqual([]);
    expect(exported.config.states).toMatchObject({ order: { invoke: { id: 'findOrder', src: 'findOrder', input: { step: 'order' } } } });
  });
});
