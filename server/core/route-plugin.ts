import fp from 'fastify-plugin';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Name of the plugin that installs the access control (declaration check + enforcement). */
export const ACCESS_PLUGIN = 'kuvert-access';

/**
 * A route plugin with a name and its dependency declared (fastify/demo style): it
 * refuses to load before the access control, so no route can slip in unchecked.
 * It stays encapsulated like a plain plugin.
 */
export function routePlugin(name: string, plugin: FastifyPluginAsyncZod) {
  return fp(plugin, { name, dependencies: [ACCESS_PLUGIN], encapsulate: true, fastify: '5.x' });
}
