// A loopback TCP port that refuses every connection (ECONNREFUSED) and that nothing else can take while
// the test that asked for it runs: for the "no server answers there" tests of every package.
//
// Why not "listen on port 0, close, use the port": between the close and the test's connect, another test
// worker may bind that port (or get it as the local end of a connection it opens) and answer. Why not
// port 1: the tests run as root in CI, where anything may bind it. Instead the port is the LOCAL end of an
// open connection this module holds (a client socket connected to a throwaway listener). On Linux a port
// held by a connected socket without SO_REUSEADDR cannot be bound by anyone else (bind and listen fail
// with EADDRINUSE, SO_REUSEADDR or not), and a SYN to it finds no listener, so the kernel answers with a
// reset: connection refused, every time, until the test finishes and the connection is closed.
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { onTestFinished } from 'vitest';

/** A port on 127.0.0.1 that refuses connections until the current test finishes (then it is released). */
export async function refusedPort(): Promise<number> {
  const listener = createServer();
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const accepted = once(listener, 'connection') as Promise<[Socket]>;
  const client = connect((listener.address() as { port: number }).port, '127.0.0.1');
  await once(client, 'connect');
  const [peer] = await accepted;
  // the listener's own port is not the one handed out: it stops listening now, the connection stays
  listener.close();
  onTestFinished(() => {
    client.destroy();
    peer.destroy();
  });
  const port = client.localPort;
  if (port === undefined) throw new Error('refusedPort: the holding connection has no local port (was it closed?)');
  return port;
}
