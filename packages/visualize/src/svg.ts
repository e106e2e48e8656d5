// A machine config drawn as a standalone SVG, offline: laid out by ELK (elkjs, no browser), every text
// escaped, no fonts or scripts to fetch. The same config always gives the same bytes.
import { layoutMachine } from './layout.ts';
import { arrowMarker, drawDot, drawEdge, drawLabel, drawState } from './svg-draw.ts';
import { type MachineJson, readMachine } from './svg-model.ts';
import { escapeXml, FONT_FAMILY, num } from './svg-text.ts';

export interface SvgOptions {
  /** Question key → message, shown (shortened) under each key a state asks. */
  readonly questions?: Readonly<Record<string, string>>;
  /** Question key → the titles of its form's fields, listed under the question in each state that asks it. */
  readonly fields?: Readonly<Record<string, readonly string[]>>;
  /**
   * A guard's `condition` param (its JSON text) → the condition in words, drawn in the guard's label
   * (`MachineExport.conditions`); a condition not listed is left out of the label.
   */
  readonly conditions?: Readonly<Record<string, string>>;
}

/**
 * Draws a machine config (plain JSON, XState v5) as an SVG document: nested and parallel states as
 * boxes inside boxes (parallel regions dashed), asking states with their question keys and messages,
 * final states with a double border, initial states marked by a dot, transitions as arrows labelled
 * `event [guard]` (`always` when eventless). Throws when a transition targets no state of the machine.
 *
 * @example
 * const svg = await toSvg(exportMachine(tool).config, { questions: { confirm: 'Refund {{amount}}?' } });
 */
export async function toSvg(config: MachineJson, options: SvgOptions = {}): Promise<string> {
  const model = readMachine(config, options.conditions);
  const layout = await layoutMachine(model, { messages: options.questions ?? {}, fields: options.fields ?? {} });
  const { width, height } = layout;
  const body = [
    ...layout.states.map((placed) => drawState(placed, placed.state === model.root)),
    ...layout.edges.map(drawEdge),
    ...layout.dots.map(drawDot),
    ...layout.edges.map(drawLabel),
  ].filter((part) => part !== '');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" data-machine="${escapeXml(model.root.id)}" font-family="${escapeXml(FONT_FAMILY)}">`,
    `<title>${escapeXml(model.root.id)}</title>`,
    `<defs>${arrowMarker()}</defs>`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}
