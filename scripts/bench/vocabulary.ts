/**
 * Word lists of the benchmark calendar. Titles and descriptions are assembled from them so that the
 * data looks like a real events site; only the "jazz" words (used for about 1.5% of the events) contain
 * the substring `jazz`, so that `search=jazz` has a known, small share of matches. Nothing else here may
 * contain it (the FTS index uses trigrams, so any substring would match).
 */

export interface City {
  city: string;
  country: string;
  /** US venues: the state; elsewhere empty. */
  state: string;
  /** Outside the US: the province or region. */
  province: string;
  timezone: string;
  /** [latitude, longitude] of the centre; venues are scattered around it. */
  centre: [number, number];
  currency: { symbol: string; position: "prefix" | "postfix"; code: string };
  /** A phone prefix for made-up numbers. */
  phone: string;
  /** Relative share of venues. */
  weight: number;
}

const USD = { symbol: "$", position: "prefix", code: "USD" } as const;
const EUR = { symbol: "€", position: "postfix", code: "EUR" } as const;

export const CITIES: readonly City[] = [
  { city: "New York", country: "United States", state: "NY", province: "", timezone: "America/New_York", centre: [40.7128, -74.006], currency: USD, phone: "+1 212-555-01", weight: 8 },
  { city: "Boston", country: "United States", state: "MA", province: "", timezone: "America/New_York", centre: [42.3601, -71.0589], currency: USD, phone: "+1 617-555-01", weight: 3 },
  { city: "Chicago", country: "United States", state: "IL", province: "", timezone: "America/Chicago", centre: [41.8781, -87.6298], currency: USD, phone: "+1 312-555-01", weight: 5 },
  { city: "Austin", country: "United States", state: "TX", province: "", timezone: "America/Chicago", centre: [30.2672, -97.7431], currency: USD, phone: "+1 512-555-01", weight: 3 },
  { city: "Denver", country: "United States", state: "CO", province: "", timezone: "America/Denver", centre: [39.7392, -104.9903], currency: USD, phone: "+1 303-555-01", weight: 2 },
  { city: "Los Angeles", country: "United States", state: "CA", province: "", timezone: "America/Los_Angeles", centre: [34.0522, -118.2437], currency: USD, phone: "+1 213-555-01", weight: 6 },
  { city: "Seattle", country: "United States", state: "WA", province: "", timezone: "America/Los_Angeles", centre: [47.6062, -122.3321], currency: USD, phone: "+1 206-555-01", weight: 3 },
  { city: "Toronto", country: "Canada", state: "", province: "ON", timezone: "America/Toronto", centre: [43.6532, -79.3832], currency: { symbol: "$", position: "prefix", code: "CAD" }, phone: "+1 416-555-01", weight: 3 },
  { city: "London", country: "United Kingdom", state: "", province: "Greater London", timezone: "Europe/London", centre: [51.5074, -0.1278], currency: { symbol: "£", position: "prefix", code: "GBP" }, phone: "+44 20 7946 0", weight: 5 },
  { city: "Berlin", country: "Germany", state: "", province: "Berlin", timezone: "Europe/Berlin", centre: [52.52, 13.405], currency: EUR, phone: "+49 30 5550 ", weight: 4 },
  { city: "München", country: "Germany", state: "", province: "Bayern", timezone: "Europe/Berlin", centre: [48.1351, 11.582], currency: EUR, phone: "+49 89 5550 ", weight: 2 },
  { city: "Paris", country: "France", state: "", province: "Île-de-France", timezone: "Europe/Paris", centre: [48.8566, 2.3522], currency: EUR, phone: "+33 1 55 50 ", weight: 3 },
  { city: "Madrid", country: "Spain", state: "", province: "Madrid", timezone: "Europe/Madrid", centre: [40.4168, -3.7038], currency: EUR, phone: "+34 91 555 ", weight: 2 },
  { city: "Tokyo", country: "Japan", state: "", province: "Tokyo", timezone: "Asia/Tokyo", centre: [35.6762, 139.6503], currency: { symbol: "¥", position: "prefix", code: "JPY" }, phone: "+81 3-5550-", weight: 2 },
  { city: "Sydney", country: "Australia", state: "", province: "NSW", timezone: "Australia/Sydney", centre: [-33.8688, 151.2093], currency: { symbol: "$", position: "prefix", code: "AUD" }, phone: "+61 2 5550 ", weight: 2 },
];

