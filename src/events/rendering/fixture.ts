/**
 * The fixture of the render key (src/events/rendering/format.ts `renderKey`): an event with everything
 * that can show, whose rendering changes whenever what events look like does.
 */
import type { EventRecord } from "../record";

/** An event with everything that can show: the fixture of `renderKey`. */
export const FIXTURE = (): EventRecord => {
  const post = {
    author: 1,
    status: "publish",
    trashMetaStatus: "",
    slug: "fixture",
    title: "Fixture",
    // Paragraphs, line breaks, blocks and references: what autop and the entity decoding change.
    content: "<div>Block</div>\n\nText &hellip;\nline\n\n<ul><li>Item</li></ul>",
    excerpt: "Text &amp; more",
    passwordDigest: "",
    postDate: "2026-01-01 10:00:00",
    postDateGmt: "2026-01-01 10:00:00",
    postModified: "2026-01-02 10:00:00",
    postModifiedGmt: "2026-01-02 10:00:00",
    globalIdLineage: ["example.org?id=1"],
    changedGmt: "2026-01-02 10:00:00",
  };
  const image = {
    ...post,
    id: 9,
    sourceUrl: "https://img.example/a.jpg",
    altText: "A",
    mimeType: "image/jpeg",
    width: 10,
    height: 20,
    filesize: 30,
  };
  return {
    row: {
      ...post,
      id: 1,
      postParent: 0,
      startDate: "2026-02-01 19:00:00",
      endDate: "2026-02-01 21:00:00",
      startDateUtc: "2026-02-02 00:00:00",
      endDateUtc: "2026-02-02 02:00:00",
      timezone: "America/New_York",
      timezoneAbbr: "EST",
      allDay: false,
      cost: ["10", "20"],
      currencySymbol: "",
      currencyPosition: "",
      currencyCode: "",
      website: null,
      showMap: true,
      showMapLink: true,
      hideFromListings: false,
      sticky: false,
      featured: true,
      ticketed: false,
      venueId: 2,
      imageId: 9,
      uid: null,
      seriesId: null,
      recurrence: null,
      occurrenceStart: null,
      overrides: [],
      imported: false,
      horizonGmt: null,
      splitFrom: null,
    },
    venue: {
      row: {
        ...post,
        id: 2,
        address: "1 Main St",
        city: "Town",
        country: "US",
        province: "",
        state: "NY",
        zip: "10001",
        phone: "1",
        stateprovince: "NY",
        website: "https://venue.example",
        showMap: true,
        showMapLink: true,
        geoLat: 40.7,
        geoLng: -74,
        imageId: 9,
      },
      image,
    },
    organizers: [
      {
        row: {
          ...post,
          id: 3,
          phone: "2",
          website: "https://org.example",
          email: "o@example.org",
          imageId: null,
        },
        image: null,
      },
    ],
    terms: [
      {
        id: 4,
        taxonomy: "tribe_events_cat",
        name: "Music",
        slug: "music",
        description: "",
        parent: 0,
        termGroup: 0,
        count: 1,
        modifiedGmt: "",
      },
    ],
    image,
  };
};
