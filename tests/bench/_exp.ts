import { spawn } from 'node:child_process';
import Fastify from 'fastify';
import { securityHeaderLists } from '../../server/core/security-headers';
function autocannon(url: string, requests: number): Promise<void> {
  return new Promise((resolve, reject) => { const c = spawn('npx', ['autocannon', '-c', '20', '-a', String(requests), url], { stdio: 'ignore' }); c.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(String(code))))); });
}
const lists = securityHeaderLists('http://localhost');
const mode = process.argv[2];
const app = Fastify({ logger: false });
if (mode === 'raw') app.addHook('onRequest', (req, reply, done) => { for (const [n, v] of lists.web) reply.raw.setHeader(n, v); done(); });
if (mode === 'pad') app.addHook('onRequest', (req, reply, done) => { reply.raw.setHeader('x-pad', 'a'.repeat(1100)); done(); });
app.get('/hello', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
await autocannon(`http://127.0.0.1:${port}/hello`, 2000);
const before = process.cpuUsage();
await autocannon(`http://127.0.0.1:${port}/hello`, 30000);
const u = process.cpuUsage(before);
console.log(mode, ((u.user + u.system) / 30000).toFixed(1), 'µs', 'user', (u.user / 30000).toFixed(1), 'sys', (u.system / 30000).toFixed(1));
await app.close();
