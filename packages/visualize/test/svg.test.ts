// toSvg, read back as XML: well formed, every state and transition written, the markings there, every
// coordinate inside the viewBox, every text escaped, the same bytes for the same config.
import type { Condition } from '@roundtrip/tools';
import { describeCondition } from '@roundtrip/tools/internal';
import { describe, expect, it } from 'vitest';
import { toSvg } from '../src/svg.ts';

// ---- machines, shaped as the demo's configs are (actions left out: the drawing does not show them) ----

const step = (name: string) => ({ type: 'endFlow', params: { step: name } });
const leave = (form: string) => ({
  [`${form}.decline`]: [{ target: 'ended', actions: [step(form)] }],
  [`${form}.cancel`]: [{ target: 'ended', actions: [step(form)] }],
});

/** book_meeting as its flow compiles: a `when` guard with a condition, a review that can go back. */
const book = {
  id: 'book_meeting',
  initial: 'when',
  states: {
    when: {
      meta: { ask: ['when'] },
      always: [
        { guard: { type: 'keptAnswerFails', params: { forms: ['when'] } } },
        { target: 'room', guard: { type: 'answeredBefore', params: { step: 'when', condition: { 'when.attendees': { gt: 5 } } } } },
        { target: 'confirm', guard: { type: 'answeredBefore', params: { step: 'when' } } },
      ],
      on: {
        'when.accept': [
          { guard: { type: 'answerFails', params: { form: 'when' } } },
          { target: 'room', guard: { type: 'when', params: { condition: { 'when.attendees': { gt: 5 } } } } },
          { target: 'confirm' },
        ],
        ...leave('when'),
      },
    },
    room: {
      meta: { ask: ['room'] },
      on: {
        'room.accept': [{ target: 'confirm' }],
        'room.decline': [{ target: 'when', guard: { type: 'cameFrom', params: { step: 'when' } } }, { target: 'ended' }],
        'room.cancel': [{ target: 'ended' }],
      },
    },
    confirm: {
      meta: { ask: ['confirm'] },
      on: {
        'confirm.accept': [
          { target: 'finishing', guard: { type: 'reviewChoice', params: { option: 'confirm' } } },
          { target: 'ended', guard: { type: 'reviewChoice', params: { option: 'abandon' } } },
          { target: 'when', guard: { type: 'changeStep', params: { step: 'when' } } },
          { target: 'room', guard: { type: 'changeStep', params: { step: 'room' } } },
          { actions: [{ type: 'rememberProblem' }] },
        ],
        ...leave('confirm'),
      },
    },
    finishing: {
      on: { 'xstate.done.actor.finish': { target: 'done' }, 'xstate.error.actor.finish': [{ actions: [{ type: 'failFinal' }] }] },
    },
    done: { type: 'final' },
    ended: { type: 'final' },
  },
};

/** report_incident's shape: a parallel state whose regions leave by `#id` targets, `onDone` when both end. */
const region = (form: string, condition?: Record<string, unknown>) => ({
  initial: 'deciding',
  states: {
    deciding: {
      always: [
        { target: 'answered', guard: { type: 'formAnsweredBefore', params: { form } } },
        condition ? { target: 'asking', guard: { type: 'when', params: { condition } } } : { target: 'asking' },
        ...(condition ? [{ target: 'skipped' }] : []),
      ],
    },
    asking: {
      meta: { ask: [form] },
      on: {
        [`${form}.accept`]: [{ target: 'answered' }],
        [`${form}.decline`]: [{ target: '#report_incident.ended' }],
        [`${form}.cancel`]: [{ target: '#report_incident.ended' }],
      },
    },
    answered: { type: 'final' },
    skipped: { type: 'final' },
  },
});
const report = {
  id: 'report_incident',
  initial: 'severity',
  states: {
    severity: { meta: { ask: ['severity'] }, on: { 'severity.accept': [{ target: 'report' }], ...leave('severity') } },
    report: {
      type: 'parallel',
      states: { details: region('details'), oncall: region('oncall', { 'severity.level': { eq: 'high' } }) },
      onDone: [{ target: 'finishing' }],
    },
    finishing: { on: { 'xstate.done.actor.finish': { target: 'done' } } },
    done: { type: 'final' },
    ended: { type: 'final' },
  },
};

