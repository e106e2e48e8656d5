import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, defineFlowTool, field, review } from '../src/index.ts';
import { accept, converse } from './conversation.ts';

describe('the review, as the user reads it', () => {
  it('reads yes/no answers and shown yes/no values as words, not true and false', async () => {
    const tool = defineFlowTool({
      name: 'order_lunch',
      description: 'Orders lunch',
      input: z.object({}),
      steps: {
        meal: ask({
          message: 'What would you like?',
          fields: { vegan: field.boolean({ title: 'Vegan' }), drink: field.boolean({ title: 'With a drink' }) },
        }),
        confirm: review({ message: 'Order it?', show: () => ({ 'In stock': true, Delivered: false }) }),
      },
      final: () => ({ text: 'ordered' }),
    });
    let c = await converse(tool);
    c = await c.answer({ meal: accept({ vegan: true, drink: false }) });
    const message = c.asked.confirm!.message;
    expect(message).toContain('- Vegan: yes\n- With a drink: no');
    expect(message).toContain('- In stock: yes\n- Delivered: no');
    expect(message).not.toMatch(/true|false/);
  });
});
