// autocannon in a child process (`npx autocannon`), for the scripts that measure the server's own CPU
// with process.cpuUsage() in this process (server-cpu.ts, server-bisect.ts): the load generator's CPU
// must not count. A non-2xx answer or a socket error fails the run.
import { spawn } from 'node:child_process';

export function autocannonChild(url: string, requests: number, options: { connections: number; headers?: Record<string, string> }): Promise<void> {
  const args = ['autocannon', '-c', String(options.connections), '-a', String(requests), '--json'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const result = JSON.parse(out) as { non2xx: number; errors: number };
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve();
    });
  });
}
