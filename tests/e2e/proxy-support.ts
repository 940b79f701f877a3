import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import path from "node:path";
import { E2E_ENV } from "./env";

/** nginx from Debian's packages (not on an ordinary user's PATH), or NGINX_PATH. */
export function nginxPath(): string | undefined {
  if (process.env.NGINX_PATH) return fs.existsSync(process.env.NGINX_PATH) ? process.env.NGINX_PATH : undefined;
  return ["/usr/sbin/nginx", "/usr/bin/nginx"].find((p) => fs.existsSync(p));
}

export function opensslPath(): string | undefined {
  return ["/usr/bin/openssl", "/usr/local/bin/openssl"].find((p) => fs.existsSync(p));
}

/** A self-signed certificate for 127.0.0.1, made now (Node has no certificate maker; openssl does). */
export function selfSignedCertificate(openssl: string, dir: string): { cert: string; key: string; pem: Buffer } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync(
    openssl,
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  return { cert, key, pem: fs.readFileSync(cert) };
}

/** The fenced ```nginx block of docs/deployment.md: the configuration the docs tell operators to use. */
export function documentedNginxBlock(): string {
  const doc = fs.readFileSync("docs/deployment.md", "utf8");
  const blocks = [...doc.matchAll(/```nginx\n([\s\S]*?)```/g)];
  if (blocks.length !== 1) throw new Error(`docs/deployment.md should hold one \`\`\`nginx block; it holds ${blocks.length}`);
  return blocks[0][1];
}

/** Replaces each documented value with the test's; a value the block no longer holds fails the test (the doc changed). */
export function substitute(block: string, replacements: Array<[string, string]>): string {
  let out = block;
  for (const [from, to] of replacements) {
    if (!out.includes(from)) throw new Error(`docs/deployment.md's nginx block no longer holds "${from}": update the test with it`);
    out = out.split(from).join(to);
  }
  return out;
}

/**
 * nginx as the current user: its own prefix, pid, logs, temp and cache directories under
 * `dir`, in the foreground (`daemon off`). The access log names the instance that answered
 * each request (`$upstream_addr`), which the rolling restart waits on.
 */
export function startNginx(
  nginx: string,
  dir: string,
  httpBlock: string,
): { child: ChildProcess; accessLog: string; stop(): Promise<void> } {
  for (const sub of ["logs", "temp", "cache"]) fs.mkdirSync(path.join(dir, sub), { recursive: true });
  const accessLog = path.join(dir, "logs", "access.log");
  const t = (name: string) => path.join(dir, "temp", name);
  const conf = `daemon off;
worker_processes 1;
pid ${path.join(dir, "nginx.pid")};
error_log ${path.join(dir, "logs", "error.log")} warn;
events { worker_connections 512; }
http {
    default_type application/octet-stream;
    client_body_temp_path ${t("client_body")};
    proxy_temp_path ${t("proxy")};
    fastcgi_temp_path ${t("fastcgi")};
    uwsgi_temp_path ${t("uwsgi")};
    scgi_temp_path ${t("scgi")};
    log_format upstreams '$status $request_method $request_uri upstream=$upstream_addr upstream_status=$upstream_status cache=$upstream_cache_status';
    access_log ${accessLog} upstreams;
${httpBlock}
}
`;
  const confFile = path.join(dir, "nginx.conf");
  fs.writeFileSync(confFile, conf);
  const child = spawn(nginx, ["-p", dir, "-c", confFile, "-e", path.join(dir, "logs", "error.log")], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    accessLog,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGQUIT");
      await exited;
    },
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request trusting the test's certificate, from the given local address (127.x.y.z) when asked. */
export function send(
  url: string,
  ca: Buffer,
  init: { method?: string; headers?: Record<string, string>; body?: string; localAddress?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      url,
      { method: init.method ?? "GET", headers: init.headers, ca, localAddress: init.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(init.body);
  });
}

/** The instance's environment behind the proxy, as docs/deployment.md sets it. */
export function instanceEnv(port: number, databaseUrl: string, publicUrl: string, admin: { username: string; password: string }) {
  const { PUBLIC_URL: _own, DATA_DIR: _sqlite, ...base } = E2E_ENV;
  return {
    ...process.env,
    ...base,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    DATA_DIR: `${process.cwd()}/.tmp/proxy-instance-${port}`,
    PUBLIC_URL: publicUrl,
    TRUST_PROXY: "1",
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
    LOG_LEVEL: "warn",
  };
}

/** Waits on an event by asking again: every 100 ms until `check` holds or the time is up. */
export async function until(what: string, check: () => Promise<boolean> | boolean, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
