/**
 * The launcher (bin/gatehouse.cjs) keeps V8's young generation from growing
 * while the server starts, so that start-up allocations, which mostly live as
 * long as the process, do not leave a grown young generation resident while
 * the server is idle. Once the server listens, the young generation grows
 * again as V8 would grow it by default: a server under load keeps its
 * throughput (`npm run bench:startup` measures both).
 */
import v8 from 'node:v8';

/** V8's default `--semi-space-growth-factor` (Node.js 20 to 24). */
const DEFAULT_SEMI_SPACE_GROWTH_FACTOR = 2;

/** Lets the young generation grow again as by default; called once the server listens. */
export function restoreYoungGenerationGrowth(): void {
  v8.setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_SEMI_SPACE_GROWTH_FACTOR}`);
}
