// The documentation site: `npm run docs:build` (output in docs/.vitepress/dist, not committed),
// `npm run docs:dev` to read it locally. The pages are plain Markdown that also reads on the forge.
import { defineConfig } from 'vitepress';

export default defineConfig({
  title: 'Gatehouse',
  description: 'Self-hostable identity platform: Management API v2 and Authentication API',
  cleanUrls: true,
  markdown: {
    // Inline code is text, as on the forge: `{{code}}` (a Liquid template) is not a Vue interpolation.
    config(md) {
      const render = md.renderer.rules.code_inline!;
      md.renderer.rules.code_inline = (...args) => render(...args).replace(/^<code/, '<code v-pre');
    },
  },
  themeConfig: {
    search: { provider: 'local' },
    outline: 'deep',
    sidebar: [
      {
        text: 'Start',
        items: [
          { text: 'Overview', link: '/' },
          { text: 'Getting started', link: '/getting-started' },
          { text: 'The admin console', link: '/admin-console' },
          { text: 'Configuration', link: '/configuration' },
          { text: 'Moving from the service', link: '/migrating' },
        ],
      },
      {
        text: 'Protocols',
        items: [
          { text: 'OAuth 2.0 and OpenID Connect', link: '/oauth-oidc' },
          { text: 'FAPI', link: '/fapi' },
          { text: 'SAML and WS-Federation', link: '/saml' },
          { text: 'MFA and passwordless', link: '/mfa' },
          { text: 'Organizations', link: '/organizations' },
          { text: 'Federated login', link: '/federation' },
          { text: 'Federation and Actions', link: '/federation-and-actions' },
          { text: 'Actions', link: '/actions' },
          { text: 'SCIM provisioning', link: '/scim' },
          { text: 'Device flow', link: '/device-flow' },
          { text: 'CIBA', link: '/ciba' },
          { text: 'Logout', link: '/logout' },
          { text: 'Hosted pages', link: '/hosted-pages' },
        ],
      },
      {
        text: 'Management API',
        items: [
          { text: 'Management API', link: '/management-api' },
          { text: 'Compatibility', link: '/management-api-compatibility' },
          { text: 'Tenant settings and keys', link: '/tenant-settings' },
          { text: 'Users and jobs', link: '/users' },
          { text: 'Tenant logs', link: '/tenant-logs' },
          { text: 'Event streams', link: '/event-streams' },
          { text: 'Attack protection and mail', link: '/attack-protection' },
        ],
      },
      {
        text: 'Operations',
        items: [
          { text: 'Overview', link: '/operations/' },
          { text: 'PostgreSQL and Redis', link: '/operations/postgresql-redis' },
          { text: 'Workers and memory', link: '/operations/workers' },
          { text: 'Health, metrics, logs, traces', link: '/operations/monitoring' },
          { text: 'Backup and restore', link: '/operations/backup' },
          { text: 'Upgrades', link: '/operations/upgrade' },
          { text: 'Security', link: '/operations/security' },
          { text: 'TLS', link: '/operations/tls' },
        ],
      },
      {
        text: 'Project',
        items: [
          { text: 'Benchmarks', link: '/benchmarks' },
          { text: 'Development', link: '/development' },
          { text: 'Architecture', link: '/architecture' },
        ],
      },
    ],
  },
});
