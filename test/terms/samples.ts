/**
 * Responses recorded against the original (../shared/data/tec-samples/13-16), for comparing keys,
 * key order and values. `ORIGINAL` is the host they were recorded on.
 */

export const ORIGINAL = "http://127.0.0.1:8881";

/** 13-categories.json */
export const SAMPLE_CATEGORIES = {
  rest_url: "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/",
  total: 2,
  total_pages: 1,
  categories: [
    {
      id: 2,
      count: 2,
      description: "",
      name: "Music",
      slug: "music",
      taxonomy: "tribe_events_cat",
      parent: 0,
      meta: [],
      url: "http://127.0.0.1:8881/events/category/music/",
      urls: {
        self: "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/2",
        collection: "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories",
      },
    },
    {
      id: 3,
      count: 1,
      description: "",
      name: "Nightlife",
      slug: "nightlife",
      taxonomy: "tribe_events_cat",
      parent: 0,
      meta: [],
      url: "http://127.0.0.1:8881/events/category/nightlife/",
      urls: {
        self: "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/3",
        collection: "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories",
      },
    },
  ],
};

/** 14-category-by-id.json */
export const SAMPLE_CATEGORY = {
  id: 2,
  count: 2,
  description: "",
  name: "Music",
  slug: "music",
  taxonomy: "tribe_events_cat",
  parent: 0,
  meta: [],
  url: "http://127.0.0.1:8881/events/category/music/",
  urls: {
    self: "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/2",
    collection: "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories",
  },
  _links: {
    self: [
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/tribe_events_cat/2",
        targetHints: {
          allow: ["GET"],
        },
      },
    ],
    collection: [
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/tribe_events_cat",
      },
    ],
    about: [
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/taxonomies/tribe_events_cat",
      },
    ],
    "wp:post_type": [
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/tribe_events?tribe_events_cat=2",
      },
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/tec_calendar_embed?tribe_events_cat=2",
      },
    ],
    curies: [
      {
        name: "wp",
        href: "https://api.w.org/{rel}",
        templated: true,
      },
    ],
  },
};

/** 15-tags.json */
export const SAMPLE_TAGS = {
  rest_url: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags/",
  total: 3,
  total_pages: 1,
  tags: [
    {
      id: 4,
      count: 1,
      description: "",
      name: "jazz",
      slug: "jazz",
      taxonomy: "post_tag",
      meta: [],
      url: "http://127.0.0.1:8881/tag/jazz/",
      urls: {
        self: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags/4",
        collection: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags",
      },
    },
    {
      id: 5,
      count: 1,
      description: "",
      name: "live",
      slug: "live",
      taxonomy: "post_tag",
      meta: [],
      url: "http://127.0.0.1:8881/tag/live/",
      urls: {
        self: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags/5",
        collection: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags",
      },
    },
    {
      id: 6,
      count: 1,
      description: "",
      name: "outdoor",
      slug: "outdoor",
      taxonomy: "post_tag",
      meta: [],
      url: "http://127.0.0.1:8881/tag/outdoor/",
      urls: {
        self: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags/6",
        collection: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags",
      },
    },
  ],
};

/** 16-tag-by-id.json */
export const SAMPLE_TAG = {
  id: 4,
  count: 1,
  description: "",
  name: "jazz",
  slug: "jazz",
  taxonomy: "post_tag",
  meta: [],
  url: "http://127.0.0.1:8881/tag/jazz/",
  urls: {
    self: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags/4",
    collection: "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags",
  },
  _links: {
    self: [
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/tags/4",
        targetHints: {
          allow: ["GET"],
        },
      },
    ],
    collection: [
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/tags",
      },
    ],
    about: [
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/taxonomies/post_tag",
      },
    ],
    "wp:post_type": [
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/posts?tags=4",
      },
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/tribe_events?tags=4",
      },
      {
        href: "http://127.0.0.1:8881/wp-json/wp/v2/tec_calendar_embed?tags=4",
      },
    ],
    curies: [
      {
        name: "wp",
        href: "https://api.w.org/{rel}",
        templated: true,
      },
    ],
  },
};

/** A recorded body as this service answers on `origin` (same keys, same order). */
export function rehost<T>(sample: T, origin: string): T {
  return JSON.parse(JSON.stringify(sample).replaceAll(ORIGINAL, origin));
}

/**
 * A recorded single term as this service sends it: its `wp:post_type` links name only the events
 * (`wp/v2/tribe_events`), the one post type of this calendar, whose route answers here; the
 * original also links WordPress's blog posts and TEC's calendar embeds (contract §3).
 */
export function hereLinks<T extends { _links: Record<string, Array<{ href: string }>> }>(
  sample: T,
): T {
  const copy = structuredClone(sample);
  copy._links["wp:post_type"] = copy._links["wp:post_type"].filter((link) =>
    link.href.includes("/wp/v2/tribe_events?"),
  );
  return copy;
}
