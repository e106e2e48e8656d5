// `roundtrip call` of a tool that answers an MCP task (SEP-2663) on 2026-07-28: the host consents to
// tasks, polls the task, shows its status message, asks the task's question with the same form as any,
// prints the result; a failed task is an error; Ctrl-C cancels the task and waits for it; on a terminal a
// count in the status message ("Checked 2 of 5 orders") is drawn as a progress bar, in a real pseudo-terminal
// too (tmux, as call-terminal.test.ts drives it). The server is the CLI's own `serve` of task-definitions.ts,
// a real child process over stdio, both bundled (bundled-cli.ts: a process starts in a fraction of the time the
// workspace bin takes through tsx); over HTTP: call-task-http.test.ts; chat: chat-task.test.ts.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand, runInTerminal } from './fixtures/run-command.ts';
import { useTaskCli } from './fixtures/task-cli-setup.ts';
import { hasTmux, openTmuxPane } from './fixtures/tmux-pane.ts';

const here = fileURLToPath(new URL('.', import.meta.url));
const cli = useTaskCli('call-task', here);

// CI (.ci/run installs tmux) always runs the pseudo-terminal case; elsewhere it runs when tmux is there
const required = process.env.CI === 'true';

/** `call <tool> --args {month} -- <serve of the task definitions>`, the command and the module bundled. */
const callArgs = (tool: string) => [
  'call',
  tool,
  '--args',
  '{"month":"2026-11"}',
  '--',
  ...cli.bundled.launcher,
  'serve',
  cli.bundled.module('task-definitions'),
  '--key-file',
  cli.keyFile,
  '--ledger=:memory:',
];

describe('roundtrip call of a task', { timeout: 60_000, concurrent: true }, () => {
  it('follows the task: its status line, its question through the form and tasks/update, then the result', async () => {
    const { code, out, err } = await runCommand(callArgs('export_orders'), { cwd: here, lines: ['ops@example.com'] });
    expect(err).toContain('Collecting the orders of 2026-11…\n');
    expect(err).toContain('Collecting the orders of 2026-11…\n\nThe orders of 2026-11 are in /tmp/2026-11.csv. Email the file?');
    expect(out).toBe('Exported 2026-11 to /tmp/2026-11.csv, sent to ops@example.com.\n');
    expect(code).toBe(0);
  });

  it('says a failed task as an error, exit 1', async () => {
    const { code, out, err } = await runCommand(callArgs('broken_export'), { cwd: here });
    expect(out).toBe('');
    expect(err).toContain("roundtrip call: the server refused the request: Tool 'broken_export' failed on the server");
    expect(err).toContain('│ [task-definitions] error machine_error (tool broken_export');
    expect(code).toBe(1);
  });

  it('in a terminal: Ctrl-C sends tasks/cancel, waits for cancelled, and exits 130', async () => {
    const { code, out, err } = await runInTerminal(callArgs('wait_for_cancel'), {
      cwd: here,
      steps: [{ after: 'Collecting the orders of 2026-11…', keys: '\x03' }],
    });
    // one line rewritten in place while the task works, then the cancel, confirmed before the command ends
    expect(err).toContain('\r\x1b[2K⠋ Collecting the orders of 2026-11…\r\x1b[2KCancelling the task…\n');
    expect(err.replaceAll('\r\x1b[2K', '')).toMatch(/Cancelling the task…\nroundtrip call: interrupted\.\n$/);
    expect(out).toBe('');
    expect(code).toBe(130);
  });

  it('in a terminal: Ctrl-C at one of two questions the task asks cancels the task without asking the other', async () => {
    const { code, out, err } = await runInTerminal(callArgs('archive_orders'), {
      cwd: here,
      steps: [{ after: 'email (email, optional)', keys: '\x03' }],
    });
    expect(err).toContain('Email the file?');
    expect(err).not.toContain('Keep a copy');
    expect(err.replaceAll('\r\x1b[2K', '')).toMatch(/\^C\n {2}Interrupted\.\nCancelling the task…\nroundtrip call: interrupted\.\n$/);
    expect(out).toBe('');
    expect(code).toBe(130);
  });

  it('in a terminal: a count in the status message is drawn as a progress bar', async () => {
    const { code, err } = await runInTerminal(callArgs('check_orders'), {
      cwd: here,
      steps: [{ after: 'Checked 2 of 5 orders of 2026-11', keys: '\x03' }],
    });
    // 2 of 5: 8 of the bar's 20 cells, the message beside it
    expect(err).toContain('\r\x1b[2K████████░░░░░░░░░░░░ Checked 2 of 5 orders of 2026-11\r\x1b[2KCancelling the task…\n');
    expect(err).not.toContain('⠋ Checked');
    expect(code).toBe(130);
  });

  it.skipIf(!hasTmux && !required)('in a pseudo-terminal (tmux): the bar drawn in place, Ctrl-C cancels the task, exit 130', async () => {
    if (!hasTmux) throw new Error("This test drives the command in tmux, which is missing: install it with 'apt-get install -y tmux'.");
    const pane = openTmuxPane([...cli.bundled.launcher, ...callArgs('check_orders')], { cwd: here, env: {} });
    try {
      await pane.waitFor('████████░░░░░░░░░░░░ Checked 2 of 5 orders of 2026-11');
      pane.keys('C-c');
      const shown = await pane.waitFor('roundtrip call: interrupted.');
      expect(shown).toContain('Cancelling the task…');
      expect(await pane.exitStatus()).toBe(130);
    } finally {
      pane.close();
    }
  });
});
