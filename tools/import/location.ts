/**
 * A LOCATION text (RFC 5545 §3.8.7.1, free text) read as a venue (tec-reference §2.6 fields) where
 * its form leaves no doubt: `Name, street, city[, region or ZIP][, country]`, the street
 * starting or ending with its number. Anything else stays whole as the venue's name, as before: a guess that splits
 * `Room 4, Building B` into a name and a street would lose more than it gains.
 *
 * Recognized city parts: `Springfield`, `10115 Berlin` (ZIP first, as in most of Europe),
 * `Springfield IL 62701`; region parts: `IL 62701`, `62701`, `Bavaria`; countries: every English
 * region name ICU knows (`Germany`, `United States`), plus `USA`, `US`, `UK`.
 */
import type { VenueFields } from "../../src/linked-posts/kinds";

/**
 * A venue's details from a VLOCATION's schema.org `Place` or a LOCATION text: the venue's fields
 * beyond its name as the API takes them (§2.6, `VENUE_ARGS`).
 */
export type IcsVenueDetails = Partial<Omit<VenueFields, "venue">>;

const US = /^(US|USA|United States|United States of America)$/i;
const ZIP_FIRST = /^(\d{4,5}(?:-\d{3})?)\s+(\D+)$/;
const CITY_STATE_ZIP = /^(\D+?)\s+([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/;
const STATE_ZIP = /^([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/;
const ZIP = /^\d{4,5}(?:-\d{3,4})?$/;
const WORDS = /^[^\d]+$/;
/** A street with its number first (`100 Main St`, `221B Baker St`) or last (`Hauptstraße 5`). */
const STREET = /^\d+[A-Za-z]?\s+\S|\S\s+\d+[A-Za-z]?$/;

/**
 * The address region as the venue's fields take it (§2.6, §8.6): the state (in the US) or the
 * province, and `stateprovince`, which the API would otherwise derive from them by TEC's rule.
 * @example regionFields("IL", true) // { state: "IL", stateprovince: "IL" }
 */
export function regionFields(value: string | undefined, us: boolean): IcsVenueDetails {
  return { ...(us ? { state: value } : { province: value }), stateprovince: value };
}

let countries: Set<string> | null = null;

/** English names of countries (lower case), from ICU; a short list where ICU has no region names. */
function countryNames(): Set<string> {
  if (countries) return countries;
  countries = new Set(["usa", "us", "uk", "united states", "united kingdom", "deutschland"]);
  try {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    const A = "A".charCodeAt(0);
    for (let i = 0; i < 26; i++)
      for (let j = 0; j < 26; j++) {
        const code = String.fromCharCode(A + i, A + j);
        const name = names.of(code);
        if (name && name !== code) countries.add(name.toLowerCase());
      }
  } catch {
    // No ICU region names: the short list above.
  }
  return countries;
}

/**
 * The venue a LOCATION names.
 * @param text LOCATION on one line (line breaks already turned into `, `).
 * @returns the name, and the address fields when the text has the recognized form ({} otherwise).
 * @example parseLocation("Blue Room, 100 Main St, Springfield, IL 62701, USA")
 *   // { name: "Blue Room", details: { address: "100 Main St", city: "Springfield", state: "IL", stateprovince: "IL", zip: "62701", country: "USA" } }
 */
export function parseLocation(text: string): { name: string; details: IcsVenueDetails } {
  const whole = { name: text, details: {} };
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length < 3 || parts.length > 5) return whole;
  const [name, street, ...rest] = parts;
  if (!STREET.test(street) || /^\d/.test(name)) return whole;
  const details: IcsVenueDetails = { address: street };
  if (rest.length >= 2 && countryNames().has(rest[rest.length - 1].toLowerCase()))
    details.country = rest.pop();
  const region = (value: string) => {
    const us = details.country === undefined || US.test(details.country);
    Object.assign(details, regionFields(value, us));
  };
  const [city, extra] = rest;
  const zipFirst = ZIP_FIRST.exec(city ?? "");
  const cityStateZip = CITY_STATE_ZIP.exec(city ?? "");
  const stateZip = STATE_ZIP.exec(extra ?? "");
  if (rest.length === 1 && zipFirst)
    Object.assign(details, { zip: zipFirst[1], city: zipFirst[2].trim() });
  else if (rest.length === 1 && cityStateZip) {
    details.city = cityStateZip[1].trim();
    region(cityStateZip[2]);
    details.zip = cityStateZip[3];
  } else if (rest.length === 1 && WORDS.test(city)) details.city = city;
  else if (rest.length === 2 && WORDS.test(city)) {
    details.city = city;
    if (stateZip) {
      region(stateZip[1]);
      details.zip = stateZip[2];
    } else if (ZIP.test(extra)) details.zip = extra;
    else if (WORDS.test(extra)) region(extra);
    else return whole;
  } else if (rest.length === 2 && zipFirst && WORDS.test(extra)) {
    Object.assign(details, { zip: zipFirst[1], city: zipFirst[2].trim() });
    region(extra);
  } else return whole;
  return { name, details };
}
