/**
 * The two ways an import fails: the file is bad (`IcsError`, found before anything is sent), or the
 * server refused a request (`ImportError`, after some events may already have been written; a
 * second run resumes, because events are matched by UID).
 */
import type { ImportReport } from "./report";

/**
 * A file that is not an importable iCalendar file.
 * @example new IcsError(12, 'invalid DTSTART "2025-05-17" (expected YYYYMMDD or YYYYMMDDTHHMMSS[Z])')
 */
export class IcsError extends Error {
  /**
   * @param line 1-based physical line of the file where the problem is (for a folded content
   *   line, the line it starts on).
   * @param message what is wrong, without the line number (the CLI prints `file:line: message`).
   */
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = "IcsError";
  }
}

/** A request the server did not accept (after retries for transient failures). */
export class ImportError extends Error {
  /** What had been done when the import stopped (set by `importEvents`). */
  report?: ImportReport;

  /**
   * @param message what failed, naming the event (UID and line) when one is concerned.
   * @param status the HTTP status, or 0 when the server could not be reached.
   * @param code the WordPress error `code` of the response, when it had one.
   */
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = "ImportError";
  }
}
