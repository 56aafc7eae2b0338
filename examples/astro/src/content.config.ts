/**
 * The calendar's collections, in both languages of the service: `events_en`, `venues_en`, …,
 * `events_de`, …. One `tecLoaders` per language shares one sync per build: the first build
 * downloads every list, later builds only what changed since (kept in Astro's data store).
 * TEC_API is the service's origin (default the `npm start` of the repository).
 */

import { defineCollection } from "astro:content";
import { tecLoaders } from "@tec-edge/astro-loader";

const API = process.env.TEC_API ?? "http://127.0.0.1:8787";
export const LANGUAGES = ["en", "de"] as const;

const collections: Record<string, ReturnType<typeof defineCollection>> = {};
for (const lang of LANGUAGES) {
  const tec = tecLoaders({ baseUrl: `${API}/${lang}/wp-json/tribe/events/v1` });
  for (const [kind, loader] of Object.entries(tec))
    collections[`${kind}_${lang}`] = defineCollection({ loader });
}

export { collections };
