// A market-data server: serves the browser page (page/) over HTTP and pushes ticks as binary
// WebSocket frames, one message per frame. ws://host/ticks?count=N&interval=MS sends N ticks, all
// at once or one every MS milliseconds, then closes.
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { WebSocketServer } from "ws";
import { init } from "hppproto";
import { Tick } from "./gen/ticks_pb.js";
import { tick } from "./feed.js";

export interface Server {
  url: string;
  close(): Promise<void>;
}

export async function startServer(pageDir: string, port = 0): Promise<Server> {
  await init();
  const files: Record<string, string> = { "/": "index.html", "/page.js": "page.js" };
  const http = createServer((req, res) => {
    const file = files[(req.url ?? "/").split("?")[0]!];
    if (!file) {
      res.statusCode = 404;
      res.end();
      return;
    }
    res.setHeader("content-type", file.endsWith(".js") ? "text/javascript" : "text/html");
    res.end(readFileSync(path.join(pageDir, file)));
  });
  const wss = new WebSocketServer({ server: http, path: "/ticks" });
  wss.on("connection", (socket, req) => {
    const params = new URL(req.url ?? "", "http://x").searchParams;
    const count = Number(params.get("count") ?? 1000);
    const interval = Number(params.get("interval") ?? 0);
    let sequence = 0;
    const send = () => socket.send(Tick.encode(tick(sequence++)), { binary: true });
    if (interval === 0) {
      while (sequence < count) send();
      socket.close();
    } else {
      const timer = setInterval(() => {
        if (sequence < count && socket.readyState === socket.OPEN) send();
        else {
          clearInterval(timer);
          socket.close();
        }
      }, interval);
      socket.on("close", () => clearInterval(timer));
    }
  });
  await new Promise<void>((ok) => http.listen(port, "127.0.0.1", ok));
  const address = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise<void>((ok) => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      http.close(() => ok());
    }),
  };
}
