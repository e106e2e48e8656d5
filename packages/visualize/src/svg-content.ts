// What each box of the SVG says, line by line, and the size that fits it: the layout sizes boxes from
// these lines and the drawing writes the same lines, so the text always fits its box.
import type { StateModel } from './svg-model.ts';
import { oneLine, textWidth, truncate } from './svg-text.ts';

export type LineStyle = 'name' | 'ask' | 'message' | 'invoke' | 'stay' | 'header' | 'label';

export interface Line {
  readonly text: string;
  readonly style: LineStyle;
}

/** Font size in pixels and line height of each style. */
export const LINE_METRICS: Readonly<Record<LineStyle, { readonly size: number; readonly height: number }>> = {
  name: { size: 14, height: 22 },
  header: { size: 13, height: 20 },
  ask: { size: 12, height: 18 },
  message: { size: 11, height: 16 },
  invoke: { size: 11, height: 17 },
  stay: { size: 10.5, height: 15 },
  label: { size: 11, height: 14 },
};

const MAX_NAME_CHARS = 40;
const MESSAGE_LINE_CHARS = 42;
const MESSAGE_LINES = 2;
/** Space between a box's border and its text. */
export const BOX_PADDING = { x: 14, y: 8 } as const;
const MIN_BOX = { width: 96, height: 40 } as const;
/** The gap between a final state's two borders. */
export const FINAL_INSET = 6;
/** Space between a compound box's border and its header lines. */
export const HEADER_PADDING = { x: 12, y: 6 } as const;

/** Question key → message, and question key → its form's field titles, as `toSvg` takes them. */
export interface Questions {
  readonly messages: Readonly<Record<string, string>>;
  readonly fields: Readonly<Record<string, readonly string[]>>;
}

/** `text` broken at spaces into lines of at most `width` characters; past `maxLines`, the last is cut. */
function wrap(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const joined = current === '' ? word : `${current} ${word}`;
    if (current === '' || [...joined].length <= width) current = joined;
    else {
      lines.push(current);
      current = word;
    }
  }
  lines.push(current);
  const kept = lines.slice(0, maxLines);
  if (lines.length > maxLines) kept[maxLines - 1] = lines.slice(maxLines - 1).join(' ');
  return kept.map((line) => truncate(line, width));
}

/** The lines of a state drawn as a box: its name, the questions it asks, the actors it invokes, what keeps it there. */
export function boxLines(state: StateModel, questions: Questions): Line[] {
  const lines: Line[] = [{ text: truncate(oneLine(state.key), MAX_NAME_CHARS), style: 'name' }];
  if (state.kind === 'history') lines.push({ text: '(history)', style: 'invoke' });
  for (const key of state.asks) {
    lines.push({ text: `? ${truncate(oneLine(key), MAX_NAME_CHARS)}`, style: 'ask' });
    const message = questions.messages[key];
    const text = message === undefined ? '' : oneLine(message);
    if (text !== '') for (const part of wrap(`“${text}”`, MESSAGE_LINE_CHARS, MESSAGE_LINES)) lines.push({ text: part, style: 'message' });
    const fields = questions.fields[key] ?? [];
    if (fields.length > 0)
      for (const part of wrap(oneLine(`fields: ${fields.join(', ')}`), MESSAGE_LINE_CHARS, MESSAGE_LINES))
        lines.push({ text: part, style: 'message' });
  }
  for (const src of state.invokes) lines.push({ text: `invoke ${truncate(oneLine(src), MAX_NAME_CHARS)}`, style: 'invoke' });
  for (const label of state.stays) lines.push({ text: `↺ ${label}`, style: 'stay' });
  return lines;
}

/** The header of a compound state: its name (`parallel` for parallel states), then what a box would list. */
export function headerLines(state: StateModel, questions: Questions): Line[] {
  const [name, ...details] = boxLines(state, questions);
  const text = name?.text ?? '';
  return [{ text: state.kind === 'parallel' ? `${text} (parallel)` : text, style: 'header' }, ...details];
}

/** The width and height that fit `lines` inside a box's padding. */
export function linesSize(lines: readonly Line[], padding: { readonly x: number; readonly y: number } = BOX_PADDING) {
  let width = 0;
  let height = 0;
  for (const line of lines) {
    const metrics = LINE_METRICS[line.style];
    width = Math.max(width, textWidth(line.text, metrics.size));
    height += metrics.height;
  }
  return { width: Math.ceil(width + 2 * padding.x), height: Math.ceil(height + 2 * padding.y) };
}

/** The size of a state's box: its lines, at least the smallest box. */
export function boxSize(lines: readonly Line[]): { width: number; height: number } {
  const fit = linesSize(lines);
  return { width: Math.max(MIN_BOX.width, fit.width), height: Math.max(MIN_BOX.height, fit.height) };
}
