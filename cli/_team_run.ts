// Copyright 2026 the brigade authors. MIT license.

/**
 * Whether this run is the one a team's renderer was moved to: the worker `runInBoundedWorker()`
 * (`_team_access.ts`) starts, which `render.ts` asks before anything else on every call. Its own
 * module, so that the calls that run no team's renderer (all the built-ins' calls) load none of
 * the rest.
 *
 * @module
 */

/** Where the run goes on: set in the worker a team's run is moved to. */
export const teamRun: { inWorker: boolean } = { inWorker: false };

/** The name of the worker a team's run goes on in. */
export const WORKER_NAME = "@brigade/transcript render: a team's run";

/**
 * In the worker `runInBoundedWorker()` (`_team_access.ts`) starts (`render.ts` itself, by name),
 * runs the command it is sent with `main` and posts the exit code; anywhere else, does nothing.
 *
 * @returns Whether this is that worker.
 */
export function serveTeamRun(main: (args: string[]) => Promise<number>): boolean {
  const scope = globalThis as unknown as {
    WorkerGlobalScope?: unknown;
    name?: unknown;
    onmessage: ((event: MessageEvent<{ args: string[] }>) => void) | null;
    postMessage(code: number): void;
  };
  if (scope.WorkerGlobalScope === undefined || scope.name !== WORKER_NAME) return false;
  teamRun.inWorker = true;
  scope.onmessage = async (event): Promise<void> => {
    scope.postMessage(await main(event.data.args));
  };
  return true;
}
