/**
 * What the screening of a request reads: its method, its absolute URL and its headers, never its body.
 * A web `Request` is one; on Node, the listener reads them off the `IncomingMessage` without building a
 * `Request` (undici's headers and request objects cost more than the checks that read them).
 */
export interface RequestHead {
  readonly method: string;
  /** The absolute URL, as `Request.url` gives it. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
}
