/**
 * Demo venues and organizers: invented names at real-looking addresses in several countries and
 * time zones. Web sites and e-mail addresses use the reserved `.example` domain, phone numbers the
 * ranges set aside for fiction (US 555-01xx) or made-up ones.
 */

/** How costs are written where a venue is (`$15`, `15€`). */
export interface Currency {
  symbol: string;
  position: "prefix" | "postfix";
  /** ISO 4217. */
  code: string;
}

const USD: Currency = { symbol: "$", position: "prefix", code: "USD" };
const CAD: Currency = { symbol: "$", position: "prefix", code: "CAD" };
const EUR: Currency = { symbol: "€", position: "postfix", code: "EUR" };
const GBP: Currency = { symbol: "£", position: "prefix", code: "GBP" };
const JPY: Currency = { symbol: "¥", position: "prefix", code: "JPY" };

/** One demo venue, with the zone and currency of the events held there. */
export interface DemoVenue {
  title: string;
  address: string;
  city: string;
  country: string;
  /** US venues: the state. */
  state?: string;
  /** Elsewhere: the province, region or prefecture. */
  province?: string;
  zip: string;
  phone: string;
  website: string;
  /** [latitude, longitude] in degrees; absent for a few venues. */
  geo?: [number, number];
  /** IANA zone of the venue: its events are in this zone. */
  timezone: string;
  currency: Currency;
  description: string;
}

