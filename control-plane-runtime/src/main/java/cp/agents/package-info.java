/**
 * Agent definitions ({@code CP_AGENTS_DIR}): agent classes a team defines in a YAML or JSON file,
 * loaded beside the built-in ADMIN and RESIDENT.
 *
 * <p>Reading and checking a definition does file I/O (the definition, its instructions file, the
 * stdio command on PATH) but no network: {@code cpctl agents check} runs it with no worker and no
 * provider. A checked definition becomes the same {@link cp.contracts.AgentConfig} the built-in
 * agents have ({@link cp.agents.DefinitionConfigs}).
 */
package cp.agents;
