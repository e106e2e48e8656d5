import { spawnSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ask, askAll, defineFlowTool, field, form, review } from '@roundtrip/tools';
import { flowMachineConfig } from '@roundtrip/tools/internal';
import { describe, expect, it } from 'vitest';
import { type AnyStateMachine, initialTransition } from 'xstate';
import { z } from 'zod';
import { toMachineCode } from '../src/machine-code.ts';
import { quote } from '../src/machine-code-literal.ts';
import { keptTypecheck } from './support/kept-typecheck.ts';

const text = (...lines: string[]) => `${lines.join('\n')}\n`;

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const generated = fileURLToPath(new URL('./.generated/', import.meta.url));

/**
 * Biome's native binary for this platform, run directly: its launcher (node_modules/.bin/biome) is a node script that
 * starts it (and `ldd`, to tell musl from glibc), about 70 ms of CPU first. The launcher where no such binary is found.
 */
function biome(): string {
  try {
    const biomePackage = createRequire(`${repo}package.json`).resolve('@biomejs/biome/package.json');
    const binary = `@biomejs/cli-${process.platform}-${process.arch}/biome${process.platform === 'win32' ? '.exe' : ''}`;
    return createRequire(biomePackage).resolve(binary);
  } catch {
    return `${repo}node_modules/.bin/biome`;
  }
}

const doorConfig = {
  id: 'door',
  initial: 'closed',
  states: {
    closed: { on: { OPEN: 'opened' } },
    opened: { on: { CLOSE: 'closed', LOCK: { target: 'locked', guard: 'hasKey' } } },
    locked: { type: 'final' },
  },
};

const orderStatus = {
  id: 'order_status',
  version: '2',
  initial: 'lookingUp',
  states: {
    lookingUp: {
      invoke: {
        id: 'lookup',
        src: 'lookupOrder',
        onDone: { target: 'reported', actions: { type: 'keepOrder', params: { field: 'order' } } },
        onError: 'reported',
      },
      on: { 'tone.*': 'reported', '*': 'reported' },
    },
    reported: { type: 'final', entry: ['xstate.log', 'notify'], meta: { ask: [], "it's": 'say "hi"', description: 'x'.repeat(120) } },
  },
  after: { 1000: '.reported' },
};

// the demo's hand-written refund_order machine, as its config is exported (functions left out)
const refundOrder = {
  id: 'refund_order',
  version: '2',
  initial: 'lookingUp',
  states: {
    lookingUp: { invoke: { id: 'lookup', src: 'lookupOrder', onDone: { target: 'checkingOrder', actions: { type: 'rememberOrder' } } } },
    checkingOrder: {
      always: [
        { guard: 'orderMissing', target: 'notFound' },
        { guard: 'orderAlreadyRefunded', target: 'alreadyRefunded' },
        { target: 'confirming' },
      ],
    },
    confirming: {
      meta: { ask: ['confirm'] },
      on: {
        'confirm.accept': [{ guard: 'confirmed', target: 'refunding' }, { target: 'kept' }],
        'confirm.decline': 'kept',
        'confirm.cancel': 'kept',
      },
    },
    refunding: {
      invoke: {
        id: 'refund',
        src: 'refundOrder',
        onDone: { target: 'checkingRefund', actions: { type: 'rememberRefund' } },
        onError: [
          { guard: { type: 'amountChanged' }, target: 'confirming', actions: { type: 'noteNewAmount' } },
          { guard: { type: 'orderVanished' }, target: 'notFound', actions: 'forgetOrder' },
        ],
      },
    },
    checkingRefund: {
      always: [{ guard: 'refundDone', target: 'refunded' }, { guard: 'orderMissing', target: 'notFound' }, { target: 'alreadyRefunded' }],
    },
    refunded: { type: 'final' },
    alreadyRefunded: { type: 'final' },
    kept: { type: 'final' },
    notFound: { type: 'final' },
  },
};

