// The README's "Write a tool" example, a flow declared as data, kept here so that it typechecks with the
// rest of the repository; apps/demo/test/readme-examples.test.ts checks that the README shows it as it
// is and plays it. Try it at the terminal:
// npx -y pnpm@10.34.9 exec roundtrip call apps/demo/src/examples/plan-trip.ts plan_trip --args '{"city":"Lyon"}'
import { defineFlowTool, field } from '@roundtrip/tools';
import { z } from 'zod';

const today = () => new Date().toISOString().slice(0, 10);

export const planTrip = defineFlowTool({
  name: 'plan_trip',
  description: 'Plans a trip to a city: asks when, how many travel and how, then shows the plan to confirm',
  input: z.object({ city: z.string().min(1).describe('Where to go') }),
  // the steps in order: each sees the answers before it, typed
  steps: (flow) =>
    flow
      .ask('when', {
        message: 'When do you go to {{input.city}}?',
        fields: { date: field.text({ title: 'Date', format: 'date' }) },
        // a reason refuses the answer: the form is asked again with it
        check: ({ answer }) => (answer.date < today() ? `${answer.date} is in the past` : undefined),
      })
      .ask('party', {
        message: 'How many travel on {{when.date}}, and how?',
        fields: {
          people: field.integer({ title: 'Travellers', min: 1, max: 9 }),
          by: field.select({ title: 'By', options: { train: 'Train', plane: 'Plane' } }),
        },
        next: [{ if: { 'party.by': { eq: 'plane' } }, goto: 'seat' }, { goto: 'confirm' }],
      })
      .ask('seat', {
        message: 'Window or aisle?',
        fields: { seat: field.select({ title: 'Seat', options: ['window', 'aisle'] }) },
        onDecline: 'skip',
      })
      .review('confirm', { message: 'Book this trip to {{input.city}}?', labels: { confirm: 'Book it' } }),
  // runs at most once per call; `when` and `party` are on every way here, so required; `seat` is optional
  final: ({ input, answers }) => ({
    text: `Booked: ${input.city} on ${answers.when.date}, ${answers.party.people} by ${answers.party.by}, ${answers.seat?.seat ?? 'any'} seat.`,
  }),
});
