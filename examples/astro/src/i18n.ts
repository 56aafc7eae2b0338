/** The site's own words, per language (the service gives the data, the same in both). */
export const LANGUAGES = ["en", "de"] as const;
export type Lang = (typeof LANGUAGES)[number];

export const t = {
  en: {
    title: "Events",
    upcoming: "All events",
    venue: "Venue",
    organizers: "Organizers",
    categories: "Categories",
    when: "When",
    cost: "Cost",
    back: "All events",
    other: "Deutsch",
    counts: (v: number, o: number, c: number, g: number) =>
      `${v} venues, ${o} organizers, ${c} categories, ${g} tags`,
  },
  de: {
    title: "Veranstaltungen",
    upcoming: "Alle Veranstaltungen",
    venue: "Ort",
    organizers: "Veranstalter",
    categories: "Kategorien",
    when: "Wann",
    cost: "Eintritt",
    back: "Alle Veranstaltungen",
    other: "English",
    counts: (v: number, o: number, c: number, g: number) =>
      `${v} Orte, ${o} Veranstalter, ${c} Kategorien, ${g} Schlagwörter`,
  },
} as const;

/** `2026-11-23 20:00:00` → a date and time in the language's words. */
export function when(lang: Lang, start: string, end: string, allDay: boolean | null): string {
  const fmt = new Intl.DateTimeFormat(lang, {
    dateStyle: "full",
    ...(allDay ? {} : { timeStyle: "short" }),
    timeZone: "UTC",
  });
  const at = (s: string) => new Date(`${s.replace(" ", "T")}Z`);
  return fmt.formatRange(at(start), at(end));
}
