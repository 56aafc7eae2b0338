/**
 * Demo categories (`tribe_events_cat`, some nested) and tags (`post_tag`), referred to by key from
 * the programs.
 */

/** A demo category; parents come before their children. */
export interface DemoCategory {
  key: string;
  name: string;
  description: string;
  /** Key of the parent category. */
  parent?: string;
}

/** The 8 demo categories, 3 of them nested. */
export const CATEGORIES: readonly DemoCategory[] = [
  {
    key: "music",
    name: "Music",
    description: "Concerts, sessions and everything with a sound check.",
  },
  { key: "jazz", name: "Jazz", description: "From trad to free.", parent: "music" },
  {
    key: "classical",
    name: "Classical",
    description: "Orchestral, chamber and solo recitals.",
    parent: "music",
  },
  {
    key: "arts",
    name: "Arts & Culture",
    description: "Exhibitions, theatre, film and literature.",
  },
  { key: "workshops", name: "Workshops", description: "Learn something with your hands." },
  {
    key: "tech",
    name: "Tech Talks",
    description: "Meetups and talks about software.",
    parent: "workshops",
  },
  { key: "family", name: "Family", description: "Good for children and grown-ups alike." },
  { key: "food", name: "Food & Drink", description: "Markets, tastings and supper clubs." },
];

/** Tag keys used by programs, and the tag names. */
export const TAGS = {
  outdoor: "Outdoor",
  kids: "Kid Friendly",
  accessible: "Wheelchair Accessible",
  live: "Live Music",
  networking: "Networking",
  beginner: "Beginner",
  advanced: "Advanced",
  vegan: "Vegan Options",
  late: "Late Night",
  weekend: "Weekend",
  online: "Online",
  handson: "Hands-on",
  community: "Community",
  seasonal: "Seasonal",
  limited: "Limited Seats",
} as const;

/** Key of a demo tag. */
export type TagKey = keyof typeof TAGS;
