/**
 * `/doc` declares how to authenticate (contract §3: application passwords), so that OpenAPI tools —
 * the reference page's "Authorize" among them — send credentials where they matter.
 */
import { describe, expect, it } from "vitest";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";
import { api, NS } from "../support/api";

describe("GET /doc — security schemes (contract §3)", () => {
  it("declares the application password as HTTP Basic (and Bearer), in the request's language", async () => {
    const [{ body: doc }, { body: docDe }] = await Promise.all([
      api(`${NS}/doc`),
      api(`/de${NS}/doc`),
    ]);
    expect(doc.components.securitySchemes).toEqual({
      applicationPassword: { type: "http", scheme: "basic", description: en.doc.security.basic },
      applicationPasswordBearer: {
        type: "http",
        scheme: "bearer",
        description: en.doc.security.bearer,
      },
    });
    expect(docDe.components.securitySchemes.applicationPassword.description).toBe(
      de.doc.security.basic,
    );
  });

  it("requires credentials for writes and makes them optional where anonymous users may read", async () => {
    const { body: doc } = await api(`${NS}/doc`);
    const signedIn = [{ applicationPassword: [] }, { applicationPasswordBearer: [] }];
    for (const [path, method] of [
      ["/events", "post"],
      ["/events/{id}", "delete"],
      ["/venues/{id}", "patch"],
      ["/categories", "post"],
    ])
      expect(doc.paths[path][method].security, `${method} ${path}`).toEqual(signedIn);
    for (const path of ["/events", "/events/{id}", "/venues", "/tags", "/doc"])
      expect(doc.paths[path].get.security, path).toEqual([{}, ...signedIn]);
  });
});
