/**
 * `GET /doc` is valid OpenAPI 3.0 under a strict validator (`@apidevtools/swagger-parser`), in
 * every language, as the running service answers it (contract §4 row 20), with WordPress's global
 * parameters documented on its operations (contract §7.7).
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { get, NS, show } from "./support/http";

describe("/doc is valid OpenAPI", () => {
  for (const prefix of ["", "/en", "/de"]) {
    it(`${prefix || "default language"}: swagger-parser validates it, global parameters included`, async () => {
      const answer = await get(`${prefix}${NS}/doc`);
      expect(answer.status, show(answer)).toBe(200);
      const doc = answer.body;
      // validate() dereferences in place: keep the answer as sent for the checks below.
      await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
      expect(Object.keys(doc.components.parameters)).toEqual(["_fields", "_embed", "_envelope"]);
      const refs = (op: { parameters: Array<{ $ref?: string }> }) =>
        op.parameters.flatMap((p) => (p.$ref ? [p.$ref.split("/").pop()] : []));
      expect(refs(doc.paths["/events"].get)).toEqual(["_fields", "_embed", "_envelope"]);
      expect(refs(doc.paths["/events"].post)).toEqual(["_envelope"]);
      for (const p of Object.values(doc.components.parameters) as Array<{ description: string }>)
        expect(p.description).not.toMatch(/^doc\./);
    });
  }
});
