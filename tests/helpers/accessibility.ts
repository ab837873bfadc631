/**
 * axe-core in the e2e browser: every screenshot a spec takes (each screen, in both languages and
 * both themes through `screenshotMatrix`) is also checked, and a serious or critical violation
 * fails the step with what and where. Moderate and minor findings are not gated: axe rates them
 * as advice, and several are about the whole-page structure of a single-page application.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The WCAG 2.1 A/AA rules and axe's best practices. */
const RULE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const GATED = new Set(['serious', 'critical']);

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** How long a finding must last to count: a message fading in is not yet its final colour. */
const RECHECK_AFTER_MS = 500;

/**
 * Serious and critical violations on the page as it is now, kept only when a second check a moment
 * later finds the same rule broken: an element caught mid-transition (an error message fading in,
 * which Arco animates with classes the animation wait cannot always see) is not a finding.
 */
export async function accessibilityFindings(page: Page): Promise<AxeFinding[]> {
  const first = await checkOnce(page);
  if (first.length === 0) return first;
  await page.waitForTimeout(RECHECK_AFTER_MS);
  const again = await checkOnce(page);
  return again.filter((f) => first.some((g) => g.id === f.id));
}

async function checkOnce(page: Page): Promise<AxeFinding[]> {
  // Through the debugging protocol, not a script tag: the console's CSP allows only its own scripts.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (tags) => {
    type Check = { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number; expectedContrastRatio?: string } | null };
    type Node = { target: unknown[]; any: Check[] };
    type Result = { violations: { id: string; impact: string | null; help: string; nodes: Node[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    // A contrast finding names the colours that met: enough to find the token to tune.
    const where = (n: Node): string => {
      const d = n.any.find((c) => c.data?.fgColor)?.data;
      const colours = d ? ` (${d.fgColor} on ${d.bgColor}: ${d.contrastRatio}, needs ${d.expectedContrastRatio})` : '';
      return n.target.join(' ') + colours;
    };
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'minor', help: v.help, targets: v.nodes.slice(0, 5).map(where) }));
  }, RULE_TAGS);
  return violations.filter((v) => GATED.has(v.impact));
}

export function describeFindings(findings: readonly AxeFinding[]): string {
  return findings.map((f) => `  [${f.impact}] ${f.id}: ${f.help}\n    ${f.targets.join('\n    ')}`).join('\n');
}
