// The SVG's layout, by ELK's layered algorithm (elkjs, in process): one node per state sized to its
// text, compound nodes for nested and parallel states, one edge per source and target with all their
// labels, and a dot with an edge to each initial state. Every coordinate comes back absolute.
import ElkModule from 'elkjs/lib/elk.bundled.js';
import type { ELK, ElkExtendedEdge, ElkNode, ElkPoint, LayoutOptions } from 'elkjs/lib/elk-api.js';
import { backEdges, edgeKey } from './layout-order.ts';
import { boxLines, boxSize, FINAL_INSET, HEADER_PADDING, headerLines, type Line, linesSize, type Questions } from './svg-content.ts';
import type { MachineModel, StateModel } from './svg-model.ts';

export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PlacedState extends Box {
  readonly state: StateModel;
  /** A box with children (its lines are its header), or a box of its own lines. */
  readonly compound: boolean;
  readonly lines: readonly Line[];
}

export interface PlacedEdge {
  /** The route: start, bends, end (the end on the target's border). */
  readonly points: readonly ElkPoint[];
  readonly label: (Box & { readonly lines: readonly string[] }) | undefined;
  /** An edge from an initial-state dot. */
  readonly initial: boolean;
}

interface Layout {
  readonly width: number;
  readonly height: number;
  /** Parents before their children, so drawing in this order puts children on top. */
  readonly states: readonly PlacedState[];
  readonly dots: readonly Box[];
  readonly edges: readonly PlacedEdge[];
}

const DOT = 14;
const MARGIN = 8;
const GRAPH_ID = '(graph)';

const GRAPH_OPTIONS: LayoutOptions = {
  'elk.algorithm': 'layered',
  'elk.direction': 'DOWN',
  'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
  'elk.edgeRouting': 'ORTHOGONAL',
  'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
  'elk.layered.spacing.nodeNodeBetweenLayers': '44',
  'elk.layered.spacing.edgeNodeBetweenLayers': '16',
  'elk.spacing.nodeNode': '36',
  'elk.spacing.edgeNode': '16',
  'elk.spacing.edgeEdge': '12',
  'elk.spacing.edgeLabel': '4',
  'elk.edgeLabels.placement': 'CENTER',
  'elk.edgeLabels.inline': 'true',
  'elk.padding': '[top=16,left=16,bottom=16,right=16]',
  'org.eclipse.elk.json.shapeCoords': 'ROOT',
  'org.eclipse.elk.json.edgeCoords': 'ROOT',
};

// an edge's label sits on its route, so each label reads as belonging to its arrow
const LABEL_OPTIONS: LayoutOptions = { 'elk.edgeLabels.inline': 'true' };
const LABEL_PADDING = { x: 4, y: 2 } as const;

let elk: ELK | undefined;
// one ELK for the process: starting it costs more than laying out a machine
const elkInstance = (): ELK => {
  elk ??= new ElkModule.default();
  return elk;
};

// ELK's ids, apart from each other whatever the state names: states, initial dots, transition edges
const nodeId = (stateId: string) => `s:${stateId}`;
const dotId = (state: StateModel) => `i:${state.id}`;

/** What the drawing needs of a transition edge besides its route: its label lines, whether ELK saw it reversed. */
interface EdgeInfo {
  readonly labels: readonly string[];
  readonly reversed: boolean;
}

interface Built {
  readonly graph: ElkNode;
  readonly lines: Map<string, readonly Line[]>;
  readonly edges: Map<string, EdgeInfo>;
}

function stateNode(state: StateModel, questions: Questions, lines: Map<string, readonly Line[]>): ElkNode {
  if (state.children.length === 0) {
    const own = boxLines(state, questions);
    lines.set(state.id, own);
    const size = boxSize(own);
    const inset = state.kind === 'final' ? 2 * FINAL_INSET : 0;
    return { id: nodeId(state.id), width: size.width + inset, height: size.height + inset };
  }
  const header = headerLines(state, questions);
  lines.set(state.id, header);
  const fit = linesSize(header, HEADER_PADDING);
  const children = state.children.map((child) => stateNode(child, questions, lines));
  if (state.initial !== undefined) children.unshift({ id: dotId(state), width: DOT, height: DOT });
  return {
    id: nodeId(state.id),
    children,
    layoutOptions: {
      'elk.padding': `[top=${fit.height + 8},left=16,bottom=16,right=16]`,
      'elk.nodeSize.constraints': 'MINIMUM_SIZE',
      'elk.nodeSize.minimum': `(${fit.width}, ${fit.height + 32})`,
    },
  };
}

