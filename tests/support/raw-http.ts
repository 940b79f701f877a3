import net from "node:net";

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  raw: string;
  /** What follows the head, as sent (chunked bodies are not decoded). */
  body: string;
}

/**
 * One HTTP/1.1 request written byte for byte on a fresh socket: for the methods and Host
 * headers that Node's own client and fetch refuse to send (TRACE, `Host: a b`...), or bytes
 * that are not UTF-8.
 */
export function rawRequest(port: number, head: string | Buffer, { halfClose = false } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const [statusLine, ...lines] = text.split("\r\n\r\n")[0].split("\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
      }
      const at = text.indexOf("\r\n\r\n");
      resolve({ status, headers, raw: text, body: at < 0 ? "" : text.slice(at + 4) });
    });
    // A Buffer is a whole request (its head and its body), written as it is.
    socket.write(typeof head !== "string" || head.endsWith("\r\n\r\n") ? head : `${head}\r\nConnection: close\r\n\r\n`);
    // The client's side ends once the request is sent; the server's side stays open for the answer.
    if (halfClose) socket.end();
  });
}
