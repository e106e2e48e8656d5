// `pnpm demo`: a scripted conversation with the demo server over real stdio, for a person to read.
// It checks every result as it goes: exit 0 when everything behaved as expected, 1 (saying what
// differed) otherwise.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { type ConnectedClient, type DemoServerEnv, SERVER_LAUNCHER, connectDemoClient } from './connect-demo-client.ts';
import { type ToolRoundResult, printAnswer, printCall, printResult, printVerified, say, scene, textOf } from './demo-transcript.ts';
import { type OrdersStore, openOrdersStore } from './orders-store.ts';

class DemoMismatch extends Error {
  override readonly name = 'DemoMismatch';
}

/** Stops the demo when a result differs from what the script expects. */
function expectThat(ok: boolean, what: string, actual: unknown): asserts ok {
  if (!ok) throw new DemoMismatch(`${what}\n    got: ${typeof actual === 'string' ? actual : JSON.stringify(actual)}`);
}

const ROUND_TIMEOUT_MS = 20_000;
const TOOL = 'refund_order';

/** One tools/call round that hands input_required back instead of answering it. */
async function callRound(
  client: Client,
  args: Record<string, unknown>,
  retry?: { inputResponses: Record<string, unknown>; requestState: string },
  stateNote?: string,
): Promise<ToolRoundResult> {
  printCall(TOOL, args, retry, stateNote);
  const params = { name: TOOL, arguments: args, ...retry };
  const result = (await client.callTool(params, { allowInputRequired: true, timeout: ROUND_TIMEOUT_MS })) as ToolRoundResult;
  printResult(result);
  return result;
}

function expectQuestion(result: ToolRoundResult, message: string): string {
  expectThat(result.resultType === 'input_required', `expected the server to ask (input_required), not to finish`, result);
  const confirm = result.inputRequests?.confirm;
  expectThat(confirm?.method === 'elicitation/create' && confirm.params?.message === message, `expected the question "${message}"`, result.inputRequests);
  expectThat(typeof result.requestState === 'string' && result.requestState.startsWith('rt1.'), 'expected a sealed requestState (rt1.…)', result.requestState);
  return result.requestState;
}

function expectFinal(result: ToolRoundResult, expected: { text: string | RegExp; isError?: boolean; status: string }) {
  expectThat(result.resultType !== 'input_required', 'expected a final result, but the server asked again', result);
  const text = textOf(result);
  const textOk = typeof expected.text === 'string' ? text === expected.text : expected.text.test(text);
  expectThat(textOk, `expected the text ${String(typeof expected.text === 'string' ? JSON.stringify(expected.text) : expected.text)}`, text);
  expectThat(Boolean(result.isError) === Boolean(expected.isError), `expected isError to be ${Boolean(expected.isError)}`, result.isError);
  expectThat(result.structuredContent?.status === expected.status, `expected structuredContent.status "${expected.status}"`, result.structuredContent);
}

function expectRefunds(store: OrdersStore, orderId: string, count: number, note = '') {
  const actual = store.countRefunds(orderId);
  expectThat(actual === count, `expected ${count} refund row${count === 1 ? '' : 's'} for ${orderId} in the database`, actual);
  printVerified(`database: ${count} refund row${count === 1 ? '' : 's'} for ${orderId}${note}`);
}

/** Flips one character of the sealed part of a state, keeping it well-formed base64url. */
function tamper(state: string): { forged: string; at: number; from: string; to: string } {
  const at = state.length - 7;
  const from = state[at]!;
  const to = from === 'A' ? 'B' : 'A';
  return { forged: state.slice(0, at) + to + state.slice(at + 1), at, from, to };
}

