/**
 * One namespace for every tool a worker has: built-in, Java ({@code CP_TOOLS_PATH}) and MCP.
 *
 * <p>Built at worker start and immutable after: a duplicate name, a bad descriptor or schema
 * stops the start naming both origins, the jar or the server. Names keep their origin's form
 * ({@code read_file}, {@code get-weather}, {@code everything/echo}) for grants and calls; the
 * name a model provider sees is sanitized ({@link cp.tools.registry.ExposedNames}).
 */
package cp.tools.registry;
