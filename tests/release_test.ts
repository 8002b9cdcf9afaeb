// Copyright 2026 the brigade authors. MIT license.

// The release path, kept honest (the workflows cannot run here, so they are read): CI runs
// `.ci/run` on every push and pull request; a `v*` tag is published with the job's OIDC identity,
// only after the tag is checked against deno.json's version and `.ci/run` passed; and every
// place that installs Deno installs the one the README tells people to install.

import assert from "node:assert/strict";
import { dirname } from "node:path";
import { parse } from "yaml";
import config from "../deno.json" with { type: "json" };
import { ROOT } from "./_command.ts";

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, unknown>;
}

interface Job {
  "runs-on"?: unknown;
  "timeout-minutes"?: unknown;
  env?: Record<string, unknown>;
  steps?: Step[];
}

interface Workflow {
  on?: Record<string, Record<string, unknown> | null>;
  permissions?: Record<string, unknown>;
  concurrency?: Record<string, unknown>;
  env?: Record<string, unknown>;
  jobs?: Record<string, Job>;
}

async function text(path: string): Promise<string> {
  return await Deno.readTextFile(`${ROOT}${path}`);
}

/** A workflow, parsed, with its one job. */
async function workflow(name: string): Promise<{ source: string; flow: Workflow; job: Job }> {
  const source = await text(`.github/workflows/${name}`);
  const flow = parse(source) as Workflow;
  assert.equal(typeof flow, "object", `${name} is not a YAML mapping`);
  const jobs = Object.values(flow.jobs ?? {});
  assert.equal(jobs.length, 1, `${name} has one job`);
  return { source, flow, job: jobs[0]! };
}

/** The index of the first step that satisfies `test`; fails when none does. */
function stepIndex(steps: Step[], what: string, test: (step: Step) => boolean): number {
  const index = steps.findIndex(test);
  assert.notEqual(index, -1, `no step ${what}`);
  return index;
}

const runs = (command: string) => (step: Step): boolean =>
  (step.run ?? "").split("\n").some((line) => line.trim() === command);

/** Checkout, then Node 20 (for `npm install -g deno@…`), before anything is run. */
function assertSetup(name: string, steps: Step[]): void {
  const firstRun = stepIndex(steps, "runs a command", (step) => step.run !== undefined);
  const checkout = stepIndex(steps, "checks out", (step) => step.uses === "actions/checkout@v4");
  const node = stepIndex(steps, "sets up Node", (step) => step.uses === "actions/setup-node@v4");
  assert.ok(checkout < firstRun && node < firstRun, `${name}: checkout and Node come first`);
  assert.equal(String(steps[node]!.with?.["node-version"]), "20", `${name}: Node 20`);
}

/** Whether `CI` is `true` for the job (set on the job or the whole workflow). */
function ciIsTrue(flow: Workflow, job: Job): boolean {
  return String(job.env?.CI ?? flow.env?.CI) === "true";
}

Deno.test("ci.yml runs .ci/run under CI=true on every branch push and pull request", async () => {
  const { flow, job } = await workflow("ci.yml");
  const on = flow.on ?? {};
  assert.ok("push" in on && "pull_request" in on, "on push and pull_request");
  const push = on.push ?? {};
  assert.deepEqual(push.branches ?? ["**"], ["**"], "every branch");
  for (const filter of ["branches-ignore", "paths", "paths-ignore"]) {
    assert.ok(!(filter in push) && !(filter in (on.pull_request ?? {})), `no ${filter} filter`);
  }
  assert.deepEqual(on.pull_request?.branches ?? ["**"], ["**"], "pull requests to any branch");
  assert.deepEqual(flow.permissions, { contents: "read" });
  assert.equal(flow.concurrency?.["cancel-in-progress"], true, "a newer run cancels the older");
  assert.match(String(flow.concurrency?.group), /\$\{\{ github\.ref \}\}/);
  assert.equal(job["runs-on"], "ubuntu-latest");
  assert.equal(job["timeout-minutes"], 15);
  assert.ok(ciIsTrue(flow, job), "CI: true (browser, Node and Bun tests fail, not skip)");
  const steps = job.steps ?? [];
  assertSetup("ci.yml", steps);
  stepIndex(steps, "runs `bash .ci/run`", runs("bash .ci/run"));
});

