import busboy from "busboy";
import type express from "express";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { apiRequireAdmin } from "~/features/auth/guards.server";
import { clientIp, expectedError, handler, HttpError, jsonBody, noStore } from "~/platform/http.server";
import { parseInput } from "~/platform/errors";
import type { AuthService } from "~/features/auth/auth.server";
import { readDeviceCookie } from "~/features/auth/device-cookie.server";
import type { PublicUser } from "~/features/auth/user";
import type { MemberImportService } from "./import.server";
import {
  emptyStats,
  jsonUploadSchema,
  uploadFilenameSchema,
  MAX_UPLOAD_BYTES,
  MESSAGES,
  UPLOAD_PATH,
  type UploadResponse,
} from "./contract";

/**
 * JSON bodies carry the file as an escaped string: a CSV of 10MB can grow (each quote and
 * line break takes two characters), so the JSON limit leaves room and the CSV itself is then
 * held to 10MB.
 */
const JSON_UPLOAD_LIMIT = 2 * MAX_UPLOAD_BYTES + 64 * 1024;
/** The multipart envelope around the file: boundaries, part headers and the password field. */
const MULTIPART_OVERHEAD = 64 * 1024;

const tooLarge = () => new HttpError(413, MESSAGES.tooLarge);

/** POST /api/upload-users: the member CSV import, JSON ({csvContent, filename}) or multipart (csvFile). Any admin. */
export function memberImportRouter({ auth, memberImport }: { auth: AuthService; memberImport: MemberImportService }): Router {
  const router = Router();
  const json = jsonBody(JSON_UPLOAD_LIMIT);

  const run = async (req: Request, res: Response, upload: { csv: string | Buffer[]; filename: string; adminPassword?: string }) => {
    const actor = res.locals.user as PublicUser;
    // A multipart file is held to it by busboy's fileSize limit as it arrives.
    if (typeof upload.csv === "string" && Buffer.byteLength(upload.csv, "utf8") > MAX_UPLOAD_BYTES) throw tooLarge();
    if (upload.adminPassword) {
      const device = readDeviceCookie(req.headers.cookie, req.secure);
      await auth.confirmStaffPassword(actor.id, upload.adminPassword, clientIp(req), MESSAGES.wrongAdminPassword, device);
    }
    const { status, body } = await memberImport.importCsv({ csv: upload.csv, filename: upload.filename, actor });
    res.status(status).json(body);
  };

  router.post(
    UPLOAD_PATH,
    noStore,
    apiRequireAdmin,
    rejectOversized,
    (req, res, next) => (isMultipart(req) ? next() : json(req, res, next)),
    handler(async (req, res) => {
      if (isMultipart(req)) {
        const form = await readMultipart(req);
        return run(req, res, { ...form, filename: parseInput(uploadFilenameSchema, form.filename) });
      }
      const body = parseInput(jsonUploadSchema, req.body);
      return run(req, res, { csv: body.csvContent, filename: body.filename, adminPassword: body.adminPassword });
    }),
  );
  // Errors of this endpoint keep its answer shape: stats are always there.
  router.use(UPLOAD_PATH, ((err, _req, res, next) => {
    if (res.headersSent) return next(err);
    const e = err as { type?: string; status?: number };
    if (e?.type === "entity.too.large") err = tooLarge();
    const refused = expectedError(err);
    if (refused && refused.status < 500) {
      if (refused.headers) res.set(refused.headers);
      const body: UploadResponse = {
        success: false,
        message: refused.message,
        error: refused.message,
        ...(refused.details !== undefined ? { details: detailsList(refused.details) } : {}),
        stats: emptyStats(),
      };
      return res.status(refused.status).json(body);
    }
    next(err);
  }) as express.ErrorRequestHandler);
  return router;
}

const isMultipart = (req: Request) =>
  String(req.headers["content-type"] ?? "")
    .toLowerCase()
    .startsWith("multipart/form-data");

/** Refuses a declared body that is over the limit before reading it. */
const rejectOversized: RequestHandler = (req, _res, next) => {
  const length = Number(req.headers["content-length"]);
  const limit = isMultipart(req) ? MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD : JSON_UPLOAD_LIMIT;
  if (Number.isFinite(length) && length > limit) return next(tooLarge());
  next();
};

/** A refusal's details (each field's problem, as parseInput gives them) as lines. */
function detailsList(details: unknown): string[] {
  if (details && typeof details === "object") return Object.entries(details).map(([k, v]) => `${k}: ${String(v)}`);
  return [String(details)];
}

/**
 * Reads the multipart form with busboy: one file field csvFile (at most 10MB, kept as the
 * buffers it arrived in, outside the JavaScript heap: the upload is claimed by their digest
 * before the import reads them, piece by piece) and an optional adminPassword field. Another
 * file is refused; other fields (two at most) are ignored.
 */
function readMultipart(req: Request): Promise<{ csv: Buffer[]; filename: string; adminPassword?: string }> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        // busboy signals 'limit' when a file reaches fileSize: one byte more, so a file of
        // exactly 10MB is taken, as the browser's check and the JSON variant take it.
        limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 1, fields: 2, parts: 4, fieldSize: 1024, fieldNameSize: 64 },
      });
    } catch {
      return reject(new HttpError(400, "Malformed multipart request"));
    }
    let settled = false;
    const fail = (err: HttpError) => {
      if (settled) return;
      settled = true;
      req.unpipe(bb);
      req.resume(); // drain what is left so the answer can be sent
      reject(err);
    };
    const chunks: Buffer[] = [];
    let filename: string | null = null;
    let adminPassword: string | undefined;
    bb.on("file", (field, stream, info) => {
      // A body cut off inside a file (no closing boundary) errors the file's stream as well
      // as busboy: an 'error' nobody listens to would end the process.
      stream.on("error", () => fail(new HttpError(400, "Malformed multipart request")));
      if (field !== "csvFile") {
        stream.resume();
        return fail(new HttpError(400, `Unexpected file field "${field}"; send the file as csvFile`));
      }
      filename = info.filename ?? "upload.csv";
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("limit", () => fail(tooLarge()));
    });
    bb.on("field", (name, value, info) => {
      if (name === "adminPassword" && !info.valueTruncated) adminPassword = value;
      else if (name === "adminPassword") fail(new HttpError(400, "adminPassword is too long"));
    });
    for (const event of ["filesLimit", "fieldsLimit", "partsLimit"] as const) {
      bb.on(event, () => fail(new HttpError(400, "Send one CSV file in the field csvFile")));
    }
    bb.on("error", () => fail(new HttpError(400, "Malformed multipart request")));
    req.on("error", () => fail(new HttpError(400, "The upload was interrupted")));
    bb.on("close", () => {
      if (settled) return;
      settled = true;
      if (filename === null) return reject(new HttpError(400, "No file received: send the CSV in the field csvFile"));
      resolve({ csv: chunks, filename, adminPassword });
    });
    req.pipe(bb);
  });
}
