/**
 * The tenant's message templates (passwordless email, MFA SMS), rendered
 * with liquidjs (the service's `syntax: "liquid"`), never hand-written. Templates are tenant
 * configuration, so they are held to limits: no file access (`include` and
 * `render` find nothing), a bounded template size, render time and memory,
 * and values escaped for HTML in the body (the subject is plain text).
 * liquidjs is loaded with the first template (platform/lazy.ts).
 */
import type * as LiquidModule from 'liquidjs';
import type { FS, Liquid } from 'liquidjs';
import { lazyModule } from '../platform/lazy.js';

const liquid = lazyModule<typeof LiquidModule>('liquidjs');

/** A file system with no files: `{% include %}` and `{% render %}` cannot read the server's disk. */
const NO_FILES: FS = {
  exists: async () => false,
  existsSync: () => false,
  readFile: async () => {
    throw new Error('templates cannot include files');
  },
  readFileSync: () => {
    throw new Error('templates cannot include files');
  },
  resolve: (_dir, file) => file,
};

const LIMITS = { fs: NO_FILES, root: [], relativeReference: false, parseLimit: 70_000, renderLimit: 500, memoryLimit: 10_000_000 };
let engines: { html: Liquid; text: Liquid } | undefined;
function engine(kind: 'html' | 'text'): Liquid {
  engines ??= { html: new (liquid().Liquid)({ ...LIMITS, outputEscape: 'escape' }), text: new (liquid().Liquid)(LIMITS) };
  return engines[kind];
}

/** Why `template` does not parse, or undefined. */
export function renderTemplateProblem(template: string): string | undefined {
  try {
    engine('text').parse(template);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : 'unreadable';
  }
}

export function renderHtml(template: string, variables: Record<string, unknown>): Promise<string> {
  return engine('html').parseAndRender(template, variables);
}

/** Plain text, on one line (a subject or a sender). */
export async function renderLine(template: string, variables: Record<string, unknown>): Promise<string> {
  return (await engine('text').parseAndRender(template, variables)).replace(/[\r\n]+/g, ' ').trim();
}
