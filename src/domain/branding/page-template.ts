/**
 * The tenant's page template (GET/PUT/DELETE
 * /api/v2/branding/templates/universal-login): a Liquid document around every
 * hosted page, with the service's two tags, `{%- auth0:head -%}` (what the
 * page needs in its head: charset, viewport, title, its two hashed style
 * elements) and `{%- auth0:widget -%}` (the page's card: the form, its CSRF
 * token and transaction state, its scripts), and the service's variables
 * (`locale`, `dir`, `application`, `branding`, `tenant`, `prompt`).
 *
 * Templates are tenant configuration held to limits, with liquidjs (never a
 * hand-written engine): at most 102,400 characters (the service's limit),
 * both tags required, no file tags (`include`, `render` and `layout` are
 * refused when the template is stored: there are no files to read), values
 * HTML-escaped, a render bounded in time and memory, an output of at most
 * 1 MiB. A template that fails at render is not used: the page is rendered
 * without it (renderPageTemplate answers undefined).
 */
import { createHash } from 'node:crypto';
import type * as LiquidModule from 'liquidjs';
import type { Liquid, Template } from 'liquidjs';
import { isoAt } from '../../platform/clock.js';
import { lazyModule } from '../../platform/lazy.js';
import type { UiSettingsContext } from './service.js';

const liquidjs = lazyModule<typeof LiquidModule>('liquidjs');

/** The service's limit on a template (its 400: "Payload content length greater than maximum allowed: 102400."). */
export const MAX_TEMPLATE_LENGTH = 102_400;
/** The most a rendered page may weigh: past it the template is not used. */
export const MAX_RENDERED_BYTES = 1024 * 1024;

const FILE_TAGS = ['include', 'render', 'layout'] as const;
const REQUIRED = [
  ['head', /\{%-?\s*auth0:head\s*-?%\}/],
  ['widget', /\{%-?\s*auth0:widget\s*-?%\}/],
] as const;

/** What the two tags write: the parts of the page, already rendered and escaped. */
export interface PageParts {
  head: string;
  widget: string;
}

let engine: Liquid | undefined;
function liquid(): Liquid {
  if (engine) return engine;
  const { Liquid: Engine, Tag } = liquidjs();
  const created = new Engine({ outputEscape: 'escape', parseLimit: MAX_TEMPLATE_LENGTH, renderLimit: 200, memoryLimit: 20_000_000, relativeReference: false, root: [] });
  created.registerTag(
    'auth0',
    class extends Tag {
      private readonly part: string;
      constructor(token: ConstructorParameters<typeof Tag>[0], remain: ConstructorParameters<typeof Tag>[1], engine: ConstructorParameters<typeof Tag>[2]) {
        super(token, remain, engine);
        this.part = token.args.trim().replace(/^:/, '');
        if (this.part !== 'head' && this.part !== 'widget') throw new Error(`unknown tag auth0:${this.part}`);
      }
      *render(ctx: { environments: unknown }, emitter: { write(html: string): void }): Generator<never, void> {
        const parts = (ctx.environments as { __parts?: PageParts }).__parts;
        emitter.write(parts?.[this.part as keyof PageParts] ?? '');
      }
    },
  );
  for (const name of FILE_TAGS) {
    created.registerTag(
      name,
      class extends Tag {
        constructor(token: ConstructorParameters<typeof Tag>[0], remain: ConstructorParameters<typeof Tag>[1], engine: ConstructorParameters<typeof Tag>[2]) {
          super(token, remain, engine);
          throw new Error(`the ${name} tag is not available: a page template reads no files`);
        }
        *render(): Generator<never, void> {}
      },
    );
  }
  engine = created;
  return created;
}

/** Why `template` cannot be the page template (the service's 400 messages where it has them), or undefined. */
export function pageTemplateProblem(template: string): string | undefined {
  if (template.length > MAX_TEMPLATE_LENGTH) return `Payload content length greater than maximum allowed: ${MAX_TEMPLATE_LENGTH}.`;
  if (!REQUIRED.every(([, tag]) => tag.test(template))) return 'Payload content missing required Liquid tags (auth0:head and auth0:widget).';
  const problem = liquidProblem(template);
  return problem === undefined ? undefined : `Liquid template syntax error: ${problem}.`;
}

/** Parsed templates by their text's hash: a change of template is a new key, so nothing has to be invalidated. */
const parsed = new Map<string, Template[]>();
const MAX_PARSED = 64;

function parse(template: string): Template[] {
  const key = createHash('sha256').update(template).digest('base64url');
  let found = parsed.get(key);
  if (!found) {
    found = liquid().parse(template);
    if (parsed.size >= MAX_PARSED) parsed.delete(parsed.keys().next().value!);
    parsed.set(key, found);
  }
  return found;
}

/**
 * The page inside the template, or undefined when the template fails to
 * render (a syntax the stored check let through, the time or memory limit, an
 * output over MAX_RENDERED_BYTES): the caller then sends the page without it.
 */
export function renderPageTemplate(template: string, parts: PageParts, variables: Record<string, unknown>): string | undefined {
  try {
    const out = liquid().renderSync(parse(template), { ...variables, __parts: parts });
    return Buffer.byteLength(out, 'utf8') <= MAX_RENDERED_BYTES ? out : undefined;
  } catch {
    return undefined;
  }
}

/** The most one rendered prompt partial may weigh: past it the partial is left out. */
export const MAX_PARTIAL_OUTPUT_BYTES = 64 * 1024;

/** Why `source` cannot be parsed as a partial by the pages' engine (file tags are refused as in a template), or undefined. */
export function liquidProblem(source: string): string | undefined {
  try {
    liquid().parse(source);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0] : 'unreadable';
  }
}

/**
 * A prompt partial (./partials.ts) rendered by the same engine and limits
 * as the page template, or '' when it fails or weighs more than
 * MAX_PARTIAL_OUTPUT_BYTES: the page is then shown without it.
 */
export function renderPartial(source: string, variables: Record<string, unknown>): string {
  try {
    const out = liquid().renderSync(parse(source), variables);
    return Buffer.byteLength(out, 'utf8') <= MAX_PARTIAL_OUTPUT_BYTES ? out : '';
  } catch {
    return '';
  }
}

export async function readPageTemplate(ctx: UiSettingsContext, tenantId: string): Promise<string | undefined> {
  const row = await ctx.stores.uiSettings.get(tenantId, 'page_template', 'universal-login');
  return (row?.value as { body?: string } | undefined)?.body;
}

/** Stores the template (checked by pageTemplateProblem first); true when there was none before. */
export async function putPageTemplate(ctx: UiSettingsContext, tenantId: string, body: string): Promise<boolean> {
  const row = { tenant_id: tenantId, kind: 'page_template' as const, key: 'universal-login', value: { body }, updated_at: isoAt(ctx.now()) };
  if (await ctx.stores.uiSettings.insertNew(row)) return true;
  await ctx.stores.uiSettings.put(row);
  return false;
}

export function deletePageTemplate(ctx: UiSettingsContext, tenantId: string): Promise<boolean> {
  return ctx.stores.uiSettings.delete(tenantId, 'page_template', 'universal-login');
}
