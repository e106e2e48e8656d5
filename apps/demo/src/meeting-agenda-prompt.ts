// The `meeting_agenda` prompt, declared as a flow: asks how long the meeting is and what kind of
// agenda it needs, then hands the model the instructions to write it.
import { type PromptDefinition, safeText } from '@roundtrip/engine';
import { ask, defineFlowPrompt, field } from '@roundtrip/tools';
import { z } from 'zod';

const STYLES = {
  standup: 'Stand-up: a quick round of updates',
  workshop: 'Workshop: work through a problem together',
  decision: 'Decision: weigh the options, then decide',
} as const;

export type AgendaStyle = keyof typeof STYLES;

const MAX_TOPIC_CHARS = 120;
const MAX_NOTES_CHARS = 300;

const STYLE_GUIDE: Record<AgendaStyle, string> = {
  standup: 'one short slot per person for updates and blockers, no discussion',
  workshop: 'a short framing, then most of the time for working together, then next steps',
  decision: 'the question, the options with their costs, the decision and who acts on it',
};

/** The instructions the model gets; exported so tests and the demo can say what they expect. */
export function agendaInstructions(topic: string, minutes: number, style: AgendaStyle, notes: string | undefined): string {
  // the topic and the notes are the client's and the user's words: the instructions repeat them as safe text
  return [
    `Write the agenda of a ${minutes}-minute meeting about "${safeText(topic, { maxChars: MAX_TOPIC_CHARS })}".`,
    `Style: ${style} (${STYLE_GUIDE[style]}).`,
    'Give each item a time box; the time boxes add up to the length of the meeting.',
    ...(notes ? [`Take this into account: "${safeText(notes, { maxChars: MAX_NOTES_CHARS })}".`] : []),
    'Reply with the agenda only, as a numbered list.',
  ].join(' ');
}

/**
 * Builds the `meeting_agenda` prompt.
 *
 * @example
 * const prompt = createMeetingAgendaPrompt();
 */
export function createMeetingAgendaPrompt(): PromptDefinition {
  return defineFlowPrompt({
    name: 'meeting_agenda',
    title: 'Meeting agenda',
    description: "Writes a meeting's agenda; asks how long the meeting is and what kind of agenda it needs.",
    arguments: z.object({ topic: z.string().min(1).max(MAX_TOPIC_CHARS).describe('What the meeting is about') }),
    steps: {
      shape: ask({
        message: 'How long is the meeting about "{{input.topic}}", and what kind of agenda should it follow?',
        fields: {
          minutes: field.integer({ title: 'Length in minutes', min: 10, max: 240, default: 30 }),
          style: field.select({ title: 'Style', options: STYLES }),
          notes: field.text({ title: 'Anything to keep in mind', maxLength: MAX_NOTES_CHARS, optional: true }),
        },
      }),
    },
    final: ({ input, answers }) => {
      const { minutes, style, notes } = answers.shape!;
      return [{ role: 'user', text: agendaInstructions(input.topic, minutes, style, notes) }];
    },
    ended: () => [{ role: 'assistant', text: 'No agenda was written: the questions about the meeting were not answered.' }],
  });
}
