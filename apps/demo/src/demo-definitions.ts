// Everything the demo server offers, built over one orders store: the server and the tests share it.
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from '@roundtrip/engine';
import { createCustomerStatementResource } from './customer-statement-resource.ts';
import { createOrderStatusTool } from './order-status-tool.ts';
import type { OrdersStore } from './orders-store.ts';
import { createRefundEmailPrompt } from './refund-email-prompt.ts';
import { createRefundOrderTool } from './refund-order-tool.ts';

export const SERVER_NAME = 'roundtrip-demo';
export const SERVER_VERSION = '0.2.0';

export const SERVER_INSTRUCTIONS = [
  'Looks up and refunds orders (ids like ord_51).',
  'refund_order asks the user to confirm the amount before refunding; an order is refunded at most once, and only by the amount the user confirmed (if it changed, the user is asked again).',
  'order_status reads an order without changing anything.',
  'The refund_email prompt drafts the email to a customer about a refund; the customer_statement resource (statement://customers/{customer}) is a monthly statement and asks which month.',
].join(' ');

export interface DemoDefinitions {
  tools: ToolDefinition[];
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
}

/**
 * The demo's tools, prompt and resource over one orders store.
 *
 * @example
 * const { tools, prompts, resources } = createDemoDefinitions(openOrdersStore(dbPath()));
 */
export function createDemoDefinitions(store: OrdersStore): DemoDefinitions {
  return {
    tools: [createRefundOrderTool(store), createOrderStatusTool(store)],
    prompts: [createRefundEmailPrompt(store)],
    resources: [createCustomerStatementResource(store)],
  };
}
