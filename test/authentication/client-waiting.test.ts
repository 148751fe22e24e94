import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { whileClientWaits } from '../../src/authentication/client-waiting.js';

/** A real listener: the signal follows the TCP connection, which app.inject() does not have. */
async function serverWith(route: (request: import('fastify').FastifyRequest) => Promise<unknown>) {
  const app = Fastify();
  app.post('/work', async (request) => route(request));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, port: (app.server.address() as AddressInfo).port };
}

describe('whileClientWaits', () => {
  it('aborts the signal when the client hangs up before the work ends', async () => {
    let started!: () => void;
    const startedWork = new Promise<void>((resolve) => (started = resolve));
    let outcome!: (aborted: boolean) => void;
    const seen = new Promise<boolean>((resolve) => (outcome = resolve));
    const { app, port } = await serverWith((request) =>
      whileClientWaits(request, (signal) => {
        started();
        return new Promise((resolve) => {
          const timer = setTimeout(() => (outcome(false), resolve('done')), 5_000);
          signal.addEventListener('abort', () => (clearTimeout(timer), outcome(true), resolve('gone')));
        });
      }),
    );
    try {
      const client = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/work' });
      client.on('error', () => undefined);
      client.end();
      await startedWork;
      client.destroy();
      assert.equal(await seen, true);
    } finally {
      await app.close();
    }
  });

  it('leaves the signal alone while the client waits, and no listener behind on a keep-alive connection', async () => {
    const counts: number[] = [];
    const { app, port } = await serverWith((request) =>
      whileClientWaits(request, async (signal) => {
        await new Promise((resolve) => setImmediate(resolve));
        return { aborted: signal.aborted, listening: request.raw.socket.listenerCount('close') };
      }).then((body) => (counts.push(request.raw.socket.listenerCount('close')), body)),
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let i = 0; i < 15; i++) {
        const body = await new Promise<string>((resolve, reject) => {
          const req = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/work', agent }, (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve(text));
          });
          req.on('error', reject);
          req.end();
        });
        assert.equal((JSON.parse(body) as { aborted: boolean }).aborted, false);
      }
      // The same connection carried all 15 requests; the count after each is the same (no listener added per request).
      assert.equal(new Set(counts).size, 1, `close listeners after each request: ${counts.join(', ')}`);
    } finally {
      agent.destroy();
      await app.close();
    }
  });
});
