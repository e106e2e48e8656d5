// Answers the server's questions at the terminal: a form elicitation becomes the form renderer's
// prompts, a URL elicitation asks the person to open the page and come back. Questions that arrive
// together (parallel states) are asked one after the other, never interleaved.
import type { ElicitRequest, ElicitResult } from '@modelcontextprotocol/client';
import { readFields } from './form-fields.ts';
import { CANCEL, DECLINE, renderForm } from './render-form.ts';
import type { Terminal } from './terminal.ts';

async function answerUrl(terminal: Terminal, message: string, url: string): Promise<ElicitResult> {
  const { bold, cyan, red } = terminal.style;
  terminal.say(`\n${bold(message)}\n  Open this page: ${cyan(url)}\n`);
  for (;;) {
    const answer = await terminal.ask(`  Press Enter once you are done there (${DECLINE} refuses, ${CANCEL} or Ctrl-C stops): `);
    if (answer.kind !== 'line' || answer.text.trim() === CANCEL) return { action: 'cancel' };
    if (answer.text.trim() === DECLINE) return { action: 'decline' };
    if (answer.text.trim() === '') return { action: 'accept' };
    terminal.say(`  ${red('✗ press Enter alone when you are done.')} Try again.\n`);
  }
}

/** The `elicitation/create` handler of the terminal host. */
export function createElicitationAnswerer(terminal: Terminal): (request: ElicitRequest) => Promise<ElicitResult> {
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    const params = request.params;
    const ask = async (): Promise<ElicitResult> => {
      if (params.mode === 'url') return answerUrl(terminal, params.message, params.url);
      const outcome = await renderForm(terminal, params.message, readFields(params.requestedSchema), { canDecline: true });
      return outcome.action === 'accept' ? { action: 'accept', content: outcome.content as ElicitResult['content'] } : outcome;
    };
    const turn = queue.then(ask, ask);
    queue = turn;
    return turn;
  };
}
