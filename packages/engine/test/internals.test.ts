import { describe, expect, it } from 'vitest';
import { assign, StateMachine, setup } from 'xstate';
import { z } from 'zod';
import { encodeBase64url } from '../src/base64url.ts';
import {
  type AnswerEvents,
  type AskMeta,
  createEngine,
  createKeyring,
  definePrompt,
  defineQuestions,
  defineResource,
  defineTool,
  generateKey,
  parseKey,
} from '../src/index.ts';
import { openState, sealState } from '../src/internal.ts';

// markers that live only inside the machine and the answer schema, never in anything public
const MACHINE_ID = 'machine_marker_5f1e';
const SCHEMA_MARKER = 'schema_marker_9c2a';

const questions = defineQuestions<{ ok: boolean | null }>()({
  confirm: { message: 'Go on?', schema: z.object({ ok: z.boolean().describe(SCHEMA_MARKER) }) },
});
const machine = setup({
  types: {
    context: {} as { ok: boolean | null },
    events: {} as AnswerEvents<typeof questions>,
    meta: {} as AskMeta<typeof questions>,
    output: {} as { ok: boolean | null },
  },
}).createMachine({
  id: MACHINE_ID,
  context: { ok: null },
  initial: 'asking',
  states: {
    asking: {
      meta: { ask: ['confirm'] },
      on: { 'confirm.accept': { target: 'done', actions: assign({ ok: ({ event }) => event.content.ok }) }, 'confirm.*': 'done' },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => context,
});

const keyText = generateKey();
const oldKeyText = generateKey();
const keyring = createKeyring([keyText, parseKey(oldKeyText)]);
const tool = defineTool({
  name: 'go_on',
  description: 'd',
  input: z.object({}),
  questions,
  machine,
  annotations: { readOnlyHint: true },
  result: (o) => ({ text: String(o.ok) }),
});
const prompt = definePrompt({
  name: 'go_on',
  description: 'd',
  arguments: z.object({ topic: z.string() }),
  questions,
  machine,
  messages: (o) => [{ role: 'user', text: String(o.ok) }],
});
const resource = defineResource({ uri: 'go://on', name: 'go_on', description: 'd', questions, machine, contents: (o) => String(o.ok) });
const engine = createEngine({ tools: [tool], prompts: [prompt], resources: [resource], keyring, audience: 'internals' });

/** Every value reachable from `root` through own properties (string and symbol keys, getters read) and Map and Set entries. */
function reachable(root: unknown): unknown[] {
  const seen = new Set<unknown>();
  const queue: unknown[] = [root];
  while (queue.length > 0) {
    const value = queue.shift();
    if (seen.has(value)) continue;
    seen.add(value);
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null) continue;
    if (value instanceof Map || value instanceof Set) queue.push(...[...value.entries()].flat());
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
      queue.push(key, 'value' in descriptor ? descriptor.value : descriptor.get?.call(value));
    }
  }
  return [...seen];
}

const publicObjects = { keyring, tool, prompt, resource, engine, questions };
const keyBytes = [parseKey(keyText), parseKey(oldKeyText)];

describe('what public objects expose', () => {
  it.each(Object.entries(publicObjects))('exposes no key bytes, no compiled machine and no zod schema through the %s', (_, root) => {
    const values = reachable(root);
    expect(values.length).toBeGreaterThan(1);
    for (const value of values) {
      expect(ArrayBuffer.isView(value) || value instanceof ArrayBuffer, 'a byte buffer is reachable').toBe(false);
      expect(value instanceof StateMachine, 'a machine is reachable').toBe(false);
      expect(value instanceof z.ZodType, 'a zod schema is reachable').toBe(false);
      if (typeof value === 'string') {
        for (const secret of [keyText, oldKeyText, ...keyBytes.map(encodeBase64url), MACHINE_ID, SCHEMA_MARKER])
          expect(value).not.toContain(secret);
      }
    }
    const json = JSON.stringify(root) ?? '';
    for (const secret of [keyText, oldKeyText, MACHINE_ID, SCHEMA_MARKER, '_zod', '"states"']) expect(json).not.toContain(secret);
    for (const bytes of keyBytes) expect(json).not.toContain(JSON.stringify(Object.fromEntries(bytes.entries())).slice(1, 40));
  });

  it('shows a keyring as its key ids only', () => {
    expect(JSON.parse(JSON.stringify(keyring))).toEqual({ sealingKid: keyring.kids[0], kids: [...keyring.kids] });
    expect(keyring.kids).toHaveLength(2);
  });

  it('freezes the keyring and the definitions', () => {
    for (const value of [keyring, keyring.kids, tool, tool.annotations, prompt, prompt.arguments, resource, questions, questions.keys]) {
      expect(Object.isFrozen(value), JSON.stringify(value)).toBe(true);
    }
    expect(() => {
      (tool as { name: string }).name = 'other';
    }).toThrow(TypeError);
    expect(() => {
      (keyring as { sealingKid: string }).sealingKid = 'forged';
    }).toThrow(TypeError);
    expect(tool.name).toBe('go_on');
  });

  it('serves only definitions made by the define functions: a copy is refused', () => {
    expect(() => createEngine({ tools: [{ ...tool }], keyring, audience: 'x' })).toThrow(/Not a Roundtrip definition/);
  });
});

describe('nonces', () => {
  const payload = new TextEncoder().encode('{"v":"asking","c":{"ok":null}}');
  const nonceOf = (token: string) => encodeBase64url(Buffer.from(token.split('.')[2]!, 'base64url').subarray(0, 24));

  it('seals the same payload twice into two different states, both of which open', () => {
    const a = sealState(keyring, payload);
    const b = sealState(keyring, payload);
    expect(a).not.toBe(b);
    expect(nonceOf(a)).not.toBe(nonceOf(b));
    expect(openState(keyring, a)).toEqual(openState(keyring, b));
  });

  it('draws a fresh nonce for every one of 1000 seals', () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => nonceOf(sealState(keyring, payload))));
    expect(nonces.size).toBe(1000);
  });
});
