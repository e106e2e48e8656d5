// The refund_email prompt (prompts/get) and the customer_statement resource (resources/read), each
// asking the user before it answers, through the engine in this process.
import { afterEach, describe, expect, it } from 'vitest';
import { refundEmailInstructions } from '../src/refund-email-prompt.ts';
import { accept, closeDemoEngines, decline, demoEngine, done, question, refused } from './support/demo-engine.ts';

afterEach(closeDemoEngines);

describe('refund_email prompt', () => {
  it('is listed with its one argument', async () => {
    expect((await demoEngine()).engine.listPrompts()).toEqual([
      expect.objectContaining({
        name: 'refund_email',
        title: 'Refund email',
        arguments: [{ name: 'order_id', description: "The order's id, e.g. 'ord_51'", required: true }],
      }),
      expect.objectContaining({ name: 'meeting_agenda' }),
    ]);
  });

  it('asks the tone and whether to mention the amount, then renders the instructions', async () => {
    const demo = await demoEngine();
    const first = question(await demo.prompt('refund_email', { order_id: 'ord_53' }), 'style');
    expect(first.message).toBe('How should the refund email to ada about order ord_53 read?');
    expect(first.schema).toEqual({
      type: 'object',
      properties: {
        tone: { type: 'string', description: 'Tone of the email', enum: ['friendly', 'formal', 'brief'] },
        mention_amount: { type: 'boolean', description: 'Mention the refunded amount' },
      },
      required: ['tone', 'mention_amount'],
    });
    const result = done(
      await demo.prompt(
        'refund_email',
        { order_id: 'ord_53' },
        { requestState: first.requestState, inputResponses: { style: accept({ tone: 'formal', mention_amount: true }) } },
      ),
    );
    expect(result.messages).toEqual([
      {
        role: 'user',
        content: {
          type: 'text',
          text:
            'Draft an email to our customer ada about the refund of order ord_53, placed on 2026-05-02. The order was refunded on 2026-05-04. ' +
            'Tone: formal (formal and courteous, as in a business letter). Mention the refunded amount, $75.50. ' +
            'Sign it "The Orders Team". Reply with the subject line and the email body only.',
        },
      },
    ]);
  });

  it('leaves the amount out when asked to, and says a refund not yet made is being processed', async () => {
    const demo = await demoEngine();
    const order = (await demo.store.findOrder('ord_51'))!;
    const { requestState } = question(await demo.prompt('refund_email', { order_id: 'ord_51' }), 'style');
    const result = done(
      await demo.prompt(
        'refund_email',
        { order_id: 'ord_51' },
        { requestState, inputResponses: { style: accept({ tone: 'brief', mention_amount: false }) } },
      ),
    );
    const content = result.messages[0]!.content;
    const text = content.type === 'text' ? content.text : JSON.stringify(content);
    expect(text).toBe(refundEmailInstructions(order, 'brief', false));
    expect(text).toContain('Do not mention the amount.');
    expect(text).toContain('is being processed');
    expect(text).not.toContain('$49.00');
  });

  it('ends at once with one assistant message for an unknown order, and when the user declines', async () => {
    const demo = await demoEngine();
    const unknown = done(await demo.prompt('refund_email', { order_id: 'ord_99' }));
    expect(unknown.messages).toEqual([
      { role: 'assistant', content: { type: 'text', text: expect.stringMatching(/^There is no order with id 'ord_99'/) } },
    ]);
    const { requestState } = question(await demo.prompt('refund_email', { order_id: 'ord_51' }), 'style');
    const declined = done(await demo.prompt('refund_email', { order_id: 'ord_51' }, { requestState, inputResponses: { style: decline } }));
    expect(declined.messages).toEqual([
      {
        role: 'assistant',
        content: { type: 'text', text: 'No refund email was drafted for order ord_51: the questions about it were not answered.' },
      },
    ]);
  });

  it('refuses missing arguments with a JSON-RPC error', async () => {
    expect(refused(await (await demoEngine()).prompt('refund_email', {}))).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Invalid arguments for prompt 'refund_email': order_id/),
    });
  });
});

