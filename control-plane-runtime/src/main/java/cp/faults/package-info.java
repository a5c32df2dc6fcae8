/**
 * Fault-injection seams: {@link cp.faults.FaultPoints} names the places where a multi-process
 * test may stop a worker (inside a tool call, inside a ledger append, inside the attention step)
 * and forwards each to a {@link cp.faults.FaultHook}, a no-op unless the test classpath provides
 * one ({@code CP_FAULT_PAUSE}, a variable no deployment sets). The ledger stores take their hook
 * as a collaborator ({@code cp.ledger.LedgerHooks}); the test code's {@code cp.ledger.WriteFaults} makes
 * chosen ledger files fail their writes in-process.
 */
package cp.faults;
