import { describe, expect, it } from 'vitest';
import type { RoundReport } from '../src/index.ts';
import { makeConfirmTool } from './machines.ts';
import { accept, inputRequired, makeEngine } from './support.ts';

const refund = makeConfirmTool();
const args = { order_id: 'ord_1' };

describe('round reports for an inspector', () => {
  it('reports every round: where it started, the answers (field names only), the events, where it settled, what it asks', async () => {
    const reports: RoundReport[] = [];
    const { call } = makeEngine([refund], { inspect: (r) => reports.push(r), now: () => 1_000 });
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    await call({
      name: 'refund_order',
      arguments: args,
      requestState: first.requestState,
      inputResponses: { confirm: accept({ confirm: true }) },
    });
    expect(reports).toEqual([
      {
        target: 'tool refund_order',
        machine: 'confirm',
        run: expect.any(String),
        round: 1,
        from: undefined,
        answers: {},
        events: [],
        settled: 'asking',
        asked: ['confirm'],
        outcome: 'input_required',
        at: 1_000,
      },
      {
        target: 'tool refund_order',
        machine: 'confirm',
        run: reports[0]!.run,
        round: 2,
        from: 'asking',
        answers: { confirm: { action: 'accept', fields: ['confirm'] } },
        events: ['confirm.accept'],
        settled: 'refunded',
        asked: [],
        outcome: 'complete',
        at: 1_000,
      },
    ]);
    expect(JSON.stringify(reports)).not.toContain('true');
  });

  it('shows answer values only when told to', async () => {
    const reports: RoundReport[] = [];
    const { call } = makeEngine([refund], { inspect: (r) => reports.push(r), inspectAnswers: 'shown' });
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    await call({
      name: 'refund_order',
      arguments: args,
      requestState: first.requestState,
      inputResponses: { confirm: accept({ confirm: false }) },
    });
    expect(reports[1]!.answers).toEqual({ confirm: { action: 'accept', fields: { confirm: false } } });
  });

  it("passes XState's inspection events of every round's actors to inspectActors", async () => {
    const events: string[] = [];
    const { call } = makeEngine([refund], {
      inspectActors: (e) => events.push(e.type === '@xstate.event' ? `${e.type} ${e.event.type}` : e.type),
    });
    const first = inputRequired(await call({ name: 'refund_order', arguments: args }));
    await call({
      name: 'refund_order',
      arguments: args,
      requestState: first.requestState,
      inputResponses: { confirm: accept({ confirm: true }) },
    });
    expect(events).toContain('@xstate.actor');
    expect(events).toContain('@xstate.event confirm.accept');
    expect(events).toContain('@xstate.snapshot');
  });

  it('never lets an inspector that throws break the round: the error is logged', async () => {
    const { call, logs } = makeEngine([refund], {
      inspect: () => {
        throw new Error('inspector down');
      },
    });
    expect(inputRequired(await call({ name: 'refund_order', arguments: args })).inputRequests.confirm).toBeDefined();
    expect(logs).toContainEqual(
      expect.objectContaining({ level: 'warn', event: 'inspect_failed', code: 'inspect_threw', error: new Error('inspector down') }),
    );
  });
});
