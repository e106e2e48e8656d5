// `roundtrip chat` of tools that answer MCP tasks (SEP-2663) on 2026-07-28, as `call` follows them
// (call-task.test.ts): the host consents to tasks, shows the status message, asks the task's question with
// the same form and answers it with tasks/update, prints the result; a failed task is said and the menu
// asks again. Ctrl-C while the task works, or at its question, cancels the task (tasks/cancel, waited for)
// and goes back to the menu, as Ctrl-C at any question does in chat (interrupt-at-question.test.ts). The
// command runs in-process; its server is the CLI's own `serve` of task-definitions.ts, a real child process
// over stdio, both bundled (bundled-cli.ts: a process starts in a fraction of the time the workspace bin takes).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand, runInTerminal } from './fixtures/run-command.ts';
import { useTaskCli } from './fixtures/task-cli-setup.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = useTaskCli('chat-task', here);

/** `chat <the task definitions>`, served by the command's own `serve`: the module and the command bundled. */
const chatArgs = () => ['chat', cli.bundled.module('task-definitions'), '--key-file', cli.keyFile, '--ledger=:memory:'];
const CTRL_C = '\u0003';

describe('roundtrip chat of a task', { timeout: 60_000, concurrent: true }, () => {
  it('follows a task to its result through its question, says a failed one, and asks again each time', async () => {
    const { code, out, err } = await runCommand(chatArgs(), {
      cwd: here,
      launcher: cli.bundled.script,
      lines: ['export_orders', '2026-11', 'ops@example.com', 'broken_export', '2026-12', 'q'],
    });
    expect(err).toContain('Connected to task-definitions 0.0.0 (protocol 2026-07-28)');
    // off a terminal, one line per status message, then the task's question as a form
    expect(err).toContain(
      'Running tool export_orders…\nCollecting the orders of 2026-11…\n\nThe orders of 2026-11 are in /tmp/2026-11.csv. Email the file?',
    );
    expect(err).toContain(
      "Running tool broken_export…\nCollecting the orders of 2026-12…\nroundtrip chat: the server refused the request: Tool 'broken_export' failed on the server",
    );
    // the failure's log is shown, and the menu asks again
    expect(err).toMatch(/│ \[task-definitions\] error machine_error \(tool broken_export[\s\S]*\nroundtrip> q\n$/);
    expect(out).toBe('Exported 2026-11 to /tmp/2026-11.csv, sent to ops@example.com.\n');
    expect(code).toBe(0);
  });

  it('in a terminal: Ctrl-C while the task works, and at its question, cancels the task and goes back to the menu', async () => {
    const { code, out, err } = await runInTerminal(chatArgs(), {
      cwd: here,
      launcher: cli.bundled.script,
      steps: [
        { after: 'roundtrip>', keys: 'wait_for_cancel\r' },
        { after: 'month *', keys: '2026-11\r' },
        { after: 'Collecting the orders of 2026-11…', keys: CTRL_C },
        { after: 'Interrupted; back at the menu.', keys: '' },
        { after: 'roundtrip>', keys: 'export_orders\r' },
        { after: 'month *', keys: '2026-12\r' },
        { after: 'email (email, optional)', keys: CTRL_C },
        { after: 'Interrupted; back at the menu.', keys: '' },
        { after: 'roundtrip>', keys: 'q\r' },
      ],
    });
    const shown = err.replaceAll('\r\x1b[2K', '');
    // each cancel is confirmed by the server (the task reads cancelled) before the menu asks again
    expect(shown).toContain(
      '⠋ Collecting the orders of 2026-11…Cancelling the task…\nroundtrip chat: interrupted.\nInterrupted; back at the menu.',
    );
    expect(shown).toMatch(
      /Email the file\?[\s\S]*\^C\n {2}Interrupted\.\nCancelling the task…\nroundtrip chat: interrupted\.\nInterrupted; back at the menu\./,
    );
    expect(out).toBe('');
    expect(code).toBe(0);
  });

  it('says so in its help', async () => {
    const { code, out } = await runCommand(['chat', '--help'], { cwd: here });
    expect(out).toContain('On 2026-07-28 it accepts MCP tasks, as call does');
    expect(code).toBe(0);
  });
});
