/**
 * Recorded answers of the original (The Events Calendar 6.17.2; shared/data/tec-samples, copied here
 * so that tests never read outside the repository): 13-categories (split into two pages linked the
 * way TEC links term pages, §5.4), 15-tags, 09-venues, 11-organizers, and the two event pages
 * 17-events-per-page-2 → 18-events-page-2, linked by their recorded next_rest_url.
 */
/* eslint-disable */
export const SOURCE_ROOT = "http://127.0.0.1:8881/wp-json/tribe/events/v1";

export const CATEGORIES_PAGE_1 = {
 "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/",
 "total": 2,
 "total_pages": 2,
 "categories": [
  {
   "id": 2,
   "count": 2,
   "description": "",
   "name": "Music",
   "slug": "music",
   "taxonomy": "tribe_events_cat",
   "parent": 0,
   "meta": [],
   "url": "http://127.0.0.1:8881/events/category/music/",
   "urls": {
    "self": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/2",
    "collection": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories"
   }
  }
 ],
 "next_rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/?page=2"
};

export const CATEGORIES_PAGE_2 = {
 "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/",
 "total": 2,
 "total_pages": 2,
 "categories": [
  {
   "id": 3,
   "count": 1,
   "description": "",
   "name": "Nightlife",
   "slug": "nightlife",
   "taxonomy": "tribe_events_cat",
   "parent": 0,
   "meta": [],
   "url": "http://127.0.0.1:8881/events/category/nightlife/",
   "urls": {
    "self": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/3",
    "collection": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories"
   }
  }
 ],
 "previous_rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/"
};

/** 15-tags, as the term tests use it. */
export { SAMPLE_TAGS as TAGS } from "../terms/samples";

export const VENUES = {
 "venues": [
  {
   "id": 4,
   "author": "1",
   "status": "publish",
   "date": "2026-11-22 11:02:06",
   "date_utc": "2026-11-22 11:02:06",
   "modified": "2026-11-22 11:02:06",
   "modified_utc": "2026-11-22 11:02:06",
   "url": "http://127.0.0.1:8881/venue/blue-room/",
   "venue": "Blue Room",
   "slug": "blue-room",
   "address": "100 Main St",
   "city": "Springfield",
   "country": "United States",
   "state": "IL",
   "zip": "62701",
   "phone": "+1 555 0100",
   "website": "https://blueroom.example.com",
   "stateprovince": "IL",
   "show_map": true,
   "show_map_link": true,
   "global_id": "127.0.0.1?id=4",
   "global_id_lineage": [
    "127.0.0.1?id=4"
   ]
  }
 ],
 "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/venues/?page=1&per_page=10&status=publish",
 "total": 1,
 "total_pages": 1
};

export const ORGANIZERS = {
 "organizers": [
  {
   "id": 5,
   "author": "1",
   "status": "publish",
   "date": "2026-11-22 11:02:06",
   "date_utc": "2026-11-22 11:02:06",
   "modified": "2026-11-22 11:02:06",
   "modified_utc": "2026-11-22 11:02:06",
   "url": "http://127.0.0.1:8881/organizer/springfield-arts/",
   "organizer": "Springfield Arts",
   "slug": "springfield-arts",
   "phone": "+1 555 0199",
   "website": "https://arts.example.com",
   "email": "arts@example.com",
   "global_id": "127.0.0.1?id=5",
   "global_id_lineage": [
    "127.0.0.1?id=5"
   ]
  }
 ],
 "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/organizers/?page=1&per_page=10&status=publish",
 "total": 1,
 "total_pages": 1
};

