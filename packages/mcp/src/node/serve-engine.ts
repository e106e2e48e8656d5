// The engine a Node server serves, built the same way by every transport (stdio, HTTP): the effect
// ledger it opens from its settings (a SQLite file or a PostgreSQL URL) or the one the code gives, the task
// store beside a ledger it opened (the same file or database; in PostgreSQL with its job queue), the inspector
// it reports to, Stately's inspector, and the engine itself over the resolved keyring and limits, taking the
// queue's jobs or the tasks a process that ended left working.
import {
  createEngine,
  type EffectLedger,
  type Engine,
  type EngineLogEntry,
  type PromptDefinition,
  type ResourceDefinition,
  type ToolDefinition,
} from '@roundtrip/engine';
import { createInspectReporter } from '../inspect-reporter.ts';
import { openLedgerAt } from './open-ledger.ts';
import { type OpenedTasks, openTasksAt } from './open-task-store.ts';
import { isEffectLedger } from './resolve-ledger-path.ts';
import type { ServerSettings, ServerSettingsFromCode } from './resolve-server-settings.ts';
import { startStatelyInspector } from './stately-inspector.ts';

export interface ServedEngineOptions extends ServerSettingsFromCode {
  /** The server's name: the audience its states are sealed for, and its name in the inspector. */
  name: string;
  tools?: readonly ToolDefinition[] | undefined;
  prompts?: readonly PromptDefinition[] | undefined;
  resources?: readonly ResourceDefinition[] | undefined;
}

/**
 * The engine, and how to release what was opened for it: the work of tasks still running, then the task store
 * and the ledger this server opened (not a ledger the code gave).
 */
export interface ServedEngine {
  engine: Engine;
  close(): Promise<void>;
}

/**
 * Opens what the settings name and builds the engine over it. A definition problem closes the ledger it
 * opened before it is thrown.
 *
 * @example
 * const settings = resolveServerSettings(options.name, process.env, options);
 * const { engine, close } = await openServedEngine(options, settings, log);
 */
export async function openServedEngine(
  options: ServedEngineOptions,
  settings: ServerSettings,
  log: (entry: EngineLogEntry) => void,
): Promise<ServedEngine> {
  // the SQLite or PostgreSQL ledger is ours to close; a ledger object from the code is the code's
  const opened = settings.ledgerPath === undefined ? undefined : await openLedgerAt(settings.ledgerPath);
  // tasks are kept beside a ledger this server opened, so they outlive the process (and, in PostgreSQL, any
  // instance answers them); beside a ledger of the code's own, in this process's memory
  let tasks: OpenedTasks | undefined;
  try {
    tasks = settings.ledgerPath === undefined ? undefined : await openTasksAt(settings.ledgerPath, settings.taskLeaseSeconds);
  } catch (error) {
    await opened?.close();
    throw error;
  }
  const ledger: EffectLedger | undefined = opened ?? (options.ledger && isEffectLedger(options.ledger) ? options.ledger : undefined);
  const reporter = settings.inspect.address ? createInspectReporter(settings.inspect.address, options.name, log) : undefined;
  const inspectActors = settings.inspect.stately ? await startStatelyInspector(log, settings.inspect.answers) : undefined;
  let engine: Engine | undefined;
  // the work of tasks still running stops first (it ends cancelled, recorded in the store, or with a queue is
  // handed back to it for another server), then the queue, the task store and the ledger it writes to close
  const close = async () => {
    try {
      await engine?.close();
    } finally {
      try {
        await tasks?.close();
      } finally {
        await opened?.close();
      }
    }
  };
  try {
    engine = createEngine({
      ...(options.tools && { tools: options.tools }),
      ...(options.prompts && { prompts: options.prompts }),
      ...(options.resources && { resources: options.resources }),
      keyring: settings.keyring,
      audience: options.name,
      ...settings.limits,
      ...(ledger && { ledger }),
      ...(tasks && { tasks: { store: tasks.store, ...(tasks.queue && { queue: tasks.queue }) } }),
      ...(reporter && { inspect: reporter.report, inspectTasks: reporter.reportTask, inspectAnswers: settings.inspect.answers }),
      ...(inspectActors && { inspectActors }),
      log,
    });
    // on PostgreSQL this server takes the queue's jobs (a task whose server died among them); on SQLite the
    // tasks a process on this machine left working when it was killed run on here
    if (tasks) await engine.resumeTasks();
    return { engine, close };
  } catch (error) {
    await close();
    throw error;
  }
}
