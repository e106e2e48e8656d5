// A tool declared as a flow with @roundtrip/tools: two forms, then a final action that runs once.
import { ask, defineFlowTool, field } from '@roundtrip/tools';
import { z } from 'zod';

export const planTrip = defineFlowTool({
  name: 'plan_trip',
  description: 'Plans a trip to a city',
  input: z.object({ city: z.string() }),
  steps: {
    when: ask({ message: 'When do you go to {{input.city}}?', fields: { date: field.text({ format: 'date' }) } }),
    party: ask({
      message: 'How many travel, and how?',
      fields: { people: field.integer({ min: 1, max: 9 }), by: field.select({ options: { train: 'By train', plane: 'By plane' } }) },
    }),
  },
  final: ({ input, answers }) => {
    const by: 'train' | 'plane' | undefined = answers.party?.by;
    // @ts-expect-error: answers are typed from the steps, and there is no step 'nope'
    void answers.nope;
    return { text: `Trip to ${input.city} on ${answers.when?.date} for ${answers.party?.people} by ${by}.` };
  },
});
