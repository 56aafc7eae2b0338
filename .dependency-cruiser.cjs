// The layers of the worker and the rules between them, checked by `npm run lint`
// (`depcruise src tools scripts`; README, Layout). Every import counts, type-only ones included.
//
// The worker's code (src/) is in five layers, lowest first; a module imports only from its own
// layer or lower ones:
//
//   1. base       src/settings.ts, src/time/, src/text/, src/i18n/, src/lib/ (generic helpers:
//                 the `Memo`), src/access/ (WordPress's roles and capabilities) — no storage, no
//                 HTTP, no resource.
//   2. storage    src/db/ — the drizzle schema, batches, ids, slugs, write helpers; its own errors
//                 (`WriteConflict`), which the framework's one error path answers.
//   3. framework  src/http/ — arguments, validation, errors, auth, headers, paging, contract
//                 helpers, the route registry and the building blocks of the `/doc` schemas; it
//                 knows no resource.
//   4. resources  src/events/ (with src/events/series/: recurring series), src/linked-posts/,
//                 src/terms/, src/users/, src/media/, src/webhooks/, src/sync/, src/ical/ — they
//                 may import each other in one direction only: no loop between the folders, even
//                 through different modules (`resource-folders-one-way`). What two resources share
//                 goes down a layer (a post status to src/http/, a visibility rule to src/db/).
//   5. app        src/root/ (the indexes, `/doc`, the reference page, site pages),
//                 src/read-cache/, src/editor/ (the calendar editor, its browser code in
//                 browser/), src/app.ts, src/index.ts.
//
// A new folder of src/ joins one of them here. Beside them, tools/ (Node code: the importers, the
// demo calendar) may import the worker's code and never scripts/ (the commands, which import
// tools/). The worker (src/) never imports tools/, scripts/ or test/, and imports only packages it
// ships (`dependencies`; devDependencies for types and its own tests only). There are no import
// circles, in src/, tools/ or scripts/, type-only imports included.
//
// `parser: "swc"`: dependency-cruiser cannot read TypeScript 7 (it asks for typescript < 7). swc
// parses TypeScript itself and reports every `import type` (as "type-only"), so type-only imports
// count as they are; `tsPreCompilationDeps` would only ask for the TypeScript compiler it cannot
// load, and print a warning on every run.

/** A folder or file of the worker, as a path pattern. */
const layer = (...paths) => `^src/(${paths.join("|")})`;

const BASE = layer("settings(\\.test)?\\.ts$", "time/", "text/", "i18n/", "lib/", "access/");
const STORAGE = layer("db/");
const FRAMEWORK = layer("http/");
/** The resource folders of src/. */
const RESOURCE_NAMES = [
  "events",
  "linked-posts",
  "terms",
  "users",
  "media",
  "webhooks",
  "sync",
  "ical",
];
const RESOURCES = layer(...RESOURCE_NAMES.map((name) => `${name}/`));
/** The same as folder names, as the rules at folder scope see them (`src/events`, no slash). */
const RESOURCE_FOLDERS = `^src/(${RESOURCE_NAMES.join("|")})(/|$)`;
const APP = layer("root/", "read-cache/", "editor/", "app\\.ts$", "index\\.ts$");
const LAYERS = [BASE, STORAGE, FRAMEWORK, RESOURCES, APP];

/** `name` may import nothing of the layers above it. */
const below = (name, from, above) => ({
  name,
  severity: "error",
  comment: `${name}: a module imports only from its own layer or lower ones`,
  from: { path: from },
  to: { path: above },
});

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle, type-only imports included: break it (a shared type moves down).",
      from: {},
      to: { circular: true },
    },
    below("base-is-lowest", BASE, [STORAGE, FRAMEWORK, RESOURCES, APP].join("|")),
    below("storage-below-framework", STORAGE, [FRAMEWORK, RESOURCES, APP].join("|")),
    below("framework-knows-no-resource", FRAMEWORK, [RESOURCES, APP].join("|")),
    below("resources-below-app", RESOURCES, APP),
    {
      name: "resource-folders-one-way",
      severity: "error",
      comment:
        "Resource folders import each other in one direction: a folder that imports another is never imported by it, by any of its modules (a folder's subfolders count as the folder). Move what both need down a layer, or into the folder that imports.",
      scope: "folder",
      from: { path: RESOURCE_FOLDERS },
      to: { circular: true },
    },
    {
      name: "in-a-layer",
      severity: "error",
      comment:
        "Every module of src/ is in a layer: add a new folder to one (.dependency-cruiser.cjs).",
      from: { path: "^src/", pathNot: `${LAYERS.join("|")}|\\.d\\.ts$` },
      to: {},
    },
    {
      name: "to-a-layer",
      severity: "error",
      comment:
        "Every module of src/ is in a layer: add a new folder to one (.dependency-cruiser.cjs).",
      from: {},
      to: { path: "^src/", pathNot: LAYERS.join("|") },
    },
    {
      name: "worker-only",
      severity: "error",
      comment: "The worker (src/) bundles only itself: it never imports tools/, scripts/ or test/.",
      from: { path: "^src/" },
      to: { path: "^(tools|scripts|test)/" },
    },
    {
      name: "tools-below-scripts",
      severity: "error",
      comment:
        "tools/ is what the commands (scripts/) and the tests share: it never imports scripts/.",
      from: { path: "^tools/" },
      to: { path: "^(scripts|test)/" },
    },
    {
      name: "worker-ships-its-packages",
      severity: "error",
      comment:
        "The worker imports only packages of `dependencies` (npm ls --omit=dev is what it ships), devDependencies for types and tests only.",
      from: { path: "^src/", pathNot: "\\.test\\.ts$" },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "declared-packages",
      severity: "error",
      comment: "A package imported without being in package.json (it works only by accident).",
      from: {},
      to: { dependencyTypes: ["npm-no-pkg", "npm-unknown"] },
    },
    {
      name: "resolvable",
      severity: "error",
      comment:
        "An import that does not resolve to a file or package (a typo, or a missing package).",
      from: {},
      // The reference page's Text modules are generated by `npm run assets` (not in git).
      to: { couldNotResolve: true, pathNot: "/generated/" },
    },
  ],
  options: {
    parser: "swc",
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/(root/reference|editor)/generated/" },
    enhancedResolveOptions: {
      extensions: [".ts", ".d.ts", ".js", ".json", ".tsx"],
      // Packages' `exports` (hono/router, hono/html): the conditions wrangler's esbuild uses.
      exportsFields: ["exports"],
      conditionNames: ["import", "types", "default"],
    },
  },
};
