#!/usr/bin/env node
/**
 * Extracts the client schemas from the service's published OpenAPI document
 * (../shared/reference/auth0-management-api.oas.json by default) into
 * src/management/clients/oas-schemas.generated.json, with every $ref resolved:
 * the two request bodies and `Client`, the object every client operation
 * answers with (`GetClientResponseContent`, `CreateClientResponseContent`,
 * `UpdateClientResponseContent` and `RotateClientSecretResponseContent` are
 * the same schema, and the three shapes of the list hold it; checked below).
 * The project then layers the specification's own rules on top of them in
 * src/management/clients/schema.ts. It also extracts the tenant settings
 * request and response (`UpdateTenantSettingsRequestContent`,
 * `GetTenantSettingsResponseContent`, which PATCH answers with too; checked
 * below) into src/management/tenants/settings/oas-schemas.generated.json, used by
 * src/management/tenants/settings/schema.ts, and the branding theme request and response into
 * src/management/branding/themes/oas-schemas.generated.json (src/management/branding/themes/schema.ts).
 * Run again when the OpenAPI document changes:
 *
 *   node scripts/extract-oas-schemas.mjs [path/to/management-api.oas.json]
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const source = process.argv[2] ?? path.join(root, '../shared/reference/auth0-management-api.oas.json');
const oas = JSON.parse(fs.readFileSync(source, 'utf8'));
const schemas = oas.components.schemas;

/** Members that only document; they would bloat the file and mean nothing to the validator. */
const DROP = new Set(['x-release-lifecycle', 'x-description-1', 'x-description-2', 'examples', 'example', 'title']);

function resolve(node, stack, names = false) {
  if (Array.isArray(node)) return node.map((item) => resolve(item, stack));
  if (!node || typeof node !== 'object') return node;
  if (node.$ref) {
    const name = node.$ref.split('/').pop();
    if (stack.includes(name)) throw new Error(`recursive schema ${stack.join(' > ')} > ${name}`);
    const { $ref: _ref, ...siblings } = node;
    return { ...resolve(schemas[name], [...stack, name]), ...resolve(siblings, stack) };
  }
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    // The members of `properties` are names of the schema's object (a theme's fonts have a `title`), never documentation.
    if (!names && (DROP.has(key) || key.startsWith('x-'))) continue;
    out[key] = resolve(value, stack, !names && key === 'properties');
  }
  return out;
}

const NAMES = ['CreateClientRequestContent', 'UpdateClientRequestContent', 'Client'];

// The responses of the client operations must all be `Client`, or the project would need more than one response schema.
const CLIENT_RESPONSES = ['GetClientResponseContent', 'CreateClientResponseContent', 'UpdateClientResponseContent', 'RotateClientSecretResponseContent'];
for (const name of CLIENT_RESPONSES) {
  if (JSON.stringify(resolve(schemas[name], [name])) !== JSON.stringify(resolve(schemas.Client, ['Client']))) {
    throw new Error(`${name} is no longer the Client schema: src/management/clients/schema.ts needs a response schema of its own for it`);
  }
}
const listItems = oas.paths['/clients'].get.responses['200'].content['application/json'].schema.oneOf.map((shape) =>
  (shape.items ?? schemas[shape.$ref.split('/').pop()].properties.clients.items).$ref,
);
if (!listItems.every((ref) => ref === '#/components/schemas/Client')) throw new Error('GET /clients no longer lists Client objects');
/** Writes the named schemas, every $ref resolved, to `file` (relative to the project). */
function writeSchemas(file, names) {
  const target = path.join(root, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, JSON.stringify({ source: path.basename(source), schemas: Object.fromEntries(names.map((n) => [n, resolve(schemas[n], [n])])) }, null, 1) + '\n');
  console.log(`wrote ${file} (${names.join(', ')})`);
}

writeSchemas('src/management/clients/oas-schemas.generated.json', NAMES);

// Tenant settings: PATCH answers with the GET schema, or the project would need a second response schema.
if (JSON.stringify(resolve(schemas.UpdateTenantSettingsResponseContent, ['U'])) !== JSON.stringify(resolve(schemas.GetTenantSettingsResponseContent, ['U']))) {
  throw new Error('UpdateTenantSettingsResponseContent is no longer GetTenantSettingsResponseContent: src/management/tenants/settings/schema.ts needs a second response schema');
}
writeSchemas('src/management/tenants/settings/oas-schemas.generated.json', ['UpdateTenantSettingsRequestContent', 'GetTenantSettingsResponseContent']);

// Branding themes: every theme operation answers with GetBrandingThemeResponseContent and takes
// CreateBrandingThemeRequestContent (PATCH's request is the same schema), or src/management/branding/themes/schema.ts needs more.
for (const name of ['CreateBrandingThemeResponseContent', 'GetBrandingDefaultThemeResponseContent', 'UpdateBrandingThemeResponseContent']) {
  if (JSON.stringify(resolve(schemas[name], ['T'])) !== JSON.stringify(resolve(schemas.GetBrandingThemeResponseContent, ['T']))) {
    throw new Error(`${name} is no longer GetBrandingThemeResponseContent: src/management/branding/themes/schema.ts needs a response schema of its own for it`);
  }
}
if (JSON.stringify(resolve(schemas.UpdateBrandingThemeRequestContent, ['T'])) !== JSON.stringify(resolve(schemas.CreateBrandingThemeRequestContent, ['T']))) {
  throw new Error('UpdateBrandingThemeRequestContent is no longer CreateBrandingThemeRequestContent: src/management/branding/themes/schema.ts needs a second request schema');
}
writeSchemas('src/management/branding/themes/oas-schemas.generated.json', ['CreateBrandingThemeRequestContent', 'GetBrandingThemeResponseContent']);
