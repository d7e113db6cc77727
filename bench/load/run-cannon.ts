import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { CannonJob, CannonResult } from './cannon';

/** Runs one load (cannon.ts) in a process of its own and resolves with its summary. */
export function runCannon(job: CannonJob): Promise<CannonResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(__dirname, 'cannon.js')], {
      env: { PATH: process.env.PATH ?? '', BENCH_CANNON: JSON.stringify(job) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', fail);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !line.startsWith('{'))
        fail(new Error(`the load generator exited with ${code}: ${err.slice(-2000)}`));
      else done(JSON.parse(line) as CannonResult);
    });
  });
}
