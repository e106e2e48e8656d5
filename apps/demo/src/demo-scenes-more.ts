// Scenes 6–9 of the scripted demo: a 2025-era host, an amount that changes under the question, the
// refund_email prompt and the customer statement resource.
import { connectDemoClient } from './connect-demo-client.ts';
import { formatStatement } from './customer-statement-resource.ts';
import { expectFinal, expectQuestion, expectRefunds, expectThat } from './demo-checks.ts';
import { round, tool } from './demo-rounds.ts';
import type { DemoStage } from './demo-stage.ts';
import { printAnswer, printResult, printVerified, type RoundResult, say, scene } from './demo-transcript.ts';
import { refundEmailInstructions } from './refund-email-prompt.ts';

/** Scene 6: the same tool for a 2025-11-25 host, through a real elicitation/create request. */
export async function legacyHostRefund({ env, store, opened }: DemoStage) {
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
  say('→ tools/call refund_order {"order_id":"ord_52"}  (one request; it stays open while the user answers)', 1);
  const legacyResult = (await b.client.callTool(
    { name: 'refund_order', arguments: { order_id: 'ord_52' } },
    { timeout: 20_000 },
  )) as RoundResult;
  printResult(legacyResult);
  expectThat(
    received.length === 1 && received[0]?.message === 'Refund $120.00 for order ord_52?',
    'expected exactly one elicitation/create asking "Refund $120.00 for order ord_52?"',
    received,
  );
  expectFinal(legacyResult, { text: 'Refunded $120.00 for order ord_52.', status: 'refunded' });
  await expectRefunds(store, 'ord_52', 1, { amountCents: 12000 });
}

/** Scene 7: the amount changes between the question and the answer; the user is asked again. */
export async function amountChangesUnderTheQuestion({ a, store }: DemoStage) {
  scene(7, "refund ord_54; its amount changes before the user's answer arrives");
  const refund54 = tool('refund_order', { order_id: 'ord_54' });
  const first = expectQuestion(await round(a.client, refund54), 'confirm', 'Refund $30.00 for order ord_54?');
  say("✎ meanwhile the shop corrects the order's amount to $35.00 (store.setOrderAmount('ord_54', 3500))", 1);
  await store.setOrderAmount('ord_54', 3500);
  const yes = { action: 'accept', content: { confirm: true } };
  printAnswer('confirm', yes);
  const again = await round(a.client, refund54, { inputResponses: { confirm: yes }, requestState: first });
  const second = expectQuestion(
    again,
    'confirm',
    'The amount of order ord_54 changed to $35.00 since you were asked. Refund $35.00 for order ord_54?',
  );
  printVerified('the engine read the amount again before refunding, found it changed, and the tool asked again');
  await expectRefunds(store, 'ord_54', 0);
  printAnswer('confirm', yes);
  expectFinal(await round(a.client, refund54, { inputResponses: { confirm: yes }, requestState: second }), {
    text: 'Refunded $35.00 for order ord_54.',
    status: 'refunded',
  });
  await expectRefunds(store, 'ord_54', 1, { amountCents: 3500, note: ': the amount the user confirmed' });
}

/** Scene 8: the refund_email prompt over prompts/get, asking the tone and whether to mention the amount. */
export async function refundEmailPrompt({ a, store }: DemoStage) {
  scene(8, 'the refund_email prompt for ord_51, over prompts/get');
  const target = { method: 'prompts/get' as const, name: 'refund_email', args: { order_id: 'ord_51' } };
  const state = expectQuestion(await round(a.client, target), 'style', 'How should the refund email to ada about order ord_51 read?');
  const answer = { action: 'accept', content: { tone: 'friendly', mention_amount: true } };
  printAnswer('style', answer);
  const result = await round(a.client, target, { inputResponses: { style: answer }, requestState: state });
  const expected = refundEmailInstructions((await store.findOrder('ord_51'))!, 'friendly', true);
  const message = result.messages?.[0];
  expectThat(
    result.messages?.length === 1 && message?.role === 'user' && message.content.text === expected,
    `expected one user message: "${expected}"`,
    result.messages,
  );
  printVerified('the messages a host hands to the model: the tone and the amount as the user chose');
}

/** Scene 9: the customer statement resource over resources/read, asking which month. */
export async function statementResource({ a, store }: DemoStage) {
  scene(9, "ada's statement, over resources/read of statement://customers/ada");
  const target = { method: 'resources/read' as const, name: 'statement://customers/ada' };
  const months = (await store.activeMonths('ada')).join(', ');
  const state = expectQuestion(
    await round(a.client, target),
    'month',
    `Which month of ada's statement? Months with orders or refunds: ${months}.`,
  );
  const answer = { action: 'accept', content: { month: '2026-05' } };
  printAnswer('month', answer);
  const result = await round(a.client, target, { inputResponses: { month: answer }, requestState: state });
  const expected = formatStatement(await store.monthActivity('ada', '2026-05'));
  const content = result.contents?.[0];
  expectThat(
    result.contents?.length === 1 && content?.uri === target.name && content.mimeType === 'text/plain' && content.text === expected,
    `expected the statement text:\n${expected}`,
    result.contents,
  );
  expectThat(
    expected.includes('Net:               $169.00'),
    'expected May 2026 to net $169.00 ($244.50 ordered, $75.50 refunded)',
    expected,
  );
  printVerified('three orders and one refund in May 2026, as seeded');
}
