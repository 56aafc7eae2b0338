/**
 * Lets Node import the worker's Text modules (wrangler.toml `[[rules]]`: `*.txt`, the reference
 * page's files) as wrangler does: the file's content as the default export. Import this module
 * before importing src/index.ts from a Node script (scripts/bench/js-cost.ts, its --explain too).
 */
import { register } from "node:module";

const hooks = `
export async function load(url, context, nextLoad) {
  if (!url.endsWith(".txt")) return nextLoad(url, context);
  const { readFile } = await import("node:fs/promises");
  const text = await readFile(new URL(url), "utf8");
  return { format: "module", shortCircuit: true, source: "export default " + JSON.stringify(text) + ";" };
}
`;

register(`data:text/javascript,${encodeURIComponent(hooks)}`);
