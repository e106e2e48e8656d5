// Everything the demo server offers, built over the demo's stores: the server and the tests share it.
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from '@roundtrip/engine';
import { createBookMeetingTool } from './book-meeting-tool.ts';
import { createCustomerStatementResource } from './customer-statement-resource.ts';
import type { DemoStores } from './demo-stores.ts';
import { createMeetingAgendaPrompt } from './meeting-agenda-prompt.ts';
import { createOrderStatusTool } from './order-status-tool.ts';
import { createRefundCustomerTool } from './refund-customer-tool.ts';
import { createRefundEmailPrompt } from './refund-email-prompt.ts';
import { createRefundOrderTool } from './refund-order-tool.ts';
import { createReportIncidentTool } from './report-incident-tool.ts';
import { createRoomBookingsResource } from './room-bookings-resource.ts';

export const SERVER_NAME = 'roundtrip-demo';
export const SERVER_VERSION = '0.3.0';
/**
 * The demo's own variables (its database, its lock wait, its payment provider's time per refund), declared to the server so its
 * check at start does not call them unknown.
 */
export const DEMO_VARIABLES: readonly string[] = ['ROUNDTRIP_DB', 'ROUNDTRIP_DB_BUSY_TIMEOUT_MS', 'ROUNDTRIP_DEMO_REFUND_MS'];

export const SERVER_INSTRUCTIONS = [
  'Looks up and refunds orders (ids like ord_51).',
  'refund_order asks the user to confirm the amount before refunding; an order is refunded at most once, and only by the amount the user confirmed (if it changed, the user is asked again).',
  "refund_customer refunds all of a customer's paid orders after one confirmation (slow: a task for a client that accepts tasks); an order whose amount changed meanwhile is asked about.",
  'order_status reads an order without changing anything.',
  'The refund_email prompt drafts the email to a customer about a refund; the customer_statement resource (statement://customers/{customer}) is a monthly statement and asks which month.',
  'book_meeting books a meeting room after asking when, for how many people and (for more than 5) which room, then asks to confirm; report_incident records an incident after asking its severity and details.',
  "The meeting_agenda prompt writes an agenda after asking its length and style; the room_bookings resource (bookings://rooms/{room}) lists a week of a room's bookings and asks which week.",
].join(' ');

export interface DemoDefinitions {
  tools: ToolDefinition[];
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
}

/**
 * The demo's tools, prompts and resources over its stores, declared as flows (@roundtrip/tools) or
 * written as machines. `ledgerInDatabase` (default true): the effect ledger is kept in the stores'
 * database, so refund_order's refund commits with its ledger record (false when ROUNDTRIP_LEDGER is elsewhere).
 *
 * @example
 * const { tools, prompts, resources } = createDemoDefinitions(await openDemoStores(dbLocation()));
 */
export function createDemoDefinitions(
  { orders, meetings, incidents }: Omit<DemoStores, 'close'>,
  options: Parameters<typeof createRefundOrderTool>[1] = {},
): DemoDefinitions {
  return {
    tools: [
      createRefundOrderTool(orders, options),
      createOrderStatusTool(orders),
      createBookMeetingTool(meetings),
      createReportIncidentTool(incidents),
      createRefundCustomerTool(orders),
    ],
    prompts: [createRefundEmailPrompt(orders), createMeetingAgendaPrompt()],
    resources: [createCustomerStatementResource(orders), createRoomBookingsResource(meetings)],
  };
}
