import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z, type ZodType } from 'zod';

type TransformInput = Parameters<typeof jsonSchemaTransform>[0];

/**
 * jsonSchemaTransform, except that querystring, params and headers schemas are
 * inlined: @fastify/swagger expands them into parameters and cannot follow a
 * `$ref` to a named component (a contract schema with `.meta({ id })`). A rebuilt
 * object with the same shape and catchall has no registry entry and no parent.
 */
export function openApiTransform(input: TransformInput): ReturnType<typeof jsonSchemaTransform> {
  const schema = input.schema as Record<string, unknown> | undefined;
  if (!schema) return jsonSchemaTransform(input);
  const inlined: Record<string, unknown> = { ...schema };
  for (const part of ['querystring', 'params', 'headers'] as const) {
    const zodSchema = schema[part] as ZodType | undefined;
    if (zodSchema instanceof z.ZodObject) {
      const catchall = zodSchema._zod.def.catchall as ZodType | undefined;
      const plain = z.object(zodSchema.shape);
      inlined[part] = catchall ? plain.catchall(catchall) : plain;
    }
  }
  return jsonSchemaTransform({ ...input, schema: inlined } as TransformInput);
}
