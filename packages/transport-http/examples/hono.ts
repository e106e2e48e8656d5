// Roundtrip on Hono: the web-standard handler on one route of an app. The same app runs on Cloudflare
// Workers (`export default app`), Deno (`Deno.serve(app.fetch)`), Bun (`export default app`) and Node
// (`@hono/node-server`'s `serve(app)`). The handler checks Host and Origin itself; give it the names the
// app is reached by (`hostOrigin.allowedHosts`) when that is not this machine.
import { createEngine, createKeyring, type ToolDefinition } from '@roundtrip/engine';
import { createHttpHandler } from '@roundtrip/transport-http';
import { Hono } from 'hono';

export interface OrdersAppOptions {
  tools: readonly ToolDefinition[];
  /** The keys states are sealed with (the first seals): a secret every instance of the app shares. */
  keys: string[];
  /** Whom states are bound to: one identity here; with `authentication`, each bearer token's `sub`. */
  principal: string;
  allowedHosts?: string[];
}

export function createOrdersApp(options: OrdersAppOptions): Hono {
  const engine = createEngine({ tools: options.tools, keyring: createKeyring(options.keys), audience: 'orders' });
  const handler = createHttpHandler({
    engine,
    name: 'orders',
    version: '1.0.0',
    principal: options.principal,
    ...(options.allowedHosts && { hostOrigin: { allowedHosts: options.allowedHosts } }),
  });
  const app = new Hono();
  app.all('/mcp', (c) => handler.fetch(c.req.raw));
  return app;
}
