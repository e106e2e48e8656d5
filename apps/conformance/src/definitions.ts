// Everything the conformance fixture serves, written with Roundtrip: declared flows where the fixture is
// forms in a row, machines where it is not (no questions, parallel regions, sampling and roots, long work
// answered as MCP tasks).
import type { PromptDefinition, ResourceDefinition, ToolDefinition } from '@roundtrip/engine';
import { contentTools } from './content-tools.ts';
import { flowPrompts, flowTools } from './flow-definitions.ts';
import { parallelQuestionTools } from './parallel-question-tools.ts';
import { prompts } from './prompts.ts';
import { resources } from './resources.ts';
import { singleQuestionTools } from './single-question-tools.ts';
import { statelessTools } from './stateless-tools.ts';
import { taskTools } from './task-tools.ts';

/** The server's name, as clients see it and as its request states are bound to. */
export const SERVER_NAME = 'roundtrip-conformance';

export interface ConformanceDefinitions {
  readonly tools: readonly ToolDefinition[];
  readonly prompts: readonly PromptDefinition[];
  readonly resources: readonly ResourceDefinition[];
}

/** The fixture's tools, prompts and resources, for createEngine. */
export const conformanceDefinitions: ConformanceDefinitions = {
  tools: [...contentTools, ...statelessTools, ...singleQuestionTools, ...parallelQuestionTools, ...flowTools, ...taskTools],
  prompts: [...prompts, ...flowPrompts],
  resources,
};
