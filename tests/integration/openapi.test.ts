import { afterAll, beforeAll, expect, it } from "vitest";
import { listApiRoutes } from "../support/api-routes";
import { startTestServer, type TestServer } from "../support/test-app";

let server: TestServer;
beforeAll(async () => {
  // GET /metrics is routed (and so described) when a token is set.
  server = await startTestServer("sqlite", { METRICS_TOKEN: "openapi-metrics-token" });
});
afterAll(() => server.close());

it("/api/openapi.json describes every route the routers have, and nothing else", async () => {
  const res = await server.request("/api/openapi.json");
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  expect(doc.openapi).toBe("3.1.0");
  const described = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops).map((method) => `${method.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ":$1")}`),
  );
  const routed = listApiRoutes(server.services).filter((r) => !r.startsWith("OTHER "));
  expect(routed.filter((r) => !described.includes(r))).toEqual([]);
  expect(described.filter((r) => !routed.includes(r))).toEqual([]);
});

it("gives each body the contract's fields and each caller's access", async () => {
  const doc = (await (await server.request("/api/openapi.json")).json()) as {
    paths: Record<
      string,
      Record<
        string,
        { "x-access": string; requestBody?: { content: Record<string, { schema: { properties?: object; required?: string[] } }> } }
      >
    >;
  };
  const contact = doc.paths["/api/forms"].post;
  expect(contact["x-access"]).toBe("public");
  const schema = contact.requestBody!.content["application/json"].schema;
  expect(Object.keys(schema.properties!)).toEqual(expect.arrayContaining(["name", "email", "phone", "subject", "message"]));
  expect(schema.required).toEqual(expect.arrayContaining(["name", "email", "message"]));
  expect(doc.paths["/api/admin/staff"].post["x-access"]).toBe("super_admin");
  expect(Object.keys(doc.paths["/api/upload-users"].post.requestBody!.content)).toEqual(["application/json", "multipart/form-data"]);
});
