/**
 * Reads the structure of an iCalendar file (RFC 5545 sections 3.1, 3.4, 3.6) line by line, so that every
 * problem can name its line: lines are unfolded here (ical.js does not report line numbers), each
 * content line is parsed by ical.js (`ICAL.parse.property`), and the components are assembled into
 * the jCal tree ical.js works on. The physical line of every property and component is kept.
 */
import ICAL from "ical.js";
import { IcsError } from "./errors";

/** One unfolded content line: its text and the 1-based physical line it starts on. */
export interface ContentLine {
  line: number;
  text: string;
}

/** Where a property or component came from. */
export interface Origin {
  /** 1-based physical line (the BEGIN line for a component). */
  line: number;
  /** The property value as written, before unescaping (`""` for components). */
  raw: string;
}

/** A scanned calendar: the ical.js component tree and the origin of each of its parts. */
export interface ScannedCalendar {
  root: ICAL.Component;
  /** The origin of a property or component of `root` (looked up by its jCal array). */
  origin(item: { jCal: unknown[] }): Origin;
  /** The last non-blank physical line of the file. */
  lineCount: number;
}

/**
 * Splits text into content lines: CRLF, LF or CR line ends; a line starting with a space or a tab
 * continues the previous one (the first whitespace character is dropped, RFC 5545 §3.1). A leading
 * byte order mark is ignored.
 * @example unfold("SUMMARY:Long\r\n  title")[0] // { line: 1, text: "SUMMARY:Long title" }
 */
export function unfold(text: string): ContentLine[] {
  const out: ContentLine[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\n|\r/)
    .forEach((physical, i) => {
      const last = out[out.length - 1];
      if ((physical.startsWith(" ") || physical.startsWith("\t")) && last)
        last.text += physical.slice(1);
      else out.push({ line: i + 1, text: physical });
    });
  return out;
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 57)}...` : text);

/** The value part of a content line: after the first colon that is not inside a quoted parameter. */
function rawValue(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === ":" && !quoted) return text.slice(i + 1);
  }
  return "";
}

function parseProperty(line: ContentLine): unknown[] {
  const name = /^[A-Za-z0-9-]+(?=[;:])/.exec(line.text)?.[0];
  if (!name || !line.text.includes(":")) {
    throw new IcsError(
      line.line,
      `not a content line (expected NAME:value or NAME;PARAM=x:value): "${clip(line.text)}"`,
    );
  }
  if (/^(begin|end)$/i.test(name))
    throw new IcsError(line.line, `malformed ${name.toUpperCase()} line: "${clip(line.text)}"`);
  try {
    return ICAL.parse.property(line.text) as unknown[];
  } catch (err) {
    const why =
      err instanceof Error ? err.message.replace(/ in '.*$|"[^"]*"$/s, "").trim() : String(err);
    throw new IcsError(
      line.line,
      `malformed ${name.toUpperCase()} line (${why.toLowerCase()}): "${clip(line.text)}"`,
    );
  }
}

interface Open {
  name: string;
  line: number;
  jCal: [string, unknown[], unknown[]];
}

/**
 * Scans a whole file: exactly one VCALENDAR, every BEGIN matched by its END, no VEVENT inside
 * anything but the VCALENDAR, every other line a well-formed property.
 * @throws IcsError naming the line of the first problem, e.g. line 40
 *   `missing END:VEVENT before BEGIN:VEVENT (the VEVENT begun on line 31 is not closed)`.
 */
export function scanCalendar(text: string): ScannedCalendar {
  const lines = unfold(text);
  const origins = new WeakMap<object, Origin>();
  const stack: Open[] = [];
  let root: Open["jCal"] | null = null;
  let lastLine = 1;

  for (const cl of lines) {
    if (cl.text.trim() === "") continue;
    lastLine = cl.line;
    const edge = /^(BEGIN|END):(.*)$/i.exec(cl.text);
    if (!edge) {
      if (root === null)
        throw new IcsError(cl.line, "not an iCalendar file: it must start with BEGIN:VCALENDAR");
      if (stack.length === 0) throw new IcsError(cl.line, "content after END:VCALENDAR");
      const jCal = parseProperty(cl);
      origins.set(jCal, { line: cl.line, raw: rawValue(cl.text) });
      stack[stack.length - 1].jCal[1].push(jCal);
      continue;
    }
    const name = edge[2].trim().toUpperCase();
    if (!/^[A-Z0-9-]+$/.test(name))
      throw new IcsError(cl.line, `invalid component name "${clip(edge[2])}"`);
    const top = stack[stack.length - 1];
    if (edge[1].toUpperCase() === "END") {
      if (!top) throw new IcsError(cl.line, `END:${name} without a matching BEGIN:${name}`);
      if (top.name !== name) {
        throw new IcsError(
          cl.line,
          `missing END:${top.name} before END:${name} (the ${top.name} begun on line ${top.line} is not closed)`,
        );
      }
      stack.pop();
      continue;
    }
    if (root === null && name !== "VCALENDAR")
      throw new IcsError(
        cl.line,
        `not an iCalendar file: expected BEGIN:VCALENDAR, found BEGIN:${name}`,
      );
    if (root !== null && !top)
      throw new IcsError(
        cl.line,
        `BEGIN:${name} after END:VCALENDAR (one calendar per file is supported)`,
      );
    if (top && name === top.name) {
      throw new IcsError(
        cl.line,
        `missing END:${top.name} before BEGIN:${name} (the ${top.name} begun on line ${top.line} is not closed)`,
      );
    }
    if (top && (name === "VCALENDAR" || (name === "VEVENT" && top.name !== "VCALENDAR"))) {
      throw new IcsError(cl.line, `BEGIN:${name} inside the ${top.name} begun on line ${top.line}`);
    }
    const jCal: Open["jCal"] = [name.toLowerCase(), [], []];
    origins.set(jCal, { line: cl.line, raw: "" });
    if (top) top.jCal[2].push(jCal);
    else root = jCal;
    stack.push({ name, line: cl.line, jCal });
  }

  if (root === null) throw new IcsError(1, "not an iCalendar file: no BEGIN:VCALENDAR");
  if (stack.length) {
    const top = stack[stack.length - 1];
    throw new IcsError(
      lastLine,
      `the file ends before END:${top.name} (the ${top.name} begun on line ${top.line} is not closed)`,
    );
  }
  return {
    root: new ICAL.Component(root),
    origin: (item) => origins.get(item.jCal) ?? { line: 0, raw: "" },
    lineCount: lastLine,
  };
}
