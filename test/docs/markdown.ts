/** What the documentation tests read of a Markdown page: its links and its headings' anchors. */

/** The page without fenced code blocks and inline code, whose contents are no links or headings. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`]*`/g, '``');
}

/** The targets of the page's inline links `[text](target "title")` (images included). */
export function markdownLinks(markdown: string): string[] {
  const links: string[] = [];
  for (const match of withoutCode(markdown).matchAll(/\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) links.push(match[1]!);
  return links;
}

/**
 * VitePress's heading slugs (@mdit-vue/shared `slugify`, which its markdown-it
 * anchors use): the heading's text, accents and control characters removed,
 * each run of spaces and punctuation one `-`, none at either end, `_` before
 * a leading digit, lower case.
 */
export function slugify(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036F]/g, '')
    .replace(/[\u0000-\u001f]/g, '')
    .replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .replace(/^(\d)/, '_$1')
    .toLowerCase();
}

/** The anchors of the page's ATX headings; a repeated slug gets `-1`, `-2` … as in VitePress. */
export function headingSlugs(markdown: string): Set<string> {
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const slugs = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slugify(match[1]!);
    let slug = base;
    for (let n = 1; slugs.has(slug); n++) slug = `${base}-${n}`;
    slugs.add(slug);
  }
  return slugs;
}
