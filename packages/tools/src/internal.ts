// @roundtrip/tools/internal: the parts of a declared flow this package's siblings and tests read (the
// compiled JSON config, the machine rebuilt from it, question templates and fields, the user view,
// conditions in words). Not a public API: anything here may change in any release without notice.
// Exporters and diagrams read the engine's presentationOf(definition) instead.

export { describeCondition } from './conditions.ts';
export { flowMachineConfig, flowMachineFrom, flowQuestionFields, flowQuestionTemplates, isDeclaredFlow } from './flow-registry.ts';
export { flowUserView } from './flow-user-view.ts';
