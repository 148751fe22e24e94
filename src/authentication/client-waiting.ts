/**
 * Work that is only worth doing while the client still waits for its answer
 * (a password verification: see platform/passwords/hashing.ts `runVerify`):
 * `work` gets a signal that aborts when the request's connection closes
 * before the work ends. The listener is removed when the work ends, so a
 * keep-alive connection carrying many requests does not collect listeners.
 */
import type { FastifyRequest } from 'fastify';

export async function whileClientWaits<T>(request: FastifyRequest, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const socket = request.raw.socket;
  const controller = new AbortController();
  const gone = () => controller.abort();
  if (socket.destroyed) gone();
  else socket.once('close', gone);
  try {
    return await work(controller.signal);
  } finally {
    socket.removeListener('close', gone);
  }
}
