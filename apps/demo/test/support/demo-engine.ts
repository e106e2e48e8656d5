// The demo's definitions served by the engine in this process, over a fresh SQLite file that holds
// the orders, meetings, incidents and the effect ledger, as the server does, or over a PostgreSQL
// database given by URL (stores and ledger in it). No transport, no child process: fast. The fresh file
// is a copy of a seeded one (seeded-demo-file.ts), the definitions a set built once (reused-definitions.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CallToolResult,
  type ClientCapabilities,
  createEngine,
  createKeyring,
  type EffectLedger,
  type ElicitInputRequest,
  type Engine,
  type EngineLogEntry,
  type EngineOptions,
  type GetPromptResult,
  generateKey,
  type ReadResourceResult,
  type StepOutcome,
} from '@roundtrip/engine';
import { createPostgresLedger } from '@roundtrip/engine/postgres';
import { createSqliteLedger } from '@roundtrip/engine/sqlite';
import { expect } from 'vitest';
import { isPostgresUrl } from '../../src/db-location.ts';
import { SERVER_NAME } from '../../src/demo-definitions.ts';
import { type DemoStoresOptions, openDemoStores } from '../../src/demo-stores.ts';
import type { IncidentsStore } from '../../src/incidents-store.ts';
import type { MeetingsStore } from '../../src/meetings-store.ts';
import type { OrdersStore } from '../../src/orders-store.ts';
import { borrowDefinitions } from './reused-definitions.ts';
import { copySeededDemoFile } from './seeded-demo-file.ts';

export const FORM: ClientCapabilities = { elicitation: { form: {} } };

/** One key for every engine of a test file unless a test asks for another. */
export const sharedKeyring = createKeyring([generateKey()]);

export interface DemoEngine {
  engine: Engine;
  store: OrdersStore;
  meetings: MeetingsStore;
  incidents: IncidentsStore;
  ledger: EffectLedger;
  logs: EngineLogEntry[];
  /** The database file, or the PostgreSQL URL (orders and effect ledger). */
  db: string;
  /** One tools/call round as principal 'ada' with form elicitation declared, unless told otherwise. */
  call(name: string, args: Record<string, unknown>, retry?: Retry): Promise<StepOutcome<CallToolResult>>;
  prompt(name: string, args: Record<string, string>, retry?: Retry): Promise<StepOutcome<GetPromptResult>>;
  read(uri: string, retry?: Retry): Promise<StepOutcome<ReadResourceResult>>;
  /** How many times an effect ran and was recorded, from the engine's log. */
  effectsRecorded(): number;
}

export interface Retry {
  requestState?: unknown;
  inputResponses?: unknown;
  principal?: string;
}

const cleanups: Array<() => void | Promise<void>> = [];

/** Closes every store and ledger opened by demoEngine and removes their folders; call from afterEach. */
export async function closeDemoEngines(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

/** A ledger in the demo's database, as the server keeps it by default: the file, or the PostgreSQL database. */
async function ledgerBeside(db: string): Promise<EffectLedger & { close(): void | Promise<void> }> {
  return isPostgresUrl(db) ? createPostgresLedger({ url: db }) : createSqliteLedger({ path: db });
}

/**
 * A demo engine over a fresh SQLite file, or over `options.db` (a second "process" sharing the file, or
 * a PostgreSQL URL). Engine options (keyring, now, limits) and the stores' options may be overridden.
 */
export async function demoEngine(
  options: { db?: string; stores?: DemoStoresOptions } & Partial<Omit<EngineOptions, 'tools' | 'prompts' | 'resources'>> = {},
): Promise<DemoEngine> {
  const { db: given, stores: storesOptions, ...engineOptions } = options;
  let db = given;
  if (!db) {
    const dir = mkdtempSync(join(tmpdir(), 'rt-demo-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    db = join(dir, 'orders.db');
    await copySeededDemoFile(db);
  }
  const stores = await openDemoStores(db, storesOptions);
  const ledger = await ledgerBeside(db);
  const { definitions, giveBack } = borrowDefinitions(stores);
  cleanups.push(async () => {
    await stores.close();
    await ledger.close();
    giveBack();
  });
  const logs: EngineLogEntry[] = [];
  const engine = createEngine({
    ...definitions,
    keyring: sharedKeyring,
    audience: SERVER_NAME,
    ledger,
    log: (entry) => logs.push(entry),
    ...engineOptions,
  });
  const who = (retry?: Retry) => ({
    principal: retry?.principal ?? 'ada',
    capabilities: FORM,
    requestState: retry?.requestState,
    inputResponses: retry?.inputResponses,
  });
  const strip = <T extends object>(request: T) => Object.fromEntries(Object.entries(request).filter(([, v]) => v !== undefined)) as T;
  return {
    engine,
    store: stores.orders,
    meetings: stores.meetings,
    incidents: stores.incidents,
    ledger,
    logs,
    db,
    call: (name, args, retry) => engine.callTool(strip({ name, arguments: args, ...who(retry) })),
    prompt: (name, args, retry) => engine.getPrompt(strip({ name, arguments: args, ...who(retry) })),
    read: (uri, retry) => engine.readResource(strip({ uri, ...who(retry) })),
    effectsRecorded: () => logs.filter((l) => l.event === 'effect_recorded').length,
  };
}

type Of<R, T extends StepOutcome<R>['type']> = Extract<StepOutcome<R>, { type: T }>;

function narrow<R, T extends StepOutcome<R>['type']>(outcome: StepOutcome<R>, type: T): Of<R, T> {
  expect(outcome.type, JSON.stringify(outcome)).toBe(type);
  return outcome as Of<R, T>;
}

/** An input_required outcome whose questions are all put to the user (the demo asks no sampling or roots questions). */
export const asked = <R>(outcome: StepOutcome<R>) => {
  const ask = narrow(outcome, 'input_required');
  for (const request of Object.values(ask.inputRequests)) expect(request.method).toBe('elicitation/create');
  return ask as typeof ask & { inputRequests: Record<string, ElicitInputRequest> };
};
export const done = <R>(outcome: StepOutcome<R>) => narrow(outcome, 'complete').result;
export const refused = <R>(outcome: StepOutcome<R>) => narrow(outcome, 'error').error;

/** The one question of an input_required outcome: its message (and the state to answer with). */
export function question<R>(outcome: StepOutcome<R>, key: string): { message: string; requestState: string; schema: unknown } {
  const ask = asked(outcome);
  const request = ask.inputRequests[key];
  expect(request, `no question '${key}' in ${JSON.stringify(ask.inputRequests)}`).toBeDefined();
  return {
    message: request!.params.message,
    requestState: ask.requestState,
    schema: (request!.params as { requestedSchema: unknown }).requestedSchema,
  };
}

export const textOf = (result: CallToolResult) => result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
export const accept = (content: Record<string, unknown>) => ({ action: 'accept', content });
export const decline = { action: 'decline' } as const;
export const cancel = { action: 'cancel' } as const;
