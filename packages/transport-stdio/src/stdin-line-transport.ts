// The stdio wire of the server: newline-delimited JSON-RPC on stdin and stdout, with a size limit on
// each line read. Unlike the SDK's StdioServerTransport (one 10 MiB buffer: a longer line closes the
// connection without a word; lines that are not JSON are dropped silently), every line it cannot
// deliver is answered where JSON-RPC asks for an answer, logged in one line, and the connection goes on.
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { parseJSONRPCMessage, serializeMessage } from '@modelcontextprotocol/server';
import type { EngineLogEntry, LogEventName } from '@roundtrip/engine';
import { oversizedLineShape, type RequestId, requestIdOf } from './oversized-line-shape.ts';
import { reserveStdout } from './reserve-stdout.ts';

/** How much of the start and of the end of an oversized line is kept to find its id. */
const KEPT_EDGE_BYTES = 4096;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export interface StdinLineTransportOptions {
  /** The longest line accepted, in bytes (newline excluded). */
  maxLineBytes: number;
  /** Where refused lines are reported (one line each, never their content). */
  log: (entry: EngineLogEntry) => void;
  /** @defaultValue process.stdin */
  stdin?: Readable;
  /** @defaultValue process.stdout, reserved for the protocol: anything else written to it goes to stderr (see reserveStdout) */
  stdout?: Writable;
}

