import { isDeepStrictEqual } from 'node:util';
import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';

type Serialize = (data: unknown) => string;
type RouteSchema = Parameters<FastifySerializerCompiler<unknown>>[0];

/**
 * The schema as JSON Schema for fast-json-stringify, or null when zod cannot say it in JSON Schema
 * (a transform, a date): such a response keeps zod's serializer, which runs the transform.
 */
function jsonSchemaOf(schema: ZodType): Record<string, unknown> | null {
  try {
    const { $schema: _, ...json } = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' });
    return forWriting(json) as Record<string, unknown>;
  } catch {
    return null;
  }
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null;
const isNull = (branch: unknown) => isObject(branch) && branch.type === 'null' && Object.keys(branch).length === 1;

/**
 * What only validation needs is left out, so fast-json-stringify writes with plain type checks:
 * a string's format and pattern (it would check them again with ajv), and "X or null" as one type
 * list instead of anyOf, which it settles by validating each branch at run time.
 */
function forWriting(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forWriting);
  if (!isObject(node)) return node;
  const { format: _format, pattern: _pattern, ...rest } = node;
  const written = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, forWriting(value)]));
  const anyOf = written.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2 && anyOf.some(isNull)) {
    const other = anyOf.find((branch) => !isNull(branch));
    if (isObject(other) && typeof other.type === 'string') {
      const { anyOf: _anyOf, ...outer } = written;
      return { ...outer, ...other, type: [other.type, 'null'] };
    }
  }
  return written;
}

const zodSchemaOf = (schema: unknown): ZodType | null => {
  if (schema instanceof z.ZodType) return schema;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties instanceof z.ZodType ? properties : null;
};

/**
 * How responses become JSON (docs/decisions/0013). A success is written by fast-json-stringify
 * from the route's schema: only the properties the schema names leave the server (every object
 * schema is closed: zod's output schemas say `additionalProperties: false`), at a fraction of
 * validating each outgoing object with zod first. A refusal keeps zod's serializer, which also
 * checks that its code is one the route lists (errorResponses).
 *
 * `check` (the API tests): every success is also validated and written by zod, and the two texts
 * must be the same, so a handler that returns something its schema does not describe still fails
 * a test instead of being quietly coerced.
 */
export function responseSerializerCompiler({ check }: { check: boolean }) {
  return (route: RouteSchema): Serialize => {
    const checked = zodSerializerCompiler(route as never) as Serialize;
    const schema = zodSchemaOf(route.schema);
    if (!route.httpStatus?.startsWith('2') || !schema) return checked;
    const json = jsonSchemaOf(schema);
    if (!json) return checked;
    const fast = fastJson(json) as Serialize;
    if (!check) return fast;
    return (data) => {
      const expected = checked(data);
      const written = fast(data);
      if (written !== expected && !isDeepStrictEqual(JSON.parse(written), JSON.parse(expected))) {
        throw new Error(
          `${route.method} ${route.url} ${route.httpStatus}: fast-json-stringify wrote ${written.slice(0, 500)}, zod ${expected.slice(0, 500)}`,
        );
      }
      return written;
    };
  };
}
