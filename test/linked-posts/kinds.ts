/**
 * The two linked post kinds as the tests drive them: every venue/organizer test runs for both
 * (`describe.each(KINDS)`), with kind-specific custom fields where it matters.
 */
import { env } from "cloudflare:workers";
import { sha256Hex } from "../../src/http/crypto";
import { seedOrganizer, seedVenue } from "../support/factories";

export interface Kind {
  kind: "venue" | "organizer";
  plural: "venues" | "organizers";
  /** A complete create body (besides the name), with a custom field to search in. */
  fields: Record<string, string>;
  /** One custom field, its column and a value (for search and removal tests). */
  custom: { field: string; value: string };
}

export const KINDS: Kind[] = [
  {
    kind: "venue",
    plural: "venues",
    fields: {
      address: "100 Main St",
      city: "Springfield",
      country: "United States",
      state: "IL",
      zip: "62701",
      phone: "+1 555 0100",
      website: "https://blueroom.example.com",
    },
    custom: { field: "city", value: "Springfield" },
  },
  {
    kind: "organizer",
    plural: "organizers",
    fields: {
      phone: "+1 555 0199",
      website: "https://arts.example.com",
      email: "arts@example.com",
    },
    custom: { field: "email", value: "arts@example.com" },
  },
];

export interface LinkedSeed {
  title: string;
  status?: string;
  author?: number | null;
  content?: string;
  excerpt?: string;
  slug?: string;
  password?: string;
  postDate?: string;
  imageId?: number;
  [column: string]: unknown;
}

/** Inserts a venue or organizer straight into D1; returns its id. */
export async function seedLinked(kind: Kind["kind"], seed: LinkedSeed): Promise<number> {
  const { password, postDate, ...rest } = seed;
  const row = { ...rest, ...(postDate ? { postDate, postDateGmt: postDate } : {}) } as Parameters<
    typeof seedVenue
  >[0];
  if (kind === "venue") return seedVenue({ ...row, password });
  return seedOrganizer({
    ...row,
    passwordDigest: password ? await sha256Hex(password) : "",
  } as Parameters<typeof seedOrganizer>[0]);
}

/**
 * Bumps the content version, as every API write does; needed after seeding straight into D1 between
 * two anonymous GETs of the same URL, which the edge cache would otherwise answer from its copy.
 */
export async function touch(): Promise<void> {
  await env.DB.prepare("UPDATE content_version SET version = version + 1 WHERE id = 1").run();
}

/** One row of a table, as stored. */
export async function stored(table: string, id: number): Promise<Record<string, unknown> | null> {
  return env.DB.prepare(`SELECT * FROM ${table} WHERE id = ?`).bind(id).first();
}
