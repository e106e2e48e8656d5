// The person at the terminal, behind a small interface: text out, one line in at a time, Ctrl-C and
// Ctrl-D told apart. Lines typed (or piped) before a question is asked wait in a queue, so scripted
// input works the same as typing. Ctrl-C interrupts whatever runs: the question waiting, and the
// request in flight (the interrupt handler), so it never reads as a plain answer.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { plainStyle, type Style, terminalStyle } from './style.ts';

/** What a question got: the line typed, `interrupt` on Ctrl-C, `end` once input has ended (Ctrl-D). */
type Answer = { kind: 'line'; text: string } | { kind: 'interrupt' } | { kind: 'end' };

export interface Terminal {
  /** Writes text for the person (messages, field labels); never the command's result. */
  say(text: string): void;
  /** Shows `prompt` and resolves with what the person answered. */
  ask(prompt: string): Promise<Answer>;
  readonly style: Style;
  /** Whether a person types the answers (a TTY), rather than a script. */
  readonly interactive: boolean;
  /**
   * Called on Ctrl-C (a request in flight), after the question waiting, if any, got `interrupt`;
   * undefined to stop listening.
   */
  onInterrupt(handler: (() => void) | undefined): void;
  close(): void;
}

export interface TerminalOptions {
  input: NodeJS.ReadableStream;
  /** Where prompts and messages go: a stream, or anything with `write`. */
  output: NodeJS.WritableStream | { write(text: string): unknown };
  /** Colours and dim text; by default when the output is a TTY and NO_COLOR is not set. */
  color?: boolean;
}

const isTty = (stream: unknown) => (stream as { isTTY?: boolean }).isTTY === true;

function asWritable(output: TerminalOptions['output']): NodeJS.WritableStream {
  if (output instanceof Writable || typeof (output as { on?: unknown }).on === 'function') return output as NodeJS.WritableStream;
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      output.write(chunk.toString());
      done();
    },
  });
}

/** A terminal over `input` and `output` (node:readline underneath). */
export function createTerminal({ input, output, color }: TerminalOptions): Terminal {
  const writable = asWritable(output);
  const interactive = isTty(input) && isTty(writable);
  const style = (color ?? (isTty(writable) && !process.env.NO_COLOR)) ? terminalStyle : plainStyle;
  const rl = createInterface({ input, output: writable, terminal: interactive, historySize: interactive ? 100 : 0 });
  const queue: Answer[] = [];
  let waiting: ((answer: Answer) => void) | undefined;
  let interruptHandler: (() => void) | undefined;
  let ended = false;

  const deliver = (answer: Answer) => {
    if (waiting) {
      const resolve = waiting;
      waiting = undefined;
      resolve(answer);
    } else queue.push(answer);
  };
  rl.on('line', (text: string) => deliver({ kind: 'line', text }));
  rl.on('close', () => {
    ended = true;
    if (waiting) {
      writable.write('\n');
      deliver({ kind: 'end' });
    }
  });
  rl.on('SIGINT', () => {
    if (waiting) {
      // drop what was typed on the line, so the next question starts empty
      rl.write('', { ctrl: true, name: 'e' });
      rl.write('', { ctrl: true, name: 'u' });
      writable.write('^C\n');
      deliver({ kind: 'interrupt' });
    }
    interruptHandler?.();
  });

  return {
    style,
    interactive,
    say: (text) => void writable.write(text),
    ask(prompt) {
      const queued = queue.shift();
      if (queued !== undefined) {
        writable.write(`${prompt}${queued.kind === 'line' && !interactive ? `${queued.text}\n` : ''}`);
        return Promise.resolve(queued);
      }
      if (ended) {
        writable.write(`${prompt}\n`);
        return Promise.resolve({ kind: 'end' });
      }
      rl.setPrompt(prompt);
      rl.prompt();
      return new Promise<Answer>((resolve) => {
        waiting = (answer) => {
          // a scripted line is not echoed by readline: show it, so the transcript reads like a session
          if (answer.kind === 'line' && !interactive) writable.write(`${answer.text}\n`);
          resolve(answer);
        };
      });
    },
    onInterrupt: (handler) => {
      interruptHandler = handler;
    },
    close: () => rl.close(),
  };
}