export const STREETS = [
  "Main Street", "Market Street", "River Road", "Station Road", "High Street", "Park Avenue", "Mill Lane", "Harbor Way",
  "Elm Street", "Oak Avenue", "Church Street", "Canal Street", "Bridge Street", "King Street", "Queen Street", "Garden Row",
  "Lake Drive", "Hill Street", "Union Square", "Water Street",
];

export const VENUE_FIRST = [
  "Riverside", "Harbor", "Old Mill", "Union", "Granite", "Lakeside", "Meridian", "Copper", "Northside", "Orchard", "Lantern",
  "Crescent", "Foundry", "Ironworks", "Silver", "Maple", "Beacon", "Summit", "Willow", "Canal", "Garden", "Station", "Market",
  "Parkside", "Hillcrest",
];
export const VENUE_KIND = [
  "Hall", "Theater", "Arts Center", "Community Center", "Library", "Gallery", "Studio", "Pavilion", "Warehouse", "Club",
  "Auditorium", "Loft", "Brewery", "Park", "Forum", "Commons", "Playhouse", "Chapel", "Rooftop", "Workshop",
];

export const ORGANIZER_FIRST = [
  "Riverside", "Northern", "Open", "Little", "Green City", "Blue Door", "Second Street", "Lighthouse", "Good Company",
  "Urban", "Common Ground", "Bright Futures", "Night Owl", "Sunday", "Hometown", "Wild Thyme", "Paper Crane", "Red Brick",
];
export const ORGANIZER_KIND = [
  "Arts Collective", "Society", "Meetups", "Club", "Foundation", "Alliance", "Productions", "Network", "Association",
  "Friends", "Guild", "Events", "Studio", "Promotions",
];

/** A category: `parent` names the slug of its parent; `weight` is its share of events. */
export interface CategorySpec {
  name: string;
  slug: string;
  parent?: string;
  weight: number;
  /** Nouns for titles of events in this category. */
  nouns: string[];
}

/** 20 categories, 6 top-level and 14 nested; Music and its children are the most common. */
export const CATEGORIES: readonly CategorySpec[] = [
  { name: "Music", slug: "music", weight: 6, nouns: ["Concert", "Live Music", "Showcase", "Session"] },
  { name: "Concerts", slug: "concerts", parent: "music", weight: 10, nouns: ["Concert", "Recital", "Gig", "Live Set"] },
  { name: "Festivals", slug: "festivals", parent: "music", weight: 3, nouns: ["Festival", "Weekender", "All-Dayer"] },
  { name: "Open Mic", slug: "open-mic", parent: "music", weight: 4, nouns: ["Open Mic", "Song Circle", "Jam"] },
  { name: "Arts", slug: "arts", weight: 3, nouns: ["Arts Evening", "Showcase", "Salon"] },
  { name: "Theater", slug: "theater", parent: "arts", weight: 5, nouns: ["Play", "Improv Night", "Staged Reading", "Musical"] },
  { name: "Exhibitions", slug: "exhibitions", parent: "arts", weight: 4, nouns: ["Exhibition", "Opening", "Gallery Walk", "Retrospective"] },
  { name: "Film", slug: "film", parent: "arts", weight: 4, nouns: ["Screening", "Film Night", "Double Feature", "Short Film Evening"] },
  { name: "Community", slug: "community", weight: 3, nouns: ["Gathering", "Meetup", "Social"] },
  { name: "Volunteering", slug: "volunteering", parent: "community", weight: 2, nouns: ["Clean-up", "Planting Day", "Volunteer Day"] },
  { name: "Markets", slug: "markets", parent: "community", weight: 4, nouns: ["Market", "Flea Market", "Craft Fair", "Bazaar"] },
  { name: "Family", slug: "family", parent: "community", weight: 4, nouns: ["Family Day", "Story Time", "Kids' Workshop", "Puppet Show"] },
  { name: "Education", slug: "education", weight: 2, nouns: ["Class", "Seminar", "Lecture"] },
  { name: "Workshops", slug: "workshops", parent: "education", weight: 6, nouns: ["Workshop", "Masterclass", "Hands-on Lab", "Bootcamp"] },
  { name: "Talks", slug: "talks", parent: "education", weight: 5, nouns: ["Talk", "Panel", "Book Reading", "Fireside Chat"] },
  { name: "Courses", slug: "courses", parent: "education", weight: 3, nouns: ["Course", "Evening Class", "Study Group"] },
  { name: "Sports & Outdoors", slug: "sports-outdoors", weight: 2, nouns: ["Outing", "Meet", "Challenge"] },
  { name: "Running", slug: "running", parent: "sports-outdoors", weight: 3, nouns: ["Fun Run", "5K", "Trail Run", "Parkrun"] },
  { name: "Cycling", slug: "cycling", parent: "sports-outdoors", weight: 2, nouns: ["Group Ride", "Bike Tour", "Repair Café"] },
  { name: "Food & Drink", slug: "food-drink", weight: 5, nouns: ["Tasting", "Supper Club", "Food Tour", "Cooking Class"] },
];

