import { ask, askAll, type Condition, defineFlowTool, field, form, review } from '@roundtrip/tools';
import { describeCondition, flowMachineConfig } from '@roundtrip/tools/internal';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toMermaid } from '../src/mermaid.ts';
import { escapeLabel, guardText } from '../src/mermaid-labels.ts';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;

/** The words of each condition, by its JSON text: what a declared flow's presentation gives a diagram. */
const described = (...conditions: Condition[]) => Object.fromEntries(conditions.map((c) => [JSON.stringify(c), describeCondition(c)]));
const refundCondition: Condition = { all: [{ 'confirm.ok': { eq: true } }, { 'input.amount': { lte: 100 } }] };

const door = {
  id: 'door',
  initial: 'closed',
  states: {
    closed: { on: { OPEN: 'opened' } },
    opened: { on: { CLOSE: 'closed', LOCK: { target: 'locked', guard: 'hasKey' } } },
    locked: { type: 'final' },
  },
};

const refund = {
  id: 'refund',
  initial: 'lookingUp',
  states: {
    lookingUp: {
      invoke: { id: 'lookup', src: 'lookupOrder', onDone: { target: 'checking', actions: { type: 'rememberOrder' } }, onError: 'failed' },
    },
    checking: { always: [{ guard: 'orderMissing', target: 'failed' }, { target: 'confirming' }] },
    confirming: {
      meta: { ask: ['confirm'] },
      on: {
        'confirm.accept': [
          {
            guard: { type: 'when', params: { condition: refundCondition } },
            target: 'refunding',
          },
          {
            guard: { type: 'answerFails', params: { form: 'confirm' } },
            actions: [{ type: 'rememberProblem', params: { form: 'confirm' } }],
          },
          { actions: 'log' },
          {},
        ],
        'confirm.decline': { target: 'failed', reenter: true },
      },
    },
    refunding: {
      after: { 5000: 'failed' },
      initial: 'sending',
      states: { sending: { on: { SENT: 'sent' } }, sent: { type: 'final' } },
      onDone: 'refunded',
    },
    refunded: { type: 'final' },
    failed: { type: 'final' },
  },
};

