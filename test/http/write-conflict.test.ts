import { describe, expect, it } from "vitest";
import { WriteConflict } from "../../src/db/errors";
import { withWriteRetry } from "../../src/db/write";
import { errorBody } from "../../src/http/error-response";
import { ApiError } from "../../src/http/errors";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";

describe("a write that loses every round of its race (contract §2)", () => {
  it("fails with storage's own error, not an HTTP one", async () => {
    const race = () => Promise.reject(new Error("UNIQUE constraint failed: venues.slug"));
    const failure = await withWriteRetry(race, 1).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(WriteConflict);
    expect(failure).not.toBeInstanceOf(ApiError);
  });

  it("is answered 409 rest_write_conflict in the request's language, as before", () => {
    for (const strings of [en, de]) {
      const answer = errorBody(new WriteConflict(), strings);
      expect(answer).toEqual(errorBody(new ApiError(409, "rest_write_conflict"), strings));
      expect(answer.status).toBe(409);
      expect(answer.body).toEqual({
        code: "rest_write_conflict",
        message: strings.messages.rest_write_conflict,
        data: { status: 409 },
      });
    }
  });
});
