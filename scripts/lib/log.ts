/**
 * Progress lines with timings, kept short: one line when a step starts, one when it ends.
 */

const started = performance.now();

/** Seconds since the script started, e.g. `3.4 s`. */
export function sinceStart(): string {
  return seconds(performance.now() - started);
}

/** Milliseconds as `1.2 s`. */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** Prints an indented detail line. */
export function info(text: string): void {
  console.log(`  ${text}`);
}

/** Prints a warning line to stderr. */
export function warn(text: string): void {
  console.warn(`  ! ${text}`);
}

/**
 * Runs one step, printing `▸ label` before and `✓ label (1.2 s)` or `✗ label (1.2 s)` after.
 * The step's own result (or error) is passed through unchanged.
 * @example await step("Applying migrations", () => applyMigrations())
 */
export async function step<T>(label: string, run: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  console.log(`▸ ${label}…`);
  try {
    const result = await run();
    console.log(`✓ ${label} (${seconds(performance.now() - t0)})`);
    return result;
  } catch (err) {
    console.log(`✗ ${label} (${seconds(performance.now() - t0)})`);
    throw err;
  }
}