describe('toMermaid', () => {
  it('should draw states, the initial and final markers and labelled transitions', () => {
    expect(toMermaid(door)).toBe(
      text(
        'stateDiagram-v2',
        '  [*] --> closed',
        '  closed',
        '  opened',
        '  locked',
        '  closed --> opened : OPEN',
        '  opened --> closed : CLOSE',
        '  opened --> locked : LOCK [hasKey]',
        '  locked --> [*]',
      ),
    );
  });

  it('should label eventless, delayed, done and invoke transitions, draw guarded or acting target-less ones as self-loops, and note what a state asks', () => {
    expect(toMermaid(refund, { questions: { confirm: 'Refund {{amount}}: sure?' }, conditions: described(refundCondition) })).toBe(
      text(
        'stateDiagram-v2',
        '  [*] --> lookingUp',
        '  lookingUp',
        '  checking',
        '  confirming',
        '  state refunding {',
        '    [*] --> refunding_sending',
        '    state "sending" as refunding_sending',
        '    state "sent" as refunding_sent',
        '    refunding_sending --> refunding_sent : SENT',
        '    refunding_sent --> [*]',
        '  }',
        '  refunded',
        '  failed',
        '  lookingUp --> checking : done#58; lookup',
        '  lookingUp --> failed : error#58; lookup',
        '  checking --> failed : always [orderMissing]',
        '  checking --> confirming : always',
        '  confirming --> refunding : confirm.accept [when(all(confirm.ok = true, input.amount #lt;= 100))]',
        '  confirming --> confirming : confirm.accept [answerFails(form=confirm)] / rememberProblem',
        '  confirming --> confirming : confirm.accept / log',
        '  confirming --> failed : confirm.decline',
        '  refunding --> failed : after 5000ms',
        '  refunding --> refunded : done',
        '  refunded --> [*]',
        '  failed --> [*]',
        '  note right of confirming : asks confirm#58; #quot;Refund {{amount}}#58; sure?#quot;',
      ),
    );
    expect(toMermaid(refund)).toContain('  note right of confirming : asks confirm\n');
  });

  it('should give states unique word ids, separate parallel regions, wrap a machine with transitions of its own, and resolve every kind of target', () => {
    const config = {
      id: 'two sides',
      type: 'parallel',
      on: { RESET: '.left', 'jump; now': { target: '#start', guard: { type: 'g', params: { note: 'a "b": c' } } } },
      states: {
        left: {
          initial: 'default',
          states: {
            default: { id: 'start', on: { 'go:on': 'asking', lost: 'nowhere' } },
            asking: { type: 'final', meta: { ask: ['q1', 'q2'] } },
            'a-b': { type: 'history', history: 'deep' },
          },
          after: { soon: '#two sides.right.asking' },
        },
        right: { initial: 'asking', states: { asking: { on: { BACK: '#start' } } } },
      },
    };
    expect(toMermaid(config, { questions: { q1: 'First?' } })).toBe(
      text(
        'stateDiagram-v2',
        '  [*] --> two_sides',
        '  state "two sides" as two_sides',
        '  state two_sides {',
        '    state left {',
        '      [*] --> left_default',
        '      state "default" as left_default',
        '      state "asking" as left_asking',
        '      state "a-b (H*)" as left_a_b',
        '      left_default --> left_asking : go#58;on',
        "      %% left_default --> ? : lost (target 'nowhere' names no state)",
        '      left_asking --> [*]',
        '      note right of left_asking',
        '        asks q1#58; #quot;First?#quot;',
        '        asks q2',
        '      end note',
        '    }',
        '    --',
        '    state right {',
        '      [*] --> right_asking',
        '      state "asking" as right_asking',
        '    }',
        '  }',
        '  two_sides --> left : RESET',
        '  two_sides --> left_default : jump#59; now [g(note=#quot;a #quot;b#quot;#58; c#quot;)]',
        '  left --> right_asking : after soon',
        '  right_asking --> left_default : BACK',
      ),
    );
  });

  it('should keep Mermaid keywords out of ids', () => {
    const out = toMermaid({
      initial: 'default',
      states: { default: { on: { GO: 'note' } }, note: { on: { GO: 'defaultRoom' } }, defaultRoom: {} },
    });
    expect(out).toContain('  state "default" as s_default\n');
    expect(out).toContain('  s_default --> s_note : GO\n');
    expect(out).toContain('  s_note --> s_defaultRoom : GO\n');
    expect(toMermaid({ initial: 'a', states: { a: { initial: '[[fork]]', states: { '[[fork]]': {} } } } })).toContain(
      '    state "#91;#91;fork]]" as a_fork\n',
    );
  });

  it('should give the same text for the same config, and leave the config as it was', () => {
    const before = JSON.stringify(refund);
    expect(toMermaid(refund)).toBe(toMermaid(structuredClone(refund)));
    expect(JSON.stringify(refund)).toBe(before);
  });
});

describe('labels', () => {
  it('should write what Mermaid reads as syntax as entity codes, on one line', () => {
    expect(escapeLabel('a: "b"; #c <d> & 50%\nnext')).toBe('a#58; #quot;b#quot;#59; #35;c #lt;d#gt; #amp; 50#37; next');
    expect(escapeLabel('turn direction LR, then end note')).toBe('turn #100;irection LR, then #101;nd note');
    expect(escapeLabel('redirection TB, legend note')).toBe('re#100;irection TB, leg#101;nd note');
  });

  it('should show a guard by name, with its params in short and a condition described', () => {
    expect(guardText('isValid')).toBe('isValid');
    expect(guardText({ type: 'answeredBefore', params: { step: 'when', forms: ['a', 'b'], n: 2 } })).toBe(
      'answeredBefore(step=when, forms=[a, b], n=2)',
    );
    const condition: Condition = { 'when.attendees': { gt: 5 } };
    expect(guardText({ type: 'when', params: { condition } }, described(condition))).toBe('when(when.attendees > 5)');
    // a condition the presentation does not describe is shown as its JSON
    expect(guardText({ type: 'when', params: { condition } })).toBe('when(condition={"when.attendees":{"gt":5}})');
    expect(guardText({ type: 'g', params: { text: 'x'.repeat(100) } })).toHaveLength(80);
    expect(guardText({ params: {} })).toBeUndefined();
  });
});

