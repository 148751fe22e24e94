// The ceiling for static JSON (reference of `npm run bench`): a bare node:http server that
// answers GET <path> with a body fixed at start, and 404 otherwise. The bench gives it
// Gatehouse's own JWKS and discovery documents (the same bytes, so the same size).
//
// Settings (environment, set by the bench): BENCH_HOST, BENCH_PORT, BENCH_BODIES (a JSON
// file: {"<path>": "<body>", …}). Plain JavaScript so that no loader adds to its start-up
// time or memory.
import fs from 'node:fs';
import http from 'node:http';

const bodies = new Map(
  Object.entries(JSON.parse(fs.readFileSync(process.env.BENCH_BODIES, 'utf8'))).map(([path, body]) => [path, Buffer.from(body)]),
);
const notFound = Buffer.from('{"error":"not_found"}');

const server = http.createServer((req, res) => {
  req.resume();
  const body = req.method === 'GET' ? bodies.get(req.url) : undefined;
  res.writeHead(body ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': (body ?? notFound).length });
  res.end(body ?? notFound);
});
server.listen(Number(process.env.BENCH_PORT), process.env.BENCH_HOST);
process.on('SIGTERM', () => process.exit(0));
