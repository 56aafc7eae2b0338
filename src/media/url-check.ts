/**
 * The remote half of TEC's `is_image` for URLs (tec-reference §3, §8.2): before a URL that
 * is not in the media library yet becomes a media item, an HTTP `HEAD` must answer 200 with an image
 * type WordPress allows to upload. Every failure — an unreachable or internal host, a timeout, too
 * many redirects, another status, another type — is a "no", never an error of this service.
 *
 * `IMAGE_URL_CHECK=off` (local development without internet, see README) skips the request and
 * takes the type from the file extension instead.
 */
import { isPublicHost } from "../lib/special-addresses";
import { extensionOf, IMAGE_MIME_TYPES } from "./fields";

/** Image types a URL may point at (WordPress's default upload types that are images; no SVG). */
export const ALLOWED_IMAGE_TYPES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(IMAGE_MIME_TYPES).filter(([ext]) => ext !== "svg"),
);

const ALLOWED = new Set(Object.values(ALLOWED_IMAGE_TYPES));

/** Milliseconds the whole check (every redirect included) may take. */
export const IMAGE_CHECK_TIMEOUT_MS = 5_000;

/** Redirects followed at most (WordPress's `wp_remote_head` follows 5). */
export const IMAGE_CHECK_MAX_REDIRECTS = 5;

/** How image URLs are checked: a `HEAD` request (production), or by their extension only. */
export type ImageUrlCheck = "head" | "off";

/**
 * Whether a URL may be fetched from the worker: `http(s)` without credentials, with a public host
 * (src/lib/special-addresses.ts, the table webhook targets are judged by too: no loopback,
 * private, link-local, reserved or other special-purpose address, no `localhost`, `*.local`,
 * `*.internal` or single-label name), so that the check cannot be used to probe the network the
 * worker runs in.
 */
export function isPublicHttpUrl(url: URL): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (url.username || url.password) return false;
  return isPublicHost(url.hostname);
}

/** The allowed image type of a `Content-Type` header value, or null. */
function imageType(header: string | null): string | null {
  const type = (header ?? "").split(";")[0].trim().toLowerCase();
  return ALLOWED.has(type) ? type : null;
}

/**
 * Checks an image URL (`http(s)`, validated by the argument schema).
 * @param mode `head`: a `HEAD` request, redirects followed (at most 5, each to a public http(s)
 *   URL), within 5 seconds in all, must end in 200 with `Content-Type` jpeg, png, gif, webp or
 *   avif; `off`: the file extension must be one of those.
 * @param fetcher the `fetch` to use (the global one; tests replace it).
 * @returns the image's MIME type, or null when the URL does not pass.
 * @example await checkImageUrl("https://cdn.example.com/a.jpg", "head") // "image/jpeg" or null
 */
export async function checkImageUrl(
  url: string,
  mode: ImageUrlCheck,
  fetcher: typeof fetch = fetch,
): Promise<string | null> {
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    return null;
  }
  if (mode === "off") return ALLOWED_IMAGE_TYPES[extensionOf(url)] ?? null;
  const signal = AbortSignal.timeout(IMAGE_CHECK_TIMEOUT_MS);
  try {
    for (let hop = 0; hop <= IMAGE_CHECK_MAX_REDIRECTS; hop++) {
      if (!isPublicHttpUrl(current)) return null;
      const res = await fetcher(current.toString(), {
        method: "HEAD",
        redirect: "manual",
        signal,
        headers: { accept: "image/*", "user-agent": "tec-edge image check" },
      });
      // A HEAD answer has no body to read; a redirect's may: never leave one hanging.
      await res.body?.cancel();
      const location = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && location) {
        current = new URL(location, current);
        continue;
      }
      return res.status === 200 ? imageType(res.headers.get("content-type")) : null;
    }
    return null;
  } catch {
    // Network errors, the timeout, a malformed Location: the URL does not pass.
    return null;
  }
}
