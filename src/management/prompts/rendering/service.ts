/**
 * The screens' render settings through the Management API: the changes are
 * checked (400 with the reason; 403 for `advanced` on a screen Gatehouse
 * does not render in advanced mode, the service's answer for a screen
 * outside Advanced Customizations), then applied; a bulk update checks
 * every config before it writes any.
 */
import {
  ADVANCED_SCREENS,
  applyRendering,
  isScreenOf,
  listRendering,
  readRendering,
  renderingProblem,
  writeRendering,
  type ScreenRendering,
  type StoredRendering,
} from '../../../domain/branding/rendering.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { ManagementError, managementErrors } from '../../../platform/http/errors.js';
import { fieldSelection, selectFields } from '../../fields.js';

export interface RenderingListQuery {
  fields?: string;
  include_fields?: boolean;
  page?: number;
  per_page?: number;
  include_totals?: boolean;
  prompt?: string;
  screen?: string;
  rendering_mode?: 'advanced' | 'standard';
}

const DEFAULT_PER_PAGE = 50;

export class RenderingService {
  constructor(private readonly ctx: UiSettingsContext) {}

  /** The screen's prompt must be its own: 400 in the words of a bad URI otherwise. */
  private screenOf(prompt: string, screen: string): void {
    if (!isScreenOf(prompt, screen)) throw managementErrors.badRequest(`The screen '${screen}' is not a screen of the prompt '${prompt}'.`, 'invalid_uri');
  }

  private check(prompt: string, screen: string, changes: Record<string, unknown>, at = ''): void {
    const problem = renderingProblem(changes);
    if (problem !== undefined) throw managementErrors.invalidBody(`Payload validation error: ${at}${problem}.`);
    if (changes.rendering_mode === 'advanced' && !ADVANCED_SCREENS.has(`${prompt}/${screen}`))
      throw new ManagementError(403, `This screen is not available in Advanced Customizations: Gatehouse renders ${[...ADVANCED_SCREENS].join(', ')} in advanced mode.`, 'operation_not_supported');
  }

  async get(tenant: Tenant, prompt: string, screen: string): Promise<ScreenRendering & { tenant: string; prompt: string; screen: string }> {
    this.screenOf(prompt, screen);
    return { tenant: tenant.name, prompt, screen, ...(await readRendering(this.ctx, tenant.id, prompt, screen)) };
  }

  async update(tenant: Tenant, prompt: string, screen: string, changes: Record<string, unknown>): Promise<ScreenRendering> {
    this.screenOf(prompt, screen);
    this.check(prompt, screen, changes);
    const next = applyRendering(await readRendering(this.ctx, tenant.id, prompt, screen), changes);
    await writeRendering(this.ctx, tenant.id, prompt, screen, next);
    return next;
  }

  async bulkUpdate(tenant: Tenant, configs: readonly ({ prompt: string; screen: string } & Record<string, unknown>)[]): Promise<{ configs: StoredRendering[] }> {
    const seen = new Set<string>();
    for (const [i, { prompt, screen, ...changes }] of configs.entries()) {
      this.screenOf(prompt, screen);
      if (seen.has(`${prompt}/${screen}`)) throw managementErrors.invalidBody(`Payload validation error: configs[${i}] names ${prompt}/${screen} a second time.`);
      seen.add(`${prompt}/${screen}`);
      this.check(prompt, screen, changes, `configs[${i}].`);
    }
    const out: StoredRendering[] = [];
    for (const { prompt, screen, ...changes } of configs) {
      const next = applyRendering(await readRendering(this.ctx, tenant.id, prompt, screen), changes);
      await writeRendering(this.ctx, tenant.id, prompt, screen, next);
      out.push({ prompt, screen, ...next });
    }
    return { configs: out };
  }

  async list(tenant: Tenant, query: RenderingListQuery) {
    const all = (await listRendering(this.ctx, tenant.id)).filter(
      (r) => (query.prompt === undefined || r.prompt === query.prompt) && (query.screen === undefined || r.screen === query.screen) && (query.rendering_mode === undefined || r.rendering_mode === query.rendering_mode),
    );
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const start = (query.page ?? 0) * perPage;
    const selection = fieldSelection(query);
    const configs = all.slice(start, start + perPage).map((r) => selectFields({ tenant: tenant.name, ...r }, selection));
    return query.include_totals ? { configs, start, limit: perPage, total: all.length } : configs;
  }
}