Deno.test("publish.yml publishes a v* tag with OIDC after the version check and .ci/run", async () => {
  const { source, flow, job } = await workflow("publish.yml");
  assert.deepEqual(Object.keys(flow.on ?? {}), ["push"], "on push only");
  assert.deepEqual(flow.on?.push, { tags: ["v*"] }, "of a v* tag, not of a branch");
  assert.deepEqual(flow.permissions, { contents: "read", "id-token": "write" });
  assert.equal(flow.concurrency?.["cancel-in-progress"], false, "a publish is never cancelled");
  assert.equal(job["runs-on"], "ubuntu-latest");
  assert.ok(ciIsTrue(flow, job), "CI: true");
  assert.doesNotMatch(source, /secrets\.|--token/, "no token: OIDC");
  const steps = job.steps ?? [];
  assertSetup("publish.yml", steps);
  const check = stepIndex(steps, "checks the tag", (step) => /deno\.json/.test(step.run ?? ""));
  const ci = stepIndex(steps, "runs `bash .ci/run`", runs("bash .ci/run"));
  const publish = stepIndex(steps, "runs `deno publish`", runs("deno publish"));
  assert.ok(check < ci && ci < publish, "tag check, then .ci/run, then deno publish");
  assert.equal(publish, steps.length - 1, "deno publish is the last step");
});

Deno.test("publish.yml's tag check passes v + deno.json's version and stops any other", async () => {
  const { job } = await workflow("publish.yml");
  const step = (job.steps ?? []).find((step) => /deno\.json/.test(step.run ?? ""));
  assert.ok(step?.run !== undefined, "no tag check step");
  const tagVariables = Object.entries(step.env ?? {})
    .filter(([, value]) => value === "${{ github.ref_name }}").map(([name]) => name);
  assert.equal(tagVariables.length, 1, "the tag reaches the script through one variable");
  const check = async (tag: string): Promise<{ code: number; output: string }> => {
    const result = await new Deno.Command("bash", {
      args: ["-e", "-c", step.run!],
      cwd: ROOT,
      env: {
        [tagVariables[0]!]: tag,
        PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`,
        NO_COLOR: "1",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    return {
      code: result.code,
      output: decoder.decode(result.stdout) + decoder.decode(result.stderr),
    };
  };
  const version = config.version;
  const good = await check(`v${version}`);
  assert.equal(good.code, 0, good.output);
  for (const tag of [version, `v${version}.1`, `v${version}-rc.1`, "v0.0.0"]) {
    const bad = await check(tag);
    assert.notEqual(bad.code, 0, `tag ${tag} passed the check`);
    assert.ok(bad.output.includes(tag) && bad.output.includes(version), bad.output);
  }
});

Deno.test(".ci/run and publish.yml install the Deno the README tells people to install", async () => {
  const ciRun = /^DENO_VERSION=(\S+)$/m.exec(await text(".ci/run"))?.[1];
  assert.ok(ciRun !== undefined, ".ci/run sets DENO_VERSION");
  const installs = (source: string): string[] =>
    [...source.matchAll(/npm install -g deno@([^\s`"']+)/g)].map((match) => match[1]!);
  const readme = installs(await text("README.md"));
  assert.ok(readme.length > 0, "the README says how to install Deno");
  assert.deepEqual([...new Set(readme)], [ciRun], "README and .ci/run");
  const { job } = await workflow("publish.yml");
  const publish = installs((job.steps ?? []).map((step) => step.run ?? "").join("\n"));
  assert.deepEqual(publish, [ciRun], "publish.yml and .ci/run");
});