/** refund_order's shape: invoked actors, named guards as strings, eventless checks, a `.child` target. */
const refund = {
  id: 'refund_order',
  initial: 'lookingUp',
  states: {
    lookingUp: { invoke: { id: 'lookup', src: 'lookupOrder', onDone: { target: 'checkingOrder' } } },
    checkingOrder: { always: [{ guard: 'orderMissing', target: 'notFound' }, { target: 'confirming' }] },
    confirming: {
      meta: { ask: ['confirm'] },
      on: { 'confirm.accept': [{ guard: 'confirmed', target: 'refunding' }, { target: 'kept' }], 'confirm.decline': 'kept' },
    },
    refunding: {
      initial: 'waiting',
      states: { waiting: { on: { retry: 'retrying' } }, retrying: {} },
      on: { slow: '.retrying' },
      invoke: {
        id: 'refund',
        src: 'refundOrder',
        onDone: 'refunded',
        onError: [{ guard: { type: 'amountChanged' }, target: 'confirming' }],
      },
    },
    refunded: { type: 'final' },
    kept: { type: 'final' },
    notFound: { type: 'final' },
  },
};

// ---- reading the SVG back ----

const ENTITY = /&(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const decode = (text: string) =>
  text.replace(ENTITY, (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&apos;': "'" })[e] ?? e);

/** Throws unless `xml` is one element, tags balanced, attributes quoted, every `&` an entity. */
function checkWellFormed(xml: string): void {
  const token = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  const stack: string[] = [];
  let at = 0;
  let roots = 0;
  for (const match of xml.matchAll(token)) {
    const [whole, closing, name = '', attributes = '', selfClosing, text, stray] = match;
    if (match.index !== at || stray) throw new Error(`not XML at ${at}: ${xml.slice(at, at + 40)}`);
    at += whole.length;
    const raw = text ?? attributes;
    if (raw.replace(ENTITY, '').includes('&')) throw new Error(`a bare & in ${raw.slice(0, 60)}`);
    if (text !== undefined) {
      if (stack.length === 0 && text.trim() !== '') throw new Error(`text outside the root: ${text}`);
      continue;
    }
    if (closing) {
      if (stack.pop() !== name) throw new Error(`</${name}> closes nothing open`);
    } else {
      if (stack.length === 0) roots++;
      if (!selfClosing) stack.push(name);
    }
  }
  if (at !== xml.length || stack.length > 0 || roots !== 1) throw new Error(`unbalanced: open ${stack.join(', ')}, ${roots} roots`);
}

/** The decoded text of every `<text>` element. */
const textsOf = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => decode(m[1]!));

const attribute = (tag: string, name: string) => {
  const value = new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  return value === undefined ? undefined : Number(value);
};

/** Every coordinate an element draws at, against the viewBox; every path's points too. */
function outside(svg: string): string[] {
  const [, , width = 0, height = 0] = (/viewBox="([^"]+)"/.exec(svg)?.[1] ?? '').split(' ').map(Number);
  const problems: string[] = [];
  const check = (what: string, x: number | undefined, y: number | undefined) => {
    if ((x !== undefined && !(x >= 0 && x <= width)) || (y !== undefined && !(y >= 0 && y <= height))) problems.push(`${what}: ${x}, ${y}`);
  };
  for (const [tag] of svg.matchAll(/<(?:rect|text|circle)\s[^>]*>/g)) {
    const x = attribute(tag, 'x') ?? attribute(tag, 'cx');
    const y = attribute(tag, 'y') ?? attribute(tag, 'cy');
    check(tag, x, y);
    check(
      tag,
      x === undefined ? undefined : x + (attribute(tag, 'width') ?? 0),
      y === undefined ? undefined : y + (attribute(tag, 'height') ?? 0),
    );
  }
  for (const [, d = ''] of svg.matchAll(/<path class="edge[^"]*" d="([^"]*)"/g)) {
    const numbers = d.match(/-?[\d.]+/g)?.map(Number) ?? [];
    for (let i = 0; i < numbers.length; i += 2) check(`path ${d}`, numbers[i], numbers[i + 1]);
  }
  return problems;
}

// the words of the configs' conditions, by JSON text, as a declared flow's presentation gives them
const conditions = Object.fromEntries(
  ([{ 'when.attendees': { gt: 5 } }, { 'severity.level': { eq: 'high' } }] satisfies Condition[]).map((c) => [
    JSON.stringify(c),
    describeCondition(c),
  ]),
);
const draw = (config: Record<string, unknown>, questions?: Record<string, string>) => toSvg(config, { questions, conditions });
// the three demo machines are laid out once each and every case below reads the same drawing (a layout is the
// costly part); 'gives the same bytes for the same config' draws one anew
const drawings = new Map<Record<string, unknown>, Promise<string>>();
function drawn(config: Record<string, unknown>): Promise<string> {
  const known = drawings.get(config);
  if (known !== undefined) return known;
  const svg = draw(config);
  drawings.set(config, svg);
  return svg;
}

describe('toSvg', () => {
  it.each([
    ['book_meeting', book],
    ['report_incident', report],
    ['refund_order', refund],
  ])('draws %s as a well-formed SVG with its size set and everything inside its viewBox', async (_, config) => {
    const svg = await drawn(config);
    expect(() => checkWellFormed(svg)).not.toThrow();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="[\d.]+" height="[\d.]+" viewBox="0 0 [\d.]+ [\d.]+"/);
    // an inspector finds the machine, and each state by its full id, to highlight where a run is
    expect(svg).toContain(` data-machine="${config.id}" `);
    expect(svg).not.toMatch(/NaN|undefined|Infinity/);
    expect(outside(svg)).toEqual([]);
    // nothing to fetch: no scripts, no links, no fonts from elsewhere
    expect(svg).not.toMatch(/<script|href=|@import|url\((?!#)/);
  });

  it('writes every state name, every question key and every transition label', async () => {
    const texts = textsOf(await drawn(book));
    for (const name of ['book_meeting', 'when', 'room', 'confirm', 'finishing', 'done', 'ended']) expect(texts).toContain(name);
    for (const key of ['when', 'room', 'confirm']) expect(texts).toContain(`? ${key}`);
    const labels = [
      'when.accept [when.attendees > 5]',
      'always [answeredBefore(when): when.attendees > 5]',
      'when.accept',
      'always [answeredBefore(when)]',
      'when.decline',
      'when.cancel',
      'room.accept',
      'room.decline [cameFrom(when)]',
      'room.decline',
      'room.cancel',
      'confirm.accept [reviewChoice(confirm)]',
      'confirm.accept [reviewChoice(abandon)]',
      'confirm.accept [changeStep(when)]',
      'confirm.accept [changeStep(room)]',
      'confirm.decline',
      'confirm.cancel',
      'done: finish',
    ];
    for (const label of labels) expect(texts).toContain(label);
    // transitions that keep the state are listed in its box
    for (const stays of ['↺ when.accept [answerFails(when)]', '↺ always [keptAnswerFails(when)]', '↺ confirm.accept', '↺ error: finish']) {
      expect(texts).toContain(stays);
    }
  });

  it('draws one arrow per source and target, each ending on a state box, and one initial dot per compound state', async () => {
    const svg = await drawn(book);
    // when→room, when→confirm, when→ended, room→confirm, room→when, room→ended, confirm→finishing, confirm→ended,
    // confirm→when, confirm→room, finishing→done; plus the initial arrow
    expect(svg.match(/<path class="edge"/g)).toHaveLength(11);
    expect(svg.match(/<path class="edge initial"/g)).toHaveLength(1);
    expect(svg.match(/<circle class="initial"/g)).toHaveLength(1);
    const boxes = [...svg.matchAll(/<g class="state atomic[^"]*|<g class="state final[^"]*/g)].map((m) => {
      const rect = svg.slice(m.index).match(/<rect[^>]*>/)![0];
      return { x: attribute(rect, 'x')!, y: attribute(rect, 'y')!, w: attribute(rect, 'width')!, h: attribute(rect, 'height')! };
    });
    for (const [, d = ''] of svg.matchAll(/<path class="edge[^"]*" d="([^"]*)"/g)) {
      const [x = 0, y = 0] = d
        .match(/-?[\d.]+/g)!
        .slice(-2)
        .map(Number);
      const onBorder = boxes.some((b) => x >= b.x - 1 && x <= b.x + b.w + 1 && (Math.abs(y - b.y) <= 1 || Math.abs(y - b.y - b.h) <= 1));
      expect(onBorder, `edge ${d} ends on no box`).toBe(true);
    }
  });

  it('marks final states with a double border, parallel states and their dashed regions, and every initial state', async () => {
    const svg = await drawn(report);
    const finals = [...svg.matchAll(/<g class="state final" data-state="([^"]+)">(.*?)<\/g>/g)];
    expect(finals.map((m) => m[1]).sort()).toEqual(
      [
        'report_incident.done',
        'report_incident.ended',
        'report_incident.report.details.answered',
        'report_incident.report.details.skipped',
        'report_incident.report.oncall.answered',
        'report_incident.report.oncall.skipped',
      ].sort(),
    );
    for (const final of finals) expect(final[2]!.match(/<rect/g)).toHaveLength(2);
    expect(svg).toMatch(
      /<g class="state parallel" data-state="report_incident\.report"><rect[^>]*\/><text[^>]*>report \(parallel\)<\/text>/,
    );
    for (const name of ['details', 'oncall']) {
      expect(svg).toMatch(
        new RegExp(`<g class="state compound region" data-state="report_incident\\.report\\.${name}"><rect [^>]*stroke-dasharray`),
      );
    }
    // the machine, and each region, starts at a dot
    expect(svg.match(/<circle class="initial"/g)).toHaveLength(3);
    const texts = textsOf(svg);
    for (const label of [
      'onDone',
      'oncall.decline',
      'details.cancel',
      'always [severity.level = high]',
      'always [formAnsweredBefore(oncall)]',
    ]) {
      expect(texts).toContain(label);
    }
  });

  it('resolves sibling, `.child` and `#id` targets and labels invoked actors by id', async () => {
    const texts = textsOf(await drawn(refund));
    for (const label of [
      'done: lookup',
      'always [orderMissing]',
      'confirm.accept [confirmed]',
      'done: refund',
      'error: refund [amountChanged]',
    ]) {
      expect(texts).toContain(label);
    }
    for (const label of ['slow', 'retry']) expect(texts).toContain(label);
    expect(texts).toContain('invoke refundOrder');
    expect(texts).toContain('confirm.decline');
  });

  it('shows the questions a state asks, messages shortened, every text escaped', async () => {
    const tricky = {
      id: 'm<&>',
      initial: 'a<b>&"c',
      states: { 'a<b>&"c': { meta: { ask: ['q&a'] }, on: { 'go<now>': { target: 'end', guard: 'isOk&"fine"' } } }, end: { type: 'final' } },
    };
    const message = `Pick <b>one</b> & say "why" ${'and more '.repeat(20)}`;
    const svg = await draw(tricky, { 'q&a': message });
    expect(() => checkWellFormed(svg)).not.toThrow();
    expect(svg).not.toContain('<b>');
    expect(svg).toContain('Pick &lt;b&gt;one&lt;/b&gt; &amp; say &quot;why&quot;');
    const texts = textsOf(svg);
    for (const text of ['m<&>', 'a<b>&"c', '? q&a', 'go<now> [isOk&"fine"]']) expect(texts).toContain(text);
    // the message is cut: two lines at most, the last ending in an ellipsis
    const shown = texts.filter((t) => t.startsWith('“') || t.includes('and more'));
    expect(shown).toHaveLength(2);
    expect(shown[1]).toMatch(/…$/);
  });

  it('sizes boxes to their text', async () => {
    const svg = await draw({
      id: 'm',
      initial: 'a',
      states: { a: { on: { go: 'aVeryLongStateNameThatNeedsAWideBox' } }, aVeryLongStateNameThatNeedsAWideBox: {} },
    });
    const group = /<g class="state atomic" data-state="m\.aVeryLongStateNameThatNeedsAWideBox"><rect[^>]*>/.exec(svg)![0];
    // 35 characters of 14px monospace, bold, are about 300px wide
    expect(attribute(group, 'width')).toBeGreaterThan(0.61 * 14 * 35);
  });

  it('gives the same bytes for the same config', async () => {
    const first = await drawn(report);
    expect(await draw(report)).toBe(first);
    // coordinates have one decimal at most
    expect(first).not.toMatch(/ (?:x|y|cx|cy|r|width|height)="-?\d+\.\d{2,}"/);
    for (const [, d = ''] of first.matchAll(/ d="([^"]*)"/g)) expect(d).not.toMatch(/\.\d{2,}/);
  });

  it('draws a machine without states, and throws for a target that names no state', async () => {
    const svg = await draw({ id: 'lonely' });
    expect(textsOf(svg)).toEqual(['lonely']);
    await expect(draw({ id: 'm', initial: 'a', states: { a: { on: { go: 'nowhere' } } } })).rejects.toThrow(
      "State 'm.a' has a transition (go) to 'nowhere', which is no state of machine 'm'.",
    );
  });
});
