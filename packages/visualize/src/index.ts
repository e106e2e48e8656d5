// @roundtrip/visualize: every Roundtrip machine as files people and Stately can open: the machine config
// as JSON, TypeScript for Stately's code import, a Mermaid diagram and an SVG drawn offline (elkjs).

export { toMachineCode } from './machine-code.ts';
export type { Definition, MachineExport, MachinePart } from './machine-export.ts';
export { exportMachine } from './machine-export.ts';
export { toMermaid } from './mermaid.ts';
export { toSvg } from './svg.ts';
export type { MachineFilesReport } from './write-machine-files.ts';
export { writeMachineFiles } from './write-machine-files.ts';
