import pino from "pino";

export type Logger = pino.Logger;

/**
 * Structured logs. Credentials never reach a log line: known secret fields are redacted.
 * Lines are written to standard output asynchronously (pino flushes them at exit): a request
 * does not wait on the write of its log line.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: {
        paths: [
          "password",
          "*.password",
          "birthdate",
          "*.birthdate",
          "req.headers.cookie",
          "req.headers.authorization",
          "headers.cookie",
          "headers.authorization",
          "token",
          "*.token",
        ],
        censor: "[redacted]",
      },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
