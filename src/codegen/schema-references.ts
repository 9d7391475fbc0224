import { InvalidSchemaError } from '../errors/invalid-schema.error';
import type { JSONSchema } from '../protocol/json-schema';
import { walkSchema } from '../protocol/schema-walk';
import { childPath } from './naming';

/** Where a schema comes from and whether codegen may download the schemas it references. */
export interface ReferencePolicy {
  /** The Idea file the schema belongs to (named in errors). */
  ideaFile: string;
  /** JSON Pointer of the schema inside the Idea file (errors name the `$ref` below it). */
  jsonPath: string;
  /** Let json-schema-to-typescript download `http(s)` `$ref`s; off by default so codegen stays offline. */
  allowRemoteRefs: boolean;
}

const REMOTE = /^https?:/i;

/**
 * Makes `$ref`s that point into the schema itself through an absolute `$id` local
 * (`https://example.com/song.json#/$defs/Mood` → `#/$defs/Mood`, also for `$id`s of embedded
 * subschemas), so they never go to the network. Any other `http(s)` `$ref` is an
 * `InvalidSchemaError` naming the file and the ref unless `allowRemoteRefs` is set. Returns a copy;
 * iterative, so deeply nested schemas do not overflow the stack.
 */
export function localizeReferences(schema: JSONSchema, policy: ReferencePolicy): JSONSchema {
  const copy = structuredClone(schema);
  const documents = embeddedDocuments(copy);
  forEachSchemaNode(copy, policy.jsonPath, (node, nodePath) => {
    const reference = node.$ref;
    if (typeof reference !== 'string' || reference.startsWith('#')) return;
    const hash = reference.indexOf('#');
    const base = normalizeUri(hash === -1 ? reference : reference.slice(0, hash));
    const fragment = hash === -1 ? '' : reference.slice(hash + 1);
    const documentPointer = documents.get(base);
    if (documentPointer !== undefined) {
      node.$ref =
        fragment === '' || fragment.startsWith('/')
          ? `#${documentPointer.replace(/%/g, '%25')}${fragment}`
          : `#${fragment}`;
      return;
    }
    if (REMOTE.test(reference) && !policy.allowRemoteRefs) {
      throw remoteReferenceError(reference, policy.ideaFile, childPath(nodePath, '$ref'));
    }
  });
  return copy;
}

/**
 * The error for a remote `$ref` codegen refused to download: names the Idea file, where the ref is
 * (when known) and the ref, and says how to fix it.
 */
export function remoteReferenceError(
  reference: string,
  ideaFile: string,
  jsonPath?: string,
  cause?: unknown,
): InvalidSchemaError {
  const where = jsonPath === undefined ? '' : ` at ${jsonPath}`;
  return new InvalidSchemaError({
    message:
      `The schema in ${ideaFile}${where} has the remote $ref "${reference}"; codegen does not ` +
      'download schemas unless told to. Copy the referenced schema into "$defs" and point the ' +
      '$ref at it ("#/$defs/Name"), or pass --allow-remote-refs (allowRemoteRefs: true) to ' +
      'let codegen fetch it.',
    cause,
  });
}

/**
 * The `$ref` options for json-schema-to-typescript: http(s) is disabled unless allowed; a remote URL
 * the resolver still meets (inside a referenced local file) is recorded in `blocked` and fails.
 */
export function referenceResolverOptions(allowRemoteRefs: boolean, blocked: string[]): object {
  if (allowRemoteRefs) return {};
  return {
    resolve: {
      http: false,
      blockRemote: {
        order: 1,
        canRead: REMOTE,
        read(file: { url: string }): never {
          blocked.push(file.url);
          throw new Error(`remote $ref "${file.url}" is not fetched (allowRemoteRefs is off)`);
        },
      },
    },
  };
}

/** Absolute `$id`s (without fragment) of the schema and its subschemas → their JSON Pointer. */
function embeddedDocuments(schema: JSONSchema): Map<string, string> {
  const documents = new Map<string, string>();
  forEachSchemaNode(schema, '', (node, nodePath) => {
    const id = node.$id;
    if (typeof id !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(id)) return;
    const base = normalizeUri(id.split('#')[0]!);
    if (!documents.has(base)) documents.set(base, nodePath);
  });
  return documents;
}

/** Visits every schema object of `root` (schema-walk: never `enum`/`const`/… data), with its path. */
function forEachSchemaNode(
  root: JSONSchema,
  rootPath: string,
  visit: (node: JSONSchema, nodePath: string) => void,
): void {
  walkSchema(root, (node, pointer) => {
    if (typeof node !== 'boolean') visit(node, rootPath + pointer);
  });
}

/** `HTTPS://Example.com/a.json` and `https://example.com/a.json` name the same document. */
function normalizeUri(uri: string): string {
  try {
    return new URL(uri).href;
  } catch {
    return uri;
  }
}
