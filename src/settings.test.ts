import { describe, expect, it } from "vitest";
import { languageWithoutSettings, parseSettings, SettingsError } from "./settings";

describe("parseSettings", () => {
  it("applies the defaults of contract §1", () => {
    expect(parseSettings({})).toMatchObject({
      siteTimezone: "UTC",
      restPrefix: "wp-json",
      vendor: "tribe",
      languages: ["en", "de"],
      defaultLanguage: "en",
      perPageDefault: 12,
      perPageMax: 50,
      currencySymbol: "$",
      currencyPosition: "prefix",
      currencyCode: "USD",
      siteUrl: "",
      webhookPrivateTargets: false,
      webhookRetryBaseSeconds: 10,
    });
  });

  it.each([
    [{ SITE_TIMEZONE: "Europe/Nowhere" }, "SITE_TIMEZONE"],
    [{ SITE_TIMEZONE: "UTC+25" }, "SITE_TIMEZONE"],
    [{ PER_PAGE_DEFAULT: "0" }, "PER_PAGE_DEFAULT"],
    [{ PER_PAGE_DEFAULT: "60" }, "PER_PAGE_DEFAULT"],
    [{ PER_PAGE_MAX: "many" }, "PER_PAGE_MAX"],
    [{ DEFAULT_LANGUAGE: "fr" }, "DEFAULT_LANGUAGE"],
    [{ LANGUAGES: "en,d e" }, "LANGUAGES"],
    [{ CURRENCY_POSITION: "left" }, "CURRENCY_POSITION"],
    [{ WEBHOOK_PRIVATE_TARGETS: "yes" }, "WEBHOOK_PRIVATE_TARGETS"],
    [{ WEBHOOK_RETRY_BASE_SECONDS: "-1" }, "WEBHOOK_RETRY_BASE_SECONDS"],
    [{ WEBHOOK_RETRY_BASE_SECONDS: "3601" }, "WEBHOOK_RETRY_BASE_SECONDS"],
    [{ SITE_URL: "ftp://x" }, "SITE_URL"],
    [{ REST_PREFIX: "wp json" }, "REST_PREFIX"],
  ])("rejects %j naming %s", (env, variable) => {
    expect(() => parseSettings(env)).toThrow(SettingsError);
    expect(() => parseSettings(env)).toThrow(variable);
  });

  it("accepts offsets and IANA names", () => {
    expect(parseSettings({ SITE_TIMEZONE: "UTC-5:30" }).siteTimezone).toBe("UTC-5:30");
    expect(parseSettings({ SITE_TIMEZONE: "America/New_York" }).siteTimezone).toBe(
      "America/New_York",
    );
  });
});

describe("languageWithoutSettings (the 500 rest_setting_invalid)", () => {
  it("takes the path's prefix when LANGUAGES as written lists it, else DEFAULT_LANGUAGE, else en", () => {
    const broken = { SITE_TIMEZONE: "Mars/Base" };
    expect(languageWithoutSettings(broken, "de")).toBe("de");
    expect(languageWithoutSettings(broken, "wp-json")).toBe("en");
    expect(languageWithoutSettings({ ...broken, DEFAULT_LANGUAGE: "de" }, "wp-json")).toBe("de");
    expect(languageWithoutSettings({ LANGUAGES: "en, fr" }, "de")).toBe("en");
    expect(languageWithoutSettings({ LANGUAGES: "de", DEFAULT_LANGUAGE: "xx" }, "fr")).toBe("en");
  });
});
