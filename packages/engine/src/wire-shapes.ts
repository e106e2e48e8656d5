/**
 * The MCP 2026-07-28 wire shapes the engine produces and reads. The engine does not import an SDK;
 * a transport maps these plain objects onto its own types.
 */

type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** One option of a titled select: the value the answer carries and the label the user sees. */
type TitledOption = { const: string; title: string };

/**
 * One property of a restricted elicitation form (flat, primitive): a string, a number, a boolean, a
 * single select (plain `enum`, or `oneOf` titled options) or a multi select (items a plain `enum`, or
 * `anyOf` titled options).
 */
export type ElicitationProperty =
  | {
      type: 'string';
      title?: string;
      description?: string;
      minLength?: number;
      maxLength?: number;
      format?: 'email' | 'uri' | 'date' | 'date-time';
      default?: string;
    }
  | { type: 'string'; title?: string; description?: string; enum: string[]; default?: string }
  | { type: 'string'; title?: string; description?: string; oneOf: TitledOption[]; default?: string }
  | { type: 'number' | 'integer'; title?: string; description?: string; minimum?: number; maximum?: number; default?: number }
  | { type: 'boolean'; title?: string; description?: string; default?: boolean }
  | {
      type: 'array';
      title?: string;
      description?: string;
      minItems?: number;
      maxItems?: number;
      items: { type: 'string'; enum: string[] };
      default?: string[];
    }
  | {
      type: 'array';
      title?: string;
      description?: string;
      minItems?: number;
      maxItems?: number;
      items: { anyOf: TitledOption[] };
      default?: string[];
    };

/** `requestedSchema` of a form elicitation. */
export type ElicitationSchema = {
  type: 'object';
  properties: Record<string, ElicitationProperty>;
  required?: string[];
};

/** An `elicitation/create` input request as it travels inside `inputRequests`. */
export type ElicitInputRequest = {
  method: 'elicitation/create';
  params:
    | { mode: 'form'; message: string; requestedSchema: ElicitationSchema }
    // elicitationId: 2026-07-28 dropped it, but the SDK's types and older clients still require one
    | { mode: 'url'; message: string; url: string; elicitationId: string };
};

/** Text for the model (and the user). */
export type TextContent = { type: 'text'; text: string };

/** An image: base64 bytes and their MIME type (`image/png`). */
export type ImageContent = { type: 'image'; data: string; mimeType: string };

/** A sound: base64 bytes and their MIME type (`audio/wav`). */
export type AudioContent = { type: 'audio'; data: string; mimeType: string };

/** A resource's contents carried inside a result or a message. */
export type EmbeddedResource = { type: 'resource'; resource: ResourceContents };

/** A pointer to a resource the client may read (not its contents). */
export type ResourceLink = { type: 'resource_link'; uri: string; name: string; title?: string; description?: string; mimeType?: string };

/** One block of a tool result or of a prompt message. */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/** A final `tools/call` result: the text for the model first, then any images, sounds and resources. */
export type CallToolResult = {
  content: ContentBlock[];
  structuredContent?: JsonObject;
  isError?: boolean;
};

/** One message of a `sampling/createMessage` request: what the client's model reads. */
export type SamplingMessage = { role: 'user' | 'assistant'; content: TextContent | ImageContent | AudioContent };

/** The params of a `sampling/createMessage` request (deprecated by MCP 2026-07-28, kept for compatibility). */
export type SamplingRequest = {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  modelPreferences?: JsonObject;
  metadata?: JsonObject;
};

/** A `sampling/createMessage` input request: the client's model answers. */
export type SamplingInputRequest = { method: 'sampling/createMessage'; params: SamplingRequest };

/** A `roots/list` input request: the client names the roots (folders) it exposes. */
export type RootsInputRequest = { method: 'roots/list'; params: Record<string, never> };

/** One input request of an `input_required` result, by kind. */
export type InputRequest = ElicitInputRequest | SamplingInputRequest | RootsInputRequest;

/** The client capabilities one request declared (only the parts the engine reads). */
export type ClientCapabilities = {
  elicitation?: { form?: object; url?: object };
  sampling?: object;
  roots?: object;
  [key: string]: unknown;
};

/** JSON Schema of a tool's arguments, as `tools/list` carries it. */
export type ToolInputSchema = { type: 'object' } & JsonObject;

/** Hints about a tool's behaviour, as `tools/list` carries them. Hosts use them to decide when to ask the user. */
export type ToolAnnotations = {
  /** A title for people (overrides the tool's `title` in some hosts). */
  title?: string;
  /** The tool changes nothing. @defaultValue false */
  readOnlyHint?: boolean;
  /** The tool may destroy or irreversibly change things (refunds, deletes). Meaningful when not read-only. @defaultValue true */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. @defaultValue false */
  idempotentHint?: boolean;
  /** The tool reaches an open world (the web) rather than a closed set of records. @defaultValue true */
  openWorldHint?: boolean;
};

/** One message of a `prompts/get` result. */
export type PromptMessage = { role: 'user' | 'assistant'; content: ContentBlock };

/** A final `prompts/get` result. */
export type GetPromptResult = { description?: string; messages: PromptMessage[] };

/** One item of a `resources/read` result: text or base64 bytes. */
export type ResourceContents = { uri: string; mimeType?: string } & ({ text: string } | { blob: string });

/** How long a result may be kept, and by whom (`public`: shared caches too; `private`: the requesting client only). */
export type CacheHint = { ttlMs: number; cacheScope: 'public' | 'private' };

/** A final `resources/read` result; the caching hint only when the resource declares one. */
export type ReadResourceResult = { contents: ResourceContents[] } & Partial<CacheHint>;

/** A `completion/complete` result: at most 100 values, the total when more were found. */
export type CompleteResult = { completion: { values: string[]; total?: number; hasMore?: boolean } };