export const EVENTS_PAGE_1 = {
 "events": [
  {
   "id": 6,
   "global_id": "127.0.0.1?id=6",
   "global_id_lineage": [
    "127.0.0.1?id=6"
   ],
   "author": "1",
   "status": "publish",
   "date": "2026-11-22 11:02:06",
   "date_utc": "2026-11-22 11:02:06",
   "modified": "2026-11-22 11:02:06",
   "modified_utc": "2026-11-22 11:02:06",
   "url": "http://127.0.0.1:8881/event/jazz-night/",
   "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/events/6",
   "title": "Jazz Night",
   "description": "<p>An evening of <strong>live jazz</strong>.</p>",
   "excerpt": "<p>Live jazz</p>",
   "slug": "jazz-night",
   "image": false,
   "all_day": false,
   "start_date": "2026-12-05 19:00:00",
   "start_date_details": {
    "year": "2026",
    "month": "12",
    "day": "05",
    "hour": "19",
    "minutes": "00",
    "seconds": "00"
   },
   "end_date": "2026-12-05 22:30:00",
   "end_date_details": {
    "year": "2026",
    "month": "12",
    "day": "05",
    "hour": "22",
    "minutes": "30",
    "seconds": "00"
   },
   "utc_start_date": "2026-12-06 00:00:00",
   "utc_start_date_details": {
    "year": "2026",
    "month": "12",
    "day": "06",
    "hour": "00",
    "minutes": "00",
    "seconds": "00"
   },
   "utc_end_date": "2026-12-06 03:30:00",
   "utc_end_date_details": {
    "year": "2026",
    "month": "12",
    "day": "06",
    "hour": "03",
    "minutes": "30",
    "seconds": "00"
   },
   "timezone": "America/New_York",
   "timezone_abbr": "EST",
   "cost": "$15",
   "cost_details": {
    "currency_symbol": "",
    "currency_code": "",
    "currency_position": "",
    "values": [
     "15"
    ]
   },
   "website": "https://example.com/jazz",
   "show_map": false,
   "show_map_link": false,
   "hide_from_listings": false,
   "sticky": false,
   "featured": true,
   "categories": [
    {
     "name": "Music",
     "slug": "music",
     "term_group": 0,
     "term_taxonomy_id": 2,
     "taxonomy": "tribe_events_cat",
     "description": "",
     "parent": 0,
     "count": 2,
     "filter": "raw",
     "id": 2,
     "urls": {
      "self": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/2",
      "collection": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories"
     }
    },
    {
     "name": "Nightlife",
     "slug": "nightlife",
     "term_group": 0,
     "term_taxonomy_id": 3,
     "taxonomy": "tribe_events_cat",
     "description": "",
     "parent": 0,
     "count": 1,
     "filter": "raw",
     "id": 3,
     "urls": {
      "self": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/3",
      "collection": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories"
     }
    }
   ],
   "tags": [
    {
     "name": "jazz",
     "slug": "jazz",
     "term_group": 0,
     "term_taxonomy_id": 4,
     "taxonomy": "post_tag",
     "description": "",
     "parent": 0,
     "count": 1,
     "filter": "raw",
     "id": 4,
     "urls": {
      "self": "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags/4",
      "collection": "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags"
     }
    },
    {
     "name": "live",
     "slug": "live",
     "term_group": 0,
     "term_taxonomy_id": 5,
     "taxonomy": "post_tag",
     "description": "",
     "parent": 0,
     "count": 1,
     "filter": "raw",
     "id": 5,
     "urls": {
      "self": "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags/5",
      "collection": "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags"
     }
    }
   ],
   "venue": {
    "id": 4,
    "author": "1",
    "status": "publish",
    "date": "2026-11-22 11:02:06",
    "date_utc": "2026-11-22 11:02:06",
    "modified": "2026-11-22 11:02:06",
    "modified_utc": "2026-11-22 11:02:06",
    "url": "http://127.0.0.1:8881/venue/blue-room/",
    "venue": "Blue Room",
    "slug": "blue-room",
    "address": "100 Main St",
    "city": "Springfield",
    "country": "United States",
    "state": "IL",
    "zip": "62701",
    "phone": "+1 555 0100",
    "website": "https://blueroom.example.com",
    "stateprovince": "IL",
    "show_map": true,
    "show_map_link": true,
    "global_id": "127.0.0.1?id=4",
    "global_id_lineage": [
     "127.0.0.1?id=4"
    ]
   },
   "organizer": [
    {
     "id": 5,
     "author": "1",
     "status": "publish",
     "date": "2026-11-22 11:02:06",
     "date_utc": "2026-11-22 11:02:06",
     "modified": "2026-11-22 11:02:06",
     "modified_utc": "2026-11-22 11:02:06",
     "url": "http://127.0.0.1:8881/organizer/springfield-arts/",
     "organizer": "Springfield Arts",
     "slug": "springfield-arts",
     "phone": "+1 555 0199",
     "website": "https://arts.example.com",
     "email": "arts@example.com",
     "global_id": "127.0.0.1?id=5",
     "global_id_lineage": [
      "127.0.0.1?id=5"
     ]
    }
   ],
   "custom_fields": []
  },
  {
   "id": 7,
   "global_id": "127.0.0.1?id=7",
   "global_id_lineage": [
    "127.0.0.1?id=7"
   ],
   "author": "1",
   "status": "publish",
   "date": "2026-11-22 11:02:07",
   "date_utc": "2026-11-22 11:02:07",
   "modified": "2026-11-22 11:02:07",
   "modified_utc": "2026-11-22 11:02:07",
   "url": "http://127.0.0.1:8881/event/morning-yoga/",
   "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/events/7",
   "title": "Morning Yoga",
   "description": "<p>Bring a mat.</p>",
   "excerpt": "",
   "slug": "morning-yoga",
   "image": false,
   "all_day": false,
   "start_date": "2026-12-06 08:00:00",
   "start_date_details": {
    "year": "2026",
    "month": "12",
    "day": "06",
    "hour": "08",
    "minutes": "00",
    "seconds": "00"
   },
   "end_date": "2026-12-06 09:00:00",
   "end_date_details": {
    "year": "2026",
    "month": "12",
    "day": "06",
    "hour": "09",
    "minutes": "00",
    "seconds": "00"
   },
   "utc_start_date": "2026-12-06 08:00:00",
   "utc_start_date_details": {
    "year": "2026",
    "month": "12",
    "day": "06",
    "hour": "08",
    "minutes": "00",
    "seconds": "00"
   },
   "utc_end_date": "2026-12-06 09:00:00",
   "utc_end_date_details": {
    "year": "2026",
    "month": "12",
    "day": "06",
    "hour": "09",
    "minutes": "00",
    "seconds": "00"
   },
   "timezone": "UTC",
   "timezone_abbr": "UTC",
   "cost": "Free",
   "cost_details": {
    "currency_symbol": "",
    "currency_code": "",
    "currency_position": "",
    "values": [
     "free"
    ]
   },
   "website": "http://127.0.0.1:8881/event/morning-yoga/",
   "show_map": false,
   "show_map_link": false,
   "hide_from_listings": false,
   "sticky": false,
   "featured": false,
   "categories": [
    {
     "name": "Music",
     "slug": "music",
     "term_group": 0,
     "term_taxonomy_id": 2,
     "taxonomy": "tribe_events_cat",
     "description": "",
     "parent": 0,
     "count": 2,
     "filter": "raw",
     "id": 2,
     "urls": {
      "self": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories/2",
      "collection": "http://127.0.0.1:8881/wp-json/tribe/events/v1/categories"
     }
    }
   ],
   "tags": [
    {
     "name": "outdoor",
     "slug": "outdoor",
     "term_group": 0,
     "term_taxonomy_id": 6,
     "taxonomy": "post_tag",
     "description": "",
     "parent": 0,
     "count": 1,
     "filter": "raw",
     "id": 6,
     "urls": {
      "self": "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags/6",
      "collection": "http://127.0.0.1:8881/wp-json/tribe/events/v1/tags"
     }
    }
   ],
   "venue": {
    "id": 4,
    "author": "1",
    "status": "publish",
    "date": "2026-11-22 11:02:06",
    "date_utc": "2026-11-22 11:02:06",
    "modified": "2026-11-22 11:02:06",
    "modified_utc": "2026-11-22 11:02:06",
    "url": "http://127.0.0.1:8881/venue/blue-room/",
    "venue": "Blue Room",
    "slug": "blue-room",
    "address": "100 Main St",
    "city": "Springfield",
    "country": "United States",
    "state": "IL",
    "zip": "62701",
    "phone": "+1 555 0100",
    "website": "https://blueroom.example.com",
    "stateprovince": "IL",
    "show_map": true,
    "show_map_link": true,
    "global_id": "127.0.0.1?id=4",
    "global_id_lineage": [
     "127.0.0.1?id=4"
    ]
   },
   "organizer": [
    {
     "id": 5,
     "author": "1",
     "status": "publish",
     "date": "2026-11-22 11:02:06",
     "date_utc": "2026-11-22 11:02:06",
     "modified": "2026-11-22 11:02:06",
     "modified_utc": "2026-11-22 11:02:06",
     "url": "http://127.0.0.1:8881/organizer/springfield-arts/",
     "organizer": "Springfield Arts",
     "slug": "springfield-arts",
     "phone": "+1 555 0199",
     "website": "https://arts.example.com",
     "email": "arts@example.com",
     "global_id": "127.0.0.1?id=5",
     "global_id_lineage": [
      "127.0.0.1?id=5"
     ]
    }
   ],
   "custom_fields": []
  }
 ],
 "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/events/?page=1&per_page=2&start_date=2026-11-21 00:00:00&end_date=2028-11-22 23:59:59&status=publish",
 "next_rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/events/?per_page=2&start_date=2026-11-21+00%3A00%3A00&end_date=2028-11-22+23%3A59%3A59&status=publish&page=2",
 "total": 3,
 "total_pages": 2
};

