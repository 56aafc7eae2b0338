/**
 * Hostile values for the generated requests: wrong types, huge and empty strings, unicode edge cases
 * (lone surrogates, NUL, right-to-left marks, emoji, combining marks), SQL, FTS5 and HTML
 * metacharacters, absurd dates, negative and huge ids, and bracket abuse.
 */
import fc from "fast-check";

/** Strings chosen by hand for what they break elsewhere. */
export const NASTY_STRINGS = [
  "",
  " ",
  "0",
  "-1",
  "\t\r\n",
  "\u0000",
  "a\u0000b",
  "\u0000abc\u0000",
  "\ud800",
  "\udfff\ud800",
  "\ufffe\uffff",
  "\u202e\u202d",
  "\u200b\u200c\u200d\ufeff",
  "😀👍🏽👨‍👩‍👧",
  "e\u0301\u0301\u0301",
  "ﷺ",
  "Ω≈ç√∫",
  "ＡＢＣ１２３",
  "' OR '1'='1",
  "'; DROP TABLE events; --",
  '" OR ""="',
  "1; SELECT * FROM users",
  "%' UNION SELECT password_digest FROM application_passwords --",
  "\\",
  "\\\\'",
  "%_%",
  "%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%%",
  "____________________________________________________________________",
  "NEAR(a b, 2)",
  "a* OR b* NOT c",
  '"unterminated',
  '""""',
  "title : x",
  "{title content} : x",
  "^start",
  '- -- -"-"',
  "*",
  "AND OR NOT",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  "&lt;&#x3C;&#0;&#xD800;&amp",
  "]]>",
  "../../../../etc/passwd",
  "%2e%2e%2f",
  "%00",
  "%zz",
  "%",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text.
  "${7*7}{{7*7}}",
  "__proto__",
  "constructor",
  "prototype",
  "null",
  "undefined",
  "NaN",
  "Infinity",
  "-Infinity",
  "true",
  "[]",
  "{}",
  "[object Object]",
  "1e309",
  "-0",
  "0x1F",
  "9".repeat(400),
  "a".repeat(5000),
  "ab,cd,,ef,",
  ",,,,",
  `${"x".repeat(60)},y`,
  "déjà vu café",
  "İstanbul ǅ ß ﬁ",
];

/** Arbitrary strings: hand-picked, random unicode (graphemes and raw code units), long ones. */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 200, maxLength: 3000 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...NASTY_STRINGS),
        fc.string({ maxLength: 10 }),
        fc.constantFrom(...NASTY_STRINGS),
      )
      .map(([a, b, c]) => a + b + c),
  },
);

/** Absurd and broken dates (each must be refused as a date, or be one). */
export const NASTY_DATES = [
  "0000-00-00 00:00:00",
  "0000-01-01",
  "9999-12-31 23:59:60",
  "10000-01-01",
  "-0001-01-01",
  "2026-02-30",
  "2026-13-01",
  "2026-00-10 25:61:61",
  "+100000 years",
  "-100000 years",
  "+99999999999 seconds",
  "1e20",
  "-99999999999",
  "99999999999999999999",
  "1.5e3",
  "next blursday",
  "yesterday noon tomorrow",
  "@1234567890",
  "2026-01-01T00:00:00+99:99",
  "2026-01-01T00:00:00-23:59",
  "2026-01-01 10:00:00 Mars/Base",
  "tomorrow 25pm",
  "first monday of",
  "before my birthday",
  "now now now now now now now now now now now now now now now now now now now now now now now",
  "   ",
];

export const nastyDate: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_DATES),
  fc.constantFrom(...NASTY_STRINGS),
  fc
    .tuple(
      fc.integer({ min: -300000, max: 300000 }),
      fc.integer({ min: -40, max: 40 }),
      fc.integer({ min: -40, max: 40 }),
    )
    .map(([y, m, d]) => `${y}-${m}-${d}`),
);

/** Ids that name nothing (or nothing sane): negative, zero, huge, fractional, non-decimal. */
export const NASTY_IDS = [
  "-1",
  "0",
  "00",
  "-0",
  "1.5",
  "1.0e2",
  "0x10",
  "1e3",
  "9007199254740993",
  "18446744073709551616",
  "9".repeat(30),
  "9".repeat(400),
  " 1",
  "1 ",
  "+1",
  "１",
];

/** Any JSON value, nested (wrong types for every field). */
export const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nastyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0, 1e308, -1e-308, 2 ** 63),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(nastyString, fc.constantFrom("id", "venue", "organizer", "0", "1")),
      tie("value"),
      { maxKeys: 4 },
    ),
  ),
})).value;

/** Keys that abuse PHP brackets (`a[][][][]`, deep, sparse, huge indices). */
export const bracketSuffix: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "[]",
    "[][]",
    "[][][][]",
    "[0]",
    "[1][2]",
    "[999999999]",
    "[-1]",
    "[a][b][c][d][e][f][g][h]",
    "[__proto__]",
    "[constructor][prototype]",
    "[",
    "]",
    "[[]]",
    "[%00]",
  ),
  fc
    .array(fc.constantFrom("[]", "[x]", "[0]"), { minLength: 6, maxLength: 40 })
    .map((a) => a.join("")),
);
