/**
 * A real client's run: the driver (a Node or Python script around the client's own code) runs as a
 * child process and prints one JSON object a line for each step it reached; other output is the
 * client's own and is ignored. Generous timeout: seconds here, minutes were seen on a 2-core machine
 * shared with other builds.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Each driver prints its own fields per step; the tests read them by name.
export type Step = Record<string, any> & { step: string };

export interface StepRun {
  readonly steps: Step[];
  readonly stderr: string;
  readonly code: number | null;
}

export function runSteps(command: string, args: readonly string[], env?: NodeJS.ProcessEnv, timeoutMs = 300_000): Promise<StepRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...(env ? { env } : {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const steps = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Step);
      resolve({ steps, stderr, code });
    });
  });
}

/** What the Python drivers run with, beside the variables each adds. */
export function pythonEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...extra, PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' };
}

/** A step of the run by name, failing with the driver's exit and the end of its stderr when it never got there. */
export function stepOf(run: StepRun, name: string, who: string): Step {
  const found = run.steps.find((s) => s.step === name);
  assert.ok(found, `${who} reached "${name}" (exit ${run.code}); stderr:\n${run.stderr.slice(-3000)}`);
  return found;
}

/** The Python the drivers run with: setup.sh installs what they need (Debian's packages) and prints its path last. */
export function clientPython(): string {
  const setup = fileURLToPath(new URL('./setup.sh', import.meta.url));
  return execFileSync('bash', [setup], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').at(-1)!;
}