export const EVENTS_PAGE_2 = {
 "events": [
  {
   "id": 8,
   "global_id": "127.0.0.1?id=8",
   "global_id_lineage": [
    "127.0.0.1?id=8"
   ],
   "author": "1",
   "status": "publish",
   "date": "2026-11-22 11:02:07",
   "date_utc": "2026-11-22 11:02:07",
   "modified": "2026-11-22 11:02:07",
   "modified_utc": "2026-11-22 11:02:07",
   "url": "http://127.0.0.1:8881/event/winter-market/",
   "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/events/8",
   "title": "Winter Market",
   "description": "",
   "excerpt": "",
   "slug": "winter-market",
   "image": false,
   "all_day": true,
   "start_date": "2026-12-12 00:00:00",
   "start_date_details": {
    "year": "2026",
    "month": "12",
    "day": "12",
    "hour": "00",
    "minutes": "00",
    "seconds": "00"
   },
   "end_date": "2026-12-13 23:59:59",
   "end_date_details": {
    "year": "2026",
    "month": "12",
    "day": "13",
    "hour": "23",
    "minutes": "59",
    "seconds": "59"
   },
   "utc_start_date": "2026-12-12 00:00:00",
   "utc_start_date_details": {
    "year": "2026",
    "month": "12",
    "day": "12",
    "hour": "00",
    "minutes": "00",
    "seconds": "00"
   },
   "utc_end_date": "2026-12-13 23:59:59",
   "utc_end_date_details": {
    "year": "2026",
    "month": "12",
    "day": "13",
    "hour": "23",
    "minutes": "59",
    "seconds": "59"
   },
   "timezone": "UTC",
   "timezone_abbr": "UTC",
   "cost": "",
   "cost_details": {
    "currency_symbol": "",
    "currency_code": "",
    "currency_position": "",
    "values": []
   },
   "website": "http://127.0.0.1:8881/event/winter-market/",
   "show_map": false,
   "show_map_link": false,
   "hide_from_listings": false,
   "sticky": false,
   "featured": false,
   "categories": [],
   "tags": [],
   "venue": [],
   "organizer": [],
   "custom_fields": []
  }
 ],
 "rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/events/?page=2&per_page=2&start_date=2026-11-21 00:00:00&end_date=2028-11-22 23:59:59&status=publish",
 "previous_rest_url": "http://127.0.0.1:8881/wp-json/tribe/events/v1/events/?per_page=2&start_date=2026-11-21+00%3A00%3A00&end_date=2028-11-22+23%3A59%3A59&status=publish",
 "total": 3,
 "total_pages": 2
};

