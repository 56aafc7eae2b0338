/**
 * What every screen of the calendar editor's browser check (scripts/editor-check.ts) looks at
 * besides its own steps: the page's uncaught errors, Content-Security-Policy violations and
 * dialogs (an `alert` from an author's text would be one), axe-core's serious and critical
 * accessibility violations, and a screenshot.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "./paths";

/** axe-core's script, injected into the page under test (its CSP does not apply to the driver). */
const AXE_SOURCE = readFileSync(
  createRequire(path.join(ROOT, "package.json")).resolve("axe-core/axe.min.js"),
  "utf8",
);

/** What a page did that it must not: filled in by the listeners `watchPage` adds. */
export interface PageWatch {
  problems: string[];
  /** Messages of dialogs the page opened (each dismissed). */
  dialogs: string[];
}

/**
 * Listens for uncaught errors, CSP violations (Chromium reports them on the console) and dialogs.
 * @example const watch = watchPage(page); …; expect(watch.dialogs).toEqual([])
 */
export function watchPage(page: Page): PageWatch {
  const watch: PageWatch = { problems: [], dialogs: [] };
  page.on("pageerror", (err) => watch.problems.push(`uncaught error in the page: ${err.message}`));
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text()))
      watch.problems.push(`CSP violation: ${m.text()}`);
  });
  page.on("dialog", (d) => {
    watch.dialogs.push(d.message());
    void d.dismiss();
  });
  return watch;
}

/**
 * axe-core's violations of impact serious or critical on the page as it is now (WCAG 2.1 A and
 * AA and axe's best practices), one line each.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: any }).axe;
    const result = await axe.run(document, { resultTypes: ["violations"] });
    return (result.violations as any[]).map((v) => ({
      id: v.id as string,
      impact: v.impact as string,
      help: v.help as string,
      targets: (v.nodes as any[]).slice(0, 3).map((n) => String(n.target)),
    }));
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `axe ${v.impact} ${v.id}: ${v.help} (${v.targets.join("; ")})`);
}

/** Writes `editor-<name>.png` (the whole page) into `outDir` and returns its path. */
export async function screenshot(page: Page, outDir: string, name: string): Promise<string> {
  const file = path.join(outDir, `editor-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
