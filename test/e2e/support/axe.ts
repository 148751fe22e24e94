/**
 * axe-core in a page for WCAG 2.2 AA (tags wcag2a, wcag2aa, wcag21a,
 * wcag21aa, wcag22aa). axe is injected with page.evaluate of axe.min.js:
 * DevTools evaluation is not subject to a page's CSP, which allows no
 * foreign script.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT } from '../../helpers/server-process.js';

const AXE_SOURCE = fs.readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[]; failureSummary: string }[];
}

/** axe-core's WCAG 2.2 AA violations of the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(AXE_SOURCE);
  // A string, run in the page (the tests compile without the DOM's types).
  return page.evaluate(`window.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(WCAG_TAGS)} } }).then((result) =>
    result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })) })))`);
}
