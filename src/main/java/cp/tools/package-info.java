/**
 * Tool dispatch and the built-in tools: {@link cp.tools.ToolDispatcher} checks that an agent and
 * its work order offer a tool, validates the arguments, runs it and turns every failure into a
 * {@link cp.tools.ToolResult}; {@link cp.tools.PathPolicy} decides which files an agent may
 * touch; {@link cp.tools.IntegrityGates} judges the plane.
 *
 * <p>This package does I/O (files under the plane root, ledgers) and runs inside activities,
 * never in workflow code.
 */
package cp.tools;
