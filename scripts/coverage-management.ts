/**
 * `npm run coverage:management`: how many operations of the service's
 * Management API document (src/management/not-available/service-operations.generated.json,
 * from /work's auth0-management-api.oas.json by scripts/extract-oas-operations.mjs)
 * Gatehouse serves with its own route, by path group (the first path
 * segment), against the total. Read from the same route table that builds
 * GET /api/v2/openapi.json and docs/management-api-compatibility.md, so the
 * three agree. The rest are answered by the catch-all (404
 * `not_available_in_gatehouse`, or the empty list of a tenant without the
 * feature). `-- --missing` also lists the operations not served, by group.
 */
import { serviceOperations } from '../src/management/not-available/operations.js';
import { servedRoutes } from './docs/compatibility-page.js';

const shape = (path: string): string => path.replace(/\/(?::[^/]+|\{[^/{}]+\})/g, '/{}');

const served = new Set(servedRoutes().map((r) => `${r.method} ${shape(r.url)}`));
const groups = new Map<string, { served: number; total: number }>();
const missing: string[] = [];
for (const operation of serviceOperations()) {
  const group = `/${operation.template.split('/')[1] ?? ''}`;
  const counts = groups.get(group) ?? { served: 0, total: 0 };
  counts.total += 1;
  if (served.has(`${operation.method} ${shape(operation.template)}`)) counts.served += 1;
  else missing.push(`${operation.method.padEnd(6)} ${operation.template}`);
  groups.set(group, counts);
}

const rows = [...groups].sort(([a], [b]) => (a < b ? -1 : 1));
const width = Math.max(...rows.map(([group]) => group.length), 'path group'.length);
const line = (group: string, s: string, t: string, p: string) => `${group.padEnd(width)}  ${s.padStart(6)}  ${t.padStart(5)}  ${p.padStart(5)}`;
const lines = [line('path group', 'served', 'total', '%'), '-'.repeat(width + 22)];
for (const [group, counts] of rows) lines.push(line(group, String(counts.served), String(counts.total), `${Math.round((100 * counts.served) / counts.total)}`));
const total = rows.reduce((sum, [, c]) => ({ served: sum.served + c.served, total: sum.total + c.total }), { served: 0, total: 0 });
lines.push('-'.repeat(width + 22), line('all', String(total.served), String(total.total), `${Math.round((100 * total.served) / total.total)}`));
if (process.argv.includes('--missing')) lines.push('', 'not served:', ...missing.sort((a, b) => (a.slice(7) < b.slice(7) ? -1 : 1)).map((op) => `  ${op}`));
process.stdout.write(`${lines.join('\n')}\n`);
