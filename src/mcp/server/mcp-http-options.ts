/** Where and how `serveHttp` listens. */
export interface McpHttpOptions {
  /** TCP port (default 0: any free port; read it from the endpoint). */
  port?: number;
  /** Interface to bind (default `127.0.0.1`: only this machine can connect). */
  host?: string;
  /** The URL path of the MCP endpoint (default `/mcp`). */
  path?: string;
  /** When set, every request must send `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /**
   * Origins allowed besides loopback ones (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`).
   * A request with any other `Origin` header is refused with 403 (DNS-rebinding protection); requests
   * without an Origin (non-browser clients) pass.
   */
  allowedOrigins?: string[];
  /** Largest request body accepted, in bytes (default 4 MiB; larger ones get 413). */
  maxBodyBytes?: number;
}

/** A listening Streamable HTTP endpoint. */
export interface McpHttpEndpoint {
  /** The endpoint's URL, e.g. `http://127.0.0.1:41234/mcp`. */
  readonly url: URL;
  /** The port it listens on. */
  readonly port: number;
  /** Closes the sessions and stops listening. */
  close(): Promise<void>;
}
