// The body a Roundtrip server posts to /api/rounds (`{ server, report }`), checked field by field: the
// page shows what it holds, so a body of another shape is refused with the field at fault.
import type { InspectedAnswer, RoundReport } from '@roundtrip/engine';

export interface PostedRound {
  readonly server: string;
  readonly report: RoundReport;
}

type Checked = { ok: true; round: PostedRound } | { ok: false; reason: string };

// `task`: the round's work went on as an MCP task (its changes are posted to /api/tasks)
const OUTCOMES = new Set(['input_required', 'complete', 'error', 'task']);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

function answersProblem(answers: unknown): string | undefined {
  if (!isRecord(answers)) return 'report.answers must be an object';
  for (const [key, answer] of Object.entries(answers)) {
    if (!isRecord(answer) || typeof answer.action !== 'string') return `report.answers.${key} must be { action, fields? }`;
    if (answer.fields !== undefined && !isStrings(answer.fields) && !isRecord(answer.fields)) {
      return `report.answers.${key}.fields must be a list of names or an object`;
    }
  }
  return undefined;
}

function reportProblem(report: Record<string, unknown>): string | undefined {
  for (const key of ['target', 'machine', 'run'] as const) {
    if (typeof report[key] !== 'string') return `report.${key} must be a string`;
  }
  if (!Number.isInteger(report.round) || (report.round as number) < 0) return 'report.round must be a whole number';
  if (!isStrings(report.events)) return 'report.events must be a list of strings';
  if (!isStrings(report.asked)) return 'report.asked must be a list of strings';
  if (typeof report.outcome !== 'string' || !OUTCOMES.has(report.outcome)) {
    return 'report.outcome must be input_required, complete, error or task';
  }
  if (typeof report.at !== 'number' || !Number.isFinite(report.at)) return 'report.at must be a time in ms';
  // reasons came with the round report later: a server from before sends none
  const reasked = report.reasked;
  if (reasked !== undefined && (!isRecord(reasked) || !Object.values(reasked).every((reason) => typeof reason === 'string'))) {
    return 'report.reasked must map question keys to reasons (strings)';
  }
  return answersProblem(report.answers);
}

/** The posted round, or why the body is not one. */
export function readRoundBody(text: string): Checked {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  if (!isRecord(body)) return { ok: false, reason: 'the body must be { server, report }' };
  if (typeof body.server !== 'string') return { ok: false, reason: 'server must be a string' };
  if (!isRecord(body.report)) return { ok: false, reason: 'report must be an object' };
  const problem = reportProblem(body.report);
  if (problem) return { ok: false, reason: problem };
  const r = body.report;
  const report: RoundReport = {
    target: r.target as string,
    machine: r.machine as string,
    run: r.run as string,
    round: r.round as number,
    from: r.from,
    answers: r.answers as Record<string, InspectedAnswer>,
    events: r.events as string[],
    settled: r.settled,
    asked: r.asked as string[],
    ...(r.reasked !== undefined && { reasked: r.reasked as Record<string, string> }),
    outcome: r.outcome as RoundReport['outcome'],
    at: r.at as number,
  };
  return { ok: true, round: { server: body.server, report } };
}