function initialEdges(state: StateModel, edges: ElkExtendedEdge[]): void {
  if (state.initial !== undefined) edges.push({ id: `e:${dotId(state)}`, sources: [dotId(state)], targets: [nodeId(state.initial)] });
  for (const child of state.children) initialEdges(child, edges);
}

function buildGraph(model: MachineModel, questions: Questions): Built {
  const lines = new Map<string, readonly Line[]>();
  const infos = new Map<string, EdgeInfo>();
  const edges: ElkExtendedEdge[] = [];
  initialEdges(model.root, edges);
  // one edge per source and target, carrying every label between them
  const merged = new Map<string, { source: string; target: string; labels: string[] }>();
  for (const { source, target, label } of model.transitions) {
    const key = edgeKey(source, target);
    const edge = merged.get(key) ?? { source, target, labels: [] };
    if (!edge.labels.includes(label)) edge.labels.push(label);
    merged.set(key, edge);
  }
  const back = backEdges(model);
  let index = 0;
  for (const [key, { source, target, labels }] of merged) {
    const id = `t:${index++}`;
    const reversed = back.has(key);
    infos.set(id, { labels, reversed });
    const size = linesSize(
      labels.map((text) => ({ text, style: 'label' })),
      LABEL_PADDING,
    );
    const label = { id: `${id}:label`, layoutOptions: LABEL_OPTIONS, text: labels.join('\n'), width: size.width, height: size.height };
    const [from, to] = reversed ? [target, source] : [source, target];
    edges.push({ id, sources: [nodeId(from)], targets: [nodeId(to)], labels: [label] });
  }
  const graph: ElkNode = { id: GRAPH_ID, layoutOptions: GRAPH_OPTIONS, children: [stateNode(model.root, questions, lines)], edges };
  return { graph, lines, edges: infos };
}

const box = (shape: { x?: number; y?: number; width?: number; height?: number }): Box => ({
  x: shape.x ?? 0,
  y: shape.y ?? 0,
  width: shape.width ?? 0,
  height: shape.height ?? 0,
});

function placedEdge(edge: ElkExtendedEdge, info: EdgeInfo | undefined): PlacedEdge {
  const route = (edge.sections ?? []).flatMap((section) => [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]);
  const points = route.map(({ x, y }) => ({ x, y }));
  const shape = edge.labels?.[0];
  return {
    points: info?.reversed ? points.reverse() : points,
    label: info && shape ? { ...box(shape), lines: info.labels } : undefined,
    initial: info === undefined,
  };
}

/** Lays the machine out: positions and sizes of every state box, initial dot, edge route and label. */
export async function layoutMachine(model: MachineModel, questions: Questions): Promise<Layout> {
  const { graph, lines, edges: infos } = buildGraph(model, questions);
  const states = new Map<string, StateModel>();
  const index = (state: StateModel) => {
    states.set(nodeId(state.id), state);
    state.children.forEach(index);
  };
  index(model.root);
  const result = await elkInstance().layout(graph);
  const placed: PlacedState[] = [];
  const dots: Box[] = [];
  const edges: PlacedEdge[] = [];
  const visit = (node: ElkNode) => {
    const state = states.get(node.id);
    if (state) placed.push({ ...box(node), state, compound: state.children.length > 0, lines: lines.get(state.id) ?? [] });
    else if (node.id !== GRAPH_ID) dots.push(box(node));
    for (const edge of node.edges ?? []) edges.push(placedEdge(edge, infos.get(edge.id)));
    for (const child of node.children ?? []) visit(child);
  };
  visit(result);
  // ELK's size holds everything; the extent of what is drawn is the guarantee
  let width = result.width ?? 0;
  let height = result.height ?? 0;
  const extend = (x: number, y: number) => {
    width = Math.max(width, x + MARGIN);
    height = Math.max(height, y + MARGIN);
  };
  for (const shape of [...placed, ...dots, ...edges.flatMap((edge) => (edge.label ? [edge.label] : []))]) {
    extend(shape.x + shape.width, shape.y + shape.height);
  }
  for (const edge of edges) for (const p of edge.points) extend(p.x, p.y);
  return { width, height, states: placed, dots, edges };
}
