/**
 * Parts of the original's namespace index (../shared/data/tec-samples/00-namespace-index.json,
 * recorded 2026-11-22 11:02:06 UTC): each route's methods, its handlers' methods, whether it links
 * itself, in registration order; the root route's entry and the arguments of `GET /events`, verbatim.
 */

export const SAMPLE_ORIGIN = "http://127.0.0.1:8881";

/** Route → `methods`, the `methods` of each endpoint, and whether `_links` is present. */
export const SAMPLE_ROUTES: Record<
  string,
  { methods: string[]; endpoints: string[][]; links: boolean }
> = {
  "/tribe/events/v1": { methods: ["GET"], endpoints: [["GET"]], links: true },
  "/tribe/events/v1/doc": { methods: ["GET"], endpoints: [["GET"]], links: true },
  "/tribe/events/v1/events": {
    methods: ["GET", "POST"],
    endpoints: [["GET"], ["POST"]],
    links: true,
  },
  "/tribe/events/v1/events/(?P<id>\\d+)": {
    methods: ["GET", "DELETE", "POST", "PUT", "PATCH"],
    endpoints: [["GET"], ["DELETE"], ["POST", "PUT", "PATCH"]],
    links: false,
  },
  "/tribe/events/v1/events/by-slug/(?P<slug>[^/]+)": {
    methods: ["GET", "DELETE", "POST", "PUT", "PATCH"],
    endpoints: [["GET"], ["DELETE"], ["POST", "PUT", "PATCH"]],
    links: false,
  },
  "/tribe/events/v1/venues": {
    methods: ["GET", "POST"],
    endpoints: [["GET"], ["POST"]],
    links: true,
  },
  "/tribe/events/v1/venues/(?P<id>\\d+)": {
    methods: ["GET", "DELETE", "POST", "PUT", "PATCH"],
    endpoints: [["GET"], ["DELETE"], ["POST", "PUT", "PATCH"]],
    links: false,
  },
  "/tribe/events/v1/venues/by-slug/(?P<slug>[^/]+)": {
    methods: ["GET", "DELETE", "POST", "PUT", "PATCH"],
    endpoints: [["GET"], ["DELETE"], ["POST", "PUT", "PATCH"]],
    links: false,
  },
  "/tribe/events/v1/organizers": {
    methods: ["GET", "POST"],
    endpoints: [["GET"], ["POST"]],
    links: true,
  },
  "/tribe/events/v1/organizers/(?P<id>\\d+)": {
    methods: ["GET", "DELETE", "POST", "PUT", "PATCH"],
    endpoints: [["GET"], ["DELETE"], ["POST", "PUT", "PATCH"]],
    links: false,
  },
  "/tribe/events/v1/organizers/by-slug/(?P<slug>[^/]+)": {
    methods: ["GET", "DELETE", "POST", "PUT", "PATCH"],
    endpoints: [["GET"], ["DELETE"], ["POST", "PUT", "PATCH"]],
    links: false,
  },
  "/tribe/events/v1/categories": {
    methods: ["GET", "POST"],
    endpoints: [["GET"], ["POST"]],
    links: true,
  },
  "/tribe/events/v1/categories/(?P<id>\\d+)": {
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    endpoints: [["GET"], ["POST", "PUT", "PATCH"], ["DELETE"]],
    links: false,
  },
  "/tribe/events/v1/tags": {
    methods: ["GET", "POST"],
    endpoints: [["GET"], ["POST"]],
    links: true,
  },
  "/tribe/events/v1/tags/(?P<id>\\d+)": {
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    endpoints: [["GET"], ["POST", "PUT", "PATCH"], ["DELETE"]],
    links: false,
  },
};

/** The entries of `/` and `/doc`. */
export const SAMPLE_ROOT_ENTRIES = {
  "/tribe/events/v1": {
    namespace: "tribe/events/v1",
    methods: ["GET"],
    endpoints: [
      {
        methods: ["GET"],
        args: {
          namespace: {
            default: "tribe/events/v1",
            required: false,
          },
          context: {
            default: "view",
            required: false,
          },
        },
      },
    ],
    _links: {
      self: [
        {
          href: "http://127.0.0.1:8881/wp-json/tribe/events/v1",
        },
      ],
    },
  },
  "/tribe/events/v1/doc": {
    namespace: "tribe/events/v1",
    methods: ["GET"],
    endpoints: [
      {
        methods: ["GET"],
        args: [],
      },
    ],
    _links: {
      self: [
        {
          href: "http://127.0.0.1:8881/wp-json/tribe/events/v1/doc",
        },
      ],
    },
  },
};

/** `GET /events` arguments (`default`s as computed at 2026-11-22 11:02:06 UTC, per_page from the WordPress option). */
export const SAMPLE_EVENTS_ARGS = {
  page: {
    default: 1,
    description: "The archive page to return",
    type: "integer",
    required: false,
  },
  per_page: {
    default: "10",
    description: "The number of events to return on each page",
    type: "integer",
    required: false,
  },
  start_date: {
    default: "2026-11-21 23:59:00",
    description: "Events that start on the specified date",
    required: false,
  },
  end_date: {
    default: "2028-11-22 11:02:06",
    description: "Events that end on the specified date",
    required: false,
  },
  starts_before: {
    description: "Events that start before the specified date",
    required: false,
  },
  starts_after: {
    description: "Events that start after the specified date",
    required: false,
  },
  ends_before: {
    description: "Events that end before the specified date",
    required: false,
  },
  ends_after: {
    description: "Events that end after the specified date",
    required: false,
  },
  strict_dates: {
    default: "false",
    description:
      "Dates set using the start_date/end_date, starts_*/ends_* are set to start at the specified times. The default behavior is to include the entire days.",
    required: false,
  },
  search: {
    description: "Events should contain the specified string in the title or description",
    type: "string",
    required: false,
  },
  categories: {
    description: "Events should be assigned one of the specified categories slugs or IDs",
    items: {
      type: "integer",
    },
    required: false,
  },
  tags: {
    description: "Events should be assigned one of the specified tags slugs or IDs",
    items: {
      type: "integer",
    },
    required: false,
  },
  venue: {
    description: "Events should be assigned one of the specified venue IDs",
    items: {
      type: "integer",
    },
    required: false,
  },
  organizer: {
    description: "Events should be assigned one of the specified organizer IDs",
    items: {
      type: "integer",
    },
    required: false,
  },
  featured: {
    type: "boolean",
    description: "Events should be filtered by their featured status",
    required: false,
  },
  status: {
    format: "string",
    description: "The event post status",
    required: false,
  },
  geoloc: {
    type: "boolean",
    description:
      "Requires Events Calendar Pro. Events should be filtered by whether their venue has geolocation data",
    required: false,
  },
  geoloc_lat: {
    format: "double",
    description:
      "Requires Events Calendar Pro. Events should be filtered by their venue latitude location, must also provide geoloc_lng",
    required: false,
  },
  geoloc_lng: {
    format: "double",
    description:
      "Requires Events Calendar Pro. Events should be filtered by their venue longitude location, must also provide geoloc_lat",
    required: false,
  },
  include: {
    description:
      "Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.",
    items: {
      type: "integer",
    },
    required: false,
  },
  post_parent: {
    type: "integer",
    description: "Events should be filtered by their post_parent being the specified one.",
    required: false,
  },
  ticketed: {
    type: "boolean",
    description: "Filter events with or without tickets.",
    required: false,
  },
};
