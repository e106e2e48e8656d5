// The SVG elements of a laid-out machine: state boxes (double border for final states, dashed for the
// regions of parallel states), initial dots, routed edges with arrowheads, and edge labels on a light
// background. Styles are presentation attributes, so any SVG reader draws them alike.
import type { ElkPoint } from 'elkjs/lib/elk-api.js';
import type { Box, PlacedEdge, PlacedState } from './layout.ts';
import { BOX_PADDING, FINAL_INSET, HEADER_PADDING, LINE_METRICS, type Line, type LineStyle } from './svg-content.ts';
import { escapeXml, num } from './svg-text.ts';

const ARROW_ID = 'roundtrip-arrow';
const CORNER = 8;

interface Look {
  readonly fill: string;
  readonly weight?: number;
  readonly italic?: boolean;
}

const LOOKS: Readonly<Record<LineStyle, Look>> = {
  name: { fill: '#0f172a', weight: 700 },
  header: { fill: '#0f172a', weight: 700 },
  ask: { fill: '#1d4ed8', weight: 700 },
  message: { fill: '#334155', italic: true },
  invoke: { fill: '#7c2d12' },
  stay: { fill: '#64748b' },
  label: { fill: '#1e293b' },
};

/** One line of text with its baseline in the middle of a line of its style starting at `top`. */
function text(line: Line, x: number, top: number, anchor: 'start' | 'middle'): string {
  const { size, height } = LINE_METRICS[line.style];
  const look = LOOKS[line.style];
  const attributes = [
    `x="${num(x)}"`,
    `y="${num(top + height / 2 + size * 0.35)}"`,
    `font-size="${size}"`,
    `fill="${look.fill}"`,
    anchor === 'middle' ? 'text-anchor="middle"' : '',
    look.weight ? `font-weight="${look.weight}"` : '',
    look.italic ? 'font-style="italic"' : '',
  ].filter((a) => a !== '');
  return `<text ${attributes.join(' ')}>${escapeXml(line.text)}</text>`;
}

const rect = (b: Box, radius: number, paint: string) =>
  `<rect x="${num(b.x)}" y="${num(b.y)}" width="${num(b.width)}" height="${num(b.height)}" rx="${radius}" ${paint}/>`;

function classOf(placed: PlacedState): string {
  const { state } = placed;
  const names = ['state', state.kind];
  if (state.region) names.push('region');
  if (state.asks.length > 0) names.push('asks');
  return names.join(' ');
}

function compoundPaint(placed: PlacedState, root: boolean): string {
  if (placed.state.region) return 'fill="#ffffff" fill-opacity="0.6" stroke="#64748b" stroke-width="1.4" stroke-dasharray="7 4"';
  if (root) return 'fill="#ffffff" stroke="#cbd5e1" stroke-width="1.2"';
  return placed.state.kind === 'parallel'
    ? 'fill="#f1f5f9" stroke="#475569" stroke-width="1.5"'
    : 'fill="#f8fafc" stroke="#94a3b8" stroke-width="1.4"';
}

/** A state's group: its box, its lines; a compound state's box with its header (children are drawn later). */
export function drawState(placed: PlacedState, root: boolean): string {
  const { state, lines } = placed;
  const parts: string[] = [];
  if (placed.compound) {
    parts.push(rect(placed, 10, compoundPaint(placed, root)));
    let top = placed.y + HEADER_PADDING.y;
    for (const line of lines) {
      parts.push(text(line, placed.x + HEADER_PADDING.x, top, 'start'));
      top += LINE_METRICS[line.style].height;
    }
  } else {
    const asks = state.asks.length > 0;
    const paint = asks ? 'fill="#eff6ff" stroke="#2563eb" stroke-width="1.6"' : 'fill="#ffffff" stroke="#334155" stroke-width="1.6"';
    parts.push(rect(placed, CORNER, paint));
    if (state.kind === 'final') {
      const inner = {
        x: placed.x + FINAL_INSET,
        y: placed.y + FINAL_INSET,
        width: placed.width - 2 * FINAL_INSET,
        height: placed.height - 2 * FINAL_INSET,
      };
      parts.push(rect(inner, CORNER - 3, 'fill="none" stroke="#334155" stroke-width="1.6"'));
    }
    const height = lines.reduce((sum, line) => sum + LINE_METRICS[line.style].height, 0);
    let top = placed.y + Math.max(BOX_PADDING.y, (placed.height - height) / 2);
    for (const line of lines) {
      parts.push(text(line, placed.x + placed.width / 2, top, 'middle'));
      top += LINE_METRICS[line.style].height;
    }
  }
  return `<g class="${classOf(placed)}" data-state="${escapeXml(state.id)}">${parts.join('')}</g>`;
}

/** The dot that marks where a compound state (or the machine) starts. */
export function drawDot(dot: Box): string {
  const r = Math.min(dot.width, dot.height) / 2 - 1;
  return `<circle class="initial" cx="${num(dot.x + dot.width / 2)}" cy="${num(dot.y + dot.height / 2)}" r="${num(r)}" fill="#0f172a"/>`;
}

const distance = (a: ElkPoint, b: ElkPoint) => Math.hypot(b.x - a.x, b.y - a.y);
const toward = (from: ElkPoint, to: ElkPoint, length: number): ElkPoint => {
  const d = distance(from, to);
  return d === 0 ? from : { x: from.x + ((to.x - from.x) * length) / d, y: from.y + ((to.y - from.y) * length) / d };
};
const point = (p: ElkPoint) => `${num(p.x)} ${num(p.y)}`;

/** A route as a path whose bends are rounded. */
function routePath(points: readonly ElkPoint[]): string {
  const [first, ...rest] = points;
  if (!first || rest.length === 0) return '';
  let d = `M${point(first)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const prev = points[i - 1]!;
    const bend = points[i]!;
    const next = points[i + 1]!;
    const radius = Math.min(CORNER, distance(prev, bend) / 2, distance(bend, next) / 2);
    d += ` L${point(toward(bend, prev, radius))} Q${point(bend)} ${point(toward(bend, next, radius))}`;
  }
  return `${d} L${point(points[points.length - 1]!)}`;
}

/** An edge's route with its arrowhead. */
export function drawEdge(edge: PlacedEdge): string {
  const d = routePath(edge.points);
  if (d === '') return '';
  const look = edge.initial ? 'stroke="#0f172a" stroke-width="1.4"' : 'stroke="#64748b" stroke-width="1.4"';
  return `<path class="${edge.initial ? 'edge initial' : 'edge'}" d="${d}" fill="none" ${look} marker-end="url(#${ARROW_ID})"/>`;
}

/** An edge's label: each line on a light background, so crossing routes stay readable. */
export function drawLabel(edge: PlacedEdge): string {
  const label = edge.label;
  if (!label) return '';
  const parts = [rect(label, 3, 'fill="#ffffff" fill-opacity="0.92" stroke="#e2e8f0" stroke-width="0.8"')];
  let top = label.y + 2;
  for (const lineText of label.lines) {
    parts.push(text({ text: lineText, style: 'label' }, label.x + 4, top, 'start'));
    top += LINE_METRICS.label.height;
  }
  return `<g class="label">${parts.join('')}</g>`;
}

/** The arrowhead every edge ends with. */
export function arrowMarker(): string {
  return (
    `<marker id="${ARROW_ID}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" markerUnits="userSpaceOnUse" orient="auto">` +
    '<path d="M0 1 L9 5 L0 9 Z" fill="#475569"/></marker>'
  );
}
