/**
 * The tenant's theme through the Management API: the one theme a tenant may
 * have, its id checked on every call that names one. The answers where the
 * document gives no message are this project's (the wire notes record none):
 * a second create is 409, an unknown id or no theme 404.
 */
import { createTheme, deleteTheme, readTheme, updateTheme, type Theme, type ThemeBody } from '../../../domain/branding/theme.js';
import type { UiSettingsContext } from '../../../domain/branding/service.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { managementErrors } from '../../../platform/http/errors.js';

const noTheme = () => managementErrors.notFound('The theme does not exist', 'inexistent_theme');

export class ThemeService {
  constructor(private readonly ctx: UiSettingsContext) {}

  async create(tenant: Tenant, body: ThemeBody): Promise<Theme> {
    const theme = await createTheme(this.ctx, tenant.id, body);
    if (!theme) throw managementErrors.conflict('A theme already exists for this tenant: update it with PATCH /api/v2/branding/themes/{themeId}', 'theme_exists');
    return theme;
  }

  async getDefault(tenant: Tenant): Promise<Theme> {
    const theme = await readTheme(this.ctx, tenant.id);
    if (!theme) throw managementErrors.notFound('No theme has been created for this tenant', 'inexistent_theme');
    return theme;
  }

  async get(tenant: Tenant, themeId: string): Promise<Theme> {
    const theme = await readTheme(this.ctx, tenant.id);
    if (theme?.themeId !== themeId) throw noTheme();
    return theme;
  }

  async update(tenant: Tenant, themeId: string, body: ThemeBody): Promise<Theme> {
    return (await updateTheme(this.ctx, tenant.id, themeId, body)) ?? Promise.reject(noTheme());
  }

  async delete(tenant: Tenant, themeId: string): Promise<void> {
    if (!(await deleteTheme(this.ctx, tenant.id, themeId))) throw noTheme();
  }
}
