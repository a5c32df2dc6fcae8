/**
 * Prompt contracts, prompt packs, agent configurations and attention templates: loaded and
 * validated once at start-up, then looked up by id.
 *
 * <p>This package reads files (the classpath or a directory) while a {@link cp.contracts.Catalog}
 * loads, and never afterwards: lookups, schema validation and prompt rendering are pure and
 * thread-safe, so activities can share one catalog. Workflow code must not load a catalog;
 * it receives what it needs (ids, limits) in its inputs.
 */
package cp.contracts;
