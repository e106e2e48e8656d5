/**
 * Thrown when a tool is defined or configured in a way the engine cannot serve. Aimed at the tool's
 * author: the message names the tool, the state or key, the rule, and the fix.
 */
export class RoundtripDefinitionError extends Error {
  override readonly name = 'RoundtripDefinitionError';
  readonly code: RoundtripDefinitionErrorCode;

  constructor(code: RoundtripDefinitionErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export type RoundtripDefinitionErrorCode =
  | 'invalid_tool_name'
  | 'duplicate_tool'
  | 'invalid_ask_key'
  | 'unexpressible_schema'
  | 'unhandled_answer'
  | 'unnamed_invoke'
  | 'delayed_transition'
  | 'invalid_key'
  | 'invalid_option';