/** The 15 demo venues (ids are given in this order). */
export const VENUES: readonly DemoVenue[] = [
  {
    title: "Harborview Hall",
    address: "200 Water Street",
    city: "New York",
    country: "United States",
    state: "NY",
    zip: "10038",
    phone: "+1 212-555-0142",
    website: "https://harborview-hall.example",
    geo: [40.7075, -74.0021],
    timezone: "America/New_York",
    currency: USD,
    description:
      "A converted 1890s warehouse on the East River with a 400-seat main hall and a rooftop terrace.",
  },
  {
    title: "Beacon Street Theater",
    address: "415 Beacon Street",
    city: "Boston",
    country: "United States",
    state: "MA",
    zip: "02115",
    phone: "+1 617-555-0178",
    website: "https://beacon-theater.example",
    geo: [42.3489, -71.095],
    timezone: "America/New_York",
    currency: USD,
    description:
      "An intimate proscenium theater with excellent acoustics, a short walk from the Fenway.",
  },
  {
    title: "Liberty Arts Center",
    address: "1201 Market Street",
    city: "Philadelphia",
    country: "United States",
    state: "PA",
    zip: "19107",
    phone: "+1 215-555-0110",
    website: "https://liberty-arts.example",
    geo: [39.9522, -75.1604],
    timezone: "America/New_York",
    currency: USD,
    description: "Galleries, studios and a black-box stage under one roof in Center City.",
  },
  {
    title: "Capitol Commons",
    address: "800 F Street NW",
    city: "Washington",
    country: "United States",
    state: "DC",
    zip: "20004",
    phone: "+1 202-555-0163",
    website: "https://capitol-commons.example",
    geo: [38.8977, -77.023],
    timezone: "America/New_York",
    currency: USD,
    description: "A community hall and conference space in Penn Quarter.",
  },
  {
    title: "Peachtree Pavilion",
    address: "285 Peachtree Center Avenue NE",
    city: "Atlanta",
    country: "United States",
    state: "GA",
    zip: "30303",
    phone: "+1 404-555-0191",
    website: "https://peachtree-pavilion.example",
    timezone: "America/New_York",
    currency: USD,
    description: "An open-air pavilion downtown, covered for rainy days.",
  },
  {
    title: "Harbourfront Exchange",
    address: "235 Queens Quay West",
    city: "Toronto",
    country: "Canada",
    province: "ON",
    zip: "M5J 2G8",
    phone: "+1 416-555-0127",
    website: "https://harbourfront-exchange.example",
    geo: [43.6389, -79.3825],
    timezone: "America/Toronto",
    currency: CAD,
    description: "A lakeside exhibition hall with views over Toronto Island.",
  },
  {
    title: "Spreeufer Kulturhaus",
    address: "Holzmarktstraße 25",
    city: "Berlin",
    country: "Germany",
    province: "Berlin",
    zip: "10243",
    phone: "+49 30 5550 1234",
    website: "https://spreeufer-kulturhaus.example",
    geo: [52.5117, 13.4233],
    timezone: "Europe/Berlin",
    currency: EUR,
    description: "Concerts, readings and a riverside garden on the banks of the Spree.",
  },
  {
    title: "Isarhalle",
    address: "Zenettistraße 12",
    city: "München",
    country: "Germany",
    province: "Bayern",
    zip: "80337",
    phone: "+49 89 5550 4411",
    website: "https://isarhalle.example",
    geo: [48.1234, 11.5547],
    timezone: "Europe/Berlin",
    currency: EUR,
    description:
      "A former slaughterhouse hall turned into Munich's favourite venue for markets and festivals.",
  },
  {
    title: "Elbkai Forum",
    address: "Große Elbstraße 145",
    city: "Hamburg",
    country: "Germany",
    province: "Hamburg",
    zip: "22767",
    phone: "+49 40 5550 8890",
    website: "https://elbkai-forum.example",
    geo: [53.5436, 9.9381],
    timezone: "Europe/Berlin",
    currency: EUR,
    description: "Conference rooms and a glass-walled hall right on the harbour.",
  },
  {
    title: "Rheinblick Saal",
    address: "Rheinauhafen 7",
    city: "Köln",
    country: "Germany",
    province: "Nordrhein-Westfalen",
    zip: "50678",
    phone: "+49 221 5550 7120",
    website: "https://rheinblick.example",
    timezone: "Europe/Berlin",
    currency: EUR,
    description: "A modern event hall in the Rheinauhafen, overlooking the river.",
  },
  {
    title: "Canal Saint-Martin Atelier",
    address: "102 Quai de Jemmapes",
    city: "Paris",
    country: "France",
    province: "Île-de-France",
    zip: "75010",
    phone: "+33 1 55 50 12 34",
    website: "https://atelier-canal.example",
    geo: [48.8722, 2.3652],
    timezone: "Europe/Paris",
    currency: EUR,
    description: "A light-filled workshop space along the canal, with a small courtyard.",
  },
  {
    title: "Southbank Loft",
    address: "21 Belvedere Road",
    city: "London",
    country: "United Kingdom",
    province: "Greater London",
    zip: "SE1 8XX",
    phone: "+44 20 7946 0321",
    website: "https://southbank-loft.example",
    geo: [51.5055, -0.116],
    timezone: "Europe/London",
    currency: GBP,
    description: "A top-floor loft on the South Bank for talks, screenings and workshops.",
  },
  {
    title: "Northern Quarter Studio",
    address: "42 Oldham Street",
    city: "Manchester",
    country: "United Kingdom",
    province: "Greater Manchester",
    zip: "M1 1JN",
    phone: "+44 161 496 0758",
    website: "https://nq-studio.example",
    geo: [53.4829, -2.2339],
    timezone: "Europe/London",
    currency: GBP,
    description: "A basement studio and bar in the heart of the Northern Quarter.",
  },
  {
    title: "Sumida Riverside Hall",
    address: "1-2-3 Yokoami, Sumida-ku",
    city: "Tokyo",
    country: "Japan",
    province: "Tokyo",
    zip: "130-0015",
    phone: "+81 3-5550-1234",
    website: "https://sumida-riverside.example",
    geo: [35.6984, 139.7967],
    timezone: "Asia/Tokyo",
    currency: JPY,
    description: "A concert hall by the Sumida River, famous for its summer fireworks views.",
  },
  {
    title: "Kamogawa Gallery",
    address: "123 Nijo-dori, Nakagyo-ku",
    city: "Kyoto",
    country: "Japan",
    province: "Kyoto",
    zip: "604-8005",
    phone: "+81 75-555-0987",
    website: "https://kamogawa-gallery.example",
    timezone: "Asia/Tokyo",
    currency: JPY,
    description: "A machiya townhouse gallery near the Kamo River.",
  },
];

