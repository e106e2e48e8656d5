// @roundtrip/visualize used as a library: the machine files of both tools, and one diagram on stdout.
import { exportMachine, toMermaid, writeMachineFiles } from '@roundtrip/visualize';
import { greetTool, planTrip } from './tools.js';

const report = await writeMachineFiles([greetTool, planTrip], { out: 'machines-from-code' });
if (report.refused.length > 0) throw new Error(report.refused.join('\n'));
process.stdout.write(toMermaid(exportMachine(greetTool).config));
