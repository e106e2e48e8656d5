// The inspector page's script, as a string (plain browser JavaScript, no modules, nothing fetched but
// this inspector's own API): it draws the machines, lists every conversation with its rounds as they
// arrive over Server-Sent Events (polling /api/runs where there is no EventSource) with the reason of
// every question asked again, and marks in each machine's diagram the states its current conversation
// settled in. Diagrams keep their text readable (see fitDiagram). MCP tasks are listed by the part in
// inspector-tasks-script.ts, joined in here. Report data goes into the page as text, never as markup.
import { TASKS_SCRIPT } from './inspector-tasks-script.ts';

export const INSPECTOR_SCRIPT = String.raw`
'use strict';
const runs = new Map();
const machineCards = new Map();
let selected;
let tick = 0;
/** The smallest size, in CSS pixels, a diagram's body text is shown at. */
const MIN_TEXT_PX = 11;
const $ = (id) => document.getElementById(id);

function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== undefined) node.append(child);
  return node;
}
/** A state value as people read it: 'when', or one dotted path per active leaf of nested and parallel states. */
function stateText(value) {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value;
  const paths = [];
  const walk = (prefix, node) => {
    if (typeof node === 'string') paths.push(prefix + node);
    else if (node && typeof node === 'object' && !Array.isArray(node) && Object.keys(node).length > 0) {
      for (const [key, child] of Object.entries(node)) walk(prefix + key + '.', child);
    } else paths.push(prefix + JSON.stringify(node));
  };
  walk('', value);
  return paths.join('\n');
}
function answersText(answers) {
  const parts = Object.entries(answers || {}).map(([key, answer]) => {
    const fields = answer.fields;
    const shown = Array.isArray(fields) ? ' (' + fields.join(', ') + ')' : fields ? ' ' + JSON.stringify(fields) : '';
    return key + ': ' + answer.action + shown;
  });
  return parts.length ? parts.join('\n') : '—';
}
const listText = (items) => (items && items.length ? items.join('\n') : '—');
/** Text with a line-break chance after each dot, so a state path wraps between its parts rather than inside a name. */
const breakable = (text) => text.split(/(?<=\.)/).flatMap((part, i) => (i === 0 ? [part] : [el('wbr'), part]));
const roundKey = (round) => round.round + ':' + round.at + ':' + round.events.join(',');
${TASKS_SCRIPT}
const COLUMNS = ['n', 'from', 'answers', 'events', 'settled', 'asked', 'outcome'];
const HEADINGS = ['#', 'from', 'answers', 'events', 'settled in', 'asked', 'outcome'];

/** A round's row and, when it asks a question again, the row under it saying why. */
function roundRows(round, latest) {
  const reasked = round.reasked || {};
  const again = Object.keys(reasked);
  const row = el('tr', 'round outcome-' + round.outcome + (latest ? ' latest' : ''));
  row.dataset.round = String(round.round);
  const cells = [
    String(round.round),
    breakable(stateText(round.from)),
    answersText(round.answers),
    breakable(listText(round.events)),
    breakable(stateText(round.settled)),
    breakable(listText(round.asked.map((key) => (key in reasked ? key + ' (again)' : key)))),
    [round.outcome, el('span', 'at', '\n' + new Date(round.at).toLocaleTimeString())],
  ];
  cells.forEach((content, i) => row.append(el('td', COLUMNS[i], ...[].concat(content))));
  if (again.length === 0) return [row];
  const why = el('td', 'why', ...again.map((key) => el('div', '', el('strong', '', 'asked again · ' + key + ': '), reasked[key])));
  why.colSpan = COLUMNS.length;
  const reason = el('tr', 'reason' + (latest ? ' latest' : ''), why);
  reason.dataset.round = String(round.round);
  return [row, reason];
}

function runCard(run) {
  const last = run.rounds[run.rounds.length - 1];
  const card = el('article', 'run');
  card.dataset.run = run.run;
  card.dataset.machine = run.machine;
  const title = el('h3', '', el('span', 'target', run.target), ' ', el('code', 'run-id', run.run));
  const meta = el('p', 'meta', 'server ' + run.server + ' · ' + run.rounds.length + (run.rounds.length === 1 ? ' round' : ' rounds') + ' · ');
  meta.append(el('span', 'outcome outcome-' + (last ? last.outcome : ''), last ? last.outcome : ''));
  const columns = el('colgroup');
  for (const name of COLUMNS) columns.append(el('col', name));
  const head = el('tr');
  for (const name of HEADINGS) head.append(el('th', '', name));
  const body = el('tbody');
  for (const round of run.rounds) body.append(...roundRows(round, round === last));
  card.append(title, meta, el('table', 'rounds', columns, el('thead', '', head), body));
  card.addEventListener('click', () => {
    selected = selected === run.run ? undefined : run.run;
    renderAll();
  });
  return card;
}

function latestRun(filter) {
  let best;
  for (const run of runs.values()) if (filter(run) && (!best || run.tick > best.tick)) best = run;
  return best;
}
function currentRunId() {
  if (selected && runs.has(selected)) return selected;
  const latest = latestRun(() => true);
  return latest && latest.run;
}

/** The font size most of a diagram's text is drawn in (its body text), in its own units. */
function bodyFontSize(svg) {
  const counts = new Map();
  for (const text of svg.querySelectorAll('text[font-size]')) {
    const size = Number(text.getAttribute('font-size'));
    if (size > 0) counts.set(size, (counts.get(size) || 0) + 1);
  }
  let body = MIN_TEXT_PX;
  let most = 0;
  for (const [size, count] of counts) if (count > most || (count === most && size < body)) [body, most] = [size, count];
  return body;
}

/**
 * Sizes a diagram to its card: never larger than drawn (a small machine stays small), and never so small
 * that its body text reads under MIN_TEXT_PX: a larger diagram scrolls inside its card instead.
 */
function fitDiagram(svg) {
  const natural = svg.viewBox.baseVal;
  if (!natural || !natural.width) return;
  const smallest = Math.min(1, MIN_TEXT_PX / bodyFontSize(svg));
  svg.style.width = natural.width + 'px';
  svg.style.maxWidth = '100%';
  svg.style.minWidth = natural.width * smallest + 'px';
  svg.style.height = 'auto';
}

/** Lets the mouse drag a diagram larger than its card around (scroll bars and wheels work too). */
function pannable(diagram) {
  let from;
  const larger = () => diagram.scrollWidth > diagram.clientWidth || diagram.scrollHeight > diagram.clientHeight;
  diagram.addEventListener('pointerenter', () => diagram.classList.toggle('pannable', larger()));
  diagram.addEventListener('pointerdown', (event) => {
    if (!larger() || event.button !== 0) return;
    from = { x: event.clientX, y: event.clientY, left: diagram.scrollLeft, top: diagram.scrollTop };
    diagram.setPointerCapture(event.pointerId);
    diagram.classList.add('panning');
  });
  diagram.addEventListener('pointermove', (event) => {
    if (!from) return;
    diagram.scrollLeft = from.left - (event.clientX - from.x);
    diagram.scrollTop = from.top - (event.clientY - from.y);
  });
  const stop = () => {
    from = undefined;
    diagram.classList.remove('panning');
  };
  diagram.addEventListener('pointerup', stop);
  diagram.addEventListener('pointercancel', stop);
}

/** Scrolls a diagram so that the node stands in the middle of what shows (as far as the diagram goes). */
function reveal(diagram, node) {
  const frame = diagram.getBoundingClientRect();
  const box = node.getBoundingClientRect();
  diagram.scrollLeft += box.left + box.width / 2 - (frame.left + diagram.clientWidth / 2);
  diagram.scrollTop += box.top + box.height / 2 - (frame.top + diagram.clientHeight / 2);
}

function highlight() {
  const current = runs.get(currentRunId());
  for (const card of $('runs').children) card.classList.toggle('selected', Boolean(current) && card.dataset.run === current.run);
  for (const [machine, card] of machineCards) {
    const run = current && current.machine === machine ? current : latestRun((r) => r.machine === machine);
    for (const node of card.querySelectorAll('[data-state].current')) node.classList.remove('current');
    const where = card.querySelector('.where');
    card.style.order = run ? String(-run.tick) : '';
    card.classList.toggle('active', Boolean(run));
    if (!run) {
      where.textContent = '';
      delete card.dataset.shown;
      continue;
    }
    const last = run.rounds[run.rounds.length - 1];
    const marked = [];
    for (const id of last.active) {
      const node = card.querySelector('svg [data-state="' + CSS.escape(id) + '"]');
      if (node) marked.push(node);
    }
    for (const node of marked) node.classList.add('current');
    // a diagram larger than its card scrolls: bring where the conversation is into view, once per move
    const shown = last.active.join(' ');
    if (marked.length > 0 && card.dataset.shown !== shown) reveal(card.querySelector('.diagram'), marked[0]);
    card.dataset.shown = shown;
    where.textContent = 'run ' + run.run + ' · round ' + last.round + ' · in ' + (last.active.length ? last.active.join(', ') : stateText(last.settled));
  }
}

function renderRun(run) {
  const list = $('runs');
  const old = list.querySelector('[data-run="' + CSS.escape(run.run) + '"]');
  if (old) old.remove();
  list.prepend(runCard(run));
  $('no-runs').hidden = true;
}
function renderAll() {
  const ordered = [...runs.values()].sort((a, b) => a.tick - b.tick);
  for (const run of ordered) renderRun(run);
  highlight();
  $('no-runs').hidden = runs.size > 0;
}

/** Adds a round to its run; false when it is known already. */
function addRound(runId, server, round) {
  let run = runs.get(runId);
  if (!run) {
    run = { run: runId, server, target: round.target, machine: round.machine, rounds: [], tick: 0 };
    runs.set(runId, run);
  }
  const key = roundKey(round);
  if (run.rounds.some((known) => roundKey(known) === key)) return false;
  run.rounds.push(round);
  run.rounds.sort((a, b) => a.at - b.at);
  run.tick = ++tick;
  return true;
}

async function loadRuns() {
  const response = await fetch('/api/runs');
  const body = await response.json();
  let changed = false;
  for (const run of body.runs) for (const round of run.rounds) changed = addRound(run.run, run.server, round) || changed;
  if (changed) renderAll();
}

async function loadMachines() {
  const response = await fetch('/api/machines');
  const body = await response.json();
  const list = $('machines');
  for (const machine of body.machines) {
    const caption = el('figcaption', '', el('strong', '', machine.name), ' ', el('span', 'kind', machine.kind), el('span', 'where'));
    const diagram = el('div', 'diagram');
    if (machine.svg) {
      diagram.innerHTML = machine.svg;
      fitDiagram(diagram.querySelector('svg'));
      pannable(diagram);
    } else diagram.append(el('p', 'problem', 'Not drawn: ' + machine.problem));
    const card = el('figure', 'machine', caption, diagram);
    card.dataset.machine = machine.machine;
    machineCards.set(machine.machine, card);
    list.append(card);
  }
}

function live() {
  const status = $('status');
  if (!window.EventSource) {
    status.textContent = 'polling';
    setInterval(() => Promise.all([loadRuns(), loadTasks()]).catch(() => {}), 2000);
    return;
  }
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'status live';
    Promise.all([loadRuns(), loadTasks()]).catch(() => {});
  });
  events.addEventListener('error', () => {
    status.textContent = 'reconnecting…';
    status.className = 'status down';
  });
  events.addEventListener('round', (event) => {
    const { run, server, round } = JSON.parse(event.data);
    if (!addRound(run, server, round)) return;
    renderRun(runs.get(run));
    highlight();
  });
  events.addEventListener('task', (event) => {
    if (addTask(JSON.parse(event.data))) renderTasks();
  });
}

$('address').textContent = location.origin;
loadMachines()
  .then(() => Promise.all([loadRuns(), loadTasks()]))
  .then(() => {
    highlight();
    live();
  })
  .catch((error) => {
    $('status').textContent = 'failed: ' + error.message;
  });
`;
