/**
 * Event cost (tec-reference §4.8): the stored cost strings, their numeric values, and the formatted
 * `cost` string (`$15`, `20$`, `Free – 30$`).
 */
import { sanitizeTitle } from "../text/html";

const NUMBER = /\d+(?:[.,]\d+)*/g;

/** A number-like token normalized to `1234.5` form (thousands separators removed, `.` decimal). */
export function normalizeNumber(token: string): string {
  const lastComma = token.lastIndexOf(",");
  const lastDot = token.lastIndexOf(".");
  let decimal: "," | "." | null = null;
  if (lastComma >= 0 && lastDot >= 0) decimal = lastComma > lastDot ? "," : ".";
  else if (lastDot >= 0) decimal = token.split(".").length === 2 ? "." : null;
  else if (lastComma >= 0)
    decimal = token.split(",").length === 2 && token.length - lastComma - 1 !== 3 ? "," : null;
  const [whole, fraction] = decimal
    ? [token.slice(0, token.lastIndexOf(decimal)), token.slice(token.lastIndexOf(decimal) + 1)]
    : [token, ""];
  const digits = whole.replace(/[.,]/g, "").replace(/^0+(?=\d)/, "");
  const frac = fraction.replace(/0+$/, "");
  return frac ? `${digits}.${frac}` : digits;
}

/**
 * `cost_details.values`: every number in every cost string (as strings), non-numeric costs as their
 * sanitized key (`Free` → `free`), sorted numerically ascending.
 */
export function costValues(costs: string[]): string[] {
  const numeric: string[] = [];
  const words: string[] = [];
  for (const cost of costs) {
    const tokens = cost.match(NUMBER);
    if (tokens) numeric.push(...tokens.map(normalizeNumber));
    else if (cost.trim() !== "") words.push(sanitizeTitle(cost));
  }
  numeric.sort((a, b) => Number(a) - Number(b));
  return [...new Set([...words, ...numeric])];
}

/** Currency symbol and position that apply to one event (its own, else the site's). */
export interface Currency {
  symbol: string;
  position: "prefix" | "postfix";
}

/**
 * The formatted cost: min and max of the numbers, `Free` for 0, the currency symbol placed per
 * position, `min – max` (EN DASH) for a range; a cost without numbers is returned as stored.
 * @param free the localized word for zero.
 */
export function formatCost(costs: string[], currency: Currency, free = "Free"): string {
  const present = costs.map((c) => c.trim()).filter((c) => c !== "");
  if (present.length === 0) return "";
  const numbers = present.flatMap((c) => c.match(NUMBER) ?? []).map(normalizeNumber);
  if (numbers.length === 0) return present.join(", ");
  const sorted = numbers.sort((a, b) => Number(a) - Number(b));
  const show = (n: string) => {
    if (Number(n) === 0) return free;
    return currency.position === "prefix" ? `${currency.symbol}${n}` : `${n}${currency.symbol}`;
  };
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  return Number(min) === Number(max) ? show(min) : `${show(min)} – ${show(max)}`;
}

/**
 * Currency symbol and position read from cost strings on write (§8.2): `20$` → `$`, postfix;
 * `$20` → prefix; none or conflicting → empty.
 */
export function currencyFromCost(costs: string[]): {
  symbol: string;
  position: "" | "prefix" | "postfix";
} {
  const found = new Map<string, "prefix" | "postfix">();
  for (const cost of costs) {
    const m = /^\s*([^\d\s.,-]+)\s*\d/.exec(cost);
    const n = /\d\s*([^\d\s.,-]+)\s*$/.exec(cost);
    if (m && !/^free$/i.test(m[1])) found.set(m[1], "prefix");
    else if (n) found.set(n[1], "postfix");
  }
  if (found.size !== 1) return { symbol: "", position: "" };
  const [[symbol, position]] = [...found];
  return { symbol, position };
}
