// Answers the server's questions at the terminal: a form elicitation becomes the form renderer's
// prompts, a URL elicitation asks the person to open the page and come back. Questions that arrive
// together (parallel states) are asked one after the other, never interleaved. Ctrl-C at a question
// cancels it and every question waiting behind it (the terminal interrupts the request too); so does
// the request's own end (its signal). What the server wrote is shown escaped.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { displayLine, displayText } from './display-text.ts';
import { readFields } from './form-fields.ts';
import { CANCEL, DECLINE, type FormOutcome, renderForm } from './render-form.ts';
import type { Terminal } from './terminal.ts';

type Answered = ElicitResult | FormOutcome;

async function answerUrl(terminal: Terminal, message: string, url: string): Promise<Answered> {
  const { bold, cyan, red } = terminal.style;
  terminal.say(`\n${bold(displayText(message))}\n  Open this page: ${cyan(displayLine(url))}\n`);
  for (;;) {
    const answer = await terminal.ask(`  Press Enter once you are done there (${DECLINE} refuses, ${CANCEL} or Ctrl-C stops): `);
    if (answer.kind === 'interrupt') return { action: 'interrupted' };
    if (answer.kind !== 'line' || answer.text.trim() === CANCEL) return { action: 'cancel' };
    if (answer.text.trim() === DECLINE) return { action: 'decline' };
    if (answer.text.trim() === '') return { action: 'accept' };
    terminal.say(`  ${red('✗ press Enter alone when you are done.')} Try again.\n`);
  }
}

/** The `elicitation/create` handler of the terminal host. */
export function createElicitationAnswerer(
  terminal: Terminal,
): (request: ElicitRequest, ctx?: { mcpReq: { signal: AbortSignal } }) => Promise<ElicitResult> {
  let queue: Promise<unknown> = Promise.resolve();
  // bumped by Ctrl-C: a question that arrived before it is not asked any more
  let interrupts = 0;
  return (request, ctx) => {
    const params = request.params;
    const arrivedAfter = interrupts;
    const ask = async (): Promise<ElicitResult> => {
      if (arrivedAfter !== interrupts || ctx?.mcpReq.signal.aborted) return { action: 'cancel' };
      const outcome: Answered =
        params.mode === 'url'
          ? await answerUrl(terminal, params.message, params.url)
          : await renderForm(terminal, params.message, readFields(params.requestedSchema), { canDecline: true });
      if (outcome.action === 'interrupted') {
        interrupts++;
        return { action: 'cancel' };
      }
      return outcome.action === 'accept' && outcome.content !== undefined
        ? { action: 'accept', content: outcome.content as ElicitResult['content'] }
        : { action: outcome.action };
    };
    const turn = queue.then(ask, ask);
    queue = turn;
    return turn;
  };
}
