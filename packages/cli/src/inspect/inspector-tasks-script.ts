// The part of the inspector page's script that lists MCP tasks (SEP-2663), as a string joined into the
// page's script (inspector-script.ts): one row per task, its latest change winning (the highest version),
// the newest task first, with its tool, short id, status, the author's progress words (or why it failed),
// the keys it asks under while input_required and when it last changed. Clicking a row follows its
// conversation when the page knows it. Report data goes into the page as text, never as markup.

export const TASKS_SCRIPT = String.raw`
const tasks = new Map();
const TASK_STATUS = {
  working: 'working',
  input_required: 'input required',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** Keeps a change of a task when it is the task's latest; false when it is known already or older. */
function addTask(task) {
  const known = tasks.get(task.task);
  if (known && (known.version > task.version || (known.version === task.version && known.at >= task.at))) return false;
  tasks.set(task.task, task);
  return true;
}

function taskRow(task) {
  const row = el('tr', 'task task-' + task.status);
  row.dataset.task = task.task;
  row.dataset.status = task.status;
  row.title = 'server ' + task.server + ' · run ' + task.run + ' · created ' + new Date(task.createdAt).toLocaleTimeString();
  const status = el('span', 'badge', TASK_STATUS[task.status] || task.status);
  const said = task.status === 'failed' && task.error ? task.error : task.statusMessage || '—';
  const cells = [
    el('td', 'tool', task.tool),
    el('td', 'id', el('code', '', task.task)),
    el('td', 'state', status, task.cancelRequested ? el('span', 'cancelling', ' cancelling…') : undefined),
    el('td', 'message', said),
    el('td', 'asks', task.asked.length ? task.asked.join('\n') : '—'),
    el('td', 'updated', new Date(task.lastUpdatedAt).toLocaleTimeString()),
  ];
  row.append(...cells);
  row.addEventListener('click', () => {
    if (!runs.has(task.run)) return;
    selected = task.run;
    renderAll();
  });
  return row;
}

function renderTasks() {
  const ordered = [...tasks.values()].sort((a, b) => b.createdAt - a.createdAt);
  $('tasks').replaceChildren(...ordered.map(taskRow));
  $('tasks-part').hidden = tasks.size === 0;
}

async function loadTasks() {
  const response = await fetch('/api/tasks');
  const body = await response.json();
  let changed = false;
  for (const task of body.tasks) changed = addTask(task) || changed;
  if (changed) renderTasks();
}
`;