// a declared flow like the demo's: a branch on an answer, a way back, a parallel round, a review
const bookMeeting = defineFlowTool({
  name: 'book_meeting',
  description: 'Books a meeting room',
  input: z.object({ topic: z.string() }),
  steps: {
    when: ask({
      message: 'When, and for how many?',
      fields: { date: field.text({ title: 'Date', format: 'date' }), attendees: field.integer({ title: 'Attendees', min: 1, max: 40 }) },
      next: [{ if: { 'when.attendees': { gt: 5 } }, goto: 'room' }, { goto: 'extras' }],
    }),
    room: ask({
      message: 'Which room?',
      fields: { room: field.select({ title: 'Room', options: { atlas: 'Atlas', orion: 'Orion' } }) },
      onDecline: 'back',
    }),
    extras: askAll({
      forms: {
        catering: form({ message: 'Catering?', fields: { food: field.boolean({ title: 'Food' }) } }),
        screen: form({
          message: 'A screen?',
          fields: { screen: field.boolean({ title: 'Screen' }) },
          if: { 'when.attendees': { gt: 10 } },
        }),
      },
    }),
    confirm: review({ message: 'Book "{{input.topic}}"?' }),
  },
  final: () => ({ text: 'booked' }),
});

describe('toMachineCode', () => {
  it('should write the config as a literal in setup().createMachine(), with the events as a union and every guard stubbed', () => {
    expect(toMachineCode(doorConfig, { name: 'front-door' })).toBe(
      text(
        "// Generated by @roundtrip/visualize from the machine of 'front-door': do not edit. Open it with Stately's code import.",
        "import { setup } from 'xstate';",
        '',
        "type FrontDoorEvent = { type: 'OPEN' } | { type: 'CLOSE' } | { type: 'LOCK' };",
        '',
        'export const frontDoorMachine = setup({',
        '  types: {',
        '    events: {} as FrontDoorEvent,',
        '  },',
        '  guards: {',
        '    // stubs: the server decides; here every guard is false',
        '    hasKey: () => false,',
        '  },',
        '}).createMachine({',
        "  id: 'door',",
        "  initial: 'closed',",
        '  states: {',
        "    closed: { on: { OPEN: 'opened' } },",
        "    opened: { on: { CLOSE: 'closed', LOCK: { target: 'locked', guard: 'hasKey' } } },",
        "    locked: { type: 'final' },",
        '  },',
        '});',
      ),
    );
  });

  it('should stub actions (naming their params) and actors, `xstate.*` names too, and quote as Biome does', () => {
    expect(toMachineCode(orderStatus, { name: 'order_status' })).toBe(
      text(
        "// Generated by @roundtrip/visualize from the machine of 'order_status': do not edit. Open it with Stately's code import.",
        "import { fromPromise, setup } from 'xstate';",
        '',
        "type OrderStatusEvent = { type: 'tone.*' };",
        '',
        'export const orderStatusMachine = setup({',
        '  types: {',
        '    events: {} as OrderStatusEvent,',
        '  },',
        '  actions: {',
        '    // stubs: the server runs the actions; here they do nothing',
        '    keepOrder: () => {}, // params: field',
        "    'xstate.log': () => {},",
        '    notify: () => {},',
        '  },',
        '  actors: {',
        '    // stubs: the server runs the actors; here they resolve to nothing',
        '    lookupOrder: fromPromise(async () => undefined),',
        '  },',
        '}).createMachine({',
        "  id: 'order_status',",
        "  version: '2',",
        "  initial: 'lookingUp',",
        '  states: {',
        '    lookingUp: {',
        '      invoke: {',
        "        id: 'lookup',",
        "        src: 'lookupOrder',",
        "        onDone: { target: 'reported', actions: { type: 'keepOrder', params: { field: 'order' } } },",
        "        onError: 'reported',",
        '      },',
        "      on: { 'tone.*': 'reported', '*': 'reported' },",
        '    },',
        '    reported: {',
        "      type: 'final',",
        "      entry: ['xstate.log', 'notify'],",
        '      meta: {',
        '        ask: [],',
        `        "it's": 'say "hi"',`,
        '        description:',
        `          '${'x'.repeat(120)}',`,
        '      },',
        '    },',
        '  },',
        "  after: { '1000': '.reported' },",
        '});',
      ),
    );
  });

  it('should name the export in camelCase, and list a wildcard event only when no event it stands for is listed', () => {
    expect(toMachineCode({ id: 'x' }, { name: 'book_meeting' })).toContain('export const bookMeetingMachine = setup({}).createMachine({');
    expect(toMachineCode({ id: 'x' }, { name: '9 lives' })).toContain('export const _9LivesMachine = setup(');
    const tone = toMachineCode({ on: { 'tone.*': '.a', 'tone.accept': '.a' }, states: { a: {} } }, { name: 'tone' });
    expect(tone).toContain("type ToneEvent = { type: 'tone.accept' };");
  });

  it('should quote a string with the quote that needs fewer escapes', () => {
    expect(quote('plain')).toBe("'plain'");
    expect(quote(`it's`)).toBe(`"it's"`);
    expect(quote(`it's "x"`)).toBe(`'it\\'s "x"'`);
    expect(quote('a\nb\\c\u0001')).toBe("'a\\nb\\\\c\\u0001'");
  });

  it('should give the same text for the same config', () => {
    expect(toMachineCode(refundOrder, { name: 'refund_order' })).toBe(
      toMachineCode(structuredClone(refundOrder), { name: 'refund_order' }),
    );
  });
});

