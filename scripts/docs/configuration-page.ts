/**
 * docs/configuration.md, made from the settings table of
 * src/platform/config.ts (SETTINGS): every environment variable, its meaning
 * and its default, as written there once. `npm run docs:generate` writes the
 * page; test/docs/generated-pages.test.ts fails when it differs from this.
 */
import { SETTINGS } from '../../src/platform/config.js';

/** A table cell: pipes escaped, on one line. */
function cell(markdown: string): string {
  return markdown.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

export function configurationPage(): string {
  const rows = SETTINGS.map(
    (s) => `| \`${s.name}\` | ${cell(s.meaning)}${s.readBy ? ` (read by \`${s.readBy}\`)` : ''} | ${cell(s.default)} |`,
  );
  return [
    '<!-- Generated from src/platform/config.ts by `npm run docs:generate`; edit the settings table there, not this page. -->',
    '',
    '# Configuration',
    '',
    'All settings are environment variables, validated at start-up; a bad value',
    'stops the server (exit status 2) with a message naming the variable. Blank',
    'values count as unset. `npx gatehouse --help` prints this table.',
    '',
    '| variable | meaning | default |',
    '|---|---|---|',
    ...rows,
    '',
    'Keep the master key (or `data/master.key`) safe: client secrets and signing keys',
    'are sealed with it, and nothing sealed can be read without it (see',
    '[Backup and restore](operations/backup.md)).',
    '',
  ].join('\n');
}
