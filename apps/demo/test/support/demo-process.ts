// A demo server process the test can kill: the connected client, the server's process id, and a
// promise of its exit, on top of connectDemo.
import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { connectDemo, type DemoConnection, type DemoSettings } from './demo-client.ts';

export interface DemoProcess extends DemoConnection {
  pid: number;
  /** Resolves when the connection to the process has closed (it exited or was killed). */
  closed: Promise<void>;
  /** Kills the process with SIGKILL (no cleanup, as in a crash) and waits until the connection has closed. */
  kill(): Promise<void>;
}

export async function startDemoProcess(settings: DemoSettings): Promise<DemoProcess> {
  const demo = await connectDemo(settings);
  const pid = (demo.client.transport as StdioClientTransport | undefined)?.pid;
  if (typeof pid !== 'number') throw new Error('the demo server process has no pid: it did not start');
  const closed = new Promise<void>((resolve) => {
    const previous = demo.client.onclose;
    demo.client.onclose = () => {
      previous?.();
      resolve();
    };
  });
  return {
    ...demo,
    pid,
    closed,
    kill: async () => {
      process.kill(pid, 'SIGKILL');
      await closed;
    },
  };
}
