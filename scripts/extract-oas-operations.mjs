#!/usr/bin/env node
/**
 * Extracts the list of the service's Management API operations from its
 * published OpenAPI document (../shared/reference/auth0-management-api.oas.json
 * by default) into src/management/not-available/service-operations.generated.json:
 * for each path template, each method and the scopes its security requirement
 * names. Gatehouse answers the operations it does not implement from this list
 * (src/management/not-available/), telling them apart from paths no service
 * has. Run again when the OpenAPI document changes:
 *
 *   node scripts/extract-oas-operations.mjs [path/to/management-api.oas.json]
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const source = process.argv[2] ?? path.join(root, '../shared/reference/auth0-management-api.oas.json');
const oas = JSON.parse(fs.readFileSync(source, 'utf8'));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const operations = {};
for (const [template, item] of Object.entries(oas.paths)) {
  for (const method of METHODS) {
    const operation = item[method];
    if (!operation) continue;
    const scopes = (operation.security ?? []).flatMap((requirement) => requirement.oAuth2ClientCredentials ?? []);
    (operations[template] ??= {})[method.toUpperCase()] = [...new Set(scopes)].sort();
  }
}
const target = path.join(root, 'src/management/not-available/service-operations.generated.json');
fs.writeFileSync(target, JSON.stringify({ source: path.basename(source), operations }, null, 1) + '\n');
const count = Object.values(operations).reduce((n, methods) => n + Object.keys(methods).length, 0);
console.log(`wrote ${path.relative(root, target)} (${Object.keys(operations).length} paths, ${count} operations)`);
