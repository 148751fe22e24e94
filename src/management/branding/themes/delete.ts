import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { ThemeIdParams } from './schema.js';
import type { ThemeService } from './service.js';

/** DELETE /api/v2/branding/themes/{themeId} → 204; the pages go back to the branding alone. */
export const deleteTheme: ManagementRouteFactory<ThemeService> = (_ctx, themes) =>
  managementRoute({
    method: 'DELETE',
    url: '/branding/themes/:themeId',
    config: { scopes: ['delete:branding'] },
    schema: { params: ThemeIdParams, response: { 204: NoContent } },
    handler: async (request, reply) => {
      await themes.delete(request.tenant, request.params.themeId);
      return reply.code(204).send();
    },
  });
