/**
 * The generated pages of the documentation are what their generators make
 * now: docs/configuration.md from the settings table of
 * src/platform/config.ts, docs/management-api-compatibility.md from the
 * service's operations and the served routes. A setting or route changed
 * without `npm run docs:generate` fails here.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { SETTINGS } from '../../src/platform/config.js';
import { GENERATED_PAGES } from '../../scripts/docs/generate.js';

const page = (name: string) => fs.readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');

describe('generated documentation pages', () => {
  for (const [name, make] of Object.entries(GENERATED_PAGES)) {
    it(`docs/${name} is what \`npm run docs:generate\` makes`, () => {
      assert.equal(page(name), make(), `docs/${name} is out of date: run npm run docs:generate`);
    });
  }

  it('the configuration page lists every setting with its default, GATEHOUSE_OUTBOUND_ALLOW and OTEL_EXPORTER_OTLP_ENDPOINT among them', () => {
    const text = page('configuration.md');
    for (const setting of SETTINGS) assert.ok(text.includes(`| \`${setting.name}\` |`), setting.name);
    assert.match(text, /\| `GATEHOUSE_OUTBOUND_ALLOW` \|.*\| none: public addresses only \|/);
    assert.match(text, /\| `OTEL_EXPORTER_OTLP_ENDPOINT` \|/);
  });

  it('the compatibility page counts every operation of the service once', () => {
    const text = page('management-api-compatibility.md');
    const rows = [...text.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) (\/[^`]*)` \| ([^|]+) \|/gm)];
    const total = Number(/\| \*\*all operations of the document\*\* \| (\d+) \|/.exec(text)?.[1]);
    assert.equal(rows.length, total);
    assert.equal(new Set(rows.map((r) => `${r[1]} ${r[2]}`)).size, total);
    const served = Number(/^\| served \| (\d+) \|/m.exec(text)?.[1]);
    assert.equal(rows.filter((r) => r[3]!.trim() === 'served').length, served);
    assert.ok(served > 100, 'most of the Management API is served');
  });
});
