/**
 * The calendar in both languages of the service, as global data `tec.en` and `tec.de`
 * (@tec-edge/eleventy): the first build downloads every list into `.cache/tec-edge/`, a rebuild
 * only what changed since. TEC_API is the service's origin (default the repository's `npm start`).
 */
import tecEdge from "@tec-edge/eleventy";

const API = process.env.TEC_API ?? "http://127.0.0.1:8787";

/** `2026-11-23 20:00:00` (the event's wall-clock time) in the language's words. */
function when(event, lang) {
  const at = (s) => new Date(`${s.replace(" ", "T")}Z`);
  const format = new Intl.DateTimeFormat(lang, {
    dateStyle: "full",
    ...(event.all_day ? {} : { timeStyle: "short" }),
    timeZone: "UTC",
  });
  return format.formatRange(at(event.start_date), at(event.end_date));
}

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(tecEdge, {
    baseUrl: {
      en: `${API}/en/wp-json/tribe/events/v1`,
      de: `${API}/de/wp-json/tribe/events/v1`,
    },
  });
  eleventyConfig.addFilter("when", when);
  return { dir: { input: "src", output: "_site" } };
}
