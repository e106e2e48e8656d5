// The conversations reported so far, by run id, each with its rounds in order and, for each round, the
// leaf states it settled in. Bounded: past `maxRuns` the oldest run is dropped, past `maxRounds` a run's
// oldest round.
import type { RoundReport } from '@roundtrip/engine';
import { activeStateIds } from './active-states.ts';
import type { PostedRound } from './round-body.ts';

/** A reported round with the full ids of the leaf states it settled in. */
interface InspectedRound extends RoundReport {
  readonly active: readonly string[];
}

interface InspectedRun {
  readonly run: string;
  readonly server: string;
  readonly target: string;
  readonly machine: string;
  readonly rounds: InspectedRound[];
}

export interface RunStore {
  /** Records a round under its run; returns the round as stored and its run id. */
  add(posted: PostedRound): { run: string; server: string; round: InspectedRound };
  /** Every run kept, oldest first. */
  runs(): InspectedRun[];
}

export function createRunStore(limits: { maxRuns?: number; maxRounds?: number } = {}): RunStore {
  const maxRuns = limits.maxRuns ?? 200;
  const maxRounds = limits.maxRounds ?? 500;
  const runs = new Map<string, InspectedRun>();
  let refused = 0;
  return {
    add({ server, report }) {
      // a round refused before it began has no run: each is a conversation of its own
      const id = report.run === '' ? `refused-${++refused}` : report.run;
      let run = runs.get(id);
      if (!run) {
        run = { run: id, server, target: report.target, machine: report.machine, rounds: [] };
        runs.set(id, run);
        if (runs.size > maxRuns) runs.delete(runs.keys().next().value!);
      }
      const round: InspectedRound = { ...report, run: id, active: activeStateIds(report.machine, report.settled) };
      run.rounds.push(round);
      if (run.rounds.length > maxRounds) run.rounds.shift();
      return { run: id, server, round };
    },
    runs: () => [...runs.values()],
  };
}
