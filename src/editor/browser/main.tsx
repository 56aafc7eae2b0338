/**
 * The calendar editor's entry (contract §7.11): renders the app into `#app`. Bundled with Preact
 * by scripts/lib/editor-assets.ts into `/_editor/editor.js`.
 */
import { render } from "preact";
import { App } from "./app";

const root = document.getElementById("app");
if (root) render(<App />, root);
