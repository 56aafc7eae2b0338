/**
 * The reference page's static files (contract §7.6): Swagger UI's script and styles with its licence
 * files, copied from the `swagger-ui-dist` package at build time (scripts/lib/reference-assets.ts),
 * and the page's own script and styles (`browser/`). The worker serves them itself
 * (./files.ts), under a path that no API route can take: `_` is allowed neither in `REST_PREFIX` nor
 * in a language code (src/settings.ts).
 */

/** URL path of the reference page's static files, with trailing slash. */
export const REFERENCE_ASSETS_PATH = "/_reference/";

/** Files the page loads, in order, by kind; each is served at `REFERENCE_ASSETS_PATH + name`. */
export const REFERENCE_PAGE_FILES = {
  styles: ["swagger-ui.css", "reference.css"],
  scripts: ["swagger-ui-bundle.js", "reference.js"],
} as const;

/** Every file served: the page's, and Swagger UI's licence and notice (section 4 of the Apache License 2.0). */
export const REFERENCE_FILES = [
  ...REFERENCE_PAGE_FILES.styles,
  ...REFERENCE_PAGE_FILES.scripts,
  "swagger-ui.LICENSE.txt",
  "swagger-ui.NOTICE.txt",
  "swagger-ui-bundle.js.LICENSE.txt",
] as const;

/** The name of a served file. */
export type ReferenceFile = (typeof REFERENCE_FILES)[number];

/**
 * URL of a static file of the page.
 * @example referenceAsset("swagger-ui.css") // "/_reference/swagger-ui.css"
 */
export const referenceAsset = (name: string) => `${REFERENCE_ASSETS_PATH}${name}`;