/** A line being read: kept whole while under the limit; past it, only its size and its edges. */
type Reading = { kind: 'kept'; chunks: Buffer[]; bytes: number } | { kind: 'dropped'; head: Buffer; tail: Buffer; bytes: number };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A `Transport` for `serveStdio(factory, { transport })`: reads stdin line by line, never holding more
 * than `maxLineBytes` of one line, and writes each message to stdout as one line.
 *
 * - A line over the limit is not kept: the rest of it is skipped as it arrives, and a request is
 *   answered with -32600 "Request too large" naming the size, the limit and its setting.
 * - A line that is not JSON (or not UTF-8) is answered with -32700; JSON that is not a JSON-RPC
 *   message with -32600 (with the request's id when it has a valid one). Notifications and responses
 *   are never answered; blank lines are skipped.
 * Error replies without a usable id carry no `id` (the MCP schema's form of JSON-RPC's `null`).
 */
export class StdinLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  /** Writes to `stdout`: the only way left to it when it is process.stdout. */
  private readonly write: (chunk: string) => boolean;
  private readonly maxLineBytes: number;
  private readonly log: (entry: EngineLogEntry) => void;
  private reading: Reading = { kind: 'kept', chunks: [], bytes: 0 };
  private started = false;
  private closed = false;

  constructor(options: StdinLineTransportOptions) {
    this.maxLineBytes = options.maxLineBytes;
    this.log = options.log;
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    const stdout = this.stdout;
    this.write = options.stdout ? (chunk) => stdout.write(chunk) : reserveStdout();
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('StdinLineTransport already started; serveStdio starts the transport it is given.');
    this.started = true;
    if (this.stdin.readableEnded || this.stdin.destroyed) setImmediate(this.onStdinEnd);
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
    this.stdin.on('end', this.onStdinEnd);
    this.stdin.on('close', this.onStdinEnd);
    this.stdout.on('error', this.onStdoutError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    this.stdin.off('end', this.onStdinEnd);
    this.stdin.off('close', this.onStdinEnd);
    // a failed write after close has nobody left to tell
    this.stdout.off('error', this.onStdoutError);
    this.stdout.on('error', () => {});
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.reading = { kind: 'kept', chunks: [], bytes: 0 };
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.reject(new Error('The stdio connection is closed; nothing more can be sent.'));
    return new Promise((resolve, reject) => {
      if (this.write(serializeMessage(message))) resolve();
      else {
        const onDrain = () => {
          this.stdout.off('error', onError);
          resolve();
        };
        const onError = (error: Error) => {
          this.stdout.off('drain', onDrain);
          reject(error);
        };
        this.stdout.once('drain', onDrain);
        this.stdout.once('error', onError);
      }
    });
  }

  private readonly onStdinError = (error: Error) => this.onerror?.(error);
  private readonly onStdinEnd = () => void this.close();
  private readonly onStdoutError = (error: Error) => {
    if (this.closed) return;
    this.onerror?.(error);
    void this.close();
  };

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(0x0a); !this.closed; newline = data.indexOf(0x0a)) {
      if (newline < 0) {
        this.take(data);
        return;
      }
      const reading = this.reading;
      try {
        // the usual case, a whole line within one chunk: read where it lies, without gathering it
        if (reading.kind === 'kept' && reading.bytes === 0 && newline <= this.maxLineBytes) this.handleLine(data.subarray(0, newline));
        else {
          this.take(data.subarray(0, newline));
          const line = this.reading;
          this.reading = { kind: 'kept', chunks: [], bytes: 0 };
          if (line.kind === 'kept') this.handleLine(Buffer.concat(line.chunks, line.bytes));
          else this.handleDropped(line);
        }
      } catch (error) {
        // a throwing onmessage must not lose the lines after it
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
      data = data.subarray(newline + 1);
    }
  };

  /** Adds part of the current line: kept while the line fits, else only counted (and its edges kept). */
  private take(part: Buffer): void {
    if (part.length === 0) return;
    const reading = this.reading;
    if (reading.kind === 'kept' && reading.bytes + part.length <= this.maxLineBytes) {
      reading.chunks.push(part);
      reading.bytes += part.length;
      return;
    }
    if (reading.kind === 'kept') {
      const before = Buffer.concat(reading.chunks, reading.bytes);
      const head = Buffer.concat([before.subarray(0, KEPT_EDGE_BYTES), part.subarray(0, KEPT_EDGE_BYTES)]);
      this.reading = {
        kind: 'dropped',
        head: head.subarray(0, KEPT_EDGE_BYTES),
        tail: Buffer.from(before.subarray(Math.max(0, before.length - KEPT_EDGE_BYTES))),
        bytes: reading.bytes,
      };
    }
    const dropped = this.reading as Extract<Reading, { kind: 'dropped' }>;
    dropped.bytes += part.length;
    const tail = part.length >= KEPT_EDGE_BYTES ? part : Buffer.concat([dropped.tail, part]);
    dropped.tail = Buffer.from(tail.subarray(Math.max(0, tail.length - KEPT_EDGE_BYTES)));
  }

  private handleLine(raw: Buffer): void {
    const bytes = raw.length > 0 && raw[raw.length - 1] === 0x0d ? raw.subarray(0, -1) : raw;
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      this.refuse(
        undefined,
        PARSE_ERROR,
        'Parse error: the line is not valid UTF-8. Send each JSON-RPC message as one line of UTF-8 JSON.',
        {
          event: 'request_invalid',
          message: `a line of ${bytes.length} bytes that is not valid UTF-8 was refused (-32700)`,
        },
      );
      return;
    }
    // a blank line is skipped (a JSON-RPC message, the usual line, starts with its brace: nothing to trim)
    if (text.charCodeAt(0) !== 0x7b && text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.refuse(undefined, PARSE_ERROR, 'Parse error: the line is not JSON. Send each JSON-RPC message as one line of JSON.', {
        event: 'request_invalid',
        message: `a line of ${bytes.length} bytes that is not JSON was refused (-32700)`,
      });
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch {
      this.refuseShape(value, bytes.length);
      return;
    }
    this.onmessage?.(message);
  }

  /** JSON that is not a JSON-RPC message: requests (and what cannot be told apart from one) get -32600. */
  private refuseShape(value: unknown, bytes: number): void {
    if (Array.isArray(value)) {
      this.refuse(undefined, INVALID_REQUEST, 'Invalid Request: batches (JSON arrays) are not part of MCP; send one message a line.', {
        event: 'request_invalid',
        message: `a JSON array (batch) of ${bytes} bytes was refused (-32600)`,
      });
      return;
    }
    const object = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    const isResponse = object !== undefined && !('method' in object) && ('result' in object || 'error' in object);
    const isNotification = object !== undefined && 'method' in object && !('id' in object);
    if (isResponse || isNotification) {
      this.log({
        level: 'warn',
        event: 'request_invalid',
        message: `a malformed JSON-RPC ${isResponse ? 'response' : 'notification'} of ${bytes} bytes was ignored (it gets no reply)`,
      });
      return;
    }
    const id = object ? requestIdOf(object.id) : undefined;
    this.refuse(
      id,
      INVALID_REQUEST,
      'Invalid Request: not a JSON-RPC 2.0 message. A request needs "jsonrpc": "2.0", an "id" (a string or an integer) and a "method" (a string); "params", when present, is an object.',
      { event: 'request_invalid', message: `a JSON line of ${bytes} bytes that is not a JSON-RPC message was refused (-32600)` },
    );
  }

  private handleDropped(line: Extract<Reading, { kind: 'dropped' }>): void {
    const shape = oversizedLineShape(line.head.toString('utf8'), line.tail.toString('utf8'));
    const sizes = `${line.bytes} bytes, over this server's limit of ${this.maxLineBytes} bytes (ROUNDTRIP_MAX_REQUEST_BYTES)`;
    const answered = shape.kind === 'request' || shape.kind === 'unknown';
    const entry = {
      event: 'request_too_large' as const,
      message: `a ${shape.kind === 'unknown' ? 'line' : shape.kind} of ${sizes} was dropped unread${
        answered ? `; answered ${shape.id === undefined ? 'without an id' : `request id ${JSON.stringify(shape.id)}`} with -32600` : ''
      }${shape.kind === 'response' ? '; the request it answers gets no answer and will time out' : ''}`,
    };
    if (!answered) {
      this.log({ level: 'warn', ...entry });
      return;
    }
    this.refuse(
      shape.id,
      INVALID_REQUEST,
      `Request too large: ${sizes}. Nothing of it was read. Send less in one request (shorter arguments or answers), or have the server's operator raise ROUNDTRIP_MAX_REQUEST_BYTES.`,
      entry,
    );
  }

  private refuse(id: RequestId | undefined, code: number, text: string, logged: { event: LogEventName; message: string }): void {
    this.log({ level: 'warn', ...logged });
    const reply = { jsonrpc: '2.0' as const, ...(id !== undefined && { id }), error: { code, message: text } };
    // an error reply without an id is what the MCP schema allows for "id unknown"
    this.send(reply as JSONRPCMessage).catch((error: unknown) => this.onerror?.(error instanceof Error ? error : new Error(String(error))));
  }
}