/** One demo organizer. */
export interface DemoOrganizer {
  title: string;
  phone: string;
  email: string;
  website: string;
  description: string;
}

/** The 12 demo organizers (ids are given in this order). */
export const ORGANIZERS: readonly DemoOrganizer[] = [
  {
    title: "Riverside Arts Collective",
    phone: "+1 212-555-0100",
    email: "hello@riverside-arts.example",
    website: "https://riverside-arts.example",
    description: "Artists and volunteers putting on concerts and shows since 2009.",
  },
  {
    title: "Blue Note Society",
    phone: "+1 617-555-0133",
    email: "info@bluenote-society.example",
    website: "https://bluenote-society.example",
    description: "A non-profit bringing live jazz to small stages.",
  },
  {
    title: "Kammermusik Berlin e.V.",
    phone: "+49 30 5550 2200",
    email: "kontakt@kammermusik-berlin.example",
    website: "https://kammermusik-berlin.example",
    description: "Chamber music in unusual places.",
  },
  {
    title: "Code & Coffee Meetups",
    phone: "+1 215-555-0188",
    email: "organizers@codeandcoffee.example",
    website: "https://codeandcoffee.example",
    description: "Friendly meetups for people who write software.",
  },
  {
    title: "Little Explorers Club",
    phone: "+44 20 7946 0555",
    email: "hi@little-explorers.example",
    website: "https://little-explorers.example",
    description: "Hands-on science and art for children aged 4–11.",
  },
  {
    title: "Taste of the Town",
    phone: "+1 404-555-0144",
    email: "events@tasteofthetown.example",
    website: "https://tasteofthetown.example",
    description: "Street-food markets, tastings and supper clubs.",
  },
  {
    title: "Atelier Lumière",
    phone: "+33 1 55 50 98 76",
    email: "bonjour@atelier-lumiere.example",
    website: "https://atelier-lumiere.example",
    description: "Photography and printmaking workshops for every level.",
  },
  {
    title: "Tokyo Sound Works",
    phone: "+81 3-5550-7788",
    email: "contact@tokyo-soundworks.example",
    website: "https://tokyo-soundworks.example",
    description: "Concert promoters for new and traditional Japanese music.",
  },
  {
    title: "Green City Alliance",
    phone: "+1 202-555-0119",
    email: "team@greencity.example",
    website: "https://greencity.example",
    description: "Volunteers for parks, gardens and cleaner streets.",
  },
  {
    title: "Hanse Design Forum",
    phone: "+49 40 5550 3300",
    email: "info@hanse-design.example",
    website: "https://hanse-design.example",
    description: "Talks and conferences on design and architecture.",
  },
  {
    title: "Maple Leaf Folk Club",
    phone: "+1 416-555-0166",
    email: "folk@mapleleaf-club.example",
    website: "https://mapleleaf-club.example",
    description: "Singer-songwriters, sessions and ceilidhs.",
  },
  {
    title: "Open Studio Network",
    phone: "+44 161 496 0912",
    email: "studios@open-studio.example",
    website: "https://open-studio.example",
    description: "Artists opening their studios to the public.",
  },
];

/**
 * TEC's `stateprovince` for a venue (tec-reference §8.6): the state when the country is empty or the
 * United States, else the province, else `""`.
 */
export function stateProvince(venue: {
  country: string;
  state?: string;
  province?: string;
}): string {
  const us = ["", "US", "United States"].includes(venue.country.trim());
  return (us ? venue.state : venue.province) || "";
}
