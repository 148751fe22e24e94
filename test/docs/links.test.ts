/**
 * Every internal link of the documentation (docs/ and README.md) resolves:
 * the file exists and, for a `#anchor`, the page has a heading of that slug,
 * made as VitePress makes them. A page of the site links only to pages
 * inside docs/ (VitePress refuses a build with a link to a page it does not
 * have).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { headingSlugs, markdownLinks, slugify } from './markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = path.join(ROOT, 'docs');

function pages(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? pages(full) : entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The file a link's path names: VitePress's clean URLs (no extension, or a folder's index.md) included. */
function target(from: string, link: string): string | undefined {
  const resolved = link === '' ? from : path.resolve(path.dirname(from), decodeURI(link));
  const candidates = link.endsWith('/') ? [path.join(resolved, 'index.md')] : [resolved, `${resolved}.md`, path.join(resolved, 'index.md')];
  return candidates.find((file) => fs.existsSync(file) && fs.statSync(file).isFile());
}

describe('documentation links', () => {
  it('slugs are made as VitePress makes them', () => {
    assert.equal(slugify('What differs'), 'what-differs');
    assert.equal(slugify('`GET`/`PATCH /api/v2/tenants/settings`'), 'get-patch-api-v2-tenants-settings');
    assert.equal(slugify("Attack protection and the tenant's mail"), 'attack-protection-and-the-tenant-s-mail');
    assert.equal(slugify('1. Export'), '_1-export');
    assert.deepEqual([...headingSlugs('# A\n\n```\n# not a heading\n```\n\n## B c\n\n## B c\n')], ['a', 'b-c', 'b-c-1']);
  });

  const files = [path.join(ROOT, 'README.md'), ...pages(DOCS)];
  for (const file of files) {
    it(`${path.relative(ROOT, file)}: every internal link resolves`, () => {
      const text = fs.readFileSync(file, 'utf8');
      const broken: string[] = [];
      for (const link of markdownLinks(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
        const [filePart = '', anchor] = link.split('#', 2);
        const page = target(file, filePart);
        if (page === undefined) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (file.startsWith(DOCS + path.sep) && page.endsWith('.md') && !page.startsWith(DOCS + path.sep)) {
          broken.push(`${link}: a page outside docs/, which the site does not have`);
        }
        if (anchor !== undefined && page.endsWith('.md') && !headingSlugs(fs.readFileSync(page, 'utf8')).has(anchor)) {
          broken.push(`${link}: no heading #${anchor} in ${path.relative(ROOT, page)}`);
        }
      }
      assert.deepEqual(broken, []);
    });
  }

  it('finds the links of a page, and not those in code', () => {
    const text = 'See [a](a.md#x) and [b](../b.md).\n\n`[c](c.md)`\n\n```\n[d](d.md)\n```\n\n[e]( e.md "title")\n';
    assert.deepEqual(markdownLinks(text), ['a.md#x', '../b.md', 'e.md']);
  });
});
