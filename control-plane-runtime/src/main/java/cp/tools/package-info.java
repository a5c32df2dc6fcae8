/**
 * Tool dispatch and the built-in tools: {@link cp.tools.ToolDispatcher} checks that an agent and
 * its work order offer a tool, validates the arguments, runs it and turns every failure into a
 * {@link cp.tools.ToolResult}; {@link cp.tools.PathPolicy} decides which files an agent may
 * touch ({@link cp.tools.SecretFileNames} never), {@link cp.tools.NoFollowOpen} opens them without
 * following links; {@link cp.tools.IntegrityGates} judges the plane. Each call runs with the
 * session that made it ({@link cp.tools.ToolContext#sessionId}), and ledger reads stay within it
 * unless the agent's {@code permissions.ledger_scope} is {@code all}.
 *
 * <p>This package does I/O (files under the plane root, ledgers) and runs inside activities,
 * never in workflow code.
 */
package cp.tools;