// the demo's declared flows (apps/demo): book_meeting branches on an answer and goes back; report_incident asks in parallel
const bookMeeting = defineFlowTool({
  name: 'book_meeting',
  description: 'Books a meeting room',
  input: z.object({ topic: z.string() }),
  steps: {
    when: ask({
      message: 'When, and for how many?',
      fields: { date: field.text({ title: 'Date', format: 'date' }), attendees: field.integer({ title: 'Attendees', min: 1, max: 40 }) },
      next: [{ if: { 'when.attendees': { gt: 5 } }, goto: 'room' }, { goto: 'confirm' }],
    }),
    room: ask({
      message: 'Which room?',
      fields: { room: field.select({ title: 'Room', options: { atlas: 'Atlas', orion: 'Orion' } }) },
      onDecline: 'back',
    }),
    confirm: review({ message: 'Book "{{input.topic}}"?' }),
  },
  final: () => ({ text: 'booked' }),
});

const reportIncident = defineFlowTool({
  name: 'report_incident',
  description: 'Records an incident',
  input: z.object({ summary: z.string() }),
  steps: {
    severity: ask({
      message: 'How severe?',
      fields: { level: field.select({ title: 'Severity', options: { low: 'Low', high: 'High' } }) },
    }),
    report: askAll({
      forms: {
        details: form({ message: 'What happened?', fields: { description: field.text({ title: 'What happened' }) } }),
        oncall: form({ message: 'Page?', fields: { page: field.boolean({ title: 'Page' }) }, if: { 'severity.level': { eq: 'high' } } }),
      },
    }),
  },
  final: () => ({ text: 'recorded' }),
});

type Json = Record<string, unknown>;
const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const items = (value: unknown): unknown[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Every state path and every drawn transition of a flow config, read here independently of the generator. */
function expectedParts(config: Json) {
  const machineId = String(config.id);
  const states: string[][] = [];
  const edges: { from: string[]; to: string[]; trigger: string }[] = [];
  const visit = (node: Json, path: string[]) => {
    const resolve = (target: string) =>
      target.startsWith('#') ? target.slice(machineId.length + 2).split('.') : [...path.slice(0, -1), target];
    const add = (trigger: string, written: unknown) => {
      for (const t of items(written)) {
        const transition: Json = typeof t === 'string' ? { target: t } : isJson(t) ? t : {};
        const targets = items(transition.target).map(String);
        if (targets.length === 0 && (transition.guard !== undefined || items(transition.actions).length > 0))
          edges.push({ from: path, to: path, trigger });
        for (const target of targets) edges.push({ from: path, to: resolve(target), trigger });
      }
    };
    for (const [event, written] of Object.entries(isJson(node.on) ? node.on : {})) add(event, written);
    add('always', node.always);
    add('done', node.onDone);
    for (const [key, child] of Object.entries(isJson(node.states) ? node.states : {})) {
      if (!isJson(child)) continue;
      states.push([...path, key]);
      visit(child, [...path, key]);
    }
  };
  visit(config, []);
  return { states, edges };
}

describe.each([
  ['book_meeting', bookMeeting],
  ['report_incident', reportIncident],
])('the declared %s flow', (_, definition) => {
  const config = flowMachineConfig(definition);
  const out = toMermaid(config, { questions: { when: 'When, and for how many?' } });
  const lines = out.split('\n').map((line) => line.trim());
  const { states, edges } = expectedParts(config);

  it('should draw every state, under its own id', () => {
    expect(states.length).toBeGreaterThan(5);
    for (const path of states) {
      const id = path.join('_');
      const key = path.at(-1)!;
      expect(lines.some((line) => line === id || line === `state "${key}" as ${id}` || line === `state ${id} {`)).toBe(true);
    }
  });

  it('should draw every transition, and nothing else', () => {
    expect(edges.length).toBeGreaterThan(10);
    const drawn = lines.filter((line) => / --> /.test(line) && !line.startsWith('[*]') && !line.endsWith('--> [*]'));
    for (const { from, to, trigger } of edges) {
      const start = `${from.join('_')} --> ${to.join('_')} : ${escapeLabel(trigger)}`;
      expect(drawn.some((line) => line === start || line.startsWith(`${start} `))).toBe(true);
    }
    expect(drawn).toHaveLength(edges.length);
  });

  it('should note each state that asks', () => {
    for (const line of lines.filter((l) => l.startsWith('note right of'))) expect(line).toMatch(/^note right of \w+ : asks \w+/);
    expect(lines.filter((l) => l.startsWith('note right of'))).toHaveLength(JSON.stringify(config).split('"ask":').length - 1);
  });
});
