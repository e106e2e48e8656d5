// The start-up and release every Node server shares (runStdioServer, runHttpServer), over a transport of the
// test's own: the order of the log lines, what is read and opened before a transport's refusal, and the order
// in which what was opened is released, also when a step fails.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EngineLogEntry, generateKey, TASKS_EXTENSION } from '@roundtrip/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultKeyFilePath, RoundtripConfigError, runNodeServer, type ServedEngine } from '../src/node/index.ts';
import { createTaskTools } from './fixtures/task-definitions.ts';

const TASKS = { elicitation: {}, extensions: { [TASKS_EXTENSION]: {} } };
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});
const tempDir = () => {
  const folder = mkdtempSync(join(tmpdir(), 'rt-node-server-'));
  folders.push(folder);
  return folder;
};
const env = () => ({ ROUNDTRIP_KEY: generateKey(), ROUNDTRIP_PRINCIPAL: 'ada', ROUNDTRIP_LEDGER: ':memory:' });

/** A task whose work runs until the engine is closed: its `aborted` resolves once the served engine closes. */
async function startWork(served: ServedEngine): Promise<void> {
  const outcome = await served.engine.callTool({ name: 'gated_report', arguments: {}, principal: 'ada', capabilities: TASKS });
  expect(outcome.type).toBe('task');
}

describe('runNodeServer', () => {
  it("logs the settings' warnings, the transport's start, then the startup line and the lines after it", async () => {
    const entries: EngineLogEntry[] = [];
    const { tools } = createTaskTools();
    const running = await runNodeServer(
      { name: 'lifecycle', version: '1.2.3', tools, env: { ...env(), ROUNDTRIP_LEDGR: 'x', ROUNDTRIP_PIPE_SIZE: '9' } },
      {
        ownsProcess: false,
        log: (entry) => entries.push(entry),
        variables: ['ROUNDTRIP_PIPE_SIZE'],
        start: async ({ log, release }) => {
          log({ level: 'info', event: 'protocol', message: 'on a test pipe' });
          return {
            running: { close: () => release() },
            over: 'a test pipe',
            principal: 'each caller',
            after: [{ level: 'info', event: 'http', message: 'pipe size 9' }],
          };
        },
      },
    );
    expect(entries.map((entry) => entry.event)).toEqual(['settings', 'protocol', 'started', 'http']);
    expect(entries[0]!.message).toMatch(/ROUNDTRIP_LEDGR/);
    expect(entries[2]!.message).toMatch(
      /^lifecycle 1\.2\.3 serving 2 tools over a test pipe \(ROUNDTRIP_KEY \(1 key\); principal each caller;/,
    );
    await running.close();
  });

  it("reads the transport's settings before the shared ones, and checks them after the warnings, before anything is opened", async () => {
    const dir = tempDir();
    // the default key file is generated as the shared settings are read; the ledger is opened after the checks
    const files = { HOME: dir, XDG_CONFIG_HOME: dir, ROUNDTRIP_LEDGER: join(dir, 'ledger.db'), ROUNDTRIP_LEDGR: 'x' };
    const keyFile = defaultKeyFilePath('lifecycle', files);
    const start = async () => ({ running: undefined, over: 'nothing' });
    const refusal = new RoundtripConfigError('--pipe', 'no pipe here', { code: 'unsafe' });
    const read = () => {
      throw refusal;
    };
    await expect(runNodeServer({ name: 'lifecycle', version: '1', env: files }, { ownsProcess: false, read, start })).rejects.toBe(refusal);
    expect(existsSync(keyFile)).toBe(false);

    const entries: EngineLogEntry[] = [];
    const check = (own: string) => {
      expect(own).toBe('pipe');
      entries.push({ level: 'info', event: 'settings', message: `${own} checked` });
      throw refusal;
    };
    const transport = { ownsProcess: false, log: (entry: EngineLogEntry) => entries.push(entry), read: () => 'pipe', check, start };
    await expect(runNodeServer({ name: 'lifecycle', version: '1', env: files }, transport)).rejects.toBe(refusal);
    expect(entries.map((entry) => entry.message)).toEqual([expect.stringMatching(/ROUNDTRIP_LEDGR/), 'pipe checked']);
    expect(existsSync(keyFile)).toBe(true);
    expect(existsSync(files.ROUNDTRIP_LEDGER)).toBe(false);
  });

  it("releases the code's onClose, then what the transport opened, then the served engine", async () => {
    const order: string[] = [];
    const { tools, aborted } = createTaskTools();
    void aborted.then(() => order.push('engine'));
    const running = await runNodeServer(
      { name: 'lifecycle', version: '1', tools, env: env(), onClose: () => void order.push('onClose') },
      {
        ownsProcess: false,
        log: () => {},
        start: async ({ served, release }) => {
          await startWork(served);
          return { running: { close: () => release(async () => void order.push('own')) }, over: 'a test pipe' };
        },
      },
    );
    await running.close();
    await aborted;
    expect(order).toEqual(['onClose', 'own', 'engine']);
  });

  it('closes the served engine when onClose fails, and says why', async () => {
    const { tools, aborted } = createTaskTools();
    const running = await runNodeServer(
      {
        name: 'lifecycle',
        version: '1',
        tools,
        env: env(),
        onClose: () => {
          throw new Error('the store would not close');
        },
      },
      {
        ownsProcess: false,
        log: () => {},
        start: async ({ served, release }) => {
          await startWork(served);
          return { running: { close: () => release() }, over: 'a test pipe' };
        },
      },
    );
    await expect(running.close()).rejects.toThrow('the store would not close');
    await aborted;
  });

  it('closes the served engine when the transport cannot start, and logs no startup line', async () => {
    const entries: EngineLogEntry[] = [];
    const { tools, aborted } = createTaskTools();
    const start = async ({ served }: { served: ServedEngine }): Promise<never> => {
      await startWork(served);
      throw new Error('address in use');
    };
    const options = { name: 'lifecycle', version: '1', tools, env: env() };
    await expect(runNodeServer(options, { ownsProcess: false, log: (entry) => entries.push(entry), start })).rejects.toThrow(
      'address in use',
    );
    await aborted;
    expect(entries.filter((entry) => entry.event === 'started')).toEqual([]);
  });
});
