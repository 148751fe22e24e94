/**
 * Connections the primary handed to a worker that died before taking them.
 *
 * With node:cluster's round-robin scheduling the primary accepts each
 * connection and sends it to a worker (a `newconn` message carrying the
 * socket), keeping its own copy until the worker acknowledges it. A worker
 * killed in between (or stopped, then killed) never acknowledges, and
 * node:cluster neither closes nor re-sends that copy: the client's
 * connection stays open with no process reading it until the client gives
 * up. The primary therefore notes each connection it sends to a worker
 * until the worker's acknowledgement, and resets those still unacknowledged
 * when the worker exits, so their clients get an error at once and can retry
 * (a new connection reaches a live worker).
 *
 * This reads node:cluster's internal messages (`cmd: 'NODE_CLUSTER'`,
 * `act: 'newconn'`, `ack`), which have been stable since Node 0.12;
 * test/e2e/cluster.test.ts would show a change.
 */
import type { Worker } from 'node:cluster';

interface ClusterMessage {
  cmd?: unknown;
  act?: unknown;
  seq?: unknown;
  ack?: unknown;
}

/** The primary's copy of an accepted TCP connection (a libuv handle; `reset` since Node 16.17). */
interface ConnectionHandle {
  close(): void;
  reset?(): number;
}

const isClusterMessage = (message: unknown): message is ClusterMessage =>
  typeof message === 'object' && message !== null && (message as ClusterMessage).cmd === 'NODE_CLUSTER';

export function resetUntakenConnections(worker: Worker): void {
  const child = worker.process;
  const pending = new Map<unknown, ConnectionHandle>();
  const send = child.send.bind(child) as (...args: unknown[]) => boolean;
  child.send = ((message: unknown, handle?: unknown, ...rest: unknown[]) => {
    if (isClusterMessage(message) && message.act === 'newconn' && handle) pending.set(message.seq, handle as ConnectionHandle);
    return send(message, handle, ...rest);
  }) as typeof child.send;
  // node:cluster's internal messages arrive as 'internalMessage', not 'message'.
  child.on('internalMessage', (message: unknown) => {
    if (isClusterMessage(message) && message.ack !== undefined) pending.delete(message.ack);
  });
  // On exit, not on the channel's 'disconnect': a channel that awaits the worker's receipt of a
  // handle never reports its close. After the messages already readable (setImmediate), so that a
  // worker's last acknowledgements count; one still unread changes nothing: the worker's copy died
  // with it, and the primary's alone would keep the client waiting.
  child.once('exit', () => {
    setImmediate(() => {
      for (const handle of pending.values()) {
        // A reset (RST) tells the client at once; `close` (FIN) where `reset` is missing.
        if (typeof handle.reset === 'function') handle.reset();
        else handle.close();
      }
      pending.clear();
    });
  });
}
