import { MissingPackageError } from '../errors/missing-package.error';
import { lazyModule } from '../internal/lazy-module';
import { rethrowMissing } from '../internal/optional-module';

/**
 * The MCP SDK (`@modelcontextprotocol/sdk`, an optional dependency, issue 29): each of its modules
 * loads with the first MCP server, client or transport that needs it and never with
 * `require('ideact')`; `MissingPackageError` names the package when it is not installed. Every
 * require sits in a `try`, so that a bundler leaves it for run time when the package is missing.
 */

const PACKAGE = '@modelcontextprotocol/sdk';
const SERVER = 'The MCP server (createMcpServer, ideact mcp serve)';
const CLIENT = 'MCP tools and resources (mcpTools, mcpResources)';

function missing(feature: string): (cause: unknown) => MissingPackageError {
  return (cause) => new MissingPackageError({ packageName: PACKAGE, feature, cause });
}

/* eslint-disable @typescript-eslint/no-require-imports -- optional, loaded on first use */

/** The SDK's message schemas and guards (`types.js`). @internal */
export const mcpTypes = lazyModule(() => {
  try {
    return require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
  } catch (error) {
    return rethrowMissing(error, PACKAGE, missing(CLIENT));
  }
});

/** What the MCP server needs of the SDK at once (the transports load when used). @internal */
export const mcpServerSdk = lazyModule(() => {
  try {
    const { Server } =
      require('@modelcontextprotocol/sdk/server/index.js') as typeof import('@modelcontextprotocol/sdk/server/index.js');
    const types =
      require('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
    return { Server, types };
  } catch (error) {
    return rethrowMissing(error, PACKAGE, missing(SERVER));
  }
});

/** The server's stdio transport. @internal */
export const mcpStdioServer = lazyModule(() => {
  try {
    return require('@modelcontextprotocol/sdk/server/stdio.js') as typeof import('@modelcontextprotocol/sdk/server/stdio.js');
  } catch (error) {
    return rethrowMissing(error, PACKAGE, missing('The MCP server over stdio'));
  }
});

/** The server's Streamable HTTP transport. @internal */
export const mcpStreamableHttpServer = lazyModule(() => {
  try {
    return require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  } catch (error) {
    return rethrowMissing(error, PACKAGE, missing('The MCP server over Streamable HTTP'));
  }
});

/** The client. @internal */
export const mcpClient = lazyModule(() => {
  try {
    return require('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
  } catch (error) {
    return rethrowMissing(error, PACKAGE, missing(CLIENT));
  }
});

/** The client's stdio transport (a server run as a child process). @internal */
export const mcpStdioClient = lazyModule(() => {
  try {
    return require('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js');
  } catch (error) {
    return rethrowMissing(error, PACKAGE, missing(CLIENT));
  }
});

/** The client's Streamable HTTP transport. @internal */
export const mcpStreamableHttpClient = lazyModule(() => {
  try {
    return require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  } catch (error) {
    return rethrowMissing(error, PACKAGE, missing(CLIENT));
  }
});

/** The client's SSE transport (servers that predate Streamable HTTP). @internal */
export const mcpSseClient = lazyModule(() => {
  try {
    return require('@modelcontextprotocol/sdk/client/sse.js') as typeof import('@modelcontextprotocol/sdk/client/sse.js');
  } catch (error) {
    return rethrowMissing(error, PACKAGE, missing(CLIENT));
  }
});
/* eslint-enable @typescript-eslint/no-require-imports */
