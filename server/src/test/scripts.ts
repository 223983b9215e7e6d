import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one of server/src/scripts/ (`npm run backup`, `custody:verify`…) in its own process, as an
 * operator would, without blocking this one. It sees none of this process's store settings
 * (DATABASE_URL, DATA_DIR, SESSION_SECRET): only what `env` gives it.
 */
export function runScript(script: string, args: string[], env: Record<string, string> = {}): Promise<ScriptRun> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  delete childEnv.DATABASE_URL;
  delete childEnv.SESSION_SECRET;
  delete childEnv.DATA_DIR;
  const child = spawn(process.execPath, ['--import', 'tsx', `server/src/scripts/${script}.ts`, ...args], {
    cwd: repoRoot,
    env: { ...childEnv, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
