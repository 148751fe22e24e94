/** The README is the one screen a newcomer reads: short, and pointing into docs/. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, it } from 'node:test';
import { markdownLinks } from './markdown.js';

const readme = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README.md', () => {
  it('is at most 300 lines', () => {
    assert.ok(readme.split('\n').length <= 300, `${readme.split('\n').length} lines`);
  });

  it('gives the two commands and leads to the documentation and the benchmarks', () => {
    assert.match(readme, /^npm ci && npm start\b/m);
    assert.match(readme, /^npm test\b/m);
    const links = markdownLinks(readme);
    for (const page of ['docs/getting-started.md', 'docs/configuration.md', 'docs/benchmarks.md', 'docs/migrating.md']) {
      assert.ok(links.some((link) => link.split('#')[0] === page), `links to ${page}`);
    }
  });
});
