// The inspector page's script, as a string (plain browser JavaScript, no modules, nothing fetched but
// this inspector's own API): it draws the machines, lists every conversation with its rounds as they
// arrive over Server-Sent Events (polling /api/runs where there is no EventSource), and marks in each
// machine's diagram the states its current conversation settled in. Report data goes into the page as
// text, never as markup.

export const INSPECTOR_SCRIPT = String.raw`
'use strict';
const runs = new Map();
const machineCards = new Map();
let selected;
let tick = 0;
const $ = (id) => document.getElementById(id);

function el(tag, className, ...children) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const child of children) if (child !== undefined) node.append(child);
  return node;
}
const stateText = (value) => (value === undefined || value === null ? '—' : typeof value === 'string' ? value : JSON.stringify(value));
function answersText(answers) {
  const parts = Object.entries(answers || {}).map(([key, answer]) => {
    const fields = answer.fields;
    const shown = Array.isArray(fields) ? ' (' + fields.join(', ') + ')' : fields ? ' ' + JSON.stringify(fields) : '';
    return key + ': ' + answer.action + shown;
  });
  return parts.length ? parts.join('\n') : '—';
}
const listText = (items) => (items && items.length ? items.join('\n') : '—');
const roundKey = (round) => round.round + ':' + round.at + ':' + round.events.join(',');

function roundRow(round) {
  const row = el('tr', 'outcome-' + round.outcome);
  row.dataset.round = String(round.round);
  const cells = [
    String(round.round),
    stateText(round.from),
    answersText(round.answers),
    listText(round.events),
    stateText(round.settled),
    listText(round.asked),
    round.outcome,
    new Date(round.at).toLocaleTimeString(),
  ];
  const names = ['n', 'from', 'answers', 'events', 'settled', 'asked', 'outcome', 'at'];
  cells.forEach((text, i) => row.append(el('td', names[i], text)));
  return row;
}

function runCard(run) {
  const last = run.rounds[run.rounds.length - 1];
  const card = el('article', 'run');
  card.dataset.run = run.run;
  card.dataset.machine = run.machine;
  const title = el('h3', '', el('span', 'target', run.target), ' ', el('code', 'run-id', run.run));
  const meta = el('p', 'meta', 'server ' + run.server + ' · ' + run.rounds.length + (run.rounds.length === 1 ? ' round' : ' rounds') + ' · ');
  meta.append(el('span', 'outcome outcome-' + (last ? last.outcome : ''), last ? last.outcome : ''));
  const head = el('tr');
  for (const name of ['#', 'from', 'answers', 'events', 'settled in', 'asked', 'outcome', 'at']) head.append(el('th', '', name));
  const body = el('tbody');
  for (const round of run.rounds) body.append(roundRow(round));
  card.append(title, meta, el('table', 'rounds', el('thead', '', head), body));
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
      continue;
    }
    const last = run.rounds[run.rounds.length - 1];
    for (const id of last.active) {
      const node = card.querySelector('svg [data-state="' + CSS.escape(id) + '"]');
      if (node) node.classList.add('current');
    }
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
    if (machine.svg) diagram.innerHTML = machine.svg;
    else diagram.append(el('p', 'problem', 'Not drawn: ' + machine.problem));
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
    setInterval(() => loadRuns().catch(() => {}), 2000);
    return;
  }
  const events = new EventSource('/api/events');
  events.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'status live';
    loadRuns().catch(() => {});
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
}

$('address').textContent = location.origin;
loadMachines()
  .then(loadRuns)
  .then(() => {
    highlight();
    live();
  })
  .catch((error) => {
    $('status').textContent = 'failed: ' + error.message;
  });
`;
