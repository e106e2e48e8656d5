// What the server tells its operator on stderr: one line per engine log entry, and the startup line.

import { createEngine, createKeyring, type Engine, type EngineOptions, generateKey } from '@roundtrip/engine';
import { describe, expect, it, vi } from 'vitest';
import type { ServerSettings, V8Tuning } from '../src/node/index.ts';
import { describeServed, startupMessage } from '../src/node/startup-message.ts';
import { createStderrLog } from '../src/node/stderr-log.ts';
import { greetingDefinitions, greetTool, todayResource } from './fixtures/greeting-definitions.ts';

const keyring = createKeyring([generateKey()]);
const engineOf = (definitions: Partial<EngineOptions>) => createEngine({ keyring, audience: 'srv', ...definitions });

describe('createStderrLog', () => {
  it('names what the request was for and its run', () => {
    const lines: string[] = [];
    const log = createStderrLog('orders', (line) => lines.push(line));
    log({ level: 'warn', event: 'state_rejected', target: 'prompt refund_email', message: 'requestState refused (invalid): expired' });
    log({ level: 'info', event: 'run_complete', target: 'resource statement://customers/c1', run: 'r1', message: 'finished in round 2' });
    log({ level: 'info', event: 'started', message: 'serving' });
    expect(lines).toEqual([
      '[orders] warn state_rejected (prompt refund_email): requestState refused (invalid): expired\n',
      '[orders] info run_complete (resource statement://customers/c1 run r1): finished in round 2\n',
      '[orders] info started: serving\n',
    ]);
  });

  it('keeps what a client sent on one line: controls escaped, so no line can be forged, and long text cut', () => {
    const lines: string[] = [];
    const log = createStderrLog('orders', (line) => lines.push(line));
    log({
      level: 'warn',
      event: 'state_rejected',
      target: 'tool x\n[orders] info',
      message: 'Unknown tool: evil\n[orders] info started: forged\u001b[2J\u2028',
    });
    expect(lines).toEqual([
      '[orders] warn state_rejected (tool x\\n[orders] info): Unknown tool: evil\\n[orders] info started: forged\\u001b[2J\\u2028\n',
    ]);
    log({ level: 'info', event: 'answer_invalid', message: 'x'.repeat(5_000) });
    expect(lines[1]).toBe(`[orders] info answer_invalid: ${'x'.repeat(2_000)}… (3000 more characters)\n`);
  });

  it('writes at most 20 lines a minute of one kind of event, then sums up what it held back', () => {
    const lines: string[] = [];
    let clock = 0;
    const log = createStderrLog(
      'orders',
      (line) => lines.push(line),
      () => clock,
    );
    for (let i = 0; i < 25; i++) log({ level: 'warn', event: 'state_rejected', message: `refused ${i}` });
    log({ level: 'info', event: 'run_complete', message: 'other events still pass' });
    expect(lines).toHaveLength(21);
    expect(lines[19]).toBe('[orders] warn state_rejected: refused 19\n');
    expect(lines[20]).toBe('[orders] info run_complete: other events still pass\n');
    clock += 60_000;
    log({ level: 'warn', event: 'state_rejected', message: 'a minute later' });
    expect(lines.slice(21)).toEqual([
      '[orders] warn state_rejected: 5 more like this in 60 s were not logged\n',
      '[orders] warn state_rejected: a minute later\n',
    ]);
  });

  it('sums up what it held back when the minute is over, though that kind of event does not come again', () => {
    vi.useFakeTimers();
    try {
      const lines: string[] = [];
      const log = createStderrLog('orders', (line) => lines.push(line));
      for (let i = 0; i < 30; i++) log({ level: 'warn', event: 'request_invalid', message: `refused ${i}` });
      vi.advanceTimersByTime(59_999);
      expect(lines).toHaveLength(20);
      vi.advanceTimersByTime(1);
      expect(lines.slice(20)).toEqual(['[orders] warn request_invalid: 10 more like this in 60 s were not logged\n']);
      // summed up once: the next line of that kind opens a new minute and repeats nothing
      log({ level: 'warn', event: 'request_invalid', message: 'later' });
      expect(lines.slice(21)).toEqual(['[orders] warn request_invalid: later\n']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('indents the stack of an error under its line', () => {
    const lines: string[] = [];
    const error = new Error('boom');
    error.stack = 'Error: boom\n    at here';
    createStderrLog('orders', (line) => lines.push(line))({
      level: 'error',
      event: 'machine_error',
      target: 'tool refund_order',
      run: 'r2',
      message: 'failed',
      error,
    });
    expect(lines).toEqual(['[orders] error machine_error (tool refund_order run r2): failed\n    Error: boom\n        at here\n']);
  });
});

describe('the startup line', () => {
  it('counts what is served, leaving out the kinds there are none of', () => {
    expect(describeServed(engineOf(greetingDefinitions))).toBe('1 tool, 1 prompt, 1 resource, 1 resource template');
    const many = {
      listTools: () => [1, 2],
      listPrompts: () => [1, 2, 3],
      listResources: () => [],
      listResourceTemplates: () => [1, 2],
    } as unknown as Engine;
    expect(describeServed(many)).toBe('2 tools, 3 prompts, 2 resource templates');
    expect(describeServed(engineOf({ resources: [todayResource] }))).toBe('1 resource');
    expect(describeServed(engineOf({}))).toBe('no tools, prompts or resources');
  });

  it('reports the key source, principal, limits and ledger', () => {
    const settings: ServerSettings = {
      keyring,
      keySource: 'ROUNDTRIP_KEY (2 keys)',
      principal: 'ada',
      limits: { stateTtlSeconds: 120, settleTimeoutMs: 5000, maxRounds: 1, maxStateBytes: 4096 },
      legacyAnswerTimeoutMs: 600_000,
      maxRequestBytes: 4_194_304,
      inspect: { address: undefined, stately: false, answers: 'masked' },
      ledgerPath: '/var/lib/orders/effects.db',
      taskLeaseSeconds: 30,
      warnings: [],
    };
    expect(startupMessage('orders', '1.2.3', engineOf({ tools: [greetTool] }), settings, 'stdio')).toBe(
      'orders 1.2.3 serving 1 tool over stdio (ROUNDTRIP_KEY (2 keys); principal ada; state lifetime 120s, settle timeout 5000 ms, at most 1 round, states up to 4096 bytes; effect ledger /var/lib/orders/effects.db)',
    );
    expect(startupMessage('orders', '1.2.3', engineOf({ tools: [greetTool] }), { ...settings, ledgerPath: undefined }, 'stdio')).toMatch(
      /; the code's own effect ledger\)$/,
    );
    // what a server owning its process did to V8; nothing of a setting it could not change
    const owned = (v8: V8Tuning) => startupMessage('orders', '1.2.3', engineOf({ tools: [greetTool] }), settings, 'stdio', v8);
    expect(owned({ pretenuring: 'turned_off', tierUp: 'sooner' })).toMatch(
      /; effect ledger \/var\/lib\/orders\/effects\.db; V8 pretenuring off; V8 optimizes hot code sooner\)$/,
    );
    expect(owned({ pretenuring: 'kept_by_command_line', tierUp: 'kept_by_command_line' })).toMatch(
      /; V8 pretenuring on, as the command line asks; V8's tier-up as the command line sets it\)$/,
    );
    expect(owned({ pretenuring: 'unavailable', tierUp: 'unavailable' })).toMatch(/; effect ledger \/var\/lib\/orders\/effects\.db\)$/);
  });
});
