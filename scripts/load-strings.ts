/**
 * `npm run strings:load [-- --remote]`: puts every src/i18n/strings/<lang>.json into the KV binding
 * STRINGS as `strings:<lang>` (local state of `wrangler dev` by default, the deployed namespace with
 * `--remote`). Files must be JSON shaped like en.json; keys missing versus English are warnings.
 * Exit code 1 on an unusable file or a wrangler failure.
 */

import { readWranglerVars } from "./lib/config";
import { step, warn } from "./lib/log";
import { exitOnSignals } from "./lib/processes";
import { languageWarnings, putLanguageFiles, readLanguageFiles } from "./lib/strings";

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== "--remote");
if (unknown.length) {
  console.error(
    `Unknown argument(s): ${unknown.join(" ")}\nUsage: npm run strings:load [-- --remote]`,
  );
  process.exit(2);
}
const remote = args.includes("--remote");
exitOnSignals();

try {
  const files = readLanguageFiles();
  const configured = String(readWranglerVars().LANGUAGES ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const line of languageWarnings(files, configured)) warn(line);
  const langs = await step(`Loading strings into KV STRINGS (${remote ? "remote" : "local"})`, () =>
    putLanguageFiles(files, { remote }),
  );
  console.log(`  ${langs.map((l) => `strings:${l}`).join(", ")}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
