// One typed log: every entry a Roundtrip server logs names its event from LogEventName (the engine's coded events,
// its notes, and what servers and transports log), so a sink can switch on `entry.event` with the compiler's help.
// Type tests (checked by tsc at the repository root), and a sink that sees typed entries from a real round.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EngineLogEntry, EngineOptions, LogEventName, ServerEventName } from '../src/index.ts';
import { makeSubmitTool } from './adversarial-tool.ts';
import { makeEngine } from './support.ts';

describe('log events', () => {
  it('types every entry’s event as one of LogEventName, servers’ and transports’ events included', () => {
    expectTypeOf<EngineLogEntry['event']>().toEqualTypeOf<LogEventName>();
    expectTypeOf<'state_rejected'>().toExtend<LogEventName>();
    expectTypeOf<'task_running'>().toExtend<LogEventName>();
    expectTypeOf<ServerEventName>().toExtend<LogEventName>();
    expectTypeOf<'request_refused' | 'jwks_unavailable' | 'answer_unclaimed'>().toExtend<ServerEventName>();
    expectTypeOf<'no_such_event'>().not.toExtend<LogEventName>();
    expectTypeOf<NonNullable<EngineOptions['log']>>().parameter(0).toEqualTypeOf<EngineLogEntry>();
  });

  it('hands a sink entries it can switch on by event', async () => {
    const seen: LogEventName[] = [];
    const test = makeEngine([makeSubmitTool({ runs: 0 })]);
    await test.call({ name: 'submit_request', arguments: { account: 'acct_1' }, requestState: 'rt1.not.a-state', inputResponses: {} });
    for (const entry of test.logs) {
      switch (entry.event) {
        case 'state_rejected':
          seen.push(entry.event);
          break;
        default:
          break;
      }
    }
    expect(seen).toEqual(['state_rejected']);
  });
});
