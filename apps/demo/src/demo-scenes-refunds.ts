// Scenes 1–5 of the scripted demo: refund_order over 2026-07-28, handled round by round by client A.
import { DemoMismatch, expectFinal, expectQuestion, expectRefunds, expectThat, tamper } from './demo-checks.ts';
import { round, tool } from './demo-rounds.ts';
import type { DemoStage } from './demo-stage.ts';
import { printAnswer, printResult, printVerified, type RoundResult, say, scene, textOf } from './demo-transcript.ts';

const yes = { action: 'accept', content: { confirm: true } };

/** Scene 1: the user confirms once; the same confirmation arrives again, then five times at once. */
export async function confirmedRefundSentSevenTimes({ a, store }: DemoStage) {
  scene(1, 'refund ord_51; the user confirms, and the confirmation arrives seven times');
  const refund51 = tool('refund_order', { order_id: 'ord_51' });
  const state = expectQuestion(await round(a.client, refund51), 'confirm', 'Refund $49.00 for order ord_51?');
  await expectRefunds(store, 'ord_51', 0, { note: ' (nothing happens until the user answers)' });
  printAnswer('confirm', yes);
  const retry = { inputResponses: { confirm: yes }, requestState: state };
  const once = await round(a.client, refund51, retry);
  expectFinal(once, { text: 'Refunded $49.00 for order ord_51.', status: 'refunded' });
  await expectRefunds(store, 'ord_51', 1, { amountCents: 4900 });

  say('✎ the client is unsure the answer arrived and sends the same retry again', 1);
  const again = await round(a.client, refund51, retry);
  say('✎ … and then five times at once', 1);
  const five = await Promise.all(Array.from({ length: 5 }, () => round(a.client, refund51, retry, { quiet: true })));
  for (const result of five) printResult(result, { brief: true });
  const all: RoundResult[] = [once, again, ...five];
  const same = (r: RoundResult) =>
    textOf(r) === textOf(once) && JSON.stringify(r.structuredContent) === JSON.stringify(once.structuredContent);
  expectThat(all.every(same), 'expected all seven answers to be the same "Refunded $49.00 for order ord_51." result', all.map(textOf));
  printVerified('seven identical results: the effect ledger replays the recorded refund instead of refunding again');
  await expectRefunds(store, 'ord_51', 1, { amountCents: 4900 });
}

/** Scenes 2–4: decline, already refunded, unknown order. */
export async function declinedKnownAndUnknown({ a, store }: DemoStage) {
  scene(2, 'refund ord_52; the user declines');
  const refund52 = tool('refund_order', { order_id: 'ord_52' });
  const state52 = expectQuestion(await round(a.client, refund52), 'confirm', 'Refund $120.00 for order ord_52?');
  const decline = { action: 'decline' };
  printAnswer('confirm', decline);
  expectFinal(await round(a.client, refund52, { inputResponses: { confirm: decline }, requestState: state52 }), {
    text: 'Order ord_52 was not refunded.',
    status: 'kept',
  });
  await expectRefunds(store, 'ord_52', 0);

  scene(3, 'refund ord_53, which was refunded before');
  const done53 = await round(a.client, tool('refund_order', { order_id: 'ord_53' }));
  expectFinal(done53, { text: 'Order ord_53 was already refunded on 2026-05-04; nothing more was done.', status: 'already_refunded' });
  printVerified('answered at once, without asking; not an error');
  await expectRefunds(store, 'ord_53', 1);

  scene(4, 'refund ord_99, which does not exist');
  expectFinal(await round(a.client, tool('refund_order', { order_id: 'ord_99' })), {
    text: /^No order with id 'ord_99'/,
    isError: true,
    status: 'not_found',
  });
  printVerified('a tool error (isError: true) the model can read and act on');
}

/** Scene 5: a forged state is refused with the one frozen error; the reason goes to the server's log. */
export async function tamperedStateRefused({ a, store }: DemoStage) {
  scene(5, 'a retry with a tampered requestState is refused');
  const refund52 = tool('refund_order', { order_id: 'ord_52' });
  const genuine = expectQuestion(await round(a.client, refund52), 'confirm', 'Refund $120.00 for order ord_52?');
  const { forged, at, from, to } = tamper(genuine);
  say(`✎ someone flips character ${at} of the state ('${from}' → '${to}') and sends a confirmation with it`, 1);
  const logFrom = a.serverLog().length;
  let refusal: { code?: unknown; message?: unknown; data?: unknown } | undefined;
  try {
    await round(a.client, refund52, { inputResponses: { confirm: yes }, requestState: forged }, { stateNote: '(tampered)' });
  } catch (error) {
    refusal = error as typeof refusal;
  }
  expectThat(refusal !== undefined, 'expected the tampered retry to be refused with a JSON-RPC error, but it was served', undefined);
  say(`← JSON-RPC error ${String(refusal.code)} "${String(refusal.message)}" data ${JSON.stringify(refusal.data)}`, 1);
  expectThat(
    refusal.code === -32602 && refusal.message === 'Invalid or expired requestState',
    'expected error -32602 "Invalid or expired requestState"',
    refusal,
  );
  // the log line travels on stderr, the error on stdout: wait for the line itself (at most 2 s)
  const reason = await a.waitForLog(/requestState refused/, { from: logFrom }).catch((error: Error) => {
    throw new DemoMismatch(error.message);
  });
  say(`server log (stderr, never sent to the client): ${reason.trim()}`, 3);
  await expectRefunds(store, 'ord_52', 0);
}
