// The engine before its second shape, taken from git and run beside today's in the same process: the
// engine's sources and the demo's `refund_order` tool (with its money helper) at BEFORE_REV are written
// into the bench's temporary folder, their bare imports (`@roundtrip/engine`, xstate, tweetnacl, zod)
// resolve through links to the very packages today's engine uses, so both share one xstate and one zod.
// Besides the engine's public API it hands back a few of its modules (seal, open, check) so the bench can
// time the pieces that changed, old code beside new, on the same input. Skipped (with the reason) when
// git or the commit is not there.
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { StepOutcome } from '../packages/engine/src/index.ts';

/** The old engine (ask() in state meta, tool._machine, pooled nonces): the commit before b0938e8. */
const BEFORE_REV = '8ad16d2b0b3cc3afc7bcb82a1a7b377149eec22c';

type OldKeyring = { readonly sealingKid: string; readonly _keys: ReadonlyMap<string, Uint8Array> };
type OldBinding = { aud: Uint8Array; sub: Uint8Array; target: Uint8Array; args: Uint8Array };
type OldCompiledMachine = { id: string; hash: Uint8Array };
type OldTool = {
  readonly name: string;
  readonly _machine: OldCompiledMachine;
  readonly _result: (output: unknown) => { text: string; structured?: unknown; isError?: boolean };
};

/** The parts of the old engine the bench uses, typed by hand (its sources live in the temporary folder). */
export interface EngineBefore {
  readonly rev: string;
  readonly createEngine: (options: { tools: readonly OldTool[]; keyring: OldKeyring; audience: string }) => {
    callTool(request: {
      name: string;
      arguments?: unknown;
      inputResponses?: unknown;
      requestState?: unknown;
      principal: string;
      capabilities: unknown;
    }): Promise<StepOutcome>;
  };
  readonly createKeyring: (keys: readonly string[]) => OldKeyring;
  /** The demo's `createRefundOrderTool` at BEFORE_REV, on the old engine. */
  readonly createRefundOrderTool: (store: { findOrder(id: string): unknown; refundOrder(id: string): unknown }) => OldTool;
  readonly sealState: (keyring: OldKeyring, payload: Uint8Array) => string;
  readonly openState: (keyring: OldKeyring, token: string) => { ok: true; plaintext: Uint8Array } | { ok: false; reason: string };
  readonly checkEnvelope: (
    plaintext: Uint8Array,
    binding: OldBinding,
    machine: OldCompiledMachine,
    nowSeconds: number,
    maxRounds: number,
  ) => { ok: boolean };
}

/** Writes the old engine and tool from git into `dir` and loads them; a string says why it could not. */
export async function loadEngineBefore(repoRoot: string, dir: string): Promise<EngineBefore | string> {
  try {
    const git = (...a: string[]) => execFileSync('git', ['-C', repoRoot, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const root = join(dir, 'before');
    const engineDir = join(root, 'engine');
    const demoDir = join(root, 'demo');
    const copy = (from: string, to: string) => {
      for (const path of git('ls-tree', '--name-only', BEFORE_REV, from).split('\n').filter(Boolean)) {
        if (path.endsWith('.ts')) writeFileSync(join(to, path.slice(path.lastIndexOf('/') + 1)), git('show', `${BEFORE_REV}:${path}`));
      }
    };
    mkdirSync(join(engineDir, 'src'), { recursive: true });
    mkdirSync(join(demoDir, 'src'), { recursive: true });
    copy('packages/engine/src/', join(engineDir, 'src'));
    for (const file of ['refund-order-tool.ts', 'money.ts']) {
      writeFileSync(join(demoDir, 'src', file), git('show', `${BEFORE_REV}:apps/demo/src/${file}`));
    }
    writeFileSync(join(engineDir, 'package.json'), '{"name":"@roundtrip/engine","type":"module","exports":{".":"./src/index.ts"}}\n');
    writeFileSync(join(demoDir, 'package.json'), '{"type":"module"}\n');
    // bare imports: the packages today's engine resolves, and the old engine as @roundtrip/engine
    const link = (target: string, at: string) => {
      mkdirSync(join(at, '..'), { recursive: true });
      symlinkSync(target, at);
    };
    for (const pkg of ['xstate', 'tweetnacl', 'zod']) {
      const real = realpathSync(join(repoRoot, 'packages/engine/node_modules', pkg));
      link(real, join(engineDir, 'node_modules', pkg));
      if (pkg !== 'tweetnacl') link(real, join(demoDir, 'node_modules', pkg));
    }
    link(engineDir, join(demoDir, 'node_modules', '@roundtrip', 'engine'));
    const load = async (path: string) => (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const index = await load(join(engineDir, 'src', 'index.ts'));
    const sealed = await load(join(engineDir, 'src', 'sealed-state.ts'));
    const envelope = await load(join(engineDir, 'src', 'state-envelope.ts'));
    const tool = await load(join(demoDir, 'src', 'refund-order-tool.ts'));
    return {
      rev: BEFORE_REV,
      createEngine: index.createEngine as EngineBefore['createEngine'],
      createKeyring: index.createKeyring as EngineBefore['createKeyring'],
      createRefundOrderTool: tool.createRefundOrderTool as EngineBefore['createRefundOrderTool'],
      sealState: sealed.sealState as EngineBefore['sealState'],
      openState: sealed.openState as EngineBefore['openState'],
      checkEnvelope: envelope.checkEnvelope as EngineBefore['checkEnvelope'],
    };
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0]! : String(error);
  }
}
