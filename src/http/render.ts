/** What serializers need to know about the request they answer. */

import type { AuthUser } from "../access/capabilities";
import type { Settings } from "../settings";
import type { Urls } from "./urls";

export interface RenderContext {
  urls: Urls;
  settings: Settings;
  user: AuthUser | null;
  /** Single GET (adds `json_ld`, tec-reference §4.9). */
  single: boolean;
}

/** `{host}{path}?id={id}` (§4.1 `global_id`). */
export const globalId = (ctx: RenderContext, id: number) => `${ctx.urls.globalIdPrefix}?id=${id}`;

/** Whether PHP's `array_filter` drops a value: `""`, `"0"`, `false`, `0`, `null`, an empty list (and `undefined`). */
export const isFalsy = (value: unknown): boolean =>
  value === "" ||
  value === "0" ||
  value === false ||
  value === 0 ||
  value === null ||
  value === undefined ||
  (Array.isArray(value) && value.length === 0);

/** Drops falsy values like PHP `array_filter` (venues, organizers, images: §4.2, §4.3, §4.5). */
export function dropFalsy<T extends Record<string, unknown>>(obj: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) if (!isFalsy(value)) out[key] = value;
  return out as Partial<T>;
}
