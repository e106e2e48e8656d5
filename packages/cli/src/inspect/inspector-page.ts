// The inspector page: one self-contained HTML document (its style and script inline, nothing fetched
// from elsewhere): the tasks (once one is reported), the conversations, and the machines. The script lives
// in inspector-script.ts; the server allows it by its hash.
import { INSPECTOR_SCRIPT } from './inspector-script.ts';

const STYLE = `
:root { color-scheme: light; --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --accent: #d97706; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f8fafc; }
header { display: flex; align-items: baseline; gap: 16px; padding: 12px 20px; background: #0f172a; color: #f8fafc; }
header h1 { margin: 0; font-size: 18px; }
header .hint { color: #cbd5e1; font-size: 13px; }
header code { color: #fde68a; }
.status { margin-left: auto; font-size: 12px; padding: 2px 8px; border-radius: 999px; background: #334155; }
.status.live { background: #15803d; }
.status.down { background: #b91c1c; }
main { display: grid; grid-template-columns: minmax(0, 1.2fr) minmax(0, 1fr); gap: 20px; padding: 16px 20px; align-items: start; }
main > section { min-width: 0; }
@media (max-width: 1000px) { main { grid-template-columns: minmax(0, 1fr); } }
h2 { margin: 0 0 10px; font-size: 15px; text-transform: uppercase; letter-spacing: 0.04em; color: var(--muted); }
.empty { color: var(--muted); }
.run { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin-bottom: 12px; cursor: pointer; }
.run.selected { border-color: var(--accent); box-shadow: 0 0 0 2px #fde68a; }
.run h3 { margin: 0; font-size: 14px; display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.run-id { font-size: 12px; color: var(--muted); word-break: break-all; }
.meta { margin: 2px 0 8px; color: var(--muted); font-size: 12px; }
.outcome-complete, .outcome-complete td.outcome { color: #15803d; }
.outcome-error, .outcome-error td.outcome { color: #b91c1c; }
.outcome-input_required, .outcome-input_required td.outcome { color: #1d4ed8; }
.outcome-task, .outcome-task td.outcome { color: #92400e; }
.rounds tr { color: var(--ink); }
/* fixed layout: the card's width decides the columns, long states and answers wrap inside them */
table.rounds { width: 100%; table-layout: fixed; border-collapse: collapse; font-size: 12px; }
.rounds col.n { width: 28px; }
.rounds col.from, .rounds col.settled { width: 16%; }
.rounds col.answers { width: 22%; }
.rounds col.events { width: 16%; }
.rounds col.outcome { width: 104px; }
.rounds th { text-align: left; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--line); padding: 3px 6px; overflow-wrap: anywhere; }
.rounds td { vertical-align: top; padding: 4px 6px; border-bottom: 1px solid #f1f5f9; white-space: pre-wrap; overflow-wrap: anywhere; }
.rounds td.from, .rounds td.settled, .rounds td.events { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.rounds td.settled { font-weight: 600; }
.rounds td.outcome .at { color: var(--muted); }
.rounds tr.latest td { background: #fffbeb; }
.rounds tr.round:has(+ tr.reason) td { border-bottom: none; }
.rounds tr.reason td { padding: 0 6px 6px 34px; color: #9a3412; }
.rounds tr.reason strong { font-weight: 600; }
#machines { display: flex; flex-direction: column; gap: 12px; }
.machine { margin: 0; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.machine.active { border-color: #fcd34d; }
.machine figcaption { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; margin-bottom: 6px; }
.kind { font-size: 11px; color: var(--muted); border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; }
.where { margin-left: auto; font-size: 12px; color: var(--accent); font-weight: 600; word-break: break-all; }
/* sized by the script (fitDiagram): a diagram larger than its card scrolls inside it (bars, wheel, drag) */
.diagram { overflow: auto; max-height: 78vh; }
.diagram.pannable { cursor: grab; }
.diagram.panning { cursor: grabbing; user-select: none; }
.diagram svg { display: block; }
.problem { color: #b91c1c; }
[data-state].current > rect { fill: #fef3c7; stroke: var(--accent); stroke-width: 3.5px; }
[data-state].current > rect + rect { fill: none; }
.tasks { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 6px 12px; margin-bottom: 16px; }
table.task-list { width: 100%; table-layout: fixed; border-collapse: collapse; font-size: 12px; }
.task-list col.tool { width: 20%; }
.task-list col.id { width: 76px; }
.task-list col.state { width: 112px; }
.task-list col.asks { width: 16%; }
.task-list col.updated { width: 84px; }
.task-list th { text-align: left; color: var(--muted); font-weight: 600; border-bottom: 1px solid var(--line); padding: 3px 6px; }
.task-list td { vertical-align: top; padding: 4px 6px; border-bottom: 1px solid #f1f5f9; white-space: pre-wrap; overflow-wrap: anywhere; }
.task-list tr.task { cursor: pointer; }
.task-list tr.task:last-child td { border-bottom: none; }
.task-list td.asks, .task-list td.id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
.task-list td.updated, .task-list .cancelling { color: var(--muted); }
.badge { display: inline-block; padding: 0 7px; border-radius: 999px; font-size: 11px; font-weight: 600; white-space: nowrap; }
.task-working .badge { background: #fef3c7; color: #92400e; }
.task-input_required .badge { background: #dbeafe; color: #1d4ed8; }
.task-completed .badge { background: #dcfce7; color: #15803d; }
.task-failed .badge { background: #fee2e2; color: #b91c1c; }
.task-failed td.message { color: #b91c1c; }
.task-cancelled .badge { background: #f1f5f9; color: #64748b; }
`;

/** The page, whole. */
export function inspectorPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Roundtrip inspector</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Roundtrip inspector</h1>
<span class="hint">start a server with <code>ROUNDTRIP_INSPECT=<span id="address"></span></code></span>
<span id="status" class="status">connecting…</span>
</header>
<main>
<section>
<div id="tasks-part" hidden>
<h2>Tasks</h2>
<div class="tasks">
<table class="task-list">
<colgroup><col class="tool"><col class="id"><col class="state"><col class="message"><col class="asks"><col class="updated"></colgroup>
<thead><tr><th>tool</th><th>task</th><th>status</th><th>progress</th><th>asks</th><th>updated</th></tr></thead>
<tbody id="tasks"></tbody>
</table>
</div>
</div>
<h2>Conversations</h2>
<p id="no-runs" class="empty">No rounds yet: every round a server reports shows here as it happens.</p>
<div id="runs"></div>
</section>
<section>
<h2>Machines</h2>
<div id="machines"></div>
</section>
</main>
<script>${INSPECTOR_SCRIPT}</script>
</body>
</html>
`;
}
