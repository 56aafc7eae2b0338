/**
 * The collections' schemas, built with the site's own Zod (`astro/zod`, handed in), so that this
 * package needs no Astro or Zod of its own. Each names the fields a calendar page uses, with
 * their wire types (`/doc`), and keeps every other field as it came (`passthrough`); with
 * `fields` (`_fields`) every field but `id` is optional.
 */
import type { Kind } from "@tec-edge/client";

// biome-ignore lint/suspicious/noExplicitAny: the site's Zod, whichever version it is (3 or 4).
type Z = any;

/** The linked term of an event (`categories`, `tags` items). */
const eventTerm = (z: Z) =>
  z.object({ id: z.number(), name: z.string(), slug: z.string() }).passthrough();

/** A post's shared fields (events, venues, organizers). */
const post = (z: Z) => ({
  id: z.number(),
  status: z.string(),
  slug: z.string(),
  url: z.string(),
  description: z.string(),
  excerpt: z.string(),
  modified_utc: z.string(),
});

const shapes: Record<Kind, (z: Z) => Record<string, unknown>> = {
  events: (z) => ({
    ...post(z),
    title: z.string(),
    all_day: z.boolean().nullable(),
    start_date: z.string(),
    end_date: z.string(),
    utc_start_date: z.string(),
    utc_end_date: z.string(),
    timezone: z.string(),
    cost: z.string(),
    featured: z.boolean().nullable(),
    categories: z.array(eventTerm(z)),
    tags: z.array(eventTerm(z)),
    // An object with the venue, or an empty array when the event has none (TEC's shape).
    venue: z.union([
      z.object({ id: z.number(), venue: z.string() }).passthrough(),
      z.array(z.any()),
    ]),
    organizer: z.array(z.object({ id: z.number(), organizer: z.string() }).passthrough()),
  }),
  venues: (z) => ({
    ...post(z),
    venue: z.string(),
    address: z.string().optional(),
    city: z.string().optional(),
    country: z.string().optional(),
  }),
  organizers: (z) => ({ ...post(z), organizer: z.string() }),
  categories: (z) => ({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    count: z.number(),
  }),
  tags: (z) => ({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    count: z.number(),
  }),
};

/**
 * The schema of `kind`'s entries.
 * @param z `import { z } from "astro/zod"`.
 * @param partial true when `_fields` narrows the items: everything but `id` optional.
 */
export function schemaOf(z: Z, kind: Kind, partial: boolean): unknown {
  const object = z.object(shapes[kind](z)).passthrough();
  return partial ? object.partial().required({ id: true }) : object;
}

/** The TypeScript type of `kind`'s entries, for Astro's generated collection types. */
export function typesOf(kind: Kind, partial: boolean): string {
  const entity = `import("@tec-edge/client").EntityOf[${JSON.stringify(kind)}]`;
  return `export type Entry = ${partial ? `Partial<${entity}> & { id: number }` : entity};\n`;
}
