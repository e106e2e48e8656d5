// What an engine tells an inspector (EngineOptions): a report of every round, of every change of a task, and
// XState's inspection events of every round's actors; and whether answers' values are shown.
import type { InspectionEvent } from 'xstate';
import type { RoundReport } from './round-report.ts';
import type { TaskReport } from './task-report.ts';

/** The engine's inspection hooks, each optional; nothing is built for one not given. */
export interface EngineInspectOptions {
  /**
   * Receives a report of every round after it ended (an inspector's feed). Called synchronously: keep it
   * cheap and never let it wait on the network; an error it throws is logged, not passed on.
   */
  inspect?: (report: RoundReport) => void;
  /**
   * Receives a report of every change of a task (SEP-2663) once it is recorded: created, its progress words,
   * asking (the keys), working again, completed, failed or cancelled. Tasks run in the background, outside any
   * round, so they are reported apart from `inspect`'s rounds. Called synchronously, like `inspect`: keep it
   * cheap; an error it throws is logged, not passed on. Answers, arguments and results are never in it.
   */
  inspectTasks?: (report: TaskReport) => void;
  /**
   * Whether `inspect` sees the values of answers. Answers are personal data: by default an inspector
   * sees only which fields were answered. @defaultValue 'masked'
   */
  inspectAnswers?: 'masked' | 'shown';
  /**
   * Receives XState's inspection events of the actors of every round (what Stately's inspector reads):
   * events with answers in them, and context. Mask what must not leave the server before passing them on.
   */
  inspectActors?: (event: InspectionEvent) => void;
}