describe('the generated code', () => {
  const cases = [
    { name: 'book_meeting', config: flowMachineConfig(bookMeeting) },
    { name: 'refund_order', config: refundOrder },
    { name: 'order_status', config: orderStatus },
  ];

  it('should be as Biome formats it', () => {
    // one run for all: the files one after the other format as each does alone
    // and shapes the formatter treats apart: nested lists, a list of objects, unicode keys, long text, numbers
    const shapes = {
      id: 'shapes',
      states: { größe: { on: { 'ä.b': '#shapes.größe' } } },
      meta: {
        n: [1, 2.5, -3, 1e21],
        pairs: [
          [1, 2],
          [3, 4],
        ],
        forms: [
          { a: 1, b: 2 },
          { c: 3, d: 4 },
        ],
        note: `it's ${'long '.repeat(30)}`,
      },
    };
    const code = [...cases, { name: 'shapes', config: shapes }].map(({ name, config }) => toMachineCode(config, { name })).join('\n');
    const formatted = spawnSync(biome(), ['format', '--stdin-file-path=generated.machine.ts'], {
      cwd: repo,
      input: code,
      encoding: 'utf8',
    });
    expect(formatted.stdout, formatted.stderr).toBe(code);
  });

  it('should typecheck with xstate (one program for every file) and load the same config', async () => {
    await mkdir(generated, { recursive: true });
    const files = await Promise.all(
      cases.map(async ({ name, config }) => {
        const path = `${generated}${name}.machine.ts`;
        await writeFile(path, toMachineCode(config, { name }));
        return path;
      }),
    );
    // a control: without a guard's stub the code must not typecheck, or the check proves nothing (the smallest
    // machine with a guard: a copy of a large one would be checked a second time for the same answer)
    const broken = `${generated}broken.machine.ts`;
    const door = toMachineCode(doorConfig, { name: 'front-door' });
    expect(door).toContain('    hasKey: () => false,\n');
    await writeFile(broken, door.replace('    hasKey: () => false,\n', ''));

    // no ambient types: the generated code needs xstate only (and loading @types/node doubles the time). The answer
    // is kept for the next run (kept-typecheck.ts): checked again only when a file, xstate's types or the options change
    const problems = await keptTypecheck(
      [...files, broken],
      `${repo}tsconfig.base.json`,
      { types: [], noEmit: true },
      `${generated}typecheck.json`,
    );
    expect(problems.filter((p) => p.file !== broken)).toEqual([]);
    // and it fails for the guard whose stub is gone
    expect(problems.filter((p) => p.file === broken).map((p) => p.message)).toEqual([
      expect.stringContaining("property 'guard' are incompatible"),
    ]);
    await rm(broken);

    for (const [i, { config: written }] of cases.entries()) {
      const module: Record<string, AnyStateMachine> = await import(files[i]!);
      const [machine] = Object.values(module);
      expect(JSON.stringify(machine!.config)).toBe(JSON.stringify(written));
      const [snapshot] = initialTransition(machine!);
      expect(snapshot.status).toBe('active');
    }
  });
});
