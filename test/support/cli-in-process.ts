/**
 * Test support: the `fakehands` command run in the test's own process, through the built command's
 * `runCommand` (dist/cli.bundle.js, the function bin/fakehands.js's `main` runs before it exits with
 * the code). For tests about what a command reports (its lines, its exit code, its one-line errors),
 * not about the process around it: a process start costs 0.3 to 1 s of CPU (Node, the 1.4 MB bundle),
 * the in-process run only the command's own work. Each command keeps tests that run the real binary
 * (test/support/cli.ts) for the wiring: stdout and stderr, the exit code, the working folder.
 * Only commands that end belong here: never a `serve` that would listen (it would stay in this process).
 */
import { built } from './built.js';
import { BIN } from './cli.js';

/** What a command printed and the code it would exit with. */
export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `fakehands ARGS` in-process to completion; `env` is added to the process's, `cwd` is where it looks for its config file. */
export async function runCliInProcess(args: string[], env: Record<string, string> = {}, cwd = process.cwd()): Promise<CommandRun> {
  const { runCommand } = await built('command');
  let stdout = '';
  let stderr = '';
  const code = await runCommand(
    args,
    { ...process.env, ...env },
    {
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      cwd,
      script: BIN,
    },
  );
  if (code === null) throw new Error(`fakehands ${args.join(' ')} started serving in the test's process: run it with startCli instead`);
  return { code, stdout, stderr };
}