describe('customer_statement resource', () => {
  it('is listed as a URI template, not as a fixed resource', async () => {
    const { engine } = await demoEngine();
    expect(engine.listResources()).toEqual([]);
    expect(engine.listResourceTemplates()).toEqual([
      expect.objectContaining({ uriTemplate: 'statement://customers/{customer}', name: 'customer_statement', mimeType: 'text/plain' }),
      expect.objectContaining({ uriTemplate: 'bookings://rooms/{room}', name: 'room_bookings' }),
    ]);
  });

  it('asks which month, naming the months with activity, then returns the statement as text', async () => {
    const demo = await demoEngine();
    const uri = 'statement://customers/ada';
    const first = question(await demo.read(uri), 'month');
    expect(first.message).toBe("Which month of ada's statement? Months with orders or refunds: 2026-05.");
    expect(first.schema).toEqual({
      type: 'object',
      properties: { month: { type: 'string', description: 'The month, as YYYY-MM' } },
      required: ['month'],
    });
    const bad = question(
      await demo.read(uri, { requestState: first.requestState, inputResponses: { month: accept({ month: 'May' }) } }),
      'month',
    );
    expect(bad.message).toContain('Your last answer was not accepted: month: write the month as YYYY-MM, e.g. 2026-05.');
    const result = done(await demo.read(uri, { requestState: bad.requestState, inputResponses: { month: accept({ month: '2026-05' }) } }));
    expect(result.contents).toEqual([
      {
        uri,
        mimeType: 'text/plain',
        text: [
          'Statement for ada, May 2026 (2026-05)',
          '',
          'Orders placed',
          '  2026-05-02  ord_53      $75.50',
          '  2026-05-12  ord_51      $49.00',
          '  2026-05-20  ord_52     $120.00',
          '',
          'Refunds made',
          '  2026-05-04  ord_53      $75.50',
          '',
          'Total ordered:     $244.50',
          'Total refunded:     $75.50',
          'Net:               $169.00',
          '',
        ].join('\n'),
      },
    ]);
  });

  it('shows refunds in the month they were made, and says when a month is empty', async () => {
    const demo = await demoEngine();
    await demo.store.refundOrder('ord_54');
    const refundMonth = (await demo.store.findOrder('ord_54'))!.refundedAt!.slice(0, 7);
    const first = question(await demo.read('statement://customers/grace'), 'month');
    expect(first.message).toBe(`Which month of grace's statement? Months with orders or refunds: 2026-06, ${refundMonth}.`);
    const refunds = done(
      await demo.read('statement://customers/grace', {
        requestState: first.requestState,
        inputResponses: { month: accept({ month: refundMonth }) },
      }),
    );
    expect(refunds.contents[0]).toMatchObject({
      text: expect.stringMatching(/Orders placed\n {2}\(none\)\n\nRefunds made\n {2}\d{4}-\d\d-\d\d {2}ord_54 {6}\$30\.00\n/),
    });
    const again = question(await demo.read('statement://customers/grace'), 'month');
    const empty = done(
      await demo.read('statement://customers/grace', {
        requestState: again.requestState,
        inputResponses: { month: accept({ month: '2025-01' }) },
      }),
    );
    expect(empty.contents[0]).toMatchObject({
      text: 'Statement for grace, January 2025 (2025-01)\n\nNo orders or refunds in this month.\n',
    });
  });

  it('says so, without asking, for a customer with no orders; a URI of another shape is not found', async () => {
    const demo = await demoEngine();
    expect(done(await demo.read('statement://customers/nobody')).contents).toEqual([
      { uri: 'statement://customers/nobody', mimeType: 'text/plain', text: "No orders for customer 'nobody', so there is no statement.\n" },
    ]);
    expect(refused(await demo.read('statement://orders/ord_51'))).toMatchObject({
      code: -32602,
      message: 'Resource not found: statement://orders/ord_51',
    });
  });

  it('binds the state to the customer it was asked for', async () => {
    const demo = await demoEngine();
    const { requestState } = question(await demo.read('statement://customers/ada'), 'month');
    const error = refused(
      await demo.read('statement://customers/grace', { requestState, inputResponses: { month: accept({ month: '2026-05' }) } }),
    );
    expect(error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState', data: { reason: 'mismatch' } });
  });
});
