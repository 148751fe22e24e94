/**
 * Writes the generated pages of the documentation site:
 * docs/configuration.md (from src/platform/config.ts) and
 * docs/management-api-compatibility.md (from the service's OpenAPI document
 * and the served routes). `npm run docs:generate`; commit the result.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compatibilityPage } from './compatibility-page.js';
import { configurationPage } from './configuration-page.js';

const docs = fileURLToPath(new URL('../../docs/', import.meta.url));

export const GENERATED_PAGES: Record<string, () => string> = {
  'configuration.md': configurationPage,
  'management-api-compatibility.md': compatibilityPage,
};

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const [name, make] of Object.entries(GENERATED_PAGES)) {
    fs.writeFileSync(path.join(docs, name), make());
    console.log(`wrote docs/${name}`);
  }
}
