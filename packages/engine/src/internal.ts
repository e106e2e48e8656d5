// @roundtrip/engine/internal: the engine's parts for its own benchmarks and tools. Not a public API:
// anything here may change in any release without notice.

export { activeQuestions } from './active-questions.ts';
export type { CompiledMachine } from './compile-machine.ts';
export { compileMachine } from './compile-machine.ts';
export type { DefinitionInternals } from './definition-internals.ts';
export { internalsOf } from './definition-internals.ts';
export { digestBytes } from './digest.ts';
export { setEffectScope } from './effect-scope.ts';
export type { MigrationPlan } from './machine-migrations.ts';
export { migrateSnapshot, planMigrations } from './machine-migrations.ts';
export { readAnswer } from './read-answer.ts';
export { openState, sealState } from './sealed-state.ts';
export { settleActor } from './settle-actor.ts';
export { actorFor, compactSnapshot } from './snapshot-codec.ts';
export type { CompactSnapshot, MachineIdentity, StateEnvelope } from './state-envelope.ts';
export { checkEnvelope, decodeEnvelope, ENVELOPE_VERSION, encodeEnvelope, MAX_MACHINE_VERSION_BYTES, TAG_BYTES } from './state-envelope.ts';