async function run(env: DemoServerEnv, opened: ConnectedClient[]): Promise<void> {
  say('Roundtrip scripted demo: the refund_order tool over real stdio');
  const launcher = relative(process.cwd(), SERVER_LAUNCHER);
  say(`server:   node ${launcher.startsWith('..') ? SERVER_LAUNCHER : launcher} (a new process for each client)`, 1);
  say(`database: ${env.ROUNDTRIP_DB} (fresh; seeded with ord_51 $49.00, ord_52 $120.00, ord_53 already refunded)`, 1);
  say(`key:      a fresh 32-byte key in ROUNDTRIP_KEY; principal ${env.ROUNDTRIP_PRINCIPAL}`, 1);

  say();
  say('Client A speaks 2026-07-28 and handles every input_required round by hand.');
  const a = await connectDemoClient({ era: 'modern', env });
  opened.push(a);
  const aVersion = a.client.getNegotiatedProtocolVersion();
  expectThat(a.client.getProtocolEra() === 'modern' && aVersion === '2026-07-28', 'expected client A to speak 2026-07-28', aVersion);
  say(`connected: era ${a.client.getProtocolEra()}, protocol ${aVersion}, server ${a.client.getServerVersion()?.name} ${a.client.getServerVersion()?.version}`, 1);
  const store = openOrdersStore(env.ROUNDTRIP_DB);
  try {
    // 1
    scene(1, 'refund ord_51; the user confirms');
    const ask51 = await callRound(a.client, { order_id: 'ord_51' });
    const state51 = expectQuestion(ask51, 'Refund $49.00 for order ord_51?');
    expectRefunds(store, 'ord_51', 0, ' (nothing happens until the user answers)');
    const yes = { action: 'accept', content: { confirm: true } };
    printAnswer('confirm', yes);
    const done51 = await callRound(a.client, { order_id: 'ord_51' }, { inputResponses: { confirm: yes }, requestState: state51 });
    expectFinal(done51, { text: 'Refunded $49.00 for order ord_51.', status: 'refunded' });
    expectRefunds(store, 'ord_51', 1);

    // 2
    scene(2, 'refund ord_52; the user declines');
    const ask52 = await callRound(a.client, { order_id: 'ord_52' });
    const state52 = expectQuestion(ask52, 'Refund $120.00 for order ord_52?');
    const decline = { action: 'decline' };
    printAnswer('confirm', decline);
    const kept52 = await callRound(a.client, { order_id: 'ord_52' }, { inputResponses: { confirm: decline }, requestState: state52 });
    expectFinal(kept52, { text: 'Order ord_52 was not refunded.', status: 'kept' });
    expectRefunds(store, 'ord_52', 0);

    // 3
    scene(3, 'refund ord_53, which was refunded before');
    const done53 = await callRound(a.client, { order_id: 'ord_53' });
    expectFinal(done53, { text: /^Order ord_53 was already refunded on \d{4}-\d\d-\d\d\b/, status: 'already_refunded' });
    printVerified('answered at once, without asking; not an error');
    expectRefunds(store, 'ord_53', 1);

    // 4
    scene(4, 'refund ord_99, which does not exist');
    const done99 = await callRound(a.client, { order_id: 'ord_99' });
    expectFinal(done99, { text: /^No order with id 'ord_99'/, isError: true, status: 'not_found' });
    printVerified('a tool error (isError: true) the model can read and act on');

    // 5
    scene(5, 'a retry with a tampered requestState is refused');
    const askAgain = await callRound(a.client, { order_id: 'ord_52' });
    const genuine = expectQuestion(askAgain, 'Refund $120.00 for order ord_52?');
    const { forged, at, from, to } = tamper(genuine);
    say(`✎ someone flips character ${at} of the state ('${from}' → '${to}') and sends a confirmation with it`, 1);
    const logBefore = a.serverLog().length;
    let refusal: { code?: unknown; message?: unknown; data?: unknown } | undefined;
    try {
      await callRound(a.client, { order_id: 'ord_52' }, { inputResponses: { confirm: yes }, requestState: forged }, '(tampered)');
    } catch (error) {
      refusal = error as typeof refusal;
    }
    expectThat(refusal !== undefined, 'expected the tampered retry to be refused with a JSON-RPC error, but it was served', undefined);
    say(`← JSON-RPC error ${String(refusal.code)} "${String(refusal.message)}" data ${JSON.stringify(refusal.data)}`, 1);
    expectThat(refusal.code === -32602 && refusal.message === 'Invalid or expired requestState', 'expected error -32602 "Invalid or expired requestState"', refusal);
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the server's stderr line arrive
    const reason = a.serverLog().slice(logBefore).split('\n').find((line) => line.includes('requestState refused'));
    if (reason) say(`server log (stderr, never sent to the client): ${reason.trim()}`, 3);
    expectRefunds(store, 'ord_52', 0);

    // 6
    scene(6, 'refund ord_52 from a 2025-11-25 host; the user confirms');
    say('Client B speaks 2025-11-25 (no versionNegotiation) and starts its own server process on the same database.', 1);
    say("The SDK's legacy shim turns the tool's input_required into a real elicitation/create request.", 1);
    const received: Array<{ message: string; mode: unknown; requestedSchema: unknown }> = [];
    const b = await connectDemoClient({
      era: 'legacy',
      env,
      prepare: (client) =>
        client.setRequestHandler('elicitation/create', async (request) => {
          const params = request.params as { message: string; mode?: unknown; requestedSchema?: unknown };
          received.push({ message: params.message, mode: params.mode, requestedSchema: params.requestedSchema });
          say('⇠ server → client: elicitation/create', 1);
          say(`message "${params.message}"`, 3);
          say(`mode ${String(params.mode ?? '(none)')}; requestedSchema ${JSON.stringify(params.requestedSchema)}`, 3);
          const answer = { action: 'accept' as const, content: { confirm: true } };
          printAnswer('the form', answer);
          return answer;
        }),
    });
    opened.push(b);
    const bVersion = b.client.getNegotiatedProtocolVersion();
    expectThat(b.client.getProtocolEra() === 'legacy' && bVersion === '2025-11-25', 'expected client B to speak 2025-11-25', bVersion);
    say(`connected: era ${b.client.getProtocolEra()}, protocol ${bVersion}`, 1);
    say(`→ tools/call ${TOOL} {"order_id":"ord_52"}  (one request; it stays open while the user answers)`, 1);
    const legacyResult = (await b.client.callTool({ name: TOOL, arguments: { order_id: 'ord_52' } }, { timeout: ROUND_TIMEOUT_MS })) as ToolRoundResult;
    printResult(legacyResult);
    expectThat(received.length === 1 && received[0]?.message === 'Refund $120.00 for order ord_52?', 'expected exactly one elicitation/create asking "Refund $120.00 for order ord_52?"', received);
    expectFinal(legacyResult, { text: 'Refunded $120.00 for order ord_52.', status: 'refunded' });
    expectRefunds(store, 'ord_52', 1);
  } finally {
    store.close();
  }

  say();
  say('All six scenes behaved as expected.');
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'roundtrip-demo-'));
  const env: DemoServerEnv = {
    ROUNDTRIP_DB: join(dir, 'orders.db'),
    ROUNDTRIP_KEY: randomBytes(32).toString('base64url'),
    ROUNDTRIP_PRINCIPAL: 'ada',
  };
  const opened: ConnectedClient[] = [];
  let status = 0;
  try {
    await run(env, opened);
  } catch (error) {
    status = 1;
    const problem = error instanceof DemoMismatch ? error.message : ((error as Error).stack ?? String(error));
    process.stderr.write(`\nDEMO FAILED: ${problem}\n`);
    for (const [i, c] of opened.entries()) {
      const log = c.serverLog().trim();
      if (log) process.stderr.write(`\nserver log of client ${'AB'[i] ?? i}:\n${log.replace(/^/gm, '  ')}\n`);
    }
  } finally {
    await Promise.allSettled(opened.map((c) => c.close()));
    rmSync(dir, { recursive: true, force: true });
  }
  return status;
}

process.exitCode = await main();
// a child that will not go away must not keep the demo from exiting
setTimeout(() => process.exit(), 3000).unref();
