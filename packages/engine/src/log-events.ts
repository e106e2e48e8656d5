// Every event name a Roundtrip server writes to its log, in one union: what the engine logs about rounds, states,
// effects and tasks, and what a server and its transports log about starting, settings, requests and stopping. A
// log sink can switch on `entry.event` and the compiler lists what it may be; a new event is added here first.
import type { EngineEvent } from './engine-events.ts';

/** The engine's events that carry a stable code (engine-events.ts says each one's fields). */
type CodedEngineEventName = EngineEvent['event'];

/** The engine's other events: the round's own notes, the author's `log` calls, a hook that failed. */
type EngineNoteName =
  | 'engine_error'
  | 'machine_log'
  | 'machine_error'
  | 'machine_stuck'
  | 'result_error'
  | 'run_complete'
  | 'settle_timeout'
  | 'request_cancelled'
  | 'progress_failed'
  | 'completion_failed'
  | 'inspect_failed';

/** What a Node server (stdio, HTTP) and its transports log. */
export type ServerEventName =
  /** the startup line, and a server stopping or stopped */
  | 'started'
  | 'stopping'
  | 'stopped'
  /** a setting named at start: unknown variables, key files readable by others, a bind decision */
  | 'settings'
  /** what the SDK reports out of band (a malformed message, a failed notification) */
  | 'protocol'
  /** a request refused before it is served: Host/Origin, size, body, token */
  | 'request_refused'
  | 'request_invalid'
  | 'request_too_large'
  | 'auth_refused'
  | 'http'
  | 'http_error'
  /** the JWKS of the token issuer */
  | 'jwks_loaded'
  | 'jwks_unavailable'
  /** reporting to an inspector page, or to Stately's */
  | 'inspector'
  | 'stately'
  /** what definitions wrote with console.* while served over stdio */
  | 'console'
  /** 2025-era calls over HTTP: a call cancelled by its client's hang-up; an answer no call waits for, or not passed on */
  | 'legacy_call_cancelled'
  | 'answer_unclaimed'
  | 'answer_not_relayed';

/** Every event name in a Roundtrip server's log. */
export type LogEventName = CodedEngineEventName | EngineNoteName | ServerEventName;
