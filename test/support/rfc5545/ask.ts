/**
 * Asking the independent RFC 5545 expander (python-dateutil, test/support/rfc5545/oracle.ts) from
 * inside workerd, through the `RFC5545` service binding vitest.config.ts sets up: one request, one
 * `python3` process, per batch.
 */
import { env } from "cloudflare:workers";

/** One series as a calendar program reads it from a VEVENT. */
export interface OracleCase {
  /** DTSTART: local `Y-m-d H:i:s` (the date alone counts when all-day). */
  start: string;
  /** IANA name or `UTC±H[:MM]`. */
  zone: string;
  allDay: boolean;
  /** `RRULE`, `RDATE`, `EXDATE` lines. */
  lines: string[];
  /** List the instances whose local start is before this (`Y-m-d H:i:s`). */
  before: string;
  /** At most this many. */
  max: number;
}

/** dateutil's answer: each instance's local start and UTC instant, or why it could not. */
export type OracleAnswer =
  | {
      starts: Array<[local: string, utc: string]>;
      /** The set has no more instances. */
      complete: boolean;
      /** The rule gives DTSTART itself (RFC 5545 §3.8.5.3). */
      synchronized: boolean;
      error?: undefined;
    }
  | { error: string };

/** Expands every case with python-dateutil, in order. */
export async function oracle(cases: OracleCase[]): Promise<OracleAnswer[]> {
  if (!cases.length) return [];
  const service = (env as unknown as { RFC5545: Fetcher }).RFC5545;
  const res = await service.fetch("http://rfc5545/", {
    method: "POST",
    body: JSON.stringify(cases),
  });
  if (!res.ok) throw new Error(`the RFC 5545 oracle failed: ${await res.text()}`);
  return res.json();
}
