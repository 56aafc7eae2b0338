/**
 * What kinds of events the demo calendar has: a title pool, category, tags, usual start hours and
 * length, and how it is priced. The calendar generator draws dated events from these.
 */
import type { TagKey } from "./terms";

/** A kind of event the calendar repeats (one title drawn per occurrence). */
export interface Program {
  titles: readonly string[];
  /** Category keys (first = main). */
  categories: readonly string[];
  tags: readonly TagKey[];
  /** Local start hours to choose from. */
  hours: readonly number[];
  /** Length in minutes (ignored for all-day). */
  minutes: readonly number[];
  /** Extra days an event lasts (0 = ends the day it starts). */
  extraDays?: readonly number[];
  allDay?: boolean;
  /** No venue: held online, in the site's time zone. */
  online?: boolean;
  /** Price levels in the venue's currency; 0 = free, [] = no cost given. */
  prices: readonly (readonly number[])[];
  /** Relative frequency. */
  weight: number;
  /** A sentence about the event, for the description. */
  pitch: string;
}

/** Every program, drawn by `weight`. */
export const PROGRAMS: readonly Program[] = [
  {
    titles: [
      "Jazz at Twilight",
      "Late Set: The Blue Hour Quartet",
      "Monday Jazz Jam",
      "Swing Night",
    ],
    categories: ["jazz"],
    tags: ["live", "late"],
    hours: [19, 20, 21],
    minutes: [120, 150],
    prices: [[15], [10, 25], [0]],
    weight: 5,
    pitch: "Two sets of standards and originals, with an open jam after the break.",
  },
  {
    titles: [
      "Beethoven Piano Sonatas",
      "String Quartets by Candlelight",
      "Baroque Sunday",
      "Mozart for Breakfast",
    ],
    categories: ["classical"],
    tags: ["accessible", "limited"],
    hours: [11, 17, 19],
    minutes: [90, 120],
    prices: [[25, 45], [30], [18]],
    weight: 4,
    pitch: "An evening of chamber music played on period instruments.",
  },
  {
    titles: ["Folk Session", "Singer-Songwriter Night", "Open Mic"],
    categories: ["music"],
    tags: ["live", "community"],
    hours: [19, 20],
    minutes: [180],
    prices: [[0], [5], []],
    weight: 4,
    pitch: "Bring an instrument or just listen: everyone gets a turn.",
  },
  {
    titles: [
      "Gallery Night",
      "Opening: New Prints",
      "Sculpture in the Courtyard",
      "Portrait Exhibition",
    ],
    categories: ["arts"],
    tags: ["accessible", "community"],
    hours: [18, 19],
    minutes: [180],
    prices: [[0], []],
    weight: 4,
    pitch: "Meet the artists, see the new work and stay for a drink.",
  },
  {
    titles: ["Film Under the Stars", "Silent Film with Live Piano", "Documentary Club"],
    categories: ["arts", "music"],
    tags: ["outdoor", "late"],
    hours: [20, 21],
    minutes: [150],
    prices: [[8], [0]],
    weight: 3,
    pitch: "Bring a blanket; the screening starts at dusk.",
  },
  {
    titles: [
      "Pottery for Beginners",
      "Intro to Printmaking",
      "Bookbinding Basics",
      "Watercolour Workshop",
    ],
    categories: ["workshops", "arts"],
    tags: ["beginner", "handson", "limited"],
    hours: [10, 14],
    minutes: [180, 240],
    prices: [[45], [35, 60]],
    weight: 4,
    pitch: "All materials are included; no experience needed.",
  },
  {
    titles: ["TypeScript Meetup", "Edge Computing Night", "Code & Coffee", "Intro to SQL"],
    categories: ["tech"],
    tags: ["networking", "beginner"],
    hours: [18, 19],
    minutes: [120],
    prices: [[0], []],
    weight: 4,
    pitch: "Short talks, pizza and plenty of time to chat.",
  },
  {
    titles: ["Webinar: Planning Your Season", "Online Coding Dojo", "Remote Drawing Class"],
    categories: ["workshops", "tech"],
    tags: ["online", "beginner"],
    hours: [9, 15, 17],
    minutes: [60, 90],
    online: true,
    prices: [[0], [], [10]],
    weight: 3,
    pitch: "Join from anywhere; the link is sent after you register.",
  },
  {
    titles: [
      "Family Science Saturday",
      "Storytime for Kids",
      "Puppet Theatre",
      "Lego Build Challenge",
    ],
    categories: ["family"],
    tags: ["kids", "weekend", "handson"],
    hours: [10, 11, 14],
    minutes: [60, 90],
    prices: [[0], [5], [3, 8]],
    weight: 4,
    pitch: "For children aged 4 to 11 with a grown-up.",
  },
  {
    titles: [
      "Street Food Market",
      "Wine Tasting: Riesling & Friends",
      "Supper Club",
      "Craft Beer Evening",
    ],
    categories: ["food"],
    tags: ["vegan", "late"],
    hours: [12, 18, 19],
    minutes: [180, 240],
    prices: [[0], [35], [20, 40]],
    weight: 4,
    pitch: "Local producers, long tables and good company.",
  },
  {
    titles: ["Farmers Market", "Museum Free Day", "Flea Market"],
    categories: ["food", "family"],
    tags: ["outdoor", "weekend", "community"],
    hours: [0],
    minutes: [0],
    allDay: true,
    prices: [[0], []],
    weight: 3,
    pitch: "Open all day; come and go as you like.",
  },
  {
    titles: ["City Jazz Festival", "Street Festival", "Book Fair", "Lantern Festival"],
    categories: ["music", "family"],
    tags: ["outdoor", "seasonal", "live"],
    hours: [0],
    minutes: [0],
    allDay: true,
    extraDays: [1, 2, 3],
    prices: [[15, 40], [0], [25]],
    weight: 2,
    pitch: "Several days of music, food and stalls for all ages.",
  },
  {
    titles: ["Design Conference", "Open Source Summit", "Photography Weekend"],
    categories: ["tech", "arts"],
    tags: ["networking", "advanced"],
    hours: [9],
    minutes: [540],
    extraDays: [1, 2],
    prices: [[150, 300], [99]],
    weight: 2,
    pitch: "Keynotes, hands-on sessions and an evening social.",
  },
  {
    titles: ["Yoga in the Park", "Community Garden Day", "River Clean-up"],
    categories: ["family"],
    tags: ["outdoor", "community", "weekend"],
    hours: [8, 9, 10],
    minutes: [60, 120, 180],
    prices: [[0], []],
    weight: 3,
    pitch: "Meet at the main entrance; gloves and mats are provided.",
  },
];