/** Topic words per top-level category, put before the noun ("Folk Concert", "Pottery Workshop"). */
export const TOPICS: Record<string, string[]> = {
  music: ["Folk", "Blues", "Soul", "Classical", "Indie", "Choir", "Brass", "Piano", "Swing", "Acoustic", "Electronic", "Gospel", "Bluegrass", "String Quartet"],
  arts: ["Contemporary", "Printmaking", "Photography", "Sculpture", "Documentary", "Comedy", "Shakespeare", "Silent"],
  community: ["Neighborhood", "Spring", "Harvest", "Winter", "Summer", "Holiday", "Vintage", "Makers'"],
  education: ["Pottery", "Watercolor", "Python", "Beginners' Spanish", "Creative Writing", "Woodworking", "Gardening", "Astronomy", "Photography", "Sourdough"],
  "sports-outdoors": ["Sunrise", "Riverside", "Hill", "Family", "Night", "Charity", "Beginners'"],
  "food-drink": ["Wine", "Craft Beer", "Cheese", "Street Food", "Vegan", "Coffee", "Chocolate", "Whisky"],
};

/** Words for the ~1.5% of music events about jazz (the only words that contain "jazz"). */
export const JAZZ_TOPICS = ["Jazz", "Late-Night Jazz", "Jazz Trio", "Big Band Jazz", "Jazz Brunch"];

export const TITLE_PREFIXES = ["", "", "", "", "Evening ", "Weekend ", "Monthly ", "Late ", "Sunday ", "Community ", "Annual ", "Pop-up "];

/** 60 tags, most popular first (tags are picked with a 1/rank bias). */
export const TAGS = [
  "free", "family-friendly", "outdoor", "indoor", "all-ages", "beginner", "live", "accessible", "weekend", "evening",
  "downtown", "local", "workshop", "hands-on", "networking", "kids", "seniors", "students", "charity", "fundraiser",
  "drop-in", "registration-required", "limited-seats", "wheelchair-access", "pet-friendly", "rain-or-shine", "bring-your-own",
  "vegan", "vegetarian", "craft", "diy", "sustainability", "history", "science", "technology", "literature", "poetry",
  "dance", "acoustic", "classical", "folk", "blues", "indie", "theater-night", "film-club", "photography", "painting",
  "ceramics", "gardening", "running-club", "cycling-club", "yoga", "meditation", "wellness", "cooking", "wine", "beer",
  "coffee", "market-day", "holiday",
];

/** Sentences for descriptions; `{title}`, `{venue}`, `{city}`, `{topic}` are filled in. */
export const OPENERS = [
  "Join us for {title}, an evening of {topic} for everyone.",
  "{title} returns with a new programme and a few surprises.",
  "Our popular {title} is back by demand: bring a friend.",
  "{title} brings {topic} to {city} with local artists and guests.",
  "Spend a relaxed afternoon at {title}, hosted by people who love {topic}.",
  "This edition of {title} focuses on {topic} and welcomes newcomers.",
];
export const MIDDLES = [
  "Doors open thirty minutes before the start; seating is first come, first served.",
  "Light refreshments are available, and there is a cloakroom by the entrance.",
  "The programme runs for about two hours with a short break.",
  "Everything you need is provided; wear comfortable clothes.",
  "Tickets are limited, so please register early to secure your place.",
  "The space is step-free and has accessible restrooms.",
  "Expect friendly hosts, good conversation and plenty to take home.",
  "Children are welcome when accompanied by an adult.",
];
export const CLOSERS = [
  "See you there!",
  "Questions? Write to the organizer before the day.",
  "Photos from past editions are on the organizer's website.",
  "Public transport stops right outside.",
  "Bike racks are available at the main entrance.",
];
export const JAZZ_SENTENCES = [
  "Expect standards, bebop and a late jam session with the house jazz band.",
  "A jazz quartet plays two sets, with an open jam for local players afterwards.",
];
