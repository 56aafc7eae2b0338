// The site is static: every page is built from the content collections (src/content.config.ts).
import { defineConfig } from "astro/config";

export default defineConfig({ output: "static", telemetry: false });
