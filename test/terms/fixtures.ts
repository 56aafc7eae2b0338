/** Term test data shared by the term tests. */
import { day } from "../support/dates";
import { seedEvent, seedTerm } from "../support/factories";

/** Both taxonomies, for `describe.each`. */
export const TAXONOMIES = [
  { base: "categories", taxonomy: "tribe_events_cat", hierarchical: true },
  { base: "tags", taxonomy: "post_tag", hierarchical: false },
] as const;

/**
 * The site the samples were recorded on: categories Music (2 events) and Nightlife (1), tags jazz,
 * live, outdoor (1 each), with the same ids (2–6; id 1 is an unused category, hidden as empty).
 */
export async function seedSampleSite() {
  const unused = await seedTerm("tribe_events_cat", "Unused");
  const music = await seedTerm("tribe_events_cat", "Music");
  const nightlife = await seedTerm("tribe_events_cat", "Nightlife");
  const jazz = await seedTerm("post_tag", "jazz");
  const live = await seedTerm("post_tag", "live");
  const outdoor = await seedTerm("post_tag", "outdoor");
  const events = [
    await seedEvent({ title: "Concert", start: day(1), termIds: [music, jazz] }),
    await seedEvent({ title: "Gig", start: day(2), termIds: [music, live] }),
    await seedEvent({ title: "Party", start: day(3), termIds: [nightlife, outdoor] }),
  ];
  return { unused, music, nightlife, jazz, live, outdoor, events };
}
