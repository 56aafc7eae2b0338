/**
 * What a generated request carries besides its arguments (support/generate.ts): broken bodies and
 * content types, bad credentials, odd headers, broken and oversize query strings, unknown
 * parameters, paths and language prefixes that match no route.
 */
import fc from "fast-check";
import { bracketSuffix, jsonValue, nastyString } from "./values";

export const BROKEN_JSON = [
  "{",
  '{"a":',
  "[1,2",
  "nul",
  "{'single': 1}",
  '{"title": "a\u0000',
  "\ufeff\ufeff{}",
  '{"a":1}}',
  "[".repeat(5000),
  '{"a":NaN}',
  "tru",
  '{"a" 1}',
  "\u0000",
];
export const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json;charset=ISO-8859-1",
];
export const BAD_AUTH = fc.oneof(
  fc
    .tuple(
      fc.string({ unit: "grapheme-ascii", maxLength: 20 }),
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 40 }),
    )
    .map(([u, p]) => `Basic ${btoa(`${u}:zz${p}`)}`),
  fc.constantFrom(
    "Basic",
    "Basic ",
    "Basic !!!not-base64!!!",
    `Basic ${btoa("admin:wrong")}`,
    `Basic ${btoa(":")}`,
    `Basic ${btoa("editor:test admin password")}`,
    `Basic ${btoa("subscriber:pw-author-0123456789")}`,
    `Basic ${btoa("nobody:pw-editor-0123456789")}`,
    "Bearer ",
    `Bearer ${"x".repeat(300)}`,
    "Bearer pw-editor-012345678",
    "bAsIc    Og==",
    `Basic ${btoa("admin")}`,
  ),
  fc
    .string({ unit: "grapheme-ascii", minLength: 1, maxLength: 60 })
    .map((s) => `Bearer zz${s.replace(/[\r\n]/g, "")}`),
);
export const BLOCKED_IP = "198.51.100.200";
const asciiValue = fc
  .string({ unit: "grapheme-ascii", maxLength: 60 })
  .map((s) => s.replace(/[\r\n\0]/g, " "));
export const noiseHeaders = fc.record(
  {
    "accept-language": fc.constantFrom(
      "de",
      "xx",
      "*",
      "de-DE,de;q=0.9",
      "\u00e9".normalize("NFD").replace(/[^\x20-\x7e]/g, ""),
    ),
    "if-none-match": fc.oneof(
      fc.constantFrom("*", 'W/"x"', '"abc", *', '""', "garbage"),
      asciiValue,
    ),
    origin: fc.constantFrom("https://evil.example", "null", "http://calendar.test", "file://"),
    "x-d1-bookmark": fc.oneof(
      fc.constantFrom("garbage", `0000000-00000000-00000000-${"f".repeat(32)}`, "%00"),
      asciiValue,
    ),
    "user-agent": asciiValue,
    cookie: fc.constantFrom("wordpress_logged_in_x=admin%7C1", "a=b"),
    "x-wp-nonce": asciiValue,
    "x-forwarded-for": fc.constantFrom("127.0.0.1", "::1", "10.0.0.1, 1.2.3.4"),
  },
  { requiredKeys: [] },
);
export const rawQueryNoise = fc.oneof(
  { weight: 24, arbitrary: fc.constant("") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "%zz=%zz",
      "a=%E0%A4%A",
      "%=%",
      "&&&",
      "a[=1",
      "]=1",
      "=x",
      "%00=%00",
      "a%5B%5D%5B%5D=1",
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1001, max: 1500 })
      .map((n) => Array.from({ length: n }, (_, i) => `k${i}=${i}`).join("&")),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 50, max: 300 }).map((n) => `deep${"[a]".repeat(n)}=1`),
  },
);

/** Unknown parameters (never a name any route knows). */
export const noiseParams = (json: boolean) =>
  fc.dictionary(
    fc
      .tuple(
        fc.string({ unit: "grapheme-ascii", maxLength: 12 }),
        fc.option(bracketSuffix, { nil: "" }),
      )
      .map(([k, b]) => `zz${k.replace(/[[\]&=#%+]/g, "_")}${b}`),
    json ? fc.oneof(nastyString, jsonValue) : nastyString,
    { maxKeys: 4 },
  );

/** Language prefixes that no route is mounted under. */
export const BAD_LANGS = ["/xx", "/EN", "/de-DE", "/%00", "/wp-json"];
/** Two more segments: no route has two variable segments after any route's path. */
export const JUNK = fc.oneof(
  nastyString.map((s) => `/zz-${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "")) || "x"}/zz`),
  fc.constantFrom("/zz/zz/", "/zz%2F..%2F/zz", "/..;/zz/zz", "/zz/zz.json"),
);

/** Over the 1 MiB body limit (contract §5). */
export const BIG_BODY = `a=${"x".repeat(1024 * 1024)}`;
